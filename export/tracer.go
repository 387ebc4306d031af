package export

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// recorder is the state of one export trace: it implements nn.Tracer
// (and so ops.Tracer) for the proxies it hands to model code.
type recorder struct {
	g     *graph.Graph
	env   *sym.Env
	table decomp.Table

	root  nn.Module
	paths map[*nn.Base]string
	stack []node.ModuleFrame
	calls []ModuleCall

	// slots are the module's parameter and buffer slots, made to read as
	// the placeholders' proxies for the duration of the trace.
	slots []interface{ SetProxy(func() nn.Value) }
	// state maps a parameter or buffer name to its proxy, which in-place
	// operators rebind to the new value.
	state map[string]*tproxy
	// firstUser is the first user input's placeholder: lifted constants
	// are inserted before it.
	firstUser *node.Node
	consts    []liftedConst
	constOf   map[*tensor.Tensor]*tproxy
	// sizes caches the proxies of symbolic sizes, per tensor node and dim.
	sizes map[sizeKey]*sproxy
	// current, while replaying a graph, is the node being replayed: new
	// nodes take its stack_trace and nn_module_stack.
	current *node.Node
}

type sizeKey struct {
	n   *node.Node
	dim int
}

type liftedConst struct {
	name string // placeholder
	attr string // state name
	t    *tensor.Tensor
}

// tproxy is a traced tensor: the node computing it and its fake.
type tproxy struct {
	rec  *recorder
	n    *node.Node
	fake *shapeprop.Fake
	// meta is the tensor at the example sizes, with the strides gofx's
	// kernels would give it (for rules whose result depends on layout),
	// or nil if unknown.
	meta *tensor.Tensor
	// base is the tensor this one is a view of (nil if it is not a view);
	// views counts the views taken of this tensor.
	base  *tproxy
	views int
}

// TensorMeta returns the meta tensor at the example sizes of a traced
// tensor (decomp.MetaTracer): decompositions such as reshape choose a view
// or a copy from its strides.
func (r *recorder) TensorMeta(s ops.Symbolic) (*tensor.Tensor, bool) {
	p, ok := s.(*tproxy)
	if !ok || p.meta == nil {
		return nil, false
	}
	return p.meta, true
}

// hintMeta returns a contiguous meta tensor of f at the example sizes.
func (r *recorder) hintMeta(f *shapeprop.Fake) *tensor.Tensor {
	shape := make([]int, len(f.Shape))
	for i, d := range f.Shape {
		h, ok := r.env.Hint(d)
		if !ok {
			return nil
		}
		shape[i] = int(h)
	}
	m, err := tensor.NewMeta(f.DType, shape...)
	if err != nil {
		return nil
	}
	return m
}

// metaArg replaces traced values by their example-size metas.
func (r *recorder) metaArg(v any) (any, bool) {
	switch x := v.(type) {
	case nn.Value:
		return r.metaArg(x.Raw())
	case *tproxy:
		return x.meta, x.meta != nil
	case *sproxy:
		if x.cond != nil {
			return nil, false
		}
		h, ok := r.env.Hint(x.e)
		return h, ok
	case *tensor.Tensor:
		if x == nil {
			return nil, true
		}
		return x.Meta(), true
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			m, ok := r.metaArg(e)
			if !ok {
				return nil, false
			}
			out[i] = m
		}
		return out, true
	case []nn.Value:
		out := make([]any, len(x))
		for i, e := range x {
			m, ok := r.metaArg(e)
			if !ok {
				return nil, false
			}
			out[i] = m
		}
		return out, true
	}
	return v, true
}

// metas runs op's meta function at the example sizes, for the strides of
// its results; nil when that is not possible.
func (r *recorder) metas(op *ops.Operator, args []any, kwargs map[string]any) []any {
	margs := make([]any, len(args))
	for i, a := range args {
		m, ok := r.metaArg(a)
		if !ok {
			return nil
		}
		margs[i] = m
	}
	var mkw map[string]any
	if len(kwargs) > 0 {
		mkw = make(map[string]any, len(kwargs))
		for k, a := range kwargs {
			m, ok := r.metaArg(a)
			if !ok {
				return nil
			}
			mkw[k] = m
		}
	}
	out, err := op.Call(margs, mkw)
	if err != nil {
		return nil
	}
	return out
}

// setMeta attaches the meta result m (a meta tensor, or a list of them for
// a Tensor[] result) to a result proxy.
func setMeta(p any, m any) {
	switch x := p.(type) {
	case *tproxy:
		if t, ok := m.(*tensor.Tensor); ok && t != nil && t.IsMeta() {
			x.meta = t
		}
	case []any:
		ts, ok := m.([]*tensor.Tensor)
		if !ok || len(ts) != len(x) {
			return
		}
		for i := range x {
			setMeta(x[i], ts[i])
		}
	}
}

// Tracer returns the recorder (ops.Symbolic).
func (p *tproxy) Tracer() ops.Tracer { return p.rec }

// String returns "Proxy(name)".
func (p *tproxy) String() string { return "Proxy(" + p.n.Name() + ")" }

// sproxy is a traced symbolic number: a size (e) or the outcome of a
// comparison of sizes (cond).
type sproxy struct {
	rec  *recorder
	n    *node.Node
	e    sym.Expr
	cond *sym.Cond
}

// Tracer returns the recorder (ops.Symbolic).
func (s *sproxy) Tracer() ops.Tracer { return s.rec }

// IsNumber reports true: a symbolic size is a Python number (nn.Number).
func (s *sproxy) IsNumber() bool { return true }

// String returns the expression.
func (s *sproxy) String() string {
	if s.cond != nil {
		return s.cond.String()
	}
	return s.e.String()
}

// Concrete gives model code a Go value for a symbolic size or comparison
// (nn.Concreter): the comparison is decided by the shape environment,
// recording a guard when the ranges do not settle it; a size asked for as
// an int is specialized to its example value (a guard too).
func (s *sproxy) Concrete(what, where string) (any, error) {
	env := s.rec.env
	if s.cond != nil {
		ok, err := env.Decide(*s.cond, where)
		if err != nil {
			return nil, err
		}
		return ok, nil
	}
	if c, ok := env.Simplify(s.e).Const(); ok {
		return c, nil
	}
	h, ok := env.Hint(s.e)
	if !ok {
		return nil, fmt.Errorf("export: %s: %s needs the value of %s, which depends on tensor data", where, what, s.e)
	}
	if _, err := env.Decide(sym.Eq(s.e, sym.Const(h)), where); err != nil {
		return nil, err
	}
	return h, nil
}

func newRecorder(root nn.Module, env *sym.Env, table decomp.Table) *recorder {
	return &recorder{
		g: graph.New(), env: env, table: table, root: root,
		paths: map[*nn.Base]string{}, state: map[string]*tproxy{},
		constOf: map[*tensor.Tensor]*tproxy{}, sizes: map[sizeKey]*sproxy{},
	}
}

// where returns the model code's innermost Go location.
func where() string {
	if w := nn.Location(); w != "" {
		return w
	}
	return "(unknown location)"
}

// create adds a node with the current call site's metadata.
func (r *recorder) create(op node.Opcode, target node.Target, args []node.Arg, kwargs node.Kwargs, name string) (*node.Node, error) {
	n, err := r.g.CreateNode(op, target, args, kwargs, name)
	if err != nil {
		return nil, err
	}
	if r.current != nil && op != node.Placeholder && op != node.Output {
		if st, ok := node.StackTrace.Get(&r.current.Meta); ok {
			node.StackTrace.Set(&n.Meta, st)
		}
		if ms, ok := node.ModuleStack.Get(&r.current.Meta); ok {
			node.ModuleStack.Set(&n.Meta, ms)
		}
	} else if op != node.Placeholder && op != node.Output {
		if st := nn.StackTrace(); st != "" {
			node.StackTrace.Set(&n.Meta, st)
		}
		if len(r.stack) > 0 {
			node.ModuleStack.Set(&n.Meta, append([]node.ModuleFrame(nil), r.stack...))
		}
	}
	return n, nil
}

// placeholder adds a placeholder for a tensor with the given fake.
func (r *recorder) placeholder(name string, f *shapeprop.Fake) (*tproxy, error) {
	n, err := r.create(node.Placeholder, node.Path(name), nil, nil, name)
	if err != nil {
		return nil, err
	}
	node.Val.Set(&n.Meta, f)
	return &tproxy{rec: r, n: n, fake: f, meta: r.hintMeta(f)}, nil
}

// install makes the module's parameters and buffers read as their
// placeholders' proxies.
func (r *recorder) install() {
	for path, m := range nn.NamedModules(r.root) {
		r.paths[m.ModuleBase()] = path
	}
	hook := func(name string, s interface{ SetProxy(func() nn.Value) }) {
		r.slots = append(r.slots, s)
		s.SetProxy(func() nn.Value { return nn.Of(r.state[name]) })
	}
	for name, p := range nn.NamedParameters(r.root) {
		hook(name, p)
	}
	for name, b := range nn.NamedBuffers(r.root) {
		hook(name, b)
	}
}

func (r *recorder) uninstall() {
	for _, s := range r.slots {
		s.SetProxy(nil)
	}
}

// constant lifts a tensor the model code used that is not a parameter or
// buffer: a placeholder c_lifted_tensor_N before the user inputs.
func (r *recorder) constant(t *tensor.Tensor) (*tproxy, error) {
	if p, ok := r.constOf[t]; ok {
		return p, nil
	}
	i := len(r.consts)
	name := fmt.Sprintf("c_lifted_tensor_%d", i)
	var restore func()
	if r.firstUser != nil {
		restore = r.g.InsertingBefore(r.firstUser)
	}
	p, err := r.placeholder(name, shapeprop.FakeOf(t))
	if restore != nil {
		restore()
	}
	if err != nil {
		return nil, err
	}
	r.consts = append(r.consts, liftedConst{name: name, attr: fmt.Sprintf("lifted_tensor_%d", i), t: t})
	r.constOf[t] = p
	return p, nil
}

// value converts what model code passed into what the graph records
// (node.Arg) and what shape inference sees (fakes, symbolic sizes).
func (r *recorder) value(v any) (node.Arg, any, error) {
	if a, ok := node.ArgOf(v); ok {
		if i, isInt := v.(int); isInt {
			return a, int64(i), nil
		}
		return a, v, nil
	}
	switch x := v.(type) {
	case nn.Value:
		return r.value(x.Raw())
	case *tproxy:
		if x.rec != r {
			return nil, nil, errors.New("a proxy of another export")
		}
		return x.n, x.fake, nil
	case *sproxy:
		if x.rec != r {
			return nil, nil, errors.New("a symbolic size of another export")
		}
		if x.cond != nil {
			return nil, nil, fmt.Errorf("the symbolic condition %s cannot be an operator argument; decide it with Bool()", x.cond)
		}
		if c, ok := r.env.Simplify(x.e).Const(); ok {
			return node.Int(c), sym.Const(c), nil
		}
		return x.n, x.e, nil
	case tensor.DType:
		return nil, nil, fmt.Errorf("dtype %v has no graph spelling", x)
	case *tensor.Tensor:
		if x == nil {
			return node.None, nil, nil
		}
		p, err := r.constant(x)
		if err != nil {
			return nil, nil, err
		}
		return p.n, p.fake, nil
	case []any:
		return listValue(r, x)
	case []nn.Value:
		return listValue(r, x)
	case []int64:
		return listValue(r, x)
	case []int:
		return listValue(r, x)
	case []float64:
		return listValue(r, x)
	case []bool:
		return listValue(r, x)
	case []*tensor.Tensor:
		return listValue(r, x)
	}
	return nil, nil, fmt.Errorf("cannot record a %T in an exported graph", v)
}

func listValue[E any](r *recorder, xs []E) (node.Arg, any, error) {
	args := make(node.List, len(xs))
	vals := make([]any, len(xs))
	for i, e := range xs {
		a, v, err := r.value(e)
		if err != nil {
			return nil, nil, err
		}
		args[i], vals[i] = a, v
	}
	return args, vals, nil
}

// Trace records an operator call (ops.Tracer): decomposed by the table,
// functionalized if in-place, recorded with its fake results otherwise.
func (r *recorder) Trace(op *ops.Operator, args []any, kwargs map[string]any) ([]any, error) {
	if _, ok := r.table.Lookup(op); ok {
		out, _, err := decomp.Call(r.table, op, args, kwargs)
		if err != nil {
			return nil, fmt.Errorf("decomposing %s: %w", op, err)
		}
		return out, nil
	}
	if op.Has(ops.Inplace) {
		return r.inplace(op, args, kwargs)
	}
	if op.Has(ops.Mutable) {
		return nil, fmt.Errorf("export: %s writes one of its arguments (an out= or mutable form): only in-place operators on their self argument are functionalized", op)
	}
	return r.record(op, args, kwargs)
}

// record adds a call_function node of op and returns proxies for its
// results.
func (r *recorder) record(op *ops.Operator, args []any, kwargs map[string]any) ([]any, error) {
	nargs := make([]node.Arg, len(args))
	fargs := make([]any, len(args))
	for i, a := range args {
		na, fa, err := r.value(a)
		if err != nil {
			return nil, fmt.Errorf("%s: argument %d: %w", op, i, err)
		}
		nargs[i], fargs[i] = na, fa
	}
	var nkw node.Kwargs
	var fkw map[string]any
	if len(kwargs) > 0 {
		fkw = make(map[string]any, len(kwargs))
		for _, a := range op.Schema().Args {
			v, ok := kwargs[a.Name]
			if !ok {
				continue
			}
			na, fa, err := r.value(v)
			if err != nil {
				return nil, fmt.Errorf("%s: argument '%s': %w", op, a.Name, err)
			}
			nkw = append(nkw, node.Field{Name: a.Name, Value: na})
			fkw[a.Name] = fa
		}
	}
	res, err := shapeprop.Infer(r.env, op, fargs, fkw, where())
	if err != nil {
		return nil, err
	}
	n, err := r.create(node.CallFunction, op, nargs, nkw, "")
	if err != nil {
		return nil, err
	}
	metas := r.metas(op, args, kwargs)
	if len(metas) != len(res) {
		metas = make([]any, len(res))
	}
	if len(res) == 1 {
		if v := nodeValue(res[0]); v != nil {
			node.Val.Set(&n.Meta, v)
		}
		p, err := r.wrap(n, res[0])
		if err != nil {
			return nil, err
		}
		setMeta(p, metas[0])
		if tp, ok := p.(*tproxy); ok && op.Has(ops.View) {
			if self, ok := firstProxy(args); ok {
				tp.base = self
				if self.base != nil {
					tp.base = self.base
				}
				tp.base.views++
			}
		}
		return []any{p}, nil
	}
	tuple := make(node.ValueTuple, len(res))
	for i, x := range res {
		tuple[i] = nodeValue(x)
	}
	node.Val.Set(&n.Meta, tuple)
	out := make([]any, len(res))
	for i, x := range res {
		gi, err := r.create(node.CallFunction, nn.GetItem, []node.Arg{n, node.Int(i)}, nil, "")
		if err != nil {
			return nil, err
		}
		if v := nodeValue(x); v != nil {
			node.Val.Set(&gi.Meta, v)
		}
		if out[i], err = r.wrap(gi, x); err != nil {
			return nil, err
		}
		setMeta(out[i], metas[i])
	}
	return out, nil
}

func firstProxy(args []any) (*tproxy, bool) {
	if len(args) == 0 {
		return nil, false
	}
	switch x := args[0].(type) {
	case *tproxy:
		return x, true
	case nn.Value:
		p, ok := x.Raw().(*tproxy)
		return p, ok
	}
	return nil, false
}

// nodeValue is what a node records as its val.
func nodeValue(x any) node.Value {
	switch v := x.(type) {
	case *shapeprop.Fake:
		return v
	case sym.Expr:
		return v
	case []*shapeprop.Fake:
		t := make(node.ValueTuple, len(v))
		for i, f := range v {
			t[i] = f
		}
		return t
	}
	return nil
}

// wrap returns the proxy model code gets for a result computed by n.
func (r *recorder) wrap(n *node.Node, x any) (any, error) {
	switch v := x.(type) {
	case *shapeprop.Fake:
		return &tproxy{rec: r, n: n, fake: v}, nil
	case sym.Expr:
		if c, ok := v.Const(); ok {
			return c, nil
		}
		return &sproxy{rec: r, n: n, e: v}, nil
	case []*shapeprop.Fake:
		out := make([]any, len(v))
		for i, f := range v {
			gi, err := r.create(node.CallFunction, nn.GetItem, []node.Arg{n, node.Int(i)}, nil, "")
			if err != nil {
				return nil, err
			}
			node.Val.Set(&gi.Meta, f)
			out[i] = &tproxy{rec: r, n: gi, fake: f}
		}
		return out, nil
	case float64, bool, int64:
		return v, nil
	case ops.Scalar:
		return v.Value(), nil
	}
	return nil, fmt.Errorf("export: %s: unexpected result %T", n.Name(), x)
}

// inplace functionalizes an in-place operator: the functional operator is
// recorded and self's proxy is rebound to its result, so that model code
// holding self sees the new value and a mutated buffer or input is known.
func (r *recorder) inplace(op *ops.Operator, args []any, kwargs map[string]any) ([]any, error) {
	self, ok := firstProxy(args)
	if !ok {
		return nil, fmt.Errorf("export: %s: self is not a traced tensor", op)
	}
	if self.base != nil {
		return nil, fmt.Errorf("export: %s at %s writes into a view of %s: functionalizing mutations through views is not supported; clone the view first", op, where(), self.base.n.Name())
	}
	if self.views > 0 {
		return nil, fmt.Errorf("export: %s at %s writes into %s, which has views: functionalizing mutations seen through views is not supported; clone before mutating", op, where(), self.n.Name())
	}
	fn, err := functional(op)
	if err != nil {
		return nil, err
	}
	out, err := r.Trace(fn, args, kwargs)
	if err != nil {
		return nil, err
	}
	res, ok := out[0].(*tproxy)
	if !ok {
		return nil, fmt.Errorf("export: %s: the functional %s did not return a tensor", op, fn)
	}
	if !sameShape(r.env, res.fake, self.fake) {
		return nil, fmt.Errorf("export: %s at %s: output with shape %s doesn't match the broadcast shape %s", op, where(), shapeString(self.fake), shapeString(res.fake))
	}
	if res.fake.DType != self.fake.DType {
		if !canCast(res.fake.DType, self.fake.DType) {
			return nil, fmt.Errorf("export: %s at %s: result type %s can't be cast to the desired output type %s", op, where(), res.fake.DType, self.fake.DType)
		}
		cast, err := r.record(toCopy, []any{res}, map[string]any{"dtype": self.fake.DType})
		if err != nil {
			return nil, err
		}
		res = cast[0].(*tproxy)
	}
	self.n, self.fake, self.meta = res.n, res.fake, res.meta
	return []any{self}, nil
}

var toCopy = nn.Op("aten::_to_copy")

// functional returns the out-of-place variant of an in-place operator
// (aten::add_.Tensor -> aten::add.Tensor).
func functional(op *ops.Operator) (*ops.Operator, error) {
	s := op.Schema()
	name := strings.TrimSuffix(s.Name, "_")
	q := s.Namespace + "::" + name
	if s.Overload != "" {
		q += "." + s.Overload
	}
	fn, ok := ops.Global().Lookup(q)
	if !ok {
		return nil, fmt.Errorf("export: in-place operator %s has no functional variant %s to record", op, q)
	}
	return fn, nil
}

// canCast is torch.can_cast: no cast to a lower category (float to int,
// int to bool).
func canCast(from, to tensor.DType) bool {
	cat := func(d tensor.DType) int {
		switch {
		case d == tensor.Bool:
			return 0
		case d.IsFloat():
			return 2
		}
		return 1
	}
	return cat(from) <= cat(to)
}

func sameShape(env *sym.Env, a, b *shapeprop.Fake) bool {
	if len(a.Shape) != len(b.Shape) {
		return false
	}
	for i := range a.Shape {
		if !env.Simplify(a.Shape[i]).Equal(env.Simplify(b.Shape[i])) {
			return false
		}
	}
	return true
}

func shapeString(f *shapeprop.Fake) string {
	parts := make([]string, len(f.Shape))
	for i, d := range f.Shape {
		parts[i] = d.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// size returns dimension dim of a traced tensor: an int for a static
// size, the proxy of aten.sym_size.int for a symbolic one.
func (r *recorder) size(p *tproxy, dim int) (nn.Value, error) {
	d := r.env.Simplify(p.fake.Shape[dim])
	if c, ok := d.Const(); ok {
		return nn.Of(c), nil
	}
	k := sizeKey{p.n, dim}
	if s, ok := r.sizes[k]; ok {
		return nn.Of(s), nil
	}
	n, err := r.create(node.CallFunction, symSize, []node.Arg{p.n, node.Int(dim)}, nil, "")
	if err != nil {
		return nn.None, err
	}
	node.Val.Set(&n.Meta, d)
	s := &sproxy{rec: r, n: n, e: d}
	r.sizes[k] = s
	return nn.Of(s), nil
}

var symSize = nn.Op("aten::sym_size.int")

func (r *recorder) shape(p *tproxy) (nn.Value, error) {
	out := make([]nn.Value, len(p.fake.Shape))
	for i := range out {
		v, err := r.size(p, i)
		if err != nil {
			return nn.None, err
		}
		out[i] = v
	}
	return nn.Tuple(out...), nil
}

// TraceFunction handles a Python-level function (nn.Tracer): shapes and
// dtypes are answered from the fakes, Python operators on sizes are
// computed symbolically, other functions run their Go implementation on
// the proxies.
func (r *recorder) TraceFunction(fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	switch fn {
	case nn.GetAttr:
		if len(args) == 2 {
			if p, ok := args[0].Raw().(*tproxy); ok {
				name, _ := args[1].Raw().(string)
				switch name {
				case "shape":
					return r.shape(p)
				case "dtype":
					return nn.Of(p.fake.DType), nil
				case "ndim":
					return nn.Of(len(p.fake.Shape)), nil
				}
			}
		}
	case nn.GetItem:
		if len(args) == 2 {
			if _, ok := args[0].Raw().(*tproxy); ok {
				return nn.Apply(nn.Op("aten::select.int"), []nn.Value{args[0], nn.Of(0), args[1]}, nil)
			}
		}
	}
	if isSymOp(fn) {
		return r.symOp(fn, args)
	}
	impl, ok := nn.LookupFunctionImpl(fn)
	if !ok {
		return nn.None, fmt.Errorf("export: function %s has no Go implementation to trace through", fn)
	}
	return impl(args, kwargs)
}

// TraceMethod runs a tensor method's Go implementation on the proxies, so
// that the operators it calls are recorded (nn.Tracer).
func (r *recorder) TraceMethod(name string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	p, ok := args[0].Raw().(*tproxy)
	if !ok {
		return nn.None, fmt.Errorf("export: method %s: self must be a tensor, got %s", name, args[0].Kind())
	}
	switch name {
	case "size":
		if len(args) == 1 && len(kwargs) == 0 {
			return r.shape(p)
		}
		d := args[len(args)-1]
		if len(args) == 1 {
			d = kwargs["dim"]
		}
		i, ok := d.Raw().(int64)
		if !ok {
			return nn.None, fmt.Errorf("export: method size: dim must be an int, got %s", d.Kind())
		}
		nd := int64(len(p.fake.Shape))
		if i < -nd || i >= nd {
			return nn.None, fmt.Errorf("export: method size: dimension out of range (expected to be in range of [%d, %d], but got %d)", -nd, nd-1, i)
		}
		if i < 0 {
			i += nd
		}
		return r.size(p, int(i))
	case "dim":
		return nn.Of(len(p.fake.Shape)), nil
	}
	impl, ok := nn.LookupMethod(name)
	if !ok {
		return nn.None, fmt.Errorf("export: tensor has no method %q in gofx", name)
	}
	return impl(args, kwargs)
}

// TraceModule inlines every module call, keeping nn_module_stack and the
// module call graph (nn.Tracer).
func (r *recorder) TraceModule(m nn.Module, args []nn.Value, forward func() (nn.Value, error)) (nn.Value, error) {
	path, ok := r.paths[m.ModuleBase()]
	if !ok {
		return nn.None, fmt.Errorf("export: a %s module called during export is not a submodule of the exported module: register it in the module tree (nn.RegisterModule)", m.ModuleBase().TypeName())
	}
	saved := r.stack
	r.stack = append(append([]node.ModuleFrame(nil), r.stack...), node.ModuleFrame{Path: path, Type: m.ModuleBase().TypeName()})
	defer func() { r.stack = saved }()
	call := len(r.calls)
	r.calls = append(r.calls, ModuleCall{FQN: path, Type: m.ModuleBase().TypeName(), Inputs: r.names(args)})
	out, err := forward()
	if err != nil {
		return out, err
	}
	r.calls[call].Outputs = r.names([]nn.Value{out})
	return out, nil
}

// names returns the graph names of the traced values among vs.
func (r *recorder) names(vs []nn.Value) []string {
	var out []string
	var walk func(v nn.Value)
	walk = func(v nn.Value) {
		switch x := v.Raw().(type) {
		case *tproxy:
			out = append(out, x.n.Name())
		case *sproxy:
			if x.n != nil {
				out = append(out, x.n.Name())
			}
		case []any:
			for _, e := range x {
				walk(nn.Of(e))
			}
		}
	}
	for _, v := range vs {
		walk(v)
	}
	return out
}

// DataDependentError is the error for model code that needs a concrete
// value computed from tensor data while being exported.
type DataDependentError struct {
	What     string
	Location string
}

func (e *DataDependentError) Error() string {
	return fmt.Sprintf("export: %s: the model needs %s from a traced tensor: control flow on tensor data cannot be exported. "+
		"Compute both branches and select with aten::where (F.Where), or keep the decision on Go values (non-tensor inputs are specialized)",
		e.Location, e.What)
}

// ConcreteError reports data-dependent control flow (nn.Tracer).
func (r *recorder) ConcreteError(what, where string) error {
	return &DataDependentError{What: what, Location: where}
}
