package convert

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/torchscript"
)

// sharedDir is ../shared seen from this package.
const sharedDir = "../../../shared"

type archiveCase struct{ archive, io string }

// archives lists every archive of ../shared with its io.json.
func archives(t *testing.T) []archiveCase {
	var out []archiveCase
	for _, dir := range []string{"torchscript", "torchscript/torch-2.14"} {
		ios, _ := filepath.Glob(filepath.Join(sharedDir, dir, "*.io.json"))
		for _, io := range ios {
			base := strings.TrimSuffix(io, ".io.json")
			for _, kind := range []string{".script.pt", ".trace.pt"} {
				if _, err := os.Stat(base + kind); err == nil {
					out = append(out, archiveCase{base + kind, io})
				}
			}
		}
	}
	traced, _ := filepath.Glob(filepath.Join(sharedDir, "models", "*.traced.pt"))
	for _, a := range traced {
		io := strings.TrimSuffix(a, ".traced.pt") + ".io.json"
		if _, err := os.Stat(io); err == nil {
			out = append(out, archiveCase{a, io})
		}
	}
	if len(out) == 0 {
		t.Skipf("no archives in %s", sharedDir)
	}
	return out
}

// notFunctional are the archives whose conversion is refused, with a
// substring of the reason.
var notFunctional = map[string]string{
	// A while loop whose exit depends on acc's values (break on
	// max(abs(acc)) > 50): neither unrollable nor a tensor-only cond.
	// The error names the original line first (gen_pt2.py:757:12 in
	// 2.6's archive, 769:12 in 2.14's, as PyTorch prints their graphs),
	// then the serialized code's.
	"attributes.script.pt": "prim::If at gen_pt2.py:7",
}

func TestConvertShared(t *testing.T) {
	for _, c := range archives(t) {
		name := strings.TrimPrefix(c.archive, sharedDir+"/")
		t.Run(name, func(t *testing.T) {
			m, err := torchscript.Load(c.archive)
			require.NoError(t, err)
			io, err := pt2.ReadIO(tracedIO(c))
			require.NoError(t, err)
			require.NotEmpty(t, io.Cases)
			// Each case is converted with its own inputs: non-tensor
			// inputs (ints, strings) are specialized into the program, as
			// torch.export specializes them.
			for i := range io.Cases {
				ep, err := Convert(m, caseArgs(&io.Cases[i]), File(name))
				if why, ok := notFunctional[filepath.Base(c.archive)]; ok {
					require.Error(t, err)
					assert.Contains(t, err.Error(), why)
					assert.Contains(t, err.Error(), ":12 (code/__torch__.py:24:7): an if on tensor data returns a bool")
					return
				}
				require.NoError(t, err)
				r := pt2.CheckCase(ep, &io.Cases[i], pt2.Tolerance(ep))
				assert.NoError(t, r.Err, "case %d", i)
			}
		})
	}
}

func caseArgs(c *pt2.IOCase) []any {
	args := make([]any, len(c.Inputs))
	for i, v := range c.Inputs {
		args[i] = v.Any()
		if t := v.Tensor(); t != nil {
			args[i] = t.Clone()
		}
	}
	return args
}

// tracedIO returns the io.json a check compares with: a traced archive
// specialized to its example input (loop_shape, max_branch) gives for the
// other cases what PyTorch's loaded archive gives, not the eager outputs;
// ../testdata/traced (package torchscript's) holds those.
func tracedIO(c archiveCase) string {
	base := filepath.Base(c.archive)
	if !strings.HasSuffix(base, ".trace.pt") {
		return c.io
	}
	name := strings.TrimSuffix(base, ".pt")
	if strings.Contains(c.archive, "torch-2.14") {
		name += ".2.14"
	}
	p := filepath.Join("..", "testdata", "traced", name+".io.json")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return c.io
}
