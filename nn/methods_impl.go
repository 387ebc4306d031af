package nn

import (
	"fmt"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// margs reads a method's Python-style arguments: positional ones after
// self, or keyword ones by name.
type margs struct {
	args []Value // args[0] is self
	kw   map[string]Value
}

// get returns positional argument i (0 is the first after self) or the
// keyword argument name.
func (m margs) get(i int, name string) (Value, bool) {
	if i+1 < len(m.args) {
		return m.args[i+1], true
	}
	v, ok := m.kw[name]
	return v, ok
}

func (m margs) intOr(i int, name string, def int64) (int64, error) {
	v, ok := m.get(i, name)
	if !ok || v.IsNone() {
		return def, nil
	}
	if v.Kind() != "int" {
		if isNumberLike(v) {
			return v.Int(), nil
		}
		return 0, fmt.Errorf("argument '%s' must be int, not %s", name, v.Kind())
	}
	return v.v.(int64), nil
}

func (m margs) check(maxPos int, names ...string) error {
	if len(m.args)-1 > maxPos {
		return fmt.Errorf("takes at most %d positional arguments, got %d", maxPos, len(m.args)-1)
	}
	for k := range m.kw {
		found := false
		for _, n := range names {
			found = found || n == k
		}
		if !found {
			return fmt.Errorf("got an unexpected keyword argument '%s'", k)
		}
	}
	return nil
}

// varInts reads *sizes: either several ints or one tuple of ints, as a
// tuple Value (elements may be int Values).
func (m margs) varInts(name string) (Value, error) {
	rest := m.args[1:]
	if len(rest) == 0 {
		if v, ok := m.kw[name]; ok {
			rest = []Value{v}
		}
	}
	if len(rest) == 1 && rest[0].IsTuple() {
		rest = rest[0].Tuple()
	}
	for i, r := range rest {
		if r.Kind() != "int" && !isNumberLike(r) {
			return None, fmt.Errorf("argument '%s' must be a tuple of ints, but found element %d of type %s", name, i, r.Kind())
		}
	}
	return Value{tuple(rest)}, nil
}

func self(m margs) Value { return m.args[0] }

func init() {
	for _, name := range []string{"relu", "sigmoid", "tanh", "exp", "log", "sqrt", "rsqrt", "abs", "neg",
		"sin", "cos", "floor", "ceil", "round", "sign", "reciprocal", "square", "erf", "log1p", "expm1",
		"relu_", "sigmoid_", "tanh_", "exp_", "neg_", "abs_", "sqrt_", "zero_", "t", "contiguous", "clone"} {
		op, ok := ops.Global().Lookup("aten::" + name)
		if !ok {
			continue
		}
		RegisterMethod(name, unaryMethod(op))
	}
	for _, b := range []struct {
		name string
		t, s string
	}{
		// PyTorch's Python bindings hide the .Scalar overloads of add,
		// sub, mul and div: a number is passed to .Tensor as a wrapped
		// number (s is "").
		{"add", "add.Tensor", ""}, {"sub", "sub.Tensor", ""},
		{"mul", "mul.Tensor", ""}, {"div", "div.Tensor", ""},
		{"add_", "add_.Tensor", ""}, {"sub_", "sub_.Tensor", ""},
		{"mul_", "mul_.Tensor", ""}, {"div_", "div_.Tensor", ""},
		{"pow", "pow.Tensor_Tensor", "pow.Tensor_Scalar"},
		{"eq", "eq.Tensor", "eq.Scalar"}, {"ne", "ne.Tensor", "ne.Scalar"},
		{"lt", "lt.Tensor", "lt.Scalar"}, {"le", "le.Tensor", "le.Scalar"},
		{"gt", "gt.Tensor", "gt.Scalar"}, {"ge", "ge.Tensor", "ge.Scalar"},
		{"maximum", "maximum", "maximum"}, {"minimum", "minimum", "minimum"},
		{"matmul", "matmul", "matmul"}, {"mm", "mm", "mm"}, {"bmm", "bmm", "bmm"},
	} {
		var s *ops.Operator
		if b.s != "" {
			s = Op("aten::" + b.s)
		}
		RegisterMethod(b.name, binaryMethod(Op("aten::"+b.t), s))
	}
	RegisterMethod("size", methodSize)
	RegisterMethod("dim", func(a []Value, kw map[string]Value) (Value, error) {
		if err := (margs{a, kw}).check(0); err != nil {
			return None, err
		}
		return Value{int64(a[0].Tensor().Dim())}, nil
	})
	RegisterMethod("numel", func(a []Value, kw map[string]Value) (Value, error) {
		if err := (margs{a, kw}).check(0); err != nil {
			return None, err
		}
		return Value{int64(a[0].Tensor().Numel())}, nil
	})
	RegisterMethod("reshape", shapeMethod(opReshape, "shape"))
	RegisterMethod("view", shapeMethod(opView, "size"))
	RegisterMethod("expand", shapeMethod(opExpand, "size"))
	RegisterMethod("repeat", shapeMethod(opRepeat, "repeats"))
	RegisterMethod("permute", shapeMethod(opPermute, "dims"))
	RegisterMethod("transpose", func(a []Value, kw map[string]Value) (Value, error) {
		m := margs{a, kw}
		if err := m.check(2, "dim0", "dim1"); err != nil {
			return None, err
		}
		d0, err := m.intOr(0, "dim0", 0)
		if err != nil {
			return None, err
		}
		d1, err := m.intOr(1, "dim1", 1)
		if err != nil {
			return None, err
		}
		return Apply(opTranspose, []Value{self(m), {d0}, {d1}}, nil)
	})
	RegisterMethod("flatten", func(a []Value, kw map[string]Value) (Value, error) {
		m := margs{a, kw}
		if err := m.check(2, "start_dim", "end_dim"); err != nil {
			return None, err
		}
		s, err := m.intOr(0, "start_dim", 0)
		if err != nil {
			return None, err
		}
		e, err := m.intOr(1, "end_dim", -1)
		if err != nil {
			return None, err
		}
		return Apply(opFlatten, []Value{self(m), {s}, {e}}, nil)
	})
	RegisterMethod("unsqueeze", dimMethod(opUnsqueeze))
	RegisterMethod("squeeze", func(a []Value, kw map[string]Value) (Value, error) {
		m := margs{a, kw}
		if err := m.check(1, "dim"); err != nil {
			return None, err
		}
		if d, ok := m.get(0, "dim"); ok && !d.IsNone() {
			return Apply(opSqueezeDim, []Value{self(m), d}, nil)
		}
		return Apply(opSqueeze, []Value{self(m)}, nil)
	})
	RegisterMethod("softmax", dimMethod(opSoftmax))
	RegisterMethod("log_softmax", dimMethod(opLogSoftmax))
	RegisterMethod("split", func(a []Value, kw map[string]Value) (Value, error) {
		m := margs{a, kw}
		if err := m.check(2, "split_size", "dim"); err != nil {
			return None, err
		}
		size, ok := m.get(0, "split_size")
		if !ok {
			return None, fmt.Errorf("missing argument 'split_size'")
		}
		dim, err := m.intOr(1, "dim", 0)
		if err != nil {
			return None, err
		}
		if size.IsTuple() {
			return Apply(opSplitSizes, []Value{self(m), size, {dim}}, nil)
		}
		return Apply(opSplit, []Value{self(m), size, {dim}}, nil)
	})
	RegisterMethod("chunk", methodChunk)
	RegisterMethod("sum", reduceMethod(opSum, opSumDim))
	RegisterMethod("mean", reduceMethod(opMean, opMeanDim))
	RegisterMethod("detach", func(a []Value, kw map[string]Value) (Value, error) {
		if err := (margs{a, kw}).check(0); err != nil {
			return None, err
		}
		return Apply(opAlias, a[:1], nil)
	})
	RegisterMethod("to", func(a []Value, kw map[string]Value) (Value, error) {
		m := margs{a, kw}
		if err := m.check(1, "dtype"); err != nil {
			return None, err
		}
		d, ok := m.get(0, "dtype")
		dt, isDT := d.v.(tensor.DType)
		if !ok || !isDT {
			return None, fmt.Errorf("argument 'dtype' must be a dtype, got %s", d.Kind())
		}
		return convert(self(m), dt)
	})
	for name, dt := range map[string]tensor.DType{"float": tensor.Float32, "double": tensor.Float64,
		"half": tensor.Float16, "bfloat16": tensor.BFloat16, "long": tensor.Int64, "int": tensor.Int32,
		"short": tensor.Int16, "char": tensor.Int8, "byte": tensor.Uint8, "bool": tensor.Bool} {
		RegisterMethod(name, func(a []Value, kw map[string]Value) (Value, error) {
			if err := (margs{a, kw}).check(0); err != nil {
				return None, err
			}
			return convert(a[0], dt)
		})
	}
}

func convert(v Value, dt tensor.DType) (Value, error) {
	if t := v.Tensor(); t != nil && t.DType() == dt {
		return v, nil
	}
	return Apply(opToCopy, []Value{v}, map[string]Value{"dtype": {dt}})
}

func unaryMethod(op *ops.Operator) MethodImpl {
	return func(a []Value, kw map[string]Value) (Value, error) {
		if err := (margs{a, kw}).check(0); err != nil {
			return None, err
		}
		return Apply(op, a[:1], nil)
	}
}

func binaryMethod(t, s *ops.Operator) MethodImpl {
	return func(a []Value, kw map[string]Value) (Value, error) {
		m := margs{a, kw}
		if err := m.check(1, "other", "alpha"); err != nil {
			return None, err
		}
		other, ok := m.get(0, "other")
		if !ok {
			return None, fmt.Errorf("missing argument 'other'")
		}
		var k map[string]Value
		if al, ok := kw["alpha"]; ok {
			k = map[string]Value{"alpha": al}
		}
		return Apply(pick(other, t, s), []Value{self(m), other}, k)
	}
}

func shapeMethod(op *ops.Operator, name string) MethodImpl {
	return func(a []Value, kw map[string]Value) (Value, error) {
		m := margs{a, kw}
		if err := m.check(len(a), name); err != nil {
			return None, err
		}
		sh, err := m.varInts(name)
		if err != nil {
			return None, err
		}
		return Apply(op, []Value{self(m), sh}, nil)
	}
}

func dimMethod(op *ops.Operator) MethodImpl {
	return func(a []Value, kw map[string]Value) (Value, error) {
		m := margs{a, kw}
		if err := m.check(1, "dim"); err != nil {
			return None, err
		}
		d, ok := m.get(0, "dim")
		if !ok {
			return None, fmt.Errorf("missing argument 'dim'")
		}
		return Apply(op, []Value{self(m), d}, nil)
	}
}

func reduceMethod(all, dim *ops.Operator) MethodImpl {
	return func(a []Value, kw map[string]Value) (Value, error) {
		m := margs{a, kw}
		if err := m.check(2, "dim", "keepdim", "dtype"); err != nil {
			return None, err
		}
		k := map[string]Value{}
		if dt, ok := kw["dtype"]; ok {
			k["dtype"] = dt
		}
		d, ok := m.get(0, "dim")
		if !ok || d.IsNone() {
			return Apply(all, a[:1], k)
		}
		if !d.IsTuple() {
			d = Value{tuple{d}}
		}
		keep, _ := m.get(1, "keepdim")
		if keep.IsNone() {
			keep = Value{false}
		}
		return Apply(dim, []Value{self(m), d, keep}, k)
	}
}

func methodSize(a []Value, kw map[string]Value) (Value, error) {
	m := margs{a, kw}
	if err := m.check(1, "dim"); err != nil {
		return None, err
	}
	t := a[0].Tensor()
	d, ok := m.get(0, "dim")
	if !ok || d.IsNone() {
		return shapeValue(t), nil
	}
	if d.Kind() != "int" {
		return None, fmt.Errorf("argument 'dim' must be int, not %s", d.Kind())
	}
	nd, err := tensor.NormDim(int(d.v.(int64)), t.Dim())
	if err != nil {
		return None, err
	}
	return Value{int64(t.Size(nd))}, nil
}

func methodChunk(a []Value, kw map[string]Value) (Value, error) {
	m := margs{a, kw}
	if err := m.check(2, "chunks", "dim"); err != nil {
		return None, err
	}
	n, err := m.intOr(0, "chunks", 0)
	if err != nil {
		return None, err
	}
	if n <= 0 {
		return None, fmt.Errorf("chunk expects `chunks` to be greater than 0, got: %d", n)
	}
	dim, err := m.intOr(1, "dim", 0)
	if err != nil {
		return None, err
	}
	t := a[0].Tensor()
	nd, err := tensor.NormDim(int(dim), t.Dim())
	if err != nil {
		return None, err
	}
	size := (int64(t.Size(nd)) + n - 1) / n
	if size == 0 {
		size = 1
	}
	return Apply(opSplit, []Value{a[0], {size}, {dim}}, nil)
}
