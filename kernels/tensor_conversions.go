package kernels

import (
	"math"
	"strings"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Conversions, ATen's TensorConversions.cpp: _to_copy, which casts with
// the C++ conversions of ATen's copy kernel.

// registerTensorConversions registers the kernels of tensor_conversions.go.
func registerTensorConversions() {
	registerBoth("aten::_to_copy", toCopy)
}

// toCopy is aten::_to_copy: a contiguous copy of self converted to dtype
// with C++'s casts as x86 performs them.
func toCopy(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	if !c.IsNone("layout") {
		if l := c.Str("layout"); l != "strided" {
			return nil, c.Errorf("layout", "to(options) doesn't support converting to a different layout, but got self.layout being Strided and options.layout set as %s", l)
		}
	}
	if !c.IsNone("device") {
		if d := c.Str("device"); d != "cpu" && !strings.HasPrefix(d, "cpu:") {
			return nil, c.Errorf("device", "device %s is not supported: the reference kernels run on the cpu", d)
		}
	}
	if err := checkMemoryFormat(c, x.Dim()); err != nil {
		return nil, err
	}
	dt := dtypeOr(c, x.DType())
	return one(convert(x, dt)), nil
}

// convert returns a contiguous copy of x converted to dt as ATen's copy
// kernel does on x86: floating values to integers truncate toward zero,
// with NaN, infinities and out-of-range values giving the "integer
// indefinite" (the minimum) of int64 or int32, and the narrower integer
// dtypes taking the low bits of the int32 conversion.
func convert(x *tensor.Tensor, dt tensor.DType) *tensor.Tensor {
	if x.IsMeta() {
		return tensor.Must(tensor.NewMeta(dt, x.Shape()...))
	}
	x = rebase(x)
	if !x.DType().IsFloat() || !dt.IsIntegral(false) {
		return x.To(dt)
	}
	vals := x.Float64s()
	iv := make([]int64, len(vals))
	for i, v := range vals {
		if dt == tensor.Int64 {
			iv[i] = cvtInt64(v)
		} else {
			iv[i] = cvtInt32(v)
		}
	}
	return tensor.Must(tensor.FromInt64s(dt, iv, x.Shape()...))
}

// cvtInt64 truncates v to int64 as x86's cvttsd2si does.
func cvtInt64(v float64) int64 {
	if math.IsNaN(v) || v >= 0x1p63 || v < -0x1p63 {
		return math.MinInt64
	}
	return int64(v)
}

// cvtInt32 truncates v to int32 as x86's 32-bit cvttsd2si does.
func cvtInt32(v float64) int64 {
	if math.IsNaN(v) || v >= 0x1p31 || v <= -0x1p31-1 {
		return math.MinInt32
	}
	return int64(v)
}
