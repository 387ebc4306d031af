package export_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// floatItem is testdata/floatitem/gen.py's FloatItem in Go: floats read
// from tensor data (unbacked float symbols) as a wrapped number, a fill
// value and an alpha.
type floatItem struct{ nn.Base }

func (m *floatItem) Forward(x nn.Value) nn.Value {
	a := x.Sum().Item()
	b := nn.CallOp(nn.Op("aten::max"), x).Item()
	mul := x.Mul(a)
	full := nn.CallOp(nn.Op("aten::full"), []int64{2}, b)
	add := nn.CallOpKw(nn.Op("aten::add.Tensor"), []any{x, x}, map[string]any{"alpha": nn.CallOp(nn.Op("aten::min"), x).Item()})
	return nn.Tuple(mul, full, add)
}

// codeLines are the lines of a print's forward code and range constraints,
// without "# File:" comments and blank lines, with trailing spaces dropped.
func codeLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(l, " ")
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.HasPrefix(t, "Graph signature") {
			break
		}
		out = append(out, t)
	}
	return out
}

// TestFloatItemMatchesPyTorch: the item() of a floating tensor exports as
// PyTorch 2.14's (and 2.6's) core program records it: an unbacked float
// symbol per item (Sym(zuf0), ...) given to mul.Tensor as a wrapped
// number, to full as its fill value and to add as its alpha, with
// VR[-oo, oo] ranges; the program runs to PyTorch's outputs.
func TestFloatItemMatchesPyTorch(t *testing.T) {
	want, err := os.ReadFile("testdata/floatitem/float_item.2.14.core.ep.txt")
	require.NoError(t, err)
	io, err := models.ReadIO("testdata/floatitem/float_item.io.json")
	require.NoError(t, err)
	m := &floatItem{}
	m.Init(m, "FloatItem")
	x := io.Cases[0].Inputs[0].MustTensor()
	ep, err := export.Export(m, []any{x}, nil)
	require.NoError(t, err)
	text := ep.String()
	// Go model code calls full with no device: PyTorch's torch.full
	// passes the default device and pin_memory, which change nothing.
	pyCode := strings.ReplaceAll(string(want), ", device = device(type='cpu'), pin_memory = False", "")
	assert.Equal(t, codeLines(pyCode), codeLines(text))
	wantRanges := string(want)[strings.Index(string(want), "Range constraints"):]
	assert.Equal(t, strings.TrimSpace(wantRanges), strings.TrimSpace(text[strings.Index(text, "Range constraints"):]))
	for _, c := range io.Cases {
		got, err := ep.Run(c.Inputs[0].MustTensor())
		require.NoError(t, err)
		for i, o := range got.Tuple() {
			assert.True(t, tensor.AllClose(o.MustTensor(), c.Outputs[i].MustTensor(), 1e-5, 1e-6, false), "output %d", i)
		}
	}
}
