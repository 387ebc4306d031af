package passes_test

import (
	"testing"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/tensor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pair is a layer followed by a batch norm; with TwoUsers the layer's
// output is also added to the result, so it has two users.
type pair struct {
	nn.Base
	Layer    nn.Module
	BN       nn.Module
	TwoUsers bool
}

func (p *pair) Forward(x nn.Value) nn.Value {
	y := nn.Call(p.Layer, x)
	z := nn.Call(p.BN, y)
	if p.TwoUsers {
		return z.Add(y)
	}
	return z
}

// randomStats gives a batch norm non-trivial running statistics and
// affine parameters.
func randomStats(t *testing.T, bn *nn.BatchNormNd) {
	if !bn.TrackRunningStats {
		return
	}
	for _, s := range []interface{ Set(*tensor.Tensor) }{bn.Weight, bn.Bias, bn.RunningMean} {
		x, err := nn.Uniform(1, bn.NumFeatures)
		require.NoError(t, err)
		s.Set(x)
	}
	v, err := nn.Uniform(0.5, bn.NumFeatures)
	require.NoError(t, err)
	bn.RunningVar.Set(nn.Tensor(v).Add(1.0).MustTensor())
}

func newPair(t *testing.T, layer nn.Module, bn nn.Module, twoUsers bool) *pair {
	p := &pair{TwoUsers: twoUsers}
	p.Init(p, "Pair")
	p.Layer = nn.RegisterModule(&p.Base, "layer", layer)
	p.BN = nn.RegisterModule(&p.Base, "bn", bn)
	switch b := bn.(type) {
	case *nn.BatchNorm1d:
		randomStats(t, &b.BatchNormNd)
	case *nn.BatchNorm2d:
		randomStats(t, &b.BatchNormNd)
	}
	return nn.Eval(p)
}

// TestFuseCases covers what fuses and what is left alone: Conv1d and
// Conv2d with and without bias, Linear, and the pairs PyTorch's fuse
// skips or that would change results.
func TestFuseCases(t *testing.T) {
	nn.ManualSeed(0)
	for _, tc := range []struct {
		name  string
		pass  passes.Pass
		build func(t *testing.T) *pair
		train bool  // put the batch norm in training mode
		shape []int // input shape
		prop  bool  // record shapes (node.Val) before the pass
		fuses bool
	}{
		{"conv2d", passes.FuseConvBN, func(t *testing.T) *pair {
			return newPair(t, nn.NewConv2d(3, 4, 3, nn.Padding(1)), nn.NewBatchNorm2d(4), false)
		}, false, []int{2, 3, 5, 5}, false, true},
		{"conv2d without bias, grouped, strided", passes.FuseConvBN, func(t *testing.T) *pair {
			return newPair(t, nn.NewConv2d(4, 6, 3, nn.Bias(false), nn.Groups(2), nn.Stride(2)), nn.NewBatchNorm2d(6), false)
		}, false, []int{2, 4, 7, 7}, false, true},
		{"conv1d", passes.FuseConvBN, func(t *testing.T) *pair {
			return newPair(t, nn.NewConv1d(3, 4, 3), nn.NewBatchNorm1d(4), false)
		}, false, []int{2, 3, 9}, false, true},
		{"conv output with two users", passes.FuseConvBN, func(t *testing.T) *pair {
			return newPair(t, nn.NewConv2d(3, 4, 3, nn.Padding(1)), nn.NewBatchNorm2d(4), true)
		}, false, []int{2, 3, 5, 5}, false, false},
		{"batch norm in training mode", passes.FuseConvBN, func(t *testing.T) *pair {
			return newPair(t, nn.NewConv2d(3, 4, 3, nn.Padding(1)), nn.NewBatchNorm2d(4), false)
		}, true, []int{2, 3, 5, 5}, false, false},
		{"batch norm without running stats", passes.FuseConvBN, func(t *testing.T) *pair {
			return newPair(t, nn.NewConv2d(3, 4, 3, nn.Padding(1)), nn.NewBatchNorm2d(4, nn.TrackRunningStats(false)), false)
		}, false, []int{2, 3, 5, 5}, false, false},
		{"conv1d then batchnorm2d", passes.FuseConvBN, func(t *testing.T) *pair {
			return newPair(t, nn.NewConv1d(3, 4, 1), nn.NewBatchNorm2d(4), false)
		}, false, []int{2, 3, 5, 5}, false, false},
		{"linear is not FuseConvBN's", passes.FuseConvBN, func(t *testing.T) *pair {
			return newPair(t, nn.NewLinear(3, 4, true), nn.NewBatchNorm1d(4), false)
		}, false, []int{5, 3}, false, false},
		{"linear", passes.FuseLinearBN, func(t *testing.T) *pair {
			return newPair(t, nn.NewLinear(3, 4, true), nn.NewBatchNorm1d(4), false)
		}, false, []int{5, 3}, true, true},
		{"linear without bias", passes.FuseLinearBN, func(t *testing.T) *pair {
			return newPair(t, nn.NewLinear(3, 4, false), nn.NewBatchNorm1d(4), false)
		}, false, []int{5, 3}, false, true},
		{"linear over [N, C, L]", passes.FuseLinearBN, func(t *testing.T) *pair {
			return newPair(t, nn.NewLinear(4, 4, true), nn.NewBatchNorm1d(4), false)
		}, false, []int{2, 4, 4}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.build(t)
			if tc.train {
				nn.Train(p.BN, true)
			}
			x, err := nn.Uniform(2, tc.shape...)
			require.NoError(t, err)
			gm, err := fx.SymbolicTrace(p)
			require.NoError(t, err)
			if tc.prop {
				_, err := shapeprop.Propagate(gm, nn.Tensor(x))
				require.NoError(t, err)
			}
			before := gm.String()
			state := nn.CloneState(p)

			changed, err := tc.pass.Apply(gm)
			require.NoError(t, err)
			require.Equal(t, tc.fuses, changed)
			require.NoError(t, gm.Lint())
			if !tc.fuses {
				assert.Equal(t, before, gm.String())
				return
			}
			want, err := nn.Run(p, nn.Tensor(x.Clone()))
			require.NoError(t, err)
			_, err = nn.Submodule(gm, "bn")
			assert.Error(t, err, "the batch norm is still a submodule")
			got, err := gm.Run(nn.Tensor(x))
			require.NoError(t, err)
			assert.LessOrEqual(t, maxAbsDiff(got.MustTensor(), want.MustTensor()), 1e-5)
			for name, w := range state.All() {
				x, _ := nn.StateDict(p).Get(name)
				assert.True(t, tensor.Equal(w, x), "model state %s changed", name)
			}
			_, err = nn.Submodule(p, "bn")
			assert.NoError(t, err)
		})
	}
}

// TestFuseBadInput: a nil GraphModule is an error naming the pass.
func TestFuseBadInput(t *testing.T) {
	for _, p := range []passes.Pass{passes.FuseConvBN, passes.FuseLinearBN, passes.FoldConvBN} {
		_, err := p.Apply(nil)
		require.ErrorContains(t, err, p.Name)
	}
	_, _, err := foldProgram(nil, passes.FoldConvBN)
	require.Error(t, err)
	_, _, err = passes.FuseConvBNWeights(nil, nil, nil, nil, 1e-5, nil, nil, false)
	require.ErrorContains(t, err, "FuseConvBNWeights")
	w, _ := tensor.Full(tensor.Float32, 1, 4, 3, 3, 3)
	m, _ := tensor.Full(tensor.Float32, 0, 5)
	_, _, err = passes.FuseConvBNWeights(w, nil, m, m, 1e-5, nil, nil, false)
	require.Error(t, err, "4 output channels, 5 statistics")
}
