package main

import (
	"encoding/json"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/gemm"
)

func TestBenchModel(t *testing.T) {
	k32, _ := gemm.Kernel()
	tests := []struct {
		args    []string
		model   string
		program string
		runs    float64
	}{
		{[]string{"-model", "mlp", "-runs", "3"}, "mlp", "optimized", 3},
		{[]string{"-model", "convnet", "-program", "eager", "-runs", "2", "-warmup", "0", "-shape", "2x3x16x16"}, "convnet", "eager", 2},
		{[]string{"-model", pt2Data + "tied_dict.pt2", "-program", "eager", "-runs", "2"}, pt2Data + "tied_dict.pt2", "eager", 2},
		{[]string{"-model", pt2Data + "tied_dict.pt2", "-runs", "1"}, pt2Data + "tied_dict.pt2", "optimized", 1},
	}
	for _, tt := range tests {
		code, out, errs := runCLI(append([]string{"bench", "model"}, tt.args...)...)
		require.Equal(t, 0, code, "%v: %s", tt.args, errs)
		var got map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &got), out)
		assert.Equal(t, tt.model, got["model"])
		assert.Equal(t, tt.program, got["program"])
		assert.Equal(t, tt.runs, got["runs"])
		assert.Equal(t, k32, got["kernel"])
		assert.Equal(t, float64(runtime.GOMAXPROCS(0)), got["gomaxprocs"])
		assert.Positive(t, got["median_ms"])
		assert.LessOrEqual(t, got["min_ms"], got["median_ms"])
		for _, k := range []string{"bytes_per_run", "allocs_per_run"} {
			assert.Contains(t, got, k)
		}
		assert.Len(t, got, 9, "one JSON object of nine fields")
	}
}

func TestBenchModelErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "-model is required"},
		{[]string{"-model", "mlp", "-program", "jit"}, 2, `-program must be eager or optimized, got "jit"`},
		{[]string{"-model", "mlp", "-runs", "0"}, 2, "-runs must be at least 1"},
		{[]string{"-model", "mlp", "-warmup", "-1"}, 2, "-warmup must not be negative"},
		{[]string{"-model", "nosuchmodel"}, 2, "nosuchmodel"},
		{[]string{"-model", "attention"}, 2, "zoo model attention has no default input: give -shape"},
		{[]string{"-model", "mlp", "-shape", "1xfoo"}, 2, `bad -shape "1xfoo"`},
		{[]string{"-model", "mlp", "-shape", "3x5"}, 1, "mlp"},
		{[]string{"-model", pt2Data + "tied_dict.pt2", "-shape", "1x2"}, 2, "-shape is for zoo models"},
		{[]string{"-model", "missing.pt2"}, 1, "missing.pt2"},
		{[]string{"-model", "mlp", "extra"}, 2, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		code, _, errs := runCLI(append([]string{"bench", "model"}, tt.args...)...)
		assert.Equal(t, tt.code, code, "%v: %s", tt.args, errs)
		assert.Contains(t, errs, tt.want, "%v", tt.args)
	}
	code, out, _ := runCLI("help", "bench")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "gofx bench model -model NAME|FILE.pt2")
}
