package torchscript

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/runtime"
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

// graphSection returns the first "# graph" section of a code.txt file
// (forward's graph as PyTorch prints it).
func graphSection(text string) (string, bool) {
	_, rest, ok := strings.Cut(text, "\n# graph\n")
	if !ok {
		return "", false
	}
	if i := strings.Index(rest, "\n# "); i >= 0 {
		rest = rest[:i]
	}
	return strings.TrimSpace(rest) + "\n", true
}

// TestPrintedGraphsMatchPyTorch runs the forward graph PyTorch printed
// for each archive (the "# graph" section of NAME.{script,trace}.code.txt,
// parsed by ir.Parse, whose nodes resolve their overloads from the printed
// types) on the loaded module's state, and checks every io.json case: the
// interpreter runs PyTorch's own IR as well as the frontend's. It runs
// each graph twice: with the overloads ir.ResolveOp chose, and with none
// (the interpreter then resolves each operator from its arguments).
func TestPrintedGraphsMatchPyTorch(t *testing.T) {
	checks := ioChecks(t)
	n := 0
	for _, c := range checks {
		code := strings.TrimSuffix(c.archive, ".pt") + ".code.txt"
		data, err := os.ReadFile(code)
		if err != nil {
			continue
		}
		text, ok := graphSection(string(data))
		if !ok {
			continue
		}
		n++
		name, _ := filepath.Rel(sharedDir, code)
		for _, resolved := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/resolved=%v", name, resolved), func(t *testing.T) {
				opts := ir.ParseOptions{}
				if !resolved {
					opts.Resolve = func(*ir.Node) *ops.Operator { return nil }
				}
				g, err := ir.ParseWith(text, opts)
				require.NoError(t, err)
				m, err := Load(c.archive)
				require.NoError(t, err)
				io, err := ReadIO(tracedIO(c))
				require.NoError(t, err)
				fn := &runtime.Function{Name: name + " forward", Graph: g}
				for i := range io.Cases {
					r := checkWith(func(args []any) (any, error) {
						out, err := m.Interpreter().Run(fn, append([]any{m.Clone().Object()}, args...)...)
						if err != nil {
							return nil, err
						}
						return single(out), nil
					}, &io.Cases[i], 1e-4)
					assert.True(t, r.Passed(), "case %d (%s): %v", i, r.Note, r.Err)
				}
			})
		}
	}
	if n == 0 {
		t.Skipf("no code.txt files in %s/torchscript", sharedDir)
	}
}
