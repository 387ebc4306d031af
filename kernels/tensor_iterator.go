package kernels

import (
	"math"
	"slices"

	"github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Elementwise machinery, the role of ATen's TensorIterator: broadcasting,
// mapping and the layout of inner loops. Math is written once per
// category: a float64 function for floating dtypes (its result rounded to
// the dtype) and an int64 function for integral ones (wrapped to the
// dtype); bool inputs use the integer function with 0 and 1 and store
// nonzero as true.

// innerRun returns the length of TensorIterator's inner loop over the
// broadcast shape of inputs of shapes ins, all contiguous: the trailing
// dims, size-1 dims aside, along which every input stays either broadcast
// (stride 0) or not, so that TensorIterator coalesces them; and whether
// each input is broadcast along it.
func innerRun(shape []int, ins ...[]int) (int, []bool) {
	d := len(shape)
	bc := make([]bool, len(ins))
	bcast := func(s []int, i int) bool {
		j := i - (d - len(s))
		return j < 0 || s[j] == 1
	}
	n, started := 1, false
	for i := d - 1; i >= 0; i-- {
		if shape[i] == 1 {
			continue
		}
		same := true
		for t, s := range ins {
			if !started {
				bc[t] = bcast(s, i)
			} else if bcast(s, i) != bc[t] {
				same = false
			}
		}
		if !same {
			break
		}
		started = true
		n *= shape[i]
	}
	if !started {
		for t := range bc {
			bc[t] = true
		}
	}
	return max(n, 1), bc
}

// vecWidth returns the number of dt elements ATen's vectorized loops
// process at a time: two AVX2 vectors.
func vecWidth(dt tensor.DType) int { return 64 / dt.Size() }

// vecRegion returns whether the element at a flat output index falls in
// the part of each inner loop that ATen's explicitly vectorized code
// computes (whole chunks of vecWidth elements); the rest of the loop
// runs the scalar code.
func vecRegion(dt tensor.DType, shape []int, ins ...[]int) func(k int) bool {
	n, _ := innerRun(shape, ins...)
	w := vecWidth(dt)
	nv := n / w * w
	return func(k int) bool { return k%n < nv }
}

// mapIndexed returns f(k, x, y) over a and b (of dtype dt) broadcast to
// shape, k being the flat output index; f's results are rounded to dt.
func mapIndexed(a, b *tensor.Tensor, shape []int, dt tensor.DType, f func(k int, x, y float64) float64) *tensor.Tensor {
	av := expandedTensor(a, shape).Float64s()
	bv := expandedTensor(b, shape).Float64s()
	out := make([]float64, len(av))
	parallelFor(len(out), func(lo, hi int) {
		for k := lo; k < hi; k++ {
			out[k] = f(k, av[k], bv[k])
		}
	})
	return tensor.Must(tensor.FromFloat64s(dt, out, shape...))
}

// floatFn1 and intFn1 are unary element functions; floatFn2 and intFn2
// binary ones.
type (
	floatFn1 func(float64) float64
	intFn1   func(int64) int64
	floatFn2 func(x, y float64) float64
	intFn2   func(x, y int64) int64
)

// mapUnary returns f applied to every element of x converted to dt (the
// compute and output dtype). fi may be nil when dt is floating.
func mapUnary(x *tensor.Tensor, dt tensor.DType, ff floatFn1, fi intFn1) *tensor.Tensor {
	if x.IsMeta() {
		return tensor.Must(tensor.NewMeta(dt, x.Shape()...))
	}
	ct := computeType(dt)
	x = to(x, ct)
	var out *tensor.Tensor
	switch ct {
	case tensor.Float32:
		out = map1(x, func(v float32) float32 { return float32(ff(float64(v))) })
	case tensor.Float64:
		out = map1(x, ff)
	case tensor.Int64:
		out = map1(x, fi)
	case tensor.Int32:
		out = map1(x, func(v int32) int32 { return int32(fi(int64(v))) })
	case tensor.Int16:
		out = map1(x, func(v int16) int16 { return int16(fi(int64(v))) })
	case tensor.Int8:
		out = map1(x, func(v int8) int8 { return int8(fi(int64(v))) })
	case tensor.Uint8:
		out = map1(x, func(v uint8) uint8 { return uint8(fi(int64(v))) })
	case tensor.Bool:
		out = map1(x, func(v bool) bool { return fi(b2i(v)) != 0 })
	}
	return to(out, dt)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func map1[T tensor.Elem](x *tensor.Tensor, f func(T) T) *tensor.Tensor {
	in := tensor.Values[T](x)
	out := tensor.EmptyUninit(x.DType(), x.Shape()...)
	o := tensor.Data[T](out)
	parallelFor(len(in), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			o[i] = f(in[i])
		}
	})
	return out
}

// broadcast returns the broadcast shape of a and b, or an error blaming
// argument name.
func broadcast(c *ops.Call, name string, a, b *tensor.Tensor) ([]int, error) {
	s, err := ops.BroadcastShapes(a.Shape(), b.Shape())
	if err != nil {
		return nil, c.Errorf(name, "%v", err)
	}
	return s, nil
}

// mapBinary returns f over a and b broadcast to shape, both converted to dt
// (the compute and output dtype).
func mapBinary(a, b *tensor.Tensor, shape []int, dt tensor.DType, ff floatFn2, fi intFn2) *tensor.Tensor {
	if a.IsMeta() || b.IsMeta() {
		return tensor.Must(tensor.NewMeta(dt, shape...))
	}
	ct := computeType(dt)
	a, b = to(a, ct), to(b, ct)
	var out *tensor.Tensor
	switch ct {
	case tensor.Float32:
		out = map2(a, b, shape, func(x, y float32) float32 { return float32(ff(float64(x), float64(y))) })
	case tensor.Float64:
		out = map2(a, b, shape, ff)
	case tensor.Int64:
		out = map2(a, b, shape, fi)
	case tensor.Int32:
		out = map2(a, b, shape, func(x, y int32) int32 { return int32(fi(int64(x), int64(y))) })
	case tensor.Int16:
		out = map2(a, b, shape, func(x, y int16) int16 { return int16(fi(int64(x), int64(y))) })
	case tensor.Int8:
		out = map2(a, b, shape, func(x, y int8) int8 { return int8(fi(int64(x), int64(y))) })
	case tensor.Uint8:
		out = map2(a, b, shape, func(x, y uint8) uint8 { return uint8(fi(int64(x), int64(y))) })
	case tensor.Bool:
		out = map2(a, b, shape, func(x, y bool) bool { return fi(b2i(x), b2i(y)) != 0 })
	}
	return to(out, dt)
}

// operands returns the elements of a and b broadcast to shape, without
// copying when they already have that shape and are contiguous.
func operands[T tensor.Elem](a, b *tensor.Tensor, shape []int) ([]T, []T) {
	return expandedValues[T](a, shape), expandedValues[T](b, shape)
}

// expandedValues returns t's elements broadcast to shape, in row-major
// order.
func expandedValues[T tensor.Elem](t *tensor.Tensor, shape []int) []T {
	if !slices.Equal(t.Shape(), shape) {
		t = tensor.Must(t.Expand(shape...))
	}
	return tensor.Values[T](t)
}

func map2[T tensor.Elem](a, b *tensor.Tensor, shape []int, f func(x, y T) T) *tensor.Tensor {
	av, bv := operands[T](a, b, shape)
	out := tensor.EmptyUninit(a.DType(), shape...)
	o := tensor.Data[T](out)
	parallelFor(len(o), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			o[i] = f(av[i], bv[i])
		}
	})
	return out
}

// compareBinary returns the bool tensor of f over a and b broadcast to
// shape and converted to the compute dtype ct.
func compareBinary(a, b *tensor.Tensor, shape []int, ct tensor.DType, ff func(x, y float64) bool, fi func(x, y int64) bool) *tensor.Tensor {
	if a.IsMeta() || b.IsMeta() {
		return tensor.Must(tensor.NewMeta(tensor.Bool, shape...))
	}
	out := tensor.Empty(tensor.Bool, shape...)
	o := tensor.Data[bool](out)
	if ct.IsFloat() {
		a, b = to(a, ct), to(b, ct)
		av := expandedTensor(a, shape).Float64s()
		bv := expandedTensor(b, shape).Float64s()
		parallelFor(len(o), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				o[i] = ff(av[i], bv[i])
			}
		})
		return out
	}
	a, b = to(a, ct), to(b, ct)
	av := expandedTensor(a, shape).Int64s()
	bv := expandedTensor(b, shape).Int64s()
	parallelFor(len(o), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			o[i] = fi(av[i], bv[i])
		}
	})
	return out
}

func expandedTensor(t *tensor.Tensor, shape []int) *tensor.Tensor {
	if slices.Equal(t.Shape(), shape) {
		return t
	}
	return tensor.Must(t.Expand(shape...))
}

// map3 returns ff (floating dt) or fi (integral and bool dt) over a, b
// and c, all of dtype dt, broadcast to shape; float16 and bfloat16 results
// are rounded from float64 once.
func map3(a, b, c *tensor.Tensor, shape []int, dt tensor.DType, ff func(x, y, z float64) float64, fi func(x, y, z int64) int64) *tensor.Tensor {
	if dt.IsFloat() {
		av := expandedTensor(a, shape).Float64s()
		bv := expandedTensor(b, shape).Float64s()
		cv := expandedTensor(c, shape).Float64s()
		out := make([]float64, len(av))
		parallelFor(len(out), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				out[i] = ff(av[i], bv[i], cv[i])
			}
		})
		return tensor.Must(tensor.FromFloat64s(dt, out, shape...))
	}
	av := expandedTensor(a, shape).Int64s()
	bv := expandedTensor(b, shape).Int64s()
	cv := expandedTensor(c, shape).Int64s()
	out := make([]int64, len(av))
	parallelFor(len(out), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = fi(av[i], bv[i], cv[i])
		}
	})
	return tensor.Must(tensor.FromInt64s(dt, out, shape...))
}

// Typed elementwise loops over runs, the fast path of the float32 and
// float64 binary ops (add, sub, mul, div) and of relu and hardtanh. As
// ATen's TensorIterator does, the broadcast iteration space is coalesced:
// size-1 dims are dropped and neighbours merged wherever every operand
// steps through them as through one dim, so that the inner loop runs over
// the longest run along which each operand is contiguous (stride 1),
// constant (stride 0, broadcast) or strided. The inner loop is one call to
// internal/vec (AVX2 where the CPU has it) or a typed Go loop: no closure
// or conversion per element. Large outputs are split over the cores with
// parallelFor, chunk boundaries falling anywhere in a run.

// runPlan is the coalesced iteration of an output of some shape over its
// operands: outer dims (row-major) times an inner run of n elements.
type runPlan struct {
	n     int     // inner run length
	outer []int   // sizes of the outer dims, outermost first
	st    [][]int // per operand: strides of the outer dims
	inner []int   // per operand: stride along the inner run
	base  []int   // per operand: storage offset of the first element
}

// planRuns returns the coalesced iteration of a contiguous output of shape
// over ts, each broadcastable to shape.
func planRuns(shape []int, ts ...*tensor.Tensor) runPlan {
	d := len(shape)
	// Each operand's strides aligned to shape, 0 where it broadcasts.
	full := make([][]int, len(ts))
	p := runPlan{base: make([]int, len(ts)), inner: make([]int, len(ts)), st: make([][]int, len(ts))}
	for k, t := range ts {
		s := make([]int, d)
		ts, tst := t.Shape(), t.Strides()
		off := d - len(ts)
		for i := range ts {
			if ts[i] != 1 {
				s[off+i] = tst[i]
			}
		}
		full[k] = s
		p.base[k] = t.Offset()
	}
	// Keep the dims of size > 1, then merge from the innermost outwards.
	var dims []int
	for i := range d {
		if shape[i] != 1 {
			dims = append(dims, i)
		}
	}
	size := make([]int, 0, len(dims))
	strides := make([][]int, len(ts))
	for _, i := range dims {
		j := len(size) - 1
		if j >= 0 {
			merge := true
			for k := range ts {
				if strides[k][j] != full[k][i]*shape[i] {
					merge = false
					break
				}
			}
			if merge {
				size[j] *= shape[i]
				for k := range ts {
					strides[k][j] = full[k][i]
				}
				continue
			}
		}
		size = append(size, shape[i])
		for k := range ts {
			strides[k] = append(strides[k], full[k][i])
		}
	}
	if len(size) == 0 {
		p.n = 1
		return p
	}
	last := len(size) - 1
	p.n = size[last]
	p.outer = size[:last]
	for k := range ts {
		p.inner[k] = strides[k][last]
		p.st[k] = strides[k][:last]
	}
	return p
}

// forRuns calls f for every piece of an inner run over [0, total), the
// elements of the output in row-major order: f gets the output position
// of the piece, its length and each operand's storage offset there
// (offs, reused between calls). Pieces are split over the cores.
func (p *runPlan) forRuns(total int, f func(pos, n int, offs []int)) {
	parallelFor(total, func(lo, hi int) {
		offs := make([]int, len(p.base))
		idx := make([]int, len(p.outer))
		for pos := lo; pos < hi; {
			row, col := pos/p.n, pos%p.n
			// Decompose row over the outer dims.
			r := row
			for i := len(p.outer) - 1; i >= 0; i-- {
				idx[i] = r % p.outer[i]
				r /= p.outer[i]
			}
			for k := range offs {
				o := p.base[k] + col*p.inner[k]
				for i, v := range idx {
					o += v * p.st[k][i]
				}
				offs[k] = o
			}
			m := min(p.n-col, hi-pos)
			f(pos, m, offs)
			pos += m
		}
	})
}

// fastFloat reports whether the float32/float64 fast path applies to
// tensors ts of dtype dt.
func fastFloat(dt tensor.DType, ts ...*tensor.Tensor) bool {
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return false
	}
	for _, t := range ts {
		if t.IsMeta() || t.DType() != dt {
			return false
		}
	}
	return true
}

// binaryRuns returns a op b broadcast to shape, a and b of dtype dt
// (float32 or float64, see fastFloat).
func binaryRuns(op vec.Op, a, b *tensor.Tensor, shape []int, dt tensor.DType) *tensor.Tensor {
	if dt == tensor.Float64 {
		return binaryRunsT[float64](op, a, b, shape)
	}
	return binaryRunsT[float32](op, a, b, shape)
}

func binaryRunsT[T vec.Float](op vec.Op, a, b *tensor.Tensor, shape []int) *tensor.Tensor {
	out := tensor.EmptyUninit(a.DType(), shape...) // every element is written
	o := tensor.Data[T](out)
	if len(o) == 0 {
		return out
	}
	x, y := tensor.Data[T](a), tensor.Data[T](b)
	p := planRuns(shape, a, b)
	sa, sb := p.inner[0], p.inner[1]
	p.forRuns(len(o), func(pos, n int, offs []int) {
		dst := o[pos : pos+n]
		ia, ib := offs[0], offs[1]
		switch {
		case sa == 1 && sb == 1:
			vec.Binary(op, dst, x[ia:ia+n], y[ib:ib+n])
		case sa == 1 && sb == 0:
			vec.BinaryScalar(op, dst, x[ia:ia+n], y[ib])
		case sa == 0 && sb == 1:
			vec.ScalarBinary(op, dst, x[ia], y[ib:ib+n])
		default:
			stridedBinary(op, dst, x, y, ia, ib, sa, sb)
		}
	})
	return out
}

// stridedBinary sets dst[i] = x[ia+i*sa] op y[ib+i*sb].
func stridedBinary[T vec.Float](op vec.Op, dst, x, y []T, ia, ib, sa, sb int) {
	switch op {
	case vec.Add:
		for i := range dst {
			dst[i] = x[ia+i*sa] + y[ib+i*sb]
		}
	case vec.Sub:
		for i := range dst {
			dst[i] = x[ia+i*sa] - y[ib+i*sb]
		}
	case vec.Mul:
		for i := range dst {
			dst[i] = x[ia+i*sa] * y[ib+i*sb]
		}
	case vec.Div:
		for i := range dst {
			dst[i] = x[ia+i*sa] / y[ib+i*sb]
		}
	}
}

// clampRuns returns x (float32 or float64) clamped to [lo, hi] as
// clampFloat does, or relu'd (x < 0 becomes 0) when relu is set; ok is
// false (nothing done) when a bound is NaN.
func clampRuns(x *tensor.Tensor, relu bool, lo, hi float64) (out *tensor.Tensor, ok bool) {
	if !relu && (math.IsNaN(lo) || math.IsNaN(hi)) {
		return nil, false
	}
	if x.DType() == tensor.Float64 {
		return clampRunsT(x, relu, lo, hi), true
	}
	return clampRunsT(x, relu, float32(lo), float32(hi)), true
}

func clampRunsT[T vec.Float](x *tensor.Tensor, relu bool, lo, hi T) *tensor.Tensor {
	shape := x.Shape()
	out := tensor.EmptyUninit(x.DType(), shape...) // every element is written
	o := tensor.Data[T](out)
	if len(o) == 0 {
		return out
	}
	in := tensor.Data[T](x)
	p := planRuns(shape, x)
	s := p.inner[0]
	p.forRuns(len(o), func(pos, n int, offs []int) {
		dst, i0 := o[pos:pos+n], offs[0]
		if s == 1 {
			if relu {
				vec.Relu(dst, in[i0:i0+n])
			} else {
				vec.Clamp(dst, in[i0:i0+n], lo, hi)
			}
			return
		}
		for i := range dst {
			v := in[i0+i*s]
			if relu {
				if v < 0 {
					v = 0
				}
			} else {
				if v < lo {
					v = lo
				}
				if v > hi {
					v = hi
				}
			}
			dst[i] = v
		}
	})
	return out
}
