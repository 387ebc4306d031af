package kernels

import "github.com/gofx/gofx/tensor"

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
