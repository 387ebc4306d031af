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
// (above end for a negative step), computed in float64 and converted to dt,
// as torch.arange does.
func Arange(dt DType, start, end, step float64) (*Tensor, error) {
	if step == 0 {
		return nil, fmt.Errorf("arange: step must be nonzero")
	}
	if math.IsNaN(start) || math.IsNaN(end) || math.IsInf(start, 0) || math.IsInf(end, 0) {
		return nil, fmt.Errorf("arange: unsupported range: %v -> %v", start, end)
	}
	if (step > 0 && start > end) || (step < 0 && start < end) {
		return nil, fmt.Errorf("arange: upper bound and larger bound inconsistent with step sign")
	}
	size := math.Ceil((end - start) / step)
	if size > MaxElements {
		return nil, fmt.Errorf("arange: %v elements are too many", size)
	}
	vals := make([]float64, int(size))
	for i := range vals {
		vals[i] = start + float64(i)*step
	}
	return FromFloat64s(dt, vals, len(vals))
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
