package nn

import (
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// Tracer is what a symbolic value's tracer implements so that model code
// can be recorded instead of run. Operator calls reach it through
// ops.Tracer.Trace (the dispatch point hands them over); the rest of what
// model code does with Values reaches it through the methods below. Package
// fx implements it.
type Tracer interface {
	ops.Tracer
	// TraceFunction records a call of a Python-level function that is not
	// an operator (operator.getitem, builtins.getattr, a wrapped Go
	// function).
	TraceFunction(fn node.Function, args []Value, kwargs map[string]Value) (Value, error)
	// TraceMethod records a tensor method call; args[0] is the tensor.
	TraceMethod(name string, args []Value, kwargs map[string]Value) (Value, error)
	// TraceModule records a call of module m, or runs forward (which calls
	// m's Forward with args) to trace through it.
	TraceModule(m Module, args []Value, forward func() (Value, error)) (Value, error)
	// ConcreteError is the error for model code that needs a concrete value
	// (what: "a bool", "an int", ...) from a symbolic one at the Go
	// location where.
	ConcreteError(what, where string) error
}
