package nn

import (
	"fmt"
	"reflect"
	"sync"
)

// ArgNamer is implemented by modules that name their Forward parameters
// (Go's reflection cannot see parameter names). Tracers use the names for
// placeholders; without them the inputs are called x (one input) or x0,
// x1, ... .
type ArgNamer interface {
	ArgNames() []string
}

// ArgNames returns the names of m's Forward parameters: m's own (ArgNamer),
// or defaults for its arity ("x", or "x0", "x1", ... for several; a
// variadic Forward takes as many as nargs).
func ArgNames(m Module, nargs int) []string {
	if an, ok := m.(ArgNamer); ok {
		return an.ArgNames()
	}
	f, err := forwardOf(m)
	n := nargs
	if err == nil && !f.variadic {
		n = f.arity
	}
	if n == 1 {
		return []string{"x"}
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("x%d", i)
	}
	return names
}

type forwardInfo struct {
	arity    int // parameters (the variadic one counted once)
	variadic bool
	method   reflect.Value // unbound method value of the type, or invalid
}

var (
	valueType    = reflect.TypeFor[Value]()
	valuesType   = reflect.TypeFor[[]Value]()
	forwardCache sync.Map // reflect.Type -> *forwardInfo or error
)

// forwardOf inspects m's Forward method.
func forwardOf(m Module) (*forwardInfo, error) {
	t := reflect.TypeOf(m)
	if c, ok := forwardCache.Load(t); ok {
		if err, isErr := c.(error); isErr {
			return nil, err
		}
		return c.(*forwardInfo), nil
	}
	info, err := inspectForward(t)
	if err != nil {
		forwardCache.Store(t, err)
		return nil, err
	}
	forwardCache.Store(t, info)
	return info, nil
}

func inspectForward(t reflect.Type) (*forwardInfo, error) {
	meth, ok := t.MethodByName("Forward")
	if !ok {
		return nil, fmt.Errorf("nn: %v has no Forward method", t)
	}
	ft := meth.Type // receiver first
	if ft.NumOut() != 1 || ft.Out(0) != valueType {
		return nil, fmt.Errorf("nn: %v.Forward must return one nn.Value", t)
	}
	info := &forwardInfo{arity: ft.NumIn() - 1, variadic: ft.IsVariadic(), method: meth.Func}
	for i := 1; i < ft.NumIn(); i++ {
		in := ft.In(i)
		if in == valueType || (info.variadic && i == ft.NumIn()-1 && in == valuesType) {
			continue
		}
		return nil, fmt.Errorf("nn: %v.Forward parameter %d has type %v; Forward takes nn.Value parameters only", t, i, in)
	}
	return info, nil
}

// Forward runs m's Forward method directly with args (missing trailing
// arguments are None), without the module-call hook that Call adds. A
// tracer calls it to trace through a module.
func Forward(m Module, args ...Value) Value {
	switch f := m.(type) {
	case interface{ Forward(Value) Value }:
		if len(args) == 1 {
			return f.Forward(args[0])
		}
	case interface{ Forward(...Value) Value }:
		return f.Forward(args...)
	case interface{ Forward(Value, Value) Value }:
		if len(args) == 2 {
			return f.Forward(args[0], args[1])
		}
	}
	info, err := forwardOf(m)
	if err != nil {
		panic(wrapErr(err))
	}
	if !info.variadic && len(args) > info.arity {
		panic(errorf("%s.Forward takes %d arguments, got %d", adopt(m).TypeName(), info.arity, len(args)))
	}
	in := make([]reflect.Value, 0, len(args)+1)
	in = append(in, reflect.ValueOf(m))
	for _, a := range args {
		in = append(in, reflect.ValueOf(a))
	}
	if !info.variadic {
		for len(in) < info.arity+1 {
			in = append(in, reflect.ValueOf(None))
		}
	} else if len(in) < info.arity {
		for len(in) < info.arity {
			in = append(in, reflect.ValueOf(None))
		}
	}
	out := info.method.Call(in)
	return out[0].Interface().(Value)
}

// Call calls module m on args: its Forward, or, when an argument is
// symbolic, whatever the tracer makes of the call (a call_module node for a
// leaf module). Model code calls every submodule through Call (layers'
// Call methods are shorthands for it). Failures panic with an *Error; use
// Run at the top level.
func Call(m Module, args ...Value) Value {
	b := adopt(m)
	if b.err != nil {
		panic(&Error{Location: callerOutside(), Err: fmt.Errorf("%s: %w", b.TypeName(), b.err)})
	}
	if tr := tracerOf(args, nil); tr != nil {
		out, err := tr.TraceModule(m, args, func() (v Value, err error) {
			defer Recover(&err)
			return Forward(m, args...), nil
		})
		if err != nil {
			panic(wrapErr(err))
		}
		return out
	}
	return Forward(m, args...)
}

// Run calls module m on args and returns its result, or the error that
// stopped it (a construction error of the module tree, an operator that
// refused its arguments, with the Go location in model code).
func Run(m Module, args ...Value) (out Value, err error) {
	defer Recover(&err)
	if m == nil {
		return None, fmt.Errorf("nn.Run: nil module")
	}
	if err := Err(m); err != nil {
		return None, err
	}
	return Call(m, args...), nil
}
