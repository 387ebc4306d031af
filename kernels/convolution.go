package kernels

import (
	"fmt"
	"math"
	"slices"
	"strings"

	fastgemm "github.com/gofx/gofx/internal/gemm"
	"github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Convolutions, ATen's Convolution.cpp: aten::convolution (1-d, 2-d and
// 3-d, grouped, dilated, transposed with output_padding), the composites
// conv1d, conv2d, conv3d (and their padding="same"/"valid" overloads),
// conv_transpose1d, conv_transpose2d and _convolution, and
// convolution_backward.
//
// Every case runs as a 3-d convolution (1-d and 2-d ones get leading
// spatial dimensions of size 1). A forward convolution is one GEMM per
// (batch, group): weight [Cout/g, Cin/g*K] × columns [Cin/g*K, L]. For
// floats internal/gemm's GemmConv computes it without an im2col matrix:
// the image is padded (and split into stride phases) once so that every
// row of the columns is a contiguous slice of it, which its micro-kernels
// read in place ("shifted" convolution; GOFX_CONV=im2col, read at
// start-up, gathers the columns while packing B instead), the bias added
// in the final pass, each group's weight packed once for a batch. For
// integers the columns are made by im2col, and a 1×1 unstrided one a plain GEMM (GemmEpilogue); a
// depthwise one (one input channel per group, at most four output
// channels per group, 1-d or 2-d, floats) runs on the direct kernel of
// convolution_depthwise.go instead; a transposed one is one GEMM weightᵀ × input giving
// columns, scattered into the output (col2im). GEMMs go through gemm
// (internal/gemm for floats, which parallelizes large products itself);
// im2col and col2im split over both cores, and many small (batch, group)
// products run in parallel. float32 and bfloat16 compute in float32,
// integers in int64 (wrapped to the dtype at the end). The gradients of
// convolution_backward run through the same im2col, col2im and GEMM
// helpers in the forward's work type; an output that output_mask does not
// ask for is nil (None in ATen).

// registerConvolution registers the kernels of convolution.go.
func registerConvolution() {
	registerBoth("aten::convolution_backward", convolutionBackward)
	registerBoth("aten::convolution", convolution)
	registerBoth("aten::conv1d", func(c *ops.Call) ([]any, error) { return convNd(c, 1) })
	registerBoth("aten::conv2d", func(c *ops.Call) ([]any, error) { return convNd(c, 2) })
	registerBoth("aten::conv3d", func(c *ops.Call) ([]any, error) { return convNd(c, 3) })
	registerBoth("aten::conv_transpose1d", func(c *ops.Call) ([]any, error) { return convTranspose(c, 1) })
	registerBoth("aten::conv_transpose2d.input", func(c *ops.Call) ([]any, error) { return convTranspose(c, 2) })
	registerBoth("aten::conv1d.padding", convPadding("aten::conv1d"))
	registerBoth("aten::conv2d.padding", convPadding("aten::conv2d"))
	registerBoth("aten::conv3d.padding", convPadding("aten::conv3d"))
	registerBoth("aten::_convolution", underscoreConvolution)
	registerBoth("aten::_convolution.deprecated", underscoreConvolution)
}

// convolutionBackward is aten::convolution_backward: the gradients of a
// convolution's output with respect to input (a transposed convolution of
// grad_output, or a convolution for a transposed forward), weight (im2col
// GEMMs accumulated over the batch) and bias (grad_output summed over all
// dimensions but the channels).
func convolutionBackward(c *ops.Call) ([]any, error) {
	g, x, w := c.Tensor("grad_output"), c.Tensor("input"), c.Tensor("weight")
	stride, padding, dilation := c.Ints("stride"), c.Ints("padding"), c.Ints("dilation")
	transposed, outPad, groups := c.Bool("transposed"), c.Ints("output_padding"), c.Int("groups")
	mask := outputMask(c)
	nd := w.Dim() - 2
	if nd <= 0 {
		return nil, c.Errorf("weight", "weight should have at least three dimensions")
	}
	// The forward's checks (and its output shape), by a meta call.
	fwd, err := callOp(c, "aten::convolution", []any{x.Meta(), w.Meta(), nil, stride, padding, dilation, transposed, outPad, groups}, nil)
	if err != nil {
		return nil, err
	}
	outShape := fwd[0].(*tensor.Tensor).Shape()
	if g.Dim() != x.Dim() {
		return nil, c.Errorf("grad_output", "Expected input and grad_output to have the same number of dimensions, but got: %d and %d", x.Dim(), g.Dim())
	}
	if !transposed {
		for _, p := range outPad {
			if p != 0 {
				return nil, c.Errorf("output_padding", "output_padding is not supported for non-transposed convolutions; got: %s", shapeString(ints(outPad)))
			}
		}
	}
	dt := x.DType()
	if g.DType() != dt {
		return nil, c.Errorf("grad_output", "expected scalar type %s but found %s", scalarTypeName(dt), scalarTypeName(g.DType()))
	}
	if !slices.Equal(g.Shape(), outShape) {
		return nil, c.Errorf("grad_output", "Expected grad_output of the convolution's output shape %s, but got %s", shapeString(outShape), shapeString(g.Shape()))
	}
	bsizes := c.Ints("bias_sizes")
	hasBias := !c.IsNone("bias_sizes")
	noInput := x.Numel() == 0
	if noInput && mask[2] && !hasBias {
		return nil, c.Errorf("bias_sizes", "bias_sizes must be given for the bias gradient of an empty input (bad optional access)")
	}
	cout := outShape[1]
	biasShape := []int{cout}
	if noInput && mask[2] {
		biasShape = ints(bsizes)
		for _, s := range biasShape {
			if s < 0 {
				return nil, c.Errorf("bias_sizes", "Trying to create tensor with negative dimension %d: %s", s, shapeString(biasShape))
			}
		}
	}
	isMeta := meta(g, x, w)
	var p convParams
	p.stride, _ = expandParam(c, "stride", stride, nd)
	p.padding, _ = expandParam(c, "padding", padding, nd)
	p.dilation, _ = expandParam(c, "dilation", dilation, nd)
	p.outPad, _ = expandParam(c, "output_padding", outPad, nd)
	p.transposed, p.groups = transposed, int(groups)
	if !noInput && !isMeta && (mask[0] || mask[1]) {
		if err := convBackwardSupported(c, dt, nd, p, mask); err != nil {
			return nil, err
		}
	}
	var dX, dW, dB *tensor.Tensor
	if isMeta {
		if mask[0] {
			dX = tensor.Must(tensor.NewMeta(dt, x.Shape()...))
		}
		if mask[1] {
			dW = tensor.Must(tensor.NewMeta(dt, w.Shape()...))
		}
		if mask[2] {
			dB = tensor.Must(tensor.NewMeta(dt, biasShape...))
		}
		return optionalResults(dX, dW, dB), nil
	}
	if noInput {
		// ATen's Empty backend: zeros.
		if mask[0] {
			dX = tensor.Must(tensor.New(dt, x.Shape()...))
		}
		if mask[1] {
			dW = tensor.Must(tensor.New(dt, w.Shape()...))
		}
		if mask[2] {
			dB = tensor.Must(tensor.New(dt, biasShape...))
		}
		return optionalResults(dX, dW, dB), nil
	}
	if mask[0] {
		dX = convGradInput(g, x, w, p, dt)
	}
	if mask[1] {
		dW = convGradWeight(g, x, w, p, dt)
	}
	if mask[2] {
		dB = convGradBias(g, dt)
	}
	return optionalResults(dX, dW, dB), nil
}

// convBackwardSupported reports PyTorch 1.13's error for a convolution backward
// of dtype dt that no CPU kernel implements.
func convBackwardSupported(c *ops.Call, dt tensor.DType, nd int, p convParams, mask [3]bool) error {
	dilated := false
	for _, d := range p.dilation {
		dilated = dilated || d != 1
	}
	switch {
	case dt == tensor.Float32 || dt == tensor.Float64:
		return nil
	case dt == tensor.BFloat16 && !p.transposed:
		return nil
	case dt == tensor.BFloat16:
		return c.Errorf("input", "could not create a descriptor for a dilated convolution forward propagation primitive (no bfloat16 transposed convolution backward on CPU)")
	case dt == tensor.Int64 && !p.transposed && dilated:
		return nil
	}
	part := "input"
	if !mask[0] {
		part = "weight"
	}
	name := "slow_conv2d_cpu_grad_" + part
	switch {
	case p.transposed && nd == 3:
		name = "slow_conv_transpose3d_backward_out_cpu"
	case p.transposed:
		name = "slow_conv_transpose2d_backward_out_cpu"
	case dilated:
		name = "slow_conv_dilated<>"
	case nd == 3:
		name = "slow_conv3d_cpu_grad_" + part
	}
	return notImplemented(c, "input", name, dt)
}

// convGeom returns the geometry shared by the backward products: kernel,
// stride, padding and dilation lifted to three spatial dimensions.
func convGeom(w *tensor.Tensor, p convParams) geom {
	return geom{
		g: p.groups, k: lift3(w.Shape()[2:], 1),
		s: lift3(p.stride, 1), p: lift3(p.padding, 0), d: lift3(p.dilation, 1),
	}
}

// convGradInput computes the input gradient: for a forward convolution a
// transposed convolution of grad_output with the same weight (col2im into
// the input's size), for a transposed one a forward convolution of
// grad_output evaluated at the input's positions.
func convGradInput(g, x, w *tensor.Tensor, p convParams, dt tensor.DType) *tensor.Tensor {
	xs := x.Shape()
	geo := convGeom(w, p)
	geo.n = xs[0]
	if p.transposed && geo.k == [3]int{1, 1, 1} && geo.s == [3]int{1, 1, 1} && geo.p == [3]int{} {
		// convRun reads a 1x1 unstrided unpadded input in place, which
		// needs input and output of one size: output i reads grad_output i
		// only, so drop the trailing output_padding positions.
		for i := 2; i < len(xs); i++ {
			g = tensor.Must(g.Narrow(i, 0, xs[i]))
		}
	}
	gs := g.Shape()
	geo.cig, geo.cog = gs[1]/p.groups, xs[1]/p.groups
	geo.in, geo.out = lift3(gs[2:], 1), lift3(xs[2:], 1)
	geo.transposed = !p.transposed
	wt := workType(dt)
	out := tensor.Empty(wt, xs...)
	gw, ww := to(g, wt).Contiguous(), to(w, wt).Contiguous()
	switch wt {
	case tensor.Float32:
		convRun(geo, tensor.Values[float32](gw), tensor.Values[float32](ww), nil, tensor.Data[float32](out), nil)
	case tensor.Float64:
		convRun(geo, tensor.Values[float64](gw), tensor.Values[float64](ww), nil, tensor.Data[float64](out), nil)
	default:
		convRun(geo, tensor.Values[int64](gw), tensor.Values[int64](ww), nil, tensor.Data[int64](out), nil)
	}
	return to(out, dt)
}

// convGradWeight computes the weight gradient, per group the sum over
// the batch of A × im2col(B)ᵀ: A = grad_output and B = input for a forward
// convolution, A = input and B = grad_output for a transposed one.
func convGradWeight(g, x, w *tensor.Tensor, p convParams, dt tensor.DType) *tensor.Tensor {
	wt := workType(dt)
	out := tensor.Empty(wt, w.Shape()...)
	gw, xw := to(g, wt).Contiguous(), to(x, wt).Contiguous()
	a, b := gw, xw
	if p.transposed {
		a, b = xw, gw
	}
	geo := convGeom(w, p)
	geo.n = x.Size(0)
	geo.cig = b.Size(1) / p.groups
	geo.cog = a.Size(1) / p.groups
	geo.in, geo.out = lift3(b.Shape()[2:], 1), lift3(a.Shape()[2:], 1)
	switch wt {
	case tensor.Float32:
		weightRun(geo, tensor.Values[float32](a), tensor.Values[float32](b), tensor.Data[float32](out))
	case tensor.Float64:
		weightRun(geo, tensor.Values[float64](a), tensor.Values[float64](b), tensor.Data[float64](out))
	default:
		weightRun(geo, tensor.Values[int64](a), tensor.Values[int64](b), tensor.Data[int64](out))
	}
	return to(out, dt)
}

// weightRun accumulates into out [g][cog, cig*K] the products a_ng
// [cog, Lout] × im2col(b_ng)ᵀ [Lout, cig*K] over the batch, where geo
// describes b as the input (cig channels, size in) and a as the output
// (cog channels, size out) of a forward convolution.
func weightRun[T float32 | float64 | int64](geo geom, a, b, out []T) {
	kk := geo.k[0] * geo.k[1] * geo.k[2]
	lin := geo.in[0] * geo.in[1] * geo.in[2]
	lout := geo.out[0] * geo.out[1] * geo.out[2]
	clear(out)
	cols := make([]T, geo.cig*kk*lout)
	blk := geo.cog * geo.cig * kk
	for n := range geo.n {
		for gi := range geo.g {
			i := n*geo.g + gi
			ai := a[i*geo.cog*lout : (i+1)*geo.cog*lout]
			bi := b[i*geo.cig*lin : (i+1)*geo.cig*lin]
			im2col(geo, bi, cols, true)
			gemm(false, true, geo.cog, geo.cig*kk, lout, 1, ai, max(lout, 1), cols, max(lout, 1), 1, out[gi*blk:(gi+1)*blk], max(geo.cig*kk, 1))
		}
	}
}

// convGradBias sums grad_output over every dimension but the channels.
func convGradBias(g *tensor.Tensor, dt tensor.DType) *tensor.Tensor {
	gs := g.Shape()
	n, ch, l := gs[0], gs[1], product(gs[2:])
	if !dt.IsFloat() {
		v := g.Int64s()
		res := make([]int64, ch)
		for i := range n {
			for c := range ch {
				for _, e := range v[(i*ch+c)*l : (i*ch+c+1)*l] {
					res[c] += e
				}
			}
		}
		return tensor.Must(tensor.FromInt64s(dt, res, ch))
	}
	v := g.Float64s()
	res := make([]float64, ch)
	for i := range n {
		for c := range ch {
			res[c] += sumF64(v[(i*ch+c)*l : (i*ch+c+1)*l])
		}
	}
	return tensor.Must(tensor.FromFloat64s(dt, res, ch))
}

// convParams are a convolution's arguments, expanded to one value per
// spatial dimension.
type convParams struct {
	stride, padding, dilation, outPad []int
	transposed                        bool
	groups                            int
}

// convolution is aten::convolution.
func convolution(c *ops.Call) ([]any, error) {
	out, err := convolve(c, c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias"),
		c.Ints("stride"), c.Ints("padding"), c.Ints("dilation"), c.Bool("transposed"),
		c.Ints("output_padding"), c.Int("groups"))
	if err != nil {
		return nil, err
	}
	return one(out), nil
}

// convNd is aten::conv1d, conv2d or conv3d (nd spatial dimensions): a
// forward convolution whose input may lack the batch dimension, and whose
// bias must have the input's dtype.
func convNd(c *ops.Call, nd int) ([]any, error) {
	x, w, bias := c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias")
	if bias != nil && bias.DType() != x.DType() {
		return nil, c.Errorf("bias", "Input type (%s) and bias type (%s) should be the same", demangledTypeName(x.DType()), demangledTypeName(bias.DType()))
	}
	batched := x.Dim() == nd+2
	if !batched && x.Dim() != nd+1 {
		return nil, c.Errorf("input", "Expected %dD (unbatched) or %dD (batched) input to conv%dd, but got input of size: %s",
			nd+1, nd+2, nd, shapeString(x.Shape()))
	}
	if !batched {
		x = tensor.Must(x.Unsqueeze(0))
	}
	zeros := make([]int64, nd)
	out, err := convolve(c, x, w, bias, c.Ints("stride"), c.Ints("padding"), c.Ints("dilation"), false, zeros, c.Int("groups"))
	if err != nil {
		return nil, err
	}
	if !batched {
		out = tensor.Must(out.SqueezeDim(0))
	}
	return one(out), nil
}

// expandParam expands a convolution parameter list of one value (or of
// nd values) to nd values, as ATen's expand_param_if_needed does.
func expandParam(c *ops.Call, arg string, v []int64, nd int) ([]int, error) {
	if len(v) == 1 {
		out := make([]int, nd)
		for i := range out {
			out[i] = int(v[0])
		}
		return out, nil
	}
	if len(v) != nd {
		return nil, c.Errorf(arg, "expected %s to be a single integer value or a list of %d values to match the convolution dimensions, but got %s=%s",
			arg, nd, arg, shapeString(ints(v)))
	}
	return ints(v), nil
}

// convolve checks a convolution's arguments as ATen's _convolution does and
// computes it (or its meta result).
func convolve(c *ops.Call, x, w, bias *tensor.Tensor, stride, padding, dilation []int64, transposed bool, outPad []int64, groups int64) (*tensor.Tensor, error) {
	return convolveEp(c, x, w, bias, stride, padding, dilation, transposed, outPad, groups, convEp{})
}

// convEp is what a fused convolution applies to its output once the bias
// is added: a residual add (nil for none), then a clamp to [lo, hi].
type convEp struct {
	residual *tensor.Tensor
	clamp    bool
	lo, hi   float64
}

// convolutionEpilogue is the forward convolution of the fused ops
// (gofx's conv+relu, conv+add+relu, ...): aten::convolution's arguments
// and checks, then, element by element of the output,
//
//	v = conv(x, w)[...] + bias[channel]   (bias may be nil)
//	v += residual[...]                    (residual may be nil)
//	v = min(max(v, lo), hi)               (when clamp; NaN stays NaN)
//
// ReLU is clamp with lo 0 and hi +Inf, ReLU6 lo 0 and hi 6, hardtanh its
// min_val and max_val. residual must have the output's shape and dtype
// (any strides). float32 and float64 apply it in the GEMM's final stores
// (internal/gemm's Epilogue) or in the depthwise kernel's row loop; other
// dtypes, and the transposed path, apply it in a loop over the computed
// output (integers after wrapping to the dtype, as the unfused ops do). c
// names the arguments of errors: input, weight, bias, stride, padding,
// dilation, transposed, output_padding, groups, and residual.
func convolutionEpilogue(c *ops.Call, x, w, bias *tensor.Tensor, stride, padding, dilation []int64, transposed bool, outPad []int64, groups int64,
	residual *tensor.Tensor, clamp bool, lo, hi float64) (*tensor.Tensor, error) {
	return convolveEp(c, x, w, bias, stride, padding, dilation, transposed, outPad, groups, convEp{residual: residual, clamp: clamp, lo: lo, hi: hi})
}

// convolveEp is convolve followed by ep.
func convolveEp(c *ops.Call, x, w, bias *tensor.Tensor, stride, padding, dilation []int64, transposed bool, outPad []int64, groups int64, ep convEp) (*tensor.Tensor, error) {
	k := w.Dim()
	nd := k - 2
	if nd <= 0 {
		return nil, c.Errorf("weight", "weight should have at least three dimensions")
	}
	if groups <= 0 {
		return nil, c.Errorf("groups", "non-positive groups is not supported")
	}
	var p convParams
	var err error
	if p.stride, err = expandParam(c, "stride", stride, nd); err != nil {
		return nil, err
	}
	if p.padding, err = expandParam(c, "padding", padding, nd); err != nil {
		return nil, err
	}
	if p.dilation, err = expandParam(c, "dilation", dilation, nd); err != nil {
		return nil, err
	}
	if p.outPad, err = expandParam(c, "output_padding", outPad, nd); err != nil {
		return nil, err
	}
	p.transposed, p.groups = transposed, int(groups)
	for i := range nd {
		switch {
		case p.padding[i] < 0:
			return nil, c.Errorf("padding", "negative padding is not supported")
		case p.outPad[i] < 0:
			return nil, c.Errorf("output_padding", "negative output_padding is not supported")
		case p.stride[i] <= 0:
			return nil, c.Errorf("stride", "non-positive stride is not supported")
		case p.dilation[i] <= 0:
			return nil, c.Errorf("dilation", "dilation should be greater than zero, but got %s", shapeString(p.dilation))
		}
	}
	ws := w.Shape()
	if x.Dim() != k {
		return nil, c.Errorf("input", "Expected %d-dimensional input for %d-dimensional weight %s, but got %d-dimensional input of size %s instead",
			k, k, shapeString(ws), x.Dim(), shapeString(x.Shape()))
	}
	g := p.groups
	if ws[0] < g {
		return nil, c.Errorf("weight", "Given groups=%d, expected weight to be at least %d at dimension 0, but got weight of size %s instead", g, g, shapeString(ws))
	}
	if ws[0]%g != 0 {
		return nil, c.Errorf("weight", "Given groups=%d, expected weight to be divisible by %d at dimension 0, but got weight of size [%s] instead", g, g, shapeString(ws))
	}
	xs := x.Shape()
	var cout int
	if !transposed {
		if xs[1] != ws[1]*g {
			return nil, c.Errorf("input", "Given groups=%d, weight of size %s, expected input%s to have %d channels, but got %d channels instead",
				g, shapeString(ws), shapeString(xs), ws[1]*g, xs[1])
		}
		cout = ws[0]
		if bias != nil && (bias.Dim() != 1 || bias.Size(0) != cout) {
			return nil, c.Errorf("bias", "Given weight of size %s, expected bias to be 1-dimensional with %d elements, but got bias of size %s instead",
				shapeString(ws), cout, shapeString(bias.Shape()))
		}
		var in, ker []string
		ok := true
		for i := range nd {
			pi := xs[i+2] + 2*p.padding[i]
			ki := p.dilation[i]*(ws[i+2]-1) + 1
			in, ker = append(in, fmt.Sprint(pi)), append(ker, fmt.Sprint(ki))
			ok = ok && pi >= ki
		}
		if !ok {
			return nil, c.Errorf("input", "Calculated padded input size per channel: (%s). Kernel size: (%s). Kernel size can't be greater than actual input size",
				strings.Join(in, " x "), strings.Join(ker, " x "))
		}
	} else {
		if xs[1] != ws[0] {
			return nil, c.Errorf("input", "Given transposed=1, weight of size %s, expected input%s to have %d channels, but got %d channels instead",
				shapeString(ws), shapeString(xs), ws[0], xs[1])
		}
		cout = ws[1] * g
		if bias != nil && (bias.Dim() != 1 || bias.Size(0) != cout) {
			return nil, c.Errorf("bias", "Given transposed=1, weight of size %s, expected bias to be 1-dimensional with %d elements, but got bias of size %s instead",
				shapeString(ws), cout, shapeString(bias.Shape()))
		}
	}
	for i := range nd {
		if ws[i+2] <= 0 {
			return nil, c.Errorf("weight", "kernel size should be greater than zero, but got kernel size %s", shapeString(ws[2:]))
		}
	}
	outShape := []int{xs[0], cout}
	var inS, outS []string
	tooSmall := false
	for i := range nd {
		var o int
		if transposed {
			o = (xs[i+2]-1)*p.stride[i] - 2*p.padding[i] + p.dilation[i]*(ws[i+2]-1) + p.outPad[i] + 1
		} else {
			o = (xs[i+2]+2*p.padding[i]-p.dilation[i]*(ws[i+2]-1)-1)/p.stride[i] + 1
		}
		outShape = append(outShape, o)
		inS, outS = append(inS, fmt.Sprint(xs[i+2])), append(outS, fmt.Sprint(o))
		tooSmall = tooSmall || o < 1
	}
	if x.Numel() == 0 && xs[0] != 0 && xs[1] != 0 {
		return nil, c.Errorf("input", "Only zero batch or zero channel inputs are supported, but got input shape: %s", shapeString(xs))
	}
	if !transposed && xs[1] == 0 {
		// PyTorch's empty-input path gives no output channels here.
		outShape[1] = 0
	}
	if tooSmall {
		return nil, c.Errorf("input", "Given input size per channel: (%s). Calculated output size per channel: (%s). Output size is too small",
			strings.Join(inS, " x "), strings.Join(outS, " x "))
	}
	if transposed {
		for i := range nd {
			if p.outPad[i] >= p.stride[i] && p.outPad[i] >= p.dilation[i] {
				return nil, c.Errorf("output_padding", "output padding must be smaller than either stride or dilation, but got output_padding %s, stride %s, dilation %s",
					shapeString(p.outPad), shapeString(p.stride), shapeString(p.dilation))
			}
		}
	}
	if w.DType() != x.DType() {
		return nil, c.Errorf("weight", "expected scalar type %s but found %s", scalarTypeName(x.DType()), scalarTypeName(w.DType()))
	}
	// ATen's transposed convolution kernels require bias to have the
	// input's dtype (the forward ones convert it).
	if transposed && bias != nil && bias.DType() != x.DType() {
		return nil, c.Errorf("bias", "expected scalar type %s but found %s", scalarTypeName(x.DType()), scalarTypeName(bias.DType()))
	}
	dt := x.DType()
	if r := ep.residual; r != nil {
		if r.DType() != dt {
			return nil, c.Errorf("residual", "expected scalar type %s but found %s", scalarTypeName(dt), scalarTypeName(r.DType()))
		}
		if !slices.Equal(r.Shape(), outShape) {
			return nil, c.Errorf("residual", "expected the convolution's output shape %s, but got %s", shapeString(outShape), shapeString(r.Shape()))
		}
	}
	if ep.clamp && (math.IsNaN(ep.lo) || math.IsNaN(ep.hi)) {
		return nil, c.Errorf("clamp", "clamp bounds must not be NaN, got min %v max %v", ep.lo, ep.hi)
	}
	if meta(x, w, bias, ep.residual) {
		return empty(true, dt, outShape)
	}
	if name, ok := convSupported(dt, nd, p); !ok {
		return nil, notImplemented(c, "input", name, dt)
	}
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return applyConvEp(convCompute(x, w, bias, p, outShape, dt, convEp{}), ep), nil
	}
	return convCompute(x, w, bias, p, outShape, dt, ep), nil
}

// applyConvEp applies ep to out (a fresh contiguous tensor) in a loop:
// the residual add and clamp in out's dtype, integers wrapping.
func applyConvEp(out *tensor.Tensor, ep convEp) *tensor.Tensor {
	if ep.residual == nil && !ep.clamp {
		return out
	}
	dt := out.DType()
	if !dt.IsFloat() {
		v := out.Int64s()
		if ep.residual != nil {
			for i, r := range ep.residual.Int64s() {
				v[i] += r
			}
			v = tensor.Must(tensor.FromInt64s(dt, v, out.Shape()...)).Int64s() // wrap to dt
		}
		if ep.clamp {
			for i, e := range v {
				f := float64(e)
				switch {
				case f < ep.lo:
					v[i] = int64(math.Ceil(ep.lo))
				case f > ep.hi:
					v[i] = int64(math.Floor(ep.hi))
				}
			}
		}
		return tensor.Must(tensor.FromInt64s(dt, v, out.Shape()...))
	}
	v := out.Float64s()
	if ep.residual != nil {
		for i, r := range ep.residual.Float64s() {
			v[i] = roundTo(tensor.Float32, v[i]+r)
		}
	}
	if ep.clamp {
		for i, e := range v {
			v[i] = clampNaN(e, ep.lo, ep.hi)
		}
	}
	return tensor.Must(tensor.FromFloat64s(dt, v, out.Shape()...))
}

// clampNaN returns v clamped to [lo, hi], NaN for NaN.
func clampNaN[T float32 | float64](v, lo, hi T) T {
	if v < lo {
		v = lo
	}
	if v > hi {
		v = hi
	}
	return v
}

// convSupported reports whether PyTorch 1.13 has a CPU convolution for
// dtype dt, and otherwise the name of the kernel that lacks it.
func convSupported(dt tensor.DType, nd int, p convParams) (string, bool) {
	dilated := false
	for _, d := range p.dilation {
		dilated = dilated || d != 1
	}
	name := "slow_conv2d_cpu"
	switch {
	case p.transposed && nd == 3:
		name = "slow_conv_transpose3d_out_cpu"
	case p.transposed:
		name = "slow_conv_transpose2d_out_cpu"
	case dilated:
		name = "slow_conv_dilated<>"
	case nd == 3:
		name = "compute_columns3d"
	}
	switch dt {
	case tensor.Float32, tensor.Float64, tensor.BFloat16, tensor.Int64:
		return name, true
	case tensor.Int32, tensor.Int16, tensor.Int8, tensor.Uint8:
		return name, !p.transposed && !dilated
	}
	return name, false
}

// geom is a convolution's geometry, lifted to three spatial dimensions.
type geom struct {
	n, g, cig, cog int    // batch, groups, input and output channels per group
	in, k, out     [3]int // input, kernel and output spatial sizes
	s, p, d        [3]int // stride, padding, dilation
	transposed     bool
}

// lift3 returns v's last len(v) values right-aligned in a [3]int padded
// with fill.
func lift3(v []int, fill int) [3]int {
	r := [3]int{fill, fill, fill}
	copy(r[3-len(v):], v)
	return r
}

// convCompute computes a checked, supported convolution, applying ep
// (whose residual has the output's shape and dtype) for float32 and
// float64.
func convCompute(x, w, bias *tensor.Tensor, p convParams, outShape []int, dt tensor.DType, ep convEp) *tensor.Tensor {
	xs, ws := x.Shape(), w.Shape()
	geo := geom{
		n: xs[0], g: p.groups,
		in: lift3(xs[2:], 1), k: lift3(ws[2:], 1), out: lift3(outShape[2:], 1),
		s: lift3(p.stride, 1), p: lift3(p.padding, 0), d: lift3(p.dilation, 1),
		transposed: p.transposed,
	}
	if p.transposed {
		geo.cig, geo.cog = xs[1]/p.groups, ws[1]
	} else {
		geo.cig, geo.cog = xs[1]/p.groups, ws[0]/p.groups
	}
	wt := workType(dt)
	// A floating forward convolution on internal/gemm stores every
	// output element (beta 0): its pooled buffer need not be cleared
	// first. Transposed ones scatter-add, depthwise ones are left
	// zeroed.
	var out *tensor.Tensor
	if isFloat := wt == tensor.Float32 || wt == tensor.Float64; isFloat && !p.transposed && !useDepthwise(geo, false) {
		out = tensor.EmptyUninit(wt, outShape...)
	} else {
		out = tensor.Empty(wt, outShape...)
	}
	if out.Numel() > 0 {
		xw := to(x, wt).Contiguous()
		ww := to(w, wt).Contiguous()
		var bw *tensor.Tensor
		if bias != nil {
			bw = to(to(bias, dt), wt).Contiguous()
		}
		switch wt {
		case tensor.Float32:
			convRun(geo, valuesOf[float32](xw), valuesOf[float32](ww), valuesOf[float32](bw), tensor.Data[float32](out), epOf[float32](ep))
		case tensor.Float64:
			convRun(geo, valuesOf[float64](xw), valuesOf[float64](ww), valuesOf[float64](bw), tensor.Data[float64](out), epOf[float64](ep))
		default:
			convRun(geo, valuesOf[int64](xw), valuesOf[int64](ww), valuesOf[int64](bw), tensor.Data[int64](out), nil)
		}
	}
	return to(out, dt)
}

// outEp is a convEp for convRun's element type: the residual's elements
// in the output's layout.
type outEp[T float32 | float64 | int64] struct {
	res    []T
	clamp  bool
	lo, hi T
}

// epOf returns ep for element type T, nil when it applies nothing.
func epOf[T float32 | float64](ep convEp) *outEp[T] {
	if ep.residual == nil && !ep.clamp {
		return nil
	}
	e := &outEp[T]{clamp: ep.clamp, lo: T(ep.lo), hi: T(ep.hi)}
	if ep.residual != nil {
		e.res = tensor.Values[T](ep.residual)
	}
	return e
}

// apply applies e to row, the output elements starting at index off of
// the whole output: the residual and the clamp in one pass of
// vec.AddClamp, the row loop of internal/gemm's epilogue too. Integer
// convolutions have no epilogue (epOf is for floats only).
func (e *outEp[T]) apply(row []T, off int) {
	var res []T
	if e.res != nil {
		res = e.res[off : off+len(row)]
	}
	switch d := any(row).(type) {
	case []float32:
		addClampRow(d, any(res).([]float32), e.clamp, any(e.lo).(float32), any(e.hi).(float32))
	case []float64:
		addClampRow(d, any(res).([]float64), e.clamp, any(e.lo).(float64), any(e.hi).(float64))
	default:
		panic("kernels: an epilogue on an integer convolution")
	}
}

// addClampRow adds res (nil for none) to row and clamps it to [lo, hi]
// when clamp is set.
func addClampRow[F vec.Float](row, res []F, clamp bool, lo, hi F) {
	if !clamp {
		lo, hi = vec.NoClamp[F]()
	}
	vec.AddClamp(row, res, vec.NoBias[F](), lo, hi)
}

// gemmEp returns internal/gemm's epilogue for one (batch, group) item
// whose output starts at index off: bias (nil for none) per row, e's
// residual and clamp; nil when there is nothing to apply.
func gemmEp[T float32 | float64, E float32 | float64 | int64](bias []E, e *outEp[E], off, ld int) *fastgemm.Epilogue[T] {
	if bias == nil && e == nil {
		return nil
	}
	ep := &fastgemm.Epilogue[T]{}
	if bias != nil {
		ep.RowBias = any(bias).([]T)
	}
	if e != nil {
		if e.res != nil {
			ep.Residual, ep.LdResidual = any(e.res).([]T)[off:], ld
		}
		ep.Clamp, ep.Min, ep.Max = e.clamp, T(e.lo), T(e.hi)
	}
	return ep
}

// packWeight returns the m×k weight w packed for internal/gemm
// (*fastgemm.PackedA of w's element type).
func packWeight[T float32 | float64 | int64](m, k int, w []T) any {
	var (
		pa  any
		err error
	)
	switch wv := any(w).(type) {
	case []float32:
		pa, err = fastgemm.PackA(false, m, k, wv, max(k, 1))
	case []float64:
		pa, err = fastgemm.PackA(false, m, k, wv, max(k, 1))
	default:
		err = fmt.Errorf("packWeight: %T weight", w)
	}
	if err != nil {
		panic(err) // convRun's operands are consistent: cannot happen
	}
	return pa
}

// convGemm computes one (batch, group) item of a floating forward
// convolution, out [cog, Lout] = w [cog, cig*K] × im2col(x) + bias, then
// e (nil for none) with the item's output at index off of the whole
// output, with internal/gemm's GemmConv, or with the weight packed in
// advance (packWeight's result) when packed is not nil. A 1×1 unstrided
// unpadded convolution (direct) is a plain product with x.
func convGemm[T float32 | float64 | int64](geo geom, w, x, bias, out []T, packed any, e *outEp[T], off int, direct bool) {
	cg := &fastgemm.ConvGeom{C: geo.cig, In: geo.in, K: geo.k, Out: geo.out, Stride: geo.s, Pad: geo.p, Dilation: geo.d}
	k := max(geo.cig*geo.k[0]*geo.k[1]*geo.k[2], 1)
	ldc := max(geo.out[0]*geo.out[1]*geo.out[2], 1)
	var err error
	switch wv := any(w).(type) {
	case []float32:
		err = convGemmT(geo.cog, wv, k, any(x).([]float32), cg, any(out).([]float32), ldc, packed, gemmEp[float32](bias, e, off, ldc), direct)
	case []float64:
		err = convGemmT(geo.cog, wv, k, any(x).([]float64), cg, any(out).([]float64), ldc, packed, gemmEp[float64](bias, e, off, ldc), direct)
	default:
		err = fmt.Errorf("convGemm: %T operands", w)
	}
	if err != nil {
		panic(err) // convRun's operands are consistent: cannot happen
	}
}

// convGemmT is convGemm's product for one float type.
func convGemmT[T float32 | float64](m int, w []T, k int, x []T, cg *fastgemm.ConvGeom, out []T, ldc int, packed any, ep *fastgemm.Epilogue[T], direct bool) error {
	pa, _ := packed.(*fastgemm.PackedA[T])
	switch {
	case direct && pa != nil:
		return pa.Gemm(false, ldc, 1, x, ldc, 0, out, ldc, ep)
	case direct:
		return fastgemm.GemmEpilogue(false, false, m, ldc, k, 1, w, k, x, ldc, 0, out, ldc, ep)
	case pa != nil:
		return pa.Conv(1, x, cg, 0, out, ldc, ep)
	}
	return fastgemm.GemmConv(m, 1, w, k, x, cg, 0, out, ldc, ep)
}

// valuesOf returns t's elements in row-major order, or nil for a nil t.
func valuesOf[T tensor.Elem](t *tensor.Tensor) []T {
	if t == nil {
		return nil
	}
	return tensor.Values[T](t)
}

// convRun computes the convolution described by geo of contiguous x and
// w into the contiguous out, adding bias (nil for none), then applying e
// (nil for none).
func convRun[T float32 | float64 | int64](geo geom, x, w, bias, out []T, e *outEp[T]) {
	_, isInt := any(w).([]int64)
	if useDepthwise(geo, isInt) {
		depthwiseRun(geo, x, w, bias, out, e)
		return
	}
	lin := geo.in[0] * geo.in[1] * geo.in[2]
	lout := geo.out[0] * geo.out[1] * geo.out[2]
	kk := geo.k[0] * geo.k[1] * geo.k[2]
	items := geo.n * geo.g
	var colsLen, flops int
	if geo.transposed {
		colsLen = geo.cog * kk * lin
		flops = geo.cog * kk * lin * geo.cig
	} else {
		colsLen = geo.cig * kk * lout
		flops = geo.cog * lout * geo.cig * kk
	}
	direct := !geo.transposed && kk == 1 && geo.s == [3]int{1, 1, 1} && geo.p == [3]int{}
	// Floating forward convolutions run on internal/gemm's GemmConv
	// (shifted, or im2col gathered while packing): no im2col buffer, the
	// bias added in the store.
	fused := !geo.transposed && !isInt
	// A batch packs each group's weight once for all its images.
	// A weight marked constant is packed once for all calls
	// (convolution_pack.go).
	var packed []any
	if fused {
		packed = cachedPack(w, geo.g, geo.cog, geo.cig*kk)
	}
	if packed == nil && fused && geo.n > 1 {
		packed = make([]any, geo.g)
		for g := range geo.g {
			packed[g] = packWeight(geo.cog, geo.cig*kk, w[g*geo.cog*geo.cig*kk:(g+1)*geo.cog*geo.cig*kk])
		}
	}
	item := func(i int, cols []T, inner bool) {
		g := i % geo.g
		xi := x[i*geo.cig*lin : (i+1)*geo.cig*lin]
		oi := out[i*geo.cog*lout : (i+1)*geo.cog*lout]
		if geo.transposed {
			wg := w[g*geo.cig*geo.cog*kk : (g+1)*geo.cig*geo.cog*kk]
			gemm(true, false, geo.cog*kk, lin, geo.cig, 1, wg, geo.cog*kk, xi, max(lin, 1), 0, cols, max(lin, 1))
			col2imScatter(geo, cols, oi, inner)
		} else {
			wg := w[g*geo.cog*geo.cig*kk : (g+1)*geo.cog*geo.cig*kk]
			if fused {
				var bg []T
				if bias != nil {
					bg = bias[g*geo.cog : (g+1)*geo.cog]
				}
				var pw any
				if packed != nil {
					pw = packed[g]
				}
				convGemm(geo, wg, xi, bg, oi, pw, e, i*geo.cog*lout, direct)
				return
			}
			src := xi
			if !direct {
				im2col(geo, xi, cols, inner)
				src = cols
			}
			gemm(false, false, geo.cog, lout, geo.cig*kk, 1, wg, max(geo.cig*kk, 1), src, max(lout, 1), 0, oi, max(lout, 1))
		}
		if bias != nil {
			for co := range geo.cog {
				b := bias[g*geo.cog+co]
				row := oi[co*lout : (co+1)*lout]
				for j := range row {
					row[j] += b
				}
			}
		}
		if e != nil {
			e.apply(oi, i*geo.cog*lout)
		}
	}
	if direct || fused {
		colsLen = 0
	}
	if items >= 2 && flops < 1<<22 {
		// Many small products: one (batch, group) item per task.
		parallel(items, items*flops, func(lo, hi int) {
			cols := make([]T, colsLen)
			for i := lo; i < hi; i++ {
				item(i, cols, false)
			}
		})
		return
	}
	cols := make([]T, colsLen)
	for i := range items {
		item(i, cols, true)
	}
}

// outRange returns the range [lo, hi) of output positions o in [0, n)
// whose input position o*s - p + off lies in [0, in).
func outRange(n, s, p, off, in int) (int, int) {
	// o*s >= p - off  and  o*s < in + p - off
	lo := ceilDiv(p-off, s)
	hi := ceilDiv(in+p-off, s)
	return min(max(lo, 0), n), min(max(hi, 0), n)
}

// ceilDiv returns ⌈a/b⌉ for b > 0.
func ceilDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}

// im2col fills cols [cig*K, L] with the input patches of one (batch,
// group) item x [cig, in...]: row (c, kd, kh, kw), column (od, oh, ow)
// holds x[c, od*s-p+kd*d, ...], zero in the padding. With inner set the
// rows are split over the cores.
func im2col[T float32 | float64 | int64](geo geom, x, cols []T, inner bool) {
	kk := geo.k[0] * geo.k[1] * geo.k[2]
	lin := geo.in[0] * geo.in[1] * geo.in[2]
	lout := geo.out[0] * geo.out[1] * geo.out[2]
	rows := geo.cig * kk
	fill := func(lo, hi int) {
		for r := lo; r < hi; r++ {
			ch, kr := r/kk, r%kk
			kd, kh, kw := kr/(geo.k[1]*geo.k[2]), (kr/geo.k[2])%geo.k[1], kr%geo.k[2]
			dst := cols[r*lout : (r+1)*lout]
			src := x[ch*lin : (ch+1)*lin]
			wlo, whi := outRange(geo.out[2], geo.s[2], geo.p[2], kw*geo.d[2], geo.in[2])
			for od := range geo.out[0] {
				id := od*geo.s[0] - geo.p[0] + kd*geo.d[0]
				plane := dst[od*geo.out[1]*geo.out[2] : (od+1)*geo.out[1]*geo.out[2]]
				if id < 0 || id >= geo.in[0] {
					clear(plane)
					continue
				}
				for oh := range geo.out[1] {
					ih := oh*geo.s[1] - geo.p[1] + kh*geo.d[1]
					drow := plane[oh*geo.out[2] : (oh+1)*geo.out[2]]
					if ih < 0 || ih >= geo.in[1] {
						clear(drow)
						continue
					}
					srow := src[(id*geo.in[1]+ih)*geo.in[2] : (id*geo.in[1]+ih+1)*geo.in[2]]
					clear(drow[:wlo])
					clear(drow[whi:])
					base := -geo.p[2] + kw*geo.d[2]
					if geo.s[2] == 1 {
						copy(drow[wlo:whi], srow[wlo+base:whi+base])
						continue
					}
					for ow := wlo; ow < whi; ow++ {
						drow[ow] = srow[ow*geo.s[2]+base]
					}
				}
			}
		}
	}
	if inner {
		parallel(rows, rows*lout, fill)
	} else {
		fill(0, rows)
	}
}

// convTranspose is aten::conv_transpose1d and conv_transpose2d.input (nd
// spatial dimensions): aten::convolution with transposed=True, on input
// given a batch dimension when it has none.
func convTranspose(c *ops.Call, nd int) ([]any, error) {
	x := c.Tensor("input")
	batched := x.Dim() == nd+2
	if !batched && x.Dim() != nd+1 {
		return nil, c.Errorf("input", "Expected %dD (unbatched) or %dD (batched) input to conv_transpose%dd, but got input of size: %s",
			nd+1, nd+2, nd, shapeString(x.Shape()))
	}
	if !batched {
		x = tensor.Must(x.Unsqueeze(0))
	}
	conv := op("aten::convolution")
	out, err := conv.Call([]any{x, c.Tensor("weight"), c.Tensor("bias"), c.Ints("stride"), c.Ints("padding"),
		c.Ints("dilation"), true, c.Ints("output_padding"), c.Int("groups")}, nil)
	if err != nil {
		return nil, rebind(c, conv, err, map[string]string{"transposed": ""})
	}
	y := out[0].(*tensor.Tensor)
	if !batched {
		y = tensor.Must(y.SqueezeDim(0))
	}
	return one(y), nil
}

// convPadding is aten::conv1d/conv2d/conv3d.padding: padding "valid" (none)
// or "same" (the output keeps the input's size; stride must be 1), the
// latter as ATen's _convolution_mode gives it: symmetric padding of
// dilation*(k-1)/2, and an odd remainder added on the right of the input
// with constant_pad_nd.
func convPadding(name string) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		input, weight := c.Tensor("input"), c.Tensor("weight")
		stride, dilation := c.Ints("stride"), c.Ints("dilation")
		var bias any
		if !c.IsNone("bias") {
			bias = c.Tensor("bias")
		}
		dim := weight.Dim() - 2
		if dim < 1 {
			return nil, c.Errorf("weight", "expected weight to have at least 3 dimensions, got %d", weight.Dim())
		}
		padL := make([]int64, dim)
		switch mode := c.Str("padding"); mode {
		case "valid":
		case "same":
			for _, s := range stride {
				if s != 1 {
					return nil, c.Errorf("padding", "padding='same' is not supported for strided convolutions")
				}
			}
			padNd := make([]int64, 2*dim)
			asym := false
			for i := range dim {
				d := dilation[0]
				if len(dilation) > 1 {
					d = dilation[i]
				}
				total := d * int64(weight.Size(i+2)-1)
				padL[i] = total / 2
				if r := total - total/2; r != padL[i] {
					asym = true
					padNd[2*(dim-1-i)+1] = r - padL[i]
				}
			}
			if asym {
				out, err := delegate(c, "aten::constant_pad_nd", []any{input, padNd, ops.IntScalar(0)}, nil)
				if err != nil {
					return nil, err
				}
				input = out[0].(*tensor.Tensor)
			}
		default:
			return nil, c.Errorf("padding", "Invalid padding string: '%s'", mode)
		}
		return delegate(c, name, []any{input, weight, bias, stride, padL, dilation, c.Int("groups")}, nil)
	}
}

// underscoreConvolution is aten::_convolution (both overloads):
// convolution, the backend flags ignored.
func underscoreConvolution(c *ops.Call) ([]any, error) {
	var bias any
	if !c.IsNone("bias") {
		bias = c.Tensor("bias")
	}
	return delegate(c, "aten::convolution", []any{c.Tensor("input"), c.Tensor("weight"), bias,
		c.Ints("stride"), c.Ints("padding"), c.Ints("dilation"), c.Bool("transposed"), c.Ints("output_padding"), c.Int("groups")}, nil)
}
