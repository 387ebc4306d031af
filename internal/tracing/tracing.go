// Package tracing holds what package nn shares with gofx's recorders
// (package internal/record, and shapeprop's fake propagation) and nothing
// else: the Go stack frames of model code, as a node's stack_trace and an
// error's location, and the hook that makes a module's parameters and
// buffers read as proxies while a recorder records. It was part of nn's
// public surface (nn.StackTrace, nn.UserFrames, nn.IsFramework,
// nn.Location, Parameter.SetProxy and Buffer.SetProxy); model code never
// needs it.
//
// The rest of the tracer contract stays in nn, unexported: the interfaces
// a symbolic value's tracer (tracer), a symbolic number (number) and a
// symbolic value that can answer Value.Bool (concreter) implement. Go's
// interfaces are satisfied by method sets, so internal/record's Recorder
// and export's symbolic sizes implement them without naming them.
package tracing

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// SetSlotProxy installs on a parameter or buffer (an *nn.Parameter or
// *nn.Buffer) the function its Value returns instead of its tensor (a
// func() nn.Value, passed as any since this package cannot name nn's
// types), or with nil removes it. Package nn sets it when it is
// initialized; recorders install a proxy for every parameter and buffer of
// the module tree they record and remove it when done.
var SetSlotProxy func(slot any, proxy any)

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
	"github.com/gofx/gofx/internal/tracing.",
	"runtime.",
	"reflect.",
}

// IsFramework reports whether the Go function named fn (as
// runtime.Frame.Function spells it) belongs to one of gofx's packages that
// run model code (nn, fx, interp, ops, kernels, tensor, export, decomp,
// shapeprop, sym, transformer, the recorder) or to the Go runtime: the
// frames a location in model code skips.
func IsFramework(fn string) bool {
	for _, p := range frameworkPrefixes {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// Location returns "file:line" of the model code's innermost Go frame (the
// first outside the framework packages), or "" when there is none.
func Location() string {
	for _, f := range UserFrames(2, 1) {
		return fmt.Sprintf("%s:%d", f.File, f.Line)
	}
	return ""
}

// UserFrames returns up to max frames of the calling goroutine's stack that
// are outside the framework packages (see IsFramework), innermost first,
// skipping skip frames first.
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
// first, as "file:line in pkg.Function" lines: what recorders record as a
// node's stack_trace.
func StackTrace() string {
	var buf [64]uintptr
	n := runtime.Callers(2, buf[:])
	return StackTraceOf(buf[:n])
}

// StackTraceOf is StackTrace of the stack whose program counters pcs
// are (runtime.Callers): a recorder calls runtime.Callers itself, so that
// the walk of the stack, most of the cost, has one frame less to walk.
func StackTraceOf(pcs []uintptr) string {
	n := len(pcs)
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
