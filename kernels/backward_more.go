package kernels

import (
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Backward kernels of layer norm, group norm and convolution, as PyTorch
// 1.13's CPU kernels compute them. Each returns (grad_input, grad_weight,
// grad_bias); an output that output_mask does not ask for is nil (None in
// ATen). Normalization gradients are computed in float64 from the saved
// mean and rstd and rounded to the dtype once; convolution gradients run
// through the forward convolution's im2col, col2im and GEMM helpers in the
// forward's work type.

func registerBackwardMore() {
	registerBoth("aten::native_layer_norm_backward", bwNativeLayerNormBackward)
	registerBoth("aten::native_group_norm_backward", bwNativeGroupNormBackward)
	registerBoth("aten::convolution_backward", bwConvolutionBackward)
}

// bwMask returns the three flags of the output_mask argument.
func bwMask(c *ops.Call) [3]bool {
	var m [3]bool
	copy(m[:], c.Bools("output_mask"))
	return m
}

// bwCheckStat checks that a saved statistic (mean or rstd) has dtype dt and
// n elements.
func bwCheckStat(c *ops.Call, arg string, t *tensor.Tensor, dt tensor.DType, n int, what string) error {
	if err := redSameDType(c, arg, t, dt); err != nil {
		return err
	}
	if t.Numel() != n {
		return c.Errorf(arg, "Expected %s.numel() == %s (%d) to be true, but got %d elements (shape %s)", arg, what, n, t.Numel(), cvShapeString(t.Shape()))
	}
	return nil
}

// bwResult wraps three optional results; nil tensors stay untyped nils.
func bwResult(ts ...*tensor.Tensor) []any {
	out := make([]any, len(ts))
	for i, t := range ts {
		if t != nil {
			out[i] = t
		}
	}
	return out
}

// bwNativeLayerNormBackward is aten::native_layer_norm_backward: the
// gradients of native_layer_norm's output with respect to input, weight
// and bias, from the saved mean and rstd (M values each, one per row).
func bwNativeLayerNormBackward(c *ops.Call) ([]any, error) {
	g, x := c.Tensor("grad_out"), c.Tensor("input")
	mean, rstd := c.Tensor("mean"), c.Tensor("rstd")
	weight, bias := c.Tensor("weight"), c.Tensor("bias")
	mask := bwMask(c)
	dt := x.DType()
	if !redNormDType(dt) {
		return nil, notImplemented(c, "input", "LayerNormBackwardKernelImpl", dt)
	}
	m, n, _, err := redLayerNormCheck(c, x, weight, bias, c.Ints("normalized_shape"))
	if err != nil {
		return nil, err
	}
	if err := redSameDType(c, "grad_out", g, dt); err != nil {
		return nil, err
	}
	if !slices.Equal(g.Shape(), x.Shape()) {
		return nil, c.Errorf("grad_out", "Expected grad_out of the input's shape %s, but got %s", cvShapeString(x.Shape()), cvShapeString(g.Shape()))
	}
	if err := bwCheckStat(c, "mean", mean, dt, m, "M"); err != nil {
		return nil, err
	}
	if err := bwCheckStat(c, "rstd", rstd, dt, m, "M"); err != nil {
		return nil, err
	}
	if mask[1] && weight == nil {
		return nil, c.Errorf("weight", "output_mask[1] asks for the weight gradient, but weight is None (tensor does not have a device)")
	}
	if mask[2] && bias == nil {
		return nil, c.Errorf("bias", "output_mask[2] asks for the bias gradient, but bias is None (tensor does not have a device)")
	}
	var dX, dW, dB *tensor.Tensor
	if meta(g, x, mean, rstd, weight, bias) {
		if mask[0] {
			dX = tensor.Must(tensor.NewMeta(dt, x.Shape()...))
		}
		if mask[1] {
			dW = tensor.Must(tensor.NewMeta(dt, weight.Shape()...))
		}
		if mask[2] {
			dB = tensor.Must(tensor.NewMeta(dt, bias.Shape()...))
		}
		return bwResult(dX, dW, dB), nil
	}
	dy, xv := g.Float64s(), x.Float64s()
	mv, rv := mean.Float64s(), rstd.Float64s()
	w := redOptFloats(weight)
	if mask[0] {
		res := make([]float64, len(xv))
		scale := 1 / float64(n)
		redRows(m, n, func(r int) {
			row, grow := xv[r*n:(r+1)*n], dy[r*n:(r+1)*n]
			var ds, db float64
			for j := range row {
				gw := grow[j]
				if w != nil {
					gw *= w[j]
				}
				ds += gw * row[j]
				db += gw
			}
			a := rv[r]
			b := (db*mv[r] - ds) * a * a * a * scale
			cc := -b*mv[r] - db*a*scale
			out := res[r*n : (r+1)*n]
			for j := range row {
				gw := grow[j]
				if w != nil {
					gw *= w[j]
				}
				out[j] = a*gw + b*row[j] + cc
			}
		})
		dX = tensor.Must(tensor.FromFloat64s(dt, res, x.Shape()...))
	}
	if mask[1] || mask[2] {
		gw, gb := make([]float64, n), make([]float64, n)
		for r := range m {
			row, grow := xv[r*n:(r+1)*n], dy[r*n:(r+1)*n]
			for j := range row {
				gw[j] += grow[j] * (row[j] - mv[r]) * rv[r]
				gb[j] += grow[j]
			}
		}
		if mask[1] {
			dW = tensor.Must(tensor.FromFloat64s(dt, gw, weight.Shape()...))
		}
		if mask[2] {
			dB = tensor.Must(tensor.FromFloat64s(dt, gb, bias.Shape()...))
		}
	}
	return bwResult(dX, dW, dB), nil
}

// bwNativeGroupNormBackward is aten::native_group_norm_backward: the
// gradients of native_group_norm's output, input viewed as [N, C, HxW] and
// mean and rstd holding N*group values.
func bwNativeGroupNormBackward(c *ops.Call) ([]any, error) {
	g, x := c.Tensor("grad_out"), c.Tensor("input")
	mean, rstd, weight := c.Tensor("mean"), c.Tensor("rstd"), c.Tensor("weight")
	n64, c64, hw64, g64 := c.Int("N"), c.Int("C"), c.Int("HxW"), c.Int("group")
	mask := bwMask(c)
	dt := x.DType()
	if err := redSameDType(c, "grad_out", g, dt); err != nil {
		return nil, err
	}
	for _, a := range []struct {
		name string
		v    int64
	}{{"N", n64}, {"C", c64}, {"HxW", hw64}} {
		if a.v < 0 || a.v > tensor.MaxElements {
			return nil, c.Errorf(a.name, "Trying to create tensor with negative or too large dimension %d", a.v)
		}
	}
	if g64 <= 0 || g64 > tensor.MaxElements {
		return nil, c.Errorf("group", "Expected num groups to be greater than 0, got %d", g64)
	}
	if c64%g64 != 0 {
		return nil, c.Errorf("group", "Expected number of channels C=%d to be divisible by num_groups=%d", c64, g64)
	}
	total := float64(n64) * float64(c64) * float64(hw64)
	if total != float64(g.Numel()) {
		return nil, c.Errorf("grad_out", "Expected dY.numel() == N * C * HxW to be true, but got false. (grad_out of shape %s, N=%d, C=%d, HxW=%d)", cvShapeString(g.Shape()), n64, c64, hw64)
	}
	if total != float64(x.Numel()) {
		return nil, c.Errorf("input", "Expected X.numel() == N * C * HxW to be true, but got false. (input of shape %s, N=%d, C=%d, HxW=%d)", cvShapeString(x.Shape()), n64, c64, hw64)
	}
	nn, cc, hw, gr := int(n64), int(c64), int(hw64), int(g64)
	if float64(n64)*float64(g64) > float64(tensor.MaxElements) {
		return nil, c.Errorf("group", "too many groups: %d", g64)
	}
	if err := bwCheckStat(c, "mean", mean, dt, nn*gr, "N * group"); err != nil {
		return nil, err
	}
	if err := bwCheckStat(c, "rstd", rstd, dt, nn*gr, "N * group"); err != nil {
		return nil, err
	}
	if weight != nil && weight.Numel() != cc {
		return nil, c.Errorf("weight", "Expected !gamma.defined() || gamma.numel() == C to be true, but got weight of shape %s and C=%d", cvShapeString(weight.Shape()), cc)
	}
	if err := redSameDType(c, "weight", weight, dt); err != nil {
		return nil, err
	}
	if (mask[1] || mask[2]) && weight == nil {
		return nil, c.Errorf("weight", "output_mask asks for the weight or bias gradient, but weight is None (tensor does not have a device)")
	}
	if !redNormDType(dt) {
		return nil, notImplemented(c, "input", "GroupNormBackwardKernelImpl", dt)
	}
	var dX, dW, dB *tensor.Tensor
	if meta(g, x, mean, rstd, weight) {
		if mask[0] {
			dX = tensor.Must(tensor.NewMeta(dt, x.Shape()...))
		}
		if mask[1] {
			dW = tensor.Must(tensor.NewMeta(dt, weight.Shape()...))
		}
		if mask[2] {
			dB = tensor.Must(tensor.NewMeta(dt, weight.Shape()...))
		}
		return bwResult(dX, dW, dB), nil
	}
	dy, xv := g.Float64s(), x.Float64s()
	mv, rv := mean.Float64s(), rstd.Float64s()
	w := redOptFloats(weight)
	d := cc / gr
	// ds[n, c] = Σ dY·X and db[n, c] = Σ dY over the HxW positions.
	ds, db := make([]float64, nn*cc), make([]float64, nn*cc)
	redRows(nn*cc, hw, func(r int) {
		var s, b float64
		for j := r * hw; j < (r+1)*hw; j++ {
			s += dy[j] * xv[j]
			b += dy[j]
		}
		ds[r], db[r] = s, b
	})
	gamma := func(ch int) float64 {
		if w == nil {
			return 1
		}
		return w[ch]
	}
	if mask[0] {
		res := make([]float64, len(xv))
		s := 1 / float64(d*hw)
		redRows(nn*gr, d*hw, func(r int) {
			n, grp := r/gr, r%gr
			var dsv, dbv float64
			for k := range d {
				ch := grp*d + k
				dsv += ds[n*cc+ch] * gamma(ch)
				dbv += db[n*cc+ch] * gamma(ch)
			}
			a, mu := rv[r], mv[r]
			c2 := (dbv*mu - dsv) * a * a * a * s
			c3 := -c2*mu - dbv*a*s
			for k := range d {
				ch := grp*d + k
				c1 := a * gamma(ch)
				base := (n*cc + ch) * hw
				for j := base; j < base+hw; j++ {
					res[j] = c1*dy[j] + c2*xv[j] + c3
				}
			}
		})
		dX = tensor.Must(tensor.FromFloat64s(dt, res, x.Shape()...))
	}
	if mask[1] || mask[2] {
		gw, gb := make([]float64, cc), make([]float64, cc)
		for n := range nn {
			for ch := range cc {
				r := n*gr + ch/d
				gw[ch] += (ds[n*cc+ch] - db[n*cc+ch]*mv[r]) * rv[r]
				gb[ch] += db[n*cc+ch]
			}
		}
		if mask[1] {
			dW = tensor.Must(tensor.FromFloat64s(dt, gw, weight.Shape()...))
		}
		if mask[2] {
			dB = tensor.Must(tensor.FromFloat64s(dt, gb, weight.Shape()...))
		}
	}
	return bwResult(dX, dW, dB), nil
}

// bwConvolutionBackward is aten::convolution_backward: the gradients of a
// convolution's output with respect to input (a transposed convolution of
// grad_output, or a convolution for a transposed forward), weight (im2col
// GEMMs accumulated over the batch) and bias (grad_output summed over all
// dimensions but the channels).
func bwConvolutionBackward(c *ops.Call) ([]any, error) {
	g, x, w := c.Tensor("grad_output"), c.Tensor("input"), c.Tensor("weight")
	stride, padding, dilation := c.Ints("stride"), c.Ints("padding"), c.Ints("dilation")
	transposed, outPad, groups := c.Bool("transposed"), c.Ints("output_padding"), c.Int("groups")
	mask := bwMask(c)
	nd := w.Dim() - 2
	if nd <= 0 {
		return nil, c.Errorf("weight", "weight should have at least three dimensions")
	}
	// The forward's checks (and its output shape), by a meta call.
	fwd, err := pxCallOp(c, "aten::convolution", []any{x.Meta(), w.Meta(), nil, stride, padding, dilation, transposed, outPad, groups}, nil)
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
				return nil, c.Errorf("output_padding", "output_padding is not supported for non-transposed convolutions; got: %s", cvShapeString(ints(outPad)))
			}
		}
	}
	dt := x.DType()
	if g.DType() != dt {
		return nil, c.Errorf("grad_output", "expected scalar type %s but found %s", scalarTypeName(dt), scalarTypeName(g.DType()))
	}
	if !slices.Equal(g.Shape(), outShape) {
		return nil, c.Errorf("grad_output", "Expected grad_output of the convolution's output shape %s, but got %s", cvShapeString(outShape), cvShapeString(g.Shape()))
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
				return nil, c.Errorf("bias_sizes", "Trying to create tensor with negative dimension %d: %s", s, cvShapeString(biasShape))
			}
		}
	}
	isMeta := meta(g, x, w)
	var p cvConvParams
	p.stride, _ = cvExpandParam(c, "stride", stride, nd)
	p.padding, _ = cvExpandParam(c, "padding", padding, nd)
	p.dilation, _ = cvExpandParam(c, "dilation", dilation, nd)
	p.outPad, _ = cvExpandParam(c, "output_padding", outPad, nd)
	p.transposed, p.groups = transposed, int(groups)
	if !noInput && !isMeta && (mask[0] || mask[1]) {
		if err := bwConvSupported(c, dt, nd, p, mask); err != nil {
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
		return bwResult(dX, dW, dB), nil
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
		return bwResult(dX, dW, dB), nil
	}
	if mask[0] {
		dX = bwConvGradInput(g, x, w, p, dt)
	}
	if mask[1] {
		dW = bwConvGradWeight(g, x, w, p, dt)
	}
	if mask[2] {
		dB = bwConvGradBias(g, dt)
	}
	return bwResult(dX, dW, dB), nil
}

// bwConvSupported reports PyTorch 1.13's error for a convolution backward
// of dtype dt that no CPU kernel implements.
func bwConvSupported(c *ops.Call, dt tensor.DType, nd int, p cvConvParams, mask [3]bool) error {
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

// bwConvGeom returns the geometry shared by the backward products: kernel,
// stride, padding and dilation lifted to three spatial dimensions.
func bwConvGeom(w *tensor.Tensor, p cvConvParams) cvGeom {
	return cvGeom{
		g: p.groups, k: cvLift3(w.Shape()[2:], 1),
		s: cvLift3(p.stride, 1), p: cvLift3(p.padding, 0), d: cvLift3(p.dilation, 1),
	}
}

// bwConvGradInput computes the input gradient: for a forward convolution a
// transposed convolution of grad_output with the same weight (col2im into
// the input's size), for a transposed one a forward convolution of
// grad_output evaluated at the input's positions.
func bwConvGradInput(g, x, w *tensor.Tensor, p cvConvParams, dt tensor.DType) *tensor.Tensor {
	xs := x.Shape()
	geo := bwConvGeom(w, p)
	geo.n = xs[0]
	if p.transposed && geo.k == [3]int{1, 1, 1} && geo.s == [3]int{1, 1, 1} && geo.p == [3]int{} {
		// cvConvRun reads a 1x1 unstrided unpadded input in place, which
		// needs input and output of one size: output i reads grad_output i
		// only, so drop the trailing output_padding positions.
		for i := 2; i < len(xs); i++ {
			g = tensor.Must(g.Narrow(i, 0, xs[i]))
		}
	}
	gs := g.Shape()
	geo.cig, geo.cog = gs[1]/p.groups, xs[1]/p.groups
	geo.in, geo.out = cvLift3(gs[2:], 1), cvLift3(xs[2:], 1)
	geo.transposed = !p.transposed
	wt := cvWorkType(dt)
	out := tensor.Empty(wt, xs...)
	gw, ww := to(g, wt).Contiguous(), to(w, wt).Contiguous()
	switch wt {
	case tensor.Float32:
		cvConvRun(geo, tensor.Values[float32](gw), tensor.Values[float32](ww), nil, tensor.Data[float32](out))
	case tensor.Float64:
		cvConvRun(geo, tensor.Values[float64](gw), tensor.Values[float64](ww), nil, tensor.Data[float64](out))
	default:
		cvConvRun(geo, tensor.Values[int64](gw), tensor.Values[int64](ww), nil, tensor.Data[int64](out))
	}
	return to(out, dt)
}

// bwConvGradWeight computes the weight gradient, per group the sum over
// the batch of A × im2col(B)ᵀ: A = grad_output and B = input for a forward
// convolution, A = input and B = grad_output for a transposed one.
func bwConvGradWeight(g, x, w *tensor.Tensor, p cvConvParams, dt tensor.DType) *tensor.Tensor {
	wt := cvWorkType(dt)
	out := tensor.Empty(wt, w.Shape()...)
	gw, xw := to(g, wt).Contiguous(), to(x, wt).Contiguous()
	a, b := gw, xw
	if p.transposed {
		a, b = xw, gw
	}
	geo := bwConvGeom(w, p)
	geo.n = x.Size(0)
	geo.cig = b.Size(1) / p.groups
	geo.cog = a.Size(1) / p.groups
	geo.in, geo.out = cvLift3(b.Shape()[2:], 1), cvLift3(a.Shape()[2:], 1)
	switch wt {
	case tensor.Float32:
		bwWeightRun(geo, tensor.Values[float32](a), tensor.Values[float32](b), tensor.Data[float32](out))
	case tensor.Float64:
		bwWeightRun(geo, tensor.Values[float64](a), tensor.Values[float64](b), tensor.Data[float64](out))
	default:
		bwWeightRun(geo, tensor.Values[int64](a), tensor.Values[int64](b), tensor.Data[int64](out))
	}
	return to(out, dt)
}

// bwWeightRun accumulates into out [g][cog, cig*K] the products a_ng
// [cog, Lout] × im2col(b_ng)ᵀ [Lout, cig*K] over the batch, where geo
// describes b as the input (cig channels, size in) and a as the output
// (cog channels, size out) of a forward convolution.
func bwWeightRun[T float32 | float64 | int64](geo cvGeom, a, b, out []T) {
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
			cvIm2col(geo, bi, cols, true)
			cvGemm(false, true, geo.cog, geo.cig*kk, lout, 1, ai, max(lout, 1), cols, max(lout, 1), 1, out[gi*blk:(gi+1)*blk], max(geo.cig*kk, 1))
		}
	}
}

// bwConvGradBias sums grad_output over every dimension but the channels.
func bwConvGradBias(g *tensor.Tensor, dt tensor.DType) *tensor.Tensor {
	gs := g.Shape()
	n, ch, l := gs[0], gs[1], cvProd(gs[2:])
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
			res[c] += redSumF64(v[(i*ch+c)*l : (i*ch+c+1)*l])
		}
	}
	return tensor.Must(tensor.FromFloat64s(dt, res, ch))
}
