package nn

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
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

// checkArity returns the error for calling m's Forward with nargs
// arguments, or nil.
func (f *forwardInfo) checkArity(m Module, nargs int) error {
	name := adopt(m).TypeName()
	switch {
	case f.variadic && nargs < f.arity-1:
		return fmt.Errorf("%s.Forward takes at least %s, got %d", name, plural(f.arity-1, "argument"), nargs)
	case !f.variadic && nargs != f.arity:
		return fmt.Errorf("%s.Forward takes %s, got %d", name, plural(f.arity, "argument"), nargs)
	}
	return nil
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

// Forward runs m's Forward method directly with args, without the
// module-call hook that Call adds. A tracer calls it to trace through a
// module. Forward must be given as many arguments as it has parameters
// (for a variadic Forward, at least those before the variadic one), as
// Python requires; pass None for an argument that is not there.
func Forward(m Module, args ...Value) Value {
	if isNilModule(m) {
		panic(&Error{Location: callerOutside(), Err: &nilModuleError{rt: reflect.TypeOf(m)}})
	}
	defer locateNil(m)
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
	if err := info.checkArity(m, len(args)); err != nil {
		panic(errorf("%v", err))
	}
	in := make([]reflect.Value, 0, len(args)+1)
	in = append(in, reflect.ValueOf(m))
	for _, a := range args {
		in = append(in, reflect.ValueOf(a))
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
	if isNilModule(m) {
		panic(&Error{Location: callerOutside(), Err: &nilModuleError{rt: reflect.TypeOf(m)}})
	}
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

// isNilModule reports whether m is nil or a nil pointer.
func isNilModule(m Module) bool {
	if m == nil {
		return true
	}
	v := reflect.ValueOf(m)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// nilModuleError is a call of a nil module: typically a submodule field
// that was never set. As the panic goes up through the Calls of the
// enclosing modules, locateNil finds the field that holds the nil module
// and the module path of its owner.
type nilModuleError struct {
	rt     reflect.Type // the nil module's Go type (*nn.Linear), nil for a nil interface
	fields []string     // the owner's nil fields of that type
	owner  string       // the owner's type name
	path   []string     // the owner's module path, outermost first, as found so far
	last   *Base        // the module whose path is being found
	rooted bool         // the path reached a module with no enclosing Call
}

func (e *nilModuleError) Error() string {
	typ := "nn.Module"
	if e.rt != nil {
		typ = e.rt.String()
	}
	if e.fields == nil {
		return fmt.Sprintf("a nil %s module was called (a submodule that was never set?)", typ)
	}
	where := fmt.Sprintf("the root module (%s)", e.owner)
	if len(e.path) > 0 {
		where = fmt.Sprintf("module %s (%s)", strings.Join(e.path, "."), e.owner)
	}
	return fmt.Sprintf("%s: field %s is a nil %s module: set it (registering it with nn.RegisterModule) before calling it",
		where, strings.Join(e.fields, " or "), typ)
}

// locateNil, deferred by Forward for module m, lets a nilModuleError that
// passes through learn where the nil module is: in m's fields if it was
// called from m's Forward, or else m's name for the module found so far.
// Any panic goes on.
func locateNil(m Module) {
	r := recover()
	if r == nil {
		return
	}
	if err, ok := r.(error); ok {
		var ne *nilModuleError
		if errors.As(err, &ne) {
			ne.visit(m)
		}
	}
	panic(r)
}

// holds reports whether field f is a nil module of the type called.
func (e *nilModuleError) holds(f reflect.Value) bool {
	switch f.Kind() {
	case reflect.Pointer:
		return f.Type() == e.rt && f.IsNil()
	case reflect.Interface:
		if f.IsNil() {
			return e.rt == nil && f.Type().Implements(reflect.TypeFor[Module]())
		}
		f = f.Elem()
		return f.Type() == e.rt && f.Kind() == reflect.Pointer && f.IsNil()
	}
	return false
}

func (e *nilModuleError) visit(m Module) {
	b := m.ModuleBase()
	if e.fields == nil {
		v := reflect.ValueOf(m)
		if v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if e.holds(v.Field(i)) {
				e.fields = append(e.fields, v.Type().Field(i).Name)
			}
		}
		if e.fields != nil {
			e.owner, e.last = b.TypeName(), b
		}
		return
	}
	if e.last == nil || e.last == b || e.rooted {
		return
	}
	for _, c := range b.children {
		if c.m.ModuleBase() == e.last {
			e.path = append([]string{c.name}, e.path...)
			e.last = b
			return
		}
	}
	e.rooted = true // e.last is not a registered child of m
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
