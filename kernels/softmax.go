package kernels

import (
	"math"

	"github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Softmax, ATen's SoftMax.cpp: _softmax, _log_softmax and the composites
// softmax.int and log_softmax.int.

// registerSoftmax registers the kernels of softmax.go.
func registerSoftmax() {
	registerBoth("aten::_softmax", softmaxPrivate)
	registerBoth("aten::_log_softmax", logSoftmaxPrivate)
	registerBoth("aten::softmax.int", softmaxInt)
	registerBoth("aten::log_softmax.int", logSoftmaxInt)
}

// softmax computes softmax (log-softmax when log) of x along dim in x's
// dtype, which must be float32, float64 or bfloat16 unless x is empty, as
// on ATen's CPU. arg names the argument whose dtype is to blame.
func softmax(c *ops.Call, x *tensor.Tensor, dim int64, log bool, arg string) ([]any, error) {
	d, err := wrapReduceDim(c, "dim", dim, x.Dim())
	if err != nil {
		return nil, err
	}
	dt := x.DType()
	if x.Numel() == 0 {
		return one(tensor.Must(empty(x.IsMeta(), dt, x.Shape()))), nil
	}
	if dt != tensor.Float32 && dt != tensor.Float64 && dt != tensor.BFloat16 {
		kernel := "softmax_kernel_impl"
		if x.Dim() == 0 || d == x.Dim()-1 {
			kernel = "softmax_lastdim_kernel_impl"
			if log {
				kernel = "log_softmax_lastdim_kernel_impl"
			}
		}
		return nil, notImplemented(c, arg, kernel, dt)
	}
	if x.IsMeta() {
		return one(x.Meta()), nil
	}
	if out, ok := softmaxRows(x, d, log); ok {
		return one(out), nil
	}
	p, perm, outer, inner := moveLast(x, singleMask(x.Dim(), d))
	vals := p.Float64s()
	out := make([]float64, len(vals))
	forRows(outer, inner, func(r int) {
		row := vals[r*inner : (r+1)*inner]
		o := out[r*inner : (r+1)*inner]
		m := math.Inf(-1)
		for _, v := range row {
			if v > m {
				m = v
			}
		}
		var s float64
		for i, v := range row {
			e := math.Exp(v - m)
			o[i] = e
			s += e
		}
		if log {
			ls := math.Log(s)
			for i, v := range row {
				o[i] = v - m - ls
			}
			return
		}
		for i := range o {
			o[i] /= s
		}
	})
	res := tensor.Must(tensor.FromFloat64s(dt, out, p.Shape()...))
	return one(tensor.Must(res.Permute(inverse(perm)...)).Contiguous()), nil
}

// halfToFloat rejects half_to_float=True, which ATen's CPU kernels do
// not support.
func halfToFloat(c *ops.Call, name string) error {
	if c.Bool("half_to_float") {
		return c.Errorf("half_to_float", "%s with half to float conversion is not supported on CPU", name)
	}
	return nil
}

// softmaxPrivate is aten::_softmax.
func softmaxPrivate(c *ops.Call) ([]any, error) {
	if err := halfToFloat(c, "softmax"); err != nil {
		return nil, err
	}
	return softmax(c, c.Tensor("self"), c.Int("dim"), false, "self")
}

// logSoftmaxPrivate is aten::_log_softmax.
func logSoftmaxPrivate(c *ops.Call) ([]any, error) {
	if err := halfToFloat(c, "log_softmax"); err != nil {
		return nil, err
	}
	return softmax(c, c.Tensor("self"), c.Int("dim"), true, "self")
}

// softmaxDType converts self to the dtype argument when given, as
// softmax.int and log_softmax.int do before calling the kernel.
func softmaxDType(c *ops.Call) (*tensor.Tensor, string) {
	self := c.Tensor("self")
	if dt, ok := c.DType("dtype"); ok {
		return to(self, dt), "dtype"
	}
	return self, "self"
}

// softmaxInt is aten::softmax.int.
func softmaxInt(c *ops.Call) ([]any, error) {
	x, arg := softmaxDType(c)
	return softmax(c, x, c.Int("dim"), false, arg)
}

// logSoftmaxInt is aten::log_softmax.int.
func logSoftmaxInt(c *ops.Call) ([]any, error) {
	x, arg := softmaxDType(c)
	return softmax(c, x, c.Int("dim"), true, arg)
}

// softmaxRows is softmax's fast path for a contiguous float32 or float64
// x whose dim d is its last (size-1 dims aside): typed loops over the
// rows, in place, with no float64 copy of x nor transposition. A float64
// row is computed with softmax's float64 steps in the same order, so the
// results are the same bit for bit; a float32 row in float32
// (softmaxRowsF32). ok is false (nothing done) for other inputs.
func softmaxRows(x *tensor.Tensor, d int, log bool) (*tensor.Tensor, bool) {
	dt := x.DType()
	if (dt != tensor.Float32 && dt != tensor.Float64) || !x.IsContiguous() || x.Dim() == 0 || x.Numel() == 0 {
		return nil, false
	}
	shape := x.Shape()
	for _, s := range shape[d+1:] {
		if s != 1 {
			return nil, false
		}
	}
	n := shape[d]
	out := tensor.EmptyUninit(dt, shape...) // every element is written
	if dt == tensor.Float64 {
		softmaxRowsT(tensor.Values[float64](x), tensor.Values[float64](out), n, log)
	} else {
		softmaxRowsF32(tensor.Values[float32](x), tensor.Values[float32](out), n, log)
	}
	return out, true
}

// softmaxRowsF32 is softmaxRowsT for float32 in float32, as ATen's
// vectorised kernels (_vec_softmax_lastdim, _vec_log_softmax_lastdim)
// compute it: the row's max m, then e = exp(x - m) with vec.Exp's steps,
// then e * (1/sum e), or (x - m) - log(sum e); the sums accumulate in
// float64. Three passes over a row: vec.Max; vec.SubExpSum, which writes
// e while summing it (log_softmax: sums it without writing); and the
// scale (vec.BinaryScalar) or vec.SubSub.
func softmaxRowsF32(in, out []float32, n int, log bool) {
	outer := len(in) / n
	parallelFor(outer*n, func(lo, hi int) {
		for r := (lo + n - 1) / n; r*n < hi && r < outer; r++ {
			row, o := in[r*n:(r+1)*n], out[r*n:(r+1)*n]
			m := vec.Max(row)
			if log {
				vec.SubSub(o, row, m, float32(math.Log(vec.SubExpSum(nil, row, m))))
				continue
			}
			vec.BinaryScalar(vec.Mul, o, o, float32(1/vec.SubExpSum(o, row, m)))
		}
	})
}

func softmaxRowsT[T float32 | float64](in, out []T, n int, log bool) {
	outer := len(in) / n
	parallelFor(outer*n, func(lo, hi int) {
		var e []float64
		if !log {
			e = make([]float64, n)
		}
		for r := (lo + n - 1) / n; r*n < hi && r < outer; r++ {
			row, o := in[r*n:(r+1)*n], out[r*n:(r+1)*n]
			m := math.Inf(-1)
			for _, v := range row {
				if float64(v) > m {
					m = float64(v)
				}
			}
			var s float64
			if log {
				for _, v := range row {
					s += math.Exp(float64(v) - m)
				}
				ls := math.Log(s)
				for i, v := range row {
					o[i] = T(float64(v) - m - ls)
				}
				continue
			}
			for i, v := range row {
				x := math.Exp(float64(v) - m)
				e[i] = x
				s += x
			}
			for i, x := range e {
				o[i] = T(x / s)
			}
		}
	})
}
