package torchscript

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/runtime"
)

// TestTestdataArchives runs archives copied into testdata (so that the
// test runs with nothing beside the repository) on their io.json cases:
// loop_if and attributes from ../shared/torchscript, and root_hooks
// (testdata/hooks/gen_hooks.py: a forward pre-hook and a forward hook on
// the root, and hooks, with a submodule's hook too, made with PyTorch
// 2.6), and div_v3 (testdata/upgraders/gen_div_v3.py: a version 3 archive
// of torch.div, whose integer division truncates as PyTorch's upgrader
// makes it).
func TestTestdataArchives(t *testing.T) {
	for _, c := range []struct{ archive, io string }{
		{"testdata/loop_if.script.pt", "testdata/loop_if.io.json"},
		{"testdata/attributes.script.pt", "testdata/attributes.io.json"},
		{"testdata/hooks/root_hooks.script.pt", "testdata/hooks/root_hooks.io.json"},
		{"testdata/hooks/hooks.script.pt", "testdata/hooks/hooks.io.json"},
		{"testdata/upgraders/div_v3.script.pt", "testdata/upgraders/div_v3.io.json"},
	} {
		t.Run(c.archive, func(t *testing.T) {
			m, err := Load(c.archive)
			require.NoError(t, err)
			io, err := ReadIO(c.io)
			require.NoError(t, err)
			for i, r := range CheckIO(m, io) {
				assert.True(t, r.Passed(), "case %d (%s): %v", i, r.Note, r.Err)
			}
		})
	}
}

// TestHooksOnlyInForward: Method("forward").Run runs no hooks, as
// PyTorch's m.forward(x) (30x+3 with the hooks, 2x+3 without).
func TestHooksOnlyInForward(t *testing.T) {
	m, err := Load("testdata/hooks/root_hooks.script.pt")
	require.NoError(t, err)
	x := tensor.Must(tensor.FromSlice([]float32{1, 2}, 2))
	got, err := m.Forward(x)
	require.NoError(t, err)
	assert.Equal(t, []float32{33, 63}, tensor.Values[float32](got.(*tensor.Tensor)))
	f, err := m.Method("forward")
	require.NoError(t, err)
	got, err = f.Run(x)
	require.NoError(t, err)
	assert.Equal(t, []float32{5, 7}, tensor.Values[float32](got.(*tensor.Tensor)))
}

func TestModuleState(t *testing.T) {
	m, err := Load("testdata/attributes.script.pt")
	require.NoError(t, err)
	var names []string
	for _, p := range m.NamedParameters() {
		names = append(names, p.Name)
	}
	// Attributes' lin is an nn.Linear (../shared/pt2/gen_pt2.py).
	assert.Equal(t, []string{"lin.weight", "lin.bias"}, names)
	lin, ok := m.Submodule("lin")
	require.True(t, ok)
	assert.Equal(t, "lin", lin.Path())
	assert.False(t, m.Training())
	m.Train(true)
	assert.True(t, m.Training())
	assert.True(t, lin.Training())
	m.Train(false)
	scales, ok := m.Attr("scales")
	require.True(t, ok)
	assert.Equal(t, "List[float]", runtime.TypeName(scales))
	_, ok = m.Submodule("nope")
	assert.False(t, ok)

	// Clone copies the state: a change to the copy leaves m alone.
	c := m.Clone()
	cl, _ := c.Submodule("lin")
	w, _ := cl.Attr("weight")
	tensor.Values[float32](w.(*tensor.Tensor))[0] = 1234
	w0, _ := lin.Attr("weight")
	assert.NotEqual(t, float32(1234), tensor.Values[float32](w0.(*tensor.Tensor))[0])
}

func TestMethodErrors(t *testing.T) {
	m, err := Load("testdata/loop_if.script.pt")
	require.NoError(t, err)
	_, err = m.Method("nope")
	assert.ErrorContains(t, err, "no method 'nope'")
	f, err := m.Method("forward")
	require.NoError(t, err)
	_, err = f.Run("twelve")
	assert.ErrorContains(t, err, "expected int, got str")
	out, err := f.Run(3)
	require.NoError(t, err)
	assert.Equal(t, []int{3, 4}, out.(*tensor.Tensor).Shape())
	_, err = m.Forward(struct{}{})
	assert.ErrorContains(t, err, "not a TorchScript value")
}

func TestLoadBadInput(t *testing.T) {
	data, err := os.ReadFile("testdata/loop_if.script.pt")
	require.NoError(t, err)
	for _, n := range []int{0, 10, len(data) / 2, len(data) - 1} {
		_, err := Read(bytes.NewReader(data[:n]), int64(n))
		assert.Error(t, err, "truncated to %d bytes", n)
	}
	_, err = Load("testdata/nonexistent.pt")
	assert.Error(t, err)
}

// FuzzRead loads arbitrary bytes as an archive: an error or a module,
// never a panic; a module that loads has a forward that runs or fails
// with an error, and prints its graph (source comments through the
// debug_pkl) or fails with an error.
func FuzzRead(f *testing.F) {
	for _, p := range []string{"testdata/loop_if.script.pt", "testdata/attributes.script.pt", "testdata/hooks/hooks.script.pt", "testdata/enumwith/enumwith.script.pt", "archive/testdata/legacy/legacy.pt", "testdata/v2/test_versioned_div_tensor_v2.ptl", "convert/testdata/tsfork/fork.pt"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		_, _ = m.Method("forward")
		_, _ = m.Graph()
	})
}
