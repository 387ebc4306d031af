package convert

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/torchscript"
)

// torch26 returns the command running PyTorch 2.6's python, skipping the
// test when it is not set up here.
func torch26(t *testing.T) *exec.Cmd {
	t.Helper()
	if _, err := os.Stat("/opt/torch2/usr/lib/python3/dist-packages/torch/export/__init__.py"); err != nil {
		t.Skip("PyTorch 2.6 (torch2) is not set up at /opt/torch2")
	}
	tool, err := filepath.Abs(filepath.Join(sharedDir, "tools", "torch2"))
	require.NoError(t, err)
	if _, err := os.Stat(tool); err != nil {
		t.Skipf("torch2 tool not found: %v", err)
	}
	if os.Geteuid() != 0 {
		t.Skip("torch2 needs root (chroot)")
	}
	return exec.Command(tool)
}

// localArchives are testdata's archives with an io.json made by PyTorch
// 2.6 (testdata/tsfork/gen_tsfork.py): source ranges, enums, with
// statements, fork and wait.
var localArchives = []archiveCase{
	{"testdata/tsfork/srcrange.pt", "testdata/tsfork/srcrange.io.json"},
	{"testdata/tsfork/enum.pt", "testdata/tsfork/enum.io.json"},
	{"testdata/tsfork/with.pt", "testdata/tsfork/with.io.json"},
	{"testdata/tsfork/fork.pt", "testdata/tsfork/fork.io.json"},
	{"testdata/tsfork/fork_method.pt", "testdata/tsfork/fork_method.io.json"},
}

type torchResult struct {
	File       string  `json:"file"`
	Torch      string  `json:"torch"`
	Cases      int     `json:"cases"`
	MaxAbsDiff float64 `json:"max_abs_diff"`
	Error      *string `json:"error"`
	Trace      string  `json:"trace"`
}

// TestTorchLoadsConverted saves every converted archive with pt2.Write
// (the <= 2.7 zip) and has PyTorch 2.6's torch.export.load read it and
// run it (ep.module()) on its io.json case: one program per case, since
// non-tensor inputs are specialized.
func TestTorchLoadsConverted(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PyTorch")
	}
	cmd := torch26(t)
	dir := t.TempDir()
	var pairs []string
	for _, c := range append(archives(t), localArchives...) {
		name := strings.TrimPrefix(c.archive, sharedDir+"/")
		if _, ok := notFunctional[filepath.Base(c.archive)]; ok {
			continue
		}
		m, err := torchscript.Load(c.archive)
		require.NoError(t, err)
		iopath := tracedIO(c)
		io, err := pt2.ReadIO(iopath)
		require.NoError(t, err)
		raw, err := os.ReadFile(iopath)
		require.NoError(t, err)
		var file struct {
			Inputs  json.RawMessage   `json:"inputs"`
			Outputs json.RawMessage   `json:"outputs"`
			Cases   []json.RawMessage `json:"cases"`
		}
		require.NoError(t, json.Unmarshal(raw, &file))
		// pt2.ReadIO's cases: the top-level example, then "cases".
		example, err := json.Marshal(map[string]json.RawMessage{"inputs": file.Inputs, "outputs": file.Outputs})
		require.NoError(t, err)
		file.Cases = append([]json.RawMessage{example}, file.Cases...)
		require.Equal(t, len(io.Cases), len(file.Cases), name)
		for i := range io.Cases {
			ep, err := Convert(m, caseArgs(&io.Cases[i]), File(name))
			require.NoError(t, err, name)
			key := fmt.Sprintf("%s.%d", strings.ReplaceAll(name, "/", "_"), i)
			p := filepath.Join(dir, key+".pt2")
			require.NoError(t, pt2.Write(p, ep, pt2.SaveOptions{Format: pt2.Legacy}), key)
			one, err := json.Marshal(map[string]any{"cases": []json.RawMessage{file.Cases[i]}})
			require.NoError(t, err)
			iop := filepath.Join(dir, key+".io.json")
			require.NoError(t, os.WriteFile(iop, one, 0o644))
			pairs = append(pairs, p, iop)
		}
	}
	// torch2 sees this directory, its parent and /tmp only: the check
	// script (pt2's) is copied next to the files.
	src, err := os.ReadFile("../../pt2/testdata/torch_load_check.py")
	require.NoError(t, err)
	script := filepath.Join(dir, "torch_load_check.py")
	require.NoError(t, os.WriteFile(script, src, 0o644))
	cmd.Args = append(cmd.Args, append([]string{script}, pairs...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "torch2: %s", stderr.String())
	res := map[string]torchResult{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r torchResult
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.File != "" {
			res[r.File] = r
		}
	}
	for i := 0; i < len(pairs); i += 2 {
		key := strings.TrimSuffix(filepath.Base(pairs[i]), ".pt2")
		r, ok := res[pairs[i]]
		if !assert.True(t, ok, "%s: no result", key) {
			continue
		}
		if r.Error != nil {
			t.Errorf("%s: PyTorch %s: %s\n%s", key, r.Torch, *r.Error, r.Trace)
			continue
		}
		assert.Equal(t, 1, r.Cases, key)
		assert.LessOrEqual(t, r.MaxAbsDiff, 1e-4, key)
	}
}
