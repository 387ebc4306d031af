package nn_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func names[V any](seq func(func(string, V) bool)) []string {
	var out []string
	for k := range seq {
		out = append(out, k)
	}
	return out
}

func TestReplace(t *testing.T) {
	seq := func() *nn.Sequential {
		return nn.NewSequential(nn.NewLinear(2, 3, true), nn.NewReLU(), nn.NewLinear(3, 1, true))
	}
	t.Run("SetSubmodule keeps the position", func(t *testing.T) {
		m := seq()
		require.NoError(t, nn.SetSubmodule(m, "1", nn.NewTanh()))
		assert.Equal(t, []string{"", "0", "1", "2"}, names(nn.NamedModules(m)))
		c, err := nn.Submodule(m, "1")
		require.NoError(t, err)
		assert.Equal(t, "Tanh", c.ModuleBase().TypeName())
		require.NoError(t, nn.SetSubmodule(m, "extra", nn.NewReLU()))
		assert.Equal(t, []string{"", "0", "1", "2", "extra"}, names(nn.NamedModules(m)))
	})
	t.Run("errors name the path", func(t *testing.T) {
		m := seq()
		assert.ErrorContains(t, nn.SetSubmodule(m, "5.x", nn.NewReLU()), `"5.x"`)
		assert.ErrorContains(t, nn.SetSubmodule(m, "0.weight", nn.NewReLU()), "parameter or buffer")
		assert.ErrorContains(t, nn.DeleteSubmodule(m, "7"), `"7"`)
		assert.ErrorContains(t, nn.DeleteAttr(m, "0.nope"), "nope")
		_, err := nn.SetParameter(m, "0", nil)
		assert.ErrorContains(t, err, "submodule")
	})
	t.Run("DeleteSubmodule and DeleteAttr", func(t *testing.T) {
		m := seq()
		require.NoError(t, nn.DeleteSubmodule(m, "1"))
		require.NoError(t, nn.DeleteAttr(m, "2.bias"))
		assert.Equal(t, []string{"0.weight", "0.bias", "2.weight"}, nn.StateDict(m).Names())
	})
	t.Run("SetParameter keeps the order and the old parameter", func(t *testing.T) {
		m := seq()
		old, err := nn.Attr(m, "0.weight")
		require.NoError(t, err)
		oldT := old.(*nn.Parameter).Tensor()
		x, err := tensor.Full(tensor.Float32, 7, 3, 2)
		require.NoError(t, err)
		p, err := nn.SetParameter(m, "0.weight", x)
		require.NoError(t, err)
		assert.Same(t, x, p.Tensor())
		assert.Same(t, oldT, old.(*nn.Parameter).Tensor())
		assert.Equal(t, []string{"0.weight", "0.bias", "2.weight", "2.bias"}, nn.StateDict(m).Names())
	})
	t.Run("ShallowCopy shares entries, not the lists", func(t *testing.T) {
		m := nn.Eval(seq())
		cp := nn.ShallowCopy(m)
		assert.Equal(t, "Sequential", cp.TypeName())
		assert.False(t, cp.Training())
		assert.Equal(t, nn.StateDict(m).Names(), nn.StateDict(cp).Names())
		require.NoError(t, nn.DeleteSubmodule(cp, "0"))
		require.NoError(t, nn.SetSubmodule(cp, "2", nn.NewReLU()))
		assert.Equal(t, []string{"", "0", "1", "2"}, names(nn.NamedModules(m)))
		c, _ := nn.Submodule(m, "2")
		assert.Equal(t, "Linear", c.ModuleBase().TypeName())
		assert.True(t, slices.Equal([]string{"2.weight", "2.bias"}, nn.StateDict(m).Names()[2:]))
	})
}

// TestNameIndexAfterEdits checks lookups by name on a module with enough
// entries to be indexed stay right through registration, replacement and
// deletion.
func TestNameIndexAfterEdits(t *testing.T) {
	root := nn.NewSequential()
	for i := range 40 {
		root.AddModule(fmt.Sprint(i), nn.NewReLU())
	}
	root.RegisterBuffer("buf", tensor.Must(tensor.New(tensor.Float32, 2)), true)
	_, ok := root.Child("39")
	require.True(t, ok)
	require.NoError(t, nn.DeleteSubmodule(root, "3"))
	_, ok = root.Child("3")
	assert.False(t, ok, "deleted child still found")
	m, ok := root.Child("4")
	require.True(t, ok)
	assert.Equal(t, "ReLU", m.ModuleBase().TypeName())
	require.NoError(t, nn.SetSubmodule(root, "new", nn.NewTanh()))
	m, ok = root.Child("new")
	require.True(t, ok)
	assert.Equal(t, "Tanh", m.ModuleBase().TypeName())
	require.NoError(t, nn.DeleteAttr(root, "buf"))
	root.RegisterBuffer("buf", tensor.Must(tensor.New(tensor.Float32, 2)), true)
	assert.NoError(t, nn.Err(root), "re-registering a deleted name")
	root.AddModule("5", nn.NewReLU())
	assert.Error(t, nn.Err(root), "a duplicate name must be refused")
}
