package export

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/record"
	"github.com/gofx/gofx/internal/tracing"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// recorder is export's policy for the one recorder (record.Policy):
// modules are inlined (keeping nn_module_stack and the module call graph),
// every value has a fake (shapeprop.Fake) computed by shape inference,
// in-place operators are functionalized (their self proxy rebound to the
// functional result), operators with a rule in the table are decomposed,
// parameters, buffers and constants are placeholders, and sizes are
// symbolic (sproxy).
type recorder struct {
	// merged holds, for output i of a cond's true branch, the merged val
	// of the cond's result i when the branches differ in size
	// (MergeBranches), until SubgraphResult takes it.
	merged map[*node.Node]*shapeprop.Fake
	// replayVal is, while RunDecompositions replays a node, the node's
	// recorded val (nil otherwise).
	replayVal node.Value
	// keepConds records comparisons of sizes as nodes (RunDecompositions:
	// the program's runtime assertions take them) instead of leaving them
	// to be decided.
	keepConds bool
	record.Defaults
	rec   *record.Recorder
	env   *sym.Env
	table decomp.Table
	calls []ModuleCall

	// state maps a parameter or buffer name to its proxy, which in-place
	// operators rebind to the new value; the module's parameter and buffer
	// slots read as these proxies for the duration of the trace.
	state map[string]*record.Proxy
	// firstUser is the first user input's placeholder: lifted constants
	// are inserted before it.
	firstUser *node.Node
	consts    []liftedConst
	constOf   map[*tensor.Tensor]*record.Proxy
	// syms holds the proxy of each symbolic integer recorded so far, by
	// its simplified expression: a size read again, or computed again by
	// the same Python arithmetic, reuses the node that has it, as
	// PyTorch's tracer finds a SymInt's proxy instead of recording a new
	// one (one sym_size.int per dimension, one operator.mul per product).
	syms map[string]*sproxy
	// specialized lists the conds with a constant predicate (controlflow.go).
	specialized []string
}

type liftedConst struct {
	name string // placeholder
	attr string // state name
	t    *tensor.Tensor
}

// tensorInfo is what export keeps with a traced tensor's proxy
// (record.Proxy's data): its fake, and for rules whose result depends on
// layout, the tensor at the example sizes with the strides gofx's kernels
// would give it (meta, nil if unknown). base is the tensor this one is a
// view of (nil if it is not a view); views counts the views taken of this
// tensor.
type tensorInfo struct {
	fake  *shapeprop.Fake
	meta  *tensor.Tensor
	base  *record.Proxy
	views int
	// view is how a view was taken (nil if this is not one): from which
	// tensor, by which operator, with which arguments; writes through the
	// view are written back into its base through it.
	view *viewOf
	// gen counts the writes into a base (and its views); a view records
	// its base's gen when taken or written, and is stale after a later
	// write into the base.
	gen int
}

// tensorBox is a traced tensor's proxy and its info, allocated together.
type tensorBox struct {
	p  record.Proxy
	ti tensorInfo
}

// newTensor returns the proxy of a traced tensor computed by n, with info.
func (r *recorder) newTensor(n *node.Node, ti tensorInfo) *record.Proxy {
	b := &tensorBox{ti: ti}
	r.rec.InitProxy(&b.p, n, &b.ti)
	return &b.p
}

// info returns a traced tensor's tensorInfo, or nil for a proxy that is
// not one of export's tensors.
func info(p *record.Proxy) *tensorInfo {
	ti, _ := record.Data(p).(*tensorInfo)
	return ti
}

// tensorProxy returns v as a traced tensor of r, with its info.
func (r *recorder) tensorProxy(v any) (*record.Proxy, *tensorInfo, bool) {
	if x, ok := v.(nn.Value); ok {
		v = x.Raw()
	}
	p, ok := v.(*record.Proxy)
	if !ok || record.RecorderOf(p) != r.rec {
		return nil, nil, false
	}
	ti := info(p)
	return p, ti, ti != nil
}

// TensorMeta returns the meta tensor at the example sizes of a traced
// tensor (decomp.MetaTracer, through the recorder): decompositions such as
// reshape choose a view or a copy from its strides.
func (r *recorder) TensorMeta(p *record.Proxy) (*tensor.Tensor, bool) {
	ti := info(p)
	if ti == nil || ti.meta == nil {
		return nil, false
	}
	return ti.meta, true
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
	case *record.Proxy:
		ti := info(x)
		if ti == nil {
			return nil, false
		}
		return ti.meta, ti.meta != nil
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
	case *record.Proxy:
		if t, ok := m.(*tensor.Tensor); ok && t != nil && t.IsMeta() {
			if ti := info(x); ti != nil {
				ti.meta = t
			}
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

// sproxy is a traced symbolic number: a size (e) or the outcome of a
// comparison of sizes (cond).
type sproxy struct {
	rec  *recorder
	n    *node.Node
	e    sym.Expr
	cond *sym.Cond
	// fn and args record a comparison without a node (cond), for
	// functional.Cond to record it as its predicate.
	fn   node.Function
	args []node.Arg
}

// Tracer returns the recorder (ops.Symbolic).
func (s *sproxy) Tracer() ops.Tracer { return s.rec.rec }

// IsNumber reports true: a symbolic size is a Python number (nn's number).
func (s *sproxy) IsNumber() bool { return true }

// String returns the expression.
func (s *sproxy) String() string {
	if s.cond != nil {
		return s.cond.String()
	}
	return s.e.String()
}

// Concrete gives model code a Go value for a symbolic size or comparison
// (nn's concreter): the comparison is decided by the shape environment,
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
	r := &recorder{
		env: env, table: table, state: map[string]*record.Proxy{},
		constOf: map[*tensor.Tensor]*record.Proxy{}, syms: map[string]*sproxy{},
	}
	r.rec = record.New(graph.New(), root, r)
	return r
}

// where returns the model code's innermost Go location.
func where() string {
	if w := tracing.Location(); w != "" {
		return w
	}
	return "(unknown location)"
}

// placeholder adds a placeholder for a tensor with the given fake.
func (r *recorder) placeholder(name string, f *shapeprop.Fake) (*record.Proxy, error) {
	n, err := r.rec.Create(node.Placeholder, node.Path(name), nil, nil, name, f)
	if err != nil {
		return nil, err
	}
	return r.newTensor(n, tensorInfo{fake: f, meta: r.hintMeta(f)}), nil
}

// install makes the module's parameters and buffers read as their
// placeholders' proxies.
func (r *recorder) install() {
	r.rec.Install(func(name string) nn.Value { return nn.Of(r.state[name]) })
}

// constant lifts a tensor the model code used that is not a parameter or
// buffer: a placeholder c_lifted_tensor_N before the user inputs.
func (r *recorder) constant(t *tensor.Tensor) (*record.Proxy, error) {
	if p, ok := r.constOf[t]; ok {
		return p, nil
	}
	defer r.rec.AtRoot()() // a constant a branch uses is the program's, lifted into the branch
	i := len(r.consts)
	name := fmt.Sprintf("c_lifted_tensor_%d", i)
	var restore func()
	if r.firstUser != nil {
		restore = r.rec.Graph().InsertingBefore(r.firstUser)
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

// Constant lifts a tensor (record.Policy).
func (r *recorder) Constant(_ *record.Recorder, t *tensor.Tensor) (node.Arg, error) {
	p, err := r.constant(t)
	if err != nil {
		return nil, err
	}
	return p.Node(), nil
}

// Symbolic records a symbolic size as its node, or as the constant it
// simplifies to (record.Policy).
func (r *recorder) Symbolic(_ *record.Recorder, s ops.Symbolic) (node.Arg, error) {
	x, ok := s.(*sproxy)
	if !ok {
		return nil, fmt.Errorf("cannot record a %T in an exported graph", s)
	}
	if x.cond != nil {
		if x.n != nil {
			return x.n, nil // a comparison recorded as a node (keepConds)
		}
		return nil, fmt.Errorf("the symbolic condition %s cannot be an operator argument; decide it with Bool()", x.cond)
	}
	if c, ok := r.env.Simplify(x.e).Const(); ok {
		return node.Int(c), nil
	}
	return x.n, nil
}

// fake converts what model code passed to an operator (already recorded
// as node arguments, so constants are lifted) into what shape inference
// sees: fakes for tensors, expressions for symbolic sizes.
func (r *recorder) fake(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case nn.Value:
		return r.fake(x.Raw())
	case *record.Proxy:
		if ti := info(x); ti != nil {
			return ti.fake
		}
		return nil
	case *sproxy:
		if c, ok := r.env.Simplify(x.e).Const(); ok {
			return sym.Const(c)
		}
		return x.e
	case *tensor.Tensor:
		if x == nil {
			return nil
		}
		if p, ok := r.constOf[x]; ok {
			return info(p).fake
		}
		return nil
	case []any:
		return fakeList(r, x)
	case []nn.Value:
		return fakeList(r, x)
	case []*tensor.Tensor:
		return fakeList(r, x)
	}
	return v
}

func fakeList[E any](r *recorder, xs []E) []any {
	out := make([]any, len(xs))
	for i, e := range xs {
		out[i] = r.fake(e)
	}
	return out
}

// Operator records an operator call (record.Policy): decomposed by the
// table, functionalized if in-place, recorded with its fake results
// otherwise.
func (r *recorder) Operator(_ *record.Recorder, op *ops.Operator, args []any, kwargs map[string]any) ([]any, error) {
	if op == symSize && len(args) == 2 && len(kwargs) == 0 {
		// sym_size.int(x, dim) (a loaded program's) reads the size as
		// x.size(dim) does, sharing its node.
		if p, ti, ok := r.tensorProxy(args[0]); ok {
			if dim, ok := args[1].(int64); ok && dim >= -int64(len(ti.fake.Shape)) && dim < int64(len(ti.fake.Shape)) {
				if dim < 0 {
					dim += int64(len(ti.fake.Shape))
				}
				v, err := r.size(p, int(dim))
				if err != nil {
					return nil, err
				}
				return []any{v.Raw()}, nil
			}
		}
	}
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
		return r.mutable(op, args, kwargs)
	}
	return r.record(op, args, kwargs)
}

// record adds a call_function node of op and returns proxies for its
// results.
func (r *recorder) record(op *ops.Operator, args []any, kwargs map[string]any) ([]any, error) {
	for _, a := range args {
		if p, ti, ok := r.tensorProxy(a); ok && ti.base != nil {
			if err := r.checkFresh(op, p); err != nil {
				return nil, err
			}
		}
	}
	var buf [8]node.Arg // the node copies its arguments
	nargs, nkw, err := r.rec.AppendOpArgs(buf[:0], op, args, kwargs)
	if err != nil {
		return nil, err
	}
	fargs := make([]any, len(args))
	for i, a := range args {
		fargs[i] = r.fake(a)
	}
	var fkw map[string]any
	if len(kwargs) > 0 {
		fkw = make(map[string]any, len(kwargs))
		for k, v := range kwargs {
			fkw[k] = r.fake(v)
		}
	}
	res, probed := r.replayedUnbacked(op)
	if !probed {
		res, probed = r.probeShapes(op, args, kwargs)
	}
	if !probed {
		if res, err = shapeprop.Infer(r.env, op, fargs, fkw, where()); err != nil {
			// Replaying a loaded program: an operator whose result
			// depends on data (item, nonzero) keeps the val the file
			// recorded, with its unbacked symbols.
			var ok bool
			if res, ok = recordedResults(r.replayVal); !ok {
				return nil, err
			}
		}
	}
	var val node.Value
	if len(res) == 1 {
		val = nodeValue(res[0])
	} else {
		tuple := make(node.ValueTuple, len(res))
		for i, x := range res {
			tuple[i] = nodeValue(x)
		}
		val = tuple
	}
	n, err := r.rec.Create(node.CallFunction, op, nargs, nkw, "", val)
	if err != nil {
		return nil, err
	}
	metas := r.metas(op, args, kwargs)
	if len(metas) != len(res) {
		metas = make([]any, len(res))
	}
	if len(res) == 1 {
		p, err := r.wrap(n, res[0])
		if err != nil {
			return nil, err
		}
		setMeta(p, metas[0])
		if isView(op) {
			r.tagView(op, args, kwargs, p)
		}
		return []any{p}, nil
	}
	// Every element's getitem node is created at once (not lazily, as fx
	// does): the program's node order and names follow torch.export's.
	out := make([]any, len(res))
	for i, x := range res {
		gi, err := r.rec.GetItem(n, i, nodeValue(x))
		if err != nil {
			return nil, err
		}
		if out[i], err = r.wrap(gi, x); err != nil {
			return nil, err
		}
		setMeta(out[i], metas[i])
		if isView(op) {
			r.tagView(op, args, kwargs, out[i])
		}
	}
	return out, nil
}

func firstProxy(args []any) (*record.Proxy, bool) {
	if len(args) == 0 {
		return nil, false
	}
	v := args[0]
	if x, ok := v.(nn.Value); ok {
		v = x.Raw()
	}
	p, ok := v.(*record.Proxy)
	return p, ok && info(p) != nil
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
		return r.newTensor(n, tensorInfo{fake: v}), nil
	case sym.Expr:
		if c, ok := v.Const(); ok {
			return c, nil
		}
		return &sproxy{rec: r, n: n, e: v}, nil
	case []*shapeprop.Fake:
		out := make([]any, len(v))
		for i, f := range v {
			gi, err := r.rec.GetItem(n, i, f)
			if err != nil {
				return nil, err
			}
			out[i] = r.newTensor(gi, tensorInfo{fake: f})
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
	si := info(self)
	if err := r.checkFresh(op, self); err != nil {
		return nil, err
	}
	fn, err := functional(op)
	if err != nil {
		return nil, err
	}
	out, err := r.Operator(r.rec, fn, args, kwargs)
	if err != nil {
		return nil, err
	}
	res, ri, ok := r.tensorProxy(out[0])
	if !ok {
		return nil, fmt.Errorf("export: %s: the functional %s did not return a tensor", op, fn)
	}
	if !sameShape(r.env, ri.fake, si.fake) {
		return nil, fmt.Errorf("export: %s at %s: output with shape %s doesn't match the broadcast shape %s", op, where(), shapeString(si.fake), shapeString(ri.fake))
	}
	if ri.fake.DType != si.fake.DType {
		if !canCast(ri.fake.DType, si.fake.DType) {
			return nil, fmt.Errorf("export: %s at %s: result type %s can't be cast to the desired output type %s", op, where(), ri.fake.DType, si.fake.DType)
		}
		cast, err := r.record(toCopy, []any{res}, map[string]any{"dtype": si.fake.DType})
		if err != nil {
			return nil, err
		}
		res = cast[0].(*record.Proxy)
		ri = info(res)
	}
	if si.base != nil {
		if err := r.writeBack(op, self, res); err != nil {
			return nil, err
		}
	} else if si.views > 0 {
		si.gen++ // the views taken so far are stale
	}
	si.fake, si.meta = ri.fake, ri.meta
	record.Rebind(self, res.Node(), si)
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
func (r *recorder) size(p *record.Proxy, dim int) (nn.Value, error) {
	d := r.env.Simplify(info(p).fake.Shape[dim])
	if c, ok := d.Const(); ok {
		return nn.Of(c), nil
	}
	if s, ok := r.syms[d.String()]; ok {
		return nn.Of(s), nil
	}
	n, err := r.rec.Create(node.CallFunction, symSize, []node.Arg{p.Node(), node.Int(dim)}, nil, symSizeName, d)
	if err != nil {
		return nn.None, err
	}
	return nn.Of(r.symProxy(n, d)), nil
}

// symProxy returns the proxy of the symbolic integer e, which n computes,
// and keeps it for the next size or arithmetic that gives e.
func (r *recorder) symProxy(n *node.Node, e sym.Expr) *sproxy {
	s := &sproxy{rec: r, n: n, e: e}
	r.syms[e.String()] = s
	return s
}

var symSize = nn.Op("aten::sym_size.int")

// symSizeName is the name of a size node: PyTorch names the nodes of
// aten.sym_size.int by the whole overload (sym_size_int, sym_size_int_1,
// ...), not by the operator as other ATen nodes (add, add_1).
const symSizeName = "sym_size_int"

func (r *recorder) shape(p *record.Proxy) (nn.Value, error) {
	out := make([]nn.Value, len(info(p).fake.Shape))
	for i := range out {
		v, err := r.size(p, i)
		if err != nil {
			return nn.None, err
		}
		out[i] = v
	}
	return nn.Tuple(out...), nil
}

// Function handles a Python-level function (record.Policy): shapes and
// dtypes are answered from the fakes, Python operators on sizes are
// computed symbolically, other functions run their Go implementation on
// the proxies.
func (r *recorder) Function(_ *record.Recorder, fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if v, ok, err := r.unbackedFunction(fn, args); ok {
		return v, err // functional.Check and friends (unbacked.go)
	}
	switch fn {
	case nn.GetAttr:
		if len(args) == 2 {
			if p, ti, ok := r.tensorProxy(args[0]); ok {
				name, _ := args[1].Raw().(string)
				switch name {
				case "shape":
					return r.shape(p)
				case "dtype":
					return nn.Of(ti.fake.DType), nil
				case "ndim":
					return nn.Of(len(ti.fake.Shape)), nil
				}
			}
		}
	case nn.GetItem:
		// x[i] with an int is select.int on dim 0; slices, Ellipsis, None
		// and tuples of them go through nn's getitem, which applies
		// select/slice/unsqueeze dimension by dimension on the proxies.
		if len(args) == 2 && args[1].Kind() == "int" {
			if _, _, ok := r.tensorProxy(args[0]); ok {
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

// Method runs a tensor method's Go implementation on the proxies, so
// that the operators it calls are recorded (record.Policy).
func (r *recorder) Method(_ *record.Recorder, name string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	p, ti, ok := r.tensorProxy(args[0])
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
		nd := int64(len(ti.fake.Shape))
		if i < -nd || i >= nd {
			return nn.None, fmt.Errorf("export: method size: dimension out of range (expected to be in range of [%d, %d], but got %d)", -nd, nd-1, i)
		}
		if i < 0 {
			i += nd
		}
		return r.size(p, int(i))
	case "dim":
		return nn.Of(len(ti.fake.Shape)), nil
	}
	impl, ok := nn.LookupMethod(name)
	if !ok {
		return nn.None, fmt.Errorf("export: tensor has no method %q in gofx", name)
	}
	return impl(args, kwargs)
}

// Module inlines every module call, keeping nn_module_stack and the
// module call graph (record.Policy).
func (r *recorder) Module(rec *record.Recorder, m nn.Module, args []nn.Value, forward func() (nn.Value, error)) (nn.Value, error) {
	path, ok := rec.ModulePath(m)
	if !ok {
		return nn.None, fmt.Errorf("export: a %s module called during export is not a submodule of the exported module: register it in the module tree (nn.RegisterModule)", m.ModuleBase().TypeName())
	}
	defer rec.Exit(rec.Enter(m, path))
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
		if v.IsDict() {
			for _, k := range v.Keys() {
				walk(v.Get(k))
			}
			return
		}
		switch x := v.Raw().(type) {
		case *record.Proxy:
			out = append(out, x.Node().Name())
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

// DataDependent reports data-dependent control flow: an *fx.TraceError
// (record.Policy).
func (r *recorder) DataDependent(what, where string) error {
	return &fx.TraceError{What: what, Location: where, Tracer: "export"}
}

// recordedResults turns a node's recorded val (a fake tensor, a symbolic
// size, or a tuple of them) into shape inference's results.
func recordedResults(v node.Value) ([]any, bool) {
	switch x := v.(type) {
	case *shapeprop.Fake, sym.Expr:
		return []any{x}, true
	case node.ValueTuple:
		out := make([]any, len(x))
		for i, e := range x {
			switch e.(type) {
			case *shapeprop.Fake, sym.Expr:
				out[i] = e
			default:
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}
