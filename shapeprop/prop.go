package shapeprop

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/internal/record"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// Propagate is torch.fx's ShapeProp: it runs gm on concrete inputs
// through the interpreter and records node.Val on every node whose value
// is a tensor (a node.TensorMeta) or a tuple of tensors (a
// node.ValueTuple of them). It returns gm's output.
func Propagate(gm *fx.GraphModule, inputs ...nn.Value) (nn.Value, error) {
	if gm == nil || gm.Graph == nil {
		return nn.None, errors.New("shapeprop.Propagate: nil GraphModule")
	}
	p := &concreteProp{Interpreter: interp.New(gm.Graph, gm)}
	p.Steps = p
	return p.Run(inputs...)
}

// concreteProp records the metadata of concrete values.
type concreteProp struct{ *interp.Interpreter }

// RunNode runs n and records its value's metadata.
func (p *concreteProp) RunNode(n *node.Node) (nn.Value, error) {
	v, err := p.Interpreter.RunNode(n)
	if err != nil {
		return v, err
	}
	if m := concreteMeta(v); m != nil {
		node.Val.Set(&n.Meta, m)
	}
	return v, nil
}

func concreteMeta(v nn.Value) node.Value {
	if t := v.Tensor(); t != nil {
		return tensorMeta(t)
	}
	if !v.IsTuple() {
		return nil
	}
	es := v.Tuple()
	if len(es) == 0 {
		return nil
	}
	out := make(node.ValueTuple, len(es))
	for i, e := range es {
		t := e.Tensor()
		if t == nil {
			return nil
		}
		out[i] = tensorMeta(t)
	}
	return out
}

// MetaOf returns n's recorded value as a TensorMeta, whether Propagate (a
// TensorMeta) or FakeProp (a *Fake) recorded it.
func MetaOf(n *node.Node) (node.TensorMeta, bool) {
	v, ok := node.Val.Get(&n.Meta)
	if !ok {
		return node.TensorMeta{}, false
	}
	switch x := v.(type) {
	case node.TensorMeta:
		return x, true
	case *Fake:
		return x.Meta(), true
	}
	return node.TensorMeta{}, false
}

// FakeProp runs gm on fake values only, without running a kernel: every
// operator call goes through Infer, standard layers run their Forward on
// fakes, tensor methods and Python-level functions (getattr(x, "shape"),
// operator.getitem) work on fakes and symbolic ints. It records node.Val
// on every node: a *Fake for a tensor, a node.ValueTuple for a tuple, a
// sym.Expr for an int (sym_size, an element of a shape). inputs are *Fake
// or *tensor.Tensor (a concrete tensor is its static fake), or ints (int,
// int64, sym.Expr) for int inputs; env holds the symbols of their shapes
// and records the guards the run needs. Parameters, buffers and constants
// are static fakes of the real tensors, which are never written. It
// returns the output values (the elements of a tuple output), as *Fake,
// sym.Expr or other plain values.
func FakeProp(gm *fx.GraphModule, env *sym.Env, inputs ...any) ([]any, error) {
	if gm == nil || gm.Graph == nil {
		return nil, errors.New("shapeprop.FakeProp: nil GraphModule")
	}
	if env == nil {
		return nil, errors.New("shapeprop.FakeProp: nil sym.Env")
	}
	p := &fakeProp{Interpreter: interp.New(gm.Graph, gm), env: env, h: newHinter(env)}
	p.Steps = p
	vals := make([]nn.Value, len(inputs))
	for i, in := range inputs {
		switch x := in.(type) {
		case *Fake:
			if x == nil {
				return nil, fmt.Errorf("shapeprop.FakeProp: input %d is a nil *Fake", i)
			}
			vals[i] = nn.Of(&fakeTensor{f: x, p: p})
		case *tensor.Tensor:
			if x == nil {
				return nil, fmt.Errorf("shapeprop.FakeProp: input %d is a nil tensor", i)
			}
			vals[i] = nn.Of(&fakeTensor{f: FakeOf(x), p: p})
		case nn.Value:
			vals[i] = p.wrapValue(x)
		default:
			e, ok := toExpr(in)
			if !ok {
				return nil, fmt.Errorf("shapeprop.FakeProp: input %d: expected a *Fake, a *tensor.Tensor or an int, got %T", i, in)
			}
			vals[i] = p.wrapExpr(e)
		}
	}
	out, err := p.Run(vals...)
	if err != nil {
		return nil, err
	}
	if out.IsTuple() {
		es := out.Tuple()
		res := make([]any, len(es))
		for i, e := range es {
			res[i] = unwrap(e)
		}
		return res, nil
	}
	return []any{unwrap(out)}, nil
}

// fakeTensor is a tensor Value of a FakeProp run: the run's tracer gets
// every operator call on it.
type fakeTensor struct {
	f *Fake
	p *fakeProp
}

// Tracer returns the run (ops.Symbolic).
func (t *fakeTensor) Tracer() ops.Tracer { return t.p }

// String returns the fake's spelling.
func (t *fakeTensor) String() string { return t.f.String() }

// symInt is a symbolic int Value of a FakeProp run (a size).
type symInt struct {
	e sym.Expr
	p *fakeProp
}

// Tracer returns the run (ops.Symbolic).
func (s *symInt) Tracer() ops.Tracer { return s.p }

// String returns the expression.
func (s *symInt) String() string { return s.e.String() }

// fakeProp is a FakeProp run: the interpreter's steps and the tracer of
// its fake values.
type fakeProp struct {
	*interp.Interpreter
	env   *sym.Env
	h     *hinter
	where string
}

var _ record.Tracer = (*fakeProp)(nil)

// RunNode runs n on fakes and records its value.
func (p *fakeProp) RunNode(n *node.Node) (nn.Value, error) {
	p.where = whereOf(n)
	v, err := p.Interpreter.RunNode(n)
	if err != nil {
		return v, err
	}
	if m := fakeMeta(v); m != nil {
		node.Val.Set(&n.Meta, m)
	}
	return v, nil
}

// whereOf is the user's source location of n: the innermost frame of its
// stack trace, or the node's name.
func whereOf(n *node.Node) string {
	st, ok := node.StackTrace.Get(&n.Meta)
	if !ok || st == "" {
		return n.Name()
	}
	st = strings.TrimRight(st, "\n")
	if i := strings.LastIndexByte(st, '\n'); i >= 0 {
		st = st[i+1:]
	}
	if i := strings.Index(st, " in "); i >= 0 {
		st = st[:i]
	}
	return st
}

func fakeMeta(v nn.Value) node.Value {
	switch x := v.Any().(type) {
	case *fakeTensor:
		return x.f
	case *symInt:
		return x.e
	case *symBool:
		return x.c
	case *tensor.Tensor:
		return FakeOf(x)
	case int64:
		return sym.Const(x)
	case []nn.Value:
		if len(x) == 0 {
			return nil
		}
		out := make(node.ValueTuple, len(x))
		for i, e := range x {
			m := fakeMeta(e)
			if m == nil {
				return nil
			}
			out[i] = m
		}
		return out
	}
	return nil
}

// unwrap returns the plain value of v: *Fake, sym.Expr, or what v holds.
func unwrap(v nn.Value) any {
	switch x := v.Any().(type) {
	case *fakeTensor:
		return x.f
	case *symInt:
		return x.e
	case *symBool:
		return x.c
	case int64:
		return sym.Const(x)
	case *tensor.Tensor:
		return FakeOf(x)
	case []nn.Value:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = unwrap(e)
		}
		return out
	default:
		return x
	}
}

// wrap turns an Infer result into what model code sees.
func (p *fakeProp) wrap(v any) any {
	switch x := v.(type) {
	case *Fake:
		return &fakeTensor{f: x, p: p}
	case []*Fake:
		out := make([]any, len(x))
		for i, f := range x {
			out[i] = &fakeTensor{f: f, p: p}
		}
		return out
	case sym.Expr:
		return p.wrapExpr(x).Any()
	}
	return v
}

func (p *fakeProp) wrapExpr(e sym.Expr) nn.Value {
	if c, ok := e.Const(); ok {
		return nn.Of(c)
	}
	return nn.Of(&symInt{e: e, p: p})
}

// wrapValue makes real tensors inside v fakes.
func (p *fakeProp) wrapValue(v nn.Value) nn.Value {
	switch x := v.Any().(type) {
	case *tensor.Tensor:
		return nn.Of(&fakeTensor{f: FakeOf(x), p: p})
	case []nn.Value:
		out := make([]nn.Value, len(x))
		for i, e := range x {
			out[i] = p.wrapValue(e)
		}
		return nn.Tuple(out...)
	}
	return v
}

// GetAttr returns the static fake of a parameter, buffer or constant.
func (p *fakeProp) GetAttr(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	v, err := p.Interpreter.GetAttr(n, target, args, kwargs)
	if err != nil {
		return v, err
	}
	return p.wrapValue(v), nil
}

// Placeholder wraps concrete default values.
func (p *fakeProp) Placeholder(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	v, err := p.Interpreter.Placeholder(n, target, args, kwargs)
	if err != nil {
		return v, err
	}
	return p.wrapValue(v), nil
}

// CallFunction infers an operator's results directly; other functions run
// on the fakes.
func (p *fakeProp) CallFunction(n *node.Node, target node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if isHOP(target) {
		return p.hop(target, args, kwargs)
	}
	op, ok := target.(*ops.Operator)
	if !ok {
		return nn.ApplyFunction(target, args, kwargs)
	}
	raw := make([]any, len(args))
	for i, a := range args {
		raw[i] = a.Raw()
	}
	var rkw map[string]any
	if len(kwargs) > 0 {
		rkw = make(map[string]any, len(kwargs))
		for k, a := range kwargs {
			rkw[k] = a.Raw()
		}
	}
	out, err := p.Trace(op, raw, rkw)
	if err != nil {
		return nn.None, err
	}
	return values(out)
}

func values(out []any) (nn.Value, error) {
	if len(out) == 1 {
		return valueOf(out[0])
	}
	vs := make([]nn.Value, len(out))
	for i, o := range out {
		v, err := valueOf(o)
		if err != nil {
			return nn.None, err
		}
		vs[i] = v
	}
	return nn.Tuple(vs...), nil
}

func valueOf(x any) (v nn.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("shapeprop: %v", r)
		}
	}()
	return nn.Of(x), nil
}

// symArith are the operators model code applies to sizes (x.size(0) * 2),
// computed on expressions.
var symArith = map[string]func(a, b sym.Expr) (sym.Expr, error){
	"aten::add.Tensor":          func(a, b sym.Expr) (sym.Expr, error) { return a.Add(b), nil },
	"aten::add.Scalar":          func(a, b sym.Expr) (sym.Expr, error) { return a.Add(b), nil },
	"aten::sub.Tensor":          func(a, b sym.Expr) (sym.Expr, error) { return a.Sub(b), nil },
	"aten::sub.Scalar":          func(a, b sym.Expr) (sym.Expr, error) { return a.Sub(b), nil },
	"aten::mul.Tensor":          func(a, b sym.Expr) (sym.Expr, error) { return a.Mul(b), nil },
	"aten::mul.Scalar":          func(a, b sym.Expr) (sym.Expr, error) { return a.Mul(b), nil },
	"aten::floor_divide":        sym.FloorDivErr,
	"aten::floor_divide.Scalar": sym.FloorDivErr,
	"aten::remainder.Scalar":    sym.ModErr,
	"aten::remainder.Tensor":    sym.ModErr,
}

// Trace infers an operator call on fakes (ops.Tracer).
func (p *fakeProp) Trace(op *ops.Operator, args []any, kwargs map[string]any) ([]any, error) {
	if len(args) == 2 && len(kwargs) == 0 {
		if _, isSym := args[0].(*symInt); isSym {
			if f, ok := symArith[op.Schema().QualifiedName()]; ok {
				a, _ := toExpr(args[0])
				b, ok := toExpr(args[1])
				if ok {
					e, err := f(a, b)
					if err != nil {
						return nil, &ops.CallError{Op: op.Schema().QualifiedName(), Err: err}
					}
					return []any{p.wrapExpr(e).Any()}, nil
				}
			}
		}
	}
	out, err := infer(p.h, op, args, kwargs, p.where)
	if err != nil {
		return nil, err
	}
	for i, o := range out {
		out[i] = p.wrap(o)
	}
	return out, nil
}

var (
	opSelect   = mustOp("aten::select.int")
	opT        = mustOp("aten::t")
	opToCopy   = mustOp("aten::_to_copy")
	opChunk    = mustOp("aten::chunk")
	opSymNumel = mustOp("aten::sym_numel")
)

func mustOp(name string) *ops.Operator {
	o, ok := ops.Global().Lookup(name)
	if !ok {
		panic("shapeprop: no operator " + name)
	}
	return o
}

func (p *fakeProp) call(op *ops.Operator, args []any, kwargs map[string]any) (nn.Value, error) {
	out, err := p.Trace(op, args, kwargs)
	if err != nil {
		return nn.None, err
	}
	return values(out)
}

// TraceFunction runs a Python-level function on fakes (nn's tracer contract, record.Tracer):
// getattr and getitem here, others through their Go implementation.
func (p *fakeProp) TraceFunction(fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if len(kwargs) == 0 {
		if v, ok := p.compare(fn, args); ok {
			return v, nil
		}
	}
	switch fn {
	case nn.GetAttr:
		if len(args) == 2 && len(kwargs) == 0 {
			if t, ok := args[0].Any().(*fakeTensor); ok {
				return p.attr(t, args[1])
			}
		}
	case nn.GetItem:
		// x[i] of a tensor is select(x, 0, i); slices, Ellipsis, None and
		// tuples of indices go to nn's getitem, which calls the operators
		// on the fakes.
		if len(args) == 2 && len(kwargs) == 0 && args[1].Kind() == "int" {
			if t, ok := args[0].Any().(*fakeTensor); ok {
				return p.call(opSelect, []any{t, int64(0), args[1].Raw()}, nil)
			}
		}
	}
	impl, ok := nn.LookupFunctionImpl(fn)
	if !ok {
		return nn.None, fmt.Errorf("function %s has no Go implementation (register one with nn.RegisterFunction)", fn)
	}
	return impl(args, kwargs)
}

func (p *fakeProp) attr(t *fakeTensor, name nn.Value) (nn.Value, error) {
	s, _ := name.Any().(string)
	switch s {
	case "shape":
		return p.shape(t.f), nil
	case "dtype":
		return nn.Of(t.f.DType), nil
	case "ndim":
		return nn.Of(len(t.f.Shape)), nil
	case "T":
		return p.call(opT, []any{t}, nil)
	}
	return nn.None, fmt.Errorf("builtins.getattr: Tensor attribute %q is not supported", s)
}

func (p *fakeProp) shape(f *Fake) nn.Value {
	vs := make([]nn.Value, len(f.Shape))
	for i, d := range f.Shape {
		vs[i] = p.wrapExpr(d)
	}
	return nn.Tuple(vs...)
}

// TraceMethod runs a tensor method on fakes (nn's tracer contract, record.Tracer): those that read
// sizes or dtypes here, the others through their Go implementation, whose
// operator calls come back to Trace.
func (p *fakeProp) TraceMethod(name string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	t, _ := args[0].Any().(*fakeTensor)
	if t != nil {
		if v, ok, err := p.method(t, name, args[1:], kwargs); ok {
			return v, err
		}
	}
	impl, ok := nn.LookupMethod(name)
	if !ok {
		return nn.None, fmt.Errorf("tensor has no method %q in gofx (register one with nn.RegisterMethod)", name)
	}
	v, err := impl(args, kwargs)
	if err != nil {
		return nn.None, fmt.Errorf("method Tensor.%s: %w", name, err)
	}
	return v, nil
}

var convMethods = map[string]tensor.DType{"float": tensor.Float32, "double": tensor.Float64,
	"half": tensor.Float16, "bfloat16": tensor.BFloat16, "long": tensor.Int64, "int": tensor.Int32,
	"short": tensor.Int16, "char": tensor.Int8, "byte": tensor.Uint8, "bool": tensor.Bool}

var shapeMethods = map[string]*ops.Operator{"reshape": mustOp("aten::reshape"), "view": mustOp("aten::view"),
	"expand": mustOp("aten::expand"), "repeat": mustOp("aten::repeat"), "permute": mustOp("aten::permute")}

// method implements the methods whose nn implementation reads a concrete
// tensor; ok is false for the others.
func (p *fakeProp) method(t *fakeTensor, name string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, bool, error) {
	arg := func(i int, kw string) (nn.Value, bool) {
		if i < len(args) {
			return args[i], true
		}
		v, ok := kwargs[kw]
		return v, ok
	}
	switch name {
	case "size":
		d, ok := arg(0, "dim")
		if !ok || d.IsNone() {
			return p.shape(t.f), true, nil
		}
		v, err := p.call(mustOp("aten::sym_size.int"), []any{t, d.Raw()}, nil)
		return v, true, err
	case "dim":
		return nn.Of(len(t.f.Shape)), true, nil
	case "numel":
		v, err := p.call(opSymNumel, []any{t}, nil)
		return v, true, err
	case "to":
		d, _ := arg(0, "dtype")
		dt, ok := d.Any().(tensor.DType)
		if !ok {
			return nn.None, true, fmt.Errorf("method Tensor.to: argument 'dtype' must be a dtype, got %s", d.Kind())
		}
		v, err := p.convert(t, dt)
		return v, true, err
	case "chunk":
		n, _ := arg(0, "chunks")
		d, ok := arg(1, "dim")
		if !ok {
			d = nn.Of(0)
		}
		v, err := p.call(opChunk, []any{t, n.Raw(), d.Raw()}, nil)
		return v, true, err
	}
	if dt, ok := convMethods[name]; ok {
		v, err := p.convert(t, dt)
		return v, true, err
	}
	if op, ok := shapeMethods[name]; ok {
		rest := args
		if len(rest) == 0 {
			for _, v := range kwargs {
				rest = []nn.Value{v}
			}
		}
		if len(rest) == 1 && rest[0].IsTuple() {
			rest = rest[0].Tuple()
		}
		list := make([]any, len(rest))
		for i, r := range rest {
			list[i] = r.Raw()
		}
		v, err := p.call(op, []any{t, list}, nil)
		return v, true, err
	}
	return nn.None, false, nil
}

func (p *fakeProp) convert(t *fakeTensor, dt tensor.DType) (nn.Value, error) {
	if t.f.DType == dt {
		return nn.Of(t), nil
	}
	return p.call(opToCopy, []any{t}, map[string]any{"dtype": dt})
}

// TraceModule runs the module's Forward on the fakes (nn's tracer contract, record.Tracer).
func (p *fakeProp) TraceModule(_ nn.Module, _ []nn.Value, forward func() (nn.Value, error)) (nn.Value, error) {
	return forward()
}

// ConcreteError is the error for model code that needs a concrete value
// from a fake (nn's tracer contract, record.Tracer).
func (p *fakeProp) ConcreteError(what, where string) error {
	return fmt.Errorf("shapeprop.FakeProp: %s needs %s from a fake value, which has no data", where, what)
}
