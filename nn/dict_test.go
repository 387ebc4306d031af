package nn_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

func TestDict(t *testing.T) {
	a := tensor.Must(tensor.Ones(tensor.Float32, 2))
	d := nn.Dict([]string{"z", "a"}, nn.Tensor(a), nn.Of(3))
	assert.True(t, d.IsDict())
	assert.Equal(t, "dict", d.Kind())
	assert.Equal(t, []string{"z", "a"}, d.Keys())
	assert.Equal(t, int64(3), d.Get("a").Int())
	assert.Same(t, a, d.Index("z").MustTensor())
	assert.Equal(t, "{'z': tensor([1., 1.]), 'a': 3}", d.String())
	m := d.Any().(map[string]nn.Value)
	assert.Len(t, m, 2)

	// A Go map makes a dict with sorted keys.
	for _, v := range []any{
		map[string]any{"b": 1, "a": a},
		map[string]*tensor.Tensor{"b": a, "a": a},
		map[string]nn.Value{"b": nn.Of(1), "a": nn.Tensor(a)},
	} {
		assert.Equal(t, []string{"a", "b"}, nn.Of(v).Keys(), "%T", v)
	}
	// A tuple holding a dict converts back and forth.
	tup := nn.Of([]any{d, 1})
	assert.True(t, tup.Tuple()[0].IsDict())

	for _, tc := range []struct {
		name string
		f    func()
		msg  string
	}{
		{"missing key", func() { d.Get("q") }, `KeyError: "q" (the dict's keys: ["z" "a"])`},
		{"int index", func() { d.Index(0) }, "a dict index must be a str key, got int"},
		{"not a dict", func() { nn.Of(1).Get("a") }, `only a dict is indexed by a string key`},
		{"repeated key", func() { nn.Dict([]string{"a", "a"}, nn.None, nn.None) }, `the key "a" repeats`},
		{"lengths", func() { nn.Dict([]string{"a"}) }, "1 keys and 0 values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			func() {
				defer nn.Recover(&err)
				tc.f()
			}()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

func TestObject(t *testing.T) {
	type pair struct{ A, B nn.Value }
	p := &pair{A: nn.Of(1)}
	v := nn.Object(p)
	assert.Same(t, p, v.Any())
	assert.Equal(t, "*nn_test.pair", v.Kind())
	assert.Equal(t, int64(2), nn.Object(2).Int(), "a value Of takes is wrapped as Of wraps it")
	assert.True(t, nn.Object(nil).IsNone())
}
