package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Zeros returns a contiguous tensor of zeros.
func Zeros(dt DType, shape ...int) (*Tensor, error) { return New(dt, shape...) }

// Ones returns a contiguous tensor of ones.
func Ones(dt DType, shape ...int) (*Tensor, error) { return Full(dt, 1, shape...) }

// Full returns a contiguous tensor with every element v converted to dt.
func Full(dt DType, v float64, shape ...int) (*Tensor, error) {
	t, err := New(dt, shape...)
	if err != nil {
		return nil, err
	}
	one, _ := FromFloat64s(dt, []float64{v})
	return t, t.CopyFrom(one)
}

// FullInt is Full for an integer value, exact for every int64.
func FullInt(dt DType, v int64, shape ...int) (*Tensor, error) {
	t, err := New(dt, shape...)
	if err != nil {
		return nil, err
	}
	one, _ := FromInt64s(dt, []int64{v})
	return t, t.CopyFrom(one)
}

// Arange returns the one-dimensional tensor start, start+step, ... below end
// (above end for a negative step) of dtype dt, exactly as torch.arange
// computes it on a CPU in PyTorch 1.13 with one thread:
//
//   - for integral dtypes, start and step are truncated to int64 and the
//     values computed in int64 (then wrapped); the size is
//     ceil((end-start)/step) in float64, except for Int64 where it comes
//     from the truncated start, end and step;
//   - for Float32 and Float64 the values are computed in float64, for
//     Float16 and BFloat16 in float32, as start + step*i with a fused
//     multiply-add, except that PyTorch's AVX2 kernel fills 32-byte vectors
//     from a base value start + step*j rounded to dt, adding k*step to it
//     (again fused): Arange reproduces those roundings.
//
// Bool is not supported, as in PyTorch.
func Arange(dt DType, start, end, step float64) (*Tensor, error) {
	if !dt.Valid() || dt == Bool {
		return nil, fmt.Errorf("arange: \"arange_cpu\" not implemented for '%s'", arangeTypeName(dt))
	}
	if dt.IsIntegral(false) {
		return arangeInt(dt, start, end, step)
	}
	xs, xe, xst := start, end, step
	if dt == Float16 || dt == BFloat16 {
		// The accumulate type is float: the bounds must fit it.
		for _, v := range []float64{start, end, step} {
			if !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v) > math.MaxFloat32 {
				return nil, fmt.Errorf("arange: value cannot be converted to type float without overflow")
			}
		}
		xs, xe, xst = float64(float32(start)), float64(float32(end)), float64(float32(step))
	}
	if !(xst > 0 || xst < 0) {
		return nil, fmt.Errorf("arange: step must be nonzero")
	}
	if math.IsNaN(xs) || math.IsNaN(xe) || math.IsInf(xs, 0) || math.IsInf(xe, 0) {
		return nil, fmt.Errorf("arange: unsupported range: %v -> %v", start, end)
	}
	if !((xst > 0 && xe >= xs) || (xst < 0 && xe <= xs)) {
		return nil, fmt.Errorf("arange: upper bound and larger bound inconsistent with step sign")
	}
	size := math.Ceil((end - start) / step)
	if !(size >= 0) || size > MaxElements {
		return nil, fmt.Errorf("arange: invalid size %v, possible overflow?", size)
	}
	n := int(size)
	t := Empty(dt, n)
	switch dt {
	case Float64:
		d := Data[float64](t)
		arangeVec(n, 4, func(i int) { d[i] = math.FMA(step, float64(i), start) },
			func(j, k int) { d[j+k] = math.FMA(float64(k), step, math.FMA(step, float64(j), start)) })
	case Float32:
		d := Data[float32](t)
		arangeVec(n, 8, func(i int) { d[i] = float32(math.FMA(step, float64(i), start)) },
			func(j, k int) {
				base := float32(math.FMA(step, float64(j), start))
				d[j+k] = float32(math.FMA(float64(k), step, float64(base)))
			})
	case Float16:
		d := Data[Half](t)
		fs, fst := float32(start), float32(step)
		arangeVec(n, 16, func(i int) { d[i] = HalfFromFloat32(fma32(fst, float32(i), fs)) },
			func(j, k int) {
				base := HalfFromFloat32(fma32(fst, float32(j), fs))
				d[j+k] = HalfFromFloat32(fma32(float32(k), fst, base.Float32()))
			})
	case BFloat16:
		d := Data[BHalf](t)
		fs, fst := float32(start), float32(step)
		arangeVec(n, 16, func(i int) { d[i] = BHalfFromFloat32(fma32(fst, float32(i), fs)) },
			func(j, k int) {
				// Vectorized<BFloat16>::arange adds in float32 without fusing.
				base := BHalfFromFloat32(fma32(fst, float32(j), fs))
				d[j+k] = BHalfFromFloat32(base.Float32() + float32(float32(k)*fst))
			})
	}
	return t, nil
}

// fma32 returns a*b+c rounded once to float32, as a fused multiply-add
// instruction computes it.
func fma32(a, b, c float32) float32 {
	p := float64(a) * float64(b) // exact: 48 significant bits at most
	s := p + float64(c)
	// p + c == s + e exactly (TwoSum).
	bb := s - p
	e := (p - (s - bb)) + (float64(c) - bb)
	r := float32(s)
	if e == 0 || float64(r) == s || math.IsInf(s, 0) {
		return r
	}
	// s lies strictly between two float32 values: r and o. If it is
	// exactly halfway, the exact sum is on e's side of it.
	o := math.Nextafter32(r, float32(math.Inf(1)))
	if float64(r) > s {
		o = math.Nextafter32(r, float32(math.Inf(-1)))
	}
	if math.Abs(s-float64(r)) == math.Abs(float64(o)-s) && (e > 0) == (float64(o) > s) {
		return o
	}
	return r
}

// arangeVec fills n elements as ATen's vectorized_loop does with vectors
// of width elements: pairs of vectors while two fit, each element k of the
// vector starting at j set by vec(j, k), then the rest one by one with
// scalar(i).
func arangeVec(n, width int, scalar func(i int), vec func(j, k int)) {
	i := 0
	for ; i <= n-2*width; i += 2 * width {
		for _, j := range []int{i, i + width} {
			for k := 0; k < width; k++ {
				vec(j, k)
			}
		}
	}
	for ; i < n; i++ {
		scalar(i)
	}
}

// arangeInt is Arange for integral dtypes.
func arangeInt(dt DType, start, end, step float64) (*Tensor, error) {
	if math.IsNaN(start) || math.IsNaN(end) || math.IsInf(start, 0) || math.IsInf(end, 0) {
		return nil, fmt.Errorf("arange: unsupported range: %v -> %v", start, end)
	}
	xs, xe, xst := floatToInt64(start), floatToInt64(end), floatToInt64(step)
	if xst == 0 {
		return nil, fmt.Errorf("arange: step must be nonzero")
	}
	if !((xst > 0 && xe >= xs) || (xst < 0 && xe <= xs)) {
		return nil, fmt.Errorf("arange: upper bound and larger bound inconsistent with step sign")
	}
	var size float64
	if dt == Int64 {
		sgn := int64(1)
		if xst < 0 {
			sgn = -1
		}
		size = float64((xe - xs + xst - sgn) / xst)
	} else {
		size = math.Ceil((end - start) / step)
	}
	if !(size >= 0) || size > MaxElements {
		return nil, fmt.Errorf("arange: invalid size %v, possible overflow?", size)
	}
	vals := make([]int64, int(size))
	for i := range vals {
		vals[i] = xs + xst*int64(i)
	}
	return FromInt64s(dt, vals, len(vals))
}

// arangeTypeName is ATen's name of a dtype in "not implemented" errors.
func arangeTypeName(dt DType) string {
	switch dt {
	case Bool:
		return "Bool"
	case Invalid:
		return "Undefined"
	}
	return dt.String()
}

// Generator is a seeded source of random tensors. The same seed gives the
// same tensors on every platform. (It does not reproduce PyTorch's streams.)
type Generator struct{ r *rand.Rand }

// NewGenerator returns a Generator seeded with seed.
func NewGenerator(seed uint64) *Generator {
	return &Generator{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Rand returns a tensor of values drawn uniformly from [0, 1).
func (g *Generator) Rand(dt DType, shape ...int) (*Tensor, error) {
	n, err := Numel(shape)
	if err != nil {
		return nil, err
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = g.r.Float64()
	}
	return FromFloat64s(dt, vals, shape...)
}

// Randn returns a tensor of values drawn from the standard normal
// distribution.
func (g *Generator) Randn(dt DType, shape ...int) (*Tensor, error) {
	n, err := Numel(shape)
	if err != nil {
		return nil, err
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = g.r.NormFloat64()
	}
	return FromFloat64s(dt, vals, shape...)
}

// RandInt returns a tensor of integers drawn uniformly from [low, high).
func (g *Generator) RandInt(dt DType, low, high int64, shape ...int) (*Tensor, error) {
	if high <= low {
		return nil, fmt.Errorf("randint: low %d must be below high %d", low, high)
	}
	n, err := Numel(shape)
	if err != nil {
		return nil, err
	}
	vals := make([]int64, n)
	for i := range vals {
		vals[i] = low + g.r.Int64N(high-low)
	}
	return FromInt64s(dt, vals, shape...)
}
