package torchscript

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/torchscript/archive"
)

// TestLegacyArchive loads an archive in the format of PyTorch 1.0 to 1.2
// (model.json; archive/testdata/legacy/gen_legacy.py builds it as PyTorch 1.2's
// writer did, since PyTorch 2.6 no longer reads the format) and runs it on
// what PyTorch 2.6 computes for the same module at archive version 1
// (integer div truncating, as the upgrader makes it).
func TestLegacyArchive(t *testing.T) {
	a, err := archive.Open("archive/testdata/legacy/legacy.pt")
	require.NoError(t, err)
	assert.True(t, a.Legacy)
	assert.Equal(t, 3, a.ProtoVersion)
	assert.Equal(t, 1, a.Version)
	m, err := FromArchive(a)
	require.NoError(t, err)
	assert.Equal(t, "__torch__.legacy", m.Type().Name)
	names, err := m.MethodNames()
	require.NoError(t, err)
	assert.Equal(t, []string{"forward"}, names)
	var params []string
	for _, p := range m.NamedParameters() {
		params = append(params, p.Name)
	}
	assert.Equal(t, []string{"weight", "bias", "sub.weight"}, params)
	n, ok := m.Attr("n")
	require.True(t, ok)
	assert.Equal(t, int64(2), n)
	io, err := ReadIO("archive/testdata/legacy/legacy.io.json")
	require.NoError(t, err)
	for i, r := range CheckIO(m, io) {
		assert.True(t, r.Passed(), "case %d: %v", i, r.Err)
	}
}
