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
// and MapImplOp, which run as PyTorch's dense implementations do: cond
// runs only the taken branch (its predicate a bool or a one-element bool
// tensor, see Truth), while_loop runs its body while its cond_fn says so,
// checking that the carried values keep their dtype and shape, and
// map_impl runs its body over the leading dim of the mapped tensors and
// stacks the results. Their graph arguments are module values (a Value can
// hold a module: ModuleValue, ModuleAt, Value.Module), as the interpreter
// makes them from get_attr nodes naming submodules; bad input is an error
// naming the operator, the branch or argument and what differs. node.LookupTarget resolves all of them by the names .pt2 files
// write.
package nn
