// Package runtime runs TorchScript: the values TorchScript computes with
// and an interpreter of its IR graphs (package ir).
//
// Values are Go values of type any, as TorchScript's IValue: *tensor.Tensor,
// int64, float64, bool, string, nil (None), complex128, Device, and the
// containers defined here: *List (mutable, shared by reference), *Dict
// (insertion-ordered, mutable, shared by reference), *Tuple (immutable,
// optionally named), *Object (an instance of a *types.Class: one slot per
// attribute, mutable, shared by reference) and Enum (a member of a
// *types.Enum: its name and value; == compares type and name, str() writes
// Enum<Color.RED>, repr __torch__.Color.RED; prim::EnumName and
// prim::EnumValue are .name and .value; an enum constant's value converts
// from the frontend's EnumValue). A dtype is an int64 (c10::ScalarType's
// number, as TorchScript keeps it; ScalarTypeCode), and tensor.DType is
// accepted wherever one is. Equal is TorchScript's ==, Str its str() and
// print(), Repr IValue::repr, Isinstance its isinstance.
//
// An Interpreter runs a Function (a graph, or a lazily compiled one):
// prim::If runs one of its blocks, prim::Loop runs its body while its
// condition holds and fewer than its trip count iterations ran, carrying
// values; prim::CallMethod finds the method by the object's class name and
// the method's name in Interpreter.Functions (or asks Interpreter.Resolve),
// prim::CallFunction the function its constant names. A with statement's
// prim::Enter runs the object's __enter__ (its result is the node's
// output) and prim::Exit the last entered object's __exit__(None, None,
// None), as PyTorch's interpreter does (an exception in the body leaves
// without __exit__, as there); torch.no_grad's methods call
// torch.set_grad_enabled and torch.is_grad_enabled, which keep a flag of
// the Interpreter (gofx has no autograd, so the flag changes nothing else).
// prim::fork (torch.jit.fork) runs its subgraph at once, on the calling
// goroutine, and its value is a *Future holding the result; aten::wait
// returns it. Running forks in order is deterministic and gives what
// PyTorch computes: a fork changes only when its work runs.
// Operators run in two ways: the JIT operators that are not tensor kernels
// (register_prim_ops.cpp: arithmetic and comparisons on ints, floats and
// strings, list, dict and str operations, conversions such as aten::Int and
// prim::NumToTensor, len, size, dim) have Go implementations here; every
// other operator runs through package ops (the node's resolved overload, or
// the overload its arguments bind to), with TorchScript's positional
// keyword-only arguments and integer MemoryFormat/Layout values converted.
// Each value is freed after the node that uses it last.
//
// Every failure is an *Error naming the node's kind, its source range and
// the function; an exception the program raises is an *Exception. Nothing
// panics out of Run.
package runtime
