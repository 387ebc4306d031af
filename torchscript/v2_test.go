package torchscript

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/torchscript/archive"
)

// TestVersion2Archives loads the archives of format version 2 that
// PyTorch keeps as test fixtures (testdata/v2, from PyTorch's
// test/cpp/jit/upgrader_models: torch.div on tensors and scalars, in
// place and with out=, saved before integer division changed meaning),
// compiles every method and runs forward on the cases of its io.json:
// what PyTorch 2.6's torch.jit.load runs them to (gen_v2_io.py), its div
// upgraders applied.
func TestVersion2Archives(t *testing.T) {
	ios, err := filepath.Glob("testdata/v2/*.io.json")
	require.NoError(t, err)
	require.Len(t, ios, 10)
	for _, io := range ios {
		name := strings.TrimSuffix(filepath.Base(io), ".io.json")
		path := filepath.Join("testdata", "v2", "test_versioned_"+name+"_v2.ptl")
		t.Run(name, func(t *testing.T) {
			a, err := archive.Open(path)
			require.NoError(t, err)
			assert.Equal(t, 2, a.Version)
			m, err := FromArchive(a)
			require.NoError(t, err)
			names, err := m.MethodNames()
			require.NoError(t, err)
			assert.Contains(t, names, "forward")
			for _, n := range names {
				_, err := m.Method(n)
				assert.NoError(t, err, "method %s", n)
			}
			want, err := ReadIO(io)
			require.NoError(t, err)
			require.NotEmpty(t, want.Cases)
			for i, r := range CheckIO(m, want) {
				assert.True(t, r.Passed(), "case %d: %v", i, r.Err)
			}
		})
	}
}
