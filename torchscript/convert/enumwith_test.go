package convert

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/torchscript"
)

// TestEnumsAndWith converts testdata/tsfork's enum.pt (enum attributes
// compared with enum constants, an enum argument of a scripted function,
// .value) and with.pt (torch.no_grad() and a TorchScript class whose
// __init__, __enter__ and __exit__ write the attributes of an object the
// program created) and checks each io.json case against PyTorch 2.6's
// outputs.
func TestEnumsAndWith(t *testing.T) {
	for _, name := range []string{"enum", "with"} {
		t.Run(name, func(t *testing.T) {
			m, err := torchscript.Load("testdata/tsfork/" + name + ".pt")
			require.NoError(t, err)
			io, err := pt2.ReadIO("testdata/tsfork/" + name + ".io.json")
			require.NoError(t, err)
			require.Len(t, io.Cases, 3)
			for i := range io.Cases {
				ep, err := Convert(m, caseArgs(&io.Cases[i]), File(name+".pt"))
				require.NoError(t, err)
				r := pt2.CheckCase(ep, &io.Cases[i], pt2.Tolerance(ep))
				assert.NoError(t, r.Err, "case %d", i)
			}
		})
	}
}

// TestWithStateRefused: a with statement whose __enter__ writes an
// attribute of an object of the module's state (not one the program made)
// is refused, naming the prim::SetAttr and its line. (PyTorch 2.6 scripts
// it; torch.export would have to mutate the module's object.)
func TestWithStateRefused(t *testing.T) {
	m, err := torchscript.Load("testdata/tsfork/with_state.pt")
	require.NoError(t, err)
	_, err = Convert(m, []any{ones(t, 3)}, File("with_state.pt"))
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrNotFunctional), "%v", err)
	// Tally.__enter__'s self.n = torch.add(n, 1): the archive records no
	// original range for the assignment's start (an empty debug_pkl
	// record), so the serialized code's position is given.
	assert.Contains(t, err.Error(), "prim::SetAttr at code/__torch__.py:17:5")
	assert.Contains(t, err.Error(), "writes the attribute n")
}

// TestForkWait converts testdata/tsfork's fork.pt (forks of a scripted
// function, a list of futures built by a comprehension and waited in a
// loop) and fork_method.pt (forks of a submodule and of a method): each
// fork's call is inlined where the fork is, and the programs give PyTorch
// 2.6's outputs on every io.json case.
func TestForkWait(t *testing.T) {
	for _, name := range []string{"fork", "fork_method"} {
		t.Run(name, func(t *testing.T) {
			m, err := torchscript.Load("testdata/tsfork/" + name + ".pt")
			require.NoError(t, err)
			io, err := pt2.ReadIO("testdata/tsfork/" + name + ".io.json")
			require.NoError(t, err)
			require.Len(t, io.Cases, 3)
			for i := range io.Cases {
				ep, err := Convert(m, caseArgs(&io.Cases[i]), File(name+".pt"))
				require.NoError(t, err)
				r := pt2.CheckCase(ep, &io.Cases[i], pt2.Tolerance(ep))
				assert.NoError(t, r.Err, "case %d", i)
				for n := range ep.Graph.Nodes() {
					assert.NotContains(t, n.Target().String(), "wait", "no future is left in the program")
				}
			}
		})
	}
}
