package convert

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/internal/record"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript"
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/runtime"
	"github.com/gofx/gofx/torchscript/types"
)

// maxUnroll bounds the iterations of one unrolled loop.
const maxUnroll = 1 << 16

// Option configures Convert.
type Option func(*config)

type config struct {
	dims   export.Dims
	method string
	file   string
}

// Dims declares dynamic dimensions of the inputs, as export.Export's dims.
// A loop or branch on a dynamic size is then refused (it would need a
// symbolic trip count).
func Dims(d export.Dims) Option { return func(c *config) { c.dims = d } }

// Method converts the named method instead of forward.
func Method(name string) Option { return func(c *config) { c.method = name } }

// File names the archive in errors (Convert does not know the path of a
// Module).
func File(name string) Option { return func(c *config) { c.file = name } }

// Error is a conversion failure: the archive, the TorchScript node (its
// kind and source range, when the archive has one) and why.
type Error struct {
	File   string
	Kind   string
	Source string
	Err    error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("convert: ")
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Kind != "" {
		b.WriteString(e.Kind)
		if e.Source != "" {
			b.WriteString(" at ")
			b.WriteString(e.Source)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// ErrNotFunctional is wrapped by the errors of programs that cannot be
// expressed as an ExportedProgram (attribute writes, loops whose trip
// count or condition depends on tensor data, exceptions on tensor data).
var ErrNotFunctional = errors.New("not functional")

// Convert captures m's forward (or Method's) called with the example
// inputs args (runtime values or Go values: *tensor.Tensor, int64,
// float64, bool, string, slices) as an ExportedProgram.
func Convert(m *torchscript.Module, args []any, opts ...Option) (ep *export.ExportedProgram, err error) {
	if m == nil {
		return nil, errors.New("convert: nil module")
	}
	cfg := config{method: "forward"}
	for _, o := range opts {
		o(&cfg)
	}
	defer func() {
		if r := recover(); r != nil {
			ep, err = nil, &Error{File: cfg.file, Err: fmt.Errorf("internal error: %v", r)}
		}
	}()
	if c, ok := m.Type().Constant("__forward_hooks__"); ok && nonEmpty(c.Value) && cfg.method == "forward" {
		return nil, &Error{File: cfg.file, Err: fmt.Errorf("the module %s has forward hooks: %w (convert the hooked methods one by one with Method)", m.Type().Name, ErrNotFunctional)}
	}
	if c, ok := m.Type().Constant("__forward_pre_hooks__"); ok && nonEmpty(c.Value) && cfg.method == "forward" {
		return nil, &Error{File: cfg.file, Err: fmt.Errorf("the module %s has forward pre-hooks: %w", m.Type().Name, ErrNotFunctional)}
	}
	meth, err := m.Method(cfg.method)
	if err != nil {
		return nil, &Error{File: cfg.file, Err: err}
	}
	g, err := meth.Function().Compiled()
	if err != nil {
		return nil, &Error{File: cfg.file, Err: err}
	}
	c := &converter{in: m.Interpreter(), file: cfg.file, mods: map[*runtime.Object]*module{}, src: newSources(m.Archive()), method: cfg.method, local: map[*runtime.Object]bool{}}
	root, err := c.adapt(m.Object(), "")
	if err != nil {
		return nil, err
	}
	root.graph = g
	in := make([]any, len(args))
	for i, a := range args {
		v, err := torchscript.Value(a)
		if err != nil {
			return nil, &Error{File: cfg.file, Err: fmt.Errorf("input %d: %w", i, err)}
		}
		in[i] = exampleInput(v)
	}
	ep, err = export.Export(root, in, cfg.dims)
	if err != nil {
		var ce *Error
		if errors.As(err, &ce) {
			return nil, ce
		}
		return nil, &Error{File: cfg.file, Err: err}
	}
	return ep, nil
}

func nonEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case []string:
		return len(x) > 0
	case []any:
		return len(x) > 0
	case *runtime.List:
		return len(x.Items) > 0
	}
	return true
}

// exampleInput turns a runtime value into what export takes as an input.
func exampleInput(v any) any {
	switch x := v.(type) {
	case *runtime.List:
		out := make([]any, len(x.Items))
		for i, e := range x.Items {
			out[i] = exampleInput(e)
		}
		return out
	case *runtime.Tuple:
		out := make([]nn.Value, len(x.Items))
		for i, e := range x.Items {
			out[i] = nn.Of(exampleInput(e))
		}
		return nn.Tuple(out...)
	}
	return v
}

// converter evaluates TorchScript graphs on nn.Values under export's
// recorder.
type converter struct {
	in   *runtime.Interpreter
	file string
	mods map[*runtime.Object]*module
	// src maps node source ranges to the user's Python source; method
	// is the converted method's name and calls the calls being inlined
	// (the frames of a node's stack_trace); rec is export's recorder,
	// once a traced value has shown it.
	src    *sources
	method string
	calls  []callFrame
	rec    *record.Recorder
	// local are the objects the program created (prim::CreateObject),
	// whose attributes it may write; entered are the objects of the with
	// statements being evaluated, innermost last.
	local   map[*runtime.Object]bool
	entered []*runtime.Object
}

// module is the nn.Module standing for one TorchScript module object:
// its tensor parameters and buffers registered under their names, its
// submodules as children, so that export lifts the state as it lifts a Go
// model's.
type module struct {
	nn.Base
	c      *converter
	obj    *runtime.Object
	graph  *ir.Graph
	params map[string]*nn.Parameter
	bufs   map[string]*nn.Buffer
}

func (c *converter) adapt(o *runtime.Object, path string) (*module, error) {
	if md, ok := c.mods[o]; ok {
		return md, nil
	}
	md := &module{c: c, obj: o, params: map[string]*nn.Parameter{}, bufs: map[string]*nn.Buffer{}}
	name := o.Type.Name
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	md.Init(md, name)
	c.mods[o] = md
	for i, a := range o.Type.Attrs {
		if i >= len(o.Slots) {
			break
		}
		switch v := o.Slots[i].(type) {
		case *tensor.Tensor:
			if v == nil {
				continue
			}
			switch {
			case a.Parameter:
				md.params[a.Name] = md.RegisterParameter(a.Name, v)
			case a.Buffer:
				md.bufs[a.Name] = md.RegisterBuffer(a.Name, v, true)
			}
		case *runtime.Object:
			if v.Type != nil && v.Type.Module {
				sub, err := c.adapt(v, path+a.Name+".")
				if err != nil {
					return nil, err
				}
				md.AddModule(a.Name, sub)
			}
		}
		if err := nn.Err(md); err != nil {
			return nil, &Error{File: c.file, Err: fmt.Errorf("module %s attribute %s: %w", path, a.Name, err)}
		}
	}
	return md, nil
}

// ArgNames names the inputs as the graph does (x.1 is x).
func (md *module) ArgNames() []string {
	if md.graph == nil {
		return nil
	}
	var out []string
	for _, v := range md.graph.Inputs()[1:] {
		n := v.DebugName()
		if i := strings.LastIndex(n, "."); i > 0 {
			n = n[:i]
		}
		if n == "" {
			n = fmt.Sprintf("arg%d", len(out))
		}
		out = append(out, n)
	}
	return out
}

// Forward evaluates the TorchScript graph on the inputs.
func (md *module) Forward(args ...nn.Value) nn.Value {
	in := make([]any, len(args)+1)
	in[0] = md.obj
	for i, a := range args {
		var t types.Type
		if i+1 < len(md.graph.Inputs()) {
			t = md.graph.Inputs()[i+1].Type
		}
		in[i+1] = fromNN(a, t)
	}
	out, err := md.c.run(md.graph, in)
	if err != nil {
		panic(err)
	}
	v := out[0]
	if len(out) != 1 {
		v = runtime.NewTuple(out...)
	}
	r, err := toNN(v)
	if err != nil {
		panic(&Error{File: md.c.file, Err: fmt.Errorf("the result: %w", err)})
	}
	return r
}

// fromNN converts a model input to the evaluator's value: symbolic values
// stay nn.Values, concrete ones become runtime values.
func fromNN(a nn.Value, t types.Type) any {
	if a.IsSymbolic() {
		return a
	}
	if a.IsTuple() {
		items := a.Tuple()
		out := make([]any, len(items))
		var et types.Type
		if lt, ok := t.(*types.List); ok {
			et = lt.Elem
		}
		for i, e := range items {
			out[i] = fromNN(e, et)
		}
		if lt, ok := t.(*types.List); ok {
			return runtime.NewList(lt.Elem, out...)
		}
		return runtime.NewTuple(out...)
	}
	return a.Any()
}

// toNN converts an evaluator value to an nn.Value.
func toNN(v any) (nn.Value, error) {
	switch x := v.(type) {
	case nn.Value:
		return x, nil
	case *runtime.Tuple:
		return tupleNN(x.Items)
	case *runtime.List:
		return tupleNN(x.Items)
	case nil, *tensor.Tensor, int64, float64, bool, string, tensor.DType:
		return nn.Of(x), nil
	case *predicate:
		return x.t, nil
	}
	return nn.None, fmt.Errorf("a %s cannot be a value of an exported program", runtime.TypeName(v))
}

func tupleNN(items []any) (nn.Value, error) {
	vs := make([]nn.Value, len(items))
	for i, e := range items {
		v, err := toNN(e)
		if err != nil {
			return nn.None, err
		}
		vs[i] = v
	}
	return nn.Tuple(vs...), nil
}

// predicate is bool(t) of a traced tensor: a prim::If on it becomes cond.
type predicate struct{ t nn.Value }

// symbolic reports whether v holds a traced value.
func symbolic(v any) bool {
	switch x := v.(type) {
	case nn.Value:
		return x.IsSymbolic()
	case *predicate:
		return true
	case *runtime.List:
		for _, e := range x.Items {
			if symbolic(e) {
				return true
			}
		}
	case *runtime.Tuple:
		for _, e := range x.Items {
			if symbolic(e) {
				return true
			}
		}
	case *runtime.Dict:
		for _, e := range x.Values() {
			if symbolic(e) {
				return true
			}
		}
	case *runtime.Future:
		return symbolic(x.Value)
	}
	return false
}

type env map[*ir.Value]any

func (c *converter) fail(n *ir.Node, format string, a ...any) error {
	return &Error{File: c.file, Kind: n.Kind, Source: c.where(n), Err: fmt.Errorf(format, a...)}
}

func (c *converter) wrap(n *ir.Node, err error) error {
	var ce *Error
	if errors.As(err, &ce) {
		return err
	}
	return c.fail(n, "%w", err)
}

// run evaluates g on args (self first).
func (c *converter) run(g *ir.Graph, args []any) ([]any, error) {
	e := env{}
	ins := g.Inputs()
	if len(args) != len(ins) {
		return nil, &Error{File: c.file, Err: fmt.Errorf("the graph takes %d inputs, got %d", len(ins), len(args))}
	}
	for i, v := range ins {
		e[v] = args[i]
	}
	return c.block(g.Block(), e)
}

func (c *converter) block(b *ir.Block, e env) ([]any, error) {
	for _, n := range b.Nodes {
		if err := c.node(n, e); err != nil {
			return nil, err
		}
	}
	out := make([]any, len(b.Outputs))
	for i, v := range b.Outputs {
		out[i] = e[v]
	}
	return out, nil
}

func (c *converter) set(n *ir.Node, e env, out []any) error {
	if len(out) == len(n.Outputs) {
		for i, v := range n.Outputs {
			e[v] = out[i]
		}
		return nil
	}
	if len(n.Outputs) == 1 {
		e[n.Outputs[0]] = runtime.NewTuple(out...)
		return nil
	}
	if len(out) == 1 {
		if t, ok := out[0].(*runtime.Tuple); ok && len(t.Items) == len(n.Outputs) {
			return c.set(n, e, t.Items)
		}
	}
	return c.fail(n, "%d results for %d outputs", len(out), len(n.Outputs))
}

func (c *converter) node(n *ir.Node, e env) error {
	in := make([]any, len(n.Inputs))
	sym := false
	for i, v := range n.Inputs {
		in[i] = e[v]
		sym = sym || symbolic(in[i])
	}
	if sym {
		// What export records for n carries n's source range.
		return c.provenance(n, in, func() error { return c.eval(n, e, in, sym) })
	}
	return c.eval(n, e, in, sym)
}

// eval evaluates n on its inputs' values in (sym: some are traced).
func (c *converter) eval(n *ir.Node, e env, in []any, sym bool) error {
	switch n.Kind {
	case "prim::GetAttr":
		return c.getAttr(n, e, in)
	case "prim::SetAttr":
		// An object the program made (a TorchScript class instance, a
		// context manager) is a value of the evaluation: writing its
		// attributes is functional. The module's state is not.
		if o, ok := in[0].(*runtime.Object); ok && c.local[o] {
			if err := o.SetAttr(attrName(n), in[1]); err != nil {
				return c.wrap(n, err)
			}
			return nil
		}
		return c.fail(n, "writes the attribute %s of %s, which the program did not create: %w (an ExportedProgram cannot assign module attributes)", attrName(n), runtime.TypeName(in[0]), ErrNotFunctional)
	case "prim::CreateObject":
		out, err := c.concrete(n, in)
		if err != nil {
			return c.wrap(n, err)
		}
		if o, ok := first(out).(*runtime.Object); ok {
			c.local[o] = true
		}
		return c.set(n, e, out)
	case "prim::Enter", "prim::Exit":
		return c.with(n, e, in)
	case "prim::fork":
		return c.fork(n, e, in) // fork.go
	case "aten::wait":
		if f, ok := first(in).(*runtime.Future); ok {
			return c.set(n, e, []any{f.Value})
		}
	case "prim::CallMethod":
		o, ok := in[0].(*runtime.Object)
		if !ok {
			return c.fail(n, "expected a module object, got %s", runtime.TypeName(in[0]))
		}
		f, err := c.in.Method(o.Type, attrName(n))
		if err != nil {
			return c.wrap(n, err)
		}
		return c.call(n, e, attrName(n), f, in)
	case "prim::CallFunction":
		f, ok := in[0].(*runtime.Function)
		if !ok {
			return c.fail(n, "expected a function, got %s", runtime.TypeName(in[0]))
		}
		name := f.Name
		if i := strings.LastIndex(name, "."); i >= 0 {
			name = name[i+1:]
		}
		return c.call(n, e, name, f, in[1:])
	case "prim::If":
		return c.ifNode(n, e, in)
	case "prim::Loop":
		return c.loop(n, e, in)
	case "prim::ListConstruct":
		l := &runtime.List{Items: in}
		if lt, ok := n.Outputs[0].Type.(*types.List); ok {
			l.Elem = lt.Elem
		}
		return c.set(n, e, []any{l})
	case "prim::TupleConstruct":
		if !sym {
			break
		}
		return c.set(n, e, []any{runtime.NewTuple(in...)})
	case "prim::ListUnpack", "prim::TupleUnpack":
		if !sym {
			break
		}
		switch x := in[0].(type) {
		case *runtime.List:
			return c.set(n, e, x.Items)
		case *runtime.Tuple:
			return c.set(n, e, x.Items)
		case nn.Value:
			if x.IsTuple() {
				items := x.Tuple()
				out := make([]any, len(items))
				for i, it := range items {
					out[i] = normalize(it)
				}
				return c.set(n, e, out)
			}
		}
		return c.fail(n, "cannot unpack a %s", runtime.TypeName(in[0]))
	case "prim::TupleIndex", "aten::__getitem__":
		if !sym || symbolic(in[1]) {
			break
		}
		var items []any
		switch x := in[0].(type) {
		case *runtime.List:
			items = x.Items
		case *runtime.Tuple:
			items = x.Items
		default:
			return c.fail(n, "indexing a traced %s is not supported", runtime.TypeName(in[0]))
		}
		i, ok := in[1].(int64)
		if !ok {
			return c.fail(n, "index is a %s, not an int", runtime.TypeName(in[1]))
		}
		if i < 0 {
			i += int64(len(items))
		}
		if i < 0 || i >= int64(len(items)) {
			return c.fail(n, "index %d out of range (%d items)", in[1], len(items))
		}
		return c.set(n, e, []any{items[i]})
	case "aten::append":
		if !sym {
			break
		}
		l, ok := in[0].(*runtime.List)
		if !ok {
			return c.fail(n, "append to a %s", runtime.TypeName(in[0]))
		}
		l.Items = append(l.Items, in[1])
		return c.set(n, e, []any{l})
	case "aten::len":
		if l, ok := in[0].(*runtime.List); ok && sym {
			return c.set(n, e, []any{int64(len(l.Items))})
		}
	case "prim::unchecked_cast", "prim::unchecked_unwrap_optional":
		return c.set(n, e, []any{in[0]})
	case "aten::__is__", "aten::__isnot__":
		if !sym {
			break
		}
		if in[0] != nil && in[1] != nil && !isNone(in[0]) && !isNone(in[1]) {
			return c.fail(n, "identity of traced values is not known")
		}
		same := isNone(in[0]) == isNone(in[1])
		if n.Kind == "aten::__isnot__" {
			same = !same
		}
		return c.set(n, e, []any{same})
	case "aten::Bool", "aten::is_nonzero":
		if v, ok := in[0].(nn.Value); ok && sym {
			return c.set(n, e, []any{&predicate{v}})
		}
	case "aten::Int", "aten::Float", "aten::item", "aten::ScalarImplicit", "aten::tolist":
		if sym {
			return c.fail(n, "needs the value of a traced tensor: %w (data-dependent Python values)", ErrNotFunctional)
		}
	case "prim::RaiseException":
		return c.fail(n, "the program raises an exception on this path: %s", runtime.Str(first(in)))
	case "prim::Print":
		return nil
	}
	if len(n.Blocks) > 0 {
		return c.fail(n, "nodes with blocks of this kind are not supported")
	}
	if !sym {
		out, err := c.concrete(n, in)
		if err != nil {
			return c.wrap(n, err)
		}
		return c.set(n, e, out)
	}
	return c.traced(n, e, in)
}

func first(in []any) any {
	if len(in) == 0 {
		return nil
	}
	return in[0]
}

func isNone(v any) bool {
	if v == nil {
		return true
	}
	if x, ok := v.(nn.Value); ok {
		return x.IsNone()
	}
	return false
}

func attrName(n *ir.Node) string {
	s, _ := n.Str("name")
	return s
}

func (c *converter) getAttr(n *ir.Node, e env, in []any) error {
	o, ok := in[0].(*runtime.Object)
	if !ok {
		return c.fail(n, "expected an object, got %s", runtime.TypeName(in[0]))
	}
	name := attrName(n)
	if md, ok := c.mods[o]; ok {
		if p, ok := md.params[name]; ok {
			return c.set(n, e, []any{p.Value()})
		}
		if b, ok := md.bufs[name]; ok {
			return c.set(n, e, []any{b.Value()})
		}
	}
	v, ok := o.Attr(name)
	if !ok {
		return c.fail(n, "the object %s has no attribute %s", o.ClassName(), name)
	}
	if sub, ok := v.(*runtime.Object); ok && sub.Type != nil && sub.Type.Module {
		if _, err := c.adapt(sub, name+"."); err != nil {
			return err
		}
	}
	return c.set(n, e, []any{v})
}

// with evaluates the start (prim::Enter: the object's __enter__, whose
// result is the node's output) or the end (prim::Exit: the last entered
// object's __exit__(None, None, None)) of a with statement, inlined as
// calls: the program stays functional when they are (torch.no_grad()'s
// flag, a context manager the program made).
func (c *converter) with(n *ir.Node, e env, in []any) error {
	var o *runtime.Object
	var args []any
	name := "__enter__"
	if n.Kind == "prim::Enter" {
		var ok bool
		if o, ok = first(in).(*runtime.Object); !ok {
			return c.fail(n, "expected an object, got %s", runtime.TypeName(first(in)))
		}
		args = []any{o}
	} else {
		if len(c.entered) == 0 {
			return c.fail(n, "no with statement was entered")
		}
		o = c.entered[len(c.entered)-1]
		c.entered = c.entered[:len(c.entered)-1]
		name, args = "__exit__", []any{o, nil, nil, nil}
	}
	f, err := c.in.Method(o.Type, name)
	if err != nil {
		return c.wrap(n, err)
	}
	if err := c.call(n, e, name, f, args); err != nil {
		return err
	}
	if n.Kind == "prim::Enter" {
		c.entered = append(c.entered, o)
	}
	return nil
}

// call inlines a method or function: its graph is evaluated in place.
func (c *converter) call(n *ir.Node, e env, name string, f *runtime.Function, args []any) error {
	g, err := f.Compiled()
	if err != nil {
		return c.wrap(n, err)
	}
	c.calls = append(c.calls, callFrame{site: n, fn: name})
	out, err := c.run(g, args)
	c.calls = c.calls[:len(c.calls)-1]
	if err != nil {
		return err
	}
	return c.set(n, e, out)
}

// concrete runs a node whose inputs are all concrete on the TorchScript
// interpreter (a graph of that one node).
func (c *converter) concrete(n *ir.Node, in []any) ([]any, error) {
	g := ir.NewGraph()
	vals := make([]*ir.Value, len(n.Inputs))
	for i, v := range n.Inputs {
		x, err := g.AddInput("", v.Type)
		if err != nil {
			return nil, err
		}
		vals[i] = x
	}
	outTypes := make([]types.Type, len(n.Outputs))
	for i, v := range n.Outputs {
		outTypes[i] = v.Type
	}
	m := g.Create(n.Kind, vals, outTypes...)
	m.Attrs = append(m.Attrs, n.Attrs...)
	m.Op = n.Op
	m.Source = n.Source
	if err := g.Insert(m); err != nil {
		return nil, err
	}
	for _, o := range m.Outputs {
		g.RegisterOutput(o)
	}
	return c.in.Run(&runtime.Function{Name: n.Kind, Graph: g}, in...)
}

// traced calls a node's operator on traced values: export records it
// (decomposed to core ATen).
func (c *converter) traced(n *ir.Node, e env, in []any) error {
	op := n.Op
	if op == nil {
		return c.fail(n, "has traced inputs but no operator overload (only aten operators on tensors can be exported)")
	}
	switch n.Kind {
	case "aten::size", "aten::dim", "aten::numel":
		// Sizes are read through the tracer's tensor methods (export
		// answers them from the fake tensor, symbolically when dynamic).
		args := make([]nn.Value, len(in))
		for i, v := range in {
			x, err := opValue(nil, v)
			if err != nil {
				return c.fail(n, "argument %d: %v", i, err)
			}
			args[i] = x
		}
		out, err := nn.ApplyMethod(strings.TrimPrefix(n.Kind, "aten::"), args, nil)
		if err != nil {
			return c.wrap(n, err)
		}
		v := normalize(out)
		if t, ok := v.(*runtime.Tuple); ok {
			v = runtime.NewList(types.Int, t.Items...)
		}
		return c.set(n, e, []any{v})
	case "aten::_convolution":
		// The traced archives' convolution: the core operator is
		// convolution, without the cuDNN flags.
		if len(in) >= 9 {
			op, in = convolution, in[:9]
		}
	}
	s := op.Schema()
	if len(in) > len(s.Args) {
		return c.fail(n, "%d inputs for %s", len(in), op)
	}
	var args []nn.Value
	var kw map[string]nn.Value
	for i, v := range in {
		a := s.Args[i]
		x, err := opValue(a.Type, v)
		if err != nil {
			return c.fail(n, "argument %s: %v", a.Name, err)
		}
		if a.KwargOnly {
			if kw == nil {
				kw = map[string]nn.Value{}
			}
			kw[a.Name] = x
			continue
		}
		args = append(args, x)
	}
	out, err := nn.Apply(op, args, kw)
	if err != nil {
		return c.wrap(n, err)
	}
	if len(s.Returns) > 1 && out.IsTuple() && len(n.Outputs) == len(s.Returns) {
		items := out.Tuple()
		res := make([]any, len(items))
		for i, it := range items {
			res[i] = normalize(it)
		}
		return c.set(n, e, res)
	}
	return c.set(n, e, []any{normalize(out)})
}

func normalize(v nn.Value) any {
	if v.IsTuple() {
		items := v.Tuple()
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = normalize(it)
		}
		return runtime.NewTuple(out...)
	}
	if v.IsSymbolic() {
		return v
	}
	return v.Any()
}

var convolution = nn.Op("aten::convolution")

var memoryFormats = []string{"contiguous_format", "preserve_format", "channels_last", "channels_last_3d"}
var layouts = []string{"strided", "sparse_coo", "sparse_csr", "mkldnn"}

// opValue converts an evaluator value to an operator argument.
func opValue(t *ops.Type, v any) (nn.Value, error) {
	switch x := v.(type) {
	case nn.Value:
		return x, nil
	case *predicate:
		return x.t, nil
	case int64:
		bt := t
		for bt != nil && bt.Kind == ops.OptionalOf {
			bt = bt.Elem
		}
		if bt != nil && bt.Kind == ops.Named {
			switch bt.Name {
			case "MemoryFormat":
				if x >= 0 && int(x) < len(memoryFormats) {
					return nn.Of(memoryFormats[x]), nil
				}
			case "Layout":
				if x >= 0 && int(x) < len(layouts) {
					return nn.Of(layouts[x]), nil
				}
			}
		}
		return nn.Of(x), nil
	case *runtime.List:
		return listValue(x.Items)
	case *runtime.Tuple:
		return listValue(x.Items)
	case runtime.Device:
		return nn.Of(x.Type), nil
	case nil, *tensor.Tensor, float64, bool, string, tensor.DType:
		return nn.Of(x), nil
	}
	return nn.None, fmt.Errorf("a %s cannot be an operator argument", runtime.TypeName(v))
}

func listValue(items []any) (nn.Value, error) {
	vs := make([]nn.Value, len(items))
	for i, e := range items {
		v, err := opValue(nil, e)
		if err != nil {
			return nn.None, err
		}
		vs[i] = v
	}
	return nn.Tuple(vs...), nil
}

// ifNode evaluates the branch a concrete condition takes, and records
// cond for a condition on tensor data.
func (c *converter) ifNode(n *ir.Node, e env, in []any) error {
	switch x := in[0].(type) {
	case bool:
		b := n.Blocks[1]
		if x {
			b = n.Blocks[0]
		}
		out, err := c.block(b, e)
		if err != nil {
			return err
		}
		return c.set(n, e, out)
	case *predicate:
		return c.cond(n, e, x)
	}
	return c.fail(n, "condition is a %s, not a bool", runtime.TypeName(in[0]))
}

// freeValues lists the values the blocks of n read from outside n, in
// first-use order.
func freeValues(n *ir.Node) []*ir.Value {
	inside := map[*ir.Value]bool{}
	var walk func(b *ir.Block)
	var uses []*ir.Value
	walk = func(b *ir.Block) {
		for _, p := range b.Params {
			inside[p] = true
		}
		for _, m := range b.Nodes {
			uses = append(uses, m.Inputs...)
			for _, sb := range m.Blocks {
				walk(sb)
			}
			for _, o := range m.Outputs {
				inside[o] = true
			}
		}
		uses = append(uses, b.Outputs...)
	}
	for _, b := range n.Blocks {
		walk(b)
	}
	seen := map[*ir.Value]bool{}
	var out []*ir.Value
	for _, v := range uses {
		if !inside[v] && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// cond records torch.cond for an if on tensor data: the traced values the
// branches read are its operands.
func (c *converter) cond(n *ir.Node, e env, p *predicate) (err error) {
	var operands []nn.Value
	var opVals []*ir.Value
	for _, v := range freeValues(n) {
		x := e[v]
		if nv, ok := x.(nn.Value); ok && nv.IsSymbolic() {
			operands = append(operands, nv)
			opVals = append(opVals, v)
		} else if symbolic(x) {
			return c.fail(n, "a branch reads %%%s, a container of traced values: only tensors can be operands of cond", v.Name())
		}
	}
	for _, o := range n.Outputs {
		if o.Type.Kind() != types.TensorKind {
			return c.fail(n, "an if on tensor data returns a %s (a loop exit or a Python value decided by tensor data): cond returns tensors only: %w", o.Type, ErrNotFunctional)
		}
	}
	branch := func(b *ir.Block) func(...nn.Value) nn.Value {
		return func(args ...nn.Value) nn.Value {
			sub := env{}
			for k, v := range e {
				sub[k] = v
			}
			for i, v := range opVals {
				sub[v] = args[i]
			}
			out, err := c.block(b, sub)
			if err != nil {
				panic(err)
			}
			vs := make([]nn.Value, len(out))
			for i, o := range out {
				v, err := toNN(o)
				if err != nil {
					panic(c.fail(n, "branch result %d: %v", i, err))
				}
				vs[i] = v
			}
			if len(vs) == 1 {
				return vs[0]
			}
			return nn.Tuple(vs...)
		}
	}
	defer func() {
		if r := recover(); r != nil {
			if x, ok := r.(error); ok {
				err = c.wrap(n, x)
				return
			}
			panic(r)
		}
	}()
	res := functional.Cond(p.t, branch(n.Blocks[0]), branch(n.Blocks[1]), operands...)
	if len(n.Outputs) == 1 {
		return c.set(n, e, []any{res})
	}
	items := res.Tuple()
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = it
	}
	return c.set(n, e, out)
}

// loop unrolls a loop whose trip count and condition are concrete.
func (c *converter) loop(n *ir.Node, e env, in []any) error {
	if len(in) < 2 || len(n.Blocks) != 1 {
		return c.fail(n, "malformed loop")
	}
	max, ok := in[0].(int64)
	if !ok {
		return c.fail(n, "the trip count is a %s, not a known int: %w (while_loop over a traced count is not supported)", runtime.TypeName(in[0]), ErrNotFunctional)
	}
	cont, ok := in[1].(bool)
	if !ok {
		if p, isPred := in[1].(*predicate); isPred {
			return c.whileLoop(n, e, max, p, in[2:])
		}
		return c.fail(n, "the loop condition is a %s, not a bool", runtime.TypeName(in[1]))
	}
	carried := append([]any(nil), in[2:]...)
	b := n.Blocks[0]
	for i := int64(0); i < max && cont; i++ {
		if i >= maxUnroll {
			return c.fail(n, "more than %d iterations to unroll", maxUnroll)
		}
		e[b.Params[0]] = i
		for j, p := range b.Params[1:] {
			e[p] = carried[j]
		}
		out, err := c.block(b, e)
		if err != nil {
			return err
		}
		if cont, ok = out[0].(bool); !ok {
			return c.fail(n, "the loop condition becomes data-dependent after %d iterations: %w (a while_loop needs it from the start)", i+1, ErrNotFunctional)
		}
		carried = out[1:]
	}
	return c.set(n, e, carried)
}

// infiniteTrips is the trip count TorchScript gives a while loop.
const infiniteTrips = 1<<63 - 1

// whileLoop records torch's while_loop for a while loop on tensor data:
// the condition (a one-element bool tensor) is carried with the loop's
// values, the traced values the body reads are its additional inputs.
// The loop must be a while (no trip count), carry tensors only and not
// read its iteration number.
func (c *converter) whileLoop(n *ir.Node, e env, max int64, p *predicate, carried []any) (err error) {
	b := n.Blocks[0]
	switch {
	case max != infiniteTrips:
		return c.fail(n, "a for loop with a condition on tensor data: %w (while_loop carries no trip count)", ErrNotFunctional)
	case len(b.Params[0].Uses()) > 0:
		return c.fail(n, "the loop reads its iteration number: %w (while_loop carries tensors only)", ErrNotFunctional)
	}
	init := []nn.Value{p.t}
	for i, v := range carried {
		x, ok := v.(nn.Value)
		if !ok || !x.IsTensor() && !x.IsSymbolic() {
			return c.fail(n, "loop-carried value %d is a %s: %w (while_loop carries tensors only)", i, runtime.TypeName(v), ErrNotFunctional)
		}
		init = append(init, x)
	}
	var extra []nn.Value
	var extraVals []*ir.Value
	for _, v := range freeValues(n) {
		x := e[v]
		if nv, ok := x.(nn.Value); ok && nv.IsSymbolic() {
			extra = append(extra, nv)
			extraVals = append(extraVals, v)
		} else if symbolic(x) {
			return c.fail(n, "the loop reads %%%s, a container of traced values: %w", v.Name(), ErrNotFunctional)
		}
	}
	body := func(vals ...nn.Value) []nn.Value {
		sub := env{}
		for k, v := range e {
			sub[k] = v
		}
		sub[b.Params[0]] = int64(0) // unused (checked above)
		for j, prm := range b.Params[1:] {
			sub[prm] = vals[1+j]
		}
		for j, v := range extraVals {
			sub[v] = vals[len(init)+j]
		}
		out, err := c.block(b, sub)
		if err != nil {
			panic(err)
		}
		next, ok := out[0].(*predicate)
		if !ok {
			panic(c.fail(n, "the body's condition is a %s, not a traced bool: %w", runtime.TypeName(out[0]), ErrNotFunctional))
		}
		res := []nn.Value{next.t}
		for j, o := range out[1:] {
			v, err := toNN(o)
			if err != nil {
				panic(c.fail(n, "loop-carried value %d: %v", j, err))
			}
			res = append(res, v)
		}
		return res
	}
	cond := func(vals ...nn.Value) nn.Value { return vals[0] }
	defer func() {
		if r := recover(); r != nil {
			if x, ok := r.(error); ok {
				err = c.wrap(n, x)
				return
			}
			panic(r)
		}
	}()
	out := functional.WhileLoop(cond, body, init, extra)
	res := make([]any, len(out)-1)
	for i, v := range out[1:] {
		res[i] = v
	}
	return c.set(n, e, res)
}
