// Package runtime runs TorchScript: the values TorchScript computes with
// and an interpreter of its IR graphs (package ir).
//
// Values are Go values of type any, as TorchScript's IValue: *tensor.Tensor,
// int64, float64, bool, string, nil (None), complex128, tensor.DType for a
// ScalarType, Device, and the containers defined here: *List (mutable,
// shared by reference), *Dict (insertion-ordered, mutable, shared by
// reference), *Tuple (immutable, optionally named) and *Object (an instance
// of a Class: attribute slots, mutable, shared by reference). Equal is
// TorchScript's ==, Str its str() and print(), Repr IValue::repr.
package runtime
