package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const zoo = "../../testdata/models/"

func TestCheckCommand(t *testing.T) {
	code, out, errs := runCLI("check", "-model", "fx_doc_mymodule", "-weights", zoo+"fx_doc_mymodule.state_dict.pt", "-io", zoo+"fx_doc_mymodule.io.json")
	require.Equal(t, 0, code, errs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 7)
	assert.Regexp(t, `^ok   case 0 \(example\) via eager: max abs diff `, lines[0])
	assert.Regexp(t, `^ok   case 0 \(example\) via trace: max abs diff `, lines[1])
	assert.Regexp(t, `^ok   case 2 \(seed 3\) via trace: `, lines[5])
	assert.Equal(t, "6 passed, 0 failed", lines[6])

	code, out, _ = runCLI("check", "--model", "export_doc_mutation", "--weights", zoo+"export_doc_mutation.state_dict.pt", "--io", zoo+"export_doc_mutation.io.json", "--via", "trace")
	require.Equal(t, 0, code)
	assert.True(t, strings.HasSuffix(out, "3 passed, 0 failed\n"), out)

	// Another model's io.json: shapes differ, every case fails, exit 1.
	code, out, _ = runCLI("check", "-model", "mlp", "-weights", zoo+"mlp.state_dict.pt", "-io", zoo+"convnet.io.json", "-via", "eager")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "FAIL case 0 (example) via eager: ")
	assert.True(t, strings.HasSuffix(out, "0 passed, 3 failed\n"), out)

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-model", "mlp"}, 2, "-model, -weights and -io are required"},
		{[]string{"-model", "nope", "-weights", "x", "-io", "y"}, 1, `no model "nope"`},
		{[]string{"-model", "mlp", "-weights", zoo + "convnet.state_dict.pt", "-io", zoo + "mlp.io.json"}, 1, "unexpected keys"},
		{[]string{"-model", "mlp", "-weights", zoo + "mlp.state_dict.pt", "-io", zoo + "mlp.io.json", "-via", "jit"}, 2, `unknown pipeline "jit"`},
		{[]string{"-model", "mlp", "-weights", zoo + "mlp.io.json", "-io", zoo + "mlp.io.json"}, 1, "zip"},
	} {
		code, out, errs := runCLI(append([]string{"check"}, tc.args...)...)
		assert.Equal(t, tc.code, code, "%v: %s%s", tc.args, out, errs)
		assert.Contains(t, out+errs, tc.want, "%v", tc.args)
	}
	bad := filepath.Join(t.TempDir(), "bad.io.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"inputs": [{"tensor": {"dtype": "float32", "shape": [2], "data": "AAA"}}]}`), 0o644))
	code, _, errs = runCLI("check", "-model", "mlp", "-weights", zoo+"mlp.state_dict.pt", "-io", bad)
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "bad.io.json")
}

func TestInspectCommand(t *testing.T) {
	code, out, errs := runCLI("inspect", "-model", "convnet")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "%conv1 : [num_users=1] = call_module[target=conv1](args = (%x,), kwargs = {})")
	assert.Contains(t, out, "opcode")
	assert.Contains(t, out, "def forward(self, x):")
	code, _, errs = runCLI("inspect")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "-model is required")
}
