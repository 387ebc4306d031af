package torchscript

import (
	"fmt"
	"io"
	"strings"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/archive"
	"github.com/gofx/gofx/torchscript/frontend"
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/runtime"
	"github.com/gofx/gofx/torchscript/types"
)

// Load reads a torch.jit.save archive and returns its root module, ready
// to run: the archive's records decoded (package archive), its code
// compiled on demand (package frontend), its objects built as instances
// of the classes the code defines, and an interpreter (package runtime)
// that runs their methods. Nothing in the archive is executed but the
// TorchScript code the caller runs (and a class's __setstate__ while the
// objects are built, as torch.jit.load does).
func Load(path string) (*Module, error) {
	a, err := archive.Open(path)
	if err != nil {
		return nil, fmt.Errorf("torchscript: %w", err)
	}
	m, err := FromArchive(a)
	if err != nil {
		return nil, fmt.Errorf("%w (loading %s)", err, path)
	}
	return m, nil
}

// Read reads an archive of size bytes from r, as Load.
func Read(r io.ReaderAt, size int64) (*Module, error) {
	a, err := archive.Read(r, size)
	if err != nil {
		return nil, fmt.Errorf("torchscript: %w", err)
	}
	return FromArchive(a)
}

// FromArchive builds the root module of a decoded archive.
func FromArchive(a *archive.Archive) (*Module, error) {
	consts := make([]any, len(a.Constants))
	for i, c := range a.Constants {
		consts[i] = constOf(c)
	}
	cu := frontend.New(func(module string) ([]byte, bool) {
		f, ok := a.Source(module)
		if !ok {
			return nil, false
		}
		return []byte(f.Text), true
	}, &frontend.Options{Constants: consts, Version: int64(a.Version), Upgraders: upgraders()})
	l := &loader{a: a, cu: cu, memo: map[any]any{}, hooks: map[string]Hooks{}}
	l.in = runtime.NewInterpreter(nil)
	l.in.Resolve = l.resolve
	root, err := a.Root()
	if err != nil {
		return nil, fmt.Errorf("torchscript: %w", err)
	}
	v, err := l.value(root, nil, "data.pkl")
	if err != nil {
		return nil, fmt.Errorf("torchscript: %w", err)
	}
	obj, ok := v.(*runtime.Object)
	if !ok || !obj.Type.Module {
		return nil, fmt.Errorf("torchscript: data.pkl's root is a %s, not a module", runtime.TypeName(v))
	}
	m, err := NewModule(obj, l.in, l.hooks)
	if m != nil {
		m.cu = cu // signatures for Code (code.go)
		m.arch = a
		m.debug = newDebugRanges(a)
	}
	return m, err
}

// upgraders is the archive package's table of versioned operators in the
// frontend's form: an old archive's calls of operators whose meaning
// changed compile to their upgraders (integer div before version 4, ...).
func upgraders() []frontend.Upgrader {
	var out []frontend.Upgrader
	for _, u := range archive.Upgraders() {
		out = append(out, frontend.Upgrader{Op: u.Op, Before: u.Before, Name: u.Name, OldSchema: u.OldSchema, Source: u.Source})
	}
	return out
}

// constOf converts a constants.pkl value to the form the frontend's
// constant table takes (ir.Tuple for tuples).
func constOf(v any) any {
	switch x := v.(type) {
	case archive.Tuple:
		out := make(ir.Tuple, len(x))
		for i, e := range x {
			out[i] = constOf(e)
		}
		return out
	case *archive.List:
		out := make([]any, len(x.Items))
		for i, e := range x.Items {
			out[i] = constOf(e)
		}
		return out
	}
	return v
}

// loader turns an archive's objects into runtime values.
type loader struct {
	a     *archive.Archive
	cu    *frontend.CompilationUnit
	in    *runtime.Interpreter
	memo  map[any]any
	hooks map[string]Hooks
}

func (l *loader) class(name string) (*frontend.Class, error) {
	c, err := l.cu.Class(name)
	if err != nil {
		return nil, err
	}
	if c.Type.Module {
		if _, done := l.hooks[name]; !done {
			l.hooks[name] = Hooks{Pre: hookNames(c.Type, "__forward_pre_hooks__"), Post: hookNames(c.Type, "__forward_hooks__")}
		}
	}
	return c, nil
}

func hookNames(t *types.Class, key string) []string {
	c, ok := t.Constant(key)
	if !ok {
		return nil
	}
	var out []string
	switch x := c.Value.(type) {
	case []string:
		out = append(out, x...)
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// resolve finds a method ("__torch__.M.forward") or a function
// ("__torch__.torch.nn.functional.relu", or "relu" as a Function
// constant names it) of the archive's code.
func (l *loader) resolve(name string) (*runtime.Function, error) {
	fn, err := l.lookup(name)
	if err != nil {
		return nil, err
	}
	return &runtime.Function{Name: fn.Qualified, Compile: fn.Graph}, nil
}

func (l *loader) lookup(name string) (*frontend.Function, error) {
	if dot := strings.LastIndexByte(name, '.'); dot >= 0 {
		if c, err := l.cu.Class(name[:dot]); err == nil {
			if m, ok := c.Method(name[dot+1:]); ok {
				return m, nil
			}
			return nil, fmt.Errorf("class %s has no method '%s'", name[:dot], name[dot+1:])
		}
		return l.cu.Function(name)
	}
	// An unqualified function name: the one code file that defines it.
	var found *frontend.Function
	for _, f := range l.a.Code {
		fn, err := l.cu.Function(f.Qualifier + "." + name)
		if err != nil || fn == nil {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("function %s is defined by both %s and %s", name, found.Qualified, fn.Qualified)
		}
		found = fn
	}
	if found == nil {
		return nil, fmt.Errorf("the archive's code defines no function %s", name)
	}
	return found, nil
}

// value converts a decoded pickle value whose declared type is t (nil
// when unknown) to a runtime value; at names where it is, for errors.
// Containers and objects reached twice are converted once.
func (l *loader) value(v any, t types.Type, at string) (any, error) {
	if opt, ok := t.(*types.Optional); ok {
		if v == nil {
			return nil, nil
		}
		t = opt.Elem
	}
	switch x := v.(type) {
	case nil, bool, int64, float64, complex128, string, *tensor.Tensor:
		return v, nil
	case archive.Device:
		return runtime.ParseDevice(string(x))
	case archive.Tuple:
		var ts []types.Type
		tt, _ := t.(*types.Tuple)
		if tt != nil {
			ts = tt.Elems
		}
		items := make([]any, len(x))
		for i, e := range x {
			var et types.Type
			if i < len(ts) {
				et = ts[i]
			}
			c, err := l.value(e, et, fmt.Sprintf("%s[%d]", at, i))
			if err != nil {
				return nil, err
			}
			items[i] = c
		}
		out := runtime.NewTuple(items...)
		if tt != nil && tt.Names != nil {
			out.Names, out.Type = tt.Names, tt.Name
		}
		return out, nil
	case *archive.List:
		if c, ok := l.memo[x]; ok {
			return c, nil
		}
		var et types.Type
		if lt, ok := t.(*types.List); ok {
			et = lt.Elem
		}
		out := runtime.NewList(et)
		l.memo[x] = out
		for i, e := range x.Items {
			c, err := l.value(e, et, fmt.Sprintf("%s[%d]", at, i))
			if err != nil {
				return nil, err
			}
			out.Append(c)
		}
		return out, nil
	case *archive.Dict:
		if c, ok := l.memo[x]; ok {
			return c, nil
		}
		var kt, vt types.Type
		if dt, ok := t.(*types.Dict); ok {
			kt, vt = dt.Key, dt.Value
		}
		out := runtime.NewDict(kt, vt)
		l.memo[x] = out
		for i, k := range x.Keys {
			e, err := l.value(x.Values[i], vt, fmt.Sprintf("%s[%s]", at, runtime.Repr(k)))
			if err != nil {
				return nil, err
			}
			if err := out.Set(k, e); err != nil {
				return nil, fmt.Errorf("%s: %w", at, err)
			}
		}
		return out, nil
	case *archive.Object:
		if c, ok := l.memo[x]; ok {
			return c, nil
		}
		return l.object(x, at)
	case *archive.Enum:
		e, err := l.cu.EnumMember(x.Class, x.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", at, err)
		}
		return runtime.Enum(e), nil
	}
	return nil, fmt.Errorf("%s: a %T is not a TorchScript value", at, v)
}

// An enum constant's value (frontend.EnumValue) converts to a runtime.Enum
// (runtime.ConstantValue relies on it).
var _ = runtime.Enum(frontend.EnumValue{})

// object builds an instance of an archive class: its attributes from
// the pickled state, or the state given to the class's __setstate__.
func (l *loader) object(x *archive.Object, at string) (any, error) {
	c, err := l.class(x.Class)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", at, err)
	}
	obj := runtime.NewObject(c.Type)
	l.memo[x] = obj
	if set, ok := c.Method("__setstate__"); ok {
		state, err := l.value(x.State, nil, at+".__getstate__()")
		if err != nil {
			return nil, err
		}
		f := &runtime.Function{Name: set.Qualified, Compile: set.Graph}
		l.in.Define(set.Qualified, f)
		if _, err := l.in.Run(f, obj, state); err != nil {
			return nil, fmt.Errorf("%s: %s.__setstate__: %w", at, x.Class, err)
		}
		return obj, nil
	}
	for _, a := range x.Attrs {
		ta, i, ok := c.Type.Attr(a.Name)
		if !ok {
			return nil, fmt.Errorf("%s: the pickle sets attribute %q, which class %s does not declare", at, a.Name, x.Class)
		}
		v, err := l.value(a.Value, ta.Type, at+"."+a.Name)
		if err != nil {
			return nil, err
		}
		if v != nil && !runtime.Isinstance(v, ta.Type) {
			return nil, fmt.Errorf("%s.%s: expected %s, got %s", at, a.Name, ta.Type.Annotation(), runtime.TypeName(v))
		}
		obj.Slots[i] = v
	}
	return obj, nil
}
