package fx_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// TestModuleEditorCopyOnWrite: edits through the editor change the
// GraphModule's tree and never the traced model's modules.
func TestModuleEditorCopyOnWrite(t *testing.T) {
	model := nn.NewSequential(nn.NewSequential(nn.NewLinear(2, 3, true), nn.NewReLU()), nn.NewLinear(3, 1, true))
	require.NoError(t, nn.Err(model))
	gm, err := fx.SymbolicTrace(model)
	require.NoError(t, err)
	e := fx.NewModuleEditor(gm)

	// A new parameter on a nested module: the path above it is copied.
	x := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{1, 2, 3, 4, 5, 6}, 3, 2))
	require.NoError(t, e.SetParameter("0.0.weight", x))
	got, err := nn.Attr(gm, "0.0.weight")
	require.NoError(t, err)
	assert.Equal(t, x.Float64s(), got.(*nn.Parameter).Value().MustTensor().Float64s())
	orig, err := nn.Attr(model, "0.0.weight")
	require.NoError(t, err)
	assert.NotEqual(t, x.Float64s(), orig.(*nn.Parameter).Value().MustTensor().Float64s(), "the model's own layer is untouched")
	m0, _ := nn.Submodule(model, "0.0")
	g0, _ := nn.Submodule(gm, "0.0")
	assert.NotSame(t, m0, g0, "the edited layer is a copy")
	m1, _ := nn.Submodule(model, "1")
	g1, _ := nn.Submodule(gm, "1")
	assert.Same(t, m1, g1, "an unedited layer stays shared")

	// SetModule creates missing parents, as add_submodule does; Own does not.
	require.NoError(t, e.SetModule("extra.inner", nn.NewReLU()))
	_, err = nn.Submodule(gm, "extra.inner")
	require.NoError(t, err)
	_, err = e.Own("absent.path")
	assert.ErrorContains(t, err, `no submodule "absent"`)
	assert.True(t, e.Free("1.scale"))
	assert.False(t, e.Free("1.weight"))
	assert.False(t, e.Free("0"))

	// DeleteAttr drops the modules it leaves empty unless kept.
	require.NoError(t, e.DeleteAttr("1.weight", func(string) bool { return false }))
	_, err = nn.Submodule(gm, "1")
	require.NoError(t, err, "1 still holds its bias")
	require.NoError(t, e.DeleteAttr("1.bias", func(string) bool { return false }))
	_, err = nn.Submodule(gm, "1")
	assert.Error(t, err, "1 was left empty and deleted")
	_, err = nn.Submodule(model, "1")
	assert.NoError(t, err, "the model keeps its layer")
	_, err = nn.Attr(model, "1.weight")
	assert.NoError(t, err, "and its weight")

	// DeleteUnused removes only what no node refers to.
	require.NoError(t, e.DeleteUnused([]string{"extra", "0.1"}))
	_, err = nn.Submodule(gm, "extra")
	assert.Error(t, err, "nothing calls extra")
	_, err = nn.Submodule(gm, "0.1")
	assert.NoError(t, err, "the graph calls 0.1 (the ReLU)")
	var nilEditor *fx.ModuleEditor
	assert.NoError(t, nilEditor.DeleteUnused([]string{"x"}))
}
