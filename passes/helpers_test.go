package passes_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// holder is a root module for hand-built graphs: its buffers and
// submodules are what get_attr and call_module nodes name.
type holder struct{ nn.Base }

// newGM parses text (graph.Parse's form) into a GraphModule over a root
// holding attrs as persistent buffers and mods as submodules.
func newGM(t testing.TB, text string, attrs map[string]*tensor.Tensor, mods map[string]nn.Module) *fx.GraphModule {
	t.Helper()
	g, err := graph.Parse(text)
	require.NoError(t, err)
	root := &holder{}
	root.Init(root, "Holder")
	for _, name := range sortedKeys(attrs) {
		root.RegisterBuffer(name, attrs[name], true)
	}
	for _, name := range sortedKeys(mods) {
		root.AddModule(name, mods[name])
	}
	gm, err := fx.NewGraphModule(root, g)
	require.NoError(t, err)
	return gm
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[i] {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
	}
	return keys
}

// ramp returns a float32 tensor of the given shape holding 0.5, 1.5, ...
// with alternating signs, so that relu and friends see both signs.
func ramp(t testing.TB, shape ...int) *tensor.Tensor {
	t.Helper()
	n := 1
	for _, s := range shape {
		n *= s
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = float64(i) + 0.5
		if i%2 == 1 {
			vals[i] = -vals[i]
		}
	}
	x, err := tensor.FromFloat64s(tensor.Float32, vals, shape...)
	require.NoError(t, err)
	return x
}

// requireGraph checks that gm's graph is the one want (graph.Parse's form)
// describes, and that it lints.
func requireGraph(t *testing.T, gm *fx.GraphModule, want string) {
	t.Helper()
	w, err := graph.Parse(want)
	require.NoError(t, err)
	require.NoError(t, gm.Lint())
	require.NoError(t, graph.Equal(gm.Graph, w), "got:\n%s", gm.Graph.Text())
}

// requireSameValues checks that two results hold bitwise equal tensors
// (and equal numbers) in the same structure.
func requireSameValues(t testing.TB, want, got nn.Value) {
	t.Helper()
	w, g := models.Flatten(want), models.Flatten(got)
	require.Len(t, g, len(w))
	for i := range w {
		wt, gt := w[i].Tensor(), g[i].Tensor()
		if wt == nil {
			require.Equal(t, w[i].Any(), g[i].Any(), "output %d", i)
			continue
		}
		require.NotNil(t, gt, "output %d is not a tensor", i)
		require.True(t, tensor.Equal(wt, gt), "output %d differs:\nwant %v\ngot  %v", i, wt, gt)
	}
}
