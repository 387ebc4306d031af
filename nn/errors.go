package nn

import (
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/gofx/gofx/internal/tracing"
)

// Error is an error raised inside model code: an operator that refused its
// arguments, a tensor method called with the wrong types, a module with a
// construction error. Location is the Go "file:line" of the model code
// that made the failing call (the first frame outside gofx's own nn, fx,
// interp, ops and kernels packages).
//
// Model code runs as straight-line Go: operations on Values panic with an
// *Error, and every entry point (Run, Call's callers in fx and interp,
// LoadStateDict) recovers it and returns it as an error.
type Error struct {
	Location string
	Err      error
}

func (e *Error) Error() string {
	if e.Location == "" {
		return e.Err.Error()
	}
	return e.Location + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// errorf makes an *Error located at the model code calling into nn.
func errorf(format string, args ...any) *Error {
	return &Error{Location: callerOutside(), Err: fmt.Errorf(format, args...)}
}

// wrapErr makes an *Error of err located at the model code, unless err
// already is one.
func wrapErr(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Location: callerOutside(), Err: err}
}

// Fail panics with err located at the calling model code: the way layers
// and functional wrappers outside this package report a failed operation
// from code that returns only a Value. Entry points turn it back into an
// error.
func Fail(err error) {
	if err != nil {
		panic(wrapErr(err))
	}
}

// Recover turns a panic raised in model code into an error stored in *err:
// an *Error (or any error) as is, anything else as an internal error with
// its Go stack. Use it as `defer nn.Recover(&err)` in every function that
// runs model code and returns an error.
func Recover(err *error) {
	r := recover()
	if r == nil {
		return
	}
	switch x := r.(type) {
	case error:
		*err = x
	default:
		*err = fmt.Errorf("nn: internal error: %v\n%s", r, debug.Stack())
	}
}

// callerOutside returns "file:line" of the innermost frame outside the
// framework packages.
func callerOutside() string { return tracing.Location() }
