package tensor

import "fmt"

// DType is a tensor element type. Its String form is PyTorch's name without
// the "torch." prefix ("float32").
type DType uint8

// The supported dtypes. Invalid is the zero value and names no dtype.
const (
	Invalid DType = iota
	Float32
	Float64
	Float16
	BFloat16
	Int64
	Int32
	Int16
	Int8
	Uint8
	Bool
)

var dtypeNames = [...]string{
	Invalid: "invalid", Float32: "float32", Float64: "float64", Float16: "float16",
	BFloat16: "bfloat16", Int64: "int64", Int32: "int32", Int16: "int16", Int8: "int8",
	Uint8: "uint8", Bool: "bool",
}

var dtypeSizes = [...]int{
	Float32: 4, Float64: 8, Float16: 2, BFloat16: 2, Int64: 8, Int32: 4, Int16: 2,
	Int8: 1, Uint8: 1, Bool: 1,
}

// DTypes lists every valid dtype.
var DTypes = []DType{Float32, Float64, Float16, BFloat16, Int64, Int32, Int16, Int8, Uint8, Bool}

// String returns PyTorch's name of d ("float32", "int64", "bool").
func (d DType) String() string {
	if int(d) < len(dtypeNames) {
		return dtypeNames[d]
	}
	return fmt.Sprintf("DType(%d)", uint8(d))
}

// Valid reports whether d is one of the supported dtypes.
func (d DType) Valid() bool { return d > Invalid && d <= Bool }

// Size returns the number of bytes of one element.
func (d DType) Size() int {
	if !d.Valid() {
		return 0
	}
	return dtypeSizes[d]
}

// IsFloat reports whether d is a floating-point dtype.
func (d DType) IsFloat() bool { return d >= Float32 && d <= BFloat16 }

// IsIntegral reports whether d is an integer dtype; Bool counts only when
// includeBool is set, as in c10::isIntegralType.
func (d DType) IsIntegral(includeBool bool) bool {
	return (d >= Int64 && d <= Uint8) || (includeBool && d == Bool)
}

// IsSigned reports whether d can hold negative values.
func (d DType) IsSigned() bool { return d.IsFloat() || (d >= Int64 && d <= Int8) }

// ParseDType returns the dtype named s. It accepts PyTorch's names with or
// without the "torch." prefix, and the aliases PyTorch accepts ("float",
// "double", "half", "long", "int", "short").
func ParseDType(s string) (DType, error) {
	if len(s) > 6 && s[:6] == "torch." {
		s = s[6:]
	}
	switch s {
	case "float32", "float":
		return Float32, nil
	case "float64", "double":
		return Float64, nil
	case "float16", "half":
		return Float16, nil
	case "bfloat16":
		return BFloat16, nil
	case "int64", "long":
		return Int64, nil
	case "int32", "int":
		return Int32, nil
	case "int16", "short":
		return Int16, nil
	case "int8":
		return Int8, nil
	case "uint8":
		return Uint8, nil
	case "bool":
		return Bool, nil
	}
	return Invalid, fmt.Errorf("tensor: unknown dtype %q", s)
}

// Elem is the set of Go element types of tensor storage, one per dtype.
type Elem interface {
	float32 | float64 | Half | BHalf | int64 | int32 | int16 | int8 | uint8 | bool
}

// DTypeOf returns the dtype whose elements have Go type T.
func DTypeOf[T Elem]() DType {
	var z T
	switch any(z).(type) {
	case float32:
		return Float32
	case float64:
		return Float64
	case Half:
		return Float16
	case BHalf:
		return BFloat16
	case int64:
		return Int64
	case int32:
		return Int32
	case int16:
		return Int16
	case int8:
		return Int8
	case uint8:
		return Uint8
	case bool:
		return Bool
	}
	return Invalid
}
