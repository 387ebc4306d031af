package kernels

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// inplaceF32 returns a float32 tensor of vals and shape.
func inplaceF32(vals []float64, shape ...int) *tensor.Tensor {
	return tensor.Must(tensor.FromFloat64s(tensor.Float32, vals, shape...))
}

// inplaceRange returns a float32 tensor 0, 1, 2, ... of shape.
func inplaceRange(shape ...int) *tensor.Tensor {
	n, _ := tensor.Numel(shape)
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(i)
	}
	return inplaceF32(v, shape...)
}

// TestInplaceRegistered checks which in-place overloads got a kernel and a meta
// function: those whose functional overload has one, and not the view ones.
func TestInplaceRegistered(t *testing.T) {
	for _, name := range []string{
		"aten::add_.Tensor", "aten::add_.Scalar", "aten::mul_.Tensor", "aten::relu_", "aten::sigmoid_",
		"aten::div_.Scalar", "aten::clamp_", "aten::hardtanh_", "aten::fill_.Scalar", "aten::fill_.Tensor",
		"aten::zero_", "aten::dropout_", "aten::copy_", "aten::pow_.Scalar", "aten::floor_divide_.Tensor",
		"aten::contiguous", "aten::group_norm", "aten::instance_norm", "aten::conv_transpose1d",
		"aten::conv_transpose2d.input",
	} {
		o, ok := ops.Global().Lookup(name)
		require.True(t, ok, name)
		assert.True(t, o.HasKernel(), "%s has a kernel", name)
		assert.True(t, o.HasMeta(), "%s has a meta function", name)
	}
	for _, name := range []string{"aten::squeeze_", "aten::unsqueeze_", "aten::t_", "aten::as_strided_"} {
		o, _ := ops.Global().Lookup(name)
		assert.False(t, o.HasKernel(), "%s changes self's shape: no generic kernel", name)
	}
	// pow_.Scalar is pow.Tensor_Scalar in place: its functional overload
	// of the same name takes a Scalar self.
	fn := functional(ops.Global(), op("aten::pow_.Scalar"))
	require.NotNil(t, fn)
	assert.Equal(t, "aten.pow.Tensor_Scalar", fn.String())
}

// TestInplaceReturnsSelfStrided checks that in-place kernels return self itself
// and write through a strided view into its base.
func TestInplaceReturnsSelfStrided(t *testing.T) {
	base := inplaceRange(2, 3) // [[0 1 2] [3 4 5]]
	view := tensor.Must(base.T())
	other := inplaceF32([]float64{10, 20, 30, 40, 50, 60}, 3, 2)
	out, err := optest.Call(t, "aten::add_.Tensor", []any{view, other}, nil)
	require.NoError(t, err)
	require.Same(t, view, out[0].(*tensor.Tensor))
	// view[i][j] = base[j][i] += other[i][j].
	assert.Equal(t, []float64{10, 31, 52, 23, 44, 65}, base.Float64s())

	out, err = optest.Call(t, "aten::relu_", []any{view}, nil)
	require.NoError(t, err)
	require.Same(t, view, out[0].(*tensor.Tensor))

	neg := inplaceF32([]float64{-1, 2, -3, 4, -5, 6}, 3, 2)
	out, err = optest.Call(t, "aten::copy_", []any{view, neg}, nil)
	require.NoError(t, err)
	require.Same(t, view, out[0].(*tensor.Tensor))
	assert.Equal(t, []float64{-1, -3, -5, 2, 4, 6}, base.Float64s())

	col := tensor.Must(base.Select(1, 1)) // base[:, 1]
	out, err = optest.Call(t, "aten::zero_", []any{col}, nil)
	require.NoError(t, err)
	require.Same(t, col, out[0].(*tensor.Tensor))
	assert.Equal(t, []float64{-1, 0, -5, 2, 0, 6}, base.Float64s())

	out, err = optest.Call(t, "aten::fill_.Scalar", []any{col, 7.5}, nil)
	require.NoError(t, err)
	require.Same(t, col, out[0].(*tensor.Tensor))
	assert.Equal(t, []float64{-1, 7.5, -5, 2, 7.5, 6}, base.Float64s())

	// float32 self times a float64 tensor is computed in float64 and
	// rounded to float32.
	x := inplaceF32([]float64{1.1, 2.2}, 2)
	y := tensor.Must(tensor.FromFloat64s(tensor.Float64, []float64{3.3, 1}, 2))
	out, err = optest.Call(t, "aten::mul_.Tensor", []any{x, y}, nil)
	require.NoError(t, err)
	require.Same(t, x, out[0].(*tensor.Tensor))
	assert.Equal(t, tensor.Float32, x.DType())
	assert.Equal(t, []float32{float32(float64(float32(1.1)) * 3.3), float32(2.2)}, tensor.Values[float32](x))

	// x.add_(x) reads and writes the same elements.
	z := inplaceRange(4)
	_, err = optest.Call(t, "aten::add_.Tensor", []any{z, z}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 2, 4, 6}, z.Float64s())

	// A contiguous tensor is its own contiguous version; a view is not.
	out, err = optest.Call(t, "aten::contiguous", []any{base}, nil)
	require.NoError(t, err)
	assert.Same(t, base, out[0].(*tensor.Tensor))
	out, err = optest.Call(t, "aten::contiguous", []any{view}, nil)
	require.NoError(t, err)
	c := out[0].(*tensor.Tensor)
	assert.True(t, c.IsContiguous())
	assert.True(t, tensor.Equal(view, c))

	// Meta: the in-place meta function returns self too.
	m := tensor.Must(tensor.NewMeta(tensor.Float32, 2, 3))
	out, err = optest.Call(t, "aten::add_.Scalar", []any{m, 1.5}, nil)
	require.NoError(t, err)
	assert.Same(t, m, out[0].(*tensor.Tensor))
}

// TestInplaceBadInput checks that bad arguments give errors naming the argument
// and PyTorch's message.
func TestInplaceBadInput(t *testing.T) {
	f32 := func(shape ...int) *tensor.Tensor { return inplaceRange(shape...) }
	typed := func(dt tensor.DType, shape ...int) *tensor.Tensor { return inplaceRange(shape...).To(dt) }
	expanded := tensor.Must(f32(1).Expand(3))
	line := f32(5)
	cases := []struct {
		name, op string
		args     []any
		kwargs   map[string]any
		arg, msg string
	}{
		{"add_ broadcast changes self's shape", "aten::add_.Tensor", []any{f32(3), f32(2, 3)}, nil,
			"self", "output with shape [3] doesn't match the broadcast shape [2, 3]"},
		{"add_ 0-d self", "aten::add_.Tensor", []any{f32(), f32(3)}, nil,
			"self", "output with shape [] doesn't match the broadcast shape [3]"},
		{"add_ int self, float scalar", "aten::add_.Scalar", []any{typed(tensor.Int64, 2), 2.5}, nil,
			"self", "result type Float can't be cast to the desired output type Long"},
		{"add_ bool self, int tensor", "aten::add_.Tensor", []any{typed(tensor.Bool, 2), typed(tensor.Int64, 2)}, nil,
			"self", "result type Long can't be cast to the desired output type Bool"},
		{"mul_ int self, float 0-d", "aten::mul_.Tensor", []any{typed(tensor.Int64, 2), f32()}, nil,
			"self", "result type Float can't be cast to the desired output type Long"},
		{"sigmoid_ int", "aten::sigmoid_", []any{typed(tensor.Int32, 2)}, nil,
			"self", "result type Float can't be cast to the desired output type Int"},
		{"div_ int by int", "aten::div_.Scalar", []any{typed(tensor.Int64, 2), 2}, nil,
			"self", "result type Float can't be cast to the desired output type Long"},
		{"clamp_ int, float bound", "aten::clamp_", []any{typed(tensor.Int64, 2), 1.5}, nil,
			"self", "result type Float can't be cast to the desired output type long int"},
		{"pow_ int ** float", "aten::pow_.Scalar", []any{typed(tensor.Int64, 2), 2.5}, nil,
			"self", "Found dtype Long but expected Float"},
		{"bitwise_and_ int, float: the cast is checked first", "aten::bitwise_and_.Tensor", []any{typed(tensor.Int64, 2), f32(2)}, nil,
			"self", "result type Float can't be cast to the desired output type Long"},
		{"relu_ bool: the functional error", "aten::relu_", []any{typed(tensor.Bool, 2)}, nil,
			"self", "Boolean inputs not supported for relu"},
		{"relu_ expanded self", "aten::relu_", []any{expanded}, nil,
			"self", "more than one element of the written-to tensor refers to a single memory location"},
		{"add_ partial overlap", "aten::add_.Tensor", []any{tensor.Must(line.Narrow(0, 1, 4)), tensor.Must(line.Narrow(0, 0, 4))}, nil,
			"other", "some elements of the input tensor and the written-to tensor refer to a single memory location"},
		{"cumsum_ dtype differs", "aten::cumsum_", []any{typed(tensor.Int64, 2), 0}, map[string]any{"dtype": tensor.Float32},
			"dtype", "Bad in-place call: input tensor dtype long int and output tensor dtype float should match"},
		{"addmm_ self broadcast", "aten::addmm_", []any{f32(2), f32(2, 3), f32(3, 2)}, nil,
			"self", "Bad in-place call: input tensor size [2] and output tensor size [2, 2] should match"},
		{"copy_ into a smaller self", "aten::copy_", []any{f32(3), f32(2, 3)}, nil,
			"self", "output with shape [3] doesn't match the broadcast shape [2, 3]"},
		{"copy_ shapes that do not broadcast", "aten::copy_", []any{f32(3), f32(4)}, nil,
			"src", "must match the size of tensor b (4)"},
		{"copy_ expanded self", "aten::copy_", []any{expanded, f32(3)}, nil,
			"self", "more than one element of the written-to tensor refers to a single memory location"},
		{"copy_ partial overlap", "aten::copy_", []any{tensor.Must(line.Narrow(0, 1, 4)), tensor.Must(line.Narrow(0, 0, 4))}, nil,
			"src", "some elements of the input tensor and the written-to tensor refer to a single memory location"},
		{"fill_ with a 1-d tensor", "aten::fill_.Tensor", []any{f32(3), f32(1)}, nil,
			"value", "fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions."},
		{"contiguous preserve_format of a view", "aten::contiguous", []any{tensor.Must(f32(2, 3).T())}, map[string]any{"memory_format": "preserve_format"},
			"memory_format", "preserve memory format is unsupported by the contiguous operator"},
		{"contiguous channels_last of 2-d", "aten::contiguous", []any{f32(2, 3)}, map[string]any{"memory_format": "channels_last"},
			"memory_format", "required rank 4 tensor to use channels_last format"},
		{"group_norm channels not divisible", "aten::group_norm", []any{f32(2, 3, 4), 2}, nil,
			"num_groups", "Expected number of channels in input to be divisible by num_groups, but got input of shape [2, 3, 4] and num_groups=2"},
		{"group_norm zero groups", "aten::group_norm", []any{f32(2, 3, 4), 0}, nil,
			"num_groups", "Expected num groups to be greater than 0, got 0"},
		{"group_norm weight size", "aten::group_norm", []any{f32(2, 4, 4), 2, f32(3)}, nil,
			"weight", "but got weight of shape [3] and input of shape [2, 4, 4]"},
		{"group_norm bias size prints weight's shape", "aten::group_norm", []any{f32(2, 4, 4), 2, nil, f32(3)}, nil,
			"bias", "but got bias of shape [0] and input of shape [2, 4, 4]"},
		{"group_norm 1-d input", "aten::group_norm", []any{f32(3), 1}, nil,
			"input", "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
		{"group_norm weight dtype", "aten::group_norm", []any{f32(2, 4, 4), 2, typed(tensor.Float64, 4)}, nil,
			"weight", "expected scalar type Float but found Double"},
		{"conv_transpose2d weight rank 3", "aten::conv_transpose2d.input", []any{f32(1, 2, 3, 3), f32(2, 3, 3)}, nil,
			"stride", "expected stride to be a single integer value or a list of 1 values to match the convolution dimensions, but got stride=[1, 1]"},
		{"conv_transpose2d input rank 2", "aten::conv_transpose2d.input", []any{f32(2, 3), f32(2, 3, 3, 3)}, nil,
			"input", "Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, but got input of size: [2, 3]"},
		{"conv_transpose2d bias dtype", "aten::conv_transpose2d.input", []any{f32(1, 2, 3, 3), f32(2, 3, 3, 3), typed(tensor.Float64, 3)}, nil,
			"bias", "expected scalar type Float but found Double"},
		{"convolution transposed bias dtype", "aten::convolution", []any{f32(1, 2, 3, 3), f32(2, 3, 2, 2), typed(tensor.Float64, 3), []int64{1, 1}, []int64{0, 0}, []int64{1, 1}, true, []int64{0, 0}, 1}, nil,
			"bias", "expected scalar type Float but found Double"},
		{"conv_transpose1d weight rank 4", "aten::conv_transpose1d", []any{f32(1, 2, 3), f32(2, 3, 3, 3)}, nil,
			"input", "Expected 4-dimensional input for 4-dimensional weight [2, 3, 3, 3]"},
		{"instance_norm without running stats", "aten::instance_norm", []any{f32(2, 3, 4), nil, nil, nil, nil, false, 0.1, 1e-5, false}, nil,
			"use_input_stats", "Expected running_mean and running_var to be defined when use_input_stats is false"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := optest.Call(t, tc.op, tc.args, tc.kwargs)
			require.Error(t, err)
			var ce *ops.CallError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, tc.arg, ce.Arg, "blamed argument (%v)", err)
			assert.Contains(t, err.Error(), tc.msg)
			assert.NotContains(t, err.Error(), "internal error")
		})
	}
}

// TestInstanceNormRunningStats checks that instance_norm updates the
// running statistics in place to the batch mean of the per-instance ones.
func TestInstanceNormRunningStats(t *testing.T) {
	x := inplaceF32([]float64{1, 2, 3, 4, 10, 20, 30, 40}, 2, 1, 4)
	rm, rv := inplaceF32([]float64{0}, 1), inplaceF32([]float64{1}, 1)
	_, err := optest.Call(t, "aten::instance_norm", []any{x, nil, nil, rm, rv, true, 0.5, 1e-5, false}, nil)
	require.NoError(t, err)
	// Means 2.5 and 25: 0.5*0 + 0.5*mean, averaged: 6.875.
	assert.InDelta(t, 6.875, rm.Float64s()[0], 1e-6)
	// Unbiased variances 5/3 and 500/3: 0.5*1 + 0.5*var, averaged.
	assert.InDelta(t, (0.5+0.5*5.0/3+0.5+0.5*500.0/3)/2, rv.Float64s()[0], 1e-4)
}
