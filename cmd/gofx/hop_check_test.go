package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/pt2"
)

// TestCheckHigherOrderAllPipelines: gofx check passes every io.json case
// of every control-flow program of PyTorch 2.6 and 2.14 (copies in
// pt2/testdata/hop) via load, decomposed, optimized and roundtrip.
func TestCheckHigherOrderAllPipelines(t *testing.T) {
	var files []string
	for _, dir := range []string{"hop", "hop/torch-2.14"} {
		f, _ := filepath.Glob(filepath.Join(pt2Data, dir, "*.pt2"))
		files = append(files, f...)
	}
	require.Len(t, files, 14, "pt2/testdata/hop holds the 7 control-flow programs of each PyTorch")
	for _, f := range files {
		io := strings.TrimSuffix(f, ".pt2") + ".io.json"
		name, _ := filepath.Rel(pt2Data, f)
		t.Run(name, func(t *testing.T) {
			cases, err := pt2.ReadIO(io)
			require.NoError(t, err)
			code, out, errs := runCLI("check", "-io", io, "-via", "load,decomposed,optimized,roundtrip", f)
			assert.Equal(t, 0, code, "%s\n%s", out, errs)
			assert.Contains(t, out, fmt.Sprintf("%d passed, 0 failed", 4*len(cases.Cases)))
			for _, via := range []string{"load", "decomposed", "optimized", "roundtrip"} {
				assert.Contains(t, out, fmt.Sprintf("%-10s case 0", via))
			}
		})
	}
}

// TestCheckCustomOp: with -ops defining gofxtest::scaled_softplus (its
// schema and body, testdata/custom_ops.txtar), gofx check runs PyTorch's
// custom_op program via load, decomposed, optimized and roundtrip, and
// inspect prints it; without -ops the error says how to define the
// operator.
func TestCheckCustomOp(t *testing.T) {
	f := filepath.Join(pt2Data, "custom_op.pt2")
	io := filepath.Join(pt2Data, "custom_op.io.json")
	code, _, errs := runCLI("check", "-io", io, f)
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "unknown operator torch.ops.gofxtest.scaled_softplus.default (a custom operator: register its schema with ops.Define)")

	code, out, errs := runCLI("check", "-ops", "testdata/custom_ops.txtar", "-io", io, "-via", "load,decomposed,optimized,roundtrip", f)
	assert.Equal(t, 0, code, "%s\n%s", out, errs)
	cases, err := pt2.ReadIO(io)
	require.NoError(t, err)
	assert.Contains(t, out, fmt.Sprintf("%d passed, 0 failed", 4*len(cases.Cases)))

	code, out, errs = runCLI("inspect", "-ops", "testdata/custom_ops.txtar", f)
	assert.Equal(t, 0, code, errs)
	assert.Contains(t, out, "torch.ops.gofxtest.scaled_softplus.default(")

	code, _, errs = runCLI("check", "-ops", "testdata/missing.txtar", "-io", io, f)
	assert.NotEqual(t, 0, code)
	assert.Contains(t, errs, "-ops: open testdata/missing.txtar")
}
