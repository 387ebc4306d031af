package torchscript

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/archive"
	"github.com/gofx/gofx/torchscript/frontend"
	"github.com/gofx/gofx/torchscript/runtime"
	"github.com/gofx/gofx/torchscript/types"
)

// Module is a loaded TorchScript module: an object of a module class, the
// interpreter that runs its methods, and its place in the module tree.
type Module struct {
	obj  *runtime.Object
	in   *runtime.Interpreter
	path string
	// hooks by class name: the methods Forward runs before and after
	// forward (a class's __forward_pre_hooks__ and __forward_hooks__).
	hooks map[string]Hooks
	// cu compiled the code (nil for a module NewModule made): Code's
	// method signatures.
	cu *frontend.CompilationUnit
	// arch is the archive the module was loaded from (nil for a module
	// NewModule made): its debug_pkl records (Archive).
	arch *archive.Archive
	// debug maps the archive's code files to their debug_pkl ranges
	// (nil for a module NewModule made): Graph's source comments.
	debug *debugRanges
}

// Hooks names a module class's forward pre-hooks and forward hooks, in
// order.
type Hooks struct {
	Pre, Post []string
}

// NewModule returns the module of obj, whose methods in (the interpreter
// holding the archive's compiled code) runs. hooks gives the forward hooks
// of module classes by class name (nil: none).
func NewModule(obj *runtime.Object, in *runtime.Interpreter, hooks map[string]Hooks) (*Module, error) {
	if obj == nil || obj.Type == nil {
		return nil, fmt.Errorf("torchscript: a module needs an object of a class")
	}
	if in == nil {
		in = runtime.NewInterpreter(nil)
	}
	return &Module{obj: obj, in: in, hooks: hooks}, nil
}

// Object returns the module's object (its attribute slots are the
// module's state, shared with the module).
func (m *Module) Object() *runtime.Object { return m.obj }

// Type returns the module's class type.
func (m *Module) Type() *types.Class { return m.obj.Type }

// Interpreter returns the interpreter that runs the module's code.
func (m *Module) Interpreter() *runtime.Interpreter { return m.in }

// Archive returns the archive the module was loaded from (its code files
// and their debug_pkl source ranges), or nil for a module NewModule made.
func (m *Module) Archive() *archive.Archive { return m.arch }

// Path returns the module's dotted path from the loaded root ("" for the
// root, "layer1.0.conv1").
func (m *Module) Path() string { return m.path }

// Forward calls the module as PyTorch's Module::operator() does: each
// forward pre-hook gets the input tuple (and may replace the inputs), then
// forward runs, then each forward hook gets the input tuple and the output
// (and may replace the output). args are runtime values (see package
// runtime: *tensor.Tensor, int64, float64, bool, string, nil, *runtime.List,
// ...); Go ints, float32s and slices of ints, floats and tensors are
// converted.
func (m *Module) Forward(args ...any) (any, error) {
	in := make([]any, len(args))
	for i, a := range args {
		v, err := Value(a)
		if err != nil {
			return nil, fmt.Errorf("torchscript: forward: argument %d: %w", i, err)
		}
		in[i] = v
	}
	h := m.hooks[m.obj.Type.Name]
	for _, name := range h.Pre {
		out, err := m.call(name, runtime.NewTuple(in...))
		if err != nil {
			return nil, err
		}
		switch x := out.(type) {
		case nil:
		case *runtime.Tuple:
			in = append([]any(nil), x.Items...)
		default:
			in = []any{x}
		}
	}
	out, err := m.call("forward", in...)
	if err != nil {
		return nil, err
	}
	for _, name := range h.Post {
		r, err := m.call(name, runtime.NewTuple(in...), out)
		if err != nil {
			return nil, err
		}
		if r != nil {
			out = r
		}
	}
	return out, nil
}

func (m *Module) call(name string, args ...any) (any, error) {
	out, err := m.in.CallMethod(m.obj, name, args...)
	if err != nil {
		return nil, fmt.Errorf("torchscript: %s.%s: %w", m.obj.Type.Name, name, err)
	}
	return single(out), nil
}

// single is a graph's result: its one output, or a tuple of several.
func single(out []any) any {
	if len(out) == 1 {
		return out[0]
	}
	return runtime.NewTuple(out...)
}

// Method is one method of a module.
type Method struct {
	m    *Module
	name string
	fn   *runtime.Function
}

// Method returns the method called name ("forward", "helper").
func (m *Module) Method(name string) (*Method, error) {
	fn, err := m.in.Method(m.obj.Type, name)
	if err != nil {
		return nil, fmt.Errorf("torchscript: %w", err)
	}
	return &Method{m: m, name: name, fn: fn}, nil
}

// Name returns the method's name.
func (mt *Method) Name() string { return mt.name }

// Function returns the method's compiled function (its graph takes self
// first).
func (mt *Method) Function() *runtime.Function { return mt.fn }

// Run runs the method on its module with args (without self; converted
// as Forward's). Unlike Forward it runs no hooks, as Method::operator().
func (mt *Method) Run(args ...any) (any, error) {
	in := make([]any, 0, len(args)+1)
	in = append(in, mt.m.obj)
	for i, a := range args {
		v, err := Value(a)
		if err != nil {
			return nil, fmt.Errorf("torchscript: %s: argument %d: %w", mt.name, i, err)
		}
		in = append(in, v)
	}
	out, err := mt.m.in.Run(mt.fn, in...)
	if err != nil {
		return nil, fmt.Errorf("torchscript: %s.%s: %w", mt.m.obj.Type.Name, mt.name, err)
	}
	return single(out), nil
}

// Attr returns the attribute called name (a parameter, buffer,
// submodule object or other attribute) and whether there is one.
func (m *Module) Attr(name string) (any, bool) { return m.obj.Attr(name) }

// SetAttr sets the attribute called name.
func (m *Module) SetAttr(name string, v any) error {
	v, err := Value(v)
	if err != nil {
		return fmt.Errorf("torchscript: attribute %s: %w", name, err)
	}
	return m.obj.SetAttr(name, v)
}

// Submodule returns the submodule at the dotted path ("layer1.0").
func (m *Module) Submodule(path string) (*Module, bool) {
	cur := m
	for _, part := range strings.Split(path, ".") {
		v, ok := cur.obj.Attr(part)
		if !ok {
			return nil, false
		}
		o, ok := v.(*runtime.Object)
		if !ok || !o.Type.Module {
			return nil, false
		}
		cur = cur.child(part, o)
	}
	return cur, true
}

func (m *Module) child(name string, o *runtime.Object) *Module {
	p := name
	if m.path != "" {
		p = m.path + "." + name
	}
	return &Module{obj: o, in: m.in, path: p, hooks: m.hooks, cu: m.cu, arch: m.arch, debug: m.debug}
}

// NamedModule is a submodule and its name relative to its parent.
type NamedModule struct {
	Name   string
	Module *Module
}

// Children returns the direct submodules in attribute order.
func (m *Module) Children() []NamedModule {
	var out []NamedModule
	for i, a := range m.obj.Type.Attrs {
		o, ok := m.obj.Slots[i].(*runtime.Object)
		if ok && o.Type != nil && o.Type.Module && !a.Parameter && !a.Buffer {
			out = append(out, NamedModule{a.Name, m.child(a.Name, o)})
		}
	}
	return out
}

// NamedTensor is a parameter or buffer and its dotted name.
type NamedTensor struct {
	Name   string
	Tensor *tensor.Tensor
}

// NamedParameters returns the parameters of the module and its
// submodules, in PyTorch's order (a module's own, then each child's,
// depth first), with dotted names.
func (m *Module) NamedParameters() []NamedTensor {
	return m.named(func(a types.Attr) bool { return a.Parameter }, "")
}

// NamedBuffers returns the buffers as NamedParameters returns the
// parameters.
func (m *Module) NamedBuffers() []NamedTensor {
	return m.named(func(a types.Attr) bool { return a.Buffer }, "")
}

func (m *Module) named(want func(types.Attr) bool, prefix string) []NamedTensor {
	var out []NamedTensor
	for i, a := range m.obj.Type.Attrs {
		if !want(a) || i >= len(m.obj.Slots) {
			continue
		}
		if t, ok := m.obj.Slots[i].(*tensor.Tensor); ok && t != nil {
			out = append(out, NamedTensor{prefix + a.Name, t})
		}
	}
	for _, c := range m.Children() {
		out = append(out, c.Module.named(want, prefix+c.Name+".")...)
	}
	return out
}

// Training reports the module's training flag.
func (m *Module) Training() bool {
	v, _ := m.obj.Attr("training")
	b, _ := v.(bool)
	return b
}

// Train sets the training flag of the module and every submodule (as
// torch.nn.Module.train); Train(false) is eval().
func (m *Module) Train(on bool) {
	if _, ok := m.obj.Attr("training"); ok {
		_ = m.obj.SetAttr("training", on)
	}
	for _, c := range m.Children() {
		c.Module.Train(on)
	}
}

// Value converts a Go value to a runtime value: runtime values are kept;
// int, int32 become int64, float32 float64; []int64/[]int, []float64,
// []bool, []string and []*tensor.Tensor become lists; []any a list of
// converted elements; map[string]any a dict of str keys (in sorted key
// order: a Go map has none).
func Value(v any) (any, error) {
	switch x := v.(type) {
	case nil, *tensor.Tensor, int64, float64, bool, string, complex128, runtime.Device,
		*runtime.List, *runtime.Dict, *runtime.Tuple, *runtime.Object, *runtime.Function, runtime.Enum:
		return v, nil
	case tensor.DType:
		return runtime.ScalarTypeCode(x), nil
	case int:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case float32:
		return float64(x), nil
	case []int64:
		return listOf(types.Int, len(x), func(i int) any { return x[i] }), nil
	case []int:
		return listOf(types.Int, len(x), func(i int) any { return int64(x[i]) }), nil
	case []float64:
		return listOf(types.Float, len(x), func(i int) any { return x[i] }), nil
	case []bool:
		return listOf(types.Bool, len(x), func(i int) any { return x[i] }), nil
	case []string:
		return listOf(types.Str, len(x), func(i int) any { return x[i] }), nil
	case []*tensor.Tensor:
		return listOf(types.Tensor, len(x), func(i int) any { return x[i] }), nil
	case []any:
		l := runtime.NewList(nil)
		for i, e := range x {
			c, err := Value(e)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
			l.Append(c)
		}
		return l, nil
	case map[string]any:
		d := runtime.NewDict(types.Str, nil)
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			e := x[k]
			c, err := Value(e)
			if err != nil {
				return nil, fmt.Errorf("key %q: %w", k, err)
			}
			if err := d.Set(k, c); err != nil {
				return nil, err
			}
		}
		return d, nil
	}
	return nil, fmt.Errorf("a %T is not a TorchScript value", v)
}

func listOf(elem types.Type, n int, at func(int) any) *runtime.List {
	items := make([]any, n)
	for i := range items {
		items[i] = at(i)
	}
	return runtime.NewList(elem, items...)
}

// Flatten returns the leaves of a value in order, tuples and lists
// expanded (the flattened outputs of io.json files); a dict's values are
// expanded in insertion order.
func Flatten(v any) []any {
	var out []any
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case *runtime.Tuple:
			for _, e := range x.Items {
				walk(e)
			}
		case *runtime.List:
			for _, e := range x.Items {
				walk(e)
			}
		case *runtime.Dict:
			for _, e := range x.Values() {
				walk(e)
			}
		default:
			out = append(out, v)
		}
	}
	walk(v)
	return out
}

// Clone returns a module over a deep copy of m's state: every object,
// tensor, list and dict reachable from m's object copied once (values
// shared in m are shared in the copy), the compiled code shared. Runs of
// the copy do not change m (io.json cases each start from the loaded
// state).
func (m *Module) Clone() *Module {
	memo := map[any]any{}
	obj := cloneValue(m.obj, memo).(*runtime.Object)
	return &Module{obj: obj, in: m.in, path: m.path, hooks: m.hooks, cu: m.cu, arch: m.arch, debug: m.debug}
}

func cloneValue(v any, memo map[any]any) any {
	switch x := v.(type) {
	case *tensor.Tensor:
		if x == nil {
			return nil
		}
		if c, ok := memo[x]; ok {
			return c
		}
		c := x.Clone()
		memo[x] = c
		return c
	case *runtime.Object:
		if c, ok := memo[x]; ok {
			return c
		}
		c := &runtime.Object{Type: x.Type, Slots: make([]any, len(x.Slots))}
		memo[x] = c
		for i, s := range x.Slots {
			c.Slots[i] = cloneValue(s, memo)
		}
		return c
	case *runtime.List:
		if c, ok := memo[x]; ok {
			return c
		}
		c := runtime.NewList(x.Elem, make([]any, len(x.Items))...)
		memo[x] = c
		for i, e := range x.Items {
			c.Items[i] = cloneValue(e, memo)
		}
		return c
	case *runtime.Dict:
		if c, ok := memo[x]; ok {
			return c
		}
		c := runtime.NewDict(x.KeyType, x.ValueType)
		memo[x] = c
		x.Range(func(k, e any) bool {
			_ = c.Set(k, cloneValue(e, memo))
			return true
		})
		return c
	case *runtime.Tuple:
		items := make([]any, len(x.Items))
		for i, e := range x.Items {
			items[i] = cloneValue(e, memo)
		}
		return &runtime.Tuple{Items: items, Names: x.Names, Type: x.Type}
	}
	return v
}
