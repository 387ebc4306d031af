package nn

import (
	"fmt"

	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Value is what model code computes with: a concrete tensor, a number, a
// tuple of values, None, or a symbolic stand-in for any of these (a proxy
// recorded by a tracer). The same model code runs eagerly on tensors and
// records a graph on proxies, because every operation on a Value goes
// through the single dispatch point of package ops (or, for tensor methods
// and Python-level functions such as getitem, through this package's
// method and function tables, which tracers intercept the same way).
//
// The zero Value is None.
type Value struct{ v any }

// None is the None value.
var None = Value{}

// Of wraps x as a Value: a *tensor.Tensor, an integer (stored as int64), a
// float64 or float32 (stored as float64), a bool, a string, a
// tensor.DType, nil (None), a []Value or []*tensor.Tensor (a tuple), an
// ops.Scalar (unwrapped), an ops.Symbolic, a node.Slice with int or None
// parts or node.Ellipsis (indices, see Index), a map[string]Value,
// map[string]*tensor.Tensor or map[string]any (a dict, its keys sorted:
// see Dict for another order), or a Value (returned as is).
// Anything else panics: Of is for model code, where a wrong type is a
// programming error.
func Of(x any) Value {
	v, err := valueOf(x)
	if err != nil {
		panic(err)
	}
	return v
}

func valueOf(x any) (Value, error) {
	switch y := x.(type) {
	case nil:
		return None, nil
	case Value:
		return y, nil
	case *tensor.Tensor:
		if y == nil {
			return None, nil
		}
		return Value{y}, nil
	case int:
		return Value{int64(y)}, nil
	case int32:
		return Value{int64(y)}, nil
	case int64:
		return Value{y}, nil
	case float64:
		return Value{y}, nil
	case float32:
		return Value{float64(y)}, nil
	case bool, string, tensor.DType:
		return Value{y}, nil
	case ops.Scalar:
		return Value{y.Value()}, nil
	case []Value:
		return Value{tuple(y)}, nil
	case []*tensor.Tensor:
		t := make(tuple, len(y))
		for i, e := range y {
			t[i] = Value{e}
		}
		return Value{t}, nil
	case []any:
		t := make(tuple, len(y))
		for i, e := range y {
			v, err := valueOf(e)
			if err != nil {
				return None, err
			}
			t[i] = v
		}
		return Value{t}, nil
	case []int:
		t := make(tuple, len(y))
		for i, e := range y {
			t[i] = Value{int64(e)}
		}
		return Value{t}, nil
	case []float64:
		t := make(tuple, len(y))
		for i, e := range y {
			t[i] = Value{e}
		}
		return Value{t}, nil
	case []int64:
		t := make(tuple, len(y))
		for i, e := range y {
			t[i] = Value{e}
		}
		return Value{t}, nil
	case ops.Symbolic:
		return Value{y}, nil
	case node.Slice:
		if _, ok := node.ArgOf(y); !ok {
			return None, fmt.Errorf("nn: slice %v: each part must be an int or None", y)
		}
		for _, p := range y.Parts() {
			if _, isNode := p.(*node.Node); isNode {
				return None, fmt.Errorf("nn: a slice of graph nodes is not a value")
			}
		}
		return Value{y}, nil
	case node.EllipsisType:
		return Value{y}, nil
	case dict:
		return Value{y}, nil
	case map[string]Value:
		return dictOf(y, func(v Value) (Value, error) { return v, nil })
	case map[string]*tensor.Tensor:
		return dictOf(y, func(t *tensor.Tensor) (Value, error) { return Tensor(t), nil })
	case map[string]any:
		return dictOf(y, valueOf)
	}
	return None, fmt.Errorf("nn: cannot make a Value of %T", x)
}

// tuple is the representation of a tuple Value.
type tuple []Value

// Tuple returns the tuple of vs.
func Tuple(vs ...Value) Value { return Value{tuple(append([]Value(nil), vs...))} }

// Tensor wraps t; it is Of(t) for a tensor.
func Tensor(t *tensor.Tensor) Value {
	if t == nil {
		return None
	}
	return Value{t}
}

// Any returns the held Go value: a *tensor.Tensor, int64, float64, bool,
// string, tensor.DType, []Value (a tuple), map[string]Value (a dict), a
// node.Slice or node.EllipsisType, an ops.Symbolic, a Module (ModuleValue),
// the value given to Object, or nil for None.
func (v Value) Any() any {
	switch x := v.v.(type) {
	case tuple:
		return []Value(x)
	case *moduleRef:
		return x.m
	case dict:
		m := make(map[string]Value, len(x.keys))
		for i, k := range x.keys {
			m[k] = x.vals[i]
		}
		return m
	}
	return v.v
}

// ModuleValue wraps module m as a Value, as a get_attr node naming a
// submodule produces it (the branch and body graphs a higher-order
// operator such as CondOp takes); Module gives it back. A nil m is None.
func ModuleValue(m Module) Value {
	if isNilModule(m) {
		return None
	}
	return Value{m}
}

// Module returns the module v holds (see ModuleValue), or nil.
func (v Value) Module() Module {
	switch x := v.v.(type) {
	case *moduleRef:
		return x.m
	case Module:
		return x
	}
	return nil
}

// IsNone reports whether v is None.
func (v Value) IsNone() bool { return v.v == nil }

// IsTensor reports whether v holds a concrete tensor.
func (v Value) IsTensor() bool { _, ok := v.v.(*tensor.Tensor); return ok }

// IsTuple reports whether v is a concrete tuple.
func (v Value) IsTuple() bool { _, ok := v.v.(tuple); return ok }

// IsSymbolic reports whether v is a symbolic stand-in (a proxy), or a
// tuple holding one.
func (v Value) IsSymbolic() bool { return tracerOfValue(v) != nil }

// Symbolic returns the held symbolic value, if v is one.
func (v Value) Symbolic() (ops.Symbolic, bool) { s, ok := v.v.(ops.Symbolic); return s, ok }

// Tensor returns the held tensor, or nil if v is not a concrete tensor.
func (v Value) Tensor() *tensor.Tensor { t, _ := v.v.(*tensor.Tensor); return t }

// MustTensor returns the held tensor; it panics with a clear error if v is
// anything else (a symbolic value included: see Concrete).
func (v Value) MustTensor() *tensor.Tensor {
	if t, ok := v.v.(*tensor.Tensor); ok {
		return t
	}
	v.concrete("a tensor's data")
	panic(errorf("expected a tensor, got %s", v.Kind()))
}

// Kind names what v holds, as error messages say it: "Tensor", "int",
// "float", "bool", "str", "dtype", "tuple", "dict", "slice", "ellipsis",
// "None", "Proxy" or "Module" (a module, see ModuleValue; an Object's Go
// type otherwise).
func (v Value) Kind() string {
	switch v.v.(type) {
	case nil:
		return "None"
	case *tensor.Tensor:
		return "Tensor"
	case int64:
		return "int"
	case float64:
		return "float"
	case bool:
		return "bool"
	case string:
		return "str"
	case tensor.DType:
		return "dtype"
	case tuple:
		return "tuple"
	case dict:
		return "dict"
	case ops.Symbolic:
		return "Proxy"
	case node.Slice:
		return "slice"
	case node.EllipsisType:
		return "ellipsis"
	case Module, *moduleRef:
		return "Module"
	}
	return fmt.Sprintf("%T", v.v)
}

// Len is Python's len(v): the number of elements of a tuple, the size of
// a tensor's first dimension (a 0-d tensor has no length and panics, as in
// PyTorch), 0 for anything else. A symbolic value has no known length: Len
// panics with a trace error saying so, as len of a Proxy does in torch.fx
// (record it instead with a wrapped function, fx.Wrap).
func (v Value) Len() int {
	switch x := v.v.(type) {
	case tuple:
		return len(x)
	case *tensor.Tensor:
		if x.Dim() == 0 {
			panic(errorf("len() of a 0-d tensor"))
		}
		return x.Shape()[0]
	}
	v.concrete("the length of a value")
	return 0
}

// Tuple returns the elements of a tuple (nil for anything else).
func (v Value) Tuple() []Value {
	t, _ := v.v.(tuple)
	return t
}

// Index is Python's v[idx] (operator.getitem): one index is passed as is,
// several as a tuple, as Python passes v[a, b]. An index is an int, a
// Slice (v[0:2] is v.Index(nn.Slice(0, 2))), Ellipsis, or None (a new
// dimension of size 1): v.Index(nn.Slice(), 1) is v[:, 1] and
// v.Index(nn.Ellipsis, nn.None) is v[..., None].
//
// On a tuple it is the element at an int (negative counting from the end)
// or the tuple of a Slice's elements; on a dict, the value of a str key.
// On a tensor it is a view computed as PyTorch computes it, dimension by
// dimension with aten.select.int (an int), aten.slice.Tensor (a Slice)
// and aten.unsqueeze (None), so an exported graph holds those operators. On a symbolic value it records
// operator.getitem(v, idx).
func (v Value) Index(idx ...any) Value {
	if len(idx) == 0 {
		panic(errorf("an index is needed (v[] is not Python)"))
	}
	items := make([]Value, len(idx))
	for i, x := range idx {
		it, err := valueOf(x)
		if err != nil {
			panic(errorf("index %d: %v", i, err))
		}
		items[i] = it
	}
	key := items[0]
	if len(items) > 1 {
		key = Value{tuple(items)}
	}
	if t, ok := v.v.(tuple); ok {
		out, err := tupleItem(t, key)
		if err != nil {
			panic(errorf("%v", err))
		}
		return out
	}
	if d, ok := v.v.(dict); ok {
		k, isStr := key.v.(string)
		if !isStr {
			panic(errorf("operator.getitem: a dict index must be a str key, got %s", key.Kind()))
		}
		out, err := d.item(k)
		if err != nil {
			panic(errorf("operator.getitem: %v", err))
		}
		return out
	}
	return CallFunction(GetItem, []Value{v, key}, nil)
}

// Slice returns Python's slice(stop), slice(start, stop) or slice(start,
// stop, step), the index of v[start:stop:step] for Index: each part is an
// int, an int Value or nil (left out, Python's None); Slice() is the full
// slice of v[:].
func Slice(parts ...any) Value {
	if len(parts) > 3 {
		panic(errorf("slice takes at most 3 parts, got %d", len(parts)))
	}
	var ps [3]node.Arg
	for i, p := range parts {
		x, err := valueOf(p)
		if err != nil {
			panic(errorf("slice part %d: %v", i, err))
		}
		switch y := x.v.(type) {
		case nil:
			ps[i] = node.None
		case int64:
			ps[i] = node.Int(y)
		default:
			if tracerOfValue(x) != nil {
				panic(errorf("slice part %d is symbolic: slices with symbolic bounds cannot be recorded yet; use ints", i))
			}
			panic(errorf("slice part %d must be an int or nil, got %s", i, x.Kind()))
		}
	}
	var s node.Slice
	switch len(parts) {
	case 0:
		s = node.Slice{Start: node.None, Stop: node.None, Step: node.None}
	case 1:
		s = node.Slice{Start: node.None, Stop: ps[0], Step: node.None}
	case 2:
		s = node.Slice{Start: ps[0], Stop: ps[1], Step: node.None}
	default:
		s = node.Slice{Start: ps[0], Stop: ps[1], Step: ps[2]}
	}
	return Value{s}
}

// Ellipsis is Python's Ellipsis, the ... of v[..., 0].
var Ellipsis = Value{node.Ellipsis}

// Int returns the held integer. On a symbolic value it fails with a trace
// error naming the Go line (data-dependent control flow cannot be traced).
func (v Value) Int() int64 {
	switch x := v.v.(type) {
	case int64:
		return x
	case bool:
		if x {
			return 1
		}
		return 0
	case *tensor.Tensor:
		return v.item().Int()
	case concreter:
		return Of(v.decide(x, "an int")).Int()
	}
	v.concrete("an int")
	panic(errorf("expected an int, got %s", v.Kind()))
}

// Float returns the held number as a float64 (a one-element tensor's
// element too). On a symbolic value it fails with a trace error.
func (v Value) Float() float64 {
	switch x := v.v.(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	case *tensor.Tensor:
		return v.item().Float()
	case concreter:
		return Of(v.decide(x, "a float")).Float()
	}
	v.concrete("a float")
	panic(errorf("expected a number, got %s", v.Kind()))
}

// Bool returns the held bool (a one-element tensor's truth value too, as
// Python's bool(t)). On a symbolic value it fails with a trace error: this
// is where `if x.Sum().Bool() > 0 { ... }` stops tracing.
func (v Value) Bool() bool {
	switch x := v.v.(type) {
	case bool:
		return x
	case int64:
		return x != 0
	case float64:
		return x != 0
	case *tensor.Tensor:
		return v.item().Float() != 0
	case concreter:
		return Of(v.decide(x, "a bool")).Bool()
	}
	v.concrete("a bool")
	panic(errorf("expected a bool, got %s", v.Kind()))
}

// item returns a one-element tensor's element as a Scalar.
func (v Value) item() ops.Scalar {
	t := v.v.(*tensor.Tensor)
	if t.Numel() != 1 {
		panic(errorf("a Tensor with %d elements cannot be converted to a Python number", t.Numel()))
	}
	x, err := t.Item()
	if err != nil {
		panic(wrapErr(err))
	}
	switch y := x.(type) {
	case bool:
		return ops.BoolScalar(y)
	case int64:
		return ops.IntScalar(y)
	case float64:
		return ops.FloatScalar(y)
	}
	panic(errorf("unexpected element type %T", x))
}

// concrete fails with a trace error when v is symbolic: model code asked
// for what (a bool, an int, a tensor's data) that a tracer cannot know.
// decide asks a concreter for a concrete value, panicking with its error
// (recovered by the entry point that runs the model code).
func (v Value) decide(c concreter, what string) any {
	x, err := c.Concrete(what, callerOutside())
	if err != nil {
		panic(wrapErr(err))
	}
	if _, again := x.(concreter); again {
		panic(errorf("%s: the symbolic value gave no concrete value", what))
	}
	return x
}

func (v Value) concrete(what string) {
	tr := tracerOfValue(v)
	if tr == nil {
		return
	}
	panic(tr.ConcreteError(what, callerOutside()))
}

// String formats v: a tensor as PyTorch's repr, numbers as Python prints
// them, tuples in parentheses, a proxy as Proxy(name).
func (v Value) String() string {
	switch x := v.v.(type) {
	case nil:
		return "None"
	case *tensor.Tensor:
		return x.Repr()
	case tuple:
		s := "("
		for i, e := range x {
			if i > 0 {
				s += ", "
			}
			s += e.String()
		}
		if len(x) == 1 {
			s += ","
		}
		return s + ")"
	case float64:
		return ops.FloatScalar(x).String()
	case bool:
		return ops.BoolScalar(x).String()
	case node.Slice:
		return "slice(" + partString(x.Start) + ", " + partString(x.Stop) + ", " + partString(x.Step) + ")"
	case node.EllipsisType:
		return "Ellipsis"
	case Module:
		return "<module " + x.ModuleBase().TypeName() + ">"
	case *moduleRef:
		return "<module " + x.path + " (" + x.m.ModuleBase().TypeName() + ")>"
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v.v)
}

func partString(a node.Arg) string {
	if i, ok := a.(node.Int); ok {
		return fmt.Sprint(int64(i))
	}
	return "None"
}

// raw converts v to the Go value ops.Operator.Call takes: tuples become
// []any, everything else is passed as held.
func (v Value) raw() any {
	if t, ok := v.v.(tuple); ok {
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = e.raw()
		}
		return out
	}
	return v.v
}

// Raw returns v as the Go value ops.Operator.Call takes (tuples as []any).
func (v Value) Raw() any { return v.raw() }

// tracerOfValue returns the tracer of the first symbolic value in v.
func tracerOfValue(v Value) tracer {
	switch x := v.v.(type) {
	case ops.Symbolic:
		if tr, ok := x.Tracer().(tracer); ok {
			return tr
		}
	case tuple:
		for _, e := range x {
			if tr := tracerOfValue(e); tr != nil {
				return tr
			}
		}
	case dict:
		for _, e := range x.vals {
			if tr := tracerOfValue(e); tr != nil {
				return tr
			}
		}
	}
	return nil
}

// tracerOf returns the tracer of the first symbolic value among args and
// kwargs.
func tracerOf(args []Value, kwargs map[string]Value) tracer {
	for _, a := range args {
		if tr := tracerOfValue(a); tr != nil {
			return tr
		}
	}
	for _, a := range kwargs {
		if tr := tracerOfValue(a); tr != nil {
			return tr
		}
	}
	return nil
}
