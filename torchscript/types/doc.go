// Package types is TorchScript's type system: the types of the values of
// TorchScript programs and IR graphs (c10's jit_type), in both spellings
// PyTorch uses.
//
// A Type's String is the spelling of the IR and of operator schemas, as
// print(m.graph) writes it: int[], Dict(str, int), (Tensor, int), Tensor?,
// NoneType, Scalar, __torch__.Foo, and the refined tensor types of traced
// graphs, Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu). Its
// Annotation is the Python spelling of the serialized code (m.code):
// List[int], Dict[str, int], Tuple[Tensor, int], Optional[Tensor].
// ParseIR reads the first spelling (and accepts the second).
//
// The basic types are singletons (Int, Float, Bool, Str, None, Device,
// Number, ...). Composite types are structs: List, Dict, Tuple (NamedTuple
// with Names), Optional, Union (NewUnion normalizes), Future, Await, RRef;
// named ones carry their qualified name: Class (with its attributes in
// order, parameter/buffer flags and constants; methods belong to the
// frontend), Interface, Enum; Var is a schema type variable (t).
// ScalarType, Layout and MemoryFormat are ints in the IR, as in PyTorch:
// each is a subtype of int.
//
// Equal, IsSubtype (TorchScript's isSubtypeOf) and Unify (unifyTypes: the
// type of a value an if or a loop merges) relate types.
package types
