package nn

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
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

// frameworkPrefixes are the function-name prefixes of gofx's own packages
// that model code calls into; locations skip their frames.
var frameworkPrefixes = []string{
	"github.com/gofx/gofx/nn.",
	"github.com/gofx/gofx/nn/functional.",
	"github.com/gofx/gofx/fx.",
	"github.com/gofx/gofx/interp.",
	"github.com/gofx/gofx/ops.",
	"github.com/gofx/gofx/kernels.",
	"github.com/gofx/gofx/tensor.",
	"github.com/gofx/gofx/export.",
	"github.com/gofx/gofx/decomp.",
	"github.com/gofx/gofx/shapeprop.",
	"github.com/gofx/gofx/sym.",
	"github.com/gofx/gofx/transformer.",
	"github.com/gofx/gofx/internal/record.",
	"runtime.",
	"reflect.",
}

// IsFramework reports whether the Go function named fn (as
// runtime.Frame.Function spells it) belongs to one of gofx's packages that
// run model code (nn, fx, interp, ops, kernels, tensor, export, decomp,
// shapeprop, sym, transformer) or to the Go runtime: the frames a location
// in model code skips.
func IsFramework(fn string) bool {
	for _, p := range frameworkPrefixes {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// callerOutside returns "file:line" of the innermost frame outside the
// framework packages.
func callerOutside() string {
	for _, f := range UserFrames(3, 1) {
		return fmt.Sprintf("%s:%d", f.File, f.Line)
	}
	return ""
}

// UserFrames returns up to max frames of the calling goroutine's stack that
// are outside the framework packages (see IsFramework), innermost first,
// skipping skip frames first. Tracers record them as a node's stack_trace.
func UserFrames(skip, max int) []runtime.Frame {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(skip+1, pcs)
	return userFrames(pcs[:n], max)
}

func userFrames(pcs []uintptr, max int) []runtime.Frame {
	frames := runtime.CallersFrames(pcs)
	var out []runtime.Frame
	for {
		f, more := frames.Next()
		if f.Function != "" && !IsFramework(f.Function) && !strings.HasPrefix(f.Function, "testing.") {
			out = append(out, f)
			if len(out) == max {
				break
			}
		}
		if !more {
			break
		}
	}
	return out
}

// stackTraces caches StackTrace's text by the program counters of the
// stack: model code traced in a loop (N blocks) reaches the tracer through
// the same few call stacks again and again, and symbolizing the frames is
// most of the cost of recording a node.
var (
	stackTraces     sync.Map // string(pcs) -> string
	stackTraceCount atomic.Int64
)

const maxStackTraces = 1 << 16

// StackTrace formats the model code's Go frames (UserFrames), outermost
// first, as "file:line in pkg.Function" lines: what tracers record as a
// node's stack_trace.
func StackTrace() string {
	var buf [64]uintptr
	n := runtime.Callers(2, buf[:])
	pcs := buf[:n]
	key := unsafe.String((*byte)(unsafe.Pointer(unsafe.SliceData(pcs))), n*int(unsafe.Sizeof(uintptr(0))))
	if s, ok := stackTraces.Load(key); ok {
		return s.(string)
	}
	frames := userFrames(pcs, 16)
	var sb strings.Builder
	for i := len(frames) - 1; i >= 0; i-- {
		f := frames[i]
		fn := f.Function
		if j := strings.LastIndexByte(fn, '/'); j >= 0 {
			fn = fn[j+1:]
		}
		fmt.Fprintf(&sb, "%s:%d in %s\n", f.File, f.Line, fn)
	}
	s := sb.String()
	if stackTraceCount.Load() < maxStackTraces {
		stackTraceCount.Add(1)
		stackTraces.Store(strings.Clone(key), s) // key aliases buf: copy it
	}
	return s
}

// Location returns "file:line" of the model code's innermost Go frame, or
// "" when there is none.
func Location() string { return callerOutside() }
