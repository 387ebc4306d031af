package kernels

import (
	"fmt"
	"math"
	"testing"

	"github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// runOperand builds an operand of a differential test: a random tensor
// of dtype dt made non-contiguous or offset as kind says.
func runOperand(g *tensor.Generator, dt tensor.DType, shape []int, kind string) *tensor.Tensor {
	switch kind {
	case "transposed":
		if len(shape) >= 2 {
			s := append([]int{}, shape...)
			s[0], s[1] = s[1], s[0]
			t := tensor.Must(g.Randn(dt, s...))
			return tensor.Must(t.Transpose(0, 1))
		}
	case "sliced":
		if len(shape) == 0 {
			break
		}
		s := append([]int{}, shape...)
		s[len(s)-1] = 2*s[len(s)-1] + 1
		t := tensor.Must(g.Randn(dt, s...))
		return tensor.Must(t.Slice(len(s)-1, 1, s[len(s)-1], 2))
	}
	t := tensor.Must(g.Randn(dt, shape...))
	if kind == "special" && t.Numel() > 0 {
		v := t.Float64s()
		sp := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 1e-42}
		for i := range v {
			if i%3 == 0 {
				v[i] = sp[i%len(sp)]
			}
		}
		t = tensor.Must(tensor.FromFloat64s(dt, v, shape...))
	}
	return t
}

// sameValues reports whether a and b hold the same values and shape, any
// NaN matching any NaN.
func sameValues(a, b *tensor.Tensor) error {
	if fmt.Sprint(a.Shape()) != fmt.Sprint(b.Shape()) || a.DType() != b.DType() {
		return fmt.Errorf("%v %v vs %v %v", a.DType(), a.Shape(), b.DType(), b.Shape())
	}
	x, y := a.Float64s(), b.Float64s()
	for i := range x {
		if math.IsNaN(x[i]) && math.IsNaN(y[i]) {
			continue
		}
		if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
			return fmt.Errorf("element %d: %v vs %v", i, x[i], y[i])
		}
	}
	return nil
}

// TestBinaryRunsAgainstGeneral compares the run loops with the general
// per-element path (mapBinary, computing in float64 and rounding once) on
// broadcast, transposed, sliced, 0-d, empty and large operands, with the
// assembly and the portable vector loops.
func TestBinaryRunsAgainstGeneral(t *testing.T) {
	shapes := [][2][]int{
		{{7}, {7}}, {{3, 1, 5}, {1, 4, 5}}, {{4, 5}, {5}}, {{4, 5}, {4, 1}}, {{}, {6, 3}},
		{{6, 3}, {}}, {{0, 3}, {3}}, {{2, 3, 4, 5}, {2, 1, 4, 1}}, {{300, 257}, {257}},
		{{300, 257}, {300, 1}}, {{1, 257}, {300, 1}}, {{70000}, {70000}}, {{9, 9}, {9, 9}},
	}
	kinds := []string{"plain", "transposed", "sliced", "special"}
	fns := map[vec.Op]floatFn2{
		vec.Add: func(x, y float64) float64 { return x + y },
		vec.Sub: func(x, y float64) float64 { return x - y },
		vec.Mul: func(x, y float64) float64 { return x * y },
		vec.Div: func(x, y float64) float64 { return x / y },
	}
	g := tensor.NewGenerator(7)
	for _, portable := range []bool{false, true} {
		restore := vec.SetPortable(portable)
		for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
			for _, sh := range shapes {
				for _, ka := range kinds {
					for _, kb := range kinds {
						a := runOperand(g, dt, sh[0], ka)
						b := runOperand(g, dt, sh[1], kb)
						shape, err := ops.BroadcastShapes(a.Shape(), b.Shape())
						if err != nil {
							t.Fatal(err)
						}
						for op, f := range fns {
							got := binaryRuns(op, a, b, shape, dt)
							want := mapBinary(a, b, shape, dt, f, nil)
							if err := sameValues(got, want); err != nil {
								t.Errorf("portable=%v %v op %d %v(%s) %v(%s): %v", portable, dt, op, sh[0], ka, sh[1], kb, err)
							}
						}
					}
				}
			}
		}
		restore()
	}
}

// TestClampRunsAgainstGeneral compares relu and clamp over runs with
// clampFloat per element.
func TestClampRunsAgainstGeneral(t *testing.T) {
	g := tensor.NewGenerator(8)
	for _, portable := range []bool{false, true} {
		restore := vec.SetPortable(portable)
		for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
			for _, shape := range [][]int{{}, {0}, {13}, {5, 7}, {3, 40000}} {
				for _, kind := range []string{"plain", "transposed", "sliced", "special"} {
					x := runOperand(g, dt, shape, kind)
					got, _ := clampRuns(x, false, -0.5, 0.75)
					want := mapUnary(x, dt, func(v float64) float64 { return clampFloat(v, -0.5, 0.75) }, nil)
					if err := sameValues(got, want); err != nil {
						t.Errorf("portable=%v clamp %v %v %s: %v", portable, dt, shape, kind, err)
					}
					got, _ = clampRuns(x, true, 0, 0)
					want = mapUnary(x, dt, func(v float64) float64 {
						if v < 0 {
							return 0
						}
						return v
					}, nil)
					if err := sameValues(got, want); err != nil {
						t.Errorf("portable=%v relu %v %v %s: %v", portable, dt, shape, kind, err)
					}
				}
			}
		}
		restore()
	}
}

// TestSumBlockAgainstGeneral compares the in-place block sums with the
// general path (moveLast, then sumF64 over float64 copies): float64
// results agree to rounding of the compensated sums, float32 results
// (summed in plain float64) to one float32 ulp.
func TestSumBlockAgainstGeneral(t *testing.T) {
	g := tensor.NewGenerator(9)
	cases := []struct {
		shape []int
		mask  []bool
	}{
		{[]int{5, 7}, []bool{false, true}}, {[]int{5, 7}, []bool{true, false}},
		{[]int{3, 4, 5}, []bool{false, true, false}}, {[]int{3, 1, 4, 5}, []bool{false, false, true, true}},
		{[]int{2, 3, 4}, []bool{true, true, true}}, {[]int{300, 300}, []bool{false, true}},
		{[]int{300, 300}, []bool{true, false}}, {[]int{6}, []bool{true}},
	}
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
		for _, tc := range cases {
			x := runOperand(g, dt, tc.shape, "plain")
			got, ok := sumFloatBlock(x, tc.mask)
			if !ok {
				t.Fatalf("%v %v: no block", tc.shape, tc.mask)
			}
			p, _, outer, inner := moveLast(x, tc.mask)
			vals := p.Float64s()
			for r := range outer {
				want := sumF64(vals[r*inner : (r+1)*inner])
				g := got[r]
				tol := 1e-12 * math.Abs(want)
				if dt == tensor.Float32 {
					g, want = float64(float32(g)), float64(float32(want))
					tol = float64(math.Nextafter32(float32(math.Abs(want)), float32(math.Inf(1))) - float32(math.Abs(want)))
				}
				if math.Abs(g-want) > tol {
					t.Errorf("%v %v %v row %d: %v, want %v", dt, tc.shape, tc.mask, r, g, want)
				}
			}
		}
	}
	if _, ok := sumFloatBlock(runOperand(g, tensor.Float32, []int{3, 4, 5}, "plain"), []bool{true, false, true}); ok {
		t.Error("a reduction with a kept dim between reduced ones took the block path")
	}
}

// TestSoftmaxRowsAgainstGeneral checks that the row path gives the
// general path's results: bit for bit for float64, within 4 ulp (and
// 1e-7 absolute) for float32, which the row path computes in float32.
func TestSoftmaxRowsAgainstGeneral(t *testing.T) {
	g := tensor.NewGenerator(10)
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
		for _, shape := range [][]int{{7}, {3, 5}, {4, 1}, {2, 3, 1}, {70, 1000}, {5, 33}} {
			for _, log := range []bool{false, true} {
				kind := "special"
				if shape[len(shape)-1] == 33 {
					kind = "plain"
				}
				x := runOperand(g, dt, shape, kind)
				d := len(shape) - 1
				if shape[d] == 1 {
					d--
				}
				got, ok := softmaxRows(x, d, log)
				if !ok {
					t.Fatalf("%v dim %d: no row path", shape, d)
				}
				// The general path: the same math on float64 copies.
				want := mapRowsSoftmax(x, d, log)
				check := sameValues
				if dt == tensor.Float32 {
					check = func(a, b *tensor.Tensor) error { return closeValues(a, b, 4*0x1p-23, 1e-7) }
				}
				if err := check(got, want); err != nil {
					t.Errorf("%v %v log=%v: %v", dt, shape, log, err)
				}
			}
		}
	}
}

// mapRowsSoftmax is softmax's general path (moveLast and float64 rows),
// reached by hiding the row path: it runs on a transposed copy's view.
func mapRowsSoftmax(x *tensor.Tensor, d int, log bool) *tensor.Tensor {
	// A non-contiguous view of the same values makes softmaxRows decline.
	shape := x.Shape()
	vals := x.Float64s()
	twice := make([]float64, 2*len(vals))
	for i, f := range vals {
		twice[2*i] = f
	}
	big := tensor.Must(tensor.FromFloat64s(x.DType(), twice, append(shape, 2)...))
	v := tensor.Must(big.Select(len(shape), 0))
	res, err := softmax(nil, v, int64(d), log, "self")
	if err != nil {
		panic(err)
	}
	return res[0].(*tensor.Tensor)
}
