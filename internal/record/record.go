// Package record is the one recorder behind every tracer of gofx: fx's
// symbolic tracing and fx.Recorder (and so package transformer), export's
// tracer and RunDecompositions, and decomp's rule tracing. It plays the
// part of torch.fx's TracerBase.create_node/create_proxy, which make_fx's
// PythonKeyTracer reuses: every node that model code produces is created
// here, with its metadata (val, stack_trace, nn_module_stack) stamped in
// one place (Recorder.Create).
//
// A Recorder implements nn's tracer contract for its proxies: operator
// calls, Python-level functions, tensor methods and module calls made on a
// *Proxy reach the Recorder, which records them as torch.fx does unless
// its Policy overrides them. What differs between the tracers is the
// Policy: fx says which modules are call_module leaves and how tensor
// constants are kept; export inlines modules, computes fake values,
// functionalizes in-place operators and decomposes to core ATen through a
// table; decomp applies a table. The
// building blocks a policy composes are the Recorder's: value→argument
// conversion (Arg, OpArg), node creation (Create), lazy tuple elements
// (Element, Results), the module path and module stack (ModulePath,
// Enter, CallModule), and parameter and buffer installation (Install).
package record

import (
	"errors"
	"fmt"
	"runtime"
	"slices"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/tracing"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Policy decides what a Recorder does with what model code does on its
// proxies. Embed Defaults for the common answers. By default the
// Recorder records: an operator call as a call_function node with lazy
// tuple elements (RecordOp, Results), a function as a call_function node
// (RecordFunction), a tensor method as a call_method node (RecordMethod),
// and a module as a call_module node when the policy's Leaf (Leaves) says
// so, traced through inside its module-stack frame otherwise. A policy
// that does something else for one of them implements Operators,
// Functions, Methods or Modules. (The default path adds no stack frame
// between the model code and Create: a node's stack_trace costs a walk of
// the Go stack, proportional to its depth.)
type Policy interface {
	// Constant returns the argument that stands for a concrete tensor used
	// by the recorded code that is not a proxy.
	Constant(r *Recorder, t *tensor.Tensor) (node.Arg, error)
	// Symbolic returns the argument for a symbolic value of the recorder
	// that is not a *Proxy (export's symbolic sizes).
	Symbolic(r *Recorder, s ops.Symbolic) (node.Arg, error)
	// Element returns the policy data and val of element index of a tuple
	// result, when its operator.getitem node is created.
	Element(parent *Proxy, index int) (data any, val node.Value)
	// DataDependent is the error for model code that needs a concrete
	// value (what: "a bool", "an int", ...) from a proxy at the Go
	// location where.
	DataDependent(what, where string) error
}

// Operators is a Policy that handles operator calls itself
// (ops.Tracer.Trace): decompose, functionalize, compute fake values.
type Operators interface {
	Operator(r *Recorder, op *ops.Operator, args []any, kwargs map[string]any) ([]any, error)
}

// Functions is a Policy that handles calls of Python-level functions that
// are not operators (operator.getitem, builtins.getattr, a wrapped
// function) itself.
type Functions interface {
	Function(r *Recorder, fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error)
}

// Methods is a Policy that handles tensor method calls itself; args[0] is
// the tensor.
type Methods interface {
	Method(r *Recorder, name string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error)
}

// Modules is a Policy that handles module calls itself: a call_module
// leaf (Recorder.CallModule) or an inlined Forward (Recorder.Enter and
// forward).
type Modules interface {
	Module(r *Recorder, m nn.Module, args []nn.Value, forward func() (nn.Value, error)) (nn.Value, error)
}

// Leaves is a Policy whose module calls follow the default and that
// decides which modules are leaves: Leaf reports whether the call of
// module m at path (never the root) is one call_module node.
type Leaves interface {
	Leaf(m nn.Module, path string) bool
}

// Defaults gives a Policy the common answers: concrete tensors and foreign
// symbolic values are refused, tuple elements carry no data.
// DataDependent has no default.
type Defaults struct{}

// Constant refuses concrete tensors.
func (Defaults) Constant(r *Recorder, t *tensor.Tensor) (node.Arg, error) {
	return nil, errors.New("a concrete tensor cannot be recorded here")
}

// Symbolic refuses symbolic values that are not proxies.
func (Defaults) Symbolic(r *Recorder, s ops.Symbolic) (node.Arg, error) {
	return nil, fmt.Errorf("cannot record a %T in a graph", s)
}

// Element gives tuple elements no data and no val.
func (Defaults) Element(*Proxy, int) (any, node.Value) { return nil, nil }

// Recorder records nodes into a graph for the proxies it hands out; it
// implements nn's tracer contract (and ops.Tracer) for them.
type Recorder struct {
	g      *graph.Graph
	root   nn.Module
	policy Policy
	// The policy's overrides, nil where it has none (Operators, ...).
	operators Operators
	functions Functions
	methods   Methods
	modules   Modules
	leaves    Leaves
	paths     map[*nn.Base]string
	stack     []node.ModuleFrame
	slots     []any // the *nn.Parameter and *nn.Buffer Install hooked
	// Structured control flow (controlflow.go): the subgraph being
	// recorded (nil: the root graph), the root graph's subgraphs and its
	// counts of subgraph names.
	scope     *scope
	rootSubs  []Sub
	rootCount map[string]int

	// TypedStrings makes a string passed for an operator's MemoryFormat,
	// Layout or Device argument record as one (torch.contiguous_format)
	// rather than as a string (decomp's rules).
	TypedStrings bool
	// FoldTuples makes a tuple of all the lazy elements of one result, in
	// order, convert to the result's node itself (torch.fx records
	// `return torch.topk(x, 3)` as the topk node).
	FoldTuples bool
	// Annotate, if set, gives every created node its metadata instead of
	// the defaults (a fx.Recorder's SetAnnotate).
	Annotate func(*node.Node)
	// Source, if set, is the node being replaced or replayed: new nodes
	// take its provenance (node.CopyProvenance: stack_trace,
	// nn_module_stack, source_fn_stack, torch_fn, custom).
	Source *node.Node
}

// New returns a Recorder that records into g for module tree root (nil
// for none) with policy p. The module paths of root's tree are known from
// the start (ModulePath).
func New(g *graph.Graph, root nn.Module, p Policy) *Recorder {
	r := &Recorder{g: g, root: root, policy: p, paths: map[*nn.Base]string{}, rootCount: map[string]int{}}
	r.operators, _ = p.(Operators)
	r.functions, _ = p.(Functions)
	r.methods, _ = p.(Methods)
	r.modules, _ = p.(Modules)
	r.leaves, _ = p.(Leaves)
	if root != nil {
		for path, m := range nn.NamedModules(root) {
			r.paths[m.ModuleBase()] = path
		}
	}
	return r
}

// Graph returns the graph being recorded.
func (r *Recorder) Graph() *graph.Graph { return r.g }

// Root returns the module tree the recording refers to.
func (r *Recorder) Root() nn.Module { return r.root }

// Policy returns the recorder's policy.
func (r *Recorder) Policy() Policy { return r.policy }

// Install makes every parameter and buffer of the root read as the value
// proxy(name) returns (name is its dotted path) until Uninstall.
func (r *Recorder) Install(proxy func(name string) nn.Value) {
	hook := func(name string, s any) {
		r.slots = append(r.slots, s)
		tracing.SetSlotProxy(s, func() nn.Value { return proxy(name) })
	}
	for name, p := range nn.NamedParameters(r.root) {
		hook(name, p)
	}
	for name, b := range nn.NamedBuffers(r.root) {
		hook(name, b)
	}
}

// Uninstall removes what Install installed.
func (r *Recorder) Uninstall() {
	for _, s := range r.slots {
		tracing.SetSlotProxy(s, nil)
	}
	r.slots = nil
}

// Run calls root's Forward with args directly (the root is never a leaf),
// recovering what model code panics with.
func (r *Recorder) Run(root nn.Module, args []nn.Value) (out nn.Value, err error) {
	defer nn.Recover(&err)
	r.stack = nil
	return nn.Forward(root, args...), nil
}

// Create creates a node at the graph's insertion point with the candidate
// name name ("" derives one from the target) and stamps its metadata, in
// this order: the Annotate function's when there is one; otherwise, for
// nodes other than placeholders and outputs, the Source node's
// provenance (stack_trace, nn_module_stack, source_fn_stack, torch_fn,
// custom), or the Go stack of the model code
// (stack_trace) and the module stack of the current call
// (nn_module_stack); then val, when not nil.
func (r *Recorder) Create(op node.Opcode, target node.Target, args []node.Arg, kwargs node.Kwargs, name string, val node.Value) (*node.Node, error) {
	n, err := r.g.CreateNode(op, target, args, kwargs, name)
	if err != nil {
		return nil, err
	}
	switch {
	case r.Annotate != nil:
		r.Annotate(n)
	case op == node.Placeholder || op == node.Output:
	case r.Source != nil:
		node.CopyProvenance(&n.Meta, &r.Source.Meta)
	default:
		var buf [64]uintptr
		if st := tracing.StackTraceOf(buf[:runtime.Callers(2, buf[:])]); st != "" {
			node.StackTrace.Set(&n.Meta, st)
		}
		if len(r.stack) > 0 {
			// r.stack is never edited in place (a module call pushes a
			// new slice), so the nodes recorded inside one call share it.
			node.ModuleStack.Set(&n.Meta, r.stack[:len(r.stack):len(r.stack)])
		}
	}
	if val != nil {
		node.Val.Set(&n.Meta, val)
	}
	return n, nil
}

// NewProxy returns a proxy of n carrying the policy's data.
func (r *Recorder) NewProxy(n *node.Node, data any) *Proxy {
	return &Proxy{rec: r, n: n, data: data}
}

// InitProxy makes *p a proxy of n carrying data: for a policy that
// allocates its proxies together with their data.
func (r *Recorder) InitProxy(p *Proxy, n *node.Node, data any) {
	*p = Proxy{rec: r, n: n, data: data}
}

// Element returns the lazy proxy of element index of parent's tuple
// result: its operator.getitem node is created when it is first used
// (Proxy.Node), with the data and val the policy gives it.
func (r *Recorder) Element(parent *Proxy, index int) *Proxy {
	return &Proxy{rec: r, parent: parent, index: index}
}

// GetItem creates the operator.getitem node of element index of n's
// result, with val.
func (r *Recorder) GetItem(n *node.Node, index int, val node.Value) (*node.Node, error) {
	return r.Create(node.CallFunction, nn.GetItem, []node.Arg{n, node.Int(index)}, nil, "", val)
}

// Results returns what an operator call recorded as p returns to model
// code: p itself for an operator with at most one result, lazy elements
// (Element) for several.
func (r *Recorder) Results(op *ops.Operator, p *Proxy) []any {
	k := len(op.Schema().Returns)
	if k <= 1 {
		return []any{p}
	}
	out := make([]any, k)
	for i := range out {
		out[i] = r.Element(p, i)
	}
	return out
}

// Trace records an operator call, or hands it to the policy's Operators
// (ops.Tracer).
func (r *Recorder) Trace(op *ops.Operator, args []any, kwargs map[string]any) ([]any, error) {
	if r.scope != nil {
		if err := r.checkMutation(op, args); err != nil {
			return nil, err
		}
	}
	if r.operators != nil {
		return r.operators.Operator(r, op, args, kwargs)
	}
	p, err := r.RecordOp(op, args, kwargs, nil, nil)
	if err != nil {
		return nil, err
	}
	return r.Results(op, p), nil
}

// TraceFunction records a function call, or hands it to the policy's
// Functions (nn's tracer contract).
func (r *Recorder) TraceFunction(fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if r.functions != nil {
		return r.functions.Function(r, fn, args, kwargs)
	}
	return r.RecordFunction(fn, args, kwargs)
}

// TraceMethod records a tensor method call, or hands it to the policy's
// Methods (nn's tracer contract).
func (r *Recorder) TraceMethod(name string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if r.methods != nil {
		return r.methods.Method(r, name, args, kwargs)
	}
	return r.RecordMethod(name, args, kwargs)
}

// TraceModule records a module call, or hands it to the policy's Modules
// (nn's tracer contract). By default a module outside the root's tree is
// an error, a leaf (Leaves) is one call_module node, and any other module
// is traced through inside its module-stack frame.
func (r *Recorder) TraceModule(m nn.Module, args []nn.Value, forward func() (nn.Value, error)) (nn.Value, error) {
	if r.modules != nil {
		return r.modules.Module(r, m, args, forward)
	}
	path, ok := r.paths[m.ModuleBase()]
	if !ok {
		return nn.None, fmt.Errorf("fx: a %s module called during tracing is not a submodule of the traced module: register it in the module tree (nn.RegisterModule)", m.ModuleBase().TypeName())
	}
	if path == "" {
		return forward()
	}
	if r.leaves != nil && r.leaves.Leaf(m, path) {
		return r.CallModule(m, path, args)
	}
	defer r.Exit(r.Enter(m, path))
	return forward()
}

// ConcreteError is the policy's data-dependent error (nn's tracer
// contract).
func (r *Recorder) ConcreteError(what, where string) error {
	return r.policy.DataDependent(what, where)
}

// TensorMeta returns the meta tensor of a proxy, when the policy keeps
// one (decomp.MetaTracer).
func (r *Recorder) TensorMeta(s ops.Symbolic) (*tensor.Tensor, bool) {
	mp, ok := r.policy.(interface {
		TensorMeta(p *Proxy) (*tensor.Tensor, bool)
	})
	if !ok {
		return nil, false
	}
	p, ok := s.(*Proxy)
	if !ok || p.rec != r {
		return nil, false
	}
	return mp.TensorMeta(p)
}

// ModulePath returns the dotted path of module m in the root's tree; ok is
// false for a module outside it.
func (r *Recorder) ModulePath(m nn.Module) (path string, ok bool) {
	path, ok = r.paths[m.ModuleBase()]
	return path, ok
}

// Frames is a saved module stack (Enter, Exit).
type Frames []node.ModuleFrame

// Enter pushes the frame of module m at path on the module stack (the
// nn_module_stack of the nodes recorded until Exit) and returns the stack
// to restore: `defer r.Exit(r.Enter(m, path))`.
func (r *Recorder) Enter(m nn.Module, path string) (saved Frames) {
	saved = r.stack
	r.stack = append(append([]node.ModuleFrame(nil), r.stack...), node.ModuleFrame{Path: path, Type: m.ModuleBase().TypeName()})
	return saved
}

// Exit restores the module stack Enter saved.
func (r *Recorder) Exit(saved Frames) { r.stack = saved }

// CallModule records a call of module m at path as one call_module node.
func (r *Recorder) CallModule(m nn.Module, path string, args []nn.Value) (nn.Value, error) {
	nargs, err := r.valueArgs(args)
	if err != nil {
		return nn.None, fmt.Errorf("module %s: %w", path, err)
	}
	saved := r.Enter(m, path)
	n, err := r.Create(node.CallModule, node.Path(path), nargs, nil, "", nil)
	r.Exit(saved)
	if err != nil {
		return nn.None, err
	}
	return nn.Of(r.NewProxy(n, nil)), nil
}

// RecordOp records a call_function node of op with val and returns the
// proxy of its node, with data. Arguments convert as OpArgs converts them.
func (r *Recorder) RecordOp(op *ops.Operator, args []any, kwargs map[string]any, val node.Value, data any) (*Proxy, error) {
	var buf [8]node.Arg // the node copies its arguments: no allocation for them
	nargs, kw, err := r.AppendOpArgs(buf[:0], op, args, kwargs)
	if err != nil {
		return nil, err
	}
	n, err := r.Create(node.CallFunction, op, nargs, kw, "", val)
	if err != nil {
		return nil, err
	}
	return r.NewProxy(n, data), nil
}

// OpArgs converts an operator call's arguments (OpArg, with the schema
// types) and orders keyword arguments as the schema lists them.
func (r *Recorder) OpArgs(op *ops.Operator, args []any, kwargs map[string]any) ([]node.Arg, node.Kwargs, error) {
	return r.AppendOpArgs(make([]node.Arg, 0, len(args)), op, args, kwargs)
}

// AppendOpArgs is OpArgs appending the positional arguments to dst, a
// buffer the caller may keep on its stack (Create copies arguments).
func (r *Recorder) AppendOpArgs(dst []node.Arg, op *ops.Operator, args []any, kwargs map[string]any) ([]node.Arg, node.Kwargs, error) {
	nargs := dst
	schema := op.Schema()
	pos := 0
	for i, a := range args {
		typ := ""
		if r.TypedStrings {
			for pos < len(schema.Args) && schema.Args[pos].KwargOnly {
				pos++
			}
			if pos < len(schema.Args) {
				typ = typeName(schema.Args[pos].Type)
				pos++
			}
		}
		x, err := r.OpArg(a, typ)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: argument %d: %w", op, i, err)
		}
		nargs = append(nargs, x)
	}
	if len(kwargs) == 0 {
		return nargs, nil, nil
	}
	var kw node.Kwargs
	for _, a := range schema.Args {
		v, ok := kwargs[a.Name]
		if !ok {
			continue
		}
		typ := ""
		if r.TypedStrings {
			typ = typeName(a.Type)
		}
		x, err := r.OpArg(v, typ)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: argument '%s': %w", op, a.Name, err)
		}
		kw = append(kw, node.Field{Name: a.Name, Value: x})
	}
	if len(kw) != len(kwargs) {
		for k := range kwargs {
			if !hasArg(schema, k) {
				return nil, nil, fmt.Errorf("%s: unexpected keyword argument '%s'", op, k)
			}
		}
	}
	return nargs, kw, nil
}

func hasArg(s *ops.Schema, name string) bool {
	for _, a := range s.Args {
		if a.Name == name {
			return true
		}
	}
	return false
}

// typeName returns a schema type's name, optionals unwrapped.
func typeName(t *ops.Type) string {
	for t != nil && t.Kind == ops.OptionalOf {
		t = t.Elem
	}
	if t == nil {
		return ""
	}
	return t.Name
}

// RecordFunction records a call_function node of fn.
func (r *Recorder) RecordFunction(fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	nargs, err := r.valueArgs(args)
	if err != nil {
		return nn.None, fmt.Errorf("%s: %w", fn, err)
	}
	kw, err := r.valueKwargs(kwargs)
	if err != nil {
		return nn.None, fmt.Errorf("%s: %w", fn, err)
	}
	n, err := r.Create(node.CallFunction, fn, nargs, kw, "", nil)
	if err != nil {
		return nn.None, err
	}
	return nn.Of(r.NewProxy(n, nil)), nil
}

// RecordMethod records a call_method node of the tensor method name.
func (r *Recorder) RecordMethod(name string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	nargs, err := r.valueArgs(args)
	if err != nil {
		return nn.None, fmt.Errorf("method %s: %w", name, err)
	}
	kw, err := r.valueKwargs(kwargs)
	if err != nil {
		return nn.None, fmt.Errorf("method %s: %w", name, err)
	}
	n, err := r.Create(node.CallMethod, node.Path(name), nargs, kw, "", nil)
	if err != nil {
		return nn.None, err
	}
	return nn.Of(r.NewProxy(n, nil)), nil
}

func (r *Recorder) valueArgs(args []nn.Value) ([]node.Arg, error) {
	out := make([]node.Arg, len(args))
	for i, a := range args {
		x, err := r.Arg(a)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i, err)
		}
		out[i] = x
	}
	return out, nil
}

func (r *Recorder) valueKwargs(kwargs map[string]nn.Value) (node.Kwargs, error) {
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
		x, err := r.Arg(kwargs[k])
		if err != nil {
			return nil, fmt.Errorf("argument '%s': %w", k, err)
		}
		kw = append(kw, node.Field{Name: k, Value: x})
	}
	return kw, nil
}

// Arg converts a value that model code passed into a node argument: a
// proxy of this recorder becomes its node (a whole tuple of lazy elements
// the operator's node, with FoldTuples), another symbolic value of this
// recorder what the policy's Symbolic makes of it, a concrete tensor what
// the policy's Constant makes of it (nil: None), a number, bool, string or
// dtype a constant, a tuple Value a node.Tuple and a Go slice a node.List
// of its elements. A proxy of another recorder is an error.
func (r *Recorder) Arg(v any) (node.Arg, error) { return r.OpArg(v, "") }

// OpArg is Arg for an operator argument of schema type typ: with
// TypedStrings, a string passed for a MemoryFormat, Layout or Device
// argument is recorded as one.
func (r *Recorder) OpArg(v any, typ string) (node.Arg, error) {
	if x, ok := v.(string); ok && r.TypedStrings {
		switch typ {
		case "MemoryFormat":
			return node.MemoryFormat(x), nil
		case "Layout":
			return node.Layout(x), nil
		case "Device":
			return node.Device(x), nil
		}
	}
	if a, ok := node.ArgOf(v); ok {
		return a, nil
	}
	switch x := v.(type) {
	case nn.Value:
		return r.OpArg(x.Any(), typ)
	case *Proxy:
		if x.rec != r {
			return nil, errors.New("a Proxy of another trace")
		}
		if r.scope != nil {
			return r.local(x.Node())
		}
		return x.Node(), nil
	case tensor.DType:
		return nil, fmt.Errorf("dtype %v has no graph spelling", x)
	case *tensor.Tensor:
		if x == nil {
			return node.None, nil
		}
		return r.localArg(r.policy.Constant(r, x))
	case []nn.Value:
		if r.FoldTuples {
			if n := wholeTuple(x, func(v nn.Value) any { return v.Any() }); n != nil {
				return n, nil
			}
		}
		out := make(node.Tuple, len(x))
		for i, e := range x {
			a, err := r.Arg(e)
			if err != nil {
				return nil, err
			}
			out[i] = a
		}
		return out, nil
	case []any:
		if r.FoldTuples {
			if n := wholeTuple(x, func(v any) any { return v }); n != nil {
				return n, nil
			}
		}
		return listArg(r, x)
	case []*tensor.Tensor:
		return listArg(r, x)
	case ops.Symbolic:
		if x.Tracer() != ops.Tracer(r) {
			return nil, errors.New("a symbolic value of another trace")
		}
		return r.localArg(r.policy.Symbolic(r, x))
	case interface{ SliceParts() [3]nn.Value }:
		// A slice with a symbolic part (x[:n], n := k.Item()): a slice
		// argument whose parts are the values' arguments.
		var parts [3]node.Arg
		for i, p := range x.SliceParts() {
			a, err := r.Arg(p)
			if err != nil {
				return nil, fmt.Errorf("slice part %d: %w", i, err)
			}
			parts[i] = a
		}
		return node.Slice{Start: parts[0], Stop: parts[1], Step: parts[2]}, nil
	}
	return nil, fmt.Errorf("cannot record a %T in a graph", v)
}

func listArg[E any](r *Recorder, xs []E) (node.Arg, error) {
	out := make(node.List, len(xs))
	for i, e := range xs {
		a, err := r.Arg(e)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

// wholeTuple returns the node whose tuple result xs are, element by
// element in order (lazy elements of one operator call), or nil.
func wholeTuple[E any](xs []E, get func(E) any) *node.Node {
	if len(xs) < 2 {
		return nil
	}
	var parent *Proxy
	for i, x := range xs {
		p, ok := get(x).(*Proxy)
		if !ok || p.parent == nil || p.index != i || (parent != nil && p.parent != parent) {
			return nil
		}
		parent = p.parent
	}
	return parent.wholeNode(len(xs))
}

// WholeTuple returns the node whose tuple result ps are, element by
// element in order, or nil.
func WholeTuple(ps []*Proxy) *node.Node {
	return wholeTuple(ps, func(p *Proxy) any { return p })
}

// wholeNode returns p's node if it is an operator call with k results.
func (p *Proxy) wholeNode(k int) *node.Node {
	n := p.Node()
	if op, ok := n.Function().(*ops.Operator); ok && len(op.Schema().Returns) == k {
		return n
	}
	return nil
}

// Tracer is the method set of nn's tracer contract (nn's unexported
// tracer interface), which the tracer of a symbolic value implements so
// that model code on it is recorded instead of run: the Recorder, and
// shapeprop's fake propagation. Implementations assert it at compile time.
type Tracer interface {
	ops.Tracer
	TraceFunction(fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error)
	TraceMethod(name string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error)
	TraceModule(m nn.Module, args []nn.Value, forward func() (nn.Value, error)) (nn.Value, error)
	ConcreteError(what, where string) error
}

var _ Tracer = (*Recorder)(nil)
