package pt2_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pt2"
)

// provenance lists g's aten call_function nodes as "target | source_fn_stack
// | torch_fn", sorted (sym_size and Python's operators left out: PyTorch's
// decomposition gives them its tracer's own torch_fn).
func provenance(g *graph.Graph) []string {
	var out []string
	for n := range g.Nodes() {
		name := n.Target().String()
		if n.Op() != node.CallFunction || !strings.HasPrefix(name, "aten.") || name == "aten.sym_size.int" {
			continue
		}
		src, _ := node.SourceFnStack.Get(&n.Meta)
		fn, _ := node.TorchFn.Get(&n.Meta)
		out = append(out, fmt.Sprintf("%s | %s | %s", name, src, fn))
	}
	sort.Strings(out)
	return out
}

// TestProvenanceSurvives: source_fn_stack and torch_fn, which PyTorch's
// files hold for each node, survive a gofx save and load, and
// RunDecompositions gives the nodes replacing an op that op's provenance,
// as PyTorch's run_decompositions does: the decomposed program's nodes
// carry the same entries as NAME.core.pt2's.
func TestProvenanceSurvives(t *testing.T) {
	for _, name := range []string{"attention", "convnet", "mlp"} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(shared, name+".pt2")
			ep, err := pt2.Load(file)
			if err != nil {
				t.Skipf("%s: %v (../shared/pt2 beside the repo)", file, err)
			}
			loaded := provenance(ep.Graph)
			require.NotEmpty(t, loaded)
			require.NotContains(t, loaded[0], "|  | ", "the file's nodes have source_fn_stack and torch_fn entries")

			var buf bytes.Buffer
			require.NoError(t, pt2.Save(&buf, ep, pt2.SaveOptions{}))
			back, err := pt2.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			require.NoError(t, err)
			if d := cmp.Diff(loaded, provenance(back.Graph)); d != "" {
				t.Errorf("save and load changed the provenance (-loaded +reloaded):\n%s", d)
			}

			core, err := ep.RunDecompositions(decomp.Core())
			require.NoError(t, err)
			want, err := pt2.Load(filepath.Join(shared, name+".core.pt2"))
			require.NoError(t, err)
			if d := cmp.Diff(provenance(want.Graph), provenance(core.Graph)); d != "" {
				t.Errorf("decomposed provenance differs from PyTorch's core.pt2 (-PyTorch +gofx):\n%s", d)
			}
		})
	}
}
