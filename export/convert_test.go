package export_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// conversions converts its input to its own dtype and to another, as
//
//	return x.to(torch.float32) * 2, x.double() + 1, x.float().sum()
type conversions struct{ nn.Base }

func (m *conversions) Forward(x nn.Value) nn.Value {
	y := x.To(tensor.Float32)
	return nn.Tuple(y.Mul(2), y.Method("double").Add(1), y.Method("float").Sum())
}

// TestExportDTypeConversions: tensor conversions on traced values record
// _to_copy, even to the tensor's own dtype, as PyTorch 2.6's export does
// (its run_decompositions() of the model above has three
// aten._to_copy.default nodes: to float32, to float64, to float32). They
// used to panic on the proxy.
func TestExportDTypeConversions(t *testing.T) {
	m := &conversions{}
	m.Init(m, "Conversions")
	x, err := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	require.NoError(t, err)
	ep, err := export.Export(m, []any{x}, nil)
	require.NoError(t, err)
	assert.Equal(t, 3, counts(ep)["aten._to_copy.default"])
	out, err := ep.Run(x)
	require.NoError(t, err)
	outs := out.Tuple()
	require.Len(t, outs, 3)
	assert.Equal(t, tensor.Float32, outs[0].MustTensor().DType())
	assert.Equal(t, []float64{2, 4, 6, 8, 10, 12}, outs[0].MustTensor().Float64s())
	assert.Equal(t, tensor.Float64, outs[1].MustTensor().DType())
	assert.Equal(t, []float64{2, 3, 4, 5, 6, 7}, outs[1].MustTensor().Float64s())
	assert.Equal(t, []float64{21}, outs[2].MustTensor().Float64s())
}
