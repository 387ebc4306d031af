package nn

import (
	"fmt"
	"slices"

	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
)

// The higher-order operators of PyTorch 2.x's exported programs
// (torch.ops.higher_order.cond, while_loop, map_impl): call_function
// targets whose arguments include subgraphs (get_attr nodes naming
// submodules such as true_graph_0, which the interpreter passes as module
// values, see ModuleValue). Graphs hold and print them like any function
// ("cond = torch.ops.higher_order.cond(gt, true_graph_0, false_graph_0,
// [x])", nodes named cond, while_loop, map_impl); node.LookupTarget
// resolves the names .pt2 files write. Each returns a tuple, read with
// operator.getitem, as PyTorch's dense implementations
// (torch/_higher_order_ops/cond.py, while_loop.py, map.py) do.
var (
	// CondOp is torch.cond's operator: cond(pred, true_fn, false_fn,
	// operands) calls true_fn(*operands) if pred is true, else
	// false_fn(*operands); only the taken branch runs. pred is a bool or a
	// one-element bool tensor.
	CondOp = node.MustFunc("higher_order.cond", false)
	// WhileLoopOp is torch._higher_order_ops.while_loop's operator:
	// while_loop(cond_fn, body_fn, carried_inputs, additional_inputs)
	// runs carried = body_fn(*carried, *additional) while
	// cond_fn(*carried, *additional) is true and returns the carried
	// values. Every iteration's carried values keep their kind, dtype and
	// shape.
	WhileLoopOp = node.MustFunc("higher_order.while_loop", false)
	// MapImplOp is torch.map's operator: map_impl(body_fn, xs, args) calls
	// body_fn(*[x[i] for x in xs], *args) for each i of the mapped
	// tensors' common leading dim and stacks the results along a new
	// leading dim.
	MapImplOp = node.MustFunc("higher_order.map_impl", false)
)

// hopStack stacks map_impl's results.
var hopStack = Op("aten::stack")

func init() {
	must(RegisterFunction(CondOp, condImpl))
	must(RegisterFunction(WhileLoopOp, whileLoopImpl))
	must(RegisterFunction(MapImplOp, mapImpl))
}

// moduleRef is the representation of a module Value that knows the path
// it was read from (ModuleAt).
type moduleRef struct {
	m    Module
	path string
}

// ModuleAt is ModuleValue for the module read from path (the target of a
// get_attr node): errors of a higher-order operator running it name it.
func ModuleAt(m Module, path string) Value {
	if isNilModule(m) {
		return None
	}
	return Value{&moduleRef{m, path}}
}

// ModulePath returns the path of a module Value made by ModuleAt ("" for
// any other value).
func (v Value) ModulePath() string {
	if r, ok := v.v.(*moduleRef); ok {
		return r.path
	}
	return ""
}

// hopArgs binds a higher-order operator's arguments to its parameter
// names, positional or keyword.
func hopArgs(fn *node.Func, names []string, args []Value, kwargs map[string]Value) ([]Value, error) {
	if len(args) > len(names) {
		return nil, fmt.Errorf("%s takes %d arguments (%v), got %d", fn.PythonName(), len(names), names, len(args))
	}
	out := make([]Value, len(names))
	copy(out, args)
	for k, v := range kwargs {
		i := slices.Index(names, k)
		if i < 0 {
			return nil, fmt.Errorf("%s got an unexpected keyword argument %q", fn.PythonName(), k)
		}
		if i < len(args) {
			return nil, fmt.Errorf("%s got multiple values for argument %q", fn.PythonName(), k)
		}
		out[i] = v
	}
	for i := len(args); i < len(names); i++ {
		if _, ok := kwargs[names[i]]; !ok {
			return nil, fmt.Errorf("%s missing required argument %q", fn.PythonName(), names[i])
		}
	}
	return out, nil
}

// graphArg is a subgraph argument: the module and how errors name it.
type graphArg struct {
	m    Module
	name string // "true branch true_graph_0"
}

// graphOf checks that v is a module: what, with its path, names it.
func graphOf(fn *node.Func, what string, v Value) (graphArg, error) {
	m := v.Module()
	if m == nil {
		return graphArg{}, fmt.Errorf("%s: %s must be a graph (a get_attr of a submodule), got %s", fn.PythonName(), what, v.Kind())
	}
	if p := v.ModulePath(); p != "" {
		what += " " + p
	}
	return graphArg{m, what}, nil
}

// operandsOf returns the elements of a tuple or list argument.
func operandsOf(fn *node.Func, what string, v Value) ([]Value, error) {
	if !v.IsTuple() {
		return nil, fmt.Errorf("%s: %s must be a tuple or list, got %s", fn.PythonName(), what, v.Kind())
	}
	return v.Tuple(), nil
}

// run calls g on args, turning a failure into an error naming the op and
// the graph.
func (g graphArg) run(fn *node.Func, args []Value) (out Value, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("%s: %s: %w", fn.PythonName(), g.name, err)
		}
	}()
	defer Recover(&err)
	return Call(g.m, args...), nil
}

// Truth returns the truth value of a predicate of a higher-order operator:
// a bool, or a bool tensor of one element (torch.cond's "bool or
// single-element tensor"); anything else is an error naming fn and what
// (the argument: "pred", "cond_fn's result").
func Truth(fn node.Function, what string, v Value) (bool, error) {
	name := fn.String()
	if f, ok := fn.(*node.Func); ok {
		name = f.PythonName()
	}
	switch x := v.v.(type) {
	case bool:
		return x, nil
	case *tensor.Tensor:
		if x.DType() != tensor.Bool {
			return false, fmt.Errorf("%s: %s must be a bool or a one-element bool tensor, got a %s tensor of shape %v", name, what, x.DType(), x.Shape())
		}
		if x.Numel() != 1 {
			return false, fmt.Errorf("%s: %s must be a bool or a one-element bool tensor, got a bool tensor of shape %v (%d elements)", name, what, x.Shape(), x.Numel())
		}
		b, err := x.Item()
		if err != nil {
			return false, fmt.Errorf("%s: %s: %w", name, what, err)
		}
		return b.(bool), nil
	}
	return false, fmt.Errorf("%s: %s must be a bool or a one-element bool tensor, got %s", name, what, v.Kind())
}

var condParams = []string{"pred", "true_fn", "false_fn", "operands"}

// condImpl is cond_op_dense: only the taken branch runs.
func condImpl(args []Value, kwargs map[string]Value) (Value, error) {
	a, err := hopArgs(CondOp, condParams, args, kwargs)
	if err != nil {
		return None, err
	}
	pred, err := Truth(CondOp, "pred", a[0])
	if err != nil {
		return None, err
	}
	operands, err := operandsOf(CondOp, "operands", a[3])
	if err != nil {
		return None, err
	}
	which, what := a[1], "true branch"
	if !pred {
		which, what = a[2], "false branch"
	}
	g, err := graphOf(CondOp, what, which)
	if err != nil {
		return None, err
	}
	return g.run(CondOp, operands)
}

var whileParams = []string{"cond_fn", "body_fn", "carried_inputs", "additional_inputs"}

// whileLoopImpl is while_loop_dense, checking that the carried values
// keep their kind, dtype and shape.
func whileLoopImpl(args []Value, kwargs map[string]Value) (Value, error) {
	a, err := hopArgs(WhileLoopOp, whileParams, args, kwargs)
	if err != nil {
		return None, err
	}
	condFn, err := graphOf(WhileLoopOp, "cond_fn", a[0])
	if err != nil {
		return None, err
	}
	bodyFn, err := graphOf(WhileLoopOp, "body_fn", a[1])
	if err != nil {
		return None, err
	}
	carried, err := operandsOf(WhileLoopOp, "carried_inputs", a[2])
	if err != nil {
		return None, err
	}
	extra, err := operandsOf(WhileLoopOp, "additional_inputs", a[3])
	if err != nil {
		return None, err
	}
	nc := len(carried)
	in := make([]Value, nc+len(extra))
	copy(in, carried)
	copy(in[nc:], extra)
	for iter := 0; ; iter++ {
		p, err := condFn.run(WhileLoopOp, in)
		if err != nil {
			return None, err
		}
		ok, err := Truth(WhileLoopOp, condFn.name+"'s result", p)
		if err != nil {
			return None, err
		}
		if !ok {
			return Tuple(in[:nc]...), nil
		}
		out, err := bodyFn.run(WhileLoopOp, in)
		if err != nil {
			return None, err
		}
		next := out.Tuple()
		if !out.IsTuple() {
			if nc != 1 {
				return None, fmt.Errorf("%s: %s returned %s, expected a tuple of the %d carried values", WhileLoopOp.PythonName(), bodyFn.name, out.Kind(), nc)
			}
			next = []Value{out}
		}
		if len(next) != nc {
			return None, fmt.Errorf("%s: %s returned %d values at iteration %d, expected the %d carried values", WhileLoopOp.PythonName(), bodyFn.name, len(next), iter, nc)
		}
		for i, v := range next {
			if d := differs(carried[i], v); d != "" {
				return None, fmt.Errorf("%s: %s changed carried value %d at iteration %d: %s (carried values must keep their dtype and shape)", WhileLoopOp.PythonName(), bodyFn.name, i, iter, d)
			}
		}
		copy(in, next)
	}
}

// differs says how v differs from was in kind, dtype or shape ("" if it
// does not).
func differs(was, v Value) string {
	wt, vt := was.Tensor(), v.Tensor()
	switch {
	case wt != nil && vt != nil:
		if wt.DType() != vt.DType() {
			return fmt.Sprintf("dtype %s became %s", wt.DType(), vt.DType())
		}
		if !slices.Equal(wt.Shape(), vt.Shape()) {
			return fmt.Sprintf("shape %v became %v", wt.Shape(), vt.Shape())
		}
		return ""
	case was.Kind() != v.Kind():
		return fmt.Sprintf("a %s became a %s", was.Kind(), v.Kind())
	}
	return ""
}

var mapParams = []string{"f", "xs", "pos_args"}

// mapImpl is map_dense: body_fn over the leading dim of xs, results
// stacked.
func mapImpl(args []Value, kwargs map[string]Value) (Value, error) {
	name := MapImplOp.PythonName()
	a, err := hopArgs(MapImplOp, mapParams, args, kwargs)
	if err != nil {
		return None, err
	}
	body, err := graphOf(MapImplOp, "body_fn", a[0])
	if err != nil {
		return None, err
	}
	xs, err := operandsOf(MapImplOp, "xs", a[1])
	if err != nil {
		return None, err
	}
	extra, err := operandsOf(MapImplOp, "pos_args", a[2])
	if err != nil {
		return None, err
	}
	if len(xs) == 0 {
		return None, fmt.Errorf("%s: xs is empty: there is nothing to map over", name)
	}
	n := -1
	for i, x := range xs {
		t := x.Tensor()
		if t == nil {
			return None, fmt.Errorf("%s: xs[%d] must be a tensor, got %s", name, i, x.Kind())
		}
		if t.Dim() == 0 {
			return None, fmt.Errorf("%s: xs[%d] is a 0-d tensor, which has no leading dim to map over", name, i)
		}
		if n < 0 {
			n = t.Shape()[0]
		} else if t.Shape()[0] != n {
			return None, fmt.Errorf("%s: the mapped tensors' leading sizes differ: xs[0] has %d, xs[%d] has %d (shape %v)", name, n, i, t.Shape()[0], t.Shape())
		}
	}
	if n == 0 {
		return None, fmt.Errorf("%s: the mapped tensors' leading size is 0: there is no slice to run %s on", name, body.name)
	}
	in := make([]Value, len(xs)+len(extra))
	copy(in[len(xs):], extra)
	var results [][]Value // per output, per iteration
	single := false
	for i := range n {
		for j, x := range xs {
			s, err := x.Tensor().Select(0, i)
			if err != nil {
				return None, fmt.Errorf("%s: xs[%d]: %w", name, j, err)
			}
			in[j] = Value{s}
		}
		out, err := body.run(MapImplOp, in)
		if err != nil {
			return None, err
		}
		outs := out.Tuple()
		if !out.IsTuple() {
			outs, single = []Value{out}, true
		}
		if i == 0 {
			results = make([][]Value, len(outs))
		} else if len(outs) != len(results) {
			return None, fmt.Errorf("%s: %s returned %d values for slice %d, %d for slice 0", name, body.name, len(outs), i, len(results))
		}
		for k, o := range outs {
			t := o.Tensor()
			if t == nil {
				return None, fmt.Errorf("%s: %s's output %d is %s, not a tensor", name, body.name, k, o.Kind())
			}
			if i > 0 {
				if d := differs(results[k][0], o); d != "" {
					return None, fmt.Errorf("%s: %s's output %d for slice %d differs from slice 0's: %s", name, body.name, k, i, d)
				}
			}
			results[k] = append(results[k], o)
		}
	}
	stacked := make([]Value, len(results))
	for k, r := range results {
		v, err := Apply(hopStack, []Value{Tuple(r...), {int64(0)}}, nil)
		if err != nil {
			return None, fmt.Errorf("%s: stacking output %d: %w", name, k, err)
		}
		stacked[k] = v
	}
	if single {
		return stacked[0], nil
	}
	return Tuple(stacked...), nil
}
