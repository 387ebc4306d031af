package frontend

import (
	"slices"

	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/syntax"
	"github.com/gofx/gofx/torchscript/types"
)

// closureValue is a function defined inside a function body (`def
// __forked_function(): ...`, the closures python_print writes for
// prim::fork), lifted as PyTorch's liftClosures and inlineForkedClosures
// do: its body is a graph whose inputs are the values it reads from the
// enclosing function (captures, in first-use order), its output the
// returned value.
type closureValue struct {
	name     string
	graph    *ir.Graph
	captures []*ir.Value
	ret      types.Type
	def      *syntax.FuncDef
}

// closureDef compiles a nested def. TorchScript's serializer writes one
// only as the closure of a fork: no parameters, a body ending in a
// return. The body is emitted into a block of a temporary prim::Closure
// node (so that it reads the enclosing variables through the scope chain),
// then lifted into a graph of its own and the temporary node removed.
func (e *emitter) closureDef(d *syntax.FuncDef) error {
	if len(d.Params) > 0 {
		return e.f.errorf(d, "the nested function %s takes parameters: only the parameterless closures of fork are supported", d.Name)
	}
	tmp := e.insert("prim::Closure", nil)
	e.setSource(tmp, d)
	b := tmp.AddBlock()
	var ret *ir.Value
	_, err := e.withBlock(b, func() error {
		body, exits, err := e.lowerReturns(d.Body)
		if err != nil {
			return err
		}
		if !exits {
			return e.f.errorf(d, "the closure %s does not return a value on every path", d.Name)
		}
		if err := e.stmts(body); err != nil {
			return err
		}
		// the closure's scope's own $return (not an enclosing one's)
		v, _ := e.env.vars[retVar].(*ir.Value)
		if v == nil {
			return e.f.errorf(d, "the closure %s does not return a value", d.Name)
		}
		ret = v
		return nil
	})
	if err != nil {
		_ = tmp.Destroy()
		return err
	}
	b.AddOutput(ret)
	hoistConstants(tmp, b)
	g, captures, err := liftBlock(b)
	if err != nil {
		_ = tmp.Destroy()
		return e.f.errorf(d, "lifting the closure %s: %v", d.Name, err)
	}
	if err := tmp.Destroy(); err != nil {
		return e.f.errorf(d, "lifting the closure %s: %v", d.Name, err)
	}
	e.env.set(d.Name, closureValue{name: d.Name, graph: g, captures: captures, ret: ret.Type, def: d})
	return nil
}

// hoistConstants moves the int, float and bool constants of the closure's
// block before the closure node: PyTorch's emitter materializes those at
// the top of the enclosing graph, so a closure reads them from outside
// (they become inputs of the lifted graph).
func hoistConstants(closure *ir.Node, b *ir.Block) {
	var consts []*ir.Node
	b.Walk(func(n *ir.Node) {
		if n.Kind != "prim::Constant" {
			return
		}
		if a, ok := n.Attr("value"); ok && (a.Kind == ir.AttrInt || a.Kind == ir.AttrFloat) {
			consts = append(consts, n)
		}
	})
	for _, n := range consts {
		_ = n.MoveBefore(closure)
	}
}

// liftBlock copies b into a new graph: the values b reads from outside it
// become the graph's inputs, in first-use order (they keep their debug
// names), b's outputs its outputs. It returns the graph and the outside
// values, one per input.
func liftBlock(b *ir.Block) (*ir.Graph, []*ir.Value, error) {
	g := ir.NewGraph()
	env := map[*ir.Value]*ir.Value{}
	var captures []*ir.Value
	inside := map[*ir.Value]bool{}
	b.Walk(func(n *ir.Node) {
		for _, o := range n.Outputs {
			inside[o] = true
		}
		for _, sb := range n.Blocks {
			for _, p := range sb.Params {
				inside[p] = true
			}
		}
	})
	get := func(v *ir.Value) (*ir.Value, error) {
		if w, ok := env[v]; ok {
			return w, nil
		}
		if inside[v] {
			return nil, errUndefined(v)
		}
		w, err := g.AddInput("", v.Type)
		if err != nil {
			return nil, err
		}
		if v.DebugName() != "" {
			_ = w.SetDebugName(v.DebugName())
		}
		env[v] = w
		captures = append(captures, v)
		return w, nil
	}
	var copyBlock func(src, dst *ir.Block) error
	copyBlock = func(src, dst *ir.Block) error {
		for _, n := range src.Nodes {
			ins := make([]*ir.Value, len(n.Inputs))
			for i, v := range n.Inputs {
				w, err := get(v)
				if err != nil {
					return err
				}
				ins[i] = w
			}
			outTypes := make([]types.Type, len(n.Outputs))
			for i, o := range n.Outputs {
				outTypes[i] = o.Type
			}
			m := g.Create(n.Kind, ins, outTypes...)
			m.Attrs = slices.Clone(n.Attrs)
			m.Op, m.Scope = n.Op, n.Scope
			if n.Source != nil {
				s := *n.Source
				m.Source = &s
			}
			for i, o := range n.Outputs {
				env[o] = m.Outputs[i]
				if o.DebugName() != "" {
					_ = m.Outputs[i].SetDebugName(o.DebugName())
				}
			}
			for _, sb := range n.Blocks {
				nb := m.AddBlock()
				for _, p := range sb.Params {
					q := nb.AddParam(p.Type)
					if p.DebugName() != "" {
						_ = q.SetDebugName(p.DebugName())
					}
					env[p] = q
				}
				if err := copyBlock(sb, nb); err != nil {
					return err
				}
				for _, o := range sb.Outputs {
					w, err := get(o)
					if err != nil {
						return err
					}
					nb.AddOutput(w)
				}
			}
			if err := dst.Append(m); err != nil {
				return err
			}
		}
		return nil
	}
	if err := copyBlock(b, g.Block()); err != nil {
		return nil, nil, err
	}
	for _, o := range b.Outputs {
		w, err := get(o)
		if err != nil {
			return nil, nil, err
		}
		g.RegisterOutput(w)
	}
	return g, captures, nil
}

type undefinedError struct{ v *ir.Value }

func (e undefinedError) Error() string {
	return "the value %" + e.v.Name() + " is used before it is defined"
}

func errUndefined(v *ir.Value) error { return undefinedError{v} }
