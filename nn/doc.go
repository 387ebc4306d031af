// Package nn is where models live: modules with PyTorch's named
// parameters, buffers and submodules, the standard layers, the Value that
// model code computes with, and state dict I/O.
//
// Model code is written once, in Go, against Value: called with tensors it
// runs eagerly on the reference kernels; called with proxies (package fx)
// it records a graph. Every operation goes through one of three dispatch
// points, which tracers intercept: operators through ops.Operator.Call
// (Apply, CallOp), tensor methods through ApplyMethod (the methods of
// Value such as Reshape), and submodule calls through Call.
//
// Failures inside model code panic with an *Error that names the Go line
// of the model code; the entry points (Run, LoadState, and fx's and
// interp's functions) recover them and return errors.
//
// A module is a struct embedding Base. PyTorch's names come from
// registration: RegisterParameter, RegisterBuffer and RegisterModule in
// the constructor, in PyTorch's order, so that StateDict and LoadState
// exchange state dicts with PyTorch unchanged (torch.save format, see
// package torchio).
//
// Call_function targets that are not operators are node.Functions with a
// Go implementation (RegisterFunction): operator.getitem and
// builtins.getattr, Python's operator module on numbers (OperatorAdd,
// OperatorMul, ...), the other functions PyTorch 2.x programs call on
// symbolic sizes (SymMax, SymMin, SymNot, SymInt, SymFloat, SymIte,
// SymSqrt, MathTrunc), and the higher-order operators CondOp, WhileLoopOp
// and MapImplOp, which graphs hold and print but cannot run yet (their call
// says so). node.LookupTarget resolves all of them by the names .pt2 files
// write.
package nn
