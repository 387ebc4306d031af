package kernels

import (
	"slices"

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
	out := tensor.Empty(x.DType(), x.Shape()...)
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
	out := tensor.Empty(a.DType(), shape...)
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
