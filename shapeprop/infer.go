package shapeprop

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// A Rule computes an operator's symbolic result shapes: one value per
// schema return, a *Fake for a Tensor (its DType may be left zero: Infer
// takes the dtype from the meta function), a []*Fake for a Tensor[], a
// sym.Expr for an int. Other results (floats, bools) may be nil: Infer uses
// the meta function's. Comparisons between sizes go through c.Env.Decide,
// which settles them from the symbols' ranges or records a guard.
type Rule func(c *RuleCall) ([]any, error)

// RuleCall is one operator call as a Rule sees it.
type RuleCall struct {
	Env *sym.Env
	Op  *ops.Operator
	// Args are the arguments in schema order with defaults filled in:
	// tensors as *Fake (nil for None), lists of tensors as []*Fake, ints as
	// sym.Expr, int lists as []sym.Expr, a Scalar given as a symbolic int
	// as sym.Expr, anything else as the caller gave it (ops.Bind's forms).
	Args []any
	// Where is the user's Go source location, for guards.
	Where string
	// Hint are the meta function's results at the hints (meta tensors):
	// the dtypes, and the shapes the rule's must agree with there. Nil for
	// data-dependent operators whose meta function cannot run.
	Hint []any

	h *hinter
}

// hints returns the call's hinter.
func (c *RuleCall) hints() *hinter {
	if c.h == nil {
		c.h = newHinter(c.Env)
	}
	return c.h
}

var rules struct {
	sync.RWMutex
	byName map[string]Rule
	infos  map[*ops.Operator]*opInfo
}

// RegisterRule installs r as the shape rule of the operator called name
// ("aten::add.Tensor"), replacing any previous one.
func RegisterRule(name string, r Rule) {
	rules.Lock()
	defer rules.Unlock()
	if rules.byName == nil {
		rules.byName = map[string]Rule{}
	}
	rules.byName[name] = r
	rules.infos = nil // recomputed on demand
}

// HasRule reports whether the operator called name has a shape rule.
func HasRule(name string) bool {
	rules.RLock()
	defer rules.RUnlock()
	_, ok := rules.byName[name]
	return ok
}

// Rules returns the names of the operators with a shape rule.
func Rules() []string {
	rules.RLock()
	defer rules.RUnlock()
	out := make([]string, 0, len(rules.byName))
	for k := range rules.byName {
		out = append(out, k)
	}
	return out
}

// argKind is how Infer converts one schema argument.
type argKind uint8

const (
	kOther argKind = iota
	kTensor
	kTensors
	kInt
	kInts
	kScalar
)

// opInfo is what Infer derives once per operator.
type opInfo struct {
	name   string
	kinds  []argKind
	kwonly []bool
	nkw    int
	rets   []argKind
	rule   Rule
	view   bool
	// dataDependent marks operators whose meta function cannot run
	// (nonzero): the rule alone computes the result.
	dataDependent bool
}

func infoOf(op *ops.Operator) *opInfo {
	rules.RLock()
	in := rules.infos[op]
	rules.RUnlock()
	if in != nil {
		return in
	}
	s := op.Schema()
	in = &opInfo{name: s.QualifiedName(), kinds: make([]argKind, len(s.Args)), kwonly: make([]bool, len(s.Args)),
		view: op.Has(ops.View)}
	for i, a := range s.Args {
		in.kinds[i] = kindOf(a.Type)
		in.kwonly[i] = a.KwargOnly
		if a.KwargOnly {
			in.nkw++
		}
	}
	in.rets = make([]argKind, len(s.Returns))
	for i, r := range s.Returns {
		in.rets[i] = kindOf(r.Type)
	}
	rules.Lock()
	defer rules.Unlock()
	in.rule = rules.byName[in.name]
	in.dataDependent = dataDependent[in.name]
	if rules.infos == nil {
		rules.infos = map[*ops.Operator]*opInfo{}
	}
	rules.infos[op] = in
	return in
}

var dataDependent = map[string]bool{"aten::nonzero": true}

func kindOf(t *ops.Type) argKind {
	if t.Kind == ops.OptionalOf {
		t = t.Elem
	}
	switch t.Kind {
	case ops.Named:
		switch t.Name {
		case "Tensor":
			return kTensor
		case "int", "SymInt":
			return kInt
		case "Scalar":
			return kScalar
		}
	case ops.ListOf:
		e := t.Elem
		if e.Kind == ops.OptionalOf {
			e = e.Elem
		}
		switch e.Name {
		case "Tensor":
			return kTensors
		case "int", "SymInt":
			return kInts
		}
	}
	return kOther
}

// InferError is the error of a shape inference that the operator's
// arguments do not explain: a rule that disagrees with the meta function,
// or a symbolic size an operator cannot take.
type InferError struct {
	Op  string // "aten::add.Tensor"
	Err error
}

func (e *InferError) Error() string { return e.Op + ": " + e.Err.Error() }

func (e *InferError) Unwrap() error { return e.Err }

// Infer computes the results of op on fake arguments without running a
// kernel. args and kwargs are in caller form (as ops.Tracer.Trace receives
// them): tensors as *Fake or *tensor.Tensor (a real tensor is its static
// fake), ints as int, int64 or sym.Expr, lists as []any, []int64, []*Fake
// or []*tensor.Tensor, other values as ops.Bind accepts them. It returns
// one result per schema return: *Fake for Tensor, []*Fake for Tensor[],
// sym.Expr for int and SymInt, float64, bool or ops.Scalar otherwise.
// where is the user's Go source location, recorded with the guards.
//
// Infer runs op's meta function at the hints (every symbolic size replaced
// by its example value), which checks the arguments as the kernel would,
// with the kernel's error messages, and gives the result dtypes. The
// operator's Rule, if it has one, computes the symbolic shapes, which must
// agree with the meta function's at the hints. Without a rule, every
// symbolic size of the arguments is specialized to its hint: a guard
// recorded in env.
func Infer(env *sym.Env, op *ops.Operator, args []any, kwargs map[string]any, where string) ([]any, error) {
	return infer(newHinter(env), op, args, kwargs, where)
}

// infer is Infer with the hinter of a run (FakeProp keeps one, so that
// each symbol's hint is looked up once).
func infer(h *hinter, op *ops.Operator, args []any, kwargs map[string]any, where string) (out []any, err error) {
	env := h.env
	if op == nil {
		return nil, errors.New("shapeprop.Infer: nil operator")
	}
	if env == nil {
		return nil, &InferError{Op: op.Schema().QualifiedName(), Err: errors.New("nil sym.Env")}
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, &InferError{Op: op.Schema().QualifiedName(), Err: fmt.Errorf("internal error: %v", r)}
		}
	}()
	vals, err := op.Place(args, kwargs)
	if err != nil {
		return nil, err
	}
	info := infoOf(op)
	mpos := make([]any, 0, len(vals)-info.nkw)
	var mkw map[string]any
	if info.nkw > 0 {
		mkw = make(map[string]any, info.nkw)
	}
	symbolic := false
	for i, v := range vals {
		var mv any
		switch info.kinds[i] {
		case kTensor:
			if e, isSym, _ := intArg(v, true); isSym {
				// A symbolic int given for a Tensor parameter (x + n with
				// n = x.size(0)) is a wrapped number, as PyTorch records
				// aten.add.Tensor(x, sym_size_int): its value never
				// changes the result's shape, so the meta function gets
				// the hint (1 for an unbacked size without one).
				vals[i] = e
				c, ok := e.Const()
				if !ok {
					if c, err = h.hint(e); err != nil {
						c = 1
					}
				}
				mv = c
				if e.IsFloat() {
					// A float symbol (a floating tensor's item()) is a
					// wrapped float: the result's dtype is a float's.
					mv = float64(c)
				}
				break
			}
			f, ok, err := fakeArg(v)
			if err != nil {
				return nil, argErr(op, i, err)
			}
			if ok {
				vals[i] = f
				if f == nil {
					mv = nil
				} else {
					symbolic = symbolic || !f.IsStatic()
					if mv, err = h.metaTensor(f); err != nil {
						return nil, argErr(op, i, err)
					}
				}
			} else {
				mv = v
			}
		case kTensors:
			fs, ok, err := fakeList(v)
			if err != nil {
				return nil, argErr(op, i, err)
			}
			if ok {
				vals[i] = fs
				ms := make([]*tensor.Tensor, len(fs))
				for j, f := range fs {
					if f == nil {
						continue
					}
					symbolic = symbolic || !f.IsStatic()
					if ms[j], err = h.metaTensor(f); err != nil {
						return nil, argErr(op, i, err)
					}
				}
				mv = ms
			} else {
				mv = v
			}
		case kInt, kScalar:
			e, ok, err := intArg(v, info.kinds[i] == kScalar)
			if err != nil {
				return nil, argErr(op, i, err)
			}
			if ok {
				vals[i] = e
				if e.IsFloat() {
					// A float symbol (a floating tensor's item()) is a
					// value, never a size: no specialization.
					if info.kinds[i] == kInt || sizingScalar[op.Schema().Name] {
						return nil, argErr(op, i, fmt.Errorf("the float %s depends on tensor data and cannot give a size", e))
					}
					mv = 2.0
					break
				}
				c, isConst := e.Const()
				if !isConst {
					symbolic = true
					if c, err = h.hint(e); err != nil {
						return nil, argErr(op, i, err)
					}
				}
				mv = c
			} else {
				mv = v
			}
		case kInts:
			es, ok, err := intList(v, op.Schema().Args[i].Type)
			if err != nil {
				return nil, argErr(op, i, err)
			}
			if ok {
				vals[i] = es
				cs := make([]int64, len(es))
				for j, e := range es {
					c, isConst := e.Const()
					if !isConst {
						symbolic = true
						if c, err = h.hint(e); err != nil {
							return nil, argErr(op, i, err)
						}
					}
					cs[j] = c
				}
				mv = cs
			} else {
				mv = v
			}
		default:
			mv = v
		}
		if info.kwonly[i] {
			mkw[op.Schema().Args[i].Name] = mv
		} else {
			mpos = append(mpos, mv)
		}
	}
	var hint []any
	if !info.dataDependent || info.rule == nil {
		if hint, err = op.Call(mpos, mkw); err != nil {
			return nil, err
		}
	} else if _, err := op.Bind(mpos, mkw); err != nil {
		return nil, err
	}
	if info.rule != nil {
		c := &RuleCall{Env: env, Op: op, Args: vals, Where: where, Hint: hint, h: h}
		res, err := info.rule(c)
		if err != nil {
			var ie *InferError
			var ce *ops.CallError
			if errors.As(err, &ie) || errors.As(err, &ce) {
				return nil, err
			}
			return nil, &InferError{Op: info.name, Err: err}
		}
		return h.check(info, res, hint, vals)
	}
	if symbolic {
		if err := specialize(h, info, vals, where); err != nil {
			return nil, err
		}
	}
	return fromMeta(info, vals, hint), nil
}

// sizingScalar names the operators whose Scalar arguments decide the
// result's shape (arange's end): a float read from tensor data cannot be
// given to them.
var sizingScalar = map[string]bool{"arange": true, "range": true, "linspace": true, "logspace": true}

func argErr(op *ops.Operator, i int, err error) error {
	return &ops.CallError{Op: op.Schema().QualifiedName(), Arg: op.Schema().Args[i].Name, Err: err}
}

// fakeArg converts a tensor argument; ok is false when v is no tensor
// (left for the meta function to refuse).
func fakeArg(v any) (*Fake, bool, error) {
	switch x := v.(type) {
	case nil:
		return nil, true, nil
	case *Fake:
		return x, true, nil
	case *fakeTensor:
		return x.f, true, nil
	case *tensor.Tensor:
		if x == nil {
			return nil, true, nil
		}
		return FakeOf(x), true, nil
	case ops.Symbolic:
		return nil, false, fmt.Errorf("a symbolic value of another tracer (%T)", v)
	}
	return nil, false, nil
}

func fakeList(v any) ([]*Fake, bool, error) {
	switch x := v.(type) {
	case []*Fake:
		return x, true, nil
	case []*tensor.Tensor:
		out := make([]*Fake, len(x))
		for i, t := range x {
			if t != nil {
				out[i] = FakeOf(t)
			}
		}
		return out, true, nil
	case []any:
		out := make([]*Fake, len(x))
		for i, e := range x {
			f, ok, err := fakeArg(e)
			if err != nil {
				return nil, false, fmt.Errorf("element %d: %w", i, err)
			}
			if !ok {
				return nil, false, nil
			}
			out[i] = f
		}
		return out, true, nil
	}
	return nil, false, nil
}

// intArg converts an int argument (for a Scalar, only a symbolic int).
func intArg(v any, scalar bool) (sym.Expr, bool, error) {
	if scalar {
		switch x := v.(type) {
		case sym.Expr:
			return x, true, nil
		case *symInt:
			return x.e, true, nil
		}
		return sym.Expr{}, false, nil
	}
	if _, ok := v.(ops.Symbolic); ok {
		if _, mine := v.(*symInt); !mine {
			return sym.Expr{}, false, fmt.Errorf("a symbolic value of another tracer (%T)", v)
		}
	}
	e, ok := toExpr(v)
	return e, ok, nil
}

// intList converts an int list argument; a single int stands for a fixed
// size list as in ops.Bind.
func intList(v any, t *ops.Type) ([]sym.Expr, bool, error) {
	switch x := v.(type) {
	case []sym.Expr:
		return x, true, nil
	case []int64:
		out := make([]sym.Expr, len(x))
		for i, c := range x {
			out[i] = sym.Const(c)
		}
		return out, true, nil
	case []int:
		out := make([]sym.Expr, len(x))
		for i, c := range x {
			out[i] = sym.Const(int64(c))
		}
		return out, true, nil
	case []any:
		out := make([]sym.Expr, len(x))
		for i, e := range x {
			c, ok, err := intArg(e, false)
			if err != nil {
				return nil, false, fmt.Errorf("element %d: %w", i, err)
			}
			if !ok {
				return nil, false, nil
			}
			out[i] = c
		}
		return out, true, nil
	}
	if t.Kind == ops.OptionalOf {
		t = t.Elem
	}
	if e, ok := toExpr(v); ok && t.Size > 0 {
		out := make([]sym.Expr, t.Size)
		for i := range out {
			out[i] = e
		}
		return out, true, nil
	}
	return nil, false, nil
}

// specialize guards every symbolic size among vals to its hint: the
// operator has no rule, so its results are valid for the hints only.
func specialize(h *hinter, info *opInfo, vals []any, where string) error {
	env := h.env
	one := func(e sym.Expr) error {
		if e.IsConst() {
			return nil
		}
		c, err := h.hint(e)
		if err != nil {
			return err
		}
		ok, err := env.Decide(sym.Eq(e, sym.Const(c)), specializeWhere(info, where))
		if err != nil {
			return &InferError{Op: info.name, Err: err}
		}
		if !ok {
			return &InferError{Op: info.name, Err: fmt.Errorf("cannot specialize %s to its hint %d", e, c)}
		}
		return nil
	}
	for i, v := range vals {
		switch info.kinds[i] {
		case kTensor:
			if f, _ := v.(*Fake); f != nil {
				for _, d := range f.Shape {
					if err := one(d); err != nil {
						return err
					}
				}
			}
		case kTensors:
			fs, _ := v.([]*Fake)
			for _, f := range fs {
				if f == nil {
					continue
				}
				for _, d := range f.Shape {
					if err := one(d); err != nil {
						return err
					}
				}
			}
		case kInt, kScalar:
			if e, ok := v.(sym.Expr); ok {
				if err := one(e); err != nil {
					return err
				}
			}
		case kInts:
			es, _ := v.([]sym.Expr)
			for _, e := range es {
				if err := one(e); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// specializeWhere is the location recorded with a specialization guard:
// the operator that needed it and the user's source location.
func specializeWhere(info *opInfo, where string) string {
	var b strings.Builder
	b.WriteString("specialized by ")
	b.WriteString(info.name)
	if where != "" {
		b.WriteString(" at ")
		b.WriteString(where)
	}
	return b.String()
}

// fromMeta converts the meta function's results.
func fromMeta(info *opInfo, vals []any, hint []any) []any {
	selfContig := true
	if info.view && len(vals) > 0 {
		if f, ok := vals[0].(*Fake); ok && f != nil {
			selfContig = f.Contiguous
		}
	}
	out := make([]any, len(hint))
	for i, m := range hint {
		switch x := m.(type) {
		case *tensor.Tensor:
			if x == nil {
				continue
			}
			f := FakeOf(x)
			f.Contiguous = f.Contiguous && selfContig
			f.meta = x
			out[i] = f
		case []*tensor.Tensor:
			fs := make([]*Fake, len(x))
			for j, t := range x {
				if t != nil {
					fs[j] = FakeOf(t)
					fs[j].Contiguous = fs[j].Contiguous && selfContig
					fs[j].meta = t
				}
			}
			out[i] = fs
		case int64:
			out[i] = sym.Const(x)
		default:
			out[i] = m
		}
	}
	return out
}

// check compares a rule's results with the meta function's at the hints
// and completes them (dtypes, non-size results).
func (h *hinter) check(info *opInfo, res, hint, vals []any) ([]any, error) {
	bad := func(format string, a ...any) error {
		return &InferError{Op: info.name, Err: fmt.Errorf("shape rule inconsistent with the meta function: "+format, a...)}
	}
	if len(res) != len(info.rets) {
		return nil, bad("%d results for %d returns", len(res), len(info.rets))
	}
	if hint == nil {
		return res, nil
	}
	for i, r := range res {
		m := hint[i]
		switch x := r.(type) {
		case *Fake:
			mt, ok := m.(*tensor.Tensor)
			if !ok || mt == nil {
				return nil, bad("result %d is a tensor, the meta function returned %T", i, m)
			}
			x.Shape = h.simplify(x.Shape, vals)
			if err := h.same(x, mt); err != nil {
				return nil, bad("result %d: %v", i, err)
			}
			if x.DType != mt.DType() {
				x = &Fake{DType: mt.DType(), Shape: x.Shape, Contiguous: x.Contiguous}
				res[i] = x
			}
			x.meta = mt
		case []*Fake:
			mts, ok := m.([]*tensor.Tensor)
			if !ok || len(mts) != len(x) {
				return nil, bad("result %d is %d tensors, the meta function returned %s", i, len(x), describe(m))
			}
			for j, f := range x {
				f.Shape = h.simplify(f.Shape, vals)
				if err := h.same(f, mts[j]); err != nil {
					return nil, bad("result %d[%d]: %v", i, j, err)
				}
				if f.DType != mts[j].DType() {
					f = &Fake{DType: mts[j].DType(), Shape: f.Shape, Contiguous: f.Contiguous}
					x[j] = f
				}
				f.meta = mts[j]
			}
		case sym.Expr:
			if !x.IsConst() {
				x = h.env.Simplify(x)
				res[i] = x
			}
			mc, ok := m.(int64)
			if !ok {
				return nil, bad("result %d is an int, the meta function returned %T", i, m)
			}
			c, err := h.hint(x)
			if err != nil {
				return nil, &InferError{Op: info.name, Err: err}
			}
			if c != mc {
				return nil, bad("result %d is %s = %d at the hints, the meta function gives %d", i, x, c, mc)
			}
		case nil:
			res[i] = m
			if mt, ok := m.(*tensor.Tensor); ok && mt != nil {
				res[i] = FakeOf(mt)
			}
		}
	}
	return res, nil
}

func describe(m any) string {
	if ts, ok := m.([]*tensor.Tensor); ok {
		return fmt.Sprintf("%d tensors", len(ts))
	}
	return fmt.Sprintf("%T", m)
}

// same checks that f at the hints has mt's shape.
func (h *hinter) same(f *Fake, mt *tensor.Tensor) error {
	if f == nil {
		return errors.New("nil fake")
	}
	if mt.Dim() != len(f.Shape) {
		return fmt.Errorf("shape %s has %d dims, the meta function gives shape %v", shapeList(f.Shape), len(f.Shape), mt.Shape())
	}
	for i, d := range f.Shape {
		c, err := h.hint(d)
		if err != nil {
			return err
		}
		if c != int64(mt.Size(i)) {
			return fmt.Errorf("shape %s is %v at the hints, the meta function gives %v", shapeList(f.Shape), h.ints(f.Shape), mt.Shape())
		}
	}
	return nil
}

func (h *hinter) ints(es []sym.Expr) []int64 {
	out := make([]int64, len(es))
	for i, e := range es {
		out[i], _ = h.hint(e)
	}
	return out
}

// hinter evaluates expressions at the example values of their symbols,
// each symbol's value looked up once.
type hinter struct {
	env  *sym.Env
	vals map[*sym.Symbol]int64
}

func newHinter(env *sym.Env) *hinter { return &hinter{env: env} }

// metaTensor returns a meta tensor of f's dtype and shape at the hints:
// the one the meta function returned for f when Infer made f.
func (h *hinter) metaTensor(f *Fake) (*tensor.Tensor, error) {
	if m := f.meta; m != nil && m.DType() == f.DType && m.Dim() == len(f.Shape) {
		return m, nil
	}
	var buf [8]int
	sh := buf[:0]
	for _, d := range f.Shape {
		c, ok := d.Const()
		if !ok {
			var err error
			if c, err = h.hint(d); err != nil {
				return nil, err
			}
		}
		sh = append(sh, int(c))
	}
	return tensor.NewMeta(f.DType, sh...)
}

// hint returns e at the example values. An unbacked symbol, which has
// none, takes a representative value: the smallest of its range that is at
// least 2 (PyTorch's size-oblivious choice, a size neither 0 nor 1).
func (h *hinter) hint(e sym.Expr) (int64, error) {
	if c, ok := e.Const(); ok {
		return c, nil
	}
	if h.vals == nil {
		h.vals = map[*sym.Symbol]int64{}
	}
	for _, s := range e.Symbols() {
		if _, ok := h.vals[s]; ok {
			continue
		}
		if v, ok := s.Hint(); ok {
			h.vals[s] = v
			continue
		}
		r := h.env.RangeOf(s)
		v := max(r.Lo, 2)
		if v > r.Hi {
			v = r.Hi
		}
		h.vals[s] = v
	}
	v, err := e.Eval(h.vals)
	if err != nil {
		return 0, fmt.Errorf("no example value for %s: %w", e, err)
	}
	return v, nil
}

// simplify rewrites the symbolic dims of sh with the equalities and
// ranges the environment knows (s1 becomes s0 after a guard s0 == s1),
// copying sh (which a rule may share with an argument) when one changes.
func (h *hinter) simplify(sh []sym.Expr, vals []any) []sym.Expr {
	copied := false
	for i, d := range sh {
		if d.IsConst() || isInputDim(d, vals) {
			continue
		}
		if e := h.env.Simplify(d); !e.Equal(d) {
			if !copied {
				sh, copied = slices.Clone(sh), true
			}
			sh[i] = e
		}
	}
	return sh
}

// shapeList prints a shape as "[s0, 16]".
func shapeList(sh []sym.Expr) string {
	parts := make([]string, len(sh))
	for i, d := range sh {
		parts[i] = d.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// isInputDim reports whether d is a dim of a tensor argument (already in
// the form the environment gave it).
func isInputDim(d sym.Expr, vals []any) bool {
	for _, v := range vals {
		if f, ok := v.(*Fake); ok && f != nil {
			for _, e := range f.Shape {
				if e.Equal(d) {
					return true
				}
			}
		}
	}
	return false
}
