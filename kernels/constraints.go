package kernels

import (
	"fmt"
	"math"
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Runtime assertions, ATen's Constraints.cpp and the assertions of
// TensorCompare.cpp, which torch.export programs keep as nodes:
// _assert_async (and .msg), _assert_scalar, _assert_tensor_metadata,
// sym_constrain_range and sym_constrain_range_for_size, their functional
// forms (_functional_*, which thread a dependency token through and
// return a clone of it) and _make_dep_token. They return nothing, or the
// token, and fail with the assertion's message when the value breaks it.
// Their meta functions check what they can without data.

// registerConstraints registers the kernels of constraints.go.
func registerConstraints() {
	registerBoth("aten::_assert_async", assertAsync)
	registerBoth("aten::_assert_async.msg", assertAsync)
	registerBoth("aten::_functional_assert_async.msg", withToken(assertAsync))
	registerBoth("aten::_assert_scalar", assertScalar)
	registerBoth("aten::_functional_assert_scalar", withToken(assertScalar))
	registerBoth("aten::sym_constrain_range", symConstrainRange)
	registerBoth("aten::sym_constrain_range_for_size", symConstrainRangeForSize)
	registerBoth("aten::_functional_sym_constrain_range", withToken(symConstrainRange))
	registerBoth("aten::_functional_sym_constrain_range_for_size", withToken(symConstrainRangeForSize))
	registerBoth("aten::_make_dep_token", makeDepToken)
	registerBoth("aten::_assert_tensor_metadata", assertTensorMetadata)
}

// hasArg reports whether c's operator has an argument called name.
func hasArg(c *ops.Call, name string) bool {
	for _, a := range c.Op.Schema().Args {
		if a.Name == name {
			return true
		}
	}
	return false
}

// withToken turns an assertion kernel into its functional form: the same
// check, then a clone of dep_token.
func withToken(k ops.Kernel) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		if _, err := k(c); err != nil {
			return nil, err
		}
		tok := c.Tensor("dep_token")
		if tok.IsMeta() {
			return one(tok.Meta()), nil
		}
		return one(tok.Contiguous().Clone()), nil
	}
}

// makeDepToken is aten::_make_dep_token: the token functional assertions
// thread through: a 0-d float32 tensor (dtype when given), at::empty({})
// in ATen (contents unspecified; here zero).
func makeDepToken(c *ops.Call) ([]any, error) {
	isMeta, err := factoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	dt := dtypeOr(c, tensor.Float32)
	return oneOrErr(empty(isMeta, dt, []int{}))
}

// assertAsync is aten::_assert_async (and its .msg overload): an error
// unless self holds a single nonzero value. The meta function checks the
// element count only.
func assertAsync(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	switch n := self.Numel(); {
	case n == 0:
		return nil, c.Errorf("self", "Boolean value of Tensor with no values is ambiguous")
	case n > 1:
		return nil, c.Errorf("self", "Boolean value of Tensor with more than one value is ambiguous")
	}
	if self.IsMeta() {
		return []any{}, nil
	}
	if !self.Bools()[0] {
		msg := "Expected Tensor with single nonzero value, but got zero"
		if hasArg(c, "assert_msg") {
			msg = c.Str("assert_msg")
		}
		return nil, c.Errorf("self", "%s", msg)
	}
	return []any{}, nil
}

// assertScalar is aten::_assert_scalar: an error with assert_msg unless
// the Scalar self is true (nonzero).
func assertScalar(c *ops.Call) ([]any, error) {
	s := c.Scalar("self")
	if s.IsFloat() && s.Float() != 0 || !s.IsFloat() && s.Int() != 0 {
		return []any{}, nil
	}
	return nil, c.Errorf("self", "%s", c.Str("assert_msg"))
}

// constrainRange checks ATen's sym_constrain_range: min <= size <= max,
// with the bounds defaulting to the int64 range.
func constrainRange(c *ops.Call, lo int64) ([]any, error) {
	hi := int64(math.MaxInt64)
	if v, ok := c.OptInt("max"); ok {
		hi = v
	}
	if hi < lo {
		return nil, c.Errorf("max", "Max must be greater than or equal to min. Got min=%d max=%d", lo, hi)
	}
	v := c.Scalar("size").Int()
	if v < lo || v > hi {
		return nil, c.Errorf("size", "Invalid value range for %d between [%d, %d].", v, lo, hi)
	}
	return []any{}, nil
}

// symConstrainRange is aten::sym_constrain_range: size must lie in
// [min, max] (each bound optional).
func symConstrainRange(c *ops.Call) ([]any, error) {
	lo := int64(math.MinInt64)
	if v, ok := c.OptInt("min"); ok {
		lo = v
	}
	return constrainRange(c, lo)
}

// symConstrainRangeForSize is aten::sym_constrain_range_for_size: size
// must be a valid size in [min (default 0), max], and max, when given,
// above 2.
func symConstrainRangeForSize(c *ops.Call) ([]any, error) {
	lo := int64(0)
	if v, ok := c.OptInt("min"); ok {
		lo = v
	}
	if v, ok := c.OptInt("max"); ok && v <= 2 {
		return nil, c.Errorf("max", "Max value to constrain_range_for_size must be greater than 2. got: %d", v)
	}
	return constrainRange(c, lo)
}

// assertTensorMetadata is aten::_assert_tensor_metadata: an error when a's
// sizes, strides or dtype differ from those given (device and layout must
// be the cpu and strided when given).
func assertTensorMetadata(c *ops.Call) ([]any, error) {
	a := c.Tensor("a")
	check := func(arg, what string, want []int64, got []int) error {
		if c.IsNone(arg) {
			return nil
		}
		if !slices.Equal(ints(want), got) {
			return c.Errorf(arg, "Tensor %s mismatch! Expected: %v, Got: %v", what, fmtInts(want), fmtInts64(got))
		}
		return nil
	}
	if err := check("size", "sizes", c.Ints("size"), a.Shape()); err != nil {
		return nil, err
	}
	if !a.IsMeta() {
		if err := check("stride", "strides", c.Ints("stride"), a.Strides()); err != nil {
			return nil, err
		}
	}
	if dt, ok := c.DType("dtype"); ok && dt != a.DType() {
		return nil, c.Errorf("dtype", "Tensor dtype mismatch! Expected: %s, Got: %s", scalarTypeName(dt), scalarTypeName(a.DType()))
	}
	if hasArg(c, "device") {
		if _, err := factoryOptions(c, nil); err != nil {
			return nil, err
		}
	}
	return []any{}, nil
}

// fmtInts formats a size list as ATen prints an IntArrayRef: [2, 3].
func fmtInts(v []int64) string {
	s := "["
	for i, x := range v {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(x)
	}
	return s + "]"
}

// fmtInts64 is fmtInts for ints.
func fmtInts64(v []int) string {
	w := make([]int64, len(v))
	for i, x := range v {
		w[i] = int64(x)
	}
	return fmtInts(w)
}
