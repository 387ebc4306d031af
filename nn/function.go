package nn

import (
	"fmt"
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
	if args[1].Kind() != "int" {
		return None, fmt.Errorf("operator.getitem: index must be an int, got %s", args[1].Kind())
	}
	i := args[1].v.(int64)
	if x, ok := args[0].v.(*tensor.Tensor); ok {
		return Apply(opSelect, []Value{Tensor(x), {int64(0)}, {i}}, nil)
	}
	t, ok := args[0].v.(tuple)
	if !ok {
		return None, fmt.Errorf("operator.getitem: cannot index a %s", args[0].Kind())
	}
	j := i
	if j < 0 {
		j += int64(len(t))
	}
	if j < 0 || j >= int64(len(t)) {
		return None, fmt.Errorf("operator.getitem: index %d out of range for a tuple of %d", i, len(t))
	}
	return t[j], nil
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
// as torch.fx graphs and graphs written by hand record x / 2.0) is accepted
// as PyTorch accepts it, which wraps the number into a tensor: the call
// goes to the overload of the same operator that takes the number (here
// aten.div.Scalar), which computes the same result.
func Apply(op *ops.Operator, args []Value, kwargs map[string]Value) (Value, error) {
	if numberForTensor(op, args, kwargs) {
		if alt := scalarOverload(op, args, kwargs); alt != nil {
			op = alt
		}
	}
	raw, rkw := rawArgs(args, kwargs)
	out, err := op.Call(raw, rkw)
	if err != nil {
		return None, err
	}
	return results(out)
}

// numberForTensor reports whether a concrete Python number is given for a
// Tensor parameter of op while no argument is symbolic (a tracer records
// the call as written).
func numberForTensor(op *ops.Operator, args []Value, kwargs map[string]Value) bool {
	found := false
	sargs := op.Schema().Args
	for i, a := range args {
		if tracerOfValue(a) != nil {
			return false
		}
		if i < len(sargs) && isNumber(a) && isTensorType(sargs[i].Type) {
			found = true
		}
	}
	for k, a := range kwargs {
		if tracerOfValue(a) != nil {
			return false
		}
		if !isNumber(a) {
			continue
		}
		for _, sa := range sargs {
			if sa.Name == k && isTensorType(sa.Type) {
				found = true
			}
		}
	}
	return found
}

func isTensorType(t *ops.Type) bool {
	return t.Kind == ops.Named && t.Name == "Tensor"
}

// scalarOverload returns the overload of op's operator that binds args and
// kwargs as given, or nil.
func scalarOverload(op *ops.Operator, args []Value, kwargs map[string]Value) *ops.Operator {
	s := op.Schema()
	raw, rkw := rawArgs(args, kwargs)
	alt, err := ops.Global().Resolve(s.Namespace+"::"+s.Name, raw, rkw)
	if err != nil || alt.Has(ops.Mutable) != op.Has(ops.Mutable) {
		return nil
	}
	return alt
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
