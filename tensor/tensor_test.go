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
