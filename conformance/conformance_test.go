package conformance

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
)

const addLine = `{"id": "aten.add.Tensor/0", "op": "aten::add.Tensor", "schema": "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", "args": [{"tensor": {"dtype": "float32", "shape": [2], "data": "AACAPwAAAEA="}}, {"tensor": {"dtype": "float32", "shape": [], "data": "AABAQA=="}}], "kwargs": {"alpha": {"int": 9223372036854775807}}, "outputs": [{"tensor": {"dtype": "float32", "shape": [2], "data": "AACAQAAAoEA="}}], "rtol": 1.3e-06, "atol": 1e-05, "note": "n"}`

func TestParseCase(t *testing.T) {
	c, err := ParseCase([]byte(addLine))
	require.NoError(t, err)
	assert.Equal(t, "aten.add.Tensor/0", c.ID)
	assert.Equal(t, "aten::add.Tensor", c.Op)
	assert.Equal(t, 1.3e-6, c.RTol)
	assert.Equal(t, 1e-5, c.ATol)
	require.Len(t, c.Args, 2)
	x := c.Args[0].(*tensor.Tensor)
	assert.Equal(t, []float32{1, 2}, tensor.Values[float32](x))
	assert.Equal(t, []int{}, c.Args[1].(*tensor.Tensor).Shape())
	// int64 extremes decode exactly, not through float64.
	assert.Equal(t, int64(math.MaxInt64), c.Kwargs["alpha"])
	assert.Equal(t, []float32{4, 5}, tensor.Values[float32](c.Outputs[0].(*tensor.Tensor)))
}

func TestDecodeArg(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{`{"int": -3}`, int64(-3)},
		{`{"float": 1.5}`, 1.5},
		{`{"float": "-inf"}`, math.Inf(-1)},
		{`{"bool": true}`, true},
		{`{"none": true}`, nil},
		{`{"string": "tanh"}`, "tanh"},
		{`{"ints": []}`, []int64{}},
		{`{"ints": [1, -9223372036854775808]}`, []int64{1, math.MinInt64}},
		{`{"floats": [0.5, "nan"]}`, nil}, // checked below
		{`{"bools": [true, false]}`, []bool{true, false}},
		{`{"scalar_type": "float64"}`, tensor.Float64},
		{`{"device": "cpu"}`, "cpu"},
		{`{"memory_format": "contiguous_format"}`, "contiguous_format"},
	}
	for _, tt := range tests {
		got, err := DecodeArg([]byte(tt.in))
		require.NoError(t, err, tt.in)
		if strings.Contains(tt.in, "floats") {
			f := got.([]float64)
			assert.Equal(t, 0.5, f[0])
			assert.True(t, math.IsNaN(f[1]))
			continue
		}
		assert.Equal(t, tt.want, got, tt.in)
	}
	v, err := DecodeArg([]byte(`{"optional_tensors": [{"none": true}, {"tensor": {"dtype": "int64", "shape": [1], "data": "BwAAAAAAAAA="}}]}`))
	require.NoError(t, err)
	ts := v.([]*tensor.Tensor)
	assert.Nil(t, ts[0])
	assert.Equal(t, []int64{7}, tensor.Values[int64](ts[1]))
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"int": 1, "float": 2}`, "exactly one key"},
		{`{"what": 1}`, "unknown argument kind"},
		{`{"tensor": {"dtype": "float32", "shape": [3], "data": "AACAPw=="}}`, "needs 12"},
		{`{"tensor": {"dtype": "float32", "shape": [-1], "data": ""}}`, "bad dimension"},
		{`{"tensor": {"dtype": "complex32", "shape": [], "data": ""}}`, "unknown dtype"},
		{`{"tensor": {"dtype": "bool", "shape": [1], "data": "Ag=="}}`, "not 0 or 1"},
		{`{"tensor": {"dtype": "uint8", "shape": [1], "data": "!!"}}`, "data"},
		{`{"int": 1.5}`, "invalid syntax"},
		{`{"float": "huge"}`, "bad float"},
		{`{"tensor": {"dtype": "float32", "shape": [1099511627776, 1099511627776], "data": ""}}`, "2^40"},
	}
	for _, tt := range tests {
		_, err := DecodeArg([]byte(tt.in))
		require.Error(t, err, tt.in)
		assert.Contains(t, err.Error(), tt.want, tt.in)
	}
	_, err := ParseCase([]byte(`{"op": "aten::relu"}`))
	assert.ErrorContains(t, err, "without id")
	_, err = ParseCase([]byte(`not json`))
	assert.Error(t, err)
}

func TestCompareRules(t *testing.T) {
	f32 := func(v ...float32) *tensor.Tensor { return tensor.Must(tensor.FromSlice(v)) }
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	negZero := float32(math.Copysign(0, -1))
	tests := []struct {
		name       string
		got, want  *tensor.Tensor
		rtol, atol float64
		pass       bool
	}{
		{"exact", f32(1, 2), f32(1, 2), 0, 0, true},
		{"nan matches nan", f32(nan), f32(nan), 0, 0, true},
		{"nan vs number", f32(nan), f32(1), 1, 1, false},
		{"inf matches same inf", f32(inf), f32(inf), 0, 0, true},
		{"inf vs -inf", f32(inf), f32(-inf), 1, 1, false},
		{"inf vs big", f32(inf), f32(3e38), 1, 1, false},
		{"signed zero ignored", f32(negZero), f32(0), 0, 0, true},
		{"within atol", f32(1.000001), f32(1), 0, 1e-5, true},
		{"within rtol", f32(100.0001), f32(100), 1.3e-6, 0, true},
		{"outside", f32(1.1), f32(1), 1e-4, 1e-4, false},
		{"zero tolerance means exact", f32(1.0000001), f32(1), 0, 0, false},
	}
	for _, tt := range tests {
		r := &Result{Case: &Case{ID: "x/0", RTol: tt.rtol, ATol: tt.atol}}
		require.NoError(t, r.compare("out", tt.got, tt.want), tt.name)
		assert.Equal(t, tt.pass, r.Passed(), tt.name)
	}
	// Integer outputs must match exactly whatever the tolerance.
	r := &Result{Case: &Case{ID: "x/0", RTol: 1, ATol: 1}}
	require.NoError(t, r.compare("out", tensor.Must(tensor.FromSlice([]int64{1, 2})), tensor.Must(tensor.FromSlice([]int64{1, 3}))))
	assert.False(t, r.Passed())
	// dtype and shape must match.
	r = &Result{Case: &Case{ID: "x/0"}}
	assert.ErrorContains(t, r.compare("out", f32(1), tensor.Must(tensor.FromSlice([]float64{1}))), "want float64[1]")
	assert.ErrorContains(t, r.compare("out", f32(1, 2), f32(1)), "want float32[1]")
}

func TestCompareNone(t *testing.T) {
	r := &Result{Case: &Case{ID: "x/0"}}
	assert.NoError(t, r.compare("out", nil, nil))
	assert.NoError(t, r.compare("out", (*tensor.Tensor)(nil), nil))
	assert.ErrorContains(t, r.compare("out", tensor.Scalar(float32(1)), nil), "want None")
	assert.NoError(t, sameMeta(nil, nil))
	assert.Error(t, sameMeta(tensor.Scalar(float32(1)).Meta(), nil))
}

func TestRunUnknownOp(t *testing.T) {
	r := Run(&Case{ID: "x/0", Op: "aten::no_such_op"})
	assert.False(t, r.Passed())
	assert.Contains(t, r.String(), "FAIL x/0: unknown operator aten::no_such_op")
}

func FuzzParseCase(f *testing.F) {
	f.Add([]byte(addLine))
	f.Add([]byte(`{"id": "a/0", "op": "aten::relu", "args": [{"tensors": [{"dtype": "bool", "shape": [2], "data": "AAE="}]}], "outputs": [{"optional_tensors": [{"none": true}]}]}`))
	f.Add([]byte(`{"id": "a/0", "op": "x", "args": [{"floats": ["inf", 1e308]}, {"ints": [9223372036854775807]}]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		c, err := ParseCase(line)
		if err != nil {
			return
		}
		// A decoded case is usable: running it never panics.
		_ = Run(c).String()
	})
}
