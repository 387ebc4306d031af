package export_test

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
)

// condConvBN runs conv + batch norm in the true branch of a
// data-dependent cond, a plain conv in the false one.
type condConvBN struct {
	nn.Base
	Conv  *nn.Conv2d
	BN    *nn.BatchNorm2d
	Other *nn.Conv2d
}

func (m *condConvBN) Forward(x nn.Value) nn.Value {
	return F.Cond(x.Sum().Gt(0),
		func(o ...nn.Value) nn.Value { return nn.Call(m.BN, nn.Call(m.Conv, o[0])) },
		func(o ...nn.Value) nn.Value { return nn.Call(m.Other, o[0]) },
		x)
}

// fill sets every parameter and buffer of m to values of r (running
// variances positive), so that the batch norm is not an identity.
func fill(t *testing.T, m nn.Module, r *rand.Rand) {
	t.Helper()
	set := func(name string, x *tensor.Tensor, positive bool) {
		vals := make([]float32, x.Numel())
		for i := range vals {
			v := r.Float32()*2 - 1
			if positive {
				v = 0.5 + r.Float32()
			}
			vals[i] = v
		}
		src := tensor.Must(tensor.FromSlice(vals, x.Shape()...))
		require.NoError(t, x.CopyFrom(src), name)
	}
	for name, p := range nn.NamedParameters(m) {
		set(name, p.Tensor(), false)
	}
	for name, b := range nn.NamedBuffers(m) {
		if b.Tensor().DType() == tensor.Float32 {
			set(name, b.Tensor(), name == "bn.running_var")
		}
	}
}

// TestTransformFusesConvBNInsideCond: FoldConvBN reaches into a cond's
// branch of an exported program: the true branch's batch norm is folded
// into its convolution (no batch-norm operator left in any graph), the
// false branch is untouched, and the program computes what the model
// computes in eval mode, for inputs taking either branch.
func TestTransformFusesConvBNInsideCond(t *testing.T) {
	m := &condConvBN{}
	m.Init(m, "CondConvBN")
	m.Conv = nn.RegisterModule(&m.Base, "conv", nn.NewConv2d(3, 4, 3))
	m.BN = nn.RegisterModule(&m.Base, "bn", nn.NewBatchNorm2d(4))
	m.Other = nn.RegisterModule(&m.Base, "other", nn.NewConv2d(3, 4, 3))
	fill(t, m, rand.New(rand.NewSource(1)))
	nn.Eval(m)
	r := rand.New(rand.NewSource(2))
	input := func(sign float32) *tensor.Tensor {
		vals := make([]float32, 2*3*6*6)
		for i := range vals {
			vals[i] = sign * r.Float32()
		}
		return tensor.Must(tensor.FromSlice(vals, 2, 3, 6, 6))
	}
	ep, err := export.Export(m, []any{input(1)}, nil)
	require.NoError(t, err)
	bnOps := func(ep *export.ExportedProgram) int {
		got := map[string]int{}
		hopOpCounts(ep.Graph, ep.Subgraphs(), got)
		k := 0
		for name, c := range got {
			if containsAny(name, "batch_norm") {
				k += c
			}
		}
		return k
	}
	require.Equal(t, 1, bnOps(ep), "the exported program has the branch's batch norm:\n%s", ep)
	fused, err := ep.Transform(passes.FoldConvBN)
	require.NoError(t, err)
	t.Log(fused)
	assert.Zero(t, bnOps(fused), "the batch norm is folded:\n%s", fused)
	for _, sign := range []float32{1, -1} {
		x := input(sign)
		want, err := nn.Run(m, nn.Of(x))
		require.NoError(t, err)
		got, err := fused.RunFlat(x)
		require.NoError(t, err)
		require.Len(t, got, 1)
		assert.True(t, tensor.AllClose(got[0].Tensor(), want.Tensor(), 1e-4, 1e-5, false), "sign %v: fused %v\nwant %v", sign, got[0].Tensor(), want.Tensor())
	}
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		for i := 0; i+len(x) <= len(s); i++ {
			if s[i:i+len(x)] == x {
				return true
			}
		}
	}
	return false
}
