package nn

import (
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// The tracer contract. A symbolic value (ops.Symbolic) is a proxy whose
// Tracer records what model code does with it instead of running it. The
// interfaces below are unexported: model code never names them, and Go's
// interfaces are satisfied by method sets, so the recorders implement them
// without naming them (internal/record's Recorder, behind fx, export and
// decomp; shapeprop's fake propagation). The stack-frame plumbing they use
// is internal/tracing.

// tracer is what a symbolic value's tracer implements so that model code
// can be recorded instead of run. Operator calls reach it through
// ops.Tracer.Trace (the dispatch point hands them over); the rest of what
// model code does with Values reaches it through the methods below.
type tracer interface {
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

// number is implemented by symbolic values that stand for a Python number
// rather than a tensor (a symbolic size such as x.shape[0] while exporting
// with a dynamic dimension). Python operators on two numbers are recorded
// as the functions of package operator (operator.mul), not as aten
// operators.
type number interface {
	ops.Symbolic
	// IsNumber reports whether the value is a number (int, float or bool).
	IsNumber() bool
}

// concreter is implemented by symbolic values that can give model code a
// concrete Go value: a symbolic size whose comparison the shape
// environment can decide (recording a guard) answers Value.Bool and
// Value.Int instead of failing as data-dependent control flow.
type concreter interface {
	// Concrete returns the value (a bool, int64 or float64 for what "a
	// bool", "an int" or "a float") or an error; where is the model code's
	// Go file:line.
	Concrete(what, where string) (any, error)
}
