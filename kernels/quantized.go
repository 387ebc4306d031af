package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Quantization, ATen's native/quantized (FakeQuantPerTensorAffine.cpp,
// FakeQuantPerChannelAffine.cpp, QTensor.cpp): the fake quantization ops,
// which round through the integer grid and stay floating point, and
// dequantize on a plain tensor.
//
// gofx has no quantized dtypes (QInt8, QUInt8, QInt32, ...): the ops
// that return a quantized tensor (quantize_per_tensor, quantize_per_channel
// and their overloads) have kernels that fail with an error saying so.
// Programs quantized by PT2E (torch.ao.quantization.quantize_pt2e) use the
// decomposed ops quantized_decomposed::quantize_per_tensor and friends
// instead, which work on plain int8/uint8 tensors.

// registerQuantized registers the kernels of quantized.go.
func registerQuantized() {
	registerBoth("aten::fake_quantize_per_tensor_affine", fakeQuantPerTensor)
	registerBoth("aten::fake_quantize_per_tensor_affine.tensor_qparams", fakeQuantPerTensor)
	registerBoth("aten::fake_quantize_per_channel_affine", fakeQuantPerChannel)
	registerBoth("aten::dequantize.self", dequantizeSelf)
	for _, name := range []string{
		"aten::quantize_per_tensor", "aten::quantize_per_tensor.tensor_qparams",
		"aten::quantize_per_tensor.tensors", "aten::quantize_per_channel",
		"aten::quantize_per_tensor_dynamic",
	} {
		registerBoth(name, quantizedResult)
	}
}

// quantizedResult is the kernel of the operators that return a quantized
// tensor, which gofx cannot represent.
func quantizedResult(c *ops.Call) ([]any, error) {
	return nil, c.Errorf("dtype", "%s returns a quantized tensor (QInt8, QUInt8, QInt32), which gofx has no dtype for; "+
		"export with PT2E quantization, whose quantized_decomposed::quantize_per_tensor/dequantize_per_tensor work on plain int8/uint8 tensors",
		c.Op.Schema().QualifiedName())
}

// dequantizeSelf is aten::dequantize.self on a tensor that is not
// quantized (gofx has no other kind): self converted to float32, as
// ATen's dequantize_cpu_or_cuda does.
func dequantizeSelf(c *ops.Call) ([]any, error) {
	return delegate(c, "aten::_to_copy", []any{c.Tensor("self")}, map[string]any{"dtype": tensor.Float32})
}

// fakeQuant is the element formula of ATen's fake quantize kernels with
// an integer zero point: q = int64(zp + nearbyint(x * invScale)) in float,
// then (clamp(q, qmin, qmax) - zp) * scale in double.
func fakeQuant(x float64, scale, invScale float32, zp, qmin, qmax int64) float64 {
	r := float32(math.RoundToEven(float64(float32(x) * invScale)))
	q := int64(float32(zp) + r)
	q = min(max(q, qmin), qmax)
	return float64(q-zp) * float64(scale)
}

// checkQuantRange makes ATen's checks of quant_min, quant_max and the zero
// point range.
func checkQuantRange(c *ops.Call, zpArg string, zpMin, zpMax, qmin, qmax int64) error {
	if qmin > qmax {
		return c.Errorf("quant_min", "`quant_min` should be less than or equal to `quant_max`.")
	}
	if zpMin < qmin || zpMax > qmax {
		return c.Errorf(zpArg, "`zero_point` must be between `quant_min` and `quant_max`.")
	}
	return nil
}

// checkFakeQuantInput checks the input dtype of a fake quantize kernel
// (floating, as AT_DISPATCH_FLOATING_TYPES_AND_HALF dispatches).
func checkFakeQuantInput(c *ops.Call, x *tensor.Tensor, kernel string) error {
	if dt := x.DType(); !dt.IsFloat() || dt == tensor.BFloat16 {
		return c.Errorf("self", "\"%s\" not implemented for '%s'", kernel, scalarTypeName(dt))
	}
	return nil
}

// fakeQuantPerTensor is aten::fake_quantize_per_tensor_affine and its
// .tensor_qparams overload (scale and zero_point as one-element tensors):
// x quantized to the grid of scale and zero_point, clamped to
// [quant_min, quant_max] and dequantized, in x's dtype.
func fakeQuantPerTensor(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	if err := checkFakeQuantInput(c, x, "fake_quantize_tensor_cachemask_kernel_types"); err != nil {
		return nil, err
	}
	qmin, qmax := c.Int("quant_min"), c.Int("quant_max")
	var scale float64
	var zp int64
	if st, ok := c.Arg("scale").(*tensor.Tensor); ok {
		zt := c.Tensor("zero_point")
		if st.Numel() != 1 || zt.Numel() != 1 {
			return nil, c.Errorf("scale", "expected one-element scale and zero_point tensors, got %d and %d elements", st.Numel(), zt.Numel())
		}
		if meta(st, zt) {
			if qmin > qmax {
				return nil, c.Errorf("quant_min", "`quant_min` should be less than or equal to `quant_max`.")
			}
			return one(tensor.Must(tensor.NewMeta(x.DType(), x.Shape()...))), nil
		}
		scale, zp = st.Float64s()[0], zt.Int64s()[0]
	} else {
		scale, zp = c.Float("scale"), c.Int("zero_point")
	}
	if err := checkQuantRange(c, "zero_point", zp, zp, qmin, qmax); err != nil {
		return nil, err
	}
	if x.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(x.DType(), x.Shape()...))), nil
	}
	sc := float32(scale)
	inv := 1 / sc
	vals := x.Float64s()
	for i, v := range vals {
		vals[i] = fakeQuant(v, sc, inv, zp, qmin, qmax)
	}
	return one(tensor.Must(tensor.FromFloat64s(x.DType(), vals, x.Shape()...))), nil
}

// fakeQuantPerChannel is aten::fake_quantize_per_channel_affine: fake
// quantization with one scale and zero point per index of dimension axis.
// An int32 zero point rounds x/scale and adds it, a floating one (the
// float-qparams form) is added before rounding, as ATen's kernels do.
func fakeQuantPerChannel(c *ops.Call) ([]any, error) {
	x, st, zt := c.Tensor("self"), c.Tensor("scale"), c.Tensor("zero_point")
	if err := checkFakeQuantInput(c, x, "fake_quantize_channel_cachemask_cpu_type_handling"); err != nil {
		return nil, err
	}
	if zdt := zt.DType(); zdt != tensor.Int32 && zdt != tensor.Float32 && zdt != tensor.Float16 {
		return nil, c.Errorf("zero_point", "Zero-point must be Int32, Float or Half, found %s", scalarTypeName(zdt))
	}
	if st.Dim() != 1 {
		return nil, c.Errorf("scale", "scale should be a 1-D tensor")
	}
	if zt.Dim() != 1 {
		return nil, c.Errorf("zero_point", "zero point should be a 1-D tensor")
	}
	if st.Numel() != zt.Numel() {
		return nil, c.Errorf("zero_point", "scale and zero-point need to have the same dimensions")
	}
	axis := c.Int("axis")
	if axis < 0 || axis >= int64(x.Dim()) {
		return nil, c.Errorf("axis", "`axis` must be between 0 and number of dimensions of input")
	}
	ax := int(axis)
	if st.Numel() != x.Size(ax) {
		return nil, c.Errorf("scale", "dimensions of scale and zero-point are not consistent with input tensor")
	}
	qmin, qmax := c.Int("quant_min"), c.Int("quant_max")
	if qmin > qmax {
		return nil, c.Errorf("quant_min", "`quant_min` should be less than or equal to `quant_max`.")
	}
	if meta(x, st, zt) {
		return one(tensor.Must(tensor.NewMeta(x.DType(), x.Shape()...))), nil
	}
	scales := st.Float64s()
	floatZP := zt.DType().IsFloat()
	zps := zt.Float64s()
	if len(zps) > 0 && !floatZP { // a floating zero point may lie outside
		lo, hi := slicesMinMax(zps)
		if int64(lo) < qmin || int64(hi) > qmax {
			return nil, c.Errorf("zero_point", "`zero_point` must be between `quant_min` and `quant_max`.")
		}
	}
	shape := x.Shape()
	inner := 1
	for _, d := range shape[ax+1:] {
		inner *= d
	}
	ch := shape[ax]
	vals := x.Contiguous().Float64s()
	for i, v := range vals {
		k := (i / inner) % ch
		sc := float32(scales[k])
		inv := 1 / sc
		if floatZP {
			z := float32(zps[k])
			q := int64(math.RoundToEven(float64(z + float32(v)*inv)))
			q = min(max(q, qmin), qmax)
			vals[i] = (float64(q) - float64(z)) * float64(sc)
			continue
		}
		vals[i] = fakeQuant(v, sc, inv, int64(zps[k]), qmin, qmax)
	}
	return one(tensor.Must(tensor.FromFloat64s(x.DType(), vals, shape...))), nil
}

// slicesMinMax returns the smallest and largest of a non-empty slice.
func slicesMinMax(v []float64) (lo, hi float64) {
	lo, hi = v[0], v[0]
	for _, x := range v[1:] {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}
