package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/types"
)

// TestStrMatchesPyTorch: expected strings are what PyTorch 2.6's
// TorchScript str() returns for the same values (a scripted function
// run with ../shared/tools/torch2).
func TestStrMatchesPyTorch(t *testing.T) {
	d := NewDict(types.Str, types.Int)
	require.NoError(t, d.Set("a", int64(1)))
	require.NoError(t, d.Set("b", int64(2)))
	for _, c := range []struct {
		v    any
		want string
	}{
		{1.0, "1."},
		{0.1, "0.10000000000000001"},
		{1e20, "1e+20"},
		{2.5e-7, "2.4999999999999999e-07"},
		{1e10, "10000000000."},
		{123456789.0, "123456789."},
		{1.0 / 3, "0.33333333333333331"},
		{NewList(types.Int, int64(1), int64(2)), "[1, 2]"},
		{NewList(types.Float, 1.5, 2.0), "[1.5, 2.]"},
		{NewList(types.Str, "a", "b"), "[a, b]"},
		{NewTuple(int64(1), "x"), "(1, x)"},
		{NewTuple(int64(3)), "(3,)"},
		{d, "{a: 1, b: 2}"},
		{true, "True"},
		{nil, "None"},
		{tensor.Float32, "6"},
		{CPU, "cpu"},
		{NewList(types.Bool, true, false), "[True, False]"},
	} {
		assert.Equal(t, c.want, Str(c.v), "%#v", c.v)
	}
	assert.Equal(t, `["a", "b\n"]`, Repr(NewList(types.Str, "a", "b\n")))
}

func TestEqual(t *testing.T) {
	a := NewList(types.Int, int64(1), int64(2))
	b := NewList(types.Int, int64(1), int64(2))
	for _, c := range []struct {
		a, b any
		want bool
	}{
		{int64(1), 1.0, true},
		{true, int64(1), true},
		{int64(2), 2.5, false},
		{"a", "a", true},
		{"a", int64(1), false},
		{nil, nil, true},
		{a, b, true},
		{a, NewList(types.Int, int64(1)), false},
		{NewTuple(int64(1), "x"), NewTuple(1.0, "x"), true},
		{tensor.Scalar[float32](2), tensor.Scalar[int64](2), true},
	} {
		got, err := Equal(c.a, c.b)
		require.NoError(t, err)
		assert.Equal(t, c.want, got, "%s == %s", Repr(c.a), Repr(c.b))
	}
	x := tensor.Must(tensor.FromSlice([]float32{1, 2}, 2))
	_, err := Equal(x, tensor.Must(tensor.FromSlice([]float32{1, 2}, 2)))
	assert.ErrorContains(t, err, "ambiguous")
	eq, err := Equal(x, x)
	require.NoError(t, err)
	assert.True(t, eq)
}

func TestDictOrderAndDelete(t *testing.T) {
	d := NewDict(types.Int, types.Str)
	for i := int64(0); i < 40; i++ {
		require.NoError(t, d.Set(i, Str(i)))
	}
	for i := int64(0); i < 40; i += 2 {
		assert.True(t, d.Delete(i))
	}
	assert.False(t, d.Delete(int64(0)))
	require.NoError(t, d.Set(int64(0), "zero"))
	keys := d.Keys()
	require.Len(t, keys, 21)
	assert.Equal(t, int64(1), keys[0])
	assert.Equal(t, int64(0), keys[20])
	v, ok := d.Get(int64(39))
	assert.True(t, ok)
	assert.Equal(t, "39", v)
	assert.Error(t, d.Set(NewList(nil), 1))
}

func TestObjectAttrs(t *testing.T) {
	c := (&types.Class{Name: "__torch__.M", Module: true, Attrs: []types.Attr{{Name: "training", Type: types.Bool}, {Name: "w", Type: types.Tensor, Parameter: true}}})
	o := NewObject(c)
	require.NoError(t, o.SetAttr("training", false))
	v, ok := o.Attr("training")
	assert.True(t, ok)
	assert.Equal(t, false, v)
	assert.ErrorContains(t, o.SetAttr("nope", 1), "has no attribute 'nope'")
	_, ok = o.Attr("nope")
	assert.False(t, ok)
}

func TestParseDevice(t *testing.T) {
	d, err := ParseDevice("cuda:1")
	require.NoError(t, err)
	assert.Equal(t, Device{"cuda", 1}, d)
	assert.Equal(t, "cuda:1", d.String())
	_, err = ParseDevice("gpu")
	assert.Error(t, err)
}
