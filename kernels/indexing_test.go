package kernels_test

import (
	"errors"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// stridedOps matches the extra case files that gen_ix.py writes: views,
// fills, copies, scatters, padding, resize_ and the SymInt queries (and
// gen_14a.py's index_put.hacked_twin).
var stridedOps = regexp.MustCompile(`^aten\.(as_strided|diagonal|fill|copy|scatter|scatter_add|scatter_reduce|select_scatter|slice_scatter|index_put|reflection_pad[123]d|replication_pad[23]d|resize_|sym_size|sym_stride|sym_numel|sym_storage_offset)\.`)

// TestIndexingMetaExtra runs the extra PyTorch cases of these ops with meta
// tensors: the meta functions must give the recorded dtypes and shapes.
func TestIndexingMetaExtra(t *testing.T) {
	files, byFile := casesByFile(t, "testdata/extra")
	n := 0
	for _, f := range files {
		if !stridedOps.MatchString(f) {
			continue
		}
		n++
		t.Run(f, func(t *testing.T) {
			for _, c := range byFile[f] {
				if err := conformance.RunMeta(c); err != nil {
					t.Errorf("%s: %v", c.ID, err)
				}
			}
		})
	}
	assert.Equal(t, 22, n, "extra case files")
}

// callIndexing calls the operator called name and returns its first result.
func callIndexing(t *testing.T, name string, args []any, kwargs map[string]any) *tensor.Tensor {
	t.Helper()
	out, err := optest.Call(t, name, args, kwargs)
	require.NoError(t, err)
	return out[0].(*tensor.Tensor)
}

func TestIndexingBadInput(t *testing.T) {
	f := arange(3, 4)
	i64 := func(v ...int64) *tensor.Tensor { return intTensor(v) }
	idx := intTensor([]int64{0, 1, 2, 2, 0, 1}, 2, 3)
	mask := tensor.Must(tensor.FromSlice([]bool{true, false}, 2))
	f16 := arange(1, 2, 3).To(tensor.Float16)
	cases := []struct {
		name, op string
		args     []any
		kwargs   map[string]any
		arg      string // the argument the error must name
	}{
		{"as_strided length", "aten::as_strided", []any{f, []int64{2, 2}, []int64{1}}, nil, "stride"},
		{"as_strided negative stride", "aten::as_strided", []any{f, []int64{2}, []int64{-1}}, nil, "stride"},
		{"as_strided negative size", "aten::as_strided", []any{f, []int64{-2}, []int64{1}}, nil, "size"},
		{"as_strided negative offset", "aten::as_strided", []any{f, []int64{2}, []int64{1}, -1}, nil, "storage_offset"},
		{"as_strided out of storage", "aten::as_strided", []any{f, []int64{2, 7}, []int64{1, 2}}, nil, "size"},
		{"diagonal same dims", "aten::diagonal", []any{f, 0, 1, -1}, nil, "dim2"},
		{"diagonal dim range", "aten::diagonal", []any{f, 0, 2, 0}, nil, "dim1"},
		{"diagonal 1-d", "aten::diagonal", []any{i64(1, 2)}, nil, "dim2"},
		{"empty negative", "aten::empty.memory_format", []any{[]int64{2, -3}}, nil, "size"},
		{"empty channels_last rank", "aten::empty.memory_format", []any{[]int64{2, 3}}, map[string]any{"memory_format": "channels_last"}, "memory_format"},
		{"empty preserve", "aten::empty.memory_format", []any{[]int64{2}}, map[string]any{"memory_format": "preserve_format"}, "memory_format"},
		{"empty device", "aten::empty.memory_format", []any{[]int64{2}}, map[string]any{"device": "cuda"}, "device"},
		{"empty_strided length", "aten::empty_strided", []any{[]int64{2, 3}, []int64{1}}, nil, "stride"},
		{"empty_strided negative stride", "aten::empty_strided", []any{[]int64{2, 3}, []int64{1, -2}}, nil, "stride"},
		{"empty_strided negative size", "aten::empty_strided", []any{[]int64{-2, 3}, []int64{1, 2}}, nil, "size"},
		{"fill overflow", "aten::fill.Scalar", []any{f.To(tensor.Uint8), 300}, nil, "value"},
		{"fill nan to int", "aten::fill.Scalar", []any{f.To(tensor.Int32), math.NaN()}, nil, "value"},
		{"fill half overflow", "aten::fill.Scalar", []any{f16, 1e6}, nil, "value"},
		{"copy more dims", "aten::copy", []any{i64(1, 2, 3), arange(2, 3)}, nil, "src"},
		{"copy mismatch", "aten::copy", []any{i64(1, 2, 3), i64(1, 2)}, nil, "src"},
		{"squeeze.dims repeated", "aten::squeeze.dims", []any{arange(1, 3, 1), []int64{0, -3}}, nil, "dim"},
		{"squeeze.dims range", "aten::squeeze.dims", []any{arange(1, 3), []int64{2}}, nil, "dim"},
		{"resize negative", "aten::resize_", []any{f, []int64{-2, 2}}, nil, "size"},
		{"resize preserve", "aten::resize_", []any{f, []int64{2}}, map[string]any{"memory_format": "preserve_format"}, "memory_format"},
		{"resize channels_last rank", "aten::resize_", []any{f, []int64{2, 3, 2}}, map[string]any{"memory_format": "channels_last"}, "memory_format"},
		{"sym_size range", "aten::sym_size.int", []any{f, 2}, nil, "dim"},
		{"sym_size 0-d", "aten::sym_size.int", []any{tensor.Scalar[float32](1), 0}, nil, "dim"},
		{"sym_stride range", "aten::sym_stride.int", []any{f, -3}, nil, "dim"},
		{"sym_stride 0-d", "aten::sym_stride.int", []any{tensor.Scalar[float32](1), -1}, nil, "dim"},
		{"scatter index dtype", "aten::scatter.src", []any{f, 0, idx.To(tensor.Int32), f}, nil, "index"},
		{"scatter src dtype", "aten::scatter.src", []any{f, 0, idx, f.To(tensor.Float64)}, nil, "src"},
		{"scatter negative index", "aten::scatter.src", []any{f, 0, intTensor([]int64{-1}, 1, 1), f}, nil, "index"},
		{"scatter index out of range", "aten::scatter.src", []any{f, 0, intTensor([]int64{3}, 1, 1), f}, nil, "index"},
		{"scatter index too big", "aten::scatter.src", []any{f, 0, intTensor(make([]int64, 16), 4, 4), f}, nil, "index"},
		{"scatter index rank", "aten::scatter.src", []any{f, 0, i64(0, 1), f}, nil, "index"},
		{"scatter src small", "aten::scatter.src", []any{f, 0, idx, arange(1, 4)}, nil, "index"},
		{"scatter src rank", "aten::scatter.src", []any{f, 0, idx, arange(4)}, nil, "src"},
		{"scatter dim", "aten::scatter.src", []any{f, 2, idx, f}, nil, "dim"},
		{"scatter value overflow", "aten::scatter.value", []any{f.To(tensor.Uint8), 1, idx, 300}, nil, "value"},
		{"scatter_add dtype", "aten::scatter_add", []any{f, 0, idx, f.To(tensor.Int64)}, nil, "src"},
		{"scatter_reduce reduce", "aten::scatter_reduce.two", []any{f, 0, idx, f, "max"}, nil, "reduce"},
		{"scatter_reduce bool mean", "aten::scatter_reduce.two", []any{f.To(tensor.Bool), 0, idx, f.To(tensor.Bool), "mean"}, nil, "self"},
		{"select_scatter shape", "aten::select_scatter", []any{f, arange(1), 0, 0}, nil, "src"},
		{"select_scatter index", "aten::select_scatter", []any{f, arange(4), 0, 3}, nil, "index"},
		{"select_scatter 0-d", "aten::select_scatter", []any{tensor.Scalar[float32](1), tensor.Scalar[float32](2), 0, 0}, nil, "self"},
		{"select_scatter dim", "aten::select_scatter", []any{f, arange(4), 2, 0}, nil, "dim"},
		{"slice_scatter shape", "aten::slice_scatter", []any{f, arange(3, 3), 1}, nil, "src"},
		{"slice_scatter step", "aten::slice_scatter", []any{f, f, 0, 0, 3, 0}, nil, "step"},
		{"slice_scatter 0-d", "aten::slice_scatter", []any{tensor.Scalar[float32](1), tensor.Scalar[float32](2)}, nil, "self"},
		{"index_put dtype", "aten::index_put", []any{f, []*tensor.Tensor{i64(0, 2)}, intTensor([]int64{1, 2, 3, 4})}, nil, "values"},
		{"index_put broadcast", "aten::index_put", []any{f, []*tensor.Tensor{i64(0, 2)}, arange(3)}, nil, "values"},
		{"index_put out of range", "aten::index_put", []any{f, []*tensor.Tensor{i64(0, 3)}, arange(1)}, nil, "indices"},
		{"index_put too many", "aten::index_put", []any{f, []*tensor.Tensor{i64(0), i64(0), i64(0)}, arange(1)}, nil, "indices"},
		{"index_put index dtype", "aten::index_put", []any{f, []*tensor.Tensor{i64(0).To(tensor.Int32)}, arange(1)}, nil, "indices"},
		{"index_put mask shape", "aten::index_put", []any{f, []*tensor.Tensor{mask}, arange(1)}, nil, "indices"},
		{"index_put mask shape slow", "aten::index_put", []any{f, []*tensor.Tensor{mask}, arange(2)}, nil, "indices"},
		{"index_put all None", "aten::index_put", []any{f, []*tensor.Tensor{nil}, arange(1)}, nil, "indices"},
		{"index_put no index", "aten::index_put", []any{f, []*tensor.Tensor{}, arange(4)}, nil, "indices"},
		{"index_put shortcut overflow", "aten::index_put", []any{f.To(tensor.Uint8), []*tensor.Tensor{tensor.Must(tensor.FromSlice([]bool{true, false, true}, 3))}, intTensor([]int64{300})}, nil, "values"},
		{"index_put mask then None", "aten::index_put", []any{arange(2, 3), []*tensor.Tensor{mask, nil}, arange(1)}, nil, "indices"},
		{"index_put broadcast indices", "aten::index_put", []any{arange(3, 3), []*tensor.Tensor{i64(0, 1, 2), i64(0, 2)}, arange(1)}, nil, "indices"},
		{"reflection_pad1d too large", "aten::reflection_pad1d", []any{arange(1, 4), []int64{4, 0}}, nil, "padding"},
		{"reflection_pad1d empty output", "aten::reflection_pad1d", []any{arange(1, 4), []int64{-2, -2}}, nil, "padding"},
		{"reflection_pad1d rank", "aten::reflection_pad1d", []any{arange(4), []int64{1, 1}}, nil, "self"},
		{"reflection_pad1d empty width", "aten::reflection_pad1d", []any{arange(2, 0), []int64{0, 0}}, nil, "self"},
		{"reflection_pad1d short padding", "aten::reflection_pad1d", []any{arange(2, 3), []int64{1}}, nil, "padding"},
		{"reflection_pad1d dtype", "aten::reflection_pad1d", []any{arange(2, 3).To(tensor.Int64), []int64{1, 1}}, nil, "self"},
		{"reflection_pad1d half", "aten::reflection_pad1d", []any{arange(2, 3).To(tensor.Float16), []int64{1, 1}}, nil, "self"},
		{"reflection_pad2d height", "aten::reflection_pad2d", []any{arange(1, 2, 3), []int64{0, 0, 2, 0}}, nil, "padding"},
		{"reflection_pad2d rank", "aten::reflection_pad2d", []any{arange(2, 3), []int64{1, 1, 1, 1}}, nil, "self"},
		{"reflection_pad2d empty", "aten::reflection_pad2d", []any{arange(1, 0, 2, 3), []int64{1, 1, 1, 1}}, nil, "self"},
		{"reflection_pad2d all cropped", "aten::reflection_pad2d", []any{arange(1, 2, 3), []int64{-2, -1, -1, -1}}, nil, "padding"},
		{"reflection_pad2d negative width", "aten::reflection_pad2d", []any{arange(1, 2, 3), []int64{-2, -2, 0, 0}}, nil, "padding"},
		{"reflection_pad3d length", "aten::reflection_pad3d", []any{arange(1, 2, 2, 3), []int64{1, 1, 1, 1, 1}}, nil, "padding"},
		{"reflection_pad3d depth", "aten::reflection_pad3d", []any{arange(1, 2, 2, 3), []int64{1, 1, 1, 0, 2, 1}}, nil, "padding"},
		{"reflection_pad3d empty channels", "aten::reflection_pad3d", []any{arange(0, 2, 2, 3), []int64{1, 1, 0, 0, 0, 0}}, nil, "self"},
		{"reflection_pad3d rank", "aten::reflection_pad3d", []any{arange(1, 1, 1, 2, 2, 3), []int64{1, 1, 1, 1, 1, 1}}, nil, "self"},
		{"reflection_pad3d int", "aten::reflection_pad3d", []any{arange(1, 2, 2, 3).To(tensor.Int32), []int64{1, 1, 0, 0, 0, 0}}, nil, "self"},
		{"replication_pad2d length", "aten::replication_pad2d", []any{arange(1, 2, 3), []int64{1, 1}}, nil, "padding"},
		{"replication_pad2d empty channels", "aten::replication_pad2d", []any{arange(0, 2, 3), []int64{1, 1, 1, 1}}, nil, "self"},
		{"replication_pad2d negative", "aten::replication_pad2d", []any{arange(1, 2, 3), []int64{-2, -2, 0, 0}}, nil, "padding"},
		{"replication_pad2d all cropped", "aten::replication_pad2d", []any{arange(1, 2, 3), []int64{-2, -1, -1, -1}}, nil, "padding"},
		{"replication_pad2d half", "aten::replication_pad2d", []any{arange(1, 2, 3).To(tensor.BFloat16), []int64{1, 1, 1, 1}}, nil, "self"},
		{"replication_pad3d empty width", "aten::replication_pad3d", []any{arange(1, 2, 2, 0), []int64{1, 1, 0, 0, 0, 0}}, nil, "self"},
		{"replication_pad3d rank", "aten::replication_pad3d", []any{arange(2, 2, 3), []int64{1, 1, 1, 1, 1, 1}}, nil, "self"},
		{"replication_pad3d all cropped", "aten::replication_pad3d", []any{arange(1, 2, 2, 3), []int64{-2, -1, -1, -1, -1, -1}}, nil, "padding"},
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

func TestIndexingEmpty(t *testing.T) {
	out := callIndexing(t, "aten::empty.memory_format", []any{[]int64{2, 3}}, nil)
	assert.Equal(t, tensor.Float32, out.DType())
	assert.Equal(t, []int{2, 3}, out.Shape())
	assert.Equal(t, []int{3, 1}, out.Strides())

	out = callIndexing(t, "aten::empty.memory_format", []any{[]int64{2, 3, 1, 4}},
		map[string]any{"dtype": tensor.Int8, "memory_format": "channels_last"})
	assert.Equal(t, tensor.Int8, out.DType())
	assert.Equal(t, []int{2, 3, 1, 4}, out.Shape())
	assert.Equal(t, []int{12, 1, 12, 3}, out.Strides()) // as torch.empty gives

	out = callIndexing(t, "aten::empty.memory_format", []any{[]int64{0, 5}}, map[string]any{"device": "meta", "dtype": tensor.BFloat16})
	assert.True(t, out.IsMeta())
	assert.Equal(t, []int{0, 5}, out.Shape())

	out = callIndexing(t, "aten::empty_strided", []any{[]int64{2, 3}, []int64{1, 2}}, map[string]any{"dtype": tensor.Float64})
	assert.Equal(t, tensor.Float64, out.DType())
	assert.Equal(t, []int{2, 3}, out.Shape())
	assert.Equal(t, []int{1, 2}, out.Strides())
	assert.Equal(t, 6, out.Numel())

	out = callIndexing(t, "aten::empty_strided", []any{[]int64{2, 0}, []int64{7, 7}}, nil)
	assert.Equal(t, []int{2, 0}, out.Shape())

	out = callIndexing(t, "aten::empty_strided", []any{[]int64{3}, []int64{0}}, map[string]any{"device": "meta"})
	assert.True(t, out.IsMeta())
	assert.Equal(t, []int{3}, out.Shape())
}

// TestIndexingNonContiguous runs the data kernels on strided inputs against the
// same inputs made contiguous.
func TestIndexingNonContiguous(t *testing.T) {
	base := arange(4, 5)
	x := tensor.Must(base.Transpose(0, 1)) // [5, 4], not contiguous
	src := tensor.Must(arange(5, 4).Slice(0, 0, 5, 1))
	idxT := tensor.Must(intTensor([]int64{0, 3, 4, 1, 2, 0, 4, 3}, 4, 2).Transpose(0, 1))
	for _, tc := range []struct {
		op   string
		args func(x, i *tensor.Tensor) []any
	}{
		{"aten::scatter.src", func(x, i *tensor.Tensor) []any { return []any{x, 0, i, src} }},
		{"aten::scatter_add", func(x, i *tensor.Tensor) []any { return []any{x, 0, i, x} }},
		{"aten::scatter_reduce.two", func(x, i *tensor.Tensor) []any { return []any{x, 0, i, x, "prod"} }},
		{"aten::scatter.value", func(x, i *tensor.Tensor) []any { return []any{x, 0, i, 7} }},
		{"aten::index_put", func(x, i *tensor.Tensor) []any {
			return []any{x, []*tensor.Tensor{i, nil}, arange(1, 1, 4), true}
		}},
		{"aten::select_scatter", func(x, i *tensor.Tensor) []any { return []any{x, tensor.Must(i.Select(0, 0)).To(tensor.Float32), 0, 2} }},
		{"aten::slice_scatter", func(x, i *tensor.Tensor) []any { return []any{x, i.To(tensor.Float32), 0, 1, 5, 2} }},
		{"aten::copy", func(x, i *tensor.Tensor) []any { return []any{x, tensor.Must(i.Select(0, 1))} }},
		{"aten::replication_pad2d", func(x, i *tensor.Tensor) []any { return []any{tensor.Must(x.Unsqueeze(0)), []int64{1, 2, 3, -1}} }},
		{"aten::reflection_pad1d", func(x, i *tensor.Tensor) []any { return []any{x, []int64{3, -1}} }},
	} {
		got := callIndexing(t, tc.op, tc.args(x, idxT), nil)
		want := callIndexing(t, tc.op, tc.args(x.Contiguous(), idxT.Contiguous()), nil)
		assert.Equal(t, tensor.Values[float32](want), tensor.Values[float32](got), tc.op)
		assert.True(t, tensor.Equal(want, got), tc.op)
		// The input is left as it was.
		assert.Equal(t, tensor.Values[float32](arange(4, 5)), tensor.Values[float32](base), tc.op)
	}
}

func TestIndexingScatterReduceOrder(t *testing.T) {
	// float32 sums round after every addition, in index order.
	x := tensor.Must(tensor.FromSlice([]float32{1e8}, 1))
	src := tensor.Must(tensor.FromSlice([]float32{4, 4, 4, 4}, 4))
	i := intTensor([]int64{0, 0, 0, 0})
	out := callIndexing(t, "aten::scatter_reduce.two", []any{x, 0, i, src, "sum"}, nil)
	assert.Equal(t, []float32{1e8}, tensor.Values[float32](out))
	// The mean of integers is a floor division.
	xi := intTensor([]int64{0, 0})
	si := intTensor([]int64{-3, -4, 7})
	out = callIndexing(t, "aten::scatter_reduce.two", []any{xi, 0, intTensor([]int64{0, 0, 1}), si, "mean"}, map[string]any{"include_self": false})
	assert.Equal(t, []int64{-4, 7}, tensor.Values[int64](out))
	// amin without self on int8 starts from 127.
	x8 := tensor.Must(tensor.FromSlice([]int8{-100, 5}, 2))
	s8 := tensor.Must(tensor.FromSlice([]int8{100}, 1))
	out = callIndexing(t, "aten::scatter_reduce.two", []any{x8, 0, intTensor([]int64{0}), s8, "amin"}, map[string]any{"include_self": false})
	assert.Equal(t, []int8{100, 5}, tensor.Values[int8](out))
}

func TestIndexingErrorsMention(t *testing.T) {
	// A few messages follow ATen's word for word.
	_, err := optest.Call(t, "aten::index_put", []any{arange(3), []*tensor.Tensor{intTensor([]int64{0})}, intTensor([]int64{1})}, nil)
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "Index put requires the source and destination dtypes match, got Float for the destination and Long for the source."), err.Error())
	_, err = optest.Call(t, "aten::scatter.src", []any{arange(3), 0, intTensor([]int64{3}), arange(3)}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "index 3 is out of bounds for dimension 0 with size 3")
}

func TestIndexAdvanced(t *testing.T) {
	x := tensor.Must(tensor.New(tensor.Float32, 2, 3, 4, 5))
	// Non-adjacent advanced indices move the broadcast dims to the front.
	out, err := optest.Call(t, "aten::index.Tensor", []any{x, []any{nil, intTensor([]int64{0, 1}), nil, intTensor([]int64{1, 2, 3}, 3, 1)}}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{3, 2, 2, 4}, out[0].(*tensor.Tensor).Shape())
	// Adjacent ones stay in place.
	out, err = optest.Call(t, "aten::index.Tensor", []any{x, []any{nil, intTensor([]int64{0, 1}), intTensor([]int64{1, 2, 3}, 3, 1)}}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 3, 2, 5}, out[0].(*tensor.Tensor).Shape())
	// A mask selects its true positions.
	m := tensor.Must(tensor.FromSlice([]bool{true, false, true}))
	out, err = optest.Call(t, "aten::index.Tensor", []any{arange(3, 2), []any{m}}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 1, 4, 5}, out[0].(*tensor.Tensor).Float64s())
}

// The messages are PyTorch 2.6's for the same calls.
func TestIndexingExtraErrors(t *testing.T) {
	ints := func(v ...int64) *tensor.Tensor { return tensor.Must(tensor.FromInt64s(tensor.Int64, v, len(v))) }
	i32 := tensor.Must(tensor.FromInt64s(tensor.Int32, []int64{1}, 1))
	mask := tensor.Must(tensor.FromInt64s(tensor.Bool, []int64{1, 1, 0}, 3))
	f64 := tensor.Must(tensor.New(tensor.Float64, 3))
	runErrorCases(t, []errorCase{
		{"masked_select int mask", "aten::masked_select", []any{f32s(3), ints(1, 0, 1)}, nil, "mask", "masked_select: expected BoolTensor for mask"},
		{"masked_scatter few", "aten::masked_scatter", []any{f32s(3), mask, f32s(1)}, nil, "source", "Number of elements of source < number of ones in mask"},
		{"masked_scatter int mask", "aten::masked_scatter", []any{f32s(3), ints(1, 1, 0), f32s(3)}, nil, "mask", "masked_scatter_ only supports boolean masks, but got mask with dtype Long"},
		{"masked_scatter dtype", "aten::masked_scatter", []any{f32s(3), mask, f64}, nil, "source", "masked_scatter: expected self and source to have same dtypes but gotFloat and Double"},
		{"take out of range", "aten::take", []any{f32s(4), ints(5)}, nil, "index", "out of range: tried to access index 5 on a tensor of 4 elements."},
		{"take negative out of range", "aten::take", []any{f32s(4), ints(-5)}, nil, "index", "out of range: tried to access index -5 on a tensor of 4 elements."},
		{"take int32", "aten::take", []any{f32s(4), i32}, nil, "index", "take(): Expected a long tensor for index, but got Int"},
		{"take empty", "aten::take", []any{f32s(0), ints(0)}, nil, "index", "take(): tried to take from an empty tensor"},
		{"take_along_dim int32", "aten::take_along_dim", []any{f32s(4), i32, 0}, nil, "indices", "torch.take_along_dim(): dtype of indices should be Long but got Int"},
		{"take_along_dim ranks", "aten::take_along_dim", []any{f32s(2, 4), ints(1), 0}, nil, "indices",
			"torch.take_along_dim(): input and indices should have the same number of dimensions, but got 2 dimensions for input, and 1 dimensions for indices"},
		{"put numel", "aten::put", []any{f32s(4), ints(1), f32s(2)}, nil, "source", "put_(): Expected source and index to have the same number of elements, but got source.numel() = 2, index.numel() = 1"},
		{"put out of range", "aten::put", []any{f32s(4), ints(4), f32s(1)}, nil, "index", "out of range: tried to access index 4 on a tensor of 4 elements."},
		{"put dtype", "aten::put", []any{f32s(4), ints(1), tensor.Must(tensor.New(tensor.Float64, 1))}, nil, "source", "put_(): self and source expected to have the same dtype, but got self.dtype = Float and source.dtype = Double"},
		{"put int32", "aten::put", []any{f32s(4), i32, f32s(1)}, nil, "index", "put_(): Expected a long tensor for index, but got Int"},
		{"index_reduce sum", "aten::index_reduce", []any{f32s(4), 0, ints(1), f32s(1), "sum"}, nil, "reduce", "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got sum."},
		{"index_reduce float index", "aten::index_reduce", []any{f32s(4), 0, f32s(1), f32s(1), "prod"}, nil, "index", "index_reduce_(): Expected dtype int32/int64 for index but got: Float"},
		{"index_reduce dtype", "aten::index_reduce", []any{f32s(4), 0, ints(1), tensor.Must(tensor.New(tensor.Float64, 1)), "prod"}, nil, "source", "index_reduce_(): self (Float) and source (Double) must have the same scalar type"},
		{"index_reduce out of range", "aten::index_reduce", []any{f32s(4), 0, ints(4), f32s(1), "prod"}, nil, "index", "index out of range in self"},
		{"index_reduce lengths", "aten::index_reduce", []any{f32s(4), 0, ints(1, 2), f32s(1), "prod"}, nil, "index", "index_reduce_(): Number of indices (2) should be equal to source.size(dim): (1), for dim: 0"},
		{"diag 3-d", "aten::diag", []any{f32s(2, 2, 2)}, nil, "self", "diag(): Supports 1D or 2D tensors. Got 3D"},
		{"diag 0-d", "aten::diag", []any{f32s()}, nil, "self", "diag(): Supports 1D or 2D tensors. Got 0D"},
		{"diag_embed same dims", "aten::diag_embed", []any{f32s(2, 2), 0, 1, 1}, nil, "dim2", "diagonal dimensions cannot be identical 1, 1"},
		{"diagonal_scatter size", "aten::diagonal_scatter", []any{f32s(3, 3), f32s(2)}, nil, "src", "expected src to have a size equal to the slice of self. src size = [2], slice size = [3]"},
		{"as_strided_scatter size", "aten::as_strided_scatter", []any{f32s(3, 3), f32s(2), []int64{3}, []int64{1}}, nil, "src", "expected src to have a size equal to the slice of self. src size = [2], slice size = [3]"},
	})
}
