package torchscript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// sharedDir is ../shared seen from this package.
const sharedDir = "../../shared"

type ioCheck struct {
	archive, io string
}

// ioChecks lists every archive of ../shared with the io.json its runs are
// checked against: ../shared/torchscript (PyTorch 2.6) and its torch-2.14
// folder (scripted and traced archives of each model), and the zoo's
// traced archives (PyTorch 1.13).
func ioChecks(t *testing.T) []ioCheck {
	var out []ioCheck
	for _, dir := range []string{"torchscript", "torchscript/torch-2.14"} {
		ios, _ := filepath.Glob(filepath.Join(sharedDir, dir, "*.io.json"))
		for _, io := range ios {
			base := strings.TrimSuffix(io, ".io.json")
			for _, kind := range []string{".script.pt", ".trace.pt"} {
				if _, err := os.Stat(base + kind); err == nil {
					out = append(out, ioCheck{base + kind, io})
				}
			}
		}
	}
	traced, _ := filepath.Glob(filepath.Join(sharedDir, "models", "*.traced.pt"))
	for _, a := range traced {
		io := strings.TrimSuffix(a, ".traced.pt") + ".io.json"
		if _, err := os.Stat(io); err == nil {
			out = append(out, ioCheck{a, io})
		}
	}
	return out
}

// tracedIO returns the io.json a check compares with: a traced archive
// specialized to its example input (loop_shape, max_branch) gives for the
// other cases what PyTorch's loaded archive gives, not the eager outputs
// of the shared io.json; testdata/traced holds those (gen_traced_io.py).
func tracedIO(c ioCheck) string {
	base := filepath.Base(c.archive)
	if !strings.HasSuffix(base, ".trace.pt") {
		return c.io
	}
	name := strings.TrimSuffix(base, ".pt")
	if strings.Contains(c.archive, "torch-2.14") {
		name += ".2.14"
	}
	p := filepath.Join("testdata", "traced", name+".io.json")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return c.io
}

// TestArchivesMatchPyTorch loads every archive of ../shared and runs
// forward on every case of its io.json: the flattened outputs match
// PyTorch's within 1e-4 (1e-3 for code of over 100 operations).
func TestArchivesMatchPyTorch(t *testing.T) {
	checks := ioChecks(t)
	if len(checks) == 0 {
		t.Skipf("no archives in %s/torchscript or %s/models", sharedDir, sharedDir)
	}
	for _, c := range checks {
		name, _ := filepath.Rel(sharedDir, c.archive)
		t.Run(name, func(t *testing.T) {
			m, err := Load(c.archive)
			require.NoError(t, err)
			io, err := ReadIO(tracedIO(c))
			require.NoError(t, err)
			for i, r := range CheckIO(m, io) {
				if !r.Passed() {
					t.Errorf("case %d (%s): %v", i, r.Note, r.Err)
				}
			}
		})
	}
}
