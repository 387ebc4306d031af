package nn_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	_ "github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// The torch.fx document's wrap example, ported as written:
//
//	def normalize(x):
//	    return x / sqrt(len(x))
//	torch.fx.wrap('len'); torch.fx.wrap('sqrt')
//	traced = torch.fx.symbolic_trace(normalize)
//
// torch.fx records len, sqrt and the division, and the traced module
// computes what normalize computes. In gofx the division is recorded as
// aten.div.Tensor (the divisor is a proxy), and running it used to fail
// with "argument 'other': expected Tensor, got float".
func TestSeedWrapLenSqrt(t *testing.T) {
	wlen, err := fx.Wrap("builtins.len", func(a ...nn.Value) nn.Value { return nn.Of(a[0].Len()) })
	require.NoError(t, err)
	wsqrt, err := fx.Wrap("math.sqrt", func(a ...nn.Value) nn.Value { return nn.Of(math.Sqrt(a[0].Float())) })
	require.NoError(t, err)
	normalize := func(x nn.Value) nn.Value { return x.Div(wsqrt.Call(wlen.Call(x))) }

	gm, err := fx.SymbolicTraceFunc(normalize)
	require.NoError(t, err)
	require.NoError(t, gm.Lint())
	assert.Equal(t, `def forward(self, x):
    len_1 = len(x)
    sqrt = math.sqrt(len_1);  len_1 = None
    div = torch.ops.aten.div.Tensor(x, sqrt);  x = sqrt = None
    return div
`, gm.Code())

	x := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{2, -4, 6, 8, 1, 3, 0, 10}, 4, 2))
	got, err := gm.Run(nn.Tensor(x))
	require.NoError(t, err)
	// len(x) is 4, sqrt(4) is 2: every element halves.
	assert.Equal(t, []float64{1, -2, 3, 4, 0.5, 1.5, 0, 5}, floats(t, got))
	assert.Equal(t, tensor.Float32, got.Tensor().DType())
	eager, err := nn.Run(funcModule(normalize), nn.Tensor(x))
	require.NoError(t, err)
	assert.Equal(t, floats(t, eager), floats(t, got))
}

// TestApplyNumberForTensor: a number in a Tensor parameter runs as PyTorch
// runs it, wrapped into a tensor that takes part in type promotion as a
// number (the values and dtypes are torch.ops.aten's, PyTorch 2.6).
func TestApplyNumberForTensor(t *testing.T) {
	x := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{1, 2, 3}, 3))
	i32 := tensor.Must(tensor.FromInt64s(tensor.Int32, []int64{1, 2, 3}, 3))
	u8 := tensor.Must(tensor.FromInt64s(tensor.Uint8, []int64{1, 2}, 2))
	b := tensor.Must(tensor.FromInt64s(tensor.Bool, []int64{1}, 1))
	tests := []struct {
		name   string
		fn     node.Function
		args   []nn.Value
		kw     map[string]nn.Value
		want   []float64
		wantDT tensor.DType
	}{
		{"div.Tensor float", aten.DivTensor, []nn.Value{nn.Tensor(x), nn.Of(2.0)}, nil, []float64{0.5, 1, 1.5}, tensor.Float32},
		{"add.Tensor int alpha", aten.AddTensor, []nn.Value{nn.Tensor(x), nn.Of(1)}, map[string]nn.Value{"alpha": nn.Of(3)}, []float64{4, 5, 6}, tensor.Float32},
		{"mul.Tensor keyword", aten.MulTensor, []nn.Value{nn.Tensor(x)}, map[string]nn.Value{"other": nn.Of(-1)}, []float64{-1, -2, -3}, tensor.Float32},
		{"tensors", aten.MulTensor, []nn.Value{nn.Tensor(x), nn.Tensor(x)}, nil, []float64{1, 4, 9}, tensor.Float32},
		{"number for self", aten.MulTensor, []nn.Value{nn.Of(2), nn.Tensor(x)}, nil, []float64{2, 4, 6}, tensor.Float32},
		{"int32 times a float", aten.MulTensor, []nn.Value{nn.Tensor(i32), nn.Of(0.5)}, nil, []float64{0.5, 1, 1.5}, tensor.Float32},
		{"int32 plus an int", aten.AddTensor, []nn.Value{nn.Tensor(i32), nn.Of(1)}, nil, []float64{2, 3, 4}, tensor.Int32},
		{"uint8 times -1 wraps", aten.MulTensor, []nn.Value{nn.Tensor(u8), nn.Of(-1)}, nil, []float64{255, 254}, tensor.Uint8},
		{"bool times True", aten.MulTensor, []nn.Value{nn.Tensor(b), nn.Of(true)}, nil, []float64{1}, tensor.Bool},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := nn.ApplyFunction(tt.fn, tt.args, tt.kw)
			require.NoError(t, err)
			assert.Equal(t, tt.want, floats(t, got))
			assert.Equal(t, tt.wantDT, got.Tensor().DType())
		})
	}
}

// TestLenOfTensor: len(x) of a tensor is its first dimension, as in Python.
func TestLenOfTensor(t *testing.T) {
	x := tensor.Must(tensor.FromFloat64s(tensor.Float32, make([]float64, 6), 3, 2))
	assert.Equal(t, 3, nn.Tensor(x).Len())
	assert.Equal(t, 2, nn.Tuple(nn.Of(1), nn.Of(2)).Len())
	s := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{1}))
	assert.Panics(t, func() { nn.Tensor(s).Len() })
}

func floats(t *testing.T, v nn.Value) []float64 {
	t.Helper()
	require.NotNil(t, v.Tensor(), "got %s", v.Kind())
	return v.Tensor().Float64s()
}

// fnModule runs a Go function as a module's Forward.
type fnModule struct {
	nn.Base
	fn func(nn.Value) nn.Value
}

func (m *fnModule) Forward(x nn.Value) nn.Value { return m.fn(x) }

func funcModule(fn func(nn.Value) nn.Value) nn.Module {
	m := &fnModule{fn: fn}
	m.Init(m, "fn")
	return m
}
