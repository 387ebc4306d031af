package ops

import (
	"fmt"
	"math"

	"github.com/gofx/gofx/tensor"
)

// Scalar is the value of a Scalar argument: an int64, a float64 or a bool,
// as the Python number passed to PyTorch was an int, a float or a bool.
type Scalar struct {
	v any
}

// IntScalar, FloatScalar and BoolScalar make scalars.
func IntScalar(v int64) Scalar { return Scalar{v} }

// FloatScalar returns the Scalar v.
func FloatScalar(v float64) Scalar { return Scalar{v} }

// BoolScalar returns the Scalar v.
func BoolScalar(v bool) Scalar { return Scalar{v} }

// IsFloat reports whether s holds a float64.
func (s Scalar) IsFloat() bool { _, ok := s.v.(float64); return ok }

// IsBool reports whether s holds a bool.
func (s Scalar) IsBool() bool { _, ok := s.v.(bool); return ok }

// IsInt reports whether s holds an int64.
func (s Scalar) IsInt() bool { _, ok := s.v.(int64); return ok }

// Value returns the held int64, float64 or bool.
func (s Scalar) Value() any { return s.v }

// Float returns s as a float64.
func (s Scalar) Float() float64 {
	switch v := s.v.(type) {
	case float64:
		return v
	case int64:
		return float64(v)
	case bool:
		if v {
			return 1
		}
	}
	return 0
}

// Int returns s as an int64 (a float is truncated toward zero).
func (s Scalar) Int() int64 {
	switch v := s.v.(type) {
	case float64:
		return int64(v)
	case int64:
		return v
	case bool:
		if v {
			return 1
		}
	}
	return 0
}

// DType returns the dtype PyTorch gives a wrapped number of this kind:
// Int64, Float64 or Bool.
func (s Scalar) DType() tensor.DType {
	switch s.v.(type) {
	case float64:
		return tensor.Float64
	case bool:
		return tensor.Bool
	}
	return tensor.Int64
}

// Tensor returns s as a 0-d tensor of dtype dt, converted as PyTorch casts a
// scalar (an int64 exactly to integral dtypes).
func (s Scalar) Tensor(dt tensor.DType) *tensor.Tensor {
	if iv, ok := s.v.(int64); ok {
		return tensor.Must(tensor.FromInt64s(dt, []int64{iv}))
	}
	return tensor.Must(tensor.FromFloat64s(dt, []float64{s.Float()}))
}

// Wrapped returns s as PyTorch wraps a Python number given for a Tensor
// parameter (at::scalar_to_tensor, then set_wrapped_number): a 0-d tensor
// of dtype DType, marked as a wrapped number, which type promotion treats
// as a number (ResultType).
func (s Scalar) Wrapped() *tensor.Tensor {
	return s.Tensor(s.DType()).WrappedNumber()
}

// String formats s as Python would print the number.
func (s Scalar) String() string {
	switch v := s.v.(type) {
	case bool:
		if v {
			return "True"
		}
		return "False"
	case float64:
		if math.IsInf(v, 1) {
			return "inf"
		}
		if math.IsInf(v, -1) {
			return "-inf"
		}
		if v == math.Trunc(v) && math.Abs(v) < 1e16 {
			return fmt.Sprintf("%.1f", v)
		}
		return fmt.Sprint(v)
	}
	return fmt.Sprint(s.v)
}

// Symbolic is implemented by values that stand for a tensor or number not
// known yet (proxies, symbolic integers). A call with any Symbolic argument
// is handed to that argument's Tracer instead of a kernel.
type Symbolic interface {
	Tracer() Tracer
}

// Tracer records operator calls on symbolic values.
type Tracer interface {
	// Trace records op called with args and kwargs (as the caller passed
	// them) and returns the symbolic results, one per schema return.
	Trace(op *Operator, args []any, kwargs map[string]any) ([]any, error)
}

// typeName describes a Go value as the argument errors do, with Python's
// names where there is one.
func typeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case *tensor.Tensor:
		if x == nil {
			return "None"
		}
		return "Tensor"
	case int64, int:
		return "int"
	case float64, float32:
		return "float"
	case bool:
		return "bool"
	case string:
		return "str"
	case Scalar:
		return "Scalar"
	case tensor.DType:
		return "ScalarType"
	case []int64, []int:
		return "list of int"
	case []float64:
		return "list of float"
	case []bool:
		return "list of bool"
	case []*tensor.Tensor:
		return "list of Tensor"
	case []any:
		return "list"
	}
	return fmt.Sprintf("%T", v)
}
