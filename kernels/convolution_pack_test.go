package kernels_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/tensor"
)

// TestPackedWeightCache checks that a convolution with a weight marked
// constant gives the result of the unmarked one (1×1, 3×3, grouped, a
// batch, both float types), from several goroutines at once, and that
// after Unmark a changed weight is seen.
func TestPackedWeightCache(t *testing.T) {
	cases := []struct {
		name         string
		n, cin, cout int
		k, p, g      int
		dt           tensor.DType
	}{
		{"3x3", 1, 8, 16, 3, 1, 1, tensor.Float32},
		{"1x1", 1, 16, 8, 1, 0, 1, tensor.Float32},
		{"grouped batch", 3, 8, 12, 3, 1, 4, tensor.Float64},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x := randn(tc.dt, 5, tc.n, tc.cin, 9, 7)
			w := randn(tc.dt, 6, tc.cout, tc.cin/tc.g, tc.k, tc.k)
			args := func(w *tensor.Tensor) []any {
				return []any{x, w, nil, []int64{1}, []int64{int64(tc.p)}, []int64{1}, false, []int64{0}, int64(tc.g)}
			}
			want := optest.Tensor(t, "aten::convolution", args(w), nil)
			kernels.MarkConstant(w)
			var wg sync.WaitGroup
			got := make([]*tensor.Tensor, 4)
			for i := range got {
				wg.Add(1)
				go func() {
					defer wg.Done()
					got[i] = optest.Tensor(t, "aten::convolution", args(w), nil)
				}()
			}
			wg.Wait()
			for _, g := range got {
				requireClose(t, want, g, 1e-5)
			}
			// Unmark, then change the weight in place: the result follows.
			kernels.Unmark(w)
			if tc.dt == tensor.Float32 {
				v := tensor.Data[float32](w)
				for i := range v {
					v[i] *= 2
				}
			} else {
				v := tensor.Data[float64](w)
				for i := range v {
					v[i] *= 2
				}
			}
			want2 := optest.Tensor(t, "aten::convolution", args(w), nil)
			got2 := optest.Tensor(t, "aten::convolution", args(w), nil)
			requireClose(t, want2, got2, 1e-5)
			require.InDelta(t, 2*want.Float64s()[0], got2.Float64s()[0], 1e-4)
		})
	}
}
