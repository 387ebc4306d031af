package export_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
)

// twoLines computes its output on two source lines.
type twoLines struct{ nn.Base }

func (m *twoLines) Forward(x nn.Value) nn.Value {
	y := F.Sin(x).Add(x)
	return F.ReLU(y)
}

// TestPrintSourceLines: the printed program carries torch.export's
// summaries of the source lines, one before the nodes of each line, after
// a blank line (the form of ../shared/pt2/*.ep.txt):
//
//	# File: gen_pt2.py:211 in forward, code: output = ...
func TestPrintSourceLines(t *testing.T) {
	m := &twoLines{}
	m.Init(m, "M")
	x, err := tensor.Full(tensor.Float32, 1, 2, 3)
	require.NoError(t, err)
	ep, err := export.Export(m, []any{x}, nil)
	require.NoError(t, err)
	got := stripPaths(ep.String())
	def := strings.Index(got, "def forward")
	body := got[def+strings.Index(got[def:], "):\n")+3 : strings.Index(got, "\nGraph signature")]
	assert.Equal(t, `             # File: source_test.go:20 in (*twoLines).Forward, code: y := F.Sin(x).Add(x)
            sin: "f32[2, 3]" = torch.ops.aten.sin.default(x)
            add: "f32[2, 3]" = torch.ops.aten.add.Tensor(sin, x);  sin = x = None
            
             # File: source_test.go:21 in (*twoLines).Forward, code: return F.ReLU(y)
            relu: "f32[2, 3]" = torch.ops.aten.relu.default(add);  add = None
            return (relu,)
`, body)
}
