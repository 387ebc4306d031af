package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConformanceCommand runs gofx conformance over a directory holding one
// real case file and one doctored to fail: one line per failing case, then
// the summary, and exit status 1.
func TestConformanceCommand(t *testing.T) {
	src, err := os.ReadFile("../../testdata/conformance/aten.add.Tensor.jsonl")
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "aten.add.Tensor.jsonl"), src, 0o644))
	code, out, errs := runCLI("conformance", dir)
	require.Equal(t, 0, code, errs)
	assert.Equal(t, "8 passed, 0 failed\n", out)

	// Break the first case's expected output: its first base64 characters
	// become zeros, so values differ while the shape stays right.
	lines := strings.Split(strings.TrimSpace(string(src)), "\n")
	bad := strings.Replace(lines[0], `"outputs": [{"tensor": {"dtype": "float32", "shape": [3, 4], "data": "`, `"outputs": [{"tensor": {"dtype": "float32", "shape": [3, 4], "data": "AAAAAA`, 1)
	bad = strings.Replace(bad, `"id": "aten.add.Tensor/0"`, `"id": "aten.add.Tensor/bad"`, 1)
	bad = bad[:strings.Index(bad, `AAAAAA`)+6] + bad[strings.Index(bad, `AAAAAA`)+12:]
	require.NoError(t, os.WriteFile(filepath.Join(dir, "zz.jsonl"), []byte(bad+"\n"), 0o644))
	code, out, _ = runCLI("conformance", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "FAIL aten.add.Tensor/bad: ")
	assert.Contains(t, out, "max abs")
	assert.True(t, strings.HasSuffix(out, "8 passed, 1 failed\n"), out)

	code, _, errs = runCLI("conformance")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "want one directory")
	code, _, errs = runCLI("conformance", t.TempDir())
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "no *.jsonl files")
}
