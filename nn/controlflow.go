package nn

import (
	"fmt"
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Structured control flow: torch.cond, while_loop and map as model code
// calls them (package functional's Cond, WhileLoop and Map are the
// public spelling). Eagerly they run the Go functions; on symbolic values
// the tracer records them as higher-order operators whose branches and
// bodies are subgraphs (controlFlowTracer).

// Subfunc is a branch or loop body as a tracer calls it: the Go function
// of model code taking its operands and returning its result (a Value, a
// tuple for several results).
type Subfunc = func(args []Value) (Value, error)

// controlFlowTracer is implemented by tracers that record structured
// control flow (internal/record's Recorder): every branch and body is
// traced into a subgraph and the call is recorded as one higher-order
// node (torch.ops.higher_order.cond, while_loop, map_impl).
type controlFlowTracer interface {
	// TraceCond records cond(pred, true_fn, false_fn, operands) and
	// returns what the branches return (their common structure).
	TraceCond(pred Value, trueFn, falseFn Subfunc, operands []Value) (Value, error)
	// TraceWhileLoop records while_loop(cond_fn, body_fn, carried,
	// additional) and returns the final carried values.
	TraceWhileLoop(condFn, bodyFn Subfunc, carried, additional []Value) ([]Value, error)
	// TraceMap records map_impl(body_fn, xs, args), xs the leaves of the
	// mapped pytree (fn gets their rows, then args), and returns the
	// stacked results.
	TraceMap(fn Subfunc, xs []Value, args []Value) (Value, error)
}

// constantPredicates is implemented by tracers that report a cond whose
// predicate was a constant (a Go bool), which only its taken branch
// records: op is "cond", where the model code's Go line.
type constantPredicates interface {
	ConstantPredicate(op, where string)
}

// controlFlowOf returns the control-flow tracer of the first symbolic
// value among vs, or an error naming what when the tracer cannot record
// control flow; nil and no error when every value is concrete.
func controlFlowOf(what string, vs ...Value) (controlFlowTracer, error) {
	tr := tracerOf(vs, nil)
	if tr == nil {
		return nil, nil
	}
	cf, ok := tr.(controlFlowTracer)
	if !ok {
		return nil, fmt.Errorf("%s: this tracer (%T) cannot record control flow", what, tr)
	}
	return cf, nil
}

// RunCond is torch.cond: trueFn(operands...) if pred holds, falseFn
// otherwise, when pred is concrete (a Go bool or a one-element tensor);
// recorded as a cond node with both branches as subgraphs when pred or an
// operand is traced. A constant predicate (a Go bool) while tracing runs
// only its branch, as torch.cond does: the decision is specialized.
// Failures panic with an *Error (package functional's Cond is the model
// code spelling).
func RunCond(pred Value, trueFn, falseFn func(...Value) Value, operands []Value) Value {
	if trueFn == nil || falseFn == nil {
		panic(errorf("cond: nil branch function"))
	}
	if err := checkPred(pred); err != nil {
		panic(errorf("cond: %v", err))
	}
	if _, isBool := pred.v.(bool); isBool {
		// A constant predicate while tracing: specialized, as torch.cond
		// does with a Python bool; the tracer may report the line.
		if tr := tracerOf(operands, nil); tr != nil {
			if cp, ok := tr.(constantPredicates); ok {
				cp.ConstantPredicate("cond", callerOutside())
			}
		}
	} else {
		cf, err := controlFlowOf("cond", append([]Value{pred}, operands...)...)
		if err != nil {
			panic(errorf("%v", err))
		}
		if cf != nil {
			out, err := cf.TraceCond(pred, subfunc(trueFn), subfunc(falseFn), operands)
			if err != nil {
				panic(wrapErr(err))
			}
			return out
		}
	}
	if pred.Bool() {
		return trueFn(operands...)
	}
	return falseFn(operands...)
}

// checkPred refuses a predicate that is not a bool: a tensor with more
// than one element or of a non-bool dtype (torch.cond's rule), a number
// of another type.
func checkPred(pred Value) error {
	switch x := pred.v.(type) {
	case bool:
		return nil
	case *tensor.Tensor:
		if x == nil {
			return fmt.Errorf("the predicate is None; expected a bool or a one-element bool tensor")
		}
		if x.Numel() != 1 {
			return fmt.Errorf("the predicate must be a one-element bool tensor, got shape %v", x.Shape())
		}
		if x.DType() != tensor.Bool {
			return fmt.Errorf("the predicate must be a bool tensor, got dtype %s", x.DType())
		}
		return nil
	case ops.Symbolic:
		return nil
	}
	return fmt.Errorf("the predicate must be a bool or a one-element bool tensor, got %s", pred.Kind())
}

// subfunc adapts a model-code function to a Subfunc, recovering what it
// panics with.
func subfunc(fn func(...Value) Value) Subfunc {
	return func(args []Value) (out Value, err error) {
		defer Recover(&err)
		return fn(args...), nil
	}
}

// RunWhileLoop is while_loop: while condFn(carried..., additional...)
// holds, carried = bodyFn(carried..., additional...); it returns the final
// carried values. Traced (a carried or additional value symbolic), it is
// recorded as a while_loop node with the condition and body as subgraphs.
// Eagerly every iteration checks that the body keeps the number, dtype
// and shape of the carried values.
func RunWhileLoop(condFn func(...Value) Value, bodyFn func(...Value) []Value, carried, additional []Value) []Value {
	if condFn == nil || bodyFn == nil {
		panic(errorf("while_loop: nil cond_fn or body_fn"))
	}
	if len(carried) == 0 {
		panic(errorf("while_loop: carried_inputs must not be empty"))
	}
	cf, err := controlFlowOf("while_loop", append(append([]Value(nil), carried...), additional...)...)
	if err != nil {
		panic(errorf("%v", err))
	}
	if cf != nil {
		body := func(args []Value) (out Value, err error) {
			defer Recover(&err)
			return Tuple(bodyFn(args...)...), nil
		}
		out, err := cf.TraceWhileLoop(subfunc(condFn), body, carried, additional)
		if err != nil {
			panic(wrapErr(err))
		}
		return out
	}
	cur := append([]Value(nil), carried...)
	for {
		p := condFn(append(append([]Value(nil), cur...), additional...)...)
		if err := checkPred(p); err != nil {
			panic(errorf("while_loop: cond_fn: %v", err))
		}
		if !p.Bool() {
			return cur
		}
		next := bodyFn(append(append([]Value(nil), cur...), additional...)...)
		if err := sameCarried(cur, next); err != nil {
			panic(errorf("while_loop: body_fn: %v", err))
		}
		cur = next
	}
}

// sameCarried checks that a loop body returned as many values as it was
// carried, with the same dtypes and shapes.
func sameCarried(before, after []Value) error {
	if len(before) != len(after) {
		return fmt.Errorf("returned %d values for %d carried inputs", len(after), len(before))
	}
	for i := range before {
		a, b := before[i].Tensor(), after[i].Tensor()
		if a == nil || b == nil {
			continue
		}
		if a.DType() != b.DType() {
			return fmt.Errorf("carried input %d changed dtype from %s to %s", i, a.DType(), b.DType())
		}
		if !sameInts(a.Shape(), b.Shape()) {
			return fmt.Errorf("carried input %d changed shape from %v to %v", i, a.Shape(), b.Shape())
		}
	}
	return nil
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

var (
	opSelectInt = Op("aten::select.int")
	opStack     = Op("aten::stack")
)

// RunMap is torch's map (map_impl): fn(xs[i], args...) for every i along
// xs's leading dimension, the results stacked. Traced (xs or an arg
// symbolic), it is recorded as a map_impl node with the body as a
// subgraph.
func RunMap(fn func(x Value, args ...Value) Value, xs Value, args []Value) Value {
	if fn == nil {
		panic(errorf("map: nil function"))
	}
	leaves, rebuild, err := mapLeaves(xs)
	if err != nil {
		panic(errorf("map: %v", err))
	}
	cf, err := controlFlowOf("map", append(slices.Clone(leaves), args...)...)
	if err != nil {
		panic(errorf("%v", err))
	}
	if cf != nil {
		body := func(a []Value) (out Value, err error) {
			defer Recover(&err)
			return fn(rebuild(a[:len(leaves)]), a[len(leaves):]...), nil
		}
		out, err := cf.TraceMap(body, leaves, args)
		if err != nil {
			panic(wrapErr(err))
		}
		return out
	}
	n := -1
	for i, l := range leaves {
		what := "xs"
		if xs.IsTuple() {
			what = fmt.Sprintf("xs[%d]", i)
		}
		t := l.Tensor()
		if t == nil {
			panic(errorf("map: %s must be a tensor, got %s", what, l.Kind()))
		}
		if t.Dim() == 0 || t.Shape()[0] == 0 {
			panic(errorf("map: %s must have a non-empty leading dimension, got shape %v", what, t.Shape()))
		}
		if n >= 0 && t.Shape()[0] != n {
			panic(errorf("map: the mapped tensors' leading sizes differ: xs[0] has %d, xs[%d] has %d", n, i, t.Shape()[0]))
		}
		n = t.Shape()[0]
	}
	var outs []Value
	for i := 0; i < n; i++ {
		rows := make([]Value, len(leaves))
		for j, l := range leaves {
			rows[j] = CallOp(opSelectInt, l, Of(0), Of(i))
		}
		outs = append(outs, fn(rebuild(rows), args...))
	}
	if outs[0].IsTuple() {
		k := len(outs[0].Tuple())
		res := make([]Value, k)
		for j := range k {
			col := make([]Value, len(outs))
			for i, o := range outs {
				if !o.IsTuple() || len(o.Tuple()) != k {
					panic(errorf("map: the body returned %d values for element 0 but not for element %d", k, i))
				}
				col[i] = o.Tuple()[j]
			}
			res[j] = CallOp(opStack, Tuple(col...))
		}
		return Tuple(res...)
	}
	return CallOp(opStack, Tuple(outs...))
}

// maxMapDepth bounds the nesting of a mapped pytree.
const maxMapDepth = 64

// mapLeaves flattens the mapped pytree xs (a tensor, or tuples of them
// nested, as torch.map takes): its leaves in order, and the function that
// builds the same structure from new leaves (the rows the body gets).
func mapLeaves(xs Value) (leaves []Value, rebuild func([]Value) Value, err error) {
	var walk func(v Value, depth int) (func(*[]Value) Value, error)
	walk = func(v Value, depth int) (func(*[]Value) Value, error) {
		if depth > maxMapDepth {
			return nil, fmt.Errorf("xs nests deeper than %d", maxMapDepth)
		}
		if !v.IsTuple() {
			leaves = append(leaves, v)
			return func(next *[]Value) Value {
				x := (*next)[0]
				*next = (*next)[1:]
				return x
			}, nil
		}
		elems := v.Tuple()
		kids := make([]func(*[]Value) Value, len(elems))
		for i, e := range elems {
			k, err := walk(e, depth+1)
			if err != nil {
				return nil, err
			}
			kids[i] = k
		}
		return func(next *[]Value) Value {
			out := make([]Value, len(kids))
			for i, k := range kids {
				out[i] = k(next)
			}
			return Tuple(out...)
		}, nil
	}
	build, err := walk(xs, 0)
	if err != nil {
		return nil, nil, err
	}
	if len(leaves) == 0 {
		return nil, nil, fmt.Errorf("xs has no tensors to map over")
	}
	return leaves, func(vs []Value) Value { return build(&vs) }, nil
}
