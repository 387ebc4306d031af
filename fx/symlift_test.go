package fx_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
)

// Branches and bodies closing over an outer size (export's symlift
// programs, export/testdata/symlift/gen.py), traced by fx.

type fxSymCond struct{ nn.Base }

func (m *fxSymCond) Forward(x nn.Value) nn.Value {
	n := x.Size(0)
	return F.Cond(x.Sum().Gt(0),
		func(o ...nn.Value) nn.Value { return o[0].Reshape(n, -1).Add(n) },
		func(o ...nn.Value) nn.Value { return o[0].View(n, -1).Sub(n) }, x)
}

type fxSymWhile struct{ nn.Base }

func (m *fxSymWhile) ArgNames() []string { return []string{"i", "x"} }

func (m *fxSymWhile) Forward(i, x nn.Value) nn.Value {
	n := x.Size(0)
	out := F.WhileLoop(func(v ...nn.Value) nn.Value { return v[0].Lt(3) },
		func(v ...nn.Value) []nn.Value { return []nn.Value{v[0].Add(1), v[1].Add(n)} },
		[]nn.Value{i, x}, nil)
	return nn.Tuple(out...)
}

type fxSymMap struct{ nn.Base }

func (m *fxSymMap) Forward(xs nn.Value) nn.Value {
	n := xs.Size(1)
	return F.Map(func(v nn.Value, _ ...nn.Value) nn.Value { return v.Add(n) }, xs)
}

// TestSymbolicTraceClosesOverSize: a size of the enclosing graph
// (x.size(0)) that a cond branch, a while_loop body or a map body reads is
// lifted as an operand, where torch.export 2.14 lifts an outer symbolic
// size (first cond operand; appended to while_loop's additional inputs
// and map's extra inputs), so the traced module computes it from each
// call's input: it runs to the eager results at sizes other than the
// first call's.
func TestSymbolicTraceClosesOverSize(t *testing.T) {
	x4 := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 4, 3))
	x2 := tensor.Must(tensor.FromSlice([]float32{-1, -2, -3, -4, -5, -6}, 2, 3))
	xs := tensor.Must(tensor.Must(tensor.Arange(tensor.Float32, 0, 24, 1)).Reshape(2, 4, 3))
	xs2 := tensor.Must(tensor.Must(tensor.Arange(tensor.Float32, 0, 12, 1)).Reshape(2, 2, 3))
	i0 := tensor.Scalar(int64(0))
	for _, tc := range []struct {
		name string
		m    nn.Module
		call string
		runs [][]*tensor.Tensor
	}{
		{"cond", &fxSymCond{}, "torch.ops.higher_order.cond(gt, true_graph_0, false_graph_0, [size, x])", [][]*tensor.Tensor{{x4}, {x2}}},
		{"while_loop", &fxSymWhile{}, "torch.ops.higher_order.while_loop(while_loop_cond_graph_0, while_loop_body_graph_0, (i, x), (size,))", [][]*tensor.Tensor{{i0, x4}, {i0, x2}}},
		{"map", &fxSymMap{}, "torch.ops.higher_order.map_impl(body_graph_0, [x], [size])", [][]*tensor.Tensor{{xs}, {xs2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.m.(interface{ Init(nn.Module, string) }).Init(tc.m, tc.name)
			gm, err := fx.SymbolicTrace(tc.m)
			require.NoError(t, err)
			assert.Contains(t, gm.Code(), "size = x")
			assert.Contains(t, gm.Code(), tc.call)
			for _, args := range tc.runs {
				vals := make([]nn.Value, len(args))
				for i, a := range args {
					vals[i] = nn.Of(a)
				}
				want, err := nn.Run(tc.m, vals...)
				require.NoError(t, err)
				got, err := gm.Run(vals...)
				require.NoError(t, err)
				assert.Equal(t, want.String(), got.String())
			}
		})
	}
}

// TestSymbolicTraceClosesOverTensor: a tensor of the enclosing graph that
// a branch reads without passing it as an operand stays an error naming
// the branch.
func TestSymbolicTraceClosesOverTensor(t *testing.T) {
	m := &closesOverTensor{}
	m.Init(m, "T")
	_, err := fx.SymbolicTrace(m)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "true branch")
	assert.Contains(t, err.Error(), "not an operand")
}

type closesOverTensor struct{ nn.Base }

func (m *closesOverTensor) Forward(x nn.Value) nn.Value {
	y := x.Relu()
	return F.Cond(x.Sum().Gt(0),
		func(o ...nn.Value) nn.Value { return o[0].Add(y) },
		func(o ...nn.Value) nn.Value { return o[0] }, x)
}
