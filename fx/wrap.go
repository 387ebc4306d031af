package fx

import (
	"fmt"
	"reflect"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
)

// Wrapped is a Go function that tracing records as one call_function node
// instead of tracing through it (torch.fx.wrap): use it for code that
// cannot be traced, such as control flow on tensor data. Called with
// concrete values it simply runs.
type Wrapped struct {
	fn   *node.Func
	impl func(args ...nn.Value) nn.Value
}

// Wrap registers fn under the qualified name qualname ("mylib.clip_if_big")
// and returns it wrapped. Graphs name it by qualname; the interpreter runs
// fn for its call_function nodes.
func Wrap(qualname string, fn func(args ...nn.Value) nn.Value) (*Wrapped, error) {
	if fn == nil {
		return nil, fmt.Errorf("fx.Wrap: nil function")
	}
	f, err := node.NewFunc(qualname, false)
	if err != nil {
		return nil, fmt.Errorf("fx.Wrap: %w", err)
	}
	w := &Wrapped{fn: f, impl: fn}
	err = nn.RegisterFunction(f, func(args []nn.Value, kwargs map[string]nn.Value) (out nn.Value, err error) {
		if len(kwargs) > 0 {
			return nn.None, fmt.Errorf("%s takes no keyword arguments", qualname)
		}
		defer nn.Recover(&err)
		return fn(args...), nil
	})
	if err != nil {
		return nil, fmt.Errorf("fx.Wrap: %w", err)
	}
	return w, nil
}

// Function returns the graph target of the wrapped function.
func (w *Wrapped) Function() node.Function { return w.fn }

// Call calls the function: recorded as a call_function node when an
// argument is symbolic, run directly otherwise.
func (w *Wrapped) Call(args ...nn.Value) nn.Value {
	return nn.CallFunction(w.fn, args, nil)
}

// funcModule makes a Go function traceable as a module.
type funcModule struct {
	nn.Base
	fn    reflect.Value
	names []string
}

func (f *funcModule) ArgNames() []string { return f.names }

func (f *funcModule) Forward(args ...nn.Value) nn.Value {
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = reflect.ValueOf(a)
	}
	return f.fn.Call(in)[0].Interface().(nn.Value)
}

// SymbolicTraceFunc traces a Go function taking and returning nn.Values
// (fixed arity, no variadic parameter), naming the placeholders names (or
// x / x0, x1, ... by default).
func SymbolicTraceFunc(fn any, names ...string) (*GraphModule, error) {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func || v.IsNil() {
		return nil, fmt.Errorf("fx.SymbolicTraceFunc: %T is not a function", fn)
	}
	t := v.Type()
	vt := reflect.TypeFor[nn.Value]()
	if t.IsVariadic() || t.NumOut() != 1 || t.Out(0) != vt {
		return nil, fmt.Errorf("fx.SymbolicTraceFunc: %v must take nn.Value parameters and return one nn.Value", t)
	}
	for i := 0; i < t.NumIn(); i++ {
		if t.In(i) != vt {
			return nil, fmt.Errorf("fx.SymbolicTraceFunc: parameter %d of %v is not an nn.Value", i, t)
		}
	}
	if names == nil {
		if t.NumIn() == 1 {
			names = []string{"x"}
		} else {
			for i := 0; i < t.NumIn(); i++ {
				names = append(names, fmt.Sprintf("x%d", i))
			}
		}
	}
	if len(names) != t.NumIn() {
		return nil, fmt.Errorf("fx.SymbolicTraceFunc: %d names for %d parameters", len(names), t.NumIn())
	}
	m := &funcModule{fn: v, names: names}
	m.Init(m, "function")
	var tr Tracer
	return tr.Trace(m)
}
