package kernels_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/ops"
)

// pt2Dir holds the programs PyTorch 2.6 (and, in torch-2.14, 2.14)
// exported: ../shared/pt2 beside the repository.
const pt2Dir = "../../shared/pt2"

// TestProgramOpsHaveKernels checks that every ATen operator the exported
// programs of ../shared/pt2 call (their op_counts in NAME.ep.json, default
// and core IR, subgraphs included) has a kernel and a meta function.
func TestProgramOpsHaveKernels(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(pt2Dir, "*.ep.json"))
	more, _ := filepath.Glob(filepath.Join(pt2Dir, "torch-2.14", "*.ep.json"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Skipf("no %s/*.ep.json (../shared is not beside the repository)", pt2Dir)
	}
	names := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		// "program" and "core" hold the two programs; other keys
		// ("torch") are strings.
		var ep map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(data, &ep), f)
		for _, key := range []string{"program", "core"} {
			var prog struct {
				OpCounts map[string]int `json:"op_counts"`
			}
			if raw, ok := ep[key]; ok {
				require.NoError(t, json.Unmarshal(raw, &prog), f)
			}
			for k := range prog.OpCounts {
				if strings.HasPrefix(k, "aten.") || strings.HasPrefix(k, "quantized_decomposed.") {
					names[k] = true
				}
			}
		}
	}
	var missing []string
	for k := range names {
		ns, rest, _ := strings.Cut(k, ".")
		name := ns + "::" + strings.TrimSuffix(rest, ".default")
		o, ok := ops.Global().Lookup(name)
		if !ok || !o.HasKernel() || !o.HasMeta() {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing, "operators of the exported programs without a kernel or meta function")
	t.Logf("%d operators of %d programs have kernels and meta functions", len(names), len(files))
}
