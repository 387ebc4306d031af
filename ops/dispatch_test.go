package ops_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// defineUnique registers a custom operator with its kernel and meta
// function in a registry of its own (ops.Define registers in the global
// registry, whose size TestGlobalRegistry checks: ExampleDefine uses it).
func defineUnique(t *testing.T, schema string, kernel, meta ops.Kernel, tags ops.Tag) *ops.Operator {
	t.Helper()
	o, err := ops.NewRegistry().Register(schema, tags)
	require.NoError(t, err)
	if kernel != nil {
		o.SetKernel(kernel)
	}
	if meta != nil {
		o.SetMeta(meta)
	}
	return o
}

func vec(vals ...float32) *tensor.Tensor { return tensor.Must(tensor.FromSlice(vals)) }

// Bind rejects bad calls with an error that names the operator and, when
// one is to blame, the argument.
func TestBindErrors(t *testing.T) {
	add := optest.Op(t, "aten::add.Tensor")
	x := vec(1, 2)
	tests := []struct {
		name   string
		op     *ops.Operator
		args   []any
		kwargs map[string]any
		arg    string // the argument blamed, "" for none
		want   string
	}{
		{"too many positional", add, []any{x, x, 1}, nil, "", "takes at most 2 positional arguments but 3 were given"},
		{"unknown kwarg", add, []any{x, x}, map[string]any{"beta": 1}, "", "got an unexpected keyword argument 'beta'"},
		{"missing required", add, []any{x}, nil, "other", "missing required argument of type Tensor"},
		{"missing first", add, nil, map[string]any{"other": x}, "self", "missing required argument of type Tensor"},
		{"twice", add, []any{x, x}, map[string]any{"other": x}, "other", "given both by position and by keyword"},
		{"wrong type tensor", add, []any{x, "y"}, nil, "other", "expected Tensor, got str"},
		{"nil tensor", add, []any{x, (*tensor.Tensor)(nil)}, nil, "other", "expected Tensor, got None"},
		{"None tensor", add, []any{nil, x}, nil, "self", "expected Tensor, got None"},
		{"wrong type scalar", add, []any{x, x}, map[string]any{"alpha": "two"}, "alpha", "expected Scalar, got str"},
		{"zero Scalar", add, []any{x, x}, map[string]any{"alpha": ops.Scalar{}}, "alpha", "expected Scalar, got Scalar"},
		{"wrong type int", optest.Op(t, "aten::select.int"), []any{x, 0.5, 0}, nil, "dim", "expected int, got float"},
		{"wrong type int list", optest.Op(t, "aten::permute"), []any{x, []float64{1}}, nil, "dims", "expected int[], got list of float"},
		{"bad list element", optest.Op(t, "aten::permute"), []any{x, []any{0, "a"}}, nil, "dims", "element 1: expected int, got str"},
		{"fixed size list element", optest.Op(t, "aten::avg_pool2d"), []any{x, []any{2, 2.5}}, nil, "kernel_size", "element 1: expected int, got float"},
		{"tensor list with None", optest.Op(t, "aten::cat"), []any{[]any{x, nil}}, nil, "tensors", "element 1: expected Tensor, got None"},
		{"tensor list wrong element", optest.Op(t, "aten::cat"), []any{[]any{x, 3}}, nil, "tensors", "element 1: expected Tensor, got int"},
		{"bad dtype", optest.Op(t, "aten::sum"), []any{x}, map[string]any{"dtype": "complex64"}, "dtype", "expected ScalarType, got str"},
		{"invalid dtype", optest.Op(t, "aten::sum"), []any{x}, map[string]any{"dtype": tensor.Invalid}, "dtype", "expected ScalarType, got ScalarType"},
		{"bool for int", optest.Op(t, "aten::select.int"), []any{x, true, 0}, nil, "dim", "expected int, got bool"},
		{"int list for str list", optest.Op(t, "aten::sum.dim_DimnameList"), []any{x, []int{0}}, nil, "dim", "expected str[1], got list of int"},
		{"tensor for complex", optest.Op(t, "aten::add.complex"), []any{x, 1}, nil, "a", "expected complex, got Tensor"},
		{"tensor for generic list", optest.Op(t, "aten::add.t"), []any{x, x}, nil, "a", "expected t[], got Tensor"},
		{"str for bool", optest.Op(t, "aten::mean.dim"), []any{x, []int{0}, "yes"}, nil, "keepdim", "expected bool, got str"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.op.Bind(tt.args, tt.kwargs)
			require.Error(t, err)
			var ce *ops.CallError
			require.True(t, errors.As(err, &ce), "%T", err)
			assert.Equal(t, tt.op.Schema().QualifiedName(), ce.Op)
			assert.Equal(t, tt.arg, ce.Arg)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), tt.op.Schema().QualifiedName())
			if tt.arg != "" {
				assert.Contains(t, err.Error(), "argument '"+tt.arg+"'")
			}
			// Call reports the same error without running anything.
			_, cerr := tt.op.Call(tt.args, tt.kwargs)
			assert.EqualError(t, cerr, err.Error())
		})
	}
}

// Bind fills defaults and normalizes values to their canonical Go forms.
func TestBindDefaultsAndNormalization(t *testing.T) {
	x := vec(1, 2)
	c, err := optest.Op(t, "aten::add.Tensor").Bind([]any{x, x}, nil)
	require.NoError(t, err)
	assert.Same(t, x, c.Tensor("self"))
	assert.Equal(t, ops.IntScalar(1), c.Scalar("alpha"))

	c, err = optest.Op(t, "aten::add.Tensor").Bind([]any{x}, map[string]any{"other": x, "alpha": 2.5})
	require.NoError(t, err)
	assert.True(t, c.Scalar("alpha").IsFloat())
	assert.Equal(t, 2.5, c.Scalar("alpha").Float())

	// A Python number for a Tensor parameter is a wrapped number: a 0-d
	// tensor of the number's kind (float64, int64, bool), marked wrapped,
	// as PyTorch's argument parser makes it.
	for _, tt := range []struct {
		num  any
		want tensor.DType
	}{{0.5, tensor.Float64}, {int64(2), tensor.Int64}, {3, tensor.Int64}, {true, tensor.Bool}} {
		c, err = optest.Op(t, "aten::mul.Tensor").Bind([]any{x, tt.num}, nil)
		require.NoError(t, err)
		w := c.Tensor("other")
		require.NotNil(t, w, "%v", tt.num)
		assert.True(t, w.IsWrappedNumber(), "%v", tt.num)
		assert.Equal(t, tt.want, w.DType(), "%v", tt.num)
		assert.Empty(t, w.Shape(), "%v", tt.num)
		assert.False(t, c.Tensor("self").IsWrappedNumber())
	}

	c, err = optest.Op(t, "aten::avg_pool2d").Bind([]any{x, 3}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int64{3, 3}, c.Ints("kernel_size"), "an int repeats to int[2]")
	assert.Equal(t, []int64{}, c.Ints("stride"), "stride=[]")
	assert.Equal(t, []int64{0, 0}, c.Ints("padding"), "padding=0 is [0, 0]")
	assert.False(t, c.Bool("ceil_mode"))
	assert.True(t, c.Bool("count_include_pad"))
	_, set := c.OptInt("divisor_override")
	assert.False(t, set)
	assert.True(t, c.IsNone("divisor_override"))

	c, err = optest.Op(t, "aten::mean.dim").Bind([]any{x, []int{-1}}, map[string]any{"dtype": "torch.float64"})
	require.NoError(t, err)
	assert.Equal(t, []int64{-1}, c.Ints("dim"))
	assert.False(t, c.Bool("keepdim"))
	dt, ok := c.DType("dtype")
	assert.True(t, ok)
	assert.Equal(t, tensor.Float64, dt)

	c, err = optest.Op(t, "aten::mean.dim").Bind([]any{x, nil}, nil)
	require.NoError(t, err)
	assert.True(t, c.IsNone("dim"))
	assert.Nil(t, c.Ints("dim"))
	_, ok = c.DType("dtype")
	assert.False(t, ok)

	c, err = optest.Op(t, "aten::clamp").Bind([]any{x}, map[string]any{"max": int64(3)})
	require.NoError(t, err)
	_, set = c.OptScalar("min")
	assert.False(t, set)
	mx, set := c.OptScalar("max")
	assert.True(t, set)
	assert.Equal(t, int64(3), mx.Int())

	c, err = optest.Op(t, "aten::leaky_relu").Bind([]any{x}, nil)
	require.NoError(t, err)
	assert.InDelta(t, 0.01, c.Scalar("negative_slope").Float(), 0)

	c, err = optest.Op(t, "aten::cat").Bind([]any{[]any{x, x}}, nil)
	require.NoError(t, err)
	assert.Equal(t, []*tensor.Tensor{x, x}, c.Tensors("tensors"))
	assert.Equal(t, int64(0), c.Int("dim"))

	c, err = optest.Op(t, "aten::index.Tensor").Bind([]any{x, []any{nil, x}}, nil)
	require.NoError(t, err)
	assert.Equal(t, []*tensor.Tensor{nil, x}, c.Tensors("indices"), "Tensor?[] keeps None")

	c, err = optest.Op(t, "aten::select.int").Bind([]any{x, int64(0), 1}, nil)
	require.NoError(t, err)
	assert.Equal(t, int64(1), c.Int("index"))
	assert.Equal(t, int64(0), c.Arg("dim"))

	c, err = optest.Op(t, "aten::div.Tensor_mode").Bind([]any{x, x}, map[string]any{"rounding_mode": "floor"})
	require.NoError(t, err)
	assert.Equal(t, "floor", c.Str("rounding_mode"))

	c, err = optest.Op(t, "aten::elu").Bind([]any{x}, map[string]any{"alpha": float32(0.5)})
	require.NoError(t, err)
	assert.Equal(t, 0.5, c.Scalar("alpha").Float())
}

// A kernel that changes a default list in place does not change the
// default seen by later calls.
func TestDefaultsAreNotShared(t *testing.T) {
	op := defineUnique(t, "tn_test::dims(Tensor self, int[] dims=[1, 2]) -> Tensor",
		func(c *ops.Call) ([]any, error) {
			d := c.Ints("dims")
			d[0] = 100
			return []any{c.Tensor("self")}, nil
		}, nil, 0)
	for i := 0; i < 2; i++ {
		c, err := op.Bind([]any{vec(1)}, nil)
		require.NoError(t, err)
		assert.Equal(t, []int64{1, 2}, c.Ints("dims"), "call %d", i)
		_, err = op.Call([]any{vec(1)}, nil)
		require.NoError(t, err)
	}
}

// Resolve picks the overload the arguments bind to.
func TestResolve(t *testing.T) {
	r := ops.Global()
	x := vec(1, 2)
	tests := []struct {
		name   string
		args   []any
		kwargs map[string]any
		want   string
	}{
		{"aten::add", []any{x, x}, nil, "aten.add.Tensor"},
		{"aten::add", []any{x, 2}, nil, "aten.add.Scalar"},
		{"aten::add", []any{x, 2.5}, map[string]any{"alpha": 2}, "aten.add.Scalar"},
		{"aten::add", []any{x, x}, map[string]any{"alpha": 2}, "aten.add.Tensor"},
		{"aten::add", []any{x, x}, map[string]any{"out": x}, "aten.add.out"},
		{"aten.add", []any{x, x}, nil, "aten.add.Tensor"},
		{"aten::add.Scalar", []any{x, x}, nil, "aten.add.Scalar"}, // named overload: no binding check
		{"aten.add.Tensor", nil, nil, "aten.add.Tensor"},
		{"aten::relu", []any{x}, nil, "aten.relu.default"},
		{"aten::sum", []any{x}, nil, "aten.sum.default"},
		{"aten::sum", []any{x, []int{0}}, nil, "aten.sum.dim_IntList"},
		{"aten::select", []any{x, 0, 1}, nil, "aten.select.int"},
	}
	for _, tt := range tests {
		o, err := r.Resolve(tt.name, tt.args, tt.kwargs)
		require.NoError(t, err, "%s%v", tt.name, tt.args)
		assert.Equal(t, tt.want, o.String(), "%s%v", tt.name, tt.args)
	}
}

// When no overload binds, the error lists every candidate with its reason.
func TestResolveErrors(t *testing.T) {
	r := ops.Global()
	x := vec(1, 2)
	_, err := r.Resolve("aten::add", []any{x, "y"}, nil)
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, "no overload of aten::add accepts these arguments")
	assert.Contains(t, msg, "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor: argument 'other': expected Tensor, got str")
	assert.Contains(t, msg, "aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor: argument 'other': expected Scalar, got str")
	assert.Contains(t, msg, "aten::add.out(")

	for name, want := range map[string]string{
		"add":                 "not a qualified operator name",
		"aten::no_such_op":    "unknown operator aten::no_such_op",
		"aten::add.NoSuch":    "unknown operator aten::add.NoSuch",
		"nowhere::add":        "unknown operator nowhere::add",
		"aten.no_such.Tensor": "unknown operator aten::no_such.Tensor",
	} {
		_, err := r.Resolve(name, []any{x}, nil)
		assert.ErrorContains(t, err, want, name)
	}
}

// fakeSym is a Symbolic value recorded by fakeTracer.
type fakeSym struct {
	tr   *fakeTracer
	name string
}

func (s *fakeSym) Tracer() ops.Tracer { return s.tr }

// fakeTracer records the calls made on symbolic values.
type fakeTracer struct {
	calls []string
}

func (f *fakeTracer) Trace(op *ops.Operator, args []any, kwargs map[string]any) ([]any, error) {
	f.calls = append(f.calls, fmt.Sprintf("%s %d args %d kwargs", op, len(args), len(kwargs)))
	out := make([]any, len(op.Schema().Returns))
	for i := range out {
		out[i] = &fakeSym{f, fmt.Sprintf("%s_%d", op.ShortName(), len(f.calls))}
	}
	return out, nil
}

// Calls with a Symbolic argument anywhere (positional, keyword, inside a
// list) go to its Tracer and run no kernel.
func TestSymbolicArgumentsGoToTracer(t *testing.T) {
	ran := 0
	op := defineUnique(t, "tn_test::traced(Tensor self, Tensor[] others, *, int k=1) -> (Tensor, Tensor)",
		func(c *ops.Call) ([]any, error) { ran++; return []any{c.Tensor("self"), c.Tensor("self")}, nil }, nil, 0)
	tr := &fakeTracer{}
	s := &fakeSym{tr, "x"}
	x := vec(1)
	calls := []struct {
		args   []any
		kwargs map[string]any
	}{
		{[]any{s, []any{x}}, nil},
		{[]any{x, []any{x, s}}, nil},
		{[]any{x}, map[string]any{"others": []any{x}, "k": s}},
	}
	for i, c := range calls {
		out, err := op.Call(c.args, c.kwargs)
		require.NoError(t, err, "call %d", i)
		require.Len(t, out, 2)
		assert.IsType(t, &fakeSym{}, out[0])
	}
	assert.Equal(t, 0, ran)
	assert.Len(t, tr.calls, 3)
	assert.Contains(t, tr.calls[2], "1 args 2 kwargs")

	// Without symbolic values the kernel runs.
	out, err := op.Call([]any{x, []any{x}}, nil)
	require.NoError(t, err)
	assert.Len(t, out, 2)
	assert.Equal(t, 1, ran)

	// A symbolic value binds to any argument type.
	c, err := op.Bind([]any{s, []any{x, s}}, map[string]any{"k": s})
	require.NoError(t, err)
	assert.Equal(t, s, c.Arg("self"))
	assert.Equal(t, s, c.Arg("k"))
}

// A custom operator with a kernel and a meta function runs the kernel on
// concrete tensors and the meta function on meta tensors.
func TestCustomOperatorKernelAndMeta(t *testing.T) {
	var kernelCalls, metaCalls int
	kernel := func(c *ops.Call) ([]any, error) {
		kernelCalls++
		x := c.Tensor("self")
		f := c.Float("factor")
		vals := x.Float64s()
		for i := range vals {
			vals[i] *= f
		}
		return []any{tensor.Must(tensor.FromFloat64s(x.DType(), vals, x.Shape()...))}, nil
	}
	meta := func(c *ops.Call) ([]any, error) {
		metaCalls++
		x := c.Tensor("self")
		return []any{tensor.Must(tensor.NewMeta(x.DType(), x.Shape()...))}, nil
	}
	op := defineUnique(t, "tn_test::scale(Tensor self, float factor=2.0) -> Tensor", kernel, meta, 0)
	assert.True(t, op.HasKernel())
	assert.True(t, op.HasMeta())
	assert.False(t, op.Has(ops.Core))

	out, err := op.Call([]any{vec(1, 2, 3)}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{2, 4, 6}, out[0].(*tensor.Tensor).Float64s())

	got, err := op.Call1(vec(1, -1), 3)
	require.NoError(t, err)
	assert.Equal(t, []float64{3, -3}, got.(*tensor.Tensor).Float64s())

	m := tensor.Must(tensor.NewMeta(tensor.Float16, 4, 5))
	out, err = op.Call([]any{m}, map[string]any{"factor": 0.5})
	require.NoError(t, err)
	mo := out[0].(*tensor.Tensor)
	assert.True(t, mo.IsMeta())
	assert.Equal(t, []int{4, 5}, mo.Shape())
	assert.Equal(t, tensor.Float16, mo.DType())
	assert.Equal(t, 2, kernelCalls)
	assert.Equal(t, 1, metaCalls)

	// It resolves by name in its registry; registering it again is an
	// error, and so is a bad schema.
	r := ops.NewRegistry()
	o, err := r.Register(op.Schema().String(), 0)
	require.NoError(t, err)
	o.SetKernel(kernel)
	found, err := r.Resolve("tn_test::scale", []any{vec(5)}, nil)
	require.NoError(t, err)
	assert.Same(t, o, found)
	res, err := found.Call([]any{vec(5)}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{10}, res[0].(*tensor.Tensor).Float64s())
	_, err = r.Register(op.Schema().String(), 0)
	assert.ErrorContains(t, err, "already registered")
	_, err = r.Register("tn_test::broken(Tensor self -> Tensor", 0)
	assert.Error(t, err)
}

// Tags derive from the schema and may be added.
func TestCustomOperatorTags(t *testing.T) {
	inplace := defineUnique(t, "tn_test::bump_(Tensor(a!) self) -> Tensor(a!)", nil, nil, 0)
	assert.True(t, inplace.Has(ops.Inplace|ops.Mutable))
	assert.True(t, inplace.Impure())
	view := defineUnique(t, "tn_test::alias(Tensor(a) self) -> Tensor(a)", nil, nil, ops.Core)
	assert.True(t, view.Has(ops.View|ops.Core))
	assert.False(t, view.Has(ops.Mutable))
	assert.False(t, view.HasKernel())
}

// Kernel failures come back as errors naming the operator and, through
// Call.Errorf, the argument; no panic escapes Call.
func TestCallErrors(t *testing.T) {
	x := vec(1, 2)
	m := tensor.Must(tensor.NewMeta(tensor.Float32, 2))
	tests := []struct {
		name   string
		kernel ops.Kernel
		meta   ops.Kernel
		args   []any
		arg    string
		want   string
	}{
		{"argument error", func(c *ops.Call) ([]any, error) {
			return nil, c.Errorf("dim", "expected a dim in [0, %d), got %d", 1, c.Int("dim"))
		}, nil, []any{x, 5}, "dim", "argument 'dim': expected a dim in [0, 1), got 5"},
		{"plain error", func(c *ops.Call) ([]any, error) {
			return nil, errors.New("no luck")
		}, nil, []any{x, 0}, "", "no luck"},
		{"panic", func(c *ops.Call) ([]any, error) {
			var s []int
			_ = s[c.Int("dim")]
			return nil, nil
		}, nil, []any{x, 3}, "", "internal error: runtime error: index out of range"},
		{"panic with a value", func(c *ops.Call) ([]any, error) {
			panic("boom")
		}, nil, []any{x, 0}, "", "internal error: boom"},
		{"unknown argument name", func(c *ops.Call) ([]any, error) {
			return []any{c.Tensor("input")}, nil
		}, nil, []any{x, 0}, "", `kernel reads argument "input"`},
		{"wrong accessor", func(c *ops.Call) ([]any, error) {
			return []any{c.Float("dim")}, nil
		}, nil, []any{x, 0}, "", "internal error"},
		{"wrong number of results", func(c *ops.Call) ([]any, error) {
			return []any{x, x}, nil
		}, nil, []any{x, 0}, "", "kernel returned 2 values for 1 returns"},
		{"no kernel", nil, nil, []any{x, 0}, "", "no kernel registered"},
		{"no meta function", func(c *ops.Call) ([]any, error) { return []any{x}, nil }, nil, []any{m, 0}, "", "no meta function registered"},
		{"meta panics", nil, func(c *ops.Call) ([]any, error) { panic("meta boom") }, []any{m, 0}, "", "internal error: meta boom"},
		{"meta argument error", nil, func(c *ops.Call) ([]any, error) {
			return nil, c.Errorf("self", "expected a floating tensor")
		}, []any{m, 0}, "self", "argument 'self': expected a floating tensor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op := defineUnique(t, "tn_test::fail(Tensor self, int dim) -> Tensor", tt.kernel, tt.meta, 0)
			var out []any
			var err error
			require.NotPanics(t, func() { out, err = op.Call(tt.args, nil) })
			require.Error(t, err)
			assert.Nil(t, out)
			var ce *ops.CallError
			require.True(t, errors.As(err, &ce), "%T", err)
			assert.Equal(t, op.Schema().QualifiedName(), ce.Op)
			assert.Equal(t, tt.arg, ce.Arg)
			assert.Contains(t, err.Error(), op.Schema().QualifiedName()+": ")
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// An error a kernel returns from a nested call keeps the inner operator's
// name; argument errors unwrap to the kernel's error.
func TestNestedCallErrors(t *testing.T) {
	inner := defineUnique(t, "tn_test::inner(Tensor self, int k) -> Tensor", func(c *ops.Call) ([]any, error) {
		return nil, c.Errorf("k", "k must be positive")
	}, nil, 0)
	outer := defineUnique(t, "tn_test::outer(Tensor self) -> Tensor", func(c *ops.Call) ([]any, error) {
		return inner.Call([]any{c.Tensor("self"), -1}, nil)
	}, nil, 0)
	_, err := outer.Call([]any{vec(1)}, nil)
	var ce *ops.CallError
	require.True(t, errors.As(err, &ce))
	assert.Equal(t, inner.Schema().QualifiedName(), ce.Op)
	assert.Equal(t, "k", ce.Arg)
	assert.Equal(t, "k must be positive", errors.Unwrap(err).Error())
}

// Operators of the 1.13 schema list have no kernel unless the kernels
// package registers one; composite ones say how to proceed.
func TestCallWithoutKernels(t *testing.T) {
	op := optest.Op(t, "aten::linspace")
	if op.HasKernel() {
		t.Skip("a kernel is registered")
	}
	_, err := op.Call([]any{0, 1, 5}, nil)
	assert.ErrorContains(t, err, "no kernel registered (it is a composite operator: decompose it into core operators)")
}

// A Call1 on an operator with several results is an error.
func TestCall1SeveralResults(t *testing.T) {
	op := defineUnique(t, "tn_test::pair(Tensor self) -> (Tensor, Tensor)", func(c *ops.Call) ([]any, error) {
		return []any{c.Tensor("self"), c.Tensor("self")}, nil
	}, nil, 0)
	_, err := op.Call1(vec(1))
	assert.ErrorContains(t, err, "returned 2 values, not one")
}

// Scalars convert and print as Python numbers do.
func TestScalar(t *testing.T) {
	tests := []struct {
		s                     ops.Scalar
		isInt, isFloat, isBoo bool
		f                     float64
		i                     int64
		dt                    tensor.DType
		str                   string
	}{
		{ops.IntScalar(-3), true, false, false, -3, -3, tensor.Int64, "-3"},
		{ops.FloatScalar(2.75), false, true, false, 2.75, 2, tensor.Float64, "2.75"},
		{ops.FloatScalar(-2.75), false, true, false, -2.75, -2, tensor.Float64, "-2.75"},
		{ops.FloatScalar(3), false, true, false, 3, 3, tensor.Float64, "3.0"},
		{ops.FloatScalar(1e20), false, true, false, 1e20, 0, tensor.Float64, "1e+20"},
		{ops.BoolScalar(true), false, false, true, 1, 1, tensor.Bool, "True"},
		{ops.BoolScalar(false), false, false, true, 0, 0, tensor.Bool, "False"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.isInt, tt.s.IsInt(), tt.str)
		assert.Equal(t, tt.isFloat, tt.s.IsFloat(), tt.str)
		assert.Equal(t, tt.isBoo, tt.s.IsBool(), tt.str)
		assert.Equal(t, tt.f, tt.s.Float(), tt.str)
		if tt.str != "1e+20" {
			assert.Equal(t, tt.i, tt.s.Int(), tt.str)
		}
		assert.Equal(t, tt.dt, tt.s.DType(), tt.str)
		assert.Equal(t, tt.str, tt.s.String())
	}
	assert.Equal(t, "inf", ops.FloatScalar(1/zero()).String())
	assert.Equal(t, "-inf", ops.FloatScalar(-1/zero()).String())
	assert.Equal(t, []int64{-1}, ops.IntScalar(1<<32-1).Tensor(tensor.Int32).Int64s())
	assert.Equal(t, []int64{9007199254740993}, ops.IntScalar(9007199254740993).Tensor(tensor.Int64).Int64s(), "exact beyond 2^53")
	assert.Equal(t, []float64{2.5}, ops.FloatScalar(2.5).Tensor(tensor.Float16).Float64s())
	assert.Equal(t, 0, ops.FloatScalar(2.5).Tensor(tensor.Float32).Dim())
}

func zero() float64 { return 0 }

// TestPlace checks that Place orders arguments by the schema, fills
// defaults and leaves values unchecked, but still refuses a wrong arity or
// an unknown keyword.
func TestPlace(t *testing.T) {
	add := optest.Op(t, "aten::add.Tensor")
	type fake struct{ name string }
	x, y := fake{"x"}, fake{"y"}
	got, err := add.Place([]any{x}, map[string]any{"other": y})
	require.NoError(t, err)
	assert.Equal(t, []any{x, y, ops.IntScalar(1)}, got)

	view := optest.Op(t, "aten::mean.dim")
	got, err = view.Place([]any{x, []any{"s0"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, []any{x, []any{"s0"}, false, nil}, got)

	_, err = add.Place([]any{x, y, 2, 3}, nil)
	assert.ErrorContains(t, err, "takes at most 2 positional arguments")
	_, err = add.Place([]any{x, y}, map[string]any{"beta": 1})
	assert.ErrorContains(t, err, "unexpected keyword argument 'beta'")
	_, err = add.Place([]any{x}, nil)
	assert.ErrorContains(t, err, "missing required argument")
}
