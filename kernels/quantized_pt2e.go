package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// The PT2E quantization helpers of torch/ao/quantization/fx/_decomposed.py
// beyond quantized.go's: choose_qparams (affine and symmetric, per tensor
// and per token), quantize/dequantize per token and per channel group,
// ATen's _choose_qparams_per_tensor (quant_utils'
// ChooseQuantizationParams) and choose_qparams_optimized (QTensor.cpp's
// greedy search). The Python functions compose tensor
// operators; these kernels call the same registered operators in the same
// order, so dtypes (type promotion) and rounding follow PyTorch's.

// registerQuantizedPT2E registers the kernels of quantized_pt2e.go.
func registerQuantizedPT2E() {
	registerBoth("quantized_decomposed::choose_qparams.tensor", func(c *ops.Call) ([]any, error) { return chooseQParams(c, false) })
	registerBoth("quantized_decomposed::choose_qparams_symmetric.tensor", func(c *ops.Call) ([]any, error) { return chooseQParams(c, true) })
	registerBoth("quantized_decomposed::choose_qparams_per_token", chooseQParamsPerToken)
	registerBoth("quantized_decomposed::choose_qparams_per_token_asymmetric", chooseQParamsPerTokenAsym)
	registerBoth("quantized_decomposed::_choose_qparams_per_token_asymmetric_impl", chooseQParamsPerTokenAsym)
	registerBoth("quantized_decomposed::quantize_per_token", quantizePerToken)
	registerBoth("quantized_decomposed::dequantize_per_token", dequantizePerToken)
	registerBoth("quantized_decomposed::quantize_per_channel_group", quantizePerChannelGroup)
	registerBoth("quantized_decomposed::dequantize_per_channel_group", dequantizePerChannelGroup)
	registerBoth("aten::_choose_qparams_per_tensor", chooseQParamsPerTensor)
	registerBoth("aten::choose_qparams_optimized", chooseQParamsOptimized)
}

// checkQInput is choose_qparams' input check: float32, float16 or
// bfloat16, and a known target dtype with quant_min <= quant_max
// containing 0.
func checkQInput(c *ops.Call, x *tensor.Tensor, dt tensor.DType, qmin, qmax int64) error {
	if d := x.DType(); d != tensor.Float32 && d != tensor.Float16 && d != tensor.BFloat16 {
		return c.Errorf("input", "Expecting input to have dtype torch.float32/16/b16, but got dtype: %s", scalarTypeName(d))
	}
	if !qvalueDTypes[dt] {
		return c.Errorf("dtype", "Expecting target dtype to be one of the quantized value dtypes, but got: %s", scalarTypeName(dt))
	}
	if !(qmin <= 0 && 0 <= qmax) {
		return c.Errorf("quant_min", "Used-specified quantization range must include 0.")
	}
	if qmin >= qmax {
		return c.Errorf("quant_min", "qmin must be strictly less than qmax for user-specified quantization range.")
	}
	return nil
}

// chooseQParams is choose_qparams.tensor (and choose_qparams_symmetric):
// determine_qparams over the input's aminmax with eps as a float32 [1]
// tensor; the scale is float64 and the zero point int64, both of shape
// [1].
func chooseQParams(c *ops.Call, symmetric bool) ([]any, error) {
	x := c.Tensor("input")
	qmin, qmax, eps := c.Int("quant_min"), c.Int("quant_max"), c.Float("eps")
	dt, _ := c.DType("dtype")
	if err := checkQInput(c, x, dt, qmin, qmax); err != nil {
		return nil, err
	}
	p := &chain{c: c}
	mm := p.calls("aten::aminmax", x)
	if p.err != nil {
		return nil, p.err
	}
	minV, maxV := mm[0].(*tensor.Tensor), mm[1].(*tensor.Tensor)
	if !meta(minV, maxV) && minV.Float64s()[0] > maxV.Float64s()[0] {
		return nil, c.Errorf("input", "min %v should be less than max %v", minV.Float64s()[0], maxV.Float64s()[0])
	}
	epsT := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{eps}, 1))
	if x.IsMeta() {
		epsT = epsT.Meta()
	}
	minNeg := p.call("aten::minimum", minV, p.call("aten::zeros_like", minV))
	maxPos := p.call("aten::maximum", maxV, p.call("aten::zeros_like", maxV))
	var scale, zp *tensor.Tensor
	if symmetric {
		maxPos = p.call("aten::maximum", p.call("aten::neg", minNeg), maxPos)
		scale = p.call("aten::div.Scalar", maxPos, float64(qmax-qmin)/2)
		scale = p.call("aten::maximum", scale, epsT)
		fill := int64(0)
		if dt == tensor.Uint8 {
			fill = 128
		}
		zp = tensor.Must(empty(x.IsMeta(), tensor.Int64, []int{1}))
		if !x.IsMeta() {
			zp = filledInts(tensor.Int64, fill, []int{1})
		}
	} else {
		scale = p.call("aten::div.Scalar", p.call("aten::sub.Tensor", maxPos, minNeg), float64(qmax-qmin))
		scale = p.call("aten::maximum", scale, epsT)
		zp = to2(p, p.call("aten::round", p.call("aten::div.Tensor", minNeg, scale)), tensor.Int32)
		zp = p.call("aten::rsub.Scalar", zp, qmin)
		zp = p.call("aten::clamp", zp, qmin, qmax)
	}
	scale = to2(p, scale, tensor.Float64)
	zp = to2(p, zp, tensor.Int64)
	if p.err != nil {
		return nil, p.err
	}
	return []any{scale, zp}, nil
}

// chooseQParamsPerToken is choose_qparams_per_token: per row of the last
// dimension, scale = max(amax|x|, 1e-5)/127 (float16 in float32) and a
// zero zero point of the scale's dtype; dtype must be int8.
func chooseQParamsPerToken(c *ops.Call) ([]any, error) {
	x := c.Tensor("input")
	if dt, _ := c.DType("dtype"); dt != tensor.Int8 {
		return nil, c.Errorf("dtype", "unsupported dtype in choose_qparams_per_token: %s", scalarTypeName(dt))
	}
	p := &chain{c: c}
	s := p.callKw("aten::amax", map[string]any{"keepdim": true}, p.call("aten::abs", x), []int64{-1})
	if s != nil && s.DType() == tensor.Float16 {
		s = to2(p, s, tensor.Float32)
	}
	s = p.call("aten::div.Scalar", p.call("aten::clamp", s, 1e-5, nil), int64(127))
	zp := p.call("aten::zeros_like", s)
	if p.err != nil {
		return nil, p.err
	}
	return []any{s, zp}, nil
}

// chooseQParamsPerTokenAsym is choose_qparams_per_token_asymmetric (and
// its _impl): per row of the last dimension, the affine int8 parameters
// of [min(amin, 0), max(amax, 0)], the zero point from the bound with the
// smaller error; scale float64 and zero point int64 of shape [..., 1].
func chooseQParamsPerTokenAsym(c *ops.Call) ([]any, error) {
	x := c.Tensor("input")
	const qmin, qmax = -128, 127
	p := &chain{c: c}
	kw := map[string]any{"keepdim": true}
	minV := p.callKw("aten::amin", kw, x, []int64{-1})
	maxV := p.callKw("aten::amax", kw, x, []int64{-1})
	minNeg := p.call("aten::minimum", minV, p.call("aten::zeros_like", minV))
	maxPos := p.call("aten::maximum", maxV, p.call("aten::zeros_like", maxV))
	eps := float64(math.Nextafter32(1, 2) - 1)
	scale := p.call("aten::div.Scalar", p.call("aten::sub.Tensor", maxPos, minNeg), float64(qmax-qmin))
	scale = p.call("aten::clamp", scale, eps, nil)
	dmin := p.call("aten::div.Tensor", minNeg, scale)
	dmax := p.call("aten::div.Tensor", maxPos, scale)
	fromMin := p.call("aten::add.Scalar", dmin, int64(qmin))
	fromMax := p.call("aten::add.Scalar", dmax, int64(qmax))
	cond := p.call("aten::gt.Scalar", p.call("aten::add.Tensor", fromMin, fromMax), int64(0))
	zp := p.call("aten::where.self", cond, p.call("aten::rsub.Scalar", dmin, int64(qmin)), p.call("aten::rsub.Scalar", dmax, int64(qmax)))
	zp = p.call("aten::round", p.call("aten::clamp", zp, int64(qmin), int64(qmax)))
	scale = to2(p, scale, tensor.Float64)
	zp = to2(p, zp, tensor.Int64)
	if p.err != nil {
		return nil, p.err
	}
	return []any{scale, zp}, nil
}

// perTokenCheck is _per_token_quant_qparam_dim_check: one scale and one
// zero point per token (the product of all but the last dimension).
func perTokenCheck(c *ops.Call, x, scales, zps *tensor.Tensor) error {
	tokens := product(x.Shape()[:max(x.Dim()-1, 0)])
	if scales.Numel() != tokens {
		return c.Errorf("scales", "num_tokens: %d scales: %s", tokens, shapeString(scales.Shape()))
	}
	if zps.Numel() != tokens {
		return c.Errorf("zero_points", "num_tokens: %d zero_points: %s", tokens, shapeString(zps.Shape()))
	}
	return nil
}

// quantizePerToken is quantize_per_token:
// clamp(round(x * (1/scales) + zero_points), quant_min, quant_max) in
// dtype, scales and zero points broadcast per token.
func quantizePerToken(c *ops.Call) ([]any, error) {
	x, s, z := c.Tensor("input"), c.Tensor("scales"), c.Tensor("zero_points")
	qmin, qmax := c.Int("quant_min"), c.Int("quant_max")
	dt, _ := c.DType("dtype")
	if err := checkQBounds(c, qmin, qmax, dt); err != nil {
		return nil, err
	}
	if err := perTokenCheck(c, x, s, z); err != nil {
		return nil, err
	}
	p := &chain{c: c}
	inv := p.call("aten::mul.Scalar", p.call("aten::reciprocal", s), 1.0)
	r := p.call("aten::round", p.call("aten::add.Tensor", p.call("aten::mul.Tensor", x, inv), z))
	r = p.call("aten::clamp", r, qmin, qmax)
	return p.result(to2(p, r, dt))
}

// dequantizePerToken is dequantize_per_token: (x - zero_points) * scales
// in output_dtype.
func dequantizePerToken(c *ops.Call) ([]any, error) {
	x, s, z := c.Tensor("input"), c.Tensor("scales"), c.Tensor("zero_points")
	out, _ := c.DType("output_dtype")
	p := &chain{c: c}
	r := p.call("aten::mul.Tensor", p.call("aten::sub.Tensor", x, z), s)
	return p.result(to2(p, r, out))
}

// channelGroup checks a per-channel-group call and returns its group
// size: input is 2-d, group_size > 1 (the row length when larger and
// there is one scale per row) and divides the row length.
func channelGroup(c *ops.Call, x, scales *tensor.Tensor) (int, error) {
	gs := int(c.Int("group_size"))
	if gs <= 1 {
		return 0, c.Errorf("group_size", "expected group_size > 1, got %d", gs)
	}
	if x.Dim() != 2 {
		return 0, c.Errorf("input", "expected a 2-d input, got %d-d", x.Dim())
	}
	if gs > x.Size(1) && scales.Dim() > 0 && scales.Size(scales.Dim()-1) == 1 {
		gs = x.Size(1)
	}
	if x.Size(1)%gs != 0 {
		return 0, c.Errorf("group_size", "the row length %d is not a multiple of group_size %d", x.Size(1), gs)
	}
	if scales.Numel() != x.Numel()/gs {
		return 0, c.Errorf("scales", "expected %d scales (one per group of %d), got %d", x.Numel()/gs, gs, scales.Numel())
	}
	return gs, nil
}

// quantizePerChannelGroup is quantize_per_channel_group: the input in
// groups of group_size along its rows, each quantized with its scale and
// zero point; NaN inputs are refused.
func quantizePerChannelGroup(c *ops.Call) ([]any, error) {
	x, s, z := c.Tensor("input"), c.Tensor("scales"), c.Tensor("zero_points")
	qmin, qmax := c.Int("quant_min"), c.Int("quant_max")
	dt, _ := c.DType("dtype")
	gs, err := channelGroup(c, x, s)
	if err != nil {
		return nil, err
	}
	if !x.IsMeta() {
		for _, v := range x.Float64s() {
			if v != v {
				return nil, c.Errorf("input", "quantize_per_channel_group does not take NaN inputs")
			}
		}
	}
	p := &chain{c: c}
	g := p.call("aten::reshape", x, []int64{-1, int64(gs)})
	inv := p.call("aten::mul.Scalar", p.call("aten::reciprocal", p.call("aten::reshape", s, []int64{-1, 1})), 1.0)
	r := p.call("aten::round", p.call("aten::add.Tensor", p.call("aten::mul.Tensor", g, inv), p.call("aten::reshape", z, []int64{-1, 1})))
	r = to2(p, p.call("aten::clamp", r, qmin, qmax), dt)
	return p.result(p.call("aten::reshape", r, []int64{int64(x.Size(0)), int64(x.Size(1))}))
}

// dequantizePerChannelGroup is dequantize_per_channel_group:
// (x - zero_points) * scales per group, in output_dtype; no zero points
// means zero.
func dequantizePerChannelGroup(c *ops.Call) ([]any, error) {
	x, s := c.Tensor("input"), c.Tensor("scales")
	out, _ := c.DType("output_dtype")
	gs, err := channelGroup(c, x, s)
	if err != nil {
		return nil, err
	}
	p := &chain{c: c}
	g := p.call("aten::reshape", x, []int64{-1, int64(gs)})
	var zp *tensor.Tensor
	if c.IsNone("zero_points") {
		zp = tensor.Must(empty(x.IsMeta(), tensor.Int32, nil))
	} else {
		zp = p.call("aten::reshape", c.Tensor("zero_points"), []int64{-1, 1})
	}
	r := p.call("aten::mul.Tensor", p.call("aten::sub.Tensor", g, zp), p.call("aten::reshape", s, []int64{-1, 1}))
	r = p.call("aten::reshape", r, []int64{int64(x.Size(0)), int64(x.Size(1))})
	return p.result(to2(p, r, out))
}

// chooseQParamsPerTensor is aten::_choose_qparams_per_tensor: quant_utils'
// ChooseQuantizationParams over the input's float32 min and max for the
// range [0, 255] ([0, 127] with reduce_range): the scale (a float) and the
// zero point (an int).
func chooseQParamsPerTensor(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	if x.IsMeta() {
		return dataDependentMeta(c)
	}
	if x.Numel() == 0 {
		return nil, c.Errorf("self", "min(): Expected reduction dim to be specified for input.numel() == 0.")
	}
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for _, v := range x.Float64s() {
		lo, hi = min(lo, float32(v)), max(hi, float32(v))
	}
	qmin, qmax := int32(0), int32(255)
	if c.Bool("reduce_range") {
		qmin, qmax = qmin/2, qmax/2
	}
	lo, hi = min(lo, 0), max(hi, 0)
	scale := (float64(hi) - float64(lo)) / float64(qmax-qmin)
	if float32(scale) == 0 || math.IsInf(float64(1/float32(scale)), 0) {
		scale = 0.1
	}
	const small = float32(6.1e-5)
	if scale < float64(small) {
		org := float32(scale)
		scale = float64(small)
		switch {
		case lo == 0:
			hi = small * float32(qmax-qmin)
		case hi == 0:
			lo = -small * float32(qmax-qmin)
		default:
			amp := small / org
			lo, hi = lo*amp, hi*amp
		}
	}
	fromMin := float64(qmin) - float64(lo)/scale
	fromMax := float64(qmax) - float64(hi)/scale
	errMin := math.Abs(float64(qmin)) - math.Abs(float64(lo)/scale)
	errMax := math.Abs(float64(qmax)) - math.Abs(float64(hi)/scale)
	initial := fromMax
	if errMin < errMax {
		initial = fromMin
	}
	var zp int64
	switch {
	case initial < float64(qmin):
		zp = int64(qmin)
	case initial > float64(qmax):
		zp = int64(qmax)
	default:
		zp = int64(math.RoundToEven(initial))
	}
	return []any{scale, zp}, nil
}

// quantLoss is QTensor.cpp's calculate_quant_loss in float32: the L2 norm
// of x - fake_quant(x) for the range [xmin, xmax] with a float16-rounded
// xmin and scale.
func quantLoss(x []float32, xmin, xmax float32, bits int64) float32 {
	half := rounder(tensor.Float16)
	xmin = float32(half(float64(xmin)))
	rng := xmax - xmin
	qmax := float32(int64(1)<<bits - 1)
	scale := float32(1)
	if rng != 0 {
		scale = float32(half(float64(rng / qmax)))
	}
	inv := float32(1)
	if scale != 0 {
		inv = 1 / scale
	}
	var norm float32
	for _, v := range x {
		q := max(0, min(float32(math.RoundToEven(float64(float32((v-xmin)*inv)))), qmax))
		q = float32(q*scale) + xmin
		d := v - q
		norm += float32(d * d)
	}
	return float32(math.Sqrt(float64(norm)))
}

// chooseQParamsOptimized is aten::choose_qparams_optimized: starting from
// the min and max of the first numel elements, it moves the bound whose
// step of (max-min)/n_bins loses less, while the range stays above
// n_bins*(1-ratio) steps, and keeps the local optimum of the quantization
// loss; it returns ([xmax], [xmin]) as float32 tensors.
func chooseQParamsOptimized(c *ops.Call) ([]any, error) {
	x := c.Tensor("input")
	numel, bins, ratio, bits := c.Int("numel"), c.Int("n_bins"), c.Float("ratio"), c.Int("bit_width")
	if x.DType() != tensor.Float32 {
		return nil, c.Errorf("input", "expected a float32 input, got %s", scalarTypeName(x.DType()))
	}
	if x.Numel() == 0 {
		return nil, c.Errorf("input", "input tensor is empty and has no data")
	}
	if numel < 0 || numel > int64(x.Numel()) {
		return nil, c.Errorf("numel", "numel is out of the bound of input tensor")
	}
	if bits < 1 || bits > 24 {
		return nil, c.Errorf("bit_width", "expected a bit_width in [1, 24], got %d", bits)
	}
	if x.IsMeta() {
		return []any{tensor.Must(tensor.NewMeta(tensor.Float32, 1)), tensor.Must(tensor.NewMeta(tensor.Float32, 1))}, nil
	}
	if numel == 0 {
		return nil, c.Errorf("numel", "numel must be positive to take the min and max of the input")
	}
	all := x.Float64s()
	vals := make([]float32, numel)
	for i := range vals {
		vals[i] = float32(all[i])
	}
	xmin, xmax := vals[0], vals[0]
	for _, v := range vals {
		xmin, xmax = min(xmin, v), max(xmax, v)
	}
	nb := float32(bins)
	step := (xmax - xmin) / nb
	minBins := float32(float64(nb) * (1 - ratio))
	loss := quantLoss(vals, xmin, xmax, bits)
	best := loss
	curMin, curMax, curLoss := xmin, xmax, loss
	thr := float32(minBins * step)
	for curMin+thr < curMax {
		l1 := quantLoss(vals, curMin+step, curMax, bits)
		l2 := quantLoss(vals, curMin, curMax-step, bits)
		if curLoss < l1 && curLoss < l2 && curLoss < best {
			best, xmin, xmax = curLoss, curMin, curMax
		}
		if l1 < l2 {
			curMin, curLoss = curMin+step, l1
		} else {
			curMax, curLoss = curMax-step, l2
		}
	}
	return []any{
		tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{float64(xmax)}, 1)),
		tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{float64(xmin)}, 1)),
	}, nil
}
