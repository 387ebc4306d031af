package node

import (
	"fmt"
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Arg is a node argument. It is a closed set of types, and only these
// implement it: *Node (a value computed by another node), Int, Float, Bool,
// Str, NoneType (the value None), DType, Device, Layout, MemoryFormat,
// EllipsisType (the value Ellipsis), the containers List, Tuple and Dict
// whose elements are Args, and Slice, whose parts are Int, None or *Node.
type Arg interface {
	isArg()
}

// Int is an integer argument (a Python int, a C++ int64_t).
type Int int64

// Float is a floating-point argument (a Python float, a C++ double).
type Float float64

// Bool is a boolean argument.
type Bool bool

// Str is a string argument.
type Str string

// NoneType is the type of [None].
type NoneType struct{}

// None is the argument None (an absent optional value).
var None = NoneType{}

// DType names a tensor element type as torch does, without the "torch."
// prefix: "float32", "int64", "bool", ...
type DType string

// The dtypes torch defines (PyTorch 1.13 names).
const (
	Float32    DType = "float32"
	Float64    DType = "float64"
	Float16    DType = "float16"
	BFloat16   DType = "bfloat16"
	Int64      DType = "int64"
	Int32      DType = "int32"
	Int16      DType = "int16"
	Int8       DType = "int8"
	Uint8      DType = "uint8"
	BoolDType  DType = "bool"
	Complex64  DType = "complex64"
	Complex128 DType = "complex128"
)

// dtypeShort maps each dtype to the short spelling torch.export prints in
// shape annotations (f32[2, 3]).
var dtypeShort = map[DType]string{
	Float32: "f32", Float64: "f64", Float16: "f16", BFloat16: "bf16",
	Int64: "i64", Int32: "i32", Int16: "i16", Int8: "i8", Uint8: "u8",
	BoolDType: "b8", Complex64: "c64", Complex128: "c128",
}

// Valid reports whether d is one of the dtypes torch defines.
func (d DType) Valid() bool { _, ok := dtypeShort[d]; return ok }

// Short returns the abbreviation used in shape annotations ("f32").
func (d DType) Short() string { return dtypeShort[d] }

// DTypeFromShort returns the dtype abbreviated s ("f32" is Float32).
func DTypeFromShort(s string) (DType, bool) {
	for d, short := range dtypeShort {
		if short == s {
			return d, true
		}
	}
	return "", false
}

// Device names a device as torch does: "cpu", "cuda", "cuda:0", "meta".
type Device string

// Valid reports whether d is a device type, optionally followed by ":"
// and a non-negative index.
func (d Device) Valid() bool {
	typ, idx := d.Split()
	return IsIdentifier(typ) && idx >= -1
}

// Split returns the device type and index, -1 when there is no index and -2
// when the index is malformed.
func (d Device) Split() (typ string, index int) {
	s := string(d)
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			n := 0
			if i+1 == len(s) || len(s)-i-1 > 9 {
				return s[:i], -2
			}
			for _, c := range s[i+1:] {
				if c < '0' || c > '9' {
					return s[:i], -2
				}
				n = n*10 + int(c-'0')
			}
			return s[:i], n
		}
	}
	return s, -1
}

// Layout names a tensor layout without the "torch." prefix: "strided",
// "sparse_coo", "sparse_csr", "_mkldnn".
type Layout string

// Valid reports whether l is a layout torch defines.
func (l Layout) Valid() bool {
	switch l {
	case "strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc", "_mkldnn":
		return true
	}
	return false
}

// MemoryFormat names a memory format without the "torch." prefix:
// "contiguous_format", "channels_last", "channels_last_3d",
// "preserve_format".
type MemoryFormat string

// Valid reports whether m is a memory format torch defines.
func (m MemoryFormat) Valid() bool {
	switch m {
	case "contiguous_format", "channels_last", "channels_last_3d", "preserve_format":
		return true
	}
	return false
}

// Slice is Python's slice(start, stop, step), the index of x[start:stop]
// (operator.getitem(x, slice(0, 2, None))). Each part is an Int, None
// (left out) or a *Node computing an int. Build one with all three parts
// set: Slice{Int(0), Int(2), None}.
type Slice struct {
	Start, Stop, Step Arg
}

// Parts returns the three parts in order.
func (s Slice) Parts() [3]Arg { return [3]Arg{s.Start, s.Stop, s.Step} }

// EllipsisType is the type of [Ellipsis].
type EllipsisType struct{}

// Ellipsis is Python's Ellipsis, the ... of x[..., 0].
var Ellipsis = EllipsisType{}

// List is a list argument ([a, b]).
type List []Arg

// Tuple is a tuple argument ((a, b)).
type Tuple []Arg

// Field is one named entry of a Dict or of a node's keyword arguments.
type Field struct {
	Name  string
	Value Arg
}

// Dict is a string-keyed mapping argument whose entries keep their order.
type Dict []Field

// Kwargs are a node's keyword arguments, in order. Names are unique.
type Kwargs []Field

// Get returns the value of the keyword argument name.
func (k Kwargs) Get(name string) (Arg, bool) {
	for _, f := range k {
		if f.Name == name {
			return f.Value, true
		}
	}
	return nil, false
}

// Get returns the value stored under name.
func (d Dict) Get(name string) (Arg, bool) { return Kwargs(d).Get(name) }

func (*Node) isArg()        {}
func (Int) isArg()          {}
func (Float) isArg()        {}
func (Bool) isArg()         {}
func (Str) isArg()          {}
func (NoneType) isArg()     {}
func (DType) isArg()        {}
func (Device) isArg()       {}
func (Layout) isArg()       {}
func (MemoryFormat) isArg() {}
func (List) isArg()         {}
func (Tuple) isArg()        {}
func (Dict) isArg()         {}
func (Slice) isArg()        {}
func (EllipsisType) isArg() {}

// MapArg returns a copy of a in which every *Node is replaced by fn's result;
// containers are copied, other values are kept. It is torch.fx's map_arg.
func MapArg(a Arg, fn func(*Node) Arg) Arg {
	return MapAggregate(a, func(x Arg) Arg {
		if n, ok := x.(*Node); ok {
			return fn(n)
		}
		return x
	})
}

// MapAggregate returns a copy of a in which every leaf (every value that is
// not a List, Tuple, Dict or Slice) is replaced by fn's result. It is torch.fx's
// map_aggregate.
func MapAggregate(a Arg, fn func(Arg) Arg) Arg {
	switch v := a.(type) {
	case List:
		out := make(List, len(v))
		for i, x := range v {
			out[i] = MapAggregate(x, fn)
		}
		return out
	case Tuple:
		out := make(Tuple, len(v))
		for i, x := range v {
			out[i] = MapAggregate(x, fn)
		}
		return out
	case Dict:
		out := make(Dict, len(v))
		for i, f := range v {
			out[i] = Field{f.Name, MapAggregate(f.Value, fn)}
		}
		return out
	case Slice:
		return Slice{MapAggregate(v.Start, fn), MapAggregate(v.Stop, fn), MapAggregate(v.Step, fn)}
	default:
		return fn(a)
	}
}

// mapArgs applies MapArg to each positional argument.
func mapArgs(args []Arg, fn func(*Node) Arg) []Arg {
	out := make([]Arg, len(args))
	for i, a := range args {
		out[i] = MapArg(a, fn)
	}
	return out
}

// mapKwargs applies MapArg to each keyword argument.
func mapKwargs(kw Kwargs, fn func(*Node) Arg) Kwargs {
	if kw == nil {
		return nil
	}
	out := make(Kwargs, len(kw))
	for i, f := range kw {
		out[i] = Field{f.Name, MapArg(f.Value, fn)}
	}
	return out
}

// walkNodes calls fn for every *Node in a, in order, repetitions included.
func walkNodes(a Arg, fn func(*Node)) {
	switch v := a.(type) {
	case *Node:
		fn(v)
	case List:
		for _, x := range v {
			walkNodes(x, fn)
		}
	case Tuple:
		for _, x := range v {
			walkNodes(x, fn)
		}
	case Dict:
		for _, f := range v {
			walkNodes(f.Value, fn)
		}
	case Slice:
		walkNodes(v.Start, fn)
		walkNodes(v.Stop, fn)
		walkNodes(v.Step, fn)
	}
}

// Nodes returns the distinct nodes referenced anywhere in a, in order of
// first appearance.
func Nodes(a Arg) []*Node {
	var d dedup
	walkNodes(a, d.add)
	return d.out
}

// EqualArgs reports whether a and b are the same argument: the same type
// and value, with nodes compared by identity and NaN equal to NaN.
func EqualArgs(a, b Arg) bool {
	switch x := a.(type) {
	case Float:
		y, ok := b.(Float)
		if !ok {
			return false
		}
		if math.IsNaN(float64(x)) && math.IsNaN(float64(y)) {
			return true
		}
		return math.Float64bits(float64(x)) == math.Float64bits(float64(y))
	case List:
		y, ok := b.(List)
		return ok && equalSlices(x, y)
	case Tuple:
		y, ok := b.(Tuple)
		return ok && equalSlices(x, y)
	case Dict:
		y, ok := b.(Dict)
		return ok && equalFields(x, y)
	case Slice:
		y, ok := b.(Slice)
		return ok && EqualArgs(x.Start, y.Start) && EqualArgs(x.Stop, y.Stop) && EqualArgs(x.Step, y.Step)
	default:
		return a == b
	}
}

func equalSlices(a, b []Arg) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !EqualArgs(a[i], b[i]) {
			return false
		}
	}
	return true
}

func equalFields(a, b []Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !EqualArgs(a[i].Value, b[i].Value) {
			return false
		}
	}
	return true
}

// EqualKwargs reports whether two keyword-argument lists are equal, in
// order.
func EqualKwargs(a, b Kwargs) bool { return equalFields(a, b) }

// checkArg reports the first reason a is not a valid argument of a node in
// list l (nil when the node is detached). where names the argument.
func checkArg(a Arg, l *Chain, where string) error {
	switch v := a.(type) {
	case nil:
		return fmt.Errorf("%s is nil (use node.None for None)", where)
	case *Node:
		if v == nil {
			return fmt.Errorf("%s is a nil *Node", where)
		}
		if v.erased {
			return fmt.Errorf("%s refers to erased node %%%s", where, v.name)
		}
		if l != nil && v.list != l {
			return fmt.Errorf("%s refers to node %%%s of another graph", where, v.name)
		}
	case Float, Int, Bool, Str, NoneType, EllipsisType:
	case Slice:
		for i, part := range v.Parts() {
			w := fmt.Sprintf("%s.%s", where, [3]string{"start", "stop", "step"}[i])
			switch part.(type) {
			case Int, NoneType:
			case *Node:
				if err := checkArg(part, l, w); err != nil {
					return err
				}
			case nil:
				return fmt.Errorf("%s is nil (use node.None for a part left out)", w)
			default:
				return fmt.Errorf("%s is a %T: a slice part is an Int, None or a *Node", w, part)
			}
		}
	case DType:
		if !v.Valid() {
			return fmt.Errorf("%s: unknown dtype %q", where, string(v))
		}
	case Device:
		if !v.Valid() {
			return fmt.Errorf("%s: malformed device %q (want TYPE or TYPE:INDEX)", where, string(v))
		}
	case Layout:
		if !v.Valid() {
			return fmt.Errorf("%s: unknown layout %q", where, string(v))
		}
	case MemoryFormat:
		if !v.Valid() {
			return fmt.Errorf("%s: unknown memory format %q", where, string(v))
		}
	case List:
		for i, x := range v {
			if err := checkArg(x, l, fmt.Sprintf("%s[%d]", where, i)); err != nil {
				return err
			}
		}
	case Tuple:
		for i, x := range v {
			if err := checkArg(x, l, fmt.Sprintf("%s[%d]", where, i)); err != nil {
				return err
			}
		}
	case Dict:
		seen := make(map[string]bool, len(v))
		for _, f := range v {
			if seen[f.Name] {
				return fmt.Errorf("%s: duplicate key %q", where, f.Name)
			}
			seen[f.Name] = true
			if err := checkArg(f.Value, l, fmt.Sprintf("%s[%q]", where, f.Name)); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("%s has unsupported type %T", where, a)
	}
	return nil
}

// argOK reports, without allocating, whether a is valid; checkArg then
// explains what is wrong with an invalid one.
func argOK(a Arg, l *Chain) bool {
	switch v := a.(type) {
	case *Node:
		return v != nil && !v.erased && (l == nil || v.list == l)
	case Float, Int, Bool, Str, NoneType, EllipsisType:
		return true
	case List:
		for _, x := range v {
			if !argOK(x, l) {
				return false
			}
		}
		return true
	case Tuple:
		for _, x := range v {
			if !argOK(x, l) {
				return false
			}
		}
		return true
	}
	return false // nil, the enumerations and Dict: checkArg decides
}

// checkArgs validates positional and keyword arguments.
func checkArgs(args []Arg, kwargs Kwargs, l *Chain) error {
	for i, a := range args {
		if argOK(a, l) {
			continue
		}
		if err := checkArg(a, l, fmt.Sprintf("arg %d", i)); err != nil {
			return err
		}
	}
	var seen map[string]bool
	if len(kwargs) > 8 {
		seen = make(map[string]bool, len(kwargs))
	}
	for i, f := range kwargs {
		if !IsIdentifier(f.Name) {
			return fmt.Errorf("kwarg %d: name %q is not an identifier", i, f.Name)
		}
		dup := false
		if seen != nil {
			dup, seen[f.Name] = seen[f.Name], true
		} else {
			for _, g := range kwargs[:i] {
				dup = dup || g.Name == f.Name
			}
		}
		if dup {
			return fmt.Errorf("kwarg %q given twice", f.Name)
		}
		if err := checkArg(f.Value, l, fmt.Sprintf("kwarg %q", f.Name)); err != nil {
			return err
		}
	}
	return nil
}

// ArgOf converts a plain Go value, as model code passes it to an operator,
// into its Arg: nil (None), int and int64 (Int), float64 (Float), bool
// (Bool), string (Str), an ops.Scalar (its value), a tensor.DType (its
// spelling), and the typed slices schema defaults decode to ([]int64, []int,
// []float64, []bool: a List), and a Slice or Ellipsis as is (the index
// values nn.Value holds). ok is false for any other value, for a dtype that
// has no graph spelling and for a Slice with an invalid part. Tracers use it for the leaves of the arguments they
// record.
func ArgOf(v any) (a Arg, ok bool) {
	switch x := v.(type) {
	case nil:
		return None, true
	case int64:
		return Int(x), true
	case int:
		return Int(x), true
	case float64:
		return Float(x), true
	case bool:
		return Bool(x), true
	case string:
		return Str(x), true
	case ops.Scalar:
		return ArgOf(x.Value())
	case tensor.DType:
		d := DType(x.String())
		return d, d.Valid()
	case []int64:
		return listOf(x, func(e int64) Arg { return Int(e) }), true
	case []int:
		return listOf(x, func(e int) Arg { return Int(e) }), true
	case []float64:
		return listOf(x, func(e float64) Arg { return Float(e) }), true
	case []bool:
		return listOf(x, func(e bool) Arg { return Bool(e) }), true
	case Slice:
		return x, checkArg(x, nil, "slice") == nil
	case EllipsisType:
		return x, true
	}
	return nil, false
}

func listOf[T any](xs []T, conv func(T) Arg) List {
	l := make(List, len(xs))
	for i, e := range xs {
		l[i] = conv(e)
	}
	return l
}
