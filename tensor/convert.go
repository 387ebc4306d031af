package tensor

import (
	"fmt"
	"math"
)

// Float64s returns t's elements in row-major order converted to float64
// (exactly, for every dtype but int64 values beyond 2^53). Bool becomes 0 or 1.
func (t *Tensor) Float64s() []float64 {
	out := make([]float64, t.Numel())
	switch t.dtype {
	case Float32:
		for i, v := range Values[float32](t) {
			out[i] = float64(v)
		}
	case Float64:
		copy(out, Values[float64](t))
	case Float16:
		for i, v := range Values[Half](t) {
			out[i] = float64(v.Float32())
		}
	case BFloat16:
		for i, v := range Values[BHalf](t) {
			out[i] = float64(v.Float32())
		}
	case Bool:
		for i, v := range Values[bool](t) {
			if v {
				out[i] = 1
			}
		}
	default:
		for i, v := range t.Int64s() {
			out[i] = float64(v)
		}
	}
	return out
}

// Int64s returns t's elements in row-major order converted to int64. Floating
// values are truncated toward zero, as a C++ static_cast does; NaN and
// values out of range become math.MinInt64, as in PyTorch on x86-64.
func (t *Tensor) Int64s() []int64 {
	out := make([]int64, t.Numel())
	switch t.dtype {
	case Int64:
		copy(out, Values[int64](t))
	case Int32:
		for i, v := range Values[int32](t) {
			out[i] = int64(v)
		}
	case Int16:
		for i, v := range Values[int16](t) {
			out[i] = int64(v)
		}
	case Int8:
		for i, v := range Values[int8](t) {
			out[i] = int64(v)
		}
	case Uint8:
		for i, v := range Values[uint8](t) {
			out[i] = int64(v)
		}
	case Bool:
		for i, v := range Values[bool](t) {
			if v {
				out[i] = 1
			}
		}
	default:
		for i, v := range t.Float64s() {
			out[i] = floatToInt64(v)
		}
	}
	return out
}

// floatToInt64 converts v as PyTorch's CPU casts to int64 and uint8 do on
// x86-64 (cvttsd2si): truncation toward zero, and math.MinInt64 (the
// "integer indefinite" value) for NaN and values out of range.
func floatToInt64(v float64) int64 {
	if v >= -0x1p63 && v < 0x1p63 {
		return int64(v)
	}
	return math.MinInt64
}

// floatToInt32 converts v as PyTorch's CPU casts to int32, int16 and int8 do
// on x86-64: truncation toward zero to 32 bits, and math.MinInt32 for NaN
// and values out of range; the narrower types keep the low bits.
func floatToInt32(v float64) int32 {
	if v > -2147483649 && v < 2147483648 {
		return int32(v)
	}
	return math.MinInt32
}

// Bools returns t's elements in row-major order as truth values (nonzero is
// true; NaN is true).
func (t *Tensor) Bools() []bool {
	if t.dtype == Bool {
		return append([]bool(nil), Values[bool](t)...)
	}
	out := make([]bool, t.Numel())
	if t.dtype.IsFloat() {
		for i, v := range t.Float64s() {
			out[i] = v != 0
		}
		return out
	}
	for i, v := range t.Int64s() {
		out[i] = v != 0
	}
	return out
}

// FromFloat64s returns a contiguous tensor of dtype dt and the given shape
// holding vals converted as PyTorch casts a double: rounded to nearest for
// floating dtypes, truncated toward zero (then wrapped) for integral ones,
// nonzero for Bool. NaN and values out of range of the intermediate integer
// (int64 for Int64 and Uint8, int32 for Int32, Int16 and Int8) give what
// PyTorch gives on x86-64: that integer's minimum, then wrapped.
func FromFloat64s(dt DType, vals []float64, shape ...int) (*Tensor, error) {
	t, err := New(dt, shape...)
	if err != nil {
		return nil, err
	}
	if len(vals) != t.Numel() {
		return nil, fmt.Errorf("tensor: %d values do not fill shape %v", len(vals), shape)
	}
	switch dt {
	case Float32:
		d := Data[float32](t)
		for i, v := range vals {
			d[i] = float32(v)
		}
	case Float64:
		copy(Data[float64](t), vals)
	case Float16:
		d := Data[Half](t)
		for i, v := range vals {
			d[i] = HalfFromFloat32(float32(v))
		}
	case BFloat16:
		d := Data[BHalf](t)
		for i, v := range vals {
			d[i] = BHalfFromFloat32(float32(v))
		}
	case Bool:
		d := Data[bool](t)
		for i, v := range vals {
			d[i] = v != 0
		}
	default:
		iv := make([]int64, len(vals))
		for i, v := range vals {
			if dt == Int64 || dt == Uint8 {
				iv[i] = floatToInt64(v)
			} else {
				iv[i] = int64(floatToInt32(v))
			}
		}
		fillInts(t, iv)
	}
	return t, nil
}

// FromInt64s returns a contiguous tensor of dtype dt and the given shape
// holding vals converted as PyTorch casts an int64 (wrapping for narrower
// integral dtypes, rounding to nearest for floating ones).
func FromInt64s(dt DType, vals []int64, shape ...int) (*Tensor, error) {
	t, err := New(dt, shape...)
	if err != nil {
		return nil, err
	}
	if len(vals) != t.Numel() {
		return nil, fmt.Errorf("tensor: %d values do not fill shape %v", len(vals), shape)
	}
	switch dt {
	case Float32:
		d := Data[float32](t)
		for i, v := range vals {
			d[i] = float32(v)
		}
	case Float64:
		d := Data[float64](t)
		for i, v := range vals {
			d[i] = float64(v)
		}
	case Float16:
		d := Data[Half](t)
		for i, v := range vals {
			d[i] = HalfFromFloat32(float32(v))
		}
	case BFloat16:
		d := Data[BHalf](t)
		for i, v := range vals {
			d[i] = BHalfFromFloat32(float32(v))
		}
	case Bool:
		d := Data[bool](t)
		for i, v := range vals {
			d[i] = v != 0
		}
	default:
		fillInts(t, vals)
	}
	return t, nil
}

func fillInts(t *Tensor, vals []int64) {
	switch t.dtype {
	case Int64:
		copy(Data[int64](t), vals)
	case Int32:
		d := Data[int32](t)
		for i, v := range vals {
			d[i] = int32(v)
		}
	case Int16:
		d := Data[int16](t)
		for i, v := range vals {
			d[i] = int16(v)
		}
	case Int8:
		d := Data[int8](t)
		for i, v := range vals {
			d[i] = int8(v)
		}
	case Uint8:
		d := Data[uint8](t)
		for i, v := range vals {
			d[i] = uint8(v)
		}
	}
}

// To returns t converted to dtype dt as a new contiguous tensor (a copy even
// when dt is t's dtype), with PyTorch's casting rules.
func (t *Tensor) To(dt DType) *Tensor {
	if t.st == nil {
		return &Tensor{dtype: dt, shape: clone(t.shape), strides: ContiguousStrides(t.shape)}
	}
	if dt == t.dtype {
		return t.Clone()
	}
	switch {
	case t.dtype.IsFloat() && dt != Bool:
		return Must(FromFloat64s(dt, t.Float64s(), t.shape...))
	case t.dtype.IsFloat(), t.dtype == Bool:
		b := t.Bools()
		iv := make([]int64, len(b))
		for i, v := range b {
			if v {
				iv[i] = 1
			}
		}
		return Must(FromInt64s(dt, iv, t.shape...))
	}
	return Must(FromInt64s(dt, t.Int64s(), t.shape...))
}
