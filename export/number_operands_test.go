package export_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
)

// numberOperands does arithmetic with Python numbers as
// testdata/number_operands.py does.
type numberOperands struct{ nn.Base }

func (m *numberOperands) Forward(x nn.Value) nn.Value {
	y := x.Clone()
	y.Add_(1)
	y.Mul_(2)
	y.Sub_(1)
	y.Div_(2)
	return nn.Tuple(y,
		x.Add(1), x.Mul(0.5), x.Sub(2), x.Div(3), x.FloorDiv(2), x.Mod(2), x.Pow(2),
		x.Eq(1), x.Ne(1), x.Gt(0), x.Ge(1), x.Lt(1), x.Le(1),
		functional.Add(x, nn.Of(1), nn.None), functional.Add(x, nn.Of(1), nn.Of(2)),
	)
}

// TestNumberOperandOverloads checks that gofx records the overloads
// torch.export 2.6 records for a number operand (testdata/number_operands.txt,
// written by PyTorch; its second graph, ep.run_decompositions(), is the one
// compared, since gofx's Export already functionalizes add_ and
// decomposes floor_divide): add, sub, mul, div, their in-place forms and
// floor_divide take the number as a wrapped number in their Tensor
// overload, because Python's bindings hide their .Scalar overloads;
// remainder, pow and the comparisons take their .Scalar overloads.
func TestNumberOperandOverloads(t *testing.T) {
	b, err := os.ReadFile("testdata/number_operands.txt")
	require.NoError(t, err)
	graphs := strings.Split(string(b), "graph\n")
	require.Len(t, graphs, 3, "testdata/number_operands.txt: two graphs")
	want := graphs[2]
	m := &numberOperands{}
	m.Init(m, "NumberOperands")
	x, err := tensor.New(tensor.Float32, 3)
	require.NoError(t, err)
	ep, err := export.Export(m, []any{x}, nil)
	require.NoError(t, err)
	ep, err = ep.RunDecompositions(decomp.Core())
	require.NoError(t, err)
	var got strings.Builder
	for n := range ep.Graph.Nodes() {
		if n.Op() != node.CallFunction {
			continue
		}
		fields := []string{n.Target().String()}
		for _, a := range n.Args()[1:] {
			fields = append(fields, fmt.Sprint(a))
		}
		for _, kw := range n.Kwargs() {
			fields = append(fields, kw.Name+"="+fmt.Sprint(kw.Value))
		}
		got.WriteString(strings.Join(fields, " ") + "\n")
	}
	assert.Equal(t, want, got.String())
}
