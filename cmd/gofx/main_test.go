package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/graph"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestDemoPrintsEveryForm(t *testing.T) {
	code, out, _ := runCLI("demo")
	require.Equal(t, 0, code)
	for _, s := range []string{"== String", "== Tabular", "== Code", "== Text", "%topk", "def forward(self, x):"} {
		assert.Contains(t, out, s)
	}
	// The printed text form parses back.
	_, text, ok := strings.Cut(out, "== Text (canonical; Parse reads it back)\n")
	require.True(t, ok)
	g, err := graph.Parse(text)
	require.NoError(t, err)
	assert.Equal(t, 8, g.Len())
}

func TestBenchGraph(t *testing.T) {
	code, out, errs := runCLI("bench", "graph", "-n", "1000")
	require.Equal(t, 0, code, errs)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, "graph-chain", got["workload"])
	assert.Equal(t, 1000.0, got["n"])
	assert.Equal(t, 502.0, got["nodes"], "placeholder + 500 adds + output, as torch.fx reports")
	for _, k := range []string{"build_s", "lint_s", "copy_s", "codegen_s", "str_s", "text_s", "parse_s", "rauw_s", "dce_s"} {
		assert.Contains(t, got, k)
	}
}

func TestBenchChain(t *testing.T) {
	code, out, errs := runCLI("bench", "chain", "-n", "20")
	require.Equal(t, 0, code, errs)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, "chain", got["workload"])
	assert.Equal(t, 20.0, got["n"])
	assert.Equal(t, 62.0, got["nodes"], "placeholder + 3 nodes per block + output, as torch.fx reports")
	assert.Equal(t, 20.0, got["matches"])
	for _, k := range []string{"trace_s", "shapeprop_s", "eager_s", "interp_s", "replace_pattern_s", "dce_s", "codegen_s"} {
		assert.Contains(t, got, k)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "Usage:"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"bench"}, 2, "want a workload: graph, chain or model"},
		{[]string{"bench", "chain", "-n", "0"}, 2, "-n must be at least 1"},
		{[]string{"bench", "chain", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"bench", "graph", "-n", "1"}, 2, "-n must be at least 2"},
		{[]string{"bench", "graph", "-x"}, 2, "flag provided but not defined"},
		{[]string{"demo", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"help", "nope"}, 2, `unknown command "nope"`},
	}
	for _, tt := range tests {
		code, _, errs := runCLI(tt.args...)
		assert.Equal(t, tt.code, code, "%v", tt.args)
		assert.Contains(t, errs, tt.want, "%v", tt.args)
	}
	code, out, _ := runCLI("help", "bench")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "gofx bench graph|chain [-n N]")
	code, out, _ = runCLI("version")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "gofx ")
}

func TestParseFlagsInterspersed(t *testing.T) {
	tests := []struct {
		args []string
		n    int
		pos  []string
	}{
		{[]string{"-n", "3", "a", "b"}, 3, []string{"a", "b"}},
		{[]string{"a", "-n", "3", "b"}, 3, []string{"a", "b"}},
		{[]string{"a", "b", "-n=3"}, 3, []string{"a", "b"}},
		{[]string{"a", "--", "-n", "3"}, 1, []string{"a", "-n", "3"}},
		{nil, 1, []string{}},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		n := fs.Int("n", 1, "")
		require.NoError(t, parseFlags(fs, tt.args), "%v", tt.args)
		assert.Equal(t, tt.n, *n, "%v", tt.args)
		assert.Equal(t, tt.pos, fs.Args(), "%v", tt.args)
	}
}

func TestHelpShowsFlags(t *testing.T) {
	code, out, _ := runCLI("help", "check")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "usage: gofx check")
	assert.Contains(t, out, "flags:\n")
	assert.Contains(t, out, "-via string")
	code, out, _ = runCLI("help", "bench")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "-n int")
}
