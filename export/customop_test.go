package export_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// customOp is gen_pt2.py's CustomOp: scaled_softplus(x, 2.0) + 1.
type customOp struct {
	nn.Base
	op *ops.Operator
}

func (m *customOp) Forward(x nn.Value) nn.Value {
	return nn.CallOp(m.op, x, 2.0).Add(nn.Of(1))
}

// TestCustomOpExports: an operator defined with ops.Define (schema,
// kernel, meta function) exports like an aten operator, is kept by
// RunDecompositions, and runs to PyTorch's outputs (custom_op.io.json,
// from ../shared/pt2).
func TestCustomOpExports(t *testing.T) {
	m := &customOp{op: optest.ScaledSoftplus(t)}
	m.Init(m, "CustomOp")
	io, err := models.ReadIO("testdata/custom_op.io.json")
	require.NoError(t, err)
	x := io.Cases[0].Inputs[0].MustTensor()
	ep, err := export.Export(m, []any{x.Clone()}, nil)
	require.NoError(t, err)
	// custom_op.ep.txt's line for the node.
	assert.Contains(t, ep.String(), `scaled_softplus: "f32[3, 5]" = torch.ops.gofxtest.scaled_softplus.default(x, 2.0);  x = None`)
	require.NoError(t, decomp.Verify(ep.Graph))
	dec, err := ep.RunDecompositions(decomp.Core())
	require.NoError(t, err)
	assert.Contains(t, dec.String(), "torch.ops.gofxtest.scaled_softplus.default(x, 2.0)")
	for _, p := range []*export.ExportedProgram{ep, dec} {
		for _, c := range io.Cases {
			got, err := p.Run(c.Inputs[0].MustTensor().Clone())
			require.NoError(t, err)
			assert.True(t, tensor.AllClose(got.MustTensor(), c.Outputs[0].MustTensor(), 1e-4, 1e-4, false), "got %v", got.MustTensor().Float64s())
		}
	}
}

// mutatingOp calls a custom operator that writes its argument.
type mutatingOp struct{ nn.Base }

func (m *mutatingOp) Forward(x nn.Value) nn.Value {
	op, _ := ops.Global().Lookup("gofxtest::scale_")
	nn.CallOp(op, x, 2.0)
	return x
}

// TestCustomOpMutating: a custom operator that writes an argument is not
// functional; Export refuses it, naming it.
func TestCustomOpMutating(t *testing.T) {
	optest.ScaledSoftplus(t)
	m := &mutatingOp{}
	m.Init(m, "M")
	x, err := tensor.Full(tensor.Float32, 1, 2, 3)
	require.NoError(t, err)
	_, err = export.Export(m, []any{x}, nil)
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "gofxtest.scale_"), err.Error())
}

// TestCustomOpDynamic: the meta function alone keeps a dynamic dimension
// through the custom operator, as torch.export keeps it through a custom
// op's fake kernel (custom_op's model with dim 0 of x a Dim("b", 2, 100)
// exports in PyTorch 2.6 with scaled_softplus f32[s0, 5]); the program runs
// on another batch size.
func TestCustomOpDynamic(t *testing.T) {
	m := &customOp{op: optest.ScaledSoftplus(t)}
	m.Init(m, "CustomOp")
	io, err := models.ReadIO("testdata/custom_op.io.json")
	require.NoError(t, err)
	x := io.Cases[0].Inputs[0].MustTensor()
	ep, err := export.Export(m, []any{x.Clone()}, export.Dims{"x": {0: export.Dim("b", 2, 100)}})
	require.NoError(t, err)
	assert.Contains(t, ep.String(), `scaled_softplus: "f32[s0, 5]" = torch.ops.gofxtest.scaled_softplus.default(x, 2.0)`)
	y, err := tensor.Full(tensor.Float32, 0, 7, 5)
	require.NoError(t, err)
	out, err := ep.Run(y)
	require.NoError(t, err)
	assert.Equal(t, []int{7, 5}, out.MustTensor().Shape())
	// softplus(0) / 2 + 1 = ln(2) / 2 + 1
	assert.InDelta(t, 1.3465736, out.MustTensor().Float64s()[0], 1e-6)
}

// doubledRows is a custom operator whose result has twice the rows:
// the probes cannot name 2*s0 as one input dimension, so a dynamic
// dimension through it is specialized and Export says so.
type doubledRows struct{ nn.Base }

func (m *doubledRows) Forward(x nn.Value) nn.Value {
	op, _ := ops.Global().Lookup("gofxtest::doubled_rows")
	return nn.CallOp(op, x)
}

func TestCustomOpDynamicUnexplained(t *testing.T) {
	meta := func(c *ops.Call) ([]any, error) {
		x := c.Tensor("x")
		sh := append([]int{2 * x.Shape()[0]}, x.Shape()[1:]...)
		m, err := tensor.NewMeta(x.DType(), sh...)
		return []any{m}, err
	}
	defineDoubled.Do(func() {
		_, err := ops.Define("gofxtest::doubled_rows(Tensor x) -> Tensor", nil, meta, 0)
		require.NoError(t, err)
	})
	m := &doubledRows{}
	m.Init(m, "M")
	x, err := tensor.Full(tensor.Float32, 1, 3, 5)
	require.NoError(t, err)
	_, err = export.Export(m, []any{x}, export.Dims{"x": {0: export.Dim("b", 2, 100)}})
	var ge *export.GuardError
	require.ErrorAs(t, err, &ge)
	assert.Contains(t, err.Error(), "specialized by gofxtest::doubled_rows")
}

var defineDoubled sync.Once
