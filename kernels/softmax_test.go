package kernels

import (
	"fmt"
	"testing"

	"github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/tensor"
)

// TestSoftmaxColsAgainstGeneral checks softmax's float32 path along a dim
// other than the last (softmaxCols) against the general float64 path,
// within 4 float32 ulp (and 1e-7 absolute), on column counts below,
// at and across softmaxColsBlock with odd tails, with NaN, infinities and
// subnormals among the values, with the rows split among workers, with
// the assembly and the portable loops.
func TestSoftmaxColsAgainstGeneral(t *testing.T) {
	g := tensor.NewGenerator(17)
	cases := []struct {
		shape []int
		dim   int
	}{
		{[]int{3, 20}, 0},
		{[]int{2, 5, 17}, 1},
		{[]int{1, 7, 16}, 1},
		{[]int{2, 3, 4, 5}, 1},
		{[]int{4, 3, 300}, 1},
		{[]int{4, 3, 300}, 0},
		{[]int{2, 9, 2, 256}, 1},
		{[]int{1, 1, 40}, 1},
		{[]int{5, 600}, 0},
		// One block of columns: the rows split among the workers
		// (softmaxColsSplit).
		{[]int{1024, 64}, 0},
		{[]int{1000, 40}, 0},
	}
	for _, portable := range []bool{false, true} {
		restore := vec.SetPortable(portable)
		for _, c := range cases {
			for _, kind := range []string{"plain", "special"} {
				for _, log := range []bool{false, true} {
					name := fmt.Sprintf("portable=%v %v dim %d %s log=%v", portable, c.shape, c.dim, kind, log)
					x := runOperand(g, tensor.Float32, c.shape, kind)
					got, ok := softmaxCols(x, c.dim, log)
					if !ok {
						t.Fatalf("%s: no column path", name)
					}
					want := mapRowsSoftmax(x, c.dim, log)
					if err := closeValues(got, want, 4*0x1p-23, 1e-7); err != nil {
						t.Errorf("%s: %v", name, err)
					}
				}
			}
		}
		restore()
	}
	// The paths it leaves to others: the last dim, few columns, float64,
	// non-contiguous.
	x := runOperand(g, tensor.Float32, []int{4, 3, 5}, "plain")
	for _, d := range []int{1, 2} {
		if _, ok := softmaxCols(x, d, false); ok {
			t.Errorf("%v dim %d (%d columns) took the column path", x.Shape(), d, 5)
		}
	}
	if _, ok := softmaxCols(runOperand(g, tensor.Float64, []int{3, 20}, "plain"), 0, false); ok {
		t.Error("float64 took the column path")
	}
	if _, ok := softmaxCols(runOperand(g, tensor.Float32, []int{20, 30}, "transposed"), 0, false); ok {
		t.Error("a transposed input took the column path")
	}
}
