package frontend

import (
	"fmt"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/syntax"
	"github.com/gofx/gofx/torchscript/types"
)

// Upgrader is a versioned operator (PyTorch's operator_upgraders table, as
// torchscript/archive's Upgraders gives it): in an archive whose format
// version is below Before, a call of the overload Op is matched against
// OldSchema and compiled as the body of the TorchScript function Name that
// Source defines, as PyTorch's loader does (the old schema in
// emitBuiltinCall, then ReplaceOldOperatorsWithUpgraders).
type Upgrader struct {
	Op        string // "aten::div.Tensor", "aten::gelu"
	Before    int
	Name      string
	OldSchema string
	Source    string
}

// upgraderFor returns the upgrader a call of o needs in this unit's
// archive version, nil when none.
func (cu *CompilationUnit) upgraderFor(o *ops.Operator) *Upgrader {
	if cu.version <= 0 {
		return nil
	}
	q := o.Schema().QualifiedName()
	for i := range cu.upgraders {
		u := &cu.upgraders[i]
		if u.Op == q && cu.version < int64(u.Before) {
			return u
		}
	}
	return nil
}

// upgraderSig returns the signature of u's old schema.
func (cu *CompilationUnit) upgraderSig(o *ops.Operator, u *Upgrader) (*callSig, error) {
	if s, ok := cu.upSigs[u.Name]; ok {
		return s, nil
	}
	schema, err := ops.ParseSchema(u.OldSchema)
	if err != nil {
		return nil, fmt.Errorf("upgrader %s: old schema: %v", u.Name, err)
	}
	var args, rets []types.Type
	for _, a := range schema.Args {
		t, err := schemaType(a.Type)
		if err != nil {
			return nil, fmt.Errorf("upgrader %s: %v", u.Name, err)
		}
		args = append(args, t)
	}
	for _, r := range schema.Returns {
		t, err := schemaType(r.Type)
		if err != nil {
			return nil, fmt.Errorf("upgrader %s: %v", u.Name, err)
		}
		rets = append(rets, t)
	}
	s := schemaSig(o, schema, args, rets)
	if s == nil {
		return nil, fmt.Errorf("upgrader %s: unsupported old schema", u.Name)
	}
	s.upgrader = u
	cu.upSigs[u.Name] = s
	return s, nil
}

// upgraderGraph compiles u's function.
func (cu *CompilationUnit) upgraderGraph(u *Upgrader) (*ir.Graph, error) {
	if fn, ok := cu.upFuncs[u.Name]; ok {
		return fn.compile()
	}
	name := "upgrader " + u.Name
	ast, err := syntax.Parse(name, []byte(u.Source))
	if err != nil {
		return nil, err
	}
	f := &fileCtx{cu: cu, module: "__upgraders__", name: name, ast: ast, defs: map[string]syntax.Stmt{}, current: true}
	var def *syntax.FuncDef
	for _, s := range ast.Stmts {
		if d, ok := s.(*syntax.FuncDef); ok && d.Name == u.Name {
			def = d
		}
	}
	if def == nil {
		return nil, fmt.Errorf("upgrader %s: its source defines no function %s", u.Name, u.Name)
	}
	fn := &Function{Name: u.Name, Qualified: "__upgraders__." + u.Name, file: f, def: def}
	if err := f.declareFunc(fn, nil); err != nil {
		return nil, err
	}
	cu.upFuncs[u.Name] = fn
	return fn.compile()
}

// inline copies g's nodes at the insert point with its inputs bound to
// ins and returns what g returns.
func (e *emitter) inline(at syntax.Node, g *ir.Graph, ins []*ir.Value) (*ir.Value, error) {
	if len(g.Inputs()) != len(ins) || len(g.Outputs()) != 1 {
		return nil, e.f.errorf(at, "cannot inline a graph of %d inputs and %d outputs for %d arguments", len(g.Inputs()), len(g.Outputs()), len(ins))
	}
	m := map[*ir.Value]*ir.Value{}
	for i, p := range g.Inputs() {
		m[p] = ins[i]
	}
	if err := e.copyNodes(g.Block(), m); err != nil {
		return nil, err
	}
	return m[g.Outputs()[0]], nil
}

// inlineUpgrader inlines an upgrader's graph as PyTorch's
// ReplaceOldOperatorsWithUpgraders pass does after compiling: the copied
// values keep the upgrader's debug names (steps), and the result takes no
// name from the assignment it feeds (the pass replaces the old operator's
// output, which had the name).
func (e *emitter) inlineUpgrader(at syntax.Node, g *ir.Graph, ins []*ir.Value) (*ir.Value, error) {
	if len(g.Inputs()) != len(ins) || len(g.Outputs()) != 1 {
		return nil, e.f.errorf(at, "cannot inline a graph of %d inputs and %d outputs for %d arguments", len(g.Inputs()), len(g.Outputs()), len(ins))
	}
	m := map[*ir.Value]*ir.Value{}
	for i, p := range g.Inputs() {
		m[p] = ins[i]
	}
	if err := e.copyNodes(g.Block(), m); err != nil {
		return nil, err
	}
	g.Walk(func(n *ir.Node) {
		for _, b := range n.Blocks {
			for _, p := range b.Params {
				if w := m[p]; p.DebugName() != "" && w.DebugName() == "" {
					_ = w.SetDebugName(p.DebugName())
				}
			}
		}
		for _, o := range n.Outputs {
			if w := m[o]; o.DebugName() != "" && w.DebugName() == "" {
				_ = w.SetDebugName(o.DebugName())
			}
		}
	})
	out := m[g.Outputs()[0]]
	if e.anon == nil {
		e.anon = map[*ir.Value]bool{}
	}
	e.anon[out] = true
	return out, nil
}

func (e *emitter) copyNodes(src *ir.Block, m map[*ir.Value]*ir.Value) error {
	lookup := func(v *ir.Value) (*ir.Value, error) {
		w, ok := m[v]
		if !ok {
			return nil, fmt.Errorf("inlining: value %%%s is used before it is defined", v.Name())
		}
		return w, nil
	}
	for _, n := range src.Nodes {
		ins := make([]*ir.Value, len(n.Inputs))
		for i, v := range n.Inputs {
			w, err := lookup(v)
			if err != nil {
				return err
			}
			ins[i] = w
		}
		outs := make([]types.Type, len(n.Outputs))
		for i, o := range n.Outputs {
			outs[i] = o.Type
		}
		nn := e.insert(n.Kind, ins, outs...)
		nn.Attrs = append([]ir.Attr(nil), n.Attrs...)
		nn.Op, nn.Source, nn.Scope = n.Op, n.Source, n.Scope
		for i, o := range n.Outputs {
			m[o] = nn.Outputs[i]
		}
		for _, b := range n.Blocks {
			nb := nn.AddBlock()
			for _, p := range b.Params {
				m[p] = nb.AddParam(p.Type)
			}
			if _, err := e.withBlock(nb, func() error {
				if err := e.copyNodes(b, m); err != nil {
					return err
				}
				for _, o := range b.Outputs {
					w, err := lookup(o)
					if err != nil {
						return err
					}
					nb.AddOutput(w)
				}
				return nil
			}); err != nil {
				return err
			}
		}
	}
	return nil
}
