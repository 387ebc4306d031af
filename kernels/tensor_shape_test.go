package kernels_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

func TestStridedViewsShareStorage(t *testing.T) {
	x := arange(3, 4)
	for _, tc := range []struct {
		op   string
		args []any
		want []float32
	}{
		{"aten::as_strided", []any{[]int64{2, 2}, []int64{1, 4}, 1}, []float32{1, 5, 2, 6}},
		{"aten::diagonal", []any{-1}, []float32{4, 9}},
		{"aten::squeeze.dims", []any{[]int64{}}, nil},
	} {
		out := callIndexing(t, tc.op, append([]any{x}, tc.args...), nil)
		assert.True(t, out.SharesStorage(x), tc.op)
		if tc.want != nil {
			assert.Equal(t, tc.want, tensor.Values[float32](out), tc.op)
		}
	}
	// as_strided defaults to the view's own storage offset.
	row := tensor.Must(x.Select(0, 1))
	out := callIndexing(t, "aten::as_strided", []any{row, []int64{2, 2}, []int64{1, 2}}, nil)
	assert.Equal(t, []float32{4, 6, 5, 7}, tensor.Values[float32](out))
	// diagonal of a transposed view.
	tr := tensor.Must(x.Transpose(0, 1))
	out = callIndexing(t, "aten::diagonal", []any{tr, 1}, nil)
	assert.Equal(t, []float32{4, 9}, tensor.Values[float32](out))
}

func TestSqueezeDims(t *testing.T) {
	x := arange(1, 3, 1, 2, 1)
	for _, tc := range []struct {
		dims []int64
		want []int
	}{
		{[]int64{0}, []int{3, 1, 2, 1}},
		{[]int64{0, 2, -1}, []int{3, 2}},
		{[]int64{1, 3}, []int{1, 3, 1, 2, 1}},
		{[]int64{}, []int{1, 3, 1, 2, 1}},
		{[]int64{-3, 4}, []int{1, 3, 2}},
	} {
		out := callIndexing(t, "aten::squeeze.dims", []any{x, tc.dims}, nil)
		assert.Equal(t, tc.want, out.Shape(), "%v", tc.dims)
		assert.Equal(t, tensor.Values[float32](x), tensor.Values[float32](out))
		// The same as squeeze.dim applied to each dim, highest first.
		ref := x
		seen := map[int]bool{}
		for _, d := range tc.dims {
			n, err := tensor.NormDim(int(d), x.Dim())
			require.NoError(t, err)
			seen[n] = true
		}
		for d := x.Dim() - 1; d >= 0; d-- {
			if seen[d] {
				ref = callIndexing(t, "aten::squeeze.dim", []any{ref, d}, nil)
			}
		}
		assert.Equal(t, ref.Shape(), out.Shape())
	}
	// 0-d: dims 0 and -1 name the tensor itself.
	s := tensor.Scalar[float32](2)
	out := callIndexing(t, "aten::squeeze.dims", []any{s, []int64{-1}}, nil)
	assert.Equal(t, []int{}, out.Shape())
	// Meta tensors.
	out = callIndexing(t, "aten::squeeze.dims", []any{x.Meta(), []int64{0, 4}}, nil)
	assert.True(t, out.IsMeta())
	assert.Equal(t, []int{3, 1, 2}, out.Shape())
}

// arange returns a float32 tensor 0, 1, ... of the given shape.
func arange(shape ...int) *tensor.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i)
	}
	return tensor.Must(tensor.FromSlice(v, shape...))
}

// intTensor returns an int64 tensor of vals with the given shape (1-d when
// none is given).
func intTensor(vals []int64, shape ...int) *tensor.Tensor {
	return tensor.Must(tensor.FromSlice(vals, shape...))
}

func TestTensorShapeViewsShareStorage(t *testing.T) {
	x := arange(2, 3, 4)
	cases := []struct {
		op   string
		args []any
	}{
		{"aten::view", []any{[]int64{6, 4}}},
		{"aten::_unsafe_view", []any{[]int64{-1}}},
		{"aten::reshape", []any{[]int64{4, 6}}},
		{"aten::alias", nil},
		{"aten::expand", []any{[]int64{5, -1, -1, -1}}},
		{"aten::permute", []any{[]int64{2, 0, 1}}},
		{"aten::transpose.int", []any{0, -1}},
		{"aten::unsqueeze", []any{1}},
		{"aten::squeeze", nil},
		{"aten::squeeze.dim", []any{0}},
		{"aten::select.int", []any{1, -1}},
		{"aten::slice.Tensor", []any{2, 1, int64(math.MaxInt64), 2}},
		{"aten::flatten.using_ints", []any{1, 2}},
	}
	for _, tc := range cases {
		t.Run(tc.op, func(t *testing.T) {
			out, err := optest.Call(t, tc.op, append([]any{x}, tc.args...), nil)
			require.NoError(t, err)
			assert.True(t, out[0].(*tensor.Tensor).SharesStorage(x))
		})
	}
	m := arange(3, 4)
	out, err := optest.Call(t, "aten::t", []any{m}, nil)
	require.NoError(t, err)
	assert.True(t, out[0].(*tensor.Tensor).SharesStorage(m))
	for _, op := range []string{"aten::split.Tensor", "aten::split_with_sizes"} {
		arg := any(2)
		if op == "aten::split_with_sizes" {
			arg = []int64{1, 0, 2}
		}
		out, err := optest.Call(t, op, []any{m, arg}, nil)
		require.NoError(t, err, op)
		for _, p := range out[0].([]*tensor.Tensor) {
			assert.True(t, p.SharesStorage(m), op)
		}
	}
}

func TestTensorShapeCopiesDoNotShare(t *testing.T) {
	x := arange(3, 4)
	xt := tensor.Must(x.Transpose(0, 1))
	out, err := optest.Call(t, "aten::reshape", []any{xt, []int64{12}}, nil)
	require.NoError(t, err)
	assert.False(t, out[0].(*tensor.Tensor).SharesStorage(x), "reshape of a transpose copies")
	assert.Equal(t, []float64{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}, out[0].(*tensor.Tensor).Float64s())
	for _, op := range []string{"aten::clone", "aten::_to_copy"} {
		out, err := optest.Call(t, op, []any{x}, nil)
		require.NoError(t, err)
		assert.False(t, out[0].(*tensor.Tensor).SharesStorage(x), op)
	}
	_, err = optest.Call(t, "aten::view", []any{xt, []int64{12}}, nil)
	require.Error(t, err, "view of a transpose is impossible")
}

func TestTensorShapeNonContiguousInputs(t *testing.T) {
	x := tensor.Must(arange(3, 4).Transpose(0, 1)) // [4,3]
	out, err := optest.Call(t, "aten::flip", []any{x, []int64{0}}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{3, 7, 11, 2, 6, 10, 1, 5, 9, 0, 4, 8}, out[0].(*tensor.Tensor).Float64s())
	out, err = optest.Call(t, "aten::index_select", []any{x, 1, intTensor([]int64{2, 0})}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{8, 0, 9, 1, 10, 2, 11, 3}, out[0].(*tensor.Tensor).Float64s())
	out, err = optest.Call(t, "aten::gather", []any{x, 0, intTensor([]int64{3, 0, 1}, 1, 3)}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{3, 4, 9}, out[0].(*tensor.Tensor).Float64s())
	out, err = optest.Call(t, "aten::index.Tensor", []any{x, []any{nil, intTensor([]int64{-1})}}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{8, 9, 10, 11}, out[0].(*tensor.Tensor).Float64s())
	out, err = optest.Call(t, "aten::cat", []any{[]*tensor.Tensor{x, x}, 1}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{4, 6}, out[0].(*tensor.Tensor).Shape())
	assert.Equal(t, []float64{0, 4, 8, 0, 4, 8}, out[0].(*tensor.Tensor).Float64s()[:6])
	out, err = optest.Call(t, "aten::repeat", []any{x, []int64{1, 2}}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 4, 8, 0, 4, 8}, out[0].(*tensor.Tensor).Float64s()[:6])
	out, err = optest.Call(t, "aten::constant_pad_nd", []any{x, []int64{1, -1}, 9}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{9, 0, 4, 9, 1, 5}, out[0].(*tensor.Tensor).Float64s()[:6])
}

func TestTensorShapeMeta(t *testing.T) {
	x := tensor.Must(tensor.NewMeta(tensor.Float32, 3, 2))
	m := tensor.Must(tensor.NewMeta(tensor.Bool, 3))
	_, err := optest.Call(t, "aten::index.Tensor", []any{x, []any{m}}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "data-dependent output shape")
	out, err := optest.Call(t, "aten::index.Tensor", []any{x, []any{nil, tensor.Must(tensor.NewMeta(tensor.Int64, 4, 1))}}, nil)
	require.NoError(t, err)
	assert.True(t, out[0].(*tensor.Tensor).IsMeta())
	assert.Equal(t, []int{3, 4, 1}, out[0].(*tensor.Tensor).Shape())
	// Factories make meta tensors on the meta device.
	out, err = optest.Call(t, "aten::arange.start_step", []any{0, 1.0, 0.1}, map[string]any{"device": "meta"})
	require.NoError(t, err)
	assert.True(t, out[0].(*tensor.Tensor).IsMeta())
	assert.Equal(t, []int{10}, out[0].(*tensor.Tensor).Shape())
	out, err = optest.Call(t, "aten::full", []any{[]int64{2, 3}, 1}, map[string]any{"device": "meta"})
	require.NoError(t, err)
	assert.True(t, out[0].(*tensor.Tensor).IsMeta())
	assert.Equal(t, tensor.Int64, out[0].(*tensor.Tensor).DType())
}

func TestTensorShapeBadInput(t *testing.T) {
	x := arange(3, 4)
	zero := tensor.Scalar[float32](1)
	cases := []struct {
		name   string
		op     string
		args   []any
		kwargs map[string]any
		arg    string // the argument the error must blame
	}{
		{"view bad numel", "aten::view", []any{x, []int64{5}}, nil, "size"},
		{"view two -1", "aten::view", []any{x, []int64{-1, -1}}, nil, "size"},
		{"view -2", "aten::view", []any{x, []int64{-2, 6}}, nil, "size"},
		{"unsafe_view bad numel", "aten::_unsafe_view", []any{x, []int64{7}}, nil, "size"},
		{"reshape bad numel", "aten::reshape", []any{x, []int64{5, -1}}, nil, "shape"},
		{"expand fewer sizes", "aten::expand", []any{x, []int64{4}}, nil, "size"},
		{"expand mismatch", "aten::expand", []any{x, []int64{3, 5}}, nil, "size"},
		{"expand -1 leading", "aten::expand", []any{x, []int64{-1, 3, 4}}, nil, "size"},
		{"permute length", "aten::permute", []any{x, []int64{0}}, nil, "dims"},
		{"permute duplicate", "aten::permute", []any{x, []int64{1, -1}}, nil, "dims"},
		{"permute out of range", "aten::permute", []any{x, []int64{0, 2}}, nil, "dims"},
		{"t 3-d", "aten::t", []any{arange(1, 2, 3)}, nil, "self"},
		{"transpose dim0", "aten::transpose.int", []any{x, 2, 0}, nil, "dim0"},
		{"transpose dim1", "aten::transpose.int", []any{x, 0, -3}, nil, "dim1"},
		{"unsqueeze out of range", "aten::unsqueeze", []any{x, 3}, nil, "dim"},
		{"squeeze.dim out of range", "aten::squeeze.dim", []any{zero, 1}, nil, "dim"},
		{"select 0-d", "aten::select.int", []any{zero, 0, 0}, nil, "self"},
		{"select dim", "aten::select.int", []any{x, 2, 0}, nil, "dim"},
		{"select index", "aten::select.int", []any{x, 1, -5}, nil, "index"},
		{"slice 0-d", "aten::slice.Tensor", []any{zero}, nil, "self"},
		{"slice step 0", "aten::slice.Tensor", []any{x, 0, 0, 2, 0}, nil, "step"},
		{"slice negative step", "aten::slice.Tensor", []any{x, 0, nil, nil, -1}, nil, "step"},
		{"slice step overflow", "aten::slice.Tensor", []any{x, 0, 0, 3, int64(math.MaxInt64)}, nil, "step"},
		{"slice dim", "aten::slice.Tensor", []any{x, 5}, nil, "dim"},
		{"flatten order", "aten::flatten.using_ints", []any{x, 1, 0}, nil, "start_dim"},
		{"flatten 0-d end", "aten::flatten.using_ints", []any{zero, 0, 1}, nil, "end_dim"},
		{"split 0-d", "aten::split.Tensor", []any{zero, 1}, nil, "self"},
		{"split negative", "aten::split.Tensor", []any{x, -1}, nil, "split_size"},
		{"split zero", "aten::split.Tensor", []any{x, 0}, nil, "split_size"},
		{"split dim", "aten::split.Tensor", []any{x, 1, 2}, nil, "dim"},
		{"split_with_sizes sum", "aten::split_with_sizes", []any{x, []int64{1, 1}}, nil, "split_sizes"},
		{"split_with_sizes negative", "aten::split_with_sizes", []any{x, []int64{4, -1}}, nil, "split_sizes"},
		{"cat empty list", "aten::cat", []any{[]*tensor.Tensor{}}, nil, "tensors"},
		{"cat 0-d", "aten::cat", []any{[]*tensor.Tensor{zero}}, nil, "tensors"},
		{"cat rank", "aten::cat", []any{[]*tensor.Tensor{x, arange(3)}}, nil, "tensors"},
		{"cat sizes", "aten::cat", []any{[]*tensor.Tensor{x, arange(4, 3)}}, nil, "tensors"},
		{"cat dim", "aten::cat", []any{[]*tensor.Tensor{x}, 2}, nil, "dim"},
		{"clone channels_last 2-d", "aten::clone", []any{x}, map[string]any{"memory_format": "channels_last"}, "memory_format"},
		{"to_copy layout", "aten::_to_copy", []any{x}, map[string]any{"layout": "sparse_coo"}, "layout"},
		{"to_copy device", "aten::_to_copy", []any{x}, map[string]any{"device": "cuda"}, "device"},
		{"flip duplicate", "aten::flip", []any{x, []int64{0, -2}}, nil, "dims"},
		{"flip out of range", "aten::flip", []any{x, []int64{2}}, nil, "dims"},
		{"repeat fewer", "aten::repeat", []any{x, []int64{2}}, nil, "repeats"},
		{"repeat negative", "aten::repeat", []any{x, []int64{2, -1}}, nil, "repeats"},
		{"gather index dtype", "aten::gather", []any{x, 1, tensor.Must(tensor.FromSlice([]int32{0}, 1, 1))}, nil, "index"},
		{"gather rank", "aten::gather", []any{x, 1, intTensor([]int64{0})}, nil, "index"},
		{"gather size", "aten::gather", []any{x, 1, intTensor([]int64{0, 0, 0, 0}, 4, 1)}, nil, "index"},
		{"gather out of range", "aten::gather", []any{x, 1, intTensor([]int64{4}, 1, 1)}, nil, "index"},
		{"gather negative", "aten::gather", []any{x, 1, intTensor([]int64{-1}, 1, 1)}, nil, "index"},
		{"gather dim", "aten::gather", []any{x, 2, intTensor([]int64{0}, 1, 1)}, nil, "dim"},
		{"index too many", "aten::index.Tensor", []any{x, []any{intTensor([]int64{0}), nil, nil}}, nil, "indices"},
		{"index dtype", "aten::index.Tensor", []any{x, []any{tensor.Must(tensor.FromSlice([]int32{0}))}}, nil, "indices"},
		{"index out of range", "aten::index.Tensor", []any{x, []any{intTensor([]int64{3})}}, nil, "indices"},
		{"index negative out of range", "aten::index.Tensor", []any{x, []any{nil, intTensor([]int64{-5})}}, nil, "indices"},
		{"index broadcast", "aten::index.Tensor", []any{x, []any{intTensor([]int64{0, 1}), intTensor([]int64{0, 1, 2})}}, nil, "indices"},
		{"index mask shape", "aten::index.Tensor", []any{x, []any{tensor.Must(tensor.FromSlice([]bool{true, false}))}}, nil, "indices"},
		{"index all None", "aten::index.Tensor", []any{x, []any{nil}}, nil, "indices"},
		{"index_select 2-d index", "aten::index_select", []any{x, 0, intTensor([]int64{0}, 1, 1)}, nil, "index"},
		{"index_select dtype", "aten::index_select", []any{x, 0, tensor.Must(tensor.FromSlice([]int16{0}))}, nil, "index"},
		{"index_select negative", "aten::index_select", []any{x, 0, intTensor([]int64{-1})}, nil, "index"},
		{"index_select out of range", "aten::index_select", []any{x, 1, intTensor([]int64{4})}, nil, "index"},
		{"index_select dim", "aten::index_select", []any{x, -3, intTensor([]int64{0})}, nil, "dim"},
		{"pad odd", "aten::constant_pad_nd", []any{x, []int64{1}}, nil, "pad"},
		{"pad too long", "aten::constant_pad_nd", []any{x, []int64{1, 1, 1, 1, 1, 1}}, nil, "pad"},
		{"pad negative size", "aten::constant_pad_nd", []any{x, []int64{-4, 0, 1, 0}}, nil, "pad"},
		{"pad overcrop", "aten::constant_pad_nd", []any{x, []int64{-5, 1}}, nil, "pad"},
		{"pad value overflow", "aten::constant_pad_nd", []any{tensor.Must(tensor.FromSlice([]uint8{1})), []int64{1, 1}, 300}, nil, "value"},
		{"full negative size", "aten::full", []any{[]int64{-1}, 1.0}, nil, "size"},
		{"full uint8 overflow", "aten::full", []any{[]int64{2}, 300}, map[string]any{"dtype": tensor.Uint8}, "fill_value"},
		{"full int nan", "aten::full", []any{[]int64{2}, math.NaN()}, map[string]any{"dtype": tensor.Int32}, "fill_value"},
		{"full float16 overflow", "aten::full", []any{[]int64{2}, 1e5}, map[string]any{"dtype": tensor.Float16}, "fill_value"},
		{"full float32 overflow", "aten::full", []any{[]int64{2}, 1e40}, nil, "fill_value"},
		{"full layout", "aten::full", []any{[]int64{2}, 1.0}, map[string]any{"layout": "sparse_coo"}, "layout"},
		{"full_like int8 overflow", "aten::full_like", []any{x, 200}, map[string]any{"dtype": tensor.Int8}, "fill_value"},
		{"ones_like channels_last", "aten::ones_like", []any{x}, map[string]any{"memory_format": "channels_last"}, "memory_format"},
		{"zeros_like device", "aten::zeros_like", []any{x}, map[string]any{"device": "cuda:0"}, "device"},
		{"scalar_tensor overflow", "aten::scalar_tensor", []any{1e40}, nil, "s"},
		{"arange step 0", "aten::arange.start_step", []any{0, 5, 0}, nil, "step"},
		{"arange int step truncated to 0", "aten::arange.start_step", []any{0, 5, 0.5}, map[string]any{"dtype": tensor.Int64}, "step"},
		{"arange sign", "aten::arange.start_step", []any{0, 5, -1}, nil, "step"},
		{"arange inf", "aten::arange.start_step", []any{0, math.Inf(1), 1.0}, nil, "end"},
		{"arange nan int", "aten::arange.start_step", []any{math.NaN(), 1, 1}, map[string]any{"dtype": tensor.Int32}, "start"},
		{"arange bool", "aten::arange.start_step", []any{0, 3, 1}, map[string]any{"dtype": tensor.Bool}, "dtype"},
		{"arange float16 range", "aten::arange.start_step", []any{0, 1e39, 1e38}, map[string]any{"dtype": tensor.Float16}, "end"},
		{"arange too large", "aten::arange.start_step", []any{0, int64(1) << 62, 1}, nil, "end"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := optest.Call(t, tc.op, tc.args, tc.kwargs)
			require.Error(t, err)
			var ce *ops.CallError
			require.True(t, errors.As(err, &ce), "%v", err)
			assert.Equal(t, tc.arg, ce.Arg, "%v", err)
			assert.NotContains(t, err.Error(), "internal error")
		})
	}
}
