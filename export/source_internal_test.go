package export

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestParseStackTrace: a Python stack_trace (as PyTorch records it in a
// .pt2, here custom_op.pt2's) gives ep.txt's summary; a Go one its last
// frame, with the code read from the file when it exists.
func TestParseStackTrace(t *testing.T) {
	for _, tc := range []struct{ st, want string }{
		{"  File \"gen_pt2.py\", line 425, in forward\n    return torch.ops.gofxtest.scaled_softplus(x, 2.0) + 1\n",
			"File: gen_pt2.py:425 in forward, code: return torch.ops.gofxtest.scaled_softplus(x, 2.0) + 1"},
		{"/nowhere/main.go:7 in main.main\n/nowhere/model.go:12 in models.(*Net).Forward\n",
			"File: /nowhere/model.go:12 in (*Net).Forward, code: "},
		{"source_internal_test.go:1 in export.f\n", "File: source_internal_test.go:1 in f, code: package export"},
	} {
		s, ok := parseStackTrace(tc.st)
		assert.True(t, ok, tc.st)
		assert.Equal(t, tc.want, s.summary())
	}
	_, ok := parseStackTrace("garbage")
	assert.False(t, ok)
}
