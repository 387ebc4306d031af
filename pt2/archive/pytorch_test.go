package archive

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// torch2 is ../shared/tools/torch2 seen from this package: python with
// PyTorch 2.6, or 2.14 with TORCH2_SUITE=sid.
const torch2 = "../../../shared/tools/torch2"

// TestPyTorchLoads has PyTorch load what gofx writes: every program of
// ../shared/pt2 (not the .core ones, to keep it short) rewritten by Write,
// as a ≤ 2.7 zip for PyTorch 2.6 and as a PT2 archive for PyTorch 2.14,
// compared with PyTorch's own file: the same printed program, state dict
// and constants, and bitwise the same outputs on the example inputs. Also
// 2.14's programs turned into 8.2's form by schema's Legacy and written as
// zips: PyTorch 2.6 runs them to the outputs of its own export, to
// rounding. It skips when the PyTorch environments are absent.
func TestPyTorchLoads(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PyTorch")
	}
	if _, err := os.Stat(torch2); err != nil {
		t.Skipf("no %s", torch2)
	}
	script, err := filepath.Abs("testdata/pt2_load.py")
	require.NoError(t, err)
	dir := t.TempDir()
	type pair [3]string // ours, PyTorch's, mode
	var p26, p214 []pair
	for _, path := range sharedFiles(t) {
		if strings.HasSuffix(path, ".core.pt2") {
			continue
		}
		a, err := Load(path)
		require.NoError(t, err, path)
		name := filepath.Base(path)
		ref := filepath.Join(dir, "ref-"+filepath.Base(filepath.Dir(path))+"-"+name)
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(ref, b, 0o644))
		if a.Layout == LayoutZip {
			ours := filepath.Join(dir, "zip-"+name)
			require.NoError(t, Save(ours, a))
			p26 = append(p26, pair{ours, ref, "same"})
			// The same 2.6 program as a PT2 archive, for 2.14.
			c := *a
			c.Layout, c.Root, c.Version = LayoutPT2, "", ""
			cross := filepath.Join(dir, "pt2-from-2.6-"+name)
			require.NoError(t, Save(cross, &c))
			p214 = append(p214, pair{cross, ref, "same"})
		} else {
			ours := filepath.Join(dir, "pt2-"+name)
			a.Root = ""
			require.NoError(t, Save(ours, a))
			p214 = append(p214, pair{ours, ref, "same"})
			// 2.14's program in 8.2's form, for 2.6, against 2.6's own export.
			legacy, err := a.Models[0].Program.Legacy()
			require.NoError(t, err, path)
			c := *a
			m := *a.Models[0]
			m.Program = legacy
			c.Models, c.Layout = []*Model{&m}, LayoutZip
			down := filepath.Join(dir, "zip-from-2.14-"+name)
			require.NoError(t, Save(down, &c))
			own, err := os.ReadFile(filepath.Join(sharedPT2, name))
			if err != nil {
				continue
			}
			ref26 := filepath.Join(dir, "ref-2.6-"+name)
			require.NoError(t, os.WriteFile(ref26, own, 0o644))
			p26 = append(p26, pair{down, ref26, "close"})
		}
	}
	for _, suite := range []struct {
		name, root, env string
		pairs           []pair
	}{
		{"torch-2.6", "/opt/torch2/usr/bin/python3", "", p26},
		{"torch-2.14", "/opt/torch2-sid/usr/bin/python3", "sid", p214},
	} {
		t.Run(suite.name, func(t *testing.T) {
			if _, err := os.Stat(suite.root); err != nil {
				t.Skipf("PyTorch environment %s is not built", suite.root)
			}
			list := filepath.Join(dir, suite.name+".json")
			b, err := json.Marshal(suite.pairs)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(list, b, 0o644))
			cmd := exec.Command(torch2, script, list)
			cmd.Env = append(os.Environ(), "TORCH2_SUITE="+suite.env)
			if suite.env == "" {
				cmd.Env = append(os.Environ(), "TORCH2_SUITE=trixie")
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			require.NoError(t, cmd.Run(), "stderr:\n%s", stderr.String())
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			var results map[string]struct {
				OK  bool   `json:"ok"`
				Why string `json:"why"`
			}
			require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &results), stdout.String())
			require.Len(t, results, len(suite.pairs))
			for _, p := range suite.pairs {
				r := results[p[0]]
				assert.True(t, r.OK, "%s: %s", filepath.Base(p[0]), r.Why)
				t.Logf("%s: %s", filepath.Base(p[0]), r.Why)
			}
		})
	}
}
