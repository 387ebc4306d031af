package types

import (
	"sort"
	"strconv"
	"strings"
)

// Kind says what a Type is.
type Kind uint8

// The kinds of types, as c10's TypeKind.
const (
	AnyKind Kind = iota + 1
	TensorKind
	IntKind
	FloatKind
	ComplexKind
	BoolKind
	StrKind
	NoneKind
	DeviceKind
	NumberKind
	LayoutKind
	ScalarTypeKind
	MemoryFormatKind
	GeneratorKind
	StorageKind
	StreamKind
	QSchemeKind
	CapsuleKind
	AnyListKind
	AnyTupleKind
	AnyClassKind
	AnyEnumKind
	FunctionKind
	ListKind
	DictKind
	TupleKind
	OptionalKind
	UnionKind
	ClassKind
	InterfaceKind
	EnumKind
	VarKind
	FutureKind
	AwaitKind
	RRefKind
)

// Type is a TorchScript type. Its String is the spelling of the IR and of
// operator schemas (int[], Dict(str, int), (Tensor, int), Tensor?,
// __torch__.Foo, NoneType); Annotation is the Python spelling the
// serialized code uses (List[int], Dict[str, int], Tuple[Tensor, int],
// Optional[Tensor]).
//
// The basic types are singletons (Int, Float, Bool, ...), so t == types.Int
// works; Tensor types may carry refinements (dtype, sizes, ...), so test
// them with t.Kind() == types.TensorKind. Compare other types with Equal.
type Type interface {
	Kind() Kind
	String() string
	Annotation() string
}

// Basic is a type without parameters: Any, int, float, complex, bool, str,
// NoneType, Device, Scalar (Number), Layout, ScalarType, MemoryFormat,
// Generator, Storage, Stream, QScheme, Capsule, list, tuple, the any-class
// and any-enum types and Function.
type Basic struct {
	kind       Kind
	name, anno string
}

// Kind returns the type's kind.
func (b *Basic) Kind() Kind { return b.kind }

// String returns the IR spelling ("int", "NoneType", "Scalar").
func (b *Basic) String() string { return b.name }

// Annotation returns the Python spelling ("int", "NoneType", "number").
func (b *Basic) Annotation() string { return b.anno }

// The basic types.
var (
	Any          = &Basic{AnyKind, "Any", "Any"}
	Int          = &Basic{IntKind, "int", "int"}
	Float        = &Basic{FloatKind, "float", "float"}
	Complex      = &Basic{ComplexKind, "complex", "complex"}
	Bool         = &Basic{BoolKind, "bool", "bool"}
	Str          = &Basic{StrKind, "str", "str"}
	None         = &Basic{NoneKind, "NoneType", "NoneType"}
	Device       = &Basic{DeviceKind, "Device", "Device"}
	Number       = &Basic{NumberKind, "Scalar", "number"}
	Layout       = &Basic{LayoutKind, "Layout", "Layout"}
	ScalarType   = &Basic{ScalarTypeKind, "ScalarType", "ScalarType"}
	MemoryFormat = &Basic{MemoryFormatKind, "MemoryFormat", "MemoryFormat"}
	Generator    = &Basic{GeneratorKind, "Generator", "Generator"}
	Storage      = &Basic{StorageKind, "Storage", "Storage"}
	Stream       = &Basic{StreamKind, "Stream", "Stream"}
	QScheme      = &Basic{QSchemeKind, "QScheme", "QScheme"}
	Capsule      = &Basic{CapsuleKind, "Capsule", "Capsule"}
	AnyList      = &Basic{AnyListKind, "list", "list"}
	AnyTuple     = &Basic{AnyTupleKind, "tuple", "tuple"}
	AnyClass     = &Basic{AnyClassKind, "AnyClassType", "AnyClassType"}
	AnyEnum      = &Basic{AnyEnumKind, "AnyEnumType", "AnyEnumType"}
	// Function is the type of a first-class function value (the output of
	// prim::Constant[name="relu"]), printed "Function".
	Function = &Basic{FunctionKind, "Function", "Function"}
)

// TensorType is the Tensor type, possibly refined as a traced graph prints
// it: Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu). The zero
// value (and Tensor) is the plain "Tensor".
type TensorType struct {
	// DType is the scalar type name as PyTorch prints it ("Float", "Long"),
	// empty when unknown.
	DType string
	// Sizes are the dims when the rank is known (Rank); -1 is an unknown
	// dim, printed "*".
	Sizes []int64
	// Rank reports that the number of dims is known (Sizes holds them).
	Rank bool
	// Strides are the strides when all are known (printed only then).
	Strides []int64
	// RequiresGrad is "0"/"1" when known, empty when not.
	RequiresGrad *bool
	// Device is the device as printed ("cpu", "cuda:0"), empty when unknown.
	Device string
	// Undefined marks "[Undefined]" (a known-undefined tensor).
	Undefined bool
}

// Tensor is the unrefined tensor type.
var Tensor = &TensorType{}

// Kind returns TensorKind.
func (t *TensorType) Kind() Kind { return TensorKind }

// Annotation returns "Tensor".
func (t *TensorType) Annotation() string { return "Tensor" }

// IsPlain reports whether t carries no refinement (prints "Tensor").
func (t *TensorType) IsPlain() bool {
	return t.DType == "" && !t.Rank && t.RequiresGrad == nil && t.Device == "" && !t.Undefined
}

// String prints the type as PyTorch's operator<< at full verbosity (what
// graph printing uses).
func (t *TensorType) String() string {
	var b strings.Builder
	if t.DType != "" {
		b.WriteString(t.DType)
		if !t.Rank {
			b.WriteString("Tensor")
		}
	} else {
		b.WriteString("Tensor")
	}
	n := 0
	sep := func() {
		if n > 0 {
			b.WriteString(", ")
		}
		n++
	}
	if t.Rank {
		b.WriteByte('(')
		for _, s := range t.Sizes {
			sep()
			if s < 0 {
				b.WriteByte('*')
			} else {
				b.WriteString(strconv.FormatInt(s, 10))
			}
		}
		if len(t.Sizes) > 0 && len(t.Strides) == len(t.Sizes) {
			b.WriteString(", strides=[")
			for i, s := range t.Strides {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(strconv.FormatInt(s, 10))
			}
			b.WriteByte(']')
		}
		t.writeFull(&b, sep)
		b.WriteByte(')')
	} else if t.RequiresGrad != nil || t.Device != "" {
		b.WriteByte('(')
		t.writeFull(&b, sep)
		b.WriteByte(')')
	}
	if t.Undefined {
		b.WriteString("[Undefined]")
	}
	return b.String()
}

func (t *TensorType) writeFull(b *strings.Builder, sep func()) {
	if t.RequiresGrad != nil {
		sep()
		b.WriteString("requires_grad=")
		if *t.RequiresGrad {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	if t.Device != "" {
		sep()
		b.WriteString("device=")
		b.WriteString(t.Device)
	}
}

// List is T[] (List[T]).
type List struct{ Elem Type }

// Kind returns ListKind.
func (t *List) Kind() Kind { return ListKind }

// String returns "T[]".
func (t *List) String() string { return t.Elem.String() + "[]" }

// Annotation returns "List[T]".
func (t *List) Annotation() string { return "List[" + t.Elem.Annotation() + "]" }

// Dict is Dict(K, V) (Dict[K, V]).
type Dict struct{ Key, Value Type }

// Kind returns DictKind.
func (t *Dict) Kind() Kind { return DictKind }

// String returns "Dict(K, V)".
func (t *Dict) String() string { return "Dict(" + t.Key.String() + ", " + t.Value.String() + ")" }

// Annotation returns "Dict[K, V]".
func (t *Dict) Annotation() string {
	return "Dict[" + t.Key.Annotation() + ", " + t.Value.Annotation() + "]"
}

// Tuple is (A, B) (Tuple[A, B]); with Names it is a NamedTuple whose
// qualified name is Name (it may be empty for a NamedTuple only known by
// its fields).
type Tuple struct {
	Elems []Type
	// Names are the field names of a NamedTuple, nil for a plain tuple.
	Names []string
	// Name is the NamedTuple's qualified name ("__torch__.Point").
	Name string
}

// Kind returns TupleKind.
func (t *Tuple) Kind() Kind { return TupleKind }

// String returns "(A, B)", or "NamedTuple(a : A, b : B)".
func (t *Tuple) String() string {
	var b strings.Builder
	if t.Names != nil {
		b.WriteString("NamedTuple")
	}
	b.WriteByte('(')
	for i, e := range t.Elems {
		if i > 0 {
			b.WriteString(", ")
		}
		if t.Names != nil && i < len(t.Names) {
			b.WriteString(t.Names[i])
			b.WriteString(" : ")
		}
		b.WriteString(e.String())
	}
	b.WriteByte(')')
	return b.String()
}

// Annotation returns "Tuple[A, B]" ("Tuple[()]" when empty), or the
// NamedTuple's qualified name.
func (t *Tuple) Annotation() string {
	if t.Names != nil && t.Name != "" {
		return t.Name
	}
	if len(t.Elems) == 0 {
		return "Tuple[()]"
	}
	return "Tuple[" + joinAnn(t.Elems) + "]"
}

// Optional is T? (Optional[T]).
type Optional struct{ Elem Type }

// Kind returns OptionalKind.
func (t *Optional) Kind() Kind { return OptionalKind }

// String returns "T?".
func (t *Optional) String() string { return t.Elem.String() + "?" }

// Annotation returns "Optional[T]".
func (t *Optional) Annotation() string { return "Optional[" + t.Elem.Annotation() + "]" }

// Union is Union(A, B) (Union[A, B]). Build unions with NewUnion, which
// flattens and dedups as PyTorch does and returns an Optional where the
// union is T or None.
type Union struct{ Types []Type }

// Kind returns UnionKind.
func (t *Union) Kind() Kind { return UnionKind }

// String returns "Union(A, B)".
func (t *Union) String() string { return "Union(" + joinStr(t.Types) + ")" }

// Annotation returns "Union[A, B]".
func (t *Union) Annotation() string { return "Union[" + joinAnn(t.Types) + "]" }

// NewUnion returns the union of ts as UnionType::create makes it: nested
// unions and optionals flattened, duplicates (and subtypes of other
// members) dropped, the members sorted in the order of c10's TypeKind
// (Tensor, float, int, NoneType, str, ...: Union(str, Tensor) is
// Union(Tensor, str)); a single type is returned as is, and T with None
// becomes Optional[T] (T?).
func NewUnion(ts ...Type) Type {
	var flat []Type
	var add func(t Type)
	add = func(t Type) {
		switch u := t.(type) {
		case *Union:
			for _, e := range u.Types {
				add(e)
			}
			return
		case *Optional:
			add(u.Elem)
			add(None)
			return
		}
		for _, e := range flat {
			if Equal(e, t) {
				return
			}
		}
		flat = append(flat, t)
	}
	for _, t := range ts {
		add(t)
	}
	// drop members that are subtypes of others
	var keep []Type
	for i, t := range flat {
		dup := false
		for j, u := range flat {
			if i != j && !Equal(t, u) && IsSubtype(t, u) {
				dup = true
				break
			}
		}
		if !dup {
			keep = append(keep, t)
		}
	}
	sort.SliceStable(keep, func(i, j int) bool { return c10Kind(keep[i]) < c10Kind(keep[j]) })
	switch len(keep) {
	case 0:
		return None
	case 1:
		return keep[0]
	case 2:
		if keep[0] == None {
			return &Optional{keep[1]}
		}
		if keep[1] == None {
			return &Optional{keep[0]}
		}
	}
	return &Union{keep}
}

// Attr is one attribute of a class, in declaration order.
type Attr struct {
	Name string
	Type Type
	// Parameter and Buffer mark the module's __parameters__ and
	// __buffers__.
	Parameter, Buffer bool
}

// Constant is a class constant (`c : Final[int] = 3`, or __constants__).
type Constant struct {
	Name string
	// Value is the constant: int64, float64, bool, string, nil, complex128,
	// or []any for a tuple.
	Value any
}

// Class is a TorchScript class or module type, known by its qualified name
// ("__torch__.Attributes",
// "__torch__.torch.nn.modules.linear.___torch_mangle_13.Linear"). Its
// methods are not part of the type: the frontend keeps them.
type Class struct {
	Name      string
	Module    bool
	Attrs     []Attr
	Constants []Constant
}

// Kind returns ClassKind.
func (t *Class) Kind() Kind { return ClassKind }

// String returns the qualified name.
func (t *Class) String() string { return t.Name }

// Annotation returns the qualified name.
func (t *Class) Annotation() string { return t.Name }

// Attr returns the attribute called name and its index.
func (t *Class) Attr(name string) (Attr, int, bool) {
	for i, a := range t.Attrs {
		if a.Name == name {
			return a, i, true
		}
	}
	return Attr{}, -1, false
}

// Constant returns the constant called name.
func (t *Class) Constant(name string) (Constant, bool) {
	for _, c := range t.Constants {
		if c.Name == name {
			return c, true
		}
	}
	return Constant{}, false
}

// Interface is a TorchScript interface (or module interface) type, known by
// its qualified name; its methods are the frontend's.
type Interface struct {
	Name   string
	Module bool
}

// Kind returns InterfaceKind.
func (t *Interface) Kind() Kind { return InterfaceKind }

// String returns the qualified name.
func (t *Interface) String() string { return t.Name }

// Annotation returns the qualified name.
func (t *Interface) Annotation() string { return t.Name }

// Enum is a TorchScript enum: its qualified name, value type and members.
type Enum struct {
	Name  string
	Value Type
	Names []string
}

// Kind returns EnumKind.
func (t *Enum) Kind() Kind { return EnumKind }

// String returns "Enum<__torch__.Color>".
func (t *Enum) String() string { return "Enum<" + t.Name + ">" }

// Annotation returns the qualified name.
func (t *Enum) Annotation() string { return t.Name }

// Var is a schema type variable (t, tVal, K).
type Var struct{ Name string }

// Kind returns VarKind.
func (t *Var) Kind() Kind { return VarKind }

// String returns the name.
func (t *Var) String() string { return t.Name }

// Annotation returns the name.
func (t *Var) Annotation() string { return t.Name }

// Future is Future(T).
type Future struct{ Elem Type }

// Kind returns FutureKind.
func (t *Future) Kind() Kind { return FutureKind }

// String returns "Future[T]" as PyTorch's operator<< prints it.
func (t *Future) String() string { return "Future[" + t.Elem.String() + "]" }

// Annotation returns "Future[T]".
func (t *Future) Annotation() string { return "Future[" + t.Elem.Annotation() + "]" }

// Await is Await(T).
type Await struct{ Elem Type }

// Kind returns AwaitKind.
func (t *Await) Kind() Kind { return AwaitKind }

// String returns "Await[T]".
func (t *Await) String() string { return "Await[" + t.Elem.String() + "]" }

// Annotation returns "Await[T]".
func (t *Await) Annotation() string { return "Await[" + t.Elem.Annotation() + "]" }

// RRef is RRef(T).
type RRef struct{ Elem Type }

// Kind returns RRefKind.
func (t *RRef) Kind() Kind { return RRefKind }

// String returns "RRef[T]".
func (t *RRef) String() string { return "RRef[" + t.Elem.String() + "]" }

// Annotation returns "RRef[T]".
func (t *RRef) Annotation() string { return "RRef[" + t.Elem.Annotation() + "]" }

func joinStr(ts []Type) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, ", ")
}

func joinAnn(ts []Type) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.Annotation()
	}
	return strings.Join(s, ", ")
}

// c10KindOrder is the position of each kind in c10's TypeKind enum
// (C10_FORALL_TYPES), the order union members are kept in.
var c10KindOrder = map[Kind]int{
	AnyKind: 0, EnumKind: 1, AnyEnumKind: 2, TensorKind: 3, StorageKind: 4, TupleKind: 5, ListKind: 6,
	DictKind: 7, NumberKind: 8, FloatKind: 9, ComplexKind: 10, FutureKind: 11, AwaitKind: 12, RRefKind: 13,
	IntKind: 14, NoneKind: 15, StrKind: 16, GeneratorKind: 17, BoolKind: 19, OptionalKind: 20, VarKind: 21,
	DeviceKind: 22, StreamKind: 23, FunctionKind: 24, ClassKind: 25, CapsuleKind: 27, InterfaceKind: 28,
	QSchemeKind: 29, ScalarTypeKind: 30, LayoutKind: 31, MemoryFormatKind: 32, AnyListKind: 33,
	AnyTupleKind: 34, AnyClassKind: 35, UnionKind: 39,
}

func c10Kind(t Type) int {
	if k, ok := c10KindOrder[t.Kind()]; ok {
		return k
	}
	return 100
}
