package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Dtype helpers: the compute dtype of a dtype, rounding to a dtype's
// precision, and the dtype names ATen's error messages print.

// scalarTypeNames are c10's ScalarType names, which PyTorch's dtype
// errors print ("\"mm\" not implemented for 'Half'").
var scalarTypeNames = map[tensor.DType]string{
	tensor.Float32: "Float", tensor.Float64: "Double", tensor.Float16: "Half",
	tensor.BFloat16: "BFloat16", tensor.Int64: "Long", tensor.Int32: "Int",
	tensor.Int16: "Short", tensor.Int8: "Char", tensor.Uint8: "Byte", tensor.Bool: "Bool",
}

// scalarTypeName returns c10's ScalarType name of dt ("Float", "Long").
func scalarTypeName(dt tensor.DType) string {
	if n, ok := scalarTypeNames[dt]; ok {
		return n
	}
	return dt.String()
}

// notImplemented is ATen's dispatch error for a dtype kernel has no case
// for ("\"mm\" not implemented for 'Half'"), blaming argument arg.
func notImplemented(c *ops.Call, arg, kernel string, dt tensor.DType) error {
	return c.Errorf(arg, "%q not implemented for '%s'", kernel, scalarTypeName(dt))
}

// cppTypeNames are the C++ element types ATen's "value cannot be
// converted to type X without overflow" errors name.
var cppTypeNames = map[tensor.DType]string{
	tensor.Float32: "float", tensor.Float64: "double", tensor.Float16: "at::Half",
	tensor.BFloat16: "at::BFloat16", tensor.Int64: "int64_t", tensor.Int32: "int",
	tensor.Int16: "int16_t", tensor.Int8: "int8_t", tensor.Uint8: "uint8_t", tensor.Bool: "bool",
}

// cppTypeName returns the C++ element type of dt as ATen's overflow errors
// spell it ("int64_t", "at::Half").
func cppTypeName(dt tensor.DType) string { return cppTypeNames[dt] }

// demangledTypeNames are the element types as the compiler's demangled
// names in other ATen messages print them.
var demangledTypeNames = map[tensor.DType]string{
	tensor.Float32: "float", tensor.Float64: "double", tensor.Float16: "c10::Half",
	tensor.BFloat16: "c10::BFloat16", tensor.Int64: "long int", tensor.Int32: "int",
	tensor.Int16: "short int", tensor.Int8: "signed char", tensor.Uint8: "unsigned char", tensor.Bool: "bool",
}

// demangledTypeName returns dt's element type as a demangled C++ name
// ("long int", "c10::Half").
func demangledTypeName(dt tensor.DType) string { return demangledTypeNames[dt] }

// computeType returns the dtype math is done in for dtype dt: float16 and
// bfloat16 compute in float32.
func computeType(dt tensor.DType) tensor.DType {
	if dt == tensor.Float16 || dt == tensor.BFloat16 {
		return tensor.Float32
	}
	return dt
}

// floatType returns dt if it is floating, and the default dtype float32
// otherwise: the result dtype of float math on integer inputs.
func floatType(dt tensor.DType) tensor.DType {
	if dt.IsFloat() {
		return dt
	}
	return tensor.Float32
}

// to converts t to dt unless it already has that dtype.
func to(t *tensor.Tensor, dt tensor.DType) *tensor.Tensor {
	if t.DType() == dt {
		return t
	}
	return t.To(dt)
}

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
