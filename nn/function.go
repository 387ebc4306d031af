package nn

import (
	"fmt"
	"math"
	"sync"

	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// FuncImpl is the Go implementation of a call_function target that is not
// an operator (operator.getitem, builtins.getattr, a wrapped function):
// it takes the call's positional and keyword arguments.
type FuncImpl func(args []Value, kwargs map[string]Value) (Value, error)

var funcs struct {
	sync.RWMutex
	m map[node.Function]FuncImpl
}

// RegisterFunction makes fn callable from model code (CallFunction) and
// from graphs (call_function nodes run by the interpreter) with the Go
// implementation impl. It also registers fn with node.Register so that
// graph text naming it parses back.
func RegisterFunction(fn node.Function, impl FuncImpl) error {
	if fn == nil || impl == nil {
		return fmt.Errorf("nn.RegisterFunction: nil function or implementation")
	}
	if _, isOp := fn.(*ops.Operator); isOp {
		return fmt.Errorf("nn.RegisterFunction: %s is an operator; give it a kernel with SetKernel instead", fn)
	}
	if err := node.Register(fn); err != nil {
		return err
	}
	funcs.Lock()
	defer funcs.Unlock()
	if funcs.m == nil {
		funcs.m = map[node.Function]FuncImpl{}
	}
	funcs.m[fn] = impl
	return nil
}

// LookupFunctionImpl returns the implementation registered for fn.
func LookupFunctionImpl(fn node.Function) (FuncImpl, bool) {
	funcs.RLock()
	defer funcs.RUnlock()
	f, ok := funcs.m[fn]
	return f, ok
}

// The Python-level functions model code uses on values.
var (
	// GetItem is operator.getitem: v[i] of a tuple, list or shape.
	GetItem = node.MustFunc("operator.getitem", false)
	// GetAttr is builtins.getattr: getattr(x, "shape") and friends.
	GetAttr = node.MustFunc("builtins.getattr", false)
)

func init() {
	must(RegisterFunction(GetItem, getItem))
	must(RegisterFunction(GetAttr, getAttr))
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func getItem(args []Value, kwargs map[string]Value) (Value, error) {
	if len(args) != 2 || len(kwargs) != 0 {
		return None, fmt.Errorf("operator.getitem takes 2 arguments, got %d", len(args)+len(kwargs))
	}
	c, key := args[0], args[1]
	if t, ok := c.v.(tuple); ok {
		return tupleItem(t, key)
	}
	if c.IsTensor() || (c.IsSymbolic() && !isNumberLike(c)) {
		return indexTensor(c, key)
	}
	return None, fmt.Errorf("operator.getitem: cannot index a %s", c.Kind())
}

// tupleItem is t[key] for an int or a slice.
func tupleItem(t tuple, key Value) (Value, error) {
	n := int64(len(t))
	switch k := key.v.(type) {
	case int64:
		j := k
		if j < 0 {
			j += n
		}
		if j < 0 || j >= n {
			return None, fmt.Errorf("operator.getitem: index %d out of range for a tuple of %d", k, n)
		}
		return t[j], nil
	case node.Slice:
		start, stop, step, err := sliceParts(k)
		if err != nil {
			return None, err
		}
		var out tuple
		for _, i := range sliceIndices(start, stop, step, n) {
			out = append(out, t[i])
		}
		return Value{out}, nil
	}
	return None, fmt.Errorf("operator.getitem: a tuple index must be an int or a slice, got %s", key.Kind())
}

// sliceParts returns a slice's parts with None as nil.
func sliceParts(s node.Slice) (start, stop, step *int64, err error) {
	ps := s.Parts()
	var out [3]*int64
	for i, p := range ps {
		switch x := p.(type) {
		case node.Int:
			v := int64(x)
			out[i] = &v
		case node.NoneType:
		default:
			return nil, nil, nil, fmt.Errorf("operator.getitem: slice part %d is %T, not an int or None", i, p)
		}
	}
	if out[2] != nil && *out[2] == 0 {
		return nil, nil, nil, fmt.Errorf("operator.getitem: slice step cannot be zero")
	}
	return out[0], out[1], out[2], nil
}

// sliceIndices is Python's range(*slice(start, stop, step).indices(n)).
func sliceIndices(start, stop, step *int64, n int64) []int64 {
	st := int64(1)
	if step != nil {
		st = *step
	}
	clamp := func(p *int64, def, lo, hi int64) int64 {
		if p == nil {
			return def
		}
		v := *p
		if v < 0 {
			v += n
		}
		return max(lo, min(v, hi))
	}
	var out []int64
	if st > 0 {
		b, e := clamp(start, 0, 0, n), clamp(stop, n, 0, n)
		for i := b; i < e; i += st {
			out = append(out, i)
		}
	} else {
		b, e := clamp(start, n-1, -1, n-1), clamp(stop, -1, -1, n-1)
		for i := b; i > e; i += st {
			out = append(out, i)
		}
	}
	return out
}

// indexTensor is x[key] for a tensor (or a symbolic tensor): an int, a
// slice, Ellipsis, None or a tuple of these, applied dimension by
// dimension as PyTorch's indexing does (aten.select.int,
// aten.slice.Tensor, aten.unsqueeze).
func indexTensor(x, key Value) (Value, error) {
	items := []Value{key}
	if t, ok := key.v.(tuple); ok {
		items = t
	}
	consumed, ellipses := 0, 0
	for _, it := range items {
		switch it.v.(type) {
		case int64, node.Slice, symSlice:
			consumed++
		case node.EllipsisType:
			ellipses++
		case nil:
		default:
			return None, fmt.Errorf("operator.getitem: only ints, slices, Ellipsis and None are valid tensor indices, got %s (indexing with tensors is not supported)", it.Kind())
		}
	}
	if ellipses > 1 {
		return None, fmt.Errorf("operator.getitem: an index can only have a single ellipsis")
	}
	nd, err := tensorDim(x)
	if err != nil {
		return None, err
	}
	if consumed > nd {
		return None, fmt.Errorf("operator.getitem: too many indices for tensor of dimension %d", nd)
	}
	out, dim, changed := x, int64(0), false
	for _, it := range items {
		switch k := it.v.(type) {
		case int64:
			out, err = Apply(opSelect, []Value{out, {dim}, {k}}, nil)
		case node.Slice:
			var start, stop, step *int64
			if start, stop, step, err = sliceParts(k); err != nil {
				return None, err
			}
			if step != nil && *step < 0 {
				return None, fmt.Errorf("operator.getitem: slice step must be positive (PyTorch does not support negative steps)")
			}
			// As PyTorch 1.13 records it: start 0 and end 2**63-1 for
			// parts left out, the step only when it is not 1.
			b, e := int64(0), int64(math.MaxInt64)
			if start != nil {
				b = *start
			}
			if stop != nil {
				e = *stop
			}
			sargs := []Value{out, {dim}, {b}, {e}}
			if step != nil && *step != 1 {
				sargs = append(sargs, Value{*step})
			}
			out, err = Apply(opSliceT, sargs, nil)
			dim++
		case symSlice:
			out, err = k.apply(out, dim)
			dim++
		case nil:
			out, err = Apply(opUnsqueeze, []Value{out, {dim}}, nil)
			dim++
		case node.EllipsisType:
			dim += int64(nd - consumed)
			continue
		}
		if err != nil {
			return None, fmt.Errorf("operator.getitem: %w", err)
		}
		changed = true
	}
	if !changed {
		return Apply(opAlias, []Value{x}, nil) // x[...] is a new view of x
	}
	return out, nil
}

// tensorDim returns the number of dimensions of a tensor or of a symbolic
// tensor (asking its tracer for getattr(x, "ndim")).
func tensorDim(x Value) (int, error) {
	if t := x.Tensor(); t != nil {
		return t.Dim(), nil
	}
	v, err := ApplyFunction(GetAttr, []Value{x, {"ndim"}}, nil)
	if err != nil {
		return 0, fmt.Errorf("operator.getitem: the number of dimensions: %w", err)
	}
	n, ok := v.v.(int64)
	if !ok {
		return 0, fmt.Errorf("operator.getitem: the number of dimensions of a %s is not known", x.Kind())
	}
	return int(n), nil
}

func getAttr(args []Value, kwargs map[string]Value) (Value, error) {
	if len(args) != 2 || len(kwargs) != 0 {
		return None, fmt.Errorf("builtins.getattr takes 2 arguments, got %d", len(args)+len(kwargs))
	}
	name, ok := args[1].v.(string)
	if !ok {
		return None, fmt.Errorf("builtins.getattr: attribute name must be a str, got %s", args[1].Kind())
	}
	t, ok := args[0].v.(*tensor.Tensor)
	if !ok {
		return None, fmt.Errorf("builtins.getattr: %s has no attribute %q", args[0].Kind(), name)
	}
	switch name {
	case "shape":
		return shapeValue(t), nil
	case "dtype":
		return Value{t.DType()}, nil
	case "ndim":
		return Value{int64(t.Dim())}, nil
	case "T":
		return Apply(opT, []Value{args[0]}, nil)
	}
	return None, fmt.Errorf("builtins.getattr: Tensor attribute %q is not supported", name)
}

func shapeValue(t *tensor.Tensor) Value {
	sh := t.Shape()
	out := make(tuple, len(sh))
	for i, d := range sh {
		out[i] = Value{int64(d)}
	}
	return Value{out}
}

// ApplyFunction calls fn (an operator or a registered function) with
// Values and returns its result or error; with symbolic arguments the
// tracer records the call. The interpreter runs call_function nodes with
// it.
func ApplyFunction(fn node.Function, args []Value, kwargs map[string]Value) (out Value, err error) {
	defer Recover(&err)
	if op, ok := fn.(*ops.Operator); ok {
		return Apply(op, args, kwargs)
	}
	if tr := tracerOf(args, kwargs); tr != nil {
		return tr.TraceFunction(fn, args, kwargs)
	}
	impl, ok := LookupFunctionImpl(fn)
	if !ok {
		return None, fmt.Errorf("function %s has no Go implementation (register one with nn.RegisterFunction)", fn)
	}
	return impl(args, kwargs)
}

// CallFunction is ApplyFunction for model code: it panics with a located
// *Error instead of returning one.
func CallFunction(fn node.Function, args []Value, kwargs map[string]Value) Value {
	out, err := ApplyFunction(fn, args, kwargs)
	if err != nil {
		panic(wrapErr(err))
	}
	return out
}

// Apply calls operator op through the dispatch point with Values: tuples
// are passed as lists, and the results come back as one Value (a tuple for
// operators with several returns).
//
// A Python number given for a Tensor parameter (aten.div.Tensor(x, 2.0),
// as torch.fx graphs and graphs written by hand record x / 2.0) is
// accepted as PyTorch accepts it: ops binds it as a wrapped number (see
// tensor.Tensor.WrappedNumber), which takes part in type promotion as a
// number.
func Apply(op *ops.Operator, args []Value, kwargs map[string]Value) (Value, error) {
	raw, rkw := rawArgs(args, kwargs)
	out, err := op.Call(raw, rkw)
	if err != nil {
		return None, err
	}
	return results(out)
}

func rawArgs(args []Value, kwargs map[string]Value) ([]any, map[string]any) {
	raw := make([]any, len(args))
	for i, a := range args {
		raw[i] = a.raw()
	}
	var rkw map[string]any
	if len(kwargs) > 0 {
		rkw = make(map[string]any, len(kwargs))
		for k, a := range kwargs {
			rkw[k] = a.raw()
		}
	}
	return raw, rkw
}

func results(out []any) (Value, error) {
	if len(out) == 1 {
		return valueOf(out[0])
	}
	t := make(tuple, len(out))
	for i, o := range out {
		v, err := valueOf(o)
		if err != nil {
			return None, err
		}
		t[i] = v
	}
	return Value{t}, nil
}

// CallOp is Apply for model code: positional arguments may be Values or
// plain Go values (ints, floats, []int, ...), and a failure panics with a
// located *Error.
func CallOp(op *ops.Operator, args ...any) Value { return CallOpKw(op, args, nil) }

// CallOpKw is CallOp with keyword arguments.
func CallOpKw(op *ops.Operator, args []any, kwargs map[string]any) Value {
	vs := make([]Value, len(args))
	for i, a := range args {
		v, err := valueOf(a)
		if err != nil {
			panic(errorf("%s: argument %d: %v", op, i, err))
		}
		vs[i] = v
	}
	kw := make(map[string]Value, len(kwargs))
	for k, a := range kwargs {
		v, err := valueOf(a)
		if err != nil {
			panic(errorf("%s: argument %s: %v", op, k, err))
		}
		kw[k] = v
	}
	out, err := Apply(op, vs, kw)
	if err != nil {
		panic(wrapErr(err))
	}
	return out
}

// Op returns the operator of ops.Global() with the given name
// ("aten::add.Tensor", "aten::relu"), panicking if there is none: for
// package-level variables of layers and functional wrappers.
func Op(name string) *ops.Operator {
	o, ok := ops.Global().Lookup(name)
	if !ok {
		panic("nn: no operator " + name)
	}
	return o
}
