package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

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
