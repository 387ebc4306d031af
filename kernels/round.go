package kernels

import "github.com/gofx/gofx/tensor"

// roundTo rounds v to the precision of the floating dtype dt, as storing a
// float result into a dt value does (v itself for float64 and the integral
// dtypes). Since one float64 operation rounded once equals the float32
// operation, chaining roundTo after each step mimics C++ float arithmetic.
func roundTo(dt tensor.DType, v float64) float64 {
	switch dt {
	case tensor.Float32:
		return float64(float32(v))
	case tensor.Float16:
		return float64(tensor.HalfFromFloat32(float32(v)).Float32())
	case tensor.BFloat16:
		return float64(tensor.BHalfFromFloat32(float32(v)).Float32())
	}
	return v
}

// rounder returns the function that rounds a float64 to dt (see roundTo).
func rounder(dt tensor.DType) func(float64) float64 {
	switch dt {
	case tensor.Float32, tensor.Float16, tensor.BFloat16:
		return func(v float64) float64 { return roundTo(dt, v) }
	}
	return func(v float64) float64 { return v }
}
