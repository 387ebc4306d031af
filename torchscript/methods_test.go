package torchscript

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMethodNames checks MethodNames against PyTorch 2.6's
// torch.jit.load(f)._c._method_names() for the same archives.
func TestMethodNames(t *testing.T) {
	for _, tt := range []struct {
		file string
		want []string
	}{
		{"testdata/code/many.pt", []string{"forward", "early", "strings"}},
		{"testdata/code/misc.pt", []string{"forward", "loops"}},
		{"testdata/hooks/hooks.script.pt", []string{"forward"}},
	} {
		m, err := Load(tt.file)
		require.NoError(t, err, tt.file)
		got, err := m.MethodNames()
		require.NoError(t, err, tt.file)
		assert.Equal(t, tt.want, got, tt.file)
	}
}
