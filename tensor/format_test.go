package tensor_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
)

// reprCase is one case of testdata/repr.json (see gen_repr.py).
type reprCase struct {
	Name     string        `json:"name"`
	DType    string        `json:"dtype"`
	Shape    []int         `json:"shape"`
	Values   []any         `json:"values"`
	Arange   []json.Number `json:"arange"`
	View     string        `json:"view"`
	Expected string        `json:"expected"`
}

// loadJSON decodes a testdata file, keeping numbers exact.
func loadJSON(t *testing.T, path string, v any) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	d := json.NewDecoder(f)
	d.UseNumber()
	require.NoError(t, d.Decode(v))
}

// jsonFloat decodes a number or one of the strings "nan", "inf", "-inf",
// "-0" written for values JSON cannot hold.
func jsonFloat(t *testing.T, v any) float64 {
	t.Helper()
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		require.NoError(t, err)
		return f
	case bool:
		if x {
			return 1
		}
		return 0
	case string:
		switch x {
		case "nan":
			return math.NaN()
		case "inf":
			return math.Inf(1)
		case "-inf":
			return math.Inf(-1)
		case "-0":
			return math.Copysign(0, -1)
		}
	}
	t.Fatalf("bad value %#v", v)
	return 0
}

// build makes the tensor a repr case describes.
func (c *reprCase) build(t *testing.T) *tensor.Tensor {
	dt, err := tensor.ParseDType(c.DType)
	require.NoError(t, err)
	if c.View == "meta" {
		return tensor.Must(tensor.NewMeta(dt, c.Shape...))
	}
	n, err := tensor.Numel(c.Shape)
	require.NoError(t, err)
	var x *tensor.Tensor
	switch {
	case c.Arange != nil:
		start, err := c.Arange[0].Float64()
		require.NoError(t, err)
		step, err := c.Arange[1].Float64()
		require.NoError(t, err)
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = start + float64(i)*step
		}
		x, err = tensor.FromFloat64s(dt, vals, c.Shape...)
		require.NoError(t, err)
	case dt.IsIntegral(false):
		vals := make([]int64, len(c.Values))
		for i, v := range c.Values {
			vals[i], err = v.(json.Number).Int64()
			require.NoError(t, err)
		}
		x, err = tensor.FromInt64s(dt, vals, c.Shape...)
		require.NoError(t, err)
	default:
		vals := make([]float64, len(c.Values))
		for i, v := range c.Values {
			vals[i] = jsonFloat(t, v)
		}
		x, err = tensor.FromFloat64s(dt, vals, c.Shape...)
		require.NoError(t, err)
	}
	if c.View == "t" {
		x, err = x.T()
		require.NoError(t, err)
	}
	return x
}

func TestFormatMatchesTorchRepr(t *testing.T) {
	var cases []reprCase
	loadJSON(t, "testdata/repr.json", &cases)
	require.GreaterOrEqual(t, len(cases), 30)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			x := c.build(t)
			assert.Equal(t, c.Expected, fmt.Sprintf("%v", x))
			assert.Equal(t, c.Expected, x.Repr())
		})
	}
}

func TestFormatVerbs(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	tests := []struct {
		format string
		x      *tensor.Tensor
		want   string
	}{
		{"%v", x, "tensor([[1., 2., 3.],\n        [4., 5., 6.]])"},
		{"%+v", x, "tensor([[1., 2., 3.],\n        [4., 5., 6.]])"},
		{"%s", x, "float32[2, 3]"},
		{"%q", x, `"float32[2, 3]"`},
		{"%d", x, "%!d(*tensor.Tensor=float32[2, 3])"},
		{"%s", tensor.Must(tensor.NewMeta(tensor.Int8, 4)), "int8[4] (meta)"},
		{"%v", (*tensor.Tensor)(nil), "<nil>"},
		{"%s", (*tensor.Tensor)(nil), "<nil>"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, fmt.Sprintf(tt.format, tt.x), tt.format)
	}
	assert.Equal(t, "float32[2, 3]", x.String())
	assert.Equal(t, "bool[]", tensor.Scalar(true).String())
}

// A summarized tensor is printed without reading every element into
// strings: the output stays small for large tensors.
func TestFormatLargeTensor(t *testing.T) {
	x := tensor.Must(tensor.Zeros(tensor.Float32, 1000, 1000))
	s := fmt.Sprintf("%v", x)
	assert.Less(t, len(s), 1000)
	assert.Contains(t, s, "...")
}
