package fx

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

var getItemFn node.Function = nn.GetItem

// Tracer records a module's Forward as a graph, as torch.fx.Tracer does.
// The zero Tracer uses torch.fx's defaults: the standard layers of package
// nn are leaves (recorded as call_module), containers and user modules are
// traced through.
type Tracer struct {
	// IsLeaf, if set, decides whether a call of module m (at the dotted
	// path qualname) is recorded as one call_module node (true) or traced
	// through (false). Nil means IsStandardLeaf.
	IsLeaf func(m nn.Module, qualname string) bool
	// ArgNames, if set, names the placeholders (overriding the module's
	// nn.ArgNamer and the defaults).
	ArgNames []string
	// ConcreteArgs fixes some inputs, by placeholder name, to Go values:
	// no placeholder is created for them and model code sees the value
	// itself, so Go control flow on it is specialized away (torch.fx's
	// concrete_args).
	ConcreteArgs map[string]nn.Value
	// NumArgs is the number of inputs of a variadic Forward (default 1).
	NumArgs int
}

// IsStandardLeaf is the default leaf policy: a module defined in package
// nn other than the containers (Sequential, ModuleList, ModuleDict), as
// torch.fx treats torch.nn's modules.
func IsStandardLeaf(m nn.Module, _ string) bool {
	t := reflect.TypeOf(m)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.PkgPath() != "github.com/gofx/gofx/nn" {
		return false
	}
	switch t.Name() {
	case "Sequential", "ModuleList", "ModuleDict":
		return false
	}
	return true
}

// SymbolicTrace traces root's Forward with the default Tracer and returns
// the GraphModule: standard layers as call_module leaves, parameters and
// buffers read as get_attr, tensor methods as call_method and operators
// and functions as call_function, every node carrying its stack_trace and
// nn_module_stack metadata.
func SymbolicTrace(root nn.Module) (*GraphModule, error) {
	var t Tracer
	return t.Trace(root)
}

// TraceError is the error for model code that needs a concrete value
// (control flow on tensor data) while being traced.
type TraceError struct {
	What     string // "a bool", "an int", ...
	Location string // the Go file:line of the model code
}

func (e *TraceError) Error() string {
	return fmt.Sprintf("fx: symbolic tracing: %s needs %s from a traced value (a Proxy): "+
		"control flow on tensor data cannot be traced. Keep Go control flow on Go values (hyper-parameters, "+
		"ConcreteArgs), compute both branches and select with aten::where (F.Where), or hide the data-dependent "+
		"code from the tracer with fx.Wrap (a function) or the Tracer's IsLeaf (a module)",
		e.Location, e.What)
}

// Trace records root's Forward and returns it as a GraphModule over root's
// module tree.
func (t *Tracer) Trace(root nn.Module) (gm *GraphModule, err error) {
	if root == nil {
		return nil, errors.New("fx: Trace: nil module")
	}
	if err := nn.Err(root); err != nil {
		return nil, err
	}
	rec := newRecorder(t, root)
	defer rec.uninstall()
	if err := rec.install(); err != nil {
		return nil, err
	}
	nargs := t.NumArgs
	if nargs == 0 {
		nargs = 1
	}
	names := t.ArgNames
	if names == nil {
		names = nn.ArgNames(root, nargs)
	}
	for k := range t.ConcreteArgs {
		found := false
		for _, n := range names {
			found = found || n == k
		}
		if !found {
			return nil, fmt.Errorf("fx: Trace: concrete argument %q is not an input (inputs: %s)", k, strings.Join(names, ", "))
		}
	}
	args := make([]nn.Value, len(names))
	for i, name := range names {
		if v, ok := t.ConcreteArgs[name]; ok {
			args[i] = v
			continue
		}
		n, err := rec.create(node.Placeholder, node.Path(name), nil, nil)
		if err != nil {
			return nil, err
		}
		args[i] = nn.Of(&Proxy{rec: rec, n: n})
	}
	out, err := rec.run(root, args)
	if err != nil {
		return nil, err
	}
	res, err := rec.arg(out)
	if err != nil {
		return nil, fmt.Errorf("fx: Trace: output: %w", err)
	}
	if _, err := rec.create(node.Output, node.Path("output"), []node.Arg{res}, nil); err != nil {
		return nil, err
	}
	return newGraphModule(root, rec.g, rec.consts)
}

// run calls root's Forward with args (not through the module-call hook:
// the root itself is never a leaf).
func (r *recorder) run(root nn.Module, args []nn.Value) (out nn.Value, err error) {
	defer nn.Recover(&err)
	r.stack = nil
	return nn.Forward(root, args...), nil
}

// recorder is the state of one trace; it implements nn.Tracer.
type recorder struct {
	t       *Tracer
	g       *graph.Graph
	root    nn.Module
	paths   map[*nn.Base]string
	attrs   map[string]*node.Node
	slots   []interface{ SetProxy(func() nn.Value) }
	stack   []node.ModuleFrame
	consts  []constant
	constOf map[*tensor.Tensor]string
	nconst  int // number of the next constant name to try
	// annotate, if set, gives every created node its metadata instead
	// of the Go stack trace and module stack (a Recorder's SetAnnotate).
	annotate func(*node.Node)
}

type constant struct {
	name string
	t    *tensor.Tensor
}

func newRecorder(t *Tracer, root nn.Module) *recorder {
	return &recorder{t: t, g: graph.New(), root: root, paths: map[*nn.Base]string{},
		attrs: map[string]*node.Node{}, constOf: map[*tensor.Tensor]string{}}
}

// install records module paths and makes every parameter and buffer read
// as a get_attr proxy.
func (r *recorder) install() error {
	for path, m := range nn.NamedModules(r.root) {
		r.paths[m.ModuleBase()] = path
	}
	for name, p := range nn.NamedParameters(r.root) {
		r.hook(name, p)
	}
	for name, b := range nn.NamedBuffers(r.root) {
		r.hook(name, b)
	}
	return nil
}

func (r *recorder) hook(name string, s interface{ SetProxy(func() nn.Value) }) {
	r.slots = append(r.slots, s)
	s.SetProxy(func() nn.Value {
		n, ok := r.attrs[name]
		if !ok {
			var err error
			n, err = r.create(node.GetAttr, node.Path(name), nil, nil)
			if err != nil {
				panic(err)
			}
			r.attrs[name] = n
		}
		return nn.Of(&Proxy{rec: r, n: n})
	})
}

func (r *recorder) uninstall() {
	for _, s := range r.slots {
		s.SetProxy(nil)
	}
}

// create adds a node with the metadata of the current call site.
func (r *recorder) create(op node.Opcode, target node.Target, args []node.Arg, kwargs node.Kwargs) (*node.Node, error) {
	return r.createNamed(op, target, args, kwargs, "")
}

// createNamed is create with a candidate name ("" derives one).
func (r *recorder) createNamed(op node.Opcode, target node.Target, args []node.Arg, kwargs node.Kwargs, name string) (*node.Node, error) {
	n, err := r.g.CreateNode(op, target, args, kwargs, name)
	if err != nil {
		return nil, err
	}
	if r.annotate != nil {
		r.annotate(n)
		return n, nil
	}
	if op != node.Placeholder && op != node.Output {
		if st := nn.StackTrace(); st != "" {
			node.StackTrace.Set(&n.Meta, st)
		}
		if len(r.stack) > 0 {
			// r.stack is never edited in place (a module call pushes a new
			// slice), so the nodes recorded inside one call share it.
			node.ModuleStack.Set(&n.Meta, r.stack[:len(r.stack):len(r.stack)])
		}
	}
	return n, nil
}

// Trace records an operator call (ops.Tracer).
func (r *recorder) Trace(op *ops.Operator, args []any, kwargs map[string]any) ([]any, error) {
	nargs := make([]node.Arg, len(args))
	for i, a := range args {
		x, err := r.arg(a)
		if err != nil {
			return nil, fmt.Errorf("%s: argument %d: %w", op, i, err)
		}
		nargs[i] = x
	}
	kw, err := r.kwargs(op, kwargs)
	if err != nil {
		return nil, err
	}
	n, err := r.create(node.CallFunction, op, nargs, kw)
	if err != nil {
		return nil, err
	}
	p := &Proxy{rec: r, n: n}
	rets := len(op.Schema().Returns)
	if rets <= 1 {
		return []any{p}, nil
	}
	out := make([]any, rets)
	for i := range out {
		out[i] = &Proxy{rec: r, parent: p, index: i}
	}
	return out, nil
}

// kwargs orders keyword arguments as the schema lists them.
func (r *recorder) kwargs(op *ops.Operator, kwargs map[string]any) (node.Kwargs, error) {
	if len(kwargs) == 0 {
		return nil, nil
	}
	var kw node.Kwargs
	used := 0
	for _, a := range op.Schema().Args {
		v, ok := kwargs[a.Name]
		if !ok {
			continue
		}
		x, err := r.arg(v)
		if err != nil {
			return nil, fmt.Errorf("%s: argument '%s': %w", op, a.Name, err)
		}
		kw = append(kw, node.Field{Name: a.Name, Value: x})
		used++
	}
	if used != len(kwargs) {
		for k := range kwargs {
			if !hasArg(op, k) {
				return nil, fmt.Errorf("%s: unexpected keyword argument '%s'", op, k)
			}
		}
	}
	return kw, nil
}

func hasArg(op *ops.Operator, name string) bool {
	for _, a := range op.Schema().Args {
		if a.Name == name {
			return true
		}
	}
	return false
}

func (r *recorder) valueKwargs(kwargs map[string]nn.Value) (node.Kwargs, error) {
	if len(kwargs) == 0 {
		return nil, nil
	}
	names := make([]string, 0, len(kwargs))
	for k := range kwargs {
		names = append(names, k)
	}
	slices.Sort(names)
	kw := make(node.Kwargs, 0, len(names))
	for _, k := range names {
		x, err := r.arg(kwargs[k])
		if err != nil {
			return nil, fmt.Errorf("argument '%s': %w", k, err)
		}
		kw = append(kw, node.Field{Name: k, Value: x})
	}
	return kw, nil
}

func (r *recorder) valueArgs(args []nn.Value) ([]node.Arg, error) {
	out := make([]node.Arg, len(args))
	for i, a := range args {
		x, err := r.arg(a)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i, err)
		}
		out[i] = x
	}
	return out, nil
}

// TraceFunction records a call of a non-operator function (nn.Tracer).
func (r *recorder) TraceFunction(fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	nargs, err := r.valueArgs(args)
	if err != nil {
		return nn.None, fmt.Errorf("%s: %w", fn, err)
	}
	kw, err := r.valueKwargs(kwargs)
	if err != nil {
		return nn.None, fmt.Errorf("%s: %w", fn, err)
	}
	n, err := r.create(node.CallFunction, fn, nargs, kw)
	if err != nil {
		return nn.None, err
	}
	return nn.Of(&Proxy{rec: r, n: n}), nil
}

// TraceMethod records a tensor method call (nn.Tracer).
func (r *recorder) TraceMethod(name string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	nargs, err := r.valueArgs(args)
	if err != nil {
		return nn.None, fmt.Errorf("method %s: %w", name, err)
	}
	kw, err := r.valueKwargs(kwargs)
	if err != nil {
		return nn.None, fmt.Errorf("method %s: %w", name, err)
	}
	n, err := r.create(node.CallMethod, node.Path(name), nargs, kw)
	if err != nil {
		return nn.None, err
	}
	return nn.Of(&Proxy{rec: r, n: n}), nil
}

// TraceModule records a leaf module call or traces through the module
// (nn.Tracer).
func (r *recorder) TraceModule(m nn.Module, args []nn.Value, forward func() (nn.Value, error)) (nn.Value, error) {
	path, ok := r.paths[m.ModuleBase()]
	if !ok {
		return nn.None, fmt.Errorf("fx: a %s module called during tracing is not a submodule of the traced module: register it in the module tree (nn.RegisterModule)", m.ModuleBase().TypeName())
	}
	leaf := IsStandardLeaf
	if r.t.IsLeaf != nil {
		leaf = r.t.IsLeaf
	}
	if path != "" && leaf(m, path) {
		nargs, err := r.valueArgs(args)
		if err != nil {
			return nn.None, fmt.Errorf("module %s: %w", path, err)
		}
		saved := r.stack
		r.stack = append(append([]node.ModuleFrame(nil), r.stack...), node.ModuleFrame{Path: path, Type: m.ModuleBase().TypeName()})
		n, err := r.create(node.CallModule, node.Path(path), nargs, nil)
		r.stack = saved
		if err != nil {
			return nn.None, err
		}
		return nn.Of(&Proxy{rec: r, n: n}), nil
	}
	saved := r.stack
	if path != "" {
		r.stack = append(append([]node.ModuleFrame(nil), r.stack...), node.ModuleFrame{Path: path, Type: m.ModuleBase().TypeName()})
	}
	defer func() { r.stack = saved }()
	return forward()
}

// ConcreteError is the error for control flow on traced values
// (nn.Tracer).
func (r *recorder) ConcreteError(what, where string) error {
	return &TraceError{What: what, Location: where}
}

// arg converts a value passed by model code into a node argument.
func (r *recorder) arg(v any) (node.Arg, error) {
	if a, ok := node.ArgOf(v); ok {
		return a, nil
	}
	switch x := v.(type) {
	case nn.Value:
		return r.arg(x.Any())
	case *Proxy:
		if x.rec != r {
			return nil, errors.New("a Proxy of another trace")
		}
		return x.Node(), nil
	case tensor.DType:
		return nil, fmt.Errorf("dtype %v has no graph spelling", x)
	case *tensor.Tensor:
		if x == nil {
			return node.None, nil
		}
		return r.constant(x)
	case []nn.Value:
		if n := wholeTuple(x); n != nil {
			return n, nil
		}
		out := make(node.Tuple, len(x))
		for i, e := range x {
			a, err := r.arg(e)
			if err != nil {
				return nil, err
			}
			out[i] = a
		}
		return out, nil
	case []any:
		if n := wholeTupleAny(x); n != nil {
			return n, nil
		}
		return listArg(r, x)
	case []int64:
		return listArg(r, x)
	case []*tensor.Tensor:
		return listArg(r, x)
	}
	return nil, fmt.Errorf("cannot record a %T in a graph", v)
}

// wholeTuple returns the node whose tuple result vs is, element by element
// in order (lazy elements of one operator call), or nil.
func wholeTuple(vs []nn.Value) *node.Node {
	as := make([]any, len(vs))
	for i, v := range vs {
		as[i] = v.Any()
	}
	return wholeTupleAny(as)
}

func wholeTupleAny(as []any) *node.Node {
	if len(as) < 2 {
		return nil
	}
	var parent *Proxy
	for i, a := range as {
		p, ok := a.(*Proxy)
		if !ok || p.parent == nil || p.index != i || (parent != nil && p.parent != parent) {
			return nil
		}
		parent = p.parent
	}
	if len(as) != len(parent.n.Function().(*ops.Operator).Schema().Returns) {
		return nil
	}
	return parent.Node()
}

// constant records a tensor that model code used but that is not a
// parameter or buffer of the module tree, as torch.fx does: an attribute
// _tensor_constant0, ... of the GraphModule read with get_attr.
func (r *recorder) constant(t *tensor.Tensor) (node.Arg, error) {
	name, ok := r.constOf[t]
	if !ok {
		name = r.constName()
		r.constOf[t] = name
		r.consts = append(r.consts, constant{name, t})
	}
	if n, ok := r.attrs[name]; ok {
		return n, nil
	}
	n, err := r.create(node.GetAttr, node.Path(name), nil, nil)
	if err != nil {
		return nil, err
	}
	r.attrs[name] = n
	return n, nil
}

// constName returns the next free constant name, _tensor_constant0, ...:
// numbers whose name the root module already has (a GraphModule's own
// constants, when it is traced or transformed) are skipped.
func (r *recorder) constName() string {
	for {
		name := fmt.Sprintf("_tensor_constant%d", r.nconst)
		r.nconst++
		if !r.attrTaken(name) {
			return name
		}
	}
}

// attrTaken reports whether the root module already has an attribute
// (parameter, buffer or submodule) called name.
func (r *recorder) attrTaken(name string) bool {
	if r.root == nil {
		return false
	}
	_, ok := r.root.ModuleBase().Child(name)
	_, err := nn.Attr(r.root, name)
	return ok || err == nil
}

// listArg converts the elements of a Go slice into a node list.
func listArg[E any](r *recorder, xs []E) (node.Arg, error) {
	out := make(node.List, len(xs))
	for i, e := range xs {
		a, err := r.arg(e)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}
