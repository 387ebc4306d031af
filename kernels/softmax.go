package kernels

import (
	"math"
	"runtime"

	workpool "github.com/gofx/gofx/internal/parallel"
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
	if out, ok := softmaxCols(x, d, log); ok {
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

// softmaxColsBlock is the number of columns softmaxColsF32 takes at a
// time: the max, the sums and a row of exponentials of a block stay in
// the first-level cache while every row of the dim is read.
const softmaxColsBlock = 256

// softmaxColsMin is the fewest columns (the product of the dims after
// d) softmaxCols takes: below it the vector loops' tails dominate.
const softmaxColsMin = 16

// softmaxCols is softmax's fast path for a contiguous float32 x along a
// dim d followed by at least softmaxColsMin elements (the product of the
// dims after d): x is [outer, n, inner] and softmaxColsF32 computes
// softmax down its columns with vector loops across them, with no
// transposition nor float64 copy. ok is false (nothing done) for other
// inputs.
func softmaxCols(x *tensor.Tensor, d int, log bool) (*tensor.Tensor, bool) {
	if x.DType() != tensor.Float32 || !x.IsContiguous() || x.Dim() == 0 || x.Numel() == 0 {
		return nil, false
	}
	shape := x.Shape()
	inner := 1
	for _, s := range shape[d+1:] {
		inner *= s
	}
	if inner < softmaxColsMin {
		return nil, false
	}
	n := shape[d]
	out := tensor.EmptyUninit(tensor.Float32, shape...) // every element is written
	softmaxColsF32(tensor.Values[float32](x), tensor.Values[float32](out), n, inner, log)
	return out, true
}

// softmaxColsF32 computes softmax (log-softmax when log) of in, viewed as
// [outer, n, inner], along its middle dim, as ATen's _vec_softmax and
// _vec_log_softmax do for a dim other than the last: per column, the max
// m over the dim, e = exp(x - m), then e * (1/sum e) or (x - m) - log(sum
// e), with softmaxRowsF32's roundings (each difference rounded to
// float32, vec.Exp's steps, the sums in float64). Columns are taken in
// blocks of at most softmaxColsBlock (fewer when that gives the workers
// too few blocks), each block in three passes down the dim: vec.MaxFold;
// vec.SubExpAcc, writing e to out (log_softmax: to a scratch row) while
// adding it to float64 sums; then the scale, or the two subtractions
// (vec.SubSubV).
func softmaxColsF32(in, out []float32, n, inner int, log bool) {
	outer := len(in) / (n * inner)
	if p := runtime.GOMAXPROCS(0); p > 1 && outer == 1 && inner <= softmaxColsBlock && n >= 8*p && len(in) >= parallelThreshold {
		softmaxColsSplit(in, out, n, inner, log, p)
		return
	}
	block := softmaxColsBlock
	if p := runtime.GOMAXPROCS(0); outer*((inner+block-1)/block) < p && len(in) >= parallelThreshold {
		// Split the columns among the workers, in whole vectors.
		block = max(softmaxColsMin, (inner/p+softmaxColsMin-1)&^(softmaxColsMin-1))
	}
	blocks := (inner + block - 1) / block
	tasks := outer * blocks
	parallelFor(len(in), func(lo, hi int) {
		m := make([]float32, block)
		f := make([]float32, block) // 1/sum, or log(sum)
		acc := make([]float64, block)
		var e []float32
		if log {
			e = make([]float32, block)
		}
		for t := range tasks {
			// Task t belongs to the chunk holding element t*(len/tasks).
			if at := t * (len(in) / tasks); at < lo || at >= hi {
				continue
			}
			o, b := t/blocks, t%blocks
			c0 := b * block
			w := min(block, inner-c0)
			base := o*n*inner + c0
			col := func(s []float32, k int) []float32 { return s[base+k*inner : base+k*inner+w] }
			m, f, acc := m[:w], f[:w], acc[:w]
			copy(m, col(in, 0))
			for k := 1; k < n; k++ {
				vec.MaxFold(m, col(in, k))
			}
			clear(acc)
			for k := range n {
				dst := col(out, k)
				if log {
					dst = e[:w]
				}
				vec.SubExpAcc(dst, col(in, k), m, acc)
			}
			if log {
				for i, s := range acc {
					f[i] = float32(math.Log(s))
				}
				for k := range n {
					vec.SubSubV(col(out, k), col(in, k), m, f)
				}
				continue
			}
			for i, s := range acc {
				f[i] = float32(1 / s)
			}
			for k := range n {
				dst := col(out, k)
				vec.Binary(vec.Mul, dst, dst, f)
			}
		}
	})
}

// softmaxColsSplit is softmaxColsF32 for one block of columns ([n,
// inner], inner ≤ softmaxColsBlock) split among p workers by rows, not by
// columns: each pass takes whole rows (a [1024, 64] input split by
// columns made 32-wide vector calls, twice as many as whole rows, and
// the calls' setup dominated). The workers' maxima and float64 sums are
// combined between the passes, the sums in worker order.
func softmaxColsSplit(in, out []float32, n, inner int, log bool, p int) {
	row := func(s []float32, k int) []float32 { return s[k*inner : (k+1)*inner] }
	ms := make([]float32, p*inner)
	accs := make([]float64, p*inner)
	workpool.Do(p, func(w int) {
		lo, hi := n*w/p, n*(w+1)/p
		m := ms[w*inner : (w+1)*inner]
		copy(m, row(in, lo))
		for k := lo + 1; k < hi; k++ {
			vec.MaxFold(m, row(in, k))
		}
	})
	m := ms[:inner]
	for w := 1; w < p; w++ {
		vec.MaxFold(m, ms[w*inner:(w+1)*inner])
	}
	workpool.Do(p, func(w int) {
		lo, hi := n*w/p, n*(w+1)/p
		acc := accs[w*inner : (w+1)*inner]
		var e []float32
		if log {
			e = make([]float32, inner)
		}
		for k := lo; k < hi; k++ {
			dst := row(out, k)
			if log {
				dst = e
			}
			vec.SubExpAcc(dst, row(in, k), m, acc)
		}
	})
	acc := accs[:inner]
	for w := 1; w < p; w++ {
		for i, v := range accs[w*inner : (w+1)*inner] {
			acc[i] += v
		}
	}
	f := make([]float32, inner) // 1/sum, or log(sum)
	for i, s := range acc {
		if log {
			f[i] = float32(math.Log(s))
		} else {
			f[i] = float32(1 / s)
		}
	}
	workpool.Do(p, func(w int) {
		lo, hi := n*w/p, n*(w+1)/p
		for k := lo; k < hi; k++ {
			if log {
				vec.SubSubV(row(out, k), row(in, k), m, f)
			} else {
				dst := row(out, k)
				vec.Binary(vec.Mul, dst, dst, f)
			}
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
