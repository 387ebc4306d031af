package convert

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/torchscript"
)

// TestStackTrace converts testdata/tsfork/srcrange.pt (a module calling a
// submodule, which calls a Linear, and a scripted function) and checks
// that every node of the program carries, as its stack_trace, the
// traceback PyTorch 2.6 gives for the TorchScript node it came from
// (srcrange.expected.json, from Node.sourceRange() of the loaded
// archive's graphs: the original Python file and line through debug_pkl,
// each inlined call site first; the serialized code's line where the
// archive records no original range, as for a call of a scripted
// function).
func TestStackTrace(t *testing.T) {
	m, err := torchscript.Load("testdata/tsfork/srcrange.pt")
	require.NoError(t, err)
	raw, err := os.ReadFile("testdata/tsfork/srcrange.expected.json")
	require.NoError(t, err)
	var want map[string]string
	require.NoError(t, json.Unmarshal(raw, &want))
	io, err := pt2.ReadIO("testdata/tsfork/srcrange.io.json")
	require.NoError(t, err)
	ep, err := Convert(m, caseArgs(&io.Cases[0]))
	require.NoError(t, err)
	seen := map[string]bool{}
	for n := range ep.Graph.Nodes() {
		if n.Op() != node.CallFunction {
			continue
		}
		// aten.relu.default -> aten::relu; the core ops linear
		// decomposes to (permute, addmm) come from aten::linear.
		parts := strings.Split(n.Target().String(), ".")
		kind := "aten::" + parts[len(parts)-2]
		if _, ok := want[kind]; !ok {
			kind = "aten::linear"
		}
		st, _ := node.StackTrace.Get(&n.Meta)
		assert.Equal(t, want[kind], st, "%s (%s)", n.Name(), n.Target())
		seen[kind] = true
	}
	assert.Len(t, seen, len(want), "every TorchScript op has a node: %v", seen)
	// The printed program's comments name the model's code.
	assert.Contains(t, ep.String(), "return torch.relu(y)")
}
