package export_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// symOperand is x OP x.size(0): a tensor op whose other operand is a
// symbolic size.
type symOperand struct {
	nn.Base
	op func(x nn.Value, n nn.Value) nn.Value
}

func (m *symOperand) Forward(x nn.Value) nn.Value { return m.op(x, x.Size(0)) }

// unbackedOperand is x + k.item(): the operand is an unbacked size.
type unbackedOperand struct{ nn.Base }

func (m *unbackedOperand) ArgNames() []string { return []string{"x", "k"} }

func (m *unbackedOperand) Forward(x, k nn.Value) nn.Value { return x.Mul(k.Item()) }

// TestExportSymIntOperand: a symbolic size given where a tensor is
// expected is recorded as PyTorch 2.6 and 2.14 record x + x.shape[0] with a
// dynamic dim (aten.add.Tensor(x, sym_size_int_1), the size a wrapped
// number; likewise sub, mul and div), and the program computes what the
// model computes eagerly at other sizes.
func TestExportSymIntOperand(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		op         func(x, n nn.Value) nn.Value
	}{
		{"add", "torch.ops.aten.add.Tensor(x, sym_size_int)", func(x, n nn.Value) nn.Value { return x.Add(n) }},
		{"sub", "torch.ops.aten.sub.Tensor(x, sym_size_int)", func(x, n nn.Value) nn.Value { return x.Sub(n) }},
		{"mul", "torch.ops.aten.mul.Tensor(x, sym_size_int)", func(x, n nn.Value) nn.Value { return x.Mul(n) }},
		{"div", "torch.ops.aten.div.Tensor(x, sym_size_int)", func(x, n nn.Value) nn.Value { return x.Div(n) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &symOperand{op: tc.op}
			m.Init(m, "M")
			x := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 4, 3))
			ep, err := export.Export(m, []any{x}, export.Dims{"x": {0: export.Dim("s", 2, 10)}})
			require.NoError(t, err)
			text := ep.String()
			assert.Contains(t, text, "torch.ops.aten.sym_size.int(x, 0)")
			assert.Contains(t, text, tc.want)
			assert.Contains(t, text, `: "f32[s0, 3]" = `+tc.want)
			for _, in := range []*tensor.Tensor{x, tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))} {
				want, err := nn.Run(m, nn.Of(in))
				require.NoError(t, err)
				got, err := ep.Run(in)
				require.NoError(t, err)
				assert.Equal(t, want.MustTensor().Float64s(), got.MustTensor().Float64s())
			}
			gm, err := fx.SymbolicTrace(m)
			require.NoError(t, err)
			out, err := gm.Run(nn.Of(x))
			require.NoError(t, err)
			want, err := nn.Run(m, nn.Of(x))
			require.NoError(t, err)
			assert.Equal(t, want.MustTensor().Float64s(), out.MustTensor().Float64s())
		})
	}
	t.Run("unbacked", func(t *testing.T) {
		m := &unbackedOperand{}
		m.Init(m, "M")
		x := tensor.Must(tensor.FromSlice([]float32{1, 2, 3}, 3))
		k := tensor.Scalar(int64(3))
		ep, err := export.Export(m, []any{x, k}, nil)
		require.NoError(t, err)
		assert.Contains(t, ep.String(), "torch.ops.aten.mul.Tensor(x, _local_scalar_dense)")
		got, err := ep.Run(x, tensor.Scalar(int64(5)))
		require.NoError(t, err)
		assert.Equal(t, []float64{5, 10, 15}, got.MustTensor().Float64s())
	})
}
