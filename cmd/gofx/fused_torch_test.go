package main

import (
	"bufio"
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

// torch26 returns the command that runs python with PyTorch 2.6
// (../shared/tools/torch2), or skips when it is not set up.
func torch26(t *testing.T) *exec.Cmd {
	t.Helper()
	if _, err := os.Stat("/opt/torch2/usr/lib/python3/dist-packages/torch/export/__init__.py"); err != nil {
		t.Skip("PyTorch 2.6 (torch2) is not set up at /opt/torch2")
	}
	tool, err := filepath.Abs("../../../shared/tools/torch2")
	require.NoError(t, err)
	if _, err := os.Stat(tool); err != nil {
		t.Skipf("torch2 tool not found: %v", err)
	}
	if os.Geteuid() != 0 {
		t.Skip("torch2 needs root (chroot)")
	}
	return exec.Command(tool)
}

// copyFile copies src to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(dst, data, 0o644))
}

// TestTorchLoadsOptimizedFused: gofx optimize -o writes PyTorch 2.6's own
// programs of ../shared/pt2 (default IR and core ATen), whose
// convolutions and linear layers gofx fused with their activations, as
// files PyTorch 2.6 loads and runs to the outputs it computed itself
// (io.json): the program is written decomposed to core ATen, the fused
// operators back to aten.convolution and relu, hardtanh or add (mobilenet_v2's
// 35 fused and 17 plain conv2d all become aten.convolution). With the mobilenet_v2
// of bench/torch_models.py export ($GOFX_BENCH_DIR, default
// /tmp/gofx-bench) when it is there. Skipped without torch2.
func TestTorchLoadsOptimizedFused(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PyTorch")
	}
	cmd := torch26(t)
	shared := filepath.Join("..", "..", "..", "shared", "pt2")
	bench := os.Getenv("GOFX_BENCH_DIR")
	if bench == "" {
		bench = filepath.Join(os.TempDir(), "gofx-bench")
	}
	type program struct {
		file, io string
		// fused is the gofx operator optimize must have made, decomposed
		// in the file PyTorch loads into want.
		fused string
		want  map[string]int
	}
	programs := []program{
		{filepath.Join(shared, "convnet.pt2"), filepath.Join(shared, "convnet.io.json"), "gofx.convolution_relu.default 2",
			map[string]int{"aten.convolution.default": 2, "aten.relu.default": 2}},
		{filepath.Join(shared, "convnet.core.pt2"), filepath.Join(shared, "convnet.io.json"), "gofx.convolution_relu.default 2",
			map[string]int{"aten.convolution.default": 2, "aten.relu.default": 2}},
		{filepath.Join(shared, "export_doc_conv.pt2"), filepath.Join(shared, "export_doc_conv.io.json"), "gofx.convolution_add_relu.default 1",
			map[string]int{"aten.convolution.default": 1, "aten.add.Tensor": 1, "aten.relu.default": 1}},
		{filepath.Join(bench, "mobilenet_v2.pt2"), filepath.Join(bench, "mobilenet_v2.io.json"), "gofx.convolution_hardtanh.default 35",
			map[string]int{"aten.convolution.default": 52, "aten.hardtanh.default": 35, "aten.conv2d.default": 0}},
	}
	dir := t.TempDir() // torch2 sees /tmp
	script := filepath.Join(dir, "torch_load_check.py")
	copyFile(t, filepath.Join("..", "..", "pt2", "testdata", "torch_load_check.py"), script)
	var args []string
	written := map[string]program{}
	for i, p := range programs {
		if _, err := os.Stat(p.file); err != nil {
			t.Logf("%s is absent: skipped", p.file)
			continue
		}
		base := strings.TrimSuffix(filepath.Base(p.file), ".pt2")
		out := filepath.Join(dir, base+".opt.pt2")
		code, stdout, errs := runCLI("optimize", p.file, "-io", p.io, "-o", out, "-time", "0", "-graph=false")
		require.Equal(t, 0, code, "%s\n%s", stdout, errs)
		assert.Regexp(t, strings.ReplaceAll(p.fused, " ", ` +0 -> +`), stdout, base)
		io := filepath.Join(dir, base+".io.json")
		copyFile(t, p.io, io)
		args = append(args, out, io)
		written[out] = programs[i]
	}
	require.NotEmpty(t, written, "no program of ../shared/pt2 found")
	cmd.Args = append(cmd.Args, append([]string{script}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	require.NoError(t, err, "torch2: %s", stderr.String())
	type result struct {
		File       string         `json:"file"`
		Torch      string         `json:"torch"`
		Cases      int            `json:"cases"`
		MaxAbsDiff float64        `json:"max_abs_diff"`
		Error      *string        `json:"error"`
		Trace      string         `json:"trace"`
		OpCounts   map[string]int `json:"op_counts"`
	}
	got := map[string]result{}
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r result
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.File != "" {
			got[r.File] = r
		}
	}
	for file, p := range written {
		r, ok := got[file]
		if !assert.True(t, ok, "%s: no result from PyTorch", file) {
			continue
		}
		if !assert.Nil(t, r.Error, "%s: PyTorch %s: %s", file, r.Torch, r.Trace) {
			continue
		}
		t.Logf("%s: PyTorch %s ran %d cases, max abs diff %.3g", filepath.Base(file), r.Torch, r.Cases, r.MaxAbsDiff)
		assert.Positive(t, r.Cases, file)
		assert.LessOrEqual(t, r.MaxAbsDiff, 1e-4, file)
		for op, n := range p.want {
			assert.Equal(t, n, r.OpCounts[op], "%s: %s in the program PyTorch loaded", file, op)
		}
		for op := range r.OpCounts {
			assert.False(t, strings.HasPrefix(op, "gofx."), "%s: %s reached PyTorch", file, op)
		}
	}
}
