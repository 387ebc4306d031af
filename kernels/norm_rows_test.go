package kernels

import (
	"fmt"
	"math"
	"testing"

	"github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// closeValues reports whether a and b hold the same shape and dtype and
// values within atol + rtol*|b| (NaN matching NaN, infinities equal).
func closeValues(a, b *tensor.Tensor, rtol, atol float64) error {
	if fmt.Sprint(a.Shape()) != fmt.Sprint(b.Shape()) || a.DType() != b.DType() {
		return fmt.Errorf("%v %v vs %v %v", a.DType(), a.Shape(), b.DType(), b.Shape())
	}
	x, y := a.Float64s(), b.Float64s()
	for i := range x {
		if math.IsNaN(x[i]) && math.IsNaN(y[i]) || x[i] == y[i] {
			continue
		}
		if math.IsNaN(x[i]) || math.IsNaN(y[i]) || math.Abs(x[i]-y[i]) > atol+rtol*math.Abs(y[i]) {
			return fmt.Errorf("element %d: %v vs %v", i, x[i], y[i])
		}
	}
	return nil
}

// callNamed calls the operator name with args.
func callNamed(t *testing.T, name string, args ...any) []any {
	t.Helper()
	o, ok := ops.Global().Lookup(name)
	if !ok {
		t.Fatalf("no operator %s", name)
	}
	out, err := o.Call(args, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// asF32 returns a float32 copy of t's values (NaN for nil).
func asF32(t *tensor.Tensor) *tensor.Tensor {
	if t == nil {
		return nil
	}
	return tensor.Must(tensor.FromFloat64s(tensor.Float32, t.Float64s(), t.Shape()...))
}

// TestFloat32RowsAgainstFloat64 checks the float32 row loops of
// layer_norm, group_norm, softmax, log_softmax, amax/amin, max.dim/min.dim
// and argmax/argmin, exp, sigmoid and silu against the same operators on
// the float64 copy of the input (the general float64 path, rounded to
// float32), on odd shapes, with the assembly and the portable loops.
func TestFloat32RowsAgainstFloat64(t *testing.T) {
	g := tensor.NewGenerator(21)
	randn := func(shape ...int) *tensor.Tensor {
		x := tensor.Must(g.Randn(tensor.Float64, shape...))
		v := x.Float64s()
		for i := range v {
			// Off-centre, and float32 values, so that both paths see the same input.
			v[i] = float64(float32(v[i]*3 + 0.5))
		}
		return tensor.Must(tensor.FromFloat64s(tensor.Float64, v, shape...))
	}
	type tc struct {
		name, op string
		args     []any // the float64 tensor arguments' positions are converted
		exact    bool  // float32 result must equal the float64 one rounded
	}
	var cases []tc
	for _, sh := range [][]int{{1, 7}, {3, 17}, {2, 5, 33}, {4, 768}, {0, 5}, {2, 1}} {
		n := sh[len(sh)-1]
		cases = append(cases,
			tc{fmt.Sprint("layer_norm", sh), "aten::native_layer_norm", []any{randn(sh...), []int64{int64(n)}, randn(n), randn(n), 1e-5}, false},
			tc{fmt.Sprint("layer_norm_noaffine", sh), "aten::native_layer_norm", []any{randn(sh...), []int64{int64(n)}, nil, nil, 1e-5}, false},
			tc{fmt.Sprint("layer_norm_weight", sh), "aten::native_layer_norm", []any{randn(sh...), []int64{int64(n)}, randn(n), nil, 1e-5}, false},
			tc{fmt.Sprint("softmax", sh), "aten::_softmax", []any{randn(sh...), int64(-1), false}, false},
			tc{fmt.Sprint("log_softmax", sh), "aten::_log_softmax", []any{randn(sh...), int64(-1), false}, false},
			tc{fmt.Sprint("exp", sh), "aten::exp.default", []any{randn(sh...)}, false},
			tc{fmt.Sprint("sigmoid", sh), "aten::sigmoid.default", []any{randn(sh...)}, false},
			tc{fmt.Sprint("silu", sh), "aten::silu.default", []any{randn(sh...)}, false},
		)
		if sh[0] > 0 {
			cases = append(cases,
				tc{fmt.Sprint("amax", sh), "aten::amax", []any{randn(sh...), []int64{-1}}, true},
				tc{fmt.Sprint("amin", sh), "aten::amin", []any{randn(sh...), []int64{-1}, true}, true},
				tc{fmt.Sprint("amax_dim0", sh), "aten::amax", []any{randn(sh...), []int64{0}}, true},
				tc{fmt.Sprint("max.dim", sh), "aten::max.dim", []any{randn(sh...), int64(-1)}, true},
				tc{fmt.Sprint("min.dim", sh), "aten::min.dim", []any{randn(sh...), int64(-1), true}, true},
				tc{fmt.Sprint("argmax", sh), "aten::argmax", []any{randn(sh...), int64(-1)}, true},
			)
		}
	}
	for _, gc := range []struct{ n, c, hw, g int }{{1, 6, 5, 3}, {2, 4, 49, 2}, {1, 8, 2, 4}, {2, 64, 17, 32}, {0, 4, 3, 2}} {
		x := randn(gc.n, gc.c, gc.hw)
		cases = append(cases,
			tc{fmt.Sprint("group_norm", gc), "aten::native_group_norm", []any{x, randn(gc.c), randn(gc.c), int64(gc.n), int64(gc.c), int64(gc.hw), int64(gc.g), 1e-5}, false},
			tc{fmt.Sprint("group_norm_noaffine", gc), "aten::native_group_norm", []any{x, nil, nil, int64(gc.n), int64(gc.c), int64(gc.hw), int64(gc.g), 1e-5}, false})
	}
	// A row with ties, NaN and infinities for the max/min family.
	tie := tensor.Must(tensor.FromFloat64s(tensor.Float64, []float64{1, 3, 3, -2, 0, math.Copysign(0, -1), 0, -5, math.NaN(), 2, math.NaN(), 1, math.Inf(1), 1, math.Inf(-1), 2, 2, 2}, 3, 6))
	for _, op := range []string{"aten::max.dim", "aten::min.dim", "aten::argmax", "aten::argmin"} {
		cases = append(cases, tc{op + "_ties", op, []any{tie, int64(1)}, true})
	}
	cases = append(cases, tc{"amax_ties", "aten::amax", []any{tie, []int64{1}}, true}, tc{"amin_ties", "aten::amin", []any{tie, []int64{1}}, true})
	for _, portable := range []bool{false, true} {
		restore := vec.SetPortable(portable)
		for _, c := range cases {
			want := callNamed(t, c.op, c.args...)
			args := make([]any, len(c.args))
			for i, a := range c.args {
				args[i] = a
				if x, ok := a.(*tensor.Tensor); ok {
					args[i] = asF32(x)
				}
			}
			got := callNamed(t, c.op, args...)
			for i := range want {
				w, gt := want[i].(*tensor.Tensor), got[i].(*tensor.Tensor)
				if w.DType() == tensor.Float64 {
					w = asF32(w)
				}
				var err error
				if c.exact {
					err = closeValues(gt, w, 0, 0)
				} else {
					// Four float32 ulp; 1e-6 absolute for values cancelling to 0.
					err = closeValues(gt, w, 4*0x1p-23, 1e-6)
				}
				if err != nil {
					t.Errorf("portable=%v %s output %d: %v", portable, c.name, i, err)
				}
			}
		}
		restore()
	}
}
