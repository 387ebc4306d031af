package torchscript

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestForkWait loads archives that call torch.jit.fork and torch.jit.wait
// (package convert's testdata/tsfork, made by PyTorch 2.6 with
// gen_tsfork.py): forks of a scripted function, in a loop over a list of
// futures (a list comprehension, which the serializer writes as a loop),
// of a submodule and of a method. It runs them against PyTorch's outputs
// and prints their code as PyTorch's m.code, byte for byte (the nested
// `def __forked_function():` closures, `fork(...)`, `torch.wait(...)`).
func TestForkWait(t *testing.T) {
	for _, name := range []string{"fork", "fork_method"} {
		t.Run(name, func(t *testing.T) {
			base := "convert/testdata/tsfork/" + name
			m, err := Load(base + ".pt")
			require.NoError(t, err)
			io, err := ReadIO(base + ".io.json")
			require.NoError(t, err)
			require.Len(t, io.Cases, 3)
			for i, r := range CheckIO(m, io) {
				assert.True(t, r.Passed(), "case %d (%s): %v", i, r.Note, r.Err)
			}
			want, _ := codeSections(t, base+".code.txt")
			require.NotEmpty(t, want)
			got, err := m.Code()
			require.NoError(t, err)
			assert.Equal(t, want[0], got)
			if h, err := m.Method("helper"); err == nil {
				require.Len(t, want, 2)
				hc, err := h.Code()
				require.NoError(t, err)
				assert.Equal(t, want[1], hc)
			}
		})
	}
}
