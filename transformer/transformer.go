package transformer

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
)

// Transformer turns a GraphModule into a new one by running its graph on
// proxies that record a new graph. It is an *interp.Interpreter whose
// default steps record: each re-records the node it runs, with the same
// opcode and target and its arguments mapped to the new graph, and
// returns the proxy of the new node. Override steps by embedding
// *Transformer in a type, defining the methods of interp.Steps you need,
// and setting the Steps field to your value (see the package
// documentation).
//
// Use Transform, not the interpreter's Run: the default steps record only
// while a transform is in progress. A Transformer is not safe for
// concurrent use; the source GraphModule is only read, so it can run, or
// be transformed by other Transformers, meanwhile.
type Transformer struct {
	*interp.Interpreter

	src *fx.GraphModule
	rec *fx.Recorder // of the transform in progress
	cur *node.Node   // the source node being transformed
}

// New returns a Transformer of gm. Its Steps field is the Transformer
// itself (the default steps); a type that overrides steps sets Steps to
// itself.
func New(gm *fx.GraphModule) *Transformer {
	t := &Transformer{src: gm}
	if gm != nil {
		t.Interpreter = interp.New(gm.Graph, gm)
	} else {
		t.Interpreter = interp.New(nil, nil)
	}
	t.Steps = t
	return t
}

// Module returns the GraphModule being transformed.
func (t *Transformer) Module() *fx.GraphModule { return t.src }

// Recorder returns the recorder of the transform in progress (nil between
// transforms): an override can create nodes with its Create, turn values
// into node arguments with Arg, and read the new graph.
func (t *Transformer) Recorder() *fx.Recorder { return t.rec }

// Current returns the source node being transformed (nil between
// transforms). Nodes recorded while it runs get its stack_trace and
// nn_module_stack.
func (t *Transformer) Current() *node.Node { return t.cur }

// Transform runs the source graph through the steps and returns the new
// GraphModule: the recorded graph over the source's module tree (the same
// parameters, buffers, constants and submodules), with the new constants
// the overrides made as its own buffers. The output node is recorded from
// the value the Output step returns. A step that fails stops the transform
// with an *interp.NodeError naming the source node; no panic escapes.
func (t *Transformer) Transform() (gm *fx.GraphModule, err error) {
	if t.src == nil || t.src.Graph == nil {
		return nil, errors.New("transformer: Transform: nil GraphModule")
	}
	if t.Steps == nil {
		t.Steps = t
	}
	t.rec = fx.NewRecorder(t.src)
	t.rec.SetAnnotate(t.annotate)
	defer func() {
		t.rec, t.cur = nil, nil
	}()
	defer nn.Recover(&err)
	out, err := t.Run()
	if err != nil {
		return nil, err
	}
	if on := t.src.Graph.OutputNode(); on != nil {
		t.cur = on
		var hint node.Arg
		if on.NumArgs() > 0 {
			hint = on.Arg(0)
		}
		res, err := t.arg(out, hint)
		if err != nil {
			return nil, &interp.NodeError{Node: on, Err: fmt.Errorf("output: %w", err)}
		}
		n, err := t.rec.Create(node.Output, on.Target(), []node.Arg{res}, nil, on.Name())
		if err != nil {
			return nil, &interp.NodeError{Node: on, Err: err}
		}
		n.Meta = on.Meta.Clone()
	}
	return t.rec.GraphModule()
}

// annotate gives a node recorded while the current node runs that node's
// provenance: stack_trace, nn_module_stack, source_fn_stack, torch_fn and
// custom (node.CopyProvenance).
func (t *Transformer) annotate(n *node.Node) {
	if c := t.cur; c != nil {
		node.CopyProvenance(&n.Meta, &c.Meta)
	}
}

// RunNode makes n the current node and runs it with the interpreter's
// RunNode (FetchArgs, then the step of n's opcode, both through Steps).
// An override of RunNode must call it for the node's metadata to reach
// the nodes it records.
func (t *Transformer) RunNode(n *node.Node) (nn.Value, error) {
	if t.rec == nil {
		return nn.None, errors.New("transformer: RunNode outside Transform")
	}
	t.cur = n
	return t.Interpreter.RunNode(n)
}

// Placeholder records a placeholder with n's name and target (and its
// default, args[0], if it has one).
func (t *Transformer) Placeholder(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	return t.Record(n, node.Placeholder, node.Path(target), args, kwargs)
}

// GetAttr records a get_attr of target: the parameter, buffer or constant
// of the same name in the new GraphModule.
func (t *Transformer) GetAttr(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	return t.Record(n, node.GetAttr, node.Path(target), args, kwargs)
}

// CallFunction records a call of target. One case is taken apart instead:
// operator.getitem of a constant index on a Go tuple that an override
// returned where the source had a node returns the element itself.
func (t *Transformer) CallFunction(n *node.Node, target node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if target == nn.GetItem && len(args) == 2 && len(kwargs) == 0 && n.NumArgs() == 2 {
		if v, ok := t.literalItem(n, args); ok {
			return v, nil
		}
	}
	return t.Record(n, node.CallFunction, target, args, kwargs)
}

// literalItem returns args[0][args[1]] when args[0] is a tuple that does
// not stand for one node, which the source had as a node.
func (t *Transformer) literalItem(n *node.Node, args []nn.Value) (nn.Value, bool) {
	if _, ok := n.Arg(0).(*node.Node); !ok || !args[0].IsTuple() {
		return nn.None, false
	}
	i, ok := args[1].Any().(int64)
	if !ok {
		return nn.None, false
	}
	if a, err := t.rec.Arg(args[0]); err != nil {
		return nn.None, false
	} else if _, whole := a.(*node.Node); whole {
		return nn.None, false
	}
	xs := args[0].Tuple()
	if i < 0 {
		i += int64(len(xs))
	}
	if i < 0 || i >= int64(len(xs)) {
		return nn.None, false
	}
	return xs[i], true
}

// CallMethod records a call of the tensor method target.
func (t *Transformer) CallMethod(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	return t.Record(n, node.CallMethod, node.Path(target), args, kwargs)
}

// CallModule records a call of the submodule at target (the same path in
// the new GraphModule, which shares the source's submodules).
func (t *Transformer) CallModule(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	return t.Record(n, node.CallModule, node.Path(target), args, kwargs)
}

// Output returns args[0], the value the new graph returns: Transform
// records the output node from it.
func (t *Transformer) Output(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if len(args) == 0 {
		return nn.None, nil
	}
	return args[0], nil
}

// Record records a node of opcode op calling target on args and kwargs
// into the new graph, as the default steps do, and returns its proxy (for
// an operator with several results, a tuple of lazy element proxies). The
// node copies the metadata of the source node n, and takes n's name when
// op and target are n's (a suffix is added if an override took the name
// already). Arguments are converted as fx.Recorder.Arg does, except that
// where n has a list, device, layout or memory format at the same
// position, the value is written back in that form: a graph recorded with
// the default steps is the source graph.
func (t *Transformer) Record(n *node.Node, op node.Opcode, target node.Target, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if t.rec == nil {
		return nn.None, errors.New("transformer: Record outside Transform")
	}
	if n == nil || target == nil {
		return nn.None, errors.New("transformer: Record: nil node or target")
	}
	var nargs []node.Arg
	if len(args) > 0 {
		nargs = make([]node.Arg, len(args))
		for i, a := range args {
			var hint node.Arg
			if i < n.NumArgs() {
				hint = n.Arg(i)
			}
			x, err := t.arg(a, hint)
			if err != nil {
				return nn.None, fmt.Errorf("%s %s: argument %d: %w", op, target, i, err)
			}
			nargs[i] = x
		}
	}
	kw, err := t.kwargs(n, kwargs)
	if err != nil {
		return nn.None, fmt.Errorf("%s %s: %w", op, target, err)
	}
	name := ""
	if op == n.Op() && target.String() == n.Target().String() {
		name = n.Name()
	}
	m, err := t.rec.Create(op, target, nargs, kw, name)
	if err != nil {
		return nn.None, err
	}
	m.Meta = n.Meta.Clone()
	return t.rec.Proxy(m), nil
}

// kwargs converts keyword arguments in the order n has them, then any new
// ones in name order.
func (t *Transformer) kwargs(n *node.Node, kwargs map[string]nn.Value) (node.Kwargs, error) {
	if len(kwargs) == 0 {
		return nil, nil
	}
	kw := make(node.Kwargs, 0, len(kwargs))
	for _, f := range n.Kwargs() {
		v, ok := kwargs[f.Name]
		if !ok {
			continue
		}
		x, err := t.arg(v, f.Value)
		if err != nil {
			return nil, fmt.Errorf("argument '%s': %w", f.Name, err)
		}
		kw = append(kw, node.Field{Name: f.Name, Value: x})
	}
	if len(kw) < len(kwargs) {
		var rest []string
		for k := range kwargs {
			if !slices.ContainsFunc(kw, func(f node.Field) bool { return f.Name == k }) {
				rest = append(rest, k)
			}
		}
		slices.Sort(rest)
		for _, k := range rest {
			x, err := t.arg(kwargs[k], nil)
			if err != nil {
				return nil, fmt.Errorf("argument '%s': %w", k, err)
			}
			kw = append(kw, node.Field{Name: k, Value: x})
		}
	}
	return kw, nil
}

// arg converts v to a node argument, in the form of hint (the source's
// argument at the same position) where the value fits it.
func (t *Transformer) arg(v nn.Value, hint node.Arg) (node.Arg, error) {
	switch h := hint.(type) {
	case node.List:
		if xs, ok := v.Any().([]nn.Value); ok {
			out, err := t.seq(xs, h)
			return node.List(out), err
		}
	case node.Tuple:
		if xs, ok := v.Any().([]nn.Value); ok {
			out, err := t.seq(xs, h)
			return node.Tuple(out), err
		}
	case node.Device:
		if s, ok := v.Any().(string); ok {
			return node.Device(s), nil
		}
	case node.Layout:
		if s, ok := v.Any().(string); ok {
			return node.Layout(s), nil
		}
	case node.MemoryFormat:
		if s, ok := v.Any().(string); ok {
			return node.MemoryFormat(s), nil
		}
	case node.Int:
		if i, ok := v.Any().(int64); ok && i == int64(h) {
			return h, nil // the source's constant, unchanged
		}
	case node.Float:
		if f, ok := v.Any().(float64); ok && math.Float64bits(f) == math.Float64bits(float64(h)) {
			return h, nil
		}
	case node.Bool:
		if b, ok := v.Any().(bool); ok && b == bool(h) {
			return h, nil
		}
	}
	return t.rec.Arg(v)
}

func (t *Transformer) seq(xs []nn.Value, hints []node.Arg) ([]node.Arg, error) {
	out := make([]node.Arg, len(xs))
	for i, x := range xs {
		var h node.Arg
		if i < len(hints) {
			h = hints[i]
		}
		a, err := t.arg(x, h)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}
