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
// decomposed ops instead, which work on plain uint8/int8/int16/int32
// tensors, and have kernels here composed as torch/ao/quantization/fx/
// _decomposed.py composes them: quantized_decomposed::quantize_per_tensor
// and dequantize_per_tensor (with their .tensor and .tensor2 overloads),
// quantize_per_channel, dequantize_per_channel, fake_quant_per_channel and
// convert_element_type.no_fuse. (choose_qparams and the per-token and
// per-channel-group forms have none yet.)

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
	for _, ov := range []string{"", ".tensor", ".tensor2"} {
		registerBoth("quantized_decomposed::quantize_per_tensor"+ov, qdQuantizePerTensor)
		registerBoth("quantized_decomposed::dequantize_per_tensor"+ov, qdDequantizePerTensor)
	}
	registerBoth("quantized_decomposed::quantize_per_channel", qdQuantizePerChannel)
	registerBoth("quantized_decomposed::dequantize_per_channel", qdDequantizePerChannel)
	registerBoth("quantized_decomposed::fake_quant_per_channel", qdFakeQuantPerChannel)
	registerBoth("quantized_decomposed::convert_element_type.no_fuse", qdConvert)
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

// qvalueDTypes are the dtypes quantized_decomposed's ops quantize to that
// gofx has (_DTYPE_TO_QVALUE_BOUNDS's integer dtypes; float8 has no gofx
// dtype).
var qvalueDTypes = map[tensor.DType]bool{tensor.Uint8: true, tensor.Int8: true, tensor.Int16: true, tensor.Int32: true}

// checkQBounds is _quant_min_max_bounds_check: quant_min and quant_max
// within dtype's range.
func checkQBounds(c *ops.Call, qmin, qmax int64, dt tensor.DType) error {
	if !qvalueDTypes[dt] {
		return c.Errorf("dtype", "Unsupported dtype: %s", scalarTypeName(dt))
	}
	lo, hi := intRange(dt)
	if qmin < lo {
		return c.Errorf("quant_min", "quant_min out of bound for dtype, quant_min_lower_bound: %d quant_min: %d", lo, qmin)
	}
	if qmax > hi {
		return c.Errorf("quant_max", "quant_max out of bound for dtype, quant_max_upper_bound: %d quant_max: %d", hi, qmax)
	}
	return nil
}

// itemOf reads the one element of a qparam tensor argument as a Scalar.
func itemOf(c *ops.Call, arg string) (ops.Scalar, error) {
	t := c.Tensor(arg)
	if t.Numel() != 1 {
		return ops.Scalar{}, c.Errorf(arg, "Expecting %s tensor to be one element, but received : %d", arg, t.Numel())
	}
	if t.IsMeta() {
		return ops.IntScalar(0), nil
	}
	if t.DType().IsFloat() {
		return ops.FloatScalar(t.Float64s()[0]), nil
	}
	return ops.IntScalar(t.Int64s()[0]), nil
}

// qparams reads scale, zero_point, quant_min and quant_max of a
// quantized_decomposed per-tensor op, as numbers or one-element tensors
// (the .tensor and .tensor2 overloads).
func qparams(c *ops.Call) (scale float64, zp, qmin, qmax int64, err error) {
	get := func(arg string) (ops.Scalar, error) {
		switch v := c.Arg(arg).(type) {
		case *tensor.Tensor:
			return itemOf(c, arg)
		case float64:
			return ops.FloatScalar(v), nil
		case int64:
			return ops.IntScalar(v), nil
		}
		return ops.Scalar{}, c.Errorf(arg, "expected a number or a one-element tensor")
	}
	var s [4]ops.Scalar
	for i, arg := range []string{"scale", "zero_point", "quant_min", "quant_max"} {
		if s[i], err = get(arg); err != nil {
			return
		}
	}
	return s[0].Float(), s[1].Int(), s[2].Int(), s[3].Int(), nil
}

// floatInput converts a float16/bfloat16 input to float32 and requires
// float32, as the quantize ops of _decomposed.py do.
func floatInput(p *chain, x *tensor.Tensor) *tensor.Tensor {
	if dt := x.DType(); dt == tensor.Float16 || dt == tensor.BFloat16 {
		x = to2(p, x, tensor.Float32)
	}
	if p.err == nil && x.DType() != tensor.Float32 {
		p.err = p.c.Errorf("input", "Expecting input to have dtype torch.float32, but got dtype: torch.%s", x.DType())
	}
	return x
}

// qdQuantizePerTensor is quantized_decomposed::quantize_per_tensor (and
// .tensor, .tensor2): clamp(round(x * (1/scale)) + zero_point, quant_min,
// quant_max) converted to dtype, on plain tensors.
func qdQuantizePerTensor(c *ops.Call) ([]any, error) {
	scale, zp, qmin, qmax, err := qparams(c)
	if err != nil {
		return nil, err
	}
	dt, _ := c.DType("dtype")
	p := &chain{c: c, arg: "input"}
	x := floatInput(p, c.Tensor("input"))
	if p.err != nil {
		return nil, p.err
	}
	if err := checkQBounds(c, qmin, qmax, dt); err != nil {
		return nil, err
	}
	r := p.call("aten::add.Scalar", p.call("aten::round", p.call("aten::mul.Scalar", x, ops.FloatScalar(1.0/scale))), ops.IntScalar(zp))
	r = p.call("aten::clamp", r, ops.IntScalar(qmin), ops.IntScalar(qmax))
	return p.result(to2(p, r, dt))
}

// qdDequantizePerTensor is quantized_decomposed::dequantize_per_tensor
// (and .tensor, .tensor2): (x.to(out_dtype) - zero_point) * scale, x of
// dtype; out_dtype defaults to float32.
func qdDequantizePerTensor(c *ops.Call) ([]any, error) {
	scale, zp, _, _, err := qparams(c)
	if err != nil {
		return nil, err
	}
	x := c.Tensor("input")
	dt, _ := c.DType("dtype")
	if x.DType() != dt {
		return nil, c.Errorf("input", "Expecting input to have dtype: torch.%s, but got torch.%s", dt, x.DType())
	}
	if !qvalueDTypes[dt] {
		return nil, c.Errorf("dtype", "Unsupported dtype in dequantize_per_tensor: torch.%s", dt)
	}
	out, ok := c.DType("out_dtype")
	if !ok {
		out = tensor.Float32
	}
	p := &chain{c: c, arg: "input"}
	r := p.call("aten::sub.Scalar", to2(p, x, out), ops.IntScalar(zp))
	return p.result(p.call("aten::mul.Scalar", r, ops.FloatScalar(scale)))
}

// channelView returns t (one value per index of dimension axis of a
// rank-dimensional tensor) reshaped to broadcast along axis.
func channelView(p *chain, t *tensor.Tensor, axis, rank int) *tensor.Tensor {
	if p.err != nil {
		return nil
	}
	shape := make([]int, rank)
	for i := range shape {
		shape[i] = 1
	}
	shape[axis] = t.Numel()
	v, err := t.Reshape(shape...)
	if err != nil {
		p.err = p.c.Errorf("scales", "%v", err)
		return nil
	}
	return v
}

// channelAxis checks the axis argument of a per-channel op.
func channelAxis(c *ops.Call, x *tensor.Tensor) (int, error) {
	axis := c.Int("axis")
	if axis < 0 || axis >= int64(x.Dim()) {
		return 0, c.Errorf("axis", "Expecting axis to be < %d", x.Dim())
	}
	return int(axis), nil
}

// qdQuantizePerChannel is quantized_decomposed::quantize_per_channel:
// clamp(round(x * (1/scales)) + zero_points, quant_min, quant_max) with
// one scale and zero point per index of axis, converted to dtype.
func qdQuantizePerChannel(c *ops.Call) ([]any, error) {
	p := &chain{c: c, arg: "input"}
	x := floatInput(p, c.Tensor("input"))
	if p.err != nil {
		return nil, p.err
	}
	axis, err := channelAxis(c, x)
	if err != nil {
		return nil, err
	}
	dt, _ := c.DType("dtype")
	qmin, qmax := c.Int("quant_min"), c.Int("quant_max")
	if err := checkQBounds(c, qmin, qmax, dt); err != nil {
		return nil, err
	}
	s := channelView(p, c.Tensor("scales"), axis, x.Dim())
	z := channelView(p, c.Tensor("zero_points"), axis, x.Dim())
	r := p.call("aten::add.Tensor", p.call("aten::round", p.call("aten::mul.Tensor", x, p.call("aten::reciprocal", s))), z)
	r = p.call("aten::clamp", r, ops.IntScalar(qmin), ops.IntScalar(qmax))
	return p.result(to2(p, r, dt))
}

// qdDequantizePerChannel is quantized_decomposed::dequantize_per_channel:
// (x - zero_points) * scales per index of axis (x * scales without zero
// points), converted to out_dtype (float32 by default).
func qdDequantizePerChannel(c *ops.Call) ([]any, error) {
	x := c.Tensor("input")
	dt, _ := c.DType("dtype")
	if x.DType() != dt {
		return nil, c.Errorf("input", "Expecting input to have dtype torch.%s, but got dtype: torch.%s", dt, x.DType())
	}
	axis, err := channelAxis(c, x)
	if err != nil {
		return nil, err
	}
	if err := checkQBounds(c, c.Int("quant_min"), c.Int("quant_max"), dt); err != nil {
		return nil, err
	}
	out, ok := c.DType("out_dtype")
	if !ok {
		out = tensor.Float32
	}
	p := &chain{c: c, arg: "input"}
	s := channelView(p, c.Tensor("scales"), axis, x.Dim())
	r := x
	if !c.IsNone("zero_points") {
		r = p.call("aten::sub.Tensor", x, channelView(p, c.Tensor("zero_points"), axis, x.Dim()))
	}
	return p.result(to2(p, p.call("aten::mul.Tensor", r, s), out))
}

// qdFakeQuantPerChannel is quantized_decomposed::fake_quant_per_channel:
// with float32 scales and int32 zero points per index of axis,
// (clamp(round(x * (1/s)) + z, quant_min, quant_max) - z) * s.
func qdFakeQuantPerChannel(c *ops.Call) ([]any, error) {
	x := c.Tensor("input")
	if x.DType() != tensor.Float32 {
		return nil, c.Errorf("input", "Expecting input to have dtype torch.float32, but got dtype: torch.%s", x.DType())
	}
	axis, err := channelAxis(c, x)
	if err != nil {
		return nil, err
	}
	p := &chain{c: c, arg: "input"}
	s := channelView(p, to2(p, c.Tensor("scales"), tensor.Float32), axis, x.Dim())
	z := channelView(p, to2(p, c.Tensor("zero_points"), tensor.Int32), axis, x.Dim())
	t := p.call("aten::add.Tensor", p.call("aten::round", p.call("aten::mul.Tensor", x, p.call("aten::reciprocal", s))), z)
	t = p.call("aten::clamp", t, ops.IntScalar(c.Int("quant_min")), ops.IntScalar(c.Int("quant_max")))
	return p.result(p.call("aten::mul.Tensor", p.call("aten::sub.Tensor", t, z), s))
}

// qdConvert is quantized_decomposed::convert_element_type.no_fuse: x
// converted to dtype.
func qdConvert(c *ops.Call) ([]any, error) {
	dt, _ := c.DType("dtype")
	p := &chain{c: c, arg: "input"}
	return p.result(to2(p, c.Tensor("input"), dt))
}
