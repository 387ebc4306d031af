package types

import "slices"

// Equal reports whether a and b are the same type (PyTorch's ==): same
// kind and parameters; classes, interfaces and enums by qualified name;
// tensor types with the same refinements.
func Equal(a, b Type) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a == b {
		return true
	}
	if a.Kind() != b.Kind() {
		return false
	}
	switch x := a.(type) {
	case *Basic:
		return true // same kind
	case *TensorType:
		y := b.(*TensorType)
		return x.DType == y.DType && x.Rank == y.Rank && slices.Equal(x.Sizes, y.Sizes) &&
			slices.Equal(x.Strides, y.Strides) && eqBoolPtr(x.RequiresGrad, y.RequiresGrad) &&
			x.Device == y.Device && x.Undefined == y.Undefined
	case *List:
		return Equal(x.Elem, b.(*List).Elem)
	case *Optional:
		return Equal(x.Elem, b.(*Optional).Elem)
	case *Future:
		return Equal(x.Elem, b.(*Future).Elem)
	case *Await:
		return Equal(x.Elem, b.(*Await).Elem)
	case *RRef:
		return Equal(x.Elem, b.(*RRef).Elem)
	case *Dict:
		y := b.(*Dict)
		return Equal(x.Key, y.Key) && Equal(x.Value, y.Value)
	case *Tuple:
		y := b.(*Tuple)
		return x.Name == y.Name && slices.Equal(x.Names, y.Names) && equalAll(x.Elems, y.Elems)
	case *Union:
		y := b.(*Union)
		if len(x.Types) != len(y.Types) {
			return false
		}
		for _, t := range x.Types {
			if !slices.ContainsFunc(y.Types, func(u Type) bool { return Equal(t, u) }) {
				return false
			}
		}
		return true
	case *Class:
		return x.Name == b.(*Class).Name
	case *Interface:
		return x.Name == b.(*Interface).Name
	case *Enum:
		return x.Name == b.(*Enum).Name
	case *Var:
		return x.Name == b.(*Var).Name
	}
	return false
}

func eqBoolPtr(a, b *bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func equalAll(a, b []Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// IsSubtype reports whether a value of type a may be used where b is
// expected, following TorchScript's isSubtypeOf: everything is a subtype of
// Any; None and T are subtypes of Optional[T] (and of any union holding
// them); a union is a subtype of b when each member is; int, float and
// complex are subtypes of Number (Scalar); a refined tensor type is a
// subtype of a less refined one; tuples are covariant (a NamedTuple is a
// subtype of a plain tuple of the same types); lists and dicts are
// invariant (every list is a subtype of the untyped list, every tuple of
// the untyped tuple); Future and Await are covariant; a class is a subtype
// of AnyClassType and an enum of AnyEnumType. ScalarType, Layout and
// MemoryFormat are ints in the IR, so each is a subtype of int. A class is
// not a subtype of an interface here: that needs the methods, which the
// frontend has.
func IsSubtype(a, b Type) bool {
	if a == nil || b == nil {
		return false
	}
	if b.Kind() == AnyKind || Equal(a, b) {
		return true
	}
	if u, ok := a.(*Union); ok {
		for _, t := range u.Types {
			if !IsSubtype(t, b) {
				return false
			}
		}
		return true
	}
	if o, ok := a.(*Optional); ok {
		return IsSubtype(o.Elem, b) && IsSubtype(None, b)
	}
	switch y := b.(type) {
	case *Optional:
		return a.Kind() == NoneKind || IsSubtype(a, y.Elem)
	case *Union:
		for _, t := range y.Types {
			if IsSubtype(a, t) {
				return true
			}
		}
		return false
	}
	switch b.Kind() {
	case NumberKind:
		k := a.Kind()
		return k == IntKind || k == FloatKind || k == ComplexKind
	case IntKind:
		k := a.Kind()
		return k == ScalarTypeKind || k == LayoutKind || k == MemoryFormatKind
	case AnyListKind:
		return a.Kind() == ListKind
	case AnyTupleKind:
		return a.Kind() == TupleKind
	case AnyClassKind:
		return a.Kind() == ClassKind
	case AnyEnumKind:
		return a.Kind() == EnumKind
	}
	switch x := a.(type) {
	case *TensorType:
		y, ok := b.(*TensorType)
		return ok && Equal(Merge(x, y), y)
	case *Tuple:
		y, ok := b.(*Tuple)
		if !ok || len(x.Elems) != len(y.Elems) {
			return false
		}
		if y.Names != nil && (!slices.Equal(x.Names, y.Names) || x.Name != y.Name) {
			return false
		}
		for i := range x.Elems {
			if !IsSubtype(x.Elems[i], y.Elems[i]) {
				return false
			}
		}
		return true
	case *Future:
		y, ok := b.(*Future)
		return ok && IsSubtype(x.Elem, y.Elem)
	case *Await:
		y, ok := b.(*Await)
		return ok && IsSubtype(x.Elem, y.Elem)
	}
	return false
}

// Merge returns the tensor type that keeps what a and b agree on (a dtype,
// dims, strides, requires_grad, device they share), as TensorType::merge.
func Merge(a, b *TensorType) *TensorType {
	m := &TensorType{}
	if a.DType == b.DType {
		m.DType = a.DType
	}
	if a.Rank && b.Rank && len(a.Sizes) == len(b.Sizes) {
		m.Rank = true
		m.Sizes = make([]int64, len(a.Sizes))
		for i := range a.Sizes {
			m.Sizes[i] = a.Sizes[i]
			if a.Sizes[i] != b.Sizes[i] {
				m.Sizes[i] = -1
			}
		}
		if slices.Equal(a.Strides, b.Strides) {
			m.Strides = slices.Clone(a.Strides)
		}
	}
	if eqBoolPtr(a.RequiresGrad, b.RequiresGrad) {
		m.RequiresGrad = a.RequiresGrad
	}
	if a.Device == b.Device {
		m.Device = a.Device
	}
	m.Undefined = a.Undefined && b.Undefined
	if m.IsPlain() {
		return Tensor
	}
	return m
}

// Unshaped returns t with every tensor type inside it made plain Tensor
// (unshapedType).
func Unshaped(t Type) Type {
	switch x := t.(type) {
	case *TensorType:
		return Tensor
	case *List:
		return &List{Unshaped(x.Elem)}
	case *Optional:
		return &Optional{Unshaped(x.Elem)}
	case *Future:
		return &Future{Unshaped(x.Elem)}
	case *Await:
		return &Await{Unshaped(x.Elem)}
	case *RRef:
		return &RRef{Unshaped(x.Elem)}
	case *Dict:
		return &Dict{Unshaped(x.Key), Unshaped(x.Value)}
	case *Tuple:
		return &Tuple{Elems: unshapedAll(x.Elems), Names: x.Names, Name: x.Name}
	case *Union:
		return &Union{unshapedAll(x.Types)}
	}
	return t
}

func unshapedAll(ts []Type) []Type {
	out := make([]Type, len(ts))
	for i, t := range ts {
		out[i] = Unshaped(t)
	}
	return out
}

// Unify returns the type both a and b can be seen as, for the values an
// if's branches or a loop's iterations produce (unifyTypes without
// default_to_union): the supertype when one is a subtype of the other; the
// merge of two tensor types; Optional[T] for None and T; Optional[unify(T,
// b)] for Optional[T] and b; tuples and futures elementwise; then the same
// with tensor refinements dropped. ok is false when there is none.
func Unify(a, b Type) (Type, bool) {
	if a == nil || b == nil {
		return nil, false
	}
	if IsSubtype(a, b) {
		return b, true
	}
	if IsSubtype(b, a) {
		return a, true
	}
	if x, ok := a.(*TensorType); ok {
		if y, ok := b.(*TensorType); ok {
			return Merge(x, y), true
		}
	}
	aNone, bNone := IsSubtype(a, None), IsSubtype(b, None)
	if aNone && !bNone {
		return &Optional{b}, true
	}
	if bNone && !aNone {
		return &Optional{a}, true
	}
	if o, ok := a.(*Optional); ok {
		if e, ok := Unify(o.Elem, b); ok {
			return &Optional{e}, true
		}
	} else if o, ok := b.(*Optional); ok {
		if e, ok := Unify(a, o.Elem); ok {
			return &Optional{e}, true
		}
	}
	if x, ok := a.(*Tuple); ok {
		if y, ok := b.(*Tuple); ok && len(x.Elems) == len(y.Elems) {
			elems := make([]Type, len(x.Elems))
			all := true
			for i := range elems {
				e, ok := Unify(x.Elems[i], y.Elems[i])
				if !ok {
					all = false
					break
				}
				elems[i] = e
			}
			if all {
				return &Tuple{Elems: elems}, true
			}
		}
	}
	if x, ok := a.(*Future); ok {
		if y, ok := b.(*Future); ok {
			if e, ok := Unify(x.Elem, y.Elem); ok {
				return &Future{e}, true
			}
		}
	}
	ua, ub := Unshaped(a), Unshaped(b)
	if IsSubtype(ua, ub) {
		return ub, true
	}
	if IsSubtype(ub, ua) {
		return ua, true
	}
	return nil, false
}

// UnifyList unifies every type of ts in turn (unifyTypeList).
func UnifyList(ts []Type) (Type, bool) {
	if len(ts) == 0 {
		return nil, false
	}
	t := ts[0]
	for _, u := range ts[1:] {
		var ok bool
		if t, ok = Unify(t, u); !ok {
			return nil, false
		}
	}
	return t, true
}
