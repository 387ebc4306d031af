package tensor_test

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
)

// convertCase is one entry of testdata/convert.json (see gen_convert.py).
type convertCase struct {
	Src    string           `json:"src"`
	Values []any            `json:"values"`
	To     map[string][]any `json:"to"`
}

// fromJSONValues builds a 1-D tensor of dtype dt holding vals exactly.
func fromJSONValues(t *testing.T, dt tensor.DType, vals []any) *tensor.Tensor {
	t.Helper()
	switch {
	case dt == tensor.Bool:
		b := make([]bool, len(vals))
		for i, v := range vals {
			b[i] = v.(bool)
		}
		return tensor.Must(tensor.FromSlice(b))
	case dt.IsIntegral(false):
		iv := make([]int64, len(vals))
		for i, v := range vals {
			n, err := v.(json.Number).Int64()
			require.NoError(t, err)
			iv[i] = n
		}
		return tensor.Must(tensor.FromInt64s(dt, iv, len(iv)))
	}
	fv := make([]float64, len(vals))
	for i, v := range vals {
		fv[i] = jsonFloat(t, v)
	}
	x := tensor.Must(tensor.FromFloat64s(dt, fv, len(fv)))
	// The values are exact in dt: building the tensor must not round them.
	for i, g := range x.Float64s() {
		require.True(t, sameFloat(g, fv[i]), "%v is not exact in %v", fv[i], dt)
	}
	return x
}

// sameFloat reports whether a and b are the same float64, telling -0 from
// +0 and taking any NaN as equal to any NaN.
func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Float64bits(a) == math.Float64bits(b)
}

// TestToMatchesTorch converts edge values between every pair of dtypes and
// compares with torch's Tensor.to: rounding to nearest even for floating
// destinations, truncation toward zero and torch's x86 results for
// out-of-range and NaN values for integral ones, wrapping of integers, and
// nonzero (NaN included) as true.
func TestToMatchesTorch(t *testing.T) {
	var cases []convertCase
	loadJSON(t, "testdata/convert.json", &cases)
	require.Len(t, cases, len(tensor.DTypes))
	for _, c := range cases {
		src, err := tensor.ParseDType(c.Src)
		require.NoError(t, err)
		x := fromJSONValues(t, src, c.Values)
		for _, dst := range tensor.DTypes {
			t.Run(c.Src+"_to_"+dst.String(), func(t *testing.T) {
				want := c.To[dst.String()]
				require.Len(t, want, len(c.Values))
				y := x.To(dst)
				require.Equal(t, dst, y.DType())
				require.Equal(t, x.Shape(), y.Shape())
				require.False(t, y.SharesStorage(x))
				switch {
				case dst == tensor.Bool:
					got := y.Bools()
					for i, w := range want {
						assert.Equal(t, w.(bool), got[i], "element %d (%v)", i, c.Values[i])
					}
				case dst.IsIntegral(false):
					got := y.Int64s()
					for i, w := range want {
						n, err := w.(json.Number).Int64()
						require.NoError(t, err)
						assert.Equal(t, n, got[i], "element %d (%v)", i, c.Values[i])
					}
				default:
					got := y.Float64s()
					for i, w := range want {
						wf := jsonFloat(t, w)
						assert.True(t, sameFloat(wf, got[i]), "element %d (%v): got %v, want %v", i, c.Values[i], got[i], wf)
					}
				}
			})
		}
	}
}

// To of a non-contiguous view converts the elements in row-major order and
// To of a meta tensor gives a meta tensor.
func TestToViewsAndMeta(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float32{1.5, -2.5, 3.5, 4.5, 5.5, 6.5}, 2, 3))
	tr := tensor.Must(x.T())
	y := tr.To(tensor.Int32)
	assert.Equal(t, []int64{1, 4, -2, 5, 3, 6}, y.Int64s())
	assert.True(t, y.IsContiguous())
	same := x.To(tensor.Float32)
	assert.False(t, same.SharesStorage(x), "To copies even to the same dtype")
	assert.True(t, tensor.Equal(x, same))
	m := tensor.Must(tensor.NewMeta(tensor.Float32, 2, 3)).To(tensor.BFloat16)
	assert.True(t, m.IsMeta())
	assert.Equal(t, tensor.BFloat16, m.DType())
	assert.Equal(t, []int{2, 3}, m.Shape())
}

// Float64s, Int64s and Bools read every dtype.
func TestReaders(t *testing.T) {
	tests := []struct {
		x     *tensor.Tensor
		f     []float64
		i     []int64
		b     []bool
		item  any
		itemI int
	}{
		{tensor.Must(tensor.FromSlice([]float32{-1.5, 0, 2.75})), []float64{-1.5, 0, 2.75}, []int64{-1, 0, 2}, []bool{true, false, true}, nil, 0},
		{tensor.Must(tensor.FromSlice([]uint8{0, 200, 255})), []float64{0, 200, 255}, []int64{0, 200, 255}, []bool{false, true, true}, nil, 0},
		{tensor.Must(tensor.FromSlice([]bool{true, false})), []float64{1, 0}, []int64{1, 0}, []bool{true, false}, nil, 0},
		{tensor.Must(tensor.FromSlice([]int8{-128, 5})), []float64{-128, 5}, []int64{-128, 5}, []bool{true, true}, nil, 0},
		{tensor.Must(tensor.FromSlice([]tensor.Half{tensor.HalfFromFloat32(-0.5), 0x7e00})), []float64{-0.5, math.NaN()}, nil, []bool{true, true}, nil, 0},
		{tensor.Scalar(int64(7)), []float64{7}, []int64{7}, []bool{true}, int64(7), 0},
		{tensor.Scalar(2.5), []float64{2.5}, []int64{2}, []bool{true}, 2.5, 0},
		{tensor.Scalar(false), []float64{0}, []int64{0}, []bool{false}, false, 0},
	}
	for _, tt := range tests {
		name := tt.x.String()
		got := tt.x.Float64s()
		require.Len(t, got, len(tt.f), name)
		for i := range got {
			assert.True(t, sameFloat(tt.f[i], got[i]), "%s: Float64s[%d] = %v", name, i, got[i])
		}
		if tt.i != nil {
			assert.Equal(t, tt.i, tt.x.Int64s(), name)
		}
		assert.Equal(t, tt.b, tt.x.Bools(), name)
		if tt.item != nil {
			v, err := tt.x.Item()
			require.NoError(t, err, name)
			assert.Equal(t, tt.item, v, name)
		}
	}
	_, err := tensor.Must(tensor.FromSlice([]int64{1, 2})).Item()
	assert.ErrorContains(t, err, "2 elements cannot be converted to a scalar")
	_, err = tensor.Must(tensor.NewMeta(tensor.Float32)).Item()
	assert.ErrorContains(t, err, "meta")
}

// New, NewMeta, FromSlice and Numel reject bad shapes with errors.
func TestConstructorsAndNumel(t *testing.T) {
	x, err := tensor.New(tensor.Int16, 2, 0, 3)
	require.NoError(t, err)
	assert.Equal(t, 0, x.Numel())
	assert.Equal(t, []int{3, 3, 1}, x.Strides(), "torch's strides for an empty shape")
	assert.Equal(t, []int{3, 3, 1}, tensor.ContiguousStrides([]int{2, 1, 3}))
	assert.Equal(t, []int{}, tensor.ContiguousStrides([]int{}))

	_, err = tensor.New(tensor.Invalid, 2)
	assert.Error(t, err)
	_, err = tensor.New(tensor.Float32, 2, -1)
	assert.ErrorContains(t, err, "negative dimension")
	_, err = tensor.NewMeta(tensor.Float32, 1<<21, 1<<21)
	assert.ErrorContains(t, err, "more than 2^40 elements")
	_, err = tensor.FromSlice([]float32{1, 2, 3}, 2, 2)
	assert.ErrorContains(t, err, "3 elements do not fill shape [2 2]")
	_, err = tensor.FromFloat64s(tensor.Float32, []float64{1}, 2)
	assert.Error(t, err)
	_, err = tensor.FromInt64s(tensor.Int8, []int64{1}, 2)
	assert.Error(t, err)

	tests := []struct {
		shape []int
		n     int
		err   bool
	}{
		{[]int{}, 1, false},
		{[]int{0}, 0, false},
		{[]int{3, 4}, 12, false},
		{[]int{1 << 20, 1 << 20}, 1 << 40, false},
		{[]int{1 << 20, 1 << 21}, 0, true},
		{[]int{1 << 40, 1 << 40, 0}, 0, false},
		{[]int{1 << 40, 1 << 40, -1}, 0, true},
		{[]int{-1}, 0, true},
	}
	for _, tt := range tests {
		n, err := tensor.Numel(tt.shape)
		if tt.err {
			assert.Error(t, err, "%v", tt.shape)
			continue
		}
		require.NoError(t, err, "%v", tt.shape)
		assert.Equal(t, tt.n, n, "%v", tt.shape)
	}

	s := tensor.Scalar(float32(3))
	assert.Equal(t, 0, s.Dim())
	assert.Equal(t, 1, s.Numel())
	assert.Equal(t, []int{}, s.Shape())
	m := tensor.Must(tensor.NewMeta(tensor.Bool, 4))
	assert.True(t, m.IsMeta())
	assert.False(t, m.SharesStorage(m), "meta tensors share nothing")
	assert.Panics(t, func() { tensor.Data[bool](m) })
	assert.Panics(t, func() { tensor.Data[float32](tensor.Scalar(int64(1))) })
	assert.Panics(t, func() { tensor.Must(tensor.New(tensor.Float32, -1)) })
}

// Shape, Strides and Size return copies and wrap negative dimensions.
func TestAccessors(t *testing.T) {
	x := tensor.Must(tensor.New(tensor.Float64, 2, 3, 4))
	s := x.Shape()
	s[0] = 100
	st := x.Strides()
	st[0] = 100
	assert.Equal(t, []int{2, 3, 4}, x.Shape())
	assert.Equal(t, []int{12, 4, 1}, x.Strides())
	assert.Equal(t, 4, x.Size(-1))
	assert.Equal(t, 2, x.Size(-3))
	assert.Panics(t, func() { x.Size(3) })
	assert.Equal(t, 3, x.Dim())
	assert.Equal(t, 24, x.Numel())
	assert.Equal(t, tensor.Float64, x.DType())
	assert.Equal(t, []int{4, 5, 6, 7, 16, 17, 18, 19}, tensor.Must(x.Select(1, 1)).Offsets())
}

// arangeCase is one case of testdata/arange.json (see gen_arange.py).
type arangeCase struct {
	Start   any    `json:"start"`
	End     any    `json:"end"`
	Step    any    `json:"step"`
	DType   string `json:"dtype"`
	Error   bool   `json:"error"`
	Message string `json:"message"`
	Values  []any  `json:"values"`
}

// TestArangeMatchesTorch compares Arange with torch.arange element by
// element, bit for bit.
func TestArangeMatchesTorch(t *testing.T) {
	var cases []arangeCase
	loadJSON(t, "testdata/arange.json", &cases)
	require.Greater(t, len(cases), 100)
	for i, c := range cases {
		start, end, step := jsonFloat(t, c.Start), jsonFloat(t, c.End), jsonFloat(t, c.Step)
		name := fmt.Sprintf("%d_%s(%v,%v,%v)", i, c.DType, start, end, step)
		t.Run(name, func(t *testing.T) {
			dt, err := tensor.ParseDType(c.DType)
			require.NoError(t, err)
			x, err := tensor.Arange(dt, start, end, step)
			if c.Error {
				require.Error(t, err, "torch: %s", c.Message)
				return
			}
			require.NoError(t, err)
			require.Equal(t, dt, x.DType())
			require.Equal(t, []int{len(c.Values)}, x.Shape())
			if dt.IsFloat() {
				got := x.Float64s()
				for i, v := range c.Values {
					want := jsonFloat(t, v)
					assert.True(t, sameFloat(want, got[i]), "element %d: got %v, want %v", i, got[i], want)
				}
				return
			}
			got := x.Int64s()
			for i, v := range c.Values {
				want, err := v.(json.Number).Int64()
				require.NoError(t, err)
				assert.Equal(t, want, got[i], "element %d", i)
			}
		})
	}
}

// allCloseCase is one case of testdata/allclose.json (see gen_allclose.py).
type allCloseCase struct {
	DType    string  `json:"dtype"`
	A        []any   `json:"a"`
	B        []any   `json:"b"`
	RTol     float64 `json:"rtol"`
	ATol     float64 `json:"atol"`
	EqualNaN bool    `json:"equal_nan"`
	Want     bool    `json:"want"`
}

// TestAllCloseMatchesTorch checks AllClose against torch.allclose:
// |a - b| <= atol + rtol*|b| (asymmetric), NaN close only to NaN with
// equalNaN, infinities only to the same infinity.
func TestAllCloseMatchesTorch(t *testing.T) {
	var cases []allCloseCase
	loadJSON(t, "testdata/allclose.json", &cases)
	require.NotEmpty(t, cases)
	for i, c := range cases {
		dt, err := tensor.ParseDType(c.DType)
		require.NoError(t, err)
		a, b := fromJSONValues(t, dt, c.A), fromJSONValues(t, dt, c.B)
		assert.Equal(t, c.Want, tensor.AllClose(a, b, c.RTol, c.ATol, c.EqualNaN),
			"case %d: allclose(%v, %v, rtol=%v, atol=%v, equal_nan=%v)", i, c.A, c.B, c.RTol, c.ATol, c.EqualNaN)
	}
}

// AllClose requires equal shapes (it does not broadcast, unlike
// torch.allclose) and compares across dtypes and strides by value.
func TestAllCloseShapesAndLayouts(t *testing.T) {
	a := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4}, 2, 2))
	b := tensor.Must(tensor.FromSlice([]float64{1, 3, 2, 4}, 2, 2))
	assert.False(t, tensor.AllClose(a, b, 0, 0, false))
	assert.True(t, tensor.AllClose(a, tensor.Must(b.T()), 0, 0, false), "values compared in row-major order")
	assert.False(t, tensor.AllClose(a, tensor.Must(a.Reshape(4)), 1, 1, false), "shapes differ")
	assert.False(t, tensor.AllClose(a, tensor.Must(tensor.FromSlice([]float32{1})), 1, 1, false), "no broadcasting")
	assert.True(t, tensor.AllClose(tensor.Must(tensor.FromSlice([]int64{1, 2})), tensor.Must(tensor.FromSlice([]float32{1, 2})), 0, 0, false))
}

// Equal requires the same dtype, shape and values, with NaN equal to NaN.
func TestEqual(t *testing.T) {
	nan := float32(math.NaN())
	a := tensor.Must(tensor.FromSlice([]float32{1, nan, 3}))
	tests := []struct {
		name string
		b    *tensor.Tensor
		want bool
	}{
		{"same values", tensor.Must(tensor.FromSlice([]float32{1, nan, 3})), true},
		{"other dtype", tensor.Must(tensor.FromSlice([]float64{1, math.NaN(), 3})), false},
		{"other value", tensor.Must(tensor.FromSlice([]float32{1, nan, 4})), false},
		{"other shape", tensor.Must(tensor.FromSlice([]float32{1, nan, 3}, 3, 1)), false},
		{"view with the same values", tensor.Must(tensor.Must(tensor.FromSlice([]float32{1, 0, nan, 0, 3, 0})).Slice(0, 0, 6, 2)), true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tensor.Equal(a, tt.b), tt.name)
	}
	assert.True(t, tensor.Equal(tensor.Scalar(int8(-3)), tensor.Scalar(int8(-3))))
	assert.False(t, tensor.Equal(tensor.Scalar(int8(-3)), tensor.Scalar(int8(3))))
	assert.True(t, tensor.Equal(tensor.Scalar(true), tensor.Scalar(true)))
}

// A Generator gives the same tensors for the same seed, on every platform,
// and different ones for different seeds.
func TestGeneratorDeterminism(t *testing.T) {
	draw := func(seed uint64) []*tensor.Tensor {
		g := tensor.NewGenerator(seed)
		return []*tensor.Tensor{
			tensor.Must(g.Rand(tensor.Float32, 3, 4)),
			tensor.Must(g.Randn(tensor.Float64, 5)),
			tensor.Must(g.RandInt(tensor.Int64, -3, 7, 2, 6)),
			tensor.Must(g.Rand(tensor.BFloat16, 4)),
		}
	}
	a, b, c := draw(42), draw(42), draw(43)
	for i := range a {
		assert.True(t, tensor.Equal(a[i], b[i]), "draw %d repeats", i)
		assert.False(t, tensor.Equal(a[i], c[i]), "draw %d differs with the seed", i)
	}
	// The streams are fixed: these values must never change.
	g := tensor.NewGenerator(1)
	first := tensor.Must(g.Rand(tensor.Float64, 3)).Float64s()
	again := tensor.NewGenerator(1)
	assert.Equal(t, first, tensor.Must(again.Rand(tensor.Float64, 3)).Float64s())

	g = tensor.NewGenerator(7)
	u := tensor.Must(g.Rand(tensor.Float64, 10000)).Float64s()
	mean := 0.0
	for _, v := range u {
		assert.True(t, v >= 0 && v < 1)
		mean += v / float64(len(u))
	}
	assert.InDelta(t, 0.5, mean, 0.02)
	n := tensor.Must(g.Randn(tensor.Float64, 10000)).Float64s()
	mean, sq := 0.0, 0.0
	for _, v := range n {
		mean += v / float64(len(n))
		sq += v * v / float64(len(n))
	}
	assert.InDelta(t, 0, mean, 0.05)
	assert.InDelta(t, 1, sq, 0.05)
	ri := tensor.Must(g.RandInt(tensor.Int8, -2, 3, 1000)).Int64s()
	seen := map[int64]bool{}
	for _, v := range ri {
		assert.True(t, v >= -2 && v < 3)
		seen[v] = true
	}
	assert.Len(t, seen, 5)
	_, err := g.RandInt(tensor.Int64, 3, 3, 1)
	assert.Error(t, err)
	_, err = g.Rand(tensor.Float32, -1)
	assert.Error(t, err)
}

// Full, FullInt, Ones and Zeros fill with a converted value.
func TestFill(t *testing.T) {
	x := tensor.Must(tensor.Full(tensor.Int8, -1.9, 2, 2))
	assert.Equal(t, []int64{-1, -1, -1, -1}, x.Int64s())
	assert.Equal(t, []int64{math.MaxInt64}, tensor.Must(tensor.FullInt(tensor.Int64, math.MaxInt64, 1)).Int64s())
	assert.Equal(t, []int64{-1}, tensor.Must(tensor.FullInt(tensor.Int32, 1<<32-1, 1)).Int64s(), "wraps")
	assert.Equal(t, []bool{true, true}, tensor.Must(tensor.Ones(tensor.Bool, 2)).Bools())
	assert.Equal(t, []float64{0, 0, 0}, tensor.Must(tensor.Zeros(tensor.Float16, 3)).Float64s())
	assert.Equal(t, []float64{math.Inf(1)}, tensor.Must(tensor.Full(tensor.Float16, 1e5, 1)).Float64s())
	_, err := tensor.Full(tensor.Float32, 1, -2)
	assert.Error(t, err)
}

// CopyFrom converts dtypes and broadcasts like torch.Tensor.copy_, also
// into a non-contiguous destination.
func TestCopyFrom(t *testing.T) {
	dst := tensor.Must(tensor.New(tensor.Int16, 3, 2))
	col := tensor.Must(tensor.Must(dst.T()).Select(0, 1)) // dst[:, 1]
	require.NoError(t, col.CopyFrom(tensor.Must(tensor.FromSlice([]float64{1.9, -2.9, 300}))))
	assert.Equal(t, []int64{0, 1, 0, -2, 0, 300}, dst.Int64s())
	require.NoError(t, dst.CopyFrom(tensor.Scalar(true)))
	assert.Equal(t, []int64{1, 1, 1, 1, 1, 1}, dst.Int64s())
	require.NoError(t, dst.CopyFrom(tensor.Must(tensor.FromSlice([]int64{7, 8}))))
	assert.Equal(t, []int64{7, 8, 7, 8, 7, 8}, dst.Int64s())
	assert.Error(t, dst.CopyFrom(tensor.Must(tensor.FromSlice([]int64{1, 2, 3}))))
	assert.Error(t, dst.CopyFrom(tensor.Must(tensor.NewMeta(tensor.Int16, 2))))
}

// DType names, sizes and categories follow torch.
func TestDTypes(t *testing.T) {
	tests := []struct {
		dt                         tensor.DType
		name                       string
		size                       int
		float, integral, intOrBool bool
		signed                     bool
	}{
		{tensor.Float32, "float32", 4, true, false, false, true},
		{tensor.Float64, "float64", 8, true, false, false, true},
		{tensor.Float16, "float16", 2, true, false, false, true},
		{tensor.BFloat16, "bfloat16", 2, true, false, false, true},
		{tensor.Int64, "int64", 8, false, true, true, true},
		{tensor.Int32, "int32", 4, false, true, true, true},
		{tensor.Int16, "int16", 2, false, true, true, true},
		{tensor.Int8, "int8", 1, false, true, true, true},
		{tensor.Uint8, "uint8", 1, false, true, true, false},
		{tensor.Bool, "bool", 1, false, false, true, false},
	}
	require.Len(t, tensor.DTypes, len(tests))
	for _, tt := range tests {
		assert.Equal(t, tt.name, tt.dt.String())
		assert.True(t, tt.dt.Valid())
		assert.Equal(t, tt.size, tt.dt.Size(), tt.name)
		assert.Equal(t, tt.float, tt.dt.IsFloat(), tt.name)
		assert.Equal(t, tt.integral, tt.dt.IsIntegral(false), tt.name)
		assert.Equal(t, tt.intOrBool, tt.dt.IsIntegral(true), tt.name)
		assert.Equal(t, tt.signed, tt.dt.IsSigned(), tt.name)
		for _, spelling := range []string{tt.name, "torch." + tt.name} {
			got, err := tensor.ParseDType(spelling)
			require.NoError(t, err)
			assert.Equal(t, tt.dt, got)
		}
	}
	aliases := map[string]tensor.DType{"float": tensor.Float32, "double": tensor.Float64, "half": tensor.Float16,
		"long": tensor.Int64, "int": tensor.Int32, "short": tensor.Int16, "torch.long": tensor.Int64}
	for s, want := range aliases {
		got, err := tensor.ParseDType(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, got, s)
	}
	for _, bad := range []string{"", "complex64", "torch.", "Float32", "uint16"} {
		_, err := tensor.ParseDType(bad)
		assert.Error(t, err, bad)
	}
	assert.False(t, tensor.Invalid.Valid())
	assert.Equal(t, 0, tensor.Invalid.Size())
	assert.Equal(t, "DType(200)", tensor.DType(200).String())
	assert.Equal(t, tensor.Float16, tensor.DTypeOf[tensor.Half]())
	assert.Equal(t, tensor.Uint8, tensor.DTypeOf[uint8]())
}

// NormDim wraps dimensions as maybe_wrap_dim does, a 0-d tensor accepting
// 0 and -1.
func TestNormDim(t *testing.T) {
	tests := []struct{ d, rank, want int }{
		{0, 3, 0}, {-1, 3, 2}, {-3, 3, 0}, {2, 3, 2}, {0, 0, 0}, {-1, 0, 0},
		{3, 3, -1}, {-4, 3, -1}, {1, 0, -1}, {-2, 0, -1},
	}
	for _, tt := range tests {
		got, err := tensor.NormDim(tt.d, tt.rank)
		if tt.want < 0 {
			assert.Error(t, err, "%d of %d", tt.d, tt.rank)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "%d of %d", tt.d, tt.rank)
	}
}

// TestWrappedNumber: only a 0-d tensor wraps a number, the mark is on the
// returned tensor alone (not the original, not a view of it), and the
// data is shared.
func TestWrappedNumber(t *testing.T) {
	x := tensor.Must(tensor.FromFloat64s(tensor.Float64, []float64{0.5}))
	w := x.WrappedNumber()
	assert.True(t, w.IsWrappedNumber())
	assert.False(t, x.IsWrappedNumber())
	assert.True(t, w.SharesStorage(x))
	v, err := w.Reshape(1)
	require.NoError(t, err)
	assert.False(t, v.IsWrappedNumber(), "a view is not a wrapped number")
	assert.Panics(t, func() { tensor.Must(tensor.Zeros(tensor.Float32, 2)).WrappedNumber() })
}
