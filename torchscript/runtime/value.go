package runtime

import (
	"fmt"
	"github.com/gofx/gofx/torchscript/ir"
	"math"
	"strconv"
	"strings"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/types"
)

// The values the interpreter computes with are Go values of type any, as
// TorchScript's IValue:
//
//	Tensor       *tensor.Tensor
//	int          int64
//	float        float64
//	bool         bool
//	str          string
//	None         nil
//	complex      complex128
//	ScalarType   tensor.DType
//	Device       Device
//	List[T]      *List   (mutable, shared by reference)
//	Dict[K, V]   *Dict   (ordered, mutable, shared by reference)
//	Tuple        *Tuple  (immutable)
//	class object *Object (mutable attribute slots, shared by reference)
//
// Layout and MemoryFormat travel as int64, as TorchScript stores them.

// List is TorchScript's list: mutable and shared by reference (two
// values holding the same *List see each other's appends). Elem is the
// element type, nil when unknown.
type List struct {
	Elem  types.Type
	Items []any
}

// NewList returns a list of elem holding items (not copied).
func NewList(elem types.Type, items ...any) *List { return &List{Elem: elem, Items: items} }

// Len returns the number of elements.
func (l *List) Len() int { return len(l.Items) }

// Append appends v.
func (l *List) Append(v any) { l.Items = append(l.Items, v) }

// Get returns element i, with Python's negative indexing; the error says
// "list index out of range" as PyTorch does.
func (l *List) Get(i int64) (any, error) {
	j, err := normIndex(i, len(l.Items), "list index out of range")
	if err != nil {
		return nil, err
	}
	return l.Items[j], nil
}

// Set sets element i, with Python's negative indexing.
func (l *List) Set(i int64, v any) error {
	j, err := normIndex(i, len(l.Items), "list index out of range")
	if err != nil {
		return err
	}
	l.Items[j] = v
	return nil
}

func normIndex(i int64, n int, msg string) (int, error) {
	if i < 0 {
		i += int64(n)
	}
	if i < 0 || i >= int64(n) {
		return 0, fmt.Errorf("%s", msg)
	}
	return int(i), nil
}

// Dict is TorchScript's dict: insertion-ordered, mutable and shared by
// reference. Keys are str, int, float, bool, complex or Tensor (by
// identity), as TorchScript allows. KeyType and ValueType are the key and
// value types, nil when unknown.
type Dict struct {
	KeyType, ValueType types.Type
	keys, vals         []any
	index              map[any]int
	dead               int // deleted entries (nil-keyed tombstones in keys)
}

type tombstone struct{}

// NewDict returns an empty dict of the given key and value types.
func NewDict(keyType, valueType types.Type) *Dict {
	return &Dict{KeyType: keyType, ValueType: valueType, index: map[any]int{}}
}

func checkKey(k any) error {
	switch k.(type) {
	case string, int64, float64, bool, complex128, *tensor.Tensor:
		return nil
	}
	return fmt.Errorf("a dict key must be str, int, float, bool, complex or Tensor, got %s", TypeName(k))
}

// Len returns the number of entries.
func (d *Dict) Len() int { return len(d.keys) - d.dead }

// Get returns the value of k and whether k is present.
func (d *Dict) Get(k any) (any, bool) {
	if d.index == nil {
		return nil, false
	}
	i, ok := d.index[k]
	if !ok {
		return nil, false
	}
	return d.vals[i], true
}

// Set inserts or replaces the entry of k (a new key goes last).
func (d *Dict) Set(k, v any) error {
	if err := checkKey(k); err != nil {
		return err
	}
	if d.index == nil {
		d.index = map[any]int{}
	}
	if i, ok := d.index[k]; ok {
		d.vals[i] = v
		return nil
	}
	d.index[k] = len(d.keys)
	d.keys = append(d.keys, k)
	d.vals = append(d.vals, v)
	return nil
}

// Delete removes the entry of k and reports whether there was one.
func (d *Dict) Delete(k any) bool {
	i, ok := d.index[k]
	if !ok {
		return false
	}
	delete(d.index, k)
	d.keys[i], d.vals[i] = tombstone{}, nil
	d.dead++
	if d.dead > 16 && d.dead > len(d.keys)/2 {
		d.compact()
	}
	return true
}

func (d *Dict) compact() {
	keys, vals := d.keys[:0:0], d.vals[:0:0]
	for i, k := range d.keys {
		if _, dead := k.(tombstone); dead {
			continue
		}
		d.index[k] = len(keys)
		keys = append(keys, k)
		vals = append(vals, d.vals[i])
	}
	d.keys, d.vals, d.dead = keys, vals, 0
}

// Clear removes every entry.
func (d *Dict) Clear() {
	d.keys, d.vals, d.dead = nil, nil, 0
	d.index = map[any]int{}
}

// Keys returns the keys in insertion order (a new slice).
func (d *Dict) Keys() []any {
	out := make([]any, 0, d.Len())
	for _, k := range d.keys {
		if _, dead := k.(tombstone); !dead {
			out = append(out, k)
		}
	}
	return out
}

// Values returns the values in insertion order (a new slice).
func (d *Dict) Values() []any {
	out := make([]any, 0, d.Len())
	for i, k := range d.keys {
		if _, dead := k.(tombstone); !dead {
			out = append(out, d.vals[i])
		}
	}
	return out
}

// Range calls f on each entry in insertion order until f returns false.
func (d *Dict) Range(f func(k, v any) bool) {
	for i, k := range d.keys {
		if _, dead := k.(tombstone); dead {
			continue
		}
		if !f(k, d.vals[i]) {
			return
		}
	}
}

// Copy returns a shallow copy (dict.copy()).
func (d *Dict) Copy() *Dict {
	c := NewDict(d.KeyType, d.ValueType)
	d.Range(func(k, v any) bool { _ = c.Set(k, v); return true })
	return c
}

// Tuple is TorchScript's immutable tuple. Names holds the field names of
// a NamedTuple (nil otherwise) and Type its qualified name ("" for a plain
// tuple).
type Tuple struct {
	Items []any
	Names []string
	Type  string
}

// NewTuple returns a plain tuple of items (not copied).
func NewTuple(items ...any) *Tuple { return &Tuple{Items: items} }

// Device is a torch.device: a type ("cpu", "cuda", "meta") and an index,
// -1 when none was given.
type Device struct {
	Type  string
	Index int64
}

// CPU is the device gofx computes on.
var CPU = Device{Type: "cpu", Index: -1}

// ParseDevice parses PyTorch's device strings: "cpu", "cuda", "cuda:1".
func ParseDevice(s string) (Device, error) {
	typ, idx, has := strings.Cut(s, ":")
	d := Device{Type: typ, Index: -1}
	switch typ {
	case "cpu", "cuda", "meta", "mps", "xpu", "hip", "xla", "lazy", "vulkan", "mkldnn", "opengl", "opencl", "ideep", "ve", "ort", "ipu", "hpu", "privateuseone":
	default:
		return d, fmt.Errorf("expected one of cpu, cuda, meta, ... device type at start of device string: %s", s)
	}
	if has {
		n, err := strconv.ParseInt(idx, 10, 64)
		if err != nil || n < 0 {
			return d, fmt.Errorf("invalid device string: '%s'", s)
		}
		d.Index = n
	}
	return d, nil
}

// String returns the device as PyTorch prints it ("cpu", "cuda:0").
func (d Device) String() string {
	if d.Index >= 0 {
		return d.Type + ":" + strconv.FormatInt(d.Index, 10)
	}
	return d.Type
}

// Enum is a member of an enum class of the archive's code (class
// Color(Enum)): its type, the member's name and its value (an int64,
// float64 or string), as c10::ivalue::EnumHolder. Enums are values: two
// are == when their types and names are (Equal), str() writes
// Enum<Color.RED> (the unqualified class name), repr __torch__.Color.RED;
// e.name and e.value are prim::EnumName and prim::EnumValue.
type Enum struct {
	Type  *types.Enum
	Name  string
	Value any
}

// ClassName returns the enum's qualified class name ("__torch__.Color").
func (e Enum) ClassName() string {
	if e.Type == nil {
		return ""
	}
	return e.Type.Name
}

// unqualified returns the class name without its module ("Color").
func (e Enum) unqualified() string {
	n := e.ClassName()
	if i := strings.LastIndexByte(n, '.'); i >= 0 {
		return n[i+1:]
	}
	return n
}

// Object is an instance of a TorchScript class (a module or a user
// class): its type and one slot per attribute, in the order of the
// type's attributes. Objects are mutable and shared by reference. The
// methods of its class are the Interpreter's (Interpreter.Method).
type Object struct {
	Type  *types.Class
	Slots []any
}

// NewObject returns an object of class t with every slot None.
func NewObject(t *types.Class) *Object {
	return &Object{Type: t, Slots: make([]any, len(t.Attrs))}
}

// ClassName returns the qualified name of the object's class.
func (o *Object) ClassName() string {
	if o.Type == nil {
		return "<class>"
	}
	return o.Type.Name
}

func (o *Object) slot(name string) int {
	if o.Type == nil {
		return -1
	}
	_, i, ok := o.Type.Attr(name)
	if !ok {
		return -1
	}
	return i
}

// Attr returns the attribute name and whether the class has it.
func (o *Object) Attr(name string) (any, bool) {
	i := o.slot(name)
	if i < 0 || i >= len(o.Slots) {
		return nil, false
	}
	return o.Slots[i], true
}

// SetAttr sets the attribute name, which the class must have.
func (o *Object) SetAttr(name string, v any) error {
	i := o.slot(name)
	if i < 0 {
		return fmt.Errorf("object of class %s has no attribute '%s'", o.ClassName(), name)
	}
	for len(o.Slots) <= i {
		o.Slots = append(o.Slots, nil)
	}
	o.Slots[i] = v
	return nil
}

// TypeName returns the TorchScript type name of a value, for errors and
// isinstance: "Tensor", "int", "float", "bool", "str", "NoneType",
// "complex", "ScalarType", "Device", "List[T]", "Dict[K, V]", "Tuple",
// or an object's class name.
func TypeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "NoneType"
	case *tensor.Tensor:
		if x == nil {
			return "NoneType"
		}
		return "Tensor"
	case int64, int:
		return "int"
	case float64:
		return "float"
	case bool:
		return "bool"
	case string:
		return "str"
	case complex128:
		return "complex"
	case tensor.DType:
		return "ScalarType"
	case Device:
		return "Device"
	case *List:
		if x.Elem != nil {
			return "List[" + x.Elem.Annotation() + "]"
		}
		return "List"
	case *Dict:
		if x.KeyType != nil && x.ValueType != nil {
			return "Dict[" + x.KeyType.Annotation() + ", " + x.ValueType.Annotation() + "]"
		}
		return "Dict"
	case *Tuple:
		if x.Type != "" {
			return x.Type
		}
		return "Tuple"
	case *Object:
		return x.ClassName()
	case *Future:
		if x.Type != nil {
			return x.Type.Annotation()
		}
		return "Future"
	case Enum:
		return x.ClassName()
	case *Function:
		return "Function"
	}
	return fmt.Sprintf("%T", v)
}

// Equal is TorchScript's == on two values (IValue's operator==): numbers
// compare across int, float and bool as Python does, containers element
// by element (identity first), objects by identity, tensors by identity
// or, for one-element tensors, by value; comparing tensors of several
// elements is an error, as PyTorch's "Boolean value of Tensor with more
// than one value is ambiguous".
func Equal(a, b any) (bool, error) {
	if fa, ok := number(a); ok {
		if fb, ok := number(b); ok {
			return numEqual(fa, fb), nil
		}
		return false, nil
	}
	switch x := a.(type) {
	case nil:
		return isNone(b), nil
	case string:
		y, ok := b.(string)
		return ok && x == y, nil
	case complex128:
		y, ok := b.(complex128)
		return ok && x == y, nil
	case tensor.DType:
		y, ok := b.(tensor.DType)
		return ok && x == y, nil
	case Device:
		y, ok := b.(Device)
		return ok && x == y, nil
	case *tensor.Tensor:
		if x == nil {
			return isNone(b), nil
		}
		y, ok := b.(*tensor.Tensor)
		if !ok || y == nil {
			return false, nil
		}
		if x == y {
			return true, nil
		}
		if x.Numel() != 1 || y.Numel() != 1 {
			return false, torchErr("Boolean value of Tensor with more than one value is ambiguous")
		}
		xv, err := x.Item()
		if err != nil {
			return false, err
		}
		yv, err := y.Item()
		if err != nil {
			return false, err
		}
		return Equal(xv, yv)
	case *List:
		y, ok := b.(*List)
		if !ok {
			return false, nil
		}
		if x == y {
			return true, nil
		}
		return equalSlices(x.Items, y.Items)
	case *Tuple:
		y, ok := b.(*Tuple)
		if !ok {
			return false, nil
		}
		if x == y {
			return true, nil
		}
		return equalSlices(x.Items, y.Items)
	case *Dict:
		y, ok := b.(*Dict)
		if !ok {
			return false, nil
		}
		if x == y {
			return true, nil
		}
		if x.Len() != y.Len() {
			return false, nil
		}
		eq, err := true, error(nil)
		x.Range(func(k, v any) bool {
			w, ok := y.Get(k)
			if !ok {
				eq = false
				return false
			}
			e, ferr := Equal(v, w)
			if ferr != nil || !e {
				eq, err = false, ferr
				return false
			}
			return true
		})
		return eq, err
	case *Object:
		y, ok := b.(*Object)
		return ok && x == y, nil
	case Enum:
		y, ok := b.(Enum)
		return ok && x.Name == y.Name && x.ClassName() == y.ClassName(), nil
	}
	return false, fmt.Errorf("cannot compare %s with %s", TypeName(a), TypeName(b))
}

func equalSlices(a, b []any) (bool, error) {
	if len(a) != len(b) {
		return false, nil
	}
	for i := range a {
		if a[i] == b[i] && comparable(a[i]) {
			continue
		}
		eq, err := Equal(a[i], b[i])
		if err != nil || !eq {
			return false, err
		}
	}
	return true, nil
}

func comparable(v any) bool {
	switch v.(type) {
	case int64, bool, string, *List, *Dict, *Tuple, *Object, *tensor.Tensor, Device, tensor.DType, Enum:
		return true
	}
	return false
}

func isNone(v any) bool {
	if v == nil {
		return true
	}
	t, ok := v.(*tensor.Tensor)
	return ok && t == nil
}

// number returns v as a Python number: int64, float64 or bool (as 0/1).
type num struct {
	i     int64
	f     float64
	float bool
}

func number(v any) (num, bool) {
	switch x := v.(type) {
	case int64:
		return num{i: x}, true
	case float64:
		return num{f: x, float: true}, true
	case bool:
		if x {
			return num{i: 1}, true
		}
		return num{}, true
	}
	return num{}, false
}

func numEqual(a, b num) bool {
	switch {
	case !a.float && !b.float:
		return a.i == b.i
	case a.float && b.float:
		return a.f == b.f
	case a.float:
		return a.f == float64(b.i)
	}
	return float64(a.i) == b.f
}

// Str returns the value as TorchScript's str() and print() write it
// (IValue's operator<<): strings bare, floats as C++ prints them ("1.",
// "0.10000000000000001"), True/False, None, containers with their
// elements printed the same way.
func Str(v any) string {
	var b strings.Builder
	writeValue(&b, v, false)
	return b.String()
}

// Repr returns the value as IValue::repr writes it: as Str, but strings
// quoted (with C++-style escapes).
func Repr(v any) string {
	var b strings.Builder
	writeValue(&b, v, true)
	return b.String()
}

// FormatFloat writes a float as TorchScript prints one: C++'s default
// stream formatting with 17 significant digits, and a "." after a result
// that would read as an int ("1.", "10000000000.", "0.10000000000000001",
// "1e+20").
func FormatFloat(d float64) string {
	switch {
	case math.IsNaN(d):
		return "nan"
	case math.IsInf(d, 1):
		return "inf"
	case math.IsInf(d, -1):
		return "-inf"
	}
	s := cppG(d, 17)
	if !strings.ContainsAny(s, ".e") {
		s += "."
	}
	return s
}

// cppG formats d as C++'s %.{prec}g.
func cppG(d float64, prec int) string {
	s := strconv.FormatFloat(d, 'e', prec-1, 64)
	mant, exps, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(exps)
	if exp < -4 || exp >= prec {
		mant = trimZeros(mant)
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		e := strconv.Itoa(exp)
		if len(e) < 2 {
			e = "0" + e
		}
		return mant + "e" + sign + e
	}
	return trimZeros(strconv.FormatFloat(d, 'f', prec-1-exp, 64))
}

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

func writeValue(b *strings.Builder, v any, quote bool) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case *tensor.Tensor:
		if x == nil {
			b.WriteString("None")
			return
		}
		b.WriteString(x.String())
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case int:
		b.WriteString(strconv.Itoa(x))
	case float64:
		b.WriteString(FormatFloat(x))
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case string:
		if quote {
			b.WriteString(ir.QuoteString(x))
		} else {
			b.WriteString(x)
		}
	case complex128:
		b.WriteString(FormatFloat(real(x)))
		if imag(x) >= 0 || math.IsNaN(imag(x)) {
			b.WriteString("+")
		}
		b.WriteString(FormatFloat(imag(x)))
		b.WriteString("j")
	case tensor.DType:
		b.WriteString(strconv.Itoa(int(ScalarTypeCode(x))))
	case Device:
		b.WriteString(x.String())
	case *List:
		b.WriteByte('[')
		for i, e := range x.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, e, quote)
		}
		b.WriteByte(']')
	case *Tuple:
		b.WriteByte('(')
		for i, e := range x.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, e, quote)
		}
		if len(x.Items) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case *Dict:
		b.WriteByte('{')
		first := true
		x.Range(func(k, e any) bool {
			if !first {
				b.WriteString(", ")
			}
			first = false
			writeValue(b, k, quote)
			b.WriteString(": ")
			writeValue(b, e, quote)
			return true
		})
		b.WriteByte('}')
	case *Object:
		fmt.Fprintf(b, "<%s object at %p>", x.ClassName(), x)
	case Enum:
		if quote {
			b.WriteString(x.ClassName() + "." + x.Name)
		} else {
			b.WriteString("Enum<" + x.unqualified() + "." + x.Name + ">")
		}
	default:
		fmt.Fprintf(b, "%v", v)
	}
}

// scalarTypeCodes are c10::ScalarType's numbers, which TorchScript uses
// for dtype values (torch.float32 is 6).
var scalarTypeCodes = map[tensor.DType]int64{
	tensor.Uint8: 0, tensor.Int8: 1, tensor.Int16: 2, tensor.Int32: 3, tensor.Int64: 4,
	tensor.Float16: 5, tensor.Float32: 6, tensor.Float64: 7, tensor.Bool: 11, tensor.BFloat16: 15,
}

// ScalarTypeCode returns c10::ScalarType's number for dt (-1 if none).
func ScalarTypeCode(dt tensor.DType) int64 {
	if c, ok := scalarTypeCodes[dt]; ok {
		return c
	}
	return -1
}

// torchErr makes an error whose message is PyTorch's own, capitalized as
// PyTorch writes it, so that users can search for it.
func torchErr(format string, a ...any) error { return fmt.Errorf(format, a...) }
