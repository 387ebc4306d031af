package kernels_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/tensor"
)

// TestBatchNormLegit checks the _native_batch_norm_legit overloads (newer
// than PyTorch 1.13) against native_batch_norm on the same inputs,
// including the in-place update of the running statistics.
func TestBatchNormLegit(t *testing.T) {
	n := 2 * 3 * 4
	xv := make([]float64, n)
	for i := range xv {
		xv[i] = math.Sin(float64(i)*1.3) * 2
	}
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
		x := reduceOverloadTensor(dt, xv, 2, 3, 4)
		w := reduceOverloadTensor(dt, []float64{0.5, -1, 2}, 3)
		b := reduceOverloadTensor(dt, []float64{0.1, 0, -0.3}, 3)
		stats := func() (*tensor.Tensor, *tensor.Tensor) {
			return reduceOverloadTensor(dt, []float64{0.2, -0.1, 0.3}, 3), reduceOverloadTensor(dt, []float64{1.5, 0.7, 2}, 3)
		}
		for _, training := range []bool{true, false} {
			rm1, rv1 := stats()
			want := callReduceOverload(t, "aten::native_batch_norm", []any{x, w, b, rm1, rv1, training, 0.1, 1e-5}, nil)
			rm2, rv2 := stats()
			got := callReduceOverload(t, "aten::_native_batch_norm_legit", []any{x, w, b, rm2, rv2, training, 0.1, 1e-5}, nil)
			require.Len(t, got, 3)
			for i := range want {
				requireSameValues(t, want[i].(*tensor.Tensor), got[i].(*tensor.Tensor), "legit output")
			}
			requireSameValues(t, rm1, rm2, "running_mean")
			requireSameValues(t, rv1, rv2, "running_var")
			if !training {
				rm3, rv3 := stats()
				got := callReduceOverload(t, "aten::_native_batch_norm_legit_no_training", []any{x, w, b, rm3, rv3, 0.1, 1e-5}, nil)
				for i := range want {
					requireSameValues(t, want[i].(*tensor.Tensor), got[i].(*tensor.Tensor), "no_training output")
				}
				assert.Equal(t, []int{0}, got[1].(*tensor.Tensor).Shape())
			}
		}
		want := callReduceOverload(t, "aten::native_batch_norm", []any{x, nil, b, nil, nil, true, 0.1, 1e-5}, nil)
		got := callReduceOverload(t, "aten::_native_batch_norm_legit.no_stats", []any{x, nil, b, true, 0.1, 1e-5}, nil)
		for i := range want {
			requireSameValues(t, want[i].(*tensor.Tensor), got[i].(*tensor.Tensor), "no_stats output")
		}
		// Meta tensors give the shapes only.
		rm, rv := stats()
		meta := callReduceOverload(t, "aten::_native_batch_norm_legit", []any{x.Meta(), w.Meta(), b.Meta(), rm.Meta(), rv.Meta(), true, 0.1, 1e-5}, nil)
		assert.Equal(t, []int{2, 3, 4}, meta[0].(*tensor.Tensor).Shape())
		assert.Equal(t, []int{3}, meta[1].(*tensor.Tensor).Shape())
		meta = callReduceOverload(t, "aten::_native_batch_norm_legit_no_training", []any{x.Meta(), nil, nil, rm.Meta(), rv.Meta(), 0.1, 1e-5}, nil)
		assert.Equal(t, []int{0}, meta[2].(*tensor.Tensor).Shape())
		assert.True(t, meta[0].(*tensor.Tensor).IsMeta())
		meta = callReduceOverload(t, "aten::_native_batch_norm_legit.no_stats", []any{x.Meta(), nil, nil, true, 0.1, 1e-5}, nil)
		assert.Equal(t, []int{3}, meta[2].(*tensor.Tensor).Shape())
	}
}

func TestReduceBatchNormUpdatesRunningStats(t *testing.T) {
	// Two samples, two channels, two positions: channel 0 holds 1, 2, 3, 4
	// and channel 1 holds 10, 10, 10, 10.
	x := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{1, 2, 10, 10, 3, 4, 10, 10}, 2, 2, 2))
	rm := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{1, 2}, 2))
	rv := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{3, 4}, 2))
	out, err := optest.Call(t, "aten::native_batch_norm", []any{x, nil, nil, rm, rv, true, 0.25, 1e-5}, nil)
	require.NoError(t, err)
	// Running stats: momentum*batch + (1-momentum)*running, with the
	// unbiased variance (5/3 for 1..4, 0 for the constant channel).
	assert.InDeltaSlice(t, []float64{0.25*2.5 + 0.75*1, 0.25*10 + 0.75*2}, rm.Float64s(), 1e-6)
	assert.InDeltaSlice(t, []float64{0.25*5.0/3 + 0.75*3, 0.75 * 4}, rv.Float64s(), 1e-6)
	// Saved statistics use the biased variance (1.25 and 0).
	assert.InDeltaSlice(t, []float64{2.5, 10}, out[1].(*tensor.Tensor).Float64s(), 1e-6)
	assert.InDeltaSlice(t, []float64{1 / math.Sqrt(1.25+1e-5), 1 / math.Sqrt(1e-5)}, out[2].(*tensor.Tensor).Float64s(), 1e-3)

	// The composite batch_norm updates them too; eval mode leaves them.
	_, err = optest.Call(t, "aten::batch_norm", []any{x, nil, nil, rm, rv, false, 0.25, 1e-5, false}, nil)
	require.NoError(t, err)
	assert.InDeltaSlice(t, []float64{0.25*2.5 + 0.75*1, 0.25*10 + 0.75*2}, rm.Float64s(), 1e-6)
}
