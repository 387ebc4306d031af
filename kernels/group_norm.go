package kernels

import (
	"math"

	"github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Group normalization, ATen's group_norm.cpp: native_group_norm,
// group_norm and native_group_norm_backward, with the statistics and
// gradients computed in float64 and rounded to the dtype once (float32's
// forward by typed loops, groupNormF32).

// registerGroupNorm registers the kernels of group_norm.go.
func registerGroupNorm() {
	registerBoth("aten::native_group_norm_backward", nativeGroupNormBackward)
	registerBoth("aten::native_group_norm", nativeGroupNorm)
	registerBoth("aten::group_norm", groupNorm)
}

// nativeGroupNormBackward is aten::native_group_norm_backward: the
// gradients of native_group_norm's output, input viewed as [N, C, HxW] and
// mean and rstd holding N*group values.
func nativeGroupNormBackward(c *ops.Call) ([]any, error) {
	g, x := c.Tensor("grad_out"), c.Tensor("input")
	mean, rstd, weight := c.Tensor("mean"), c.Tensor("rstd"), c.Tensor("weight")
	n64, c64, hw64, g64 := c.Int("N"), c.Int("C"), c.Int("HxW"), c.Int("group")
	mask := outputMask(c)
	dt := x.DType()
	if err := checkDType(c, "grad_out", g, dt); err != nil {
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
		return nil, c.Errorf("grad_out", "Expected dY.numel() == N * C * HxW to be true, but got false. (grad_out of shape %s, N=%d, C=%d, HxW=%d)", shapeString(g.Shape()), n64, c64, hw64)
	}
	if total != float64(x.Numel()) {
		return nil, c.Errorf("input", "Expected X.numel() == N * C * HxW to be true, but got false. (input of shape %s, N=%d, C=%d, HxW=%d)", shapeString(x.Shape()), n64, c64, hw64)
	}
	nn, cc, hw, gr := int(n64), int(c64), int(hw64), int(g64)
	if float64(n64)*float64(g64) > float64(tensor.MaxElements) {
		return nil, c.Errorf("group", "too many groups: %d", g64)
	}
	if err := checkStat(c, "mean", mean, dt, nn*gr, "N * group"); err != nil {
		return nil, err
	}
	if err := checkStat(c, "rstd", rstd, dt, nn*gr, "N * group"); err != nil {
		return nil, err
	}
	if weight != nil && weight.Numel() != cc {
		return nil, c.Errorf("weight", "Expected !gamma.defined() || gamma.numel() == C to be true, but got weight of shape %s and C=%d", shapeString(weight.Shape()), cc)
	}
	if err := checkDType(c, "weight", weight, dt); err != nil {
		return nil, err
	}
	if (mask[1] || mask[2]) && weight == nil {
		return nil, c.Errorf("weight", "output_mask asks for the weight or bias gradient, but weight is None (tensor does not have a device)")
	}
	if !normDType(dt) {
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
		return optionalResults(dX, dW, dB), nil
	}
	dy, xv := g.Float64s(), x.Float64s()
	mv, rv := mean.Float64s(), rstd.Float64s()
	w := optFloats(weight)
	d := cc / gr
	// ds[n, c] = Σ dY·X and db[n, c] = Σ dY over the HxW positions.
	ds, db := make([]float64, nn*cc), make([]float64, nn*cc)
	forRows(nn*cc, hw, func(r int) {
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
		forRows(nn*gr, d*hw, func(r int) {
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
	return optionalResults(dX, dW, dB), nil
}

// nativeGroupNorm is aten::native_group_norm: input viewed as [N, C,
// HxW] is normalized per sample over groups of C/group channels; returns
// (out, mean[N, group], rstd[N, group]).
func nativeGroupNorm(c *ops.Call) ([]any, error) {
	input, weight, bias := c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias")
	n64, c64, hw64, g64 := c.Int("N"), c.Int("C"), c.Int("HxW"), c.Int("group")
	eps := c.Float("eps")
	if g64 <= 0 {
		return nil, c.Errorf("group", "Expected num groups to be greater than 0, got %d", g64)
	}
	if c64%g64 != 0 {
		return nil, c.Errorf("group", "Expected number of channels in input to be divisible by num_groups, but got input of shape %s and num_groups=%d", shapeString(input.Shape()), g64)
	}
	for _, wb := range []struct {
		name string
		t    *tensor.Tensor
	}{{"weight", weight}, {"bias", bias}} {
		if wb.t != nil && (wb.t.Dim() != 1 || int64(wb.t.Numel()) != c64) {
			return nil, c.Errorf(wb.name, "Expected %s to be a vector of size equal to the number of channels in input, but got %s of shape %s and input of shape %s", wb.name, wb.name, shapeString(wb.t.Shape()), shapeString(input.Shape()))
		}
	}
	for _, a := range []struct {
		name string
		v    int64
	}{{"N", n64}, {"C", c64}, {"HxW", hw64}} {
		if a.v < 0 || a.v > tensor.MaxElements {
			return nil, c.Errorf(a.name, "Trying to create tensor with negative or too large dimension %d", a.v)
		}
	}
	if g64 > tensor.MaxElements {
		return nil, c.Errorf("group", "too many groups: %d", g64)
	}
	total := float64(n64) * float64(c64) * float64(hw64)
	if total != float64(input.Numel()) {
		return nil, c.Errorf("input", "Expected X.numel() == N * C * HxW to be true, but got false. (input of shape %s, N=%d, C=%d, HxW=%d)", shapeString(input.Shape()), n64, c64, hw64)
	}
	dt := input.DType()
	if !normDType(dt) {
		return nil, notImplemented(c, "input", "GroupNormKernelImpl", dt)
	}
	if err := checkDType(c, "weight", weight, dt); err != nil {
		return nil, err
	}
	if err := checkDType(c, "bias", bias, dt); err != nil {
		return nil, err
	}
	nn, cc, hw, g := int(n64), int(c64), int(hw64), int(g64)
	statShape := []int{nn, g}
	if meta(input, weight, bias) {
		return []any{
			tensor.Must(tensor.NewMeta(dt, input.Shape()...)),
			tensor.Must(tensor.NewMeta(dt, statShape...)),
			tensor.Must(tensor.NewMeta(dt, statShape...)),
		}, nil
	}
	if dt == tensor.Float32 {
		return groupNormF32(input, weight, bias, nn, cc, hw, g, eps), nil
	}
	x := input.Float64s()
	w, b := optFloats(weight), optFloats(bias)
	y := make([]float64, len(x))
	d := cc / g
	rowLen := d * hw
	means, rstds := make([]float64, nn*g), make([]float64, nn*g)
	forRows(nn*g, rowLen, func(r int) {
		row := x[r*rowLen : (r+1)*rowLen]
		if rowLen == 0 {
			means[r], rstds[r] = 0, math.NaN()
			return
		}
		mean, variance := meanVar(row)
		rstd := rstdOf(variance, eps)
		means[r], rstds[r] = mean, rstd
		for k := 0; k < d; k++ {
			ch := (r%g)*d + k
			scale := rstd
			if w != nil {
				scale *= w[ch]
			}
			shift := -scale * mean
			if b != nil {
				shift += b[ch]
			}
			for j := k * hw; j < (k+1)*hw; j++ {
				y[r*rowLen+j] = row[j]*scale + shift
			}
		}
	})
	return []any{
		tensor.Must(tensor.FromFloat64s(dt, y, input.Shape()...)),
		tensor.Must(tensor.FromFloat64s(dt, means, statShape...)),
		tensor.Must(tensor.FromFloat64s(dt, rstds, statShape...)),
	}, nil
}

// groupNormF32 is nativeGroupNorm for float32: typed loops in parallel
// over the N*group rows of C/group*HxW elements, the statistics in
// float64 (vec.Moments) rounded to float32 once, then per channel
// y = x*scale + shift with scale = rstd*w[c] and shift = -scale*mean +
// b[c] in float32, as ATen 1.13's kernel computes it from its float
// statistics.
func groupNormF32(input, weight, bias *tensor.Tensor, nn, cc, hw, g int, eps float64) []any {
	f := newNormF32(input, weight, bias, []int{nn, g})
	x, w, b, y, means, rstds := f.x, f.w, f.b, f.y, f.means, f.rstds
	d := cc / g
	rowLen := d * hw
	forRows(nn*g, rowLen, func(r int) {
		if rowLen == 0 {
			means[r], rstds[r] = 0, float32(math.NaN())
			return
		}
		row, o := x[r*rowLen:(r+1)*rowLen], y[r*rowLen:(r+1)*rowLen]
		mean, variance := vec.Moments(row)
		mf, rf := float32(mean), float32(rstdOf(variance, eps))
		means[r], rstds[r] = mf, rf
		for k := range d {
			ch := (r%g)*d + k
			scale := rf
			if w != nil {
				scale *= w[ch]
			}
			shift := float32(-scale * mf) // rounded before the bias is added
			if b != nil {
				shift += b[ch]
			}
			vec.ScaleShift(o[k*hw:(k+1)*hw], row[k*hw:(k+1)*hw], scale, shift)
		}
	})
	return f.results()
}

// groupNorm is aten::group_norm: the checks of ATen's group_norm, then
// native_group_norm's output on input viewed as [N, C, HxW].
func groupNorm(c *ops.Call) ([]any, error) {
	input, weight, bias := c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias")
	groups := c.Int("num_groups")
	if input.Dim() < 2 {
		d := 1
		if input.Dim() == 0 {
			d = 0
		}
		return nil, c.Errorf("input", "%s", dimErr(d, input.Dim()))
	}
	shape := input.Shape()
	n, ch := shape[0], int64(shape[1])
	if groups <= 0 {
		return nil, c.Errorf("num_groups", "Expected num groups to be greater than 0, got %d", groups)
	}
	if ch%groups != 0 {
		return nil, c.Errorf("num_groups", "Expected number of channels in input to be divisible by num_groups, but got input of shape %s and num_groups=%d",
			shapeString(shape), groups)
	}
	weightShape := []int{0}
	if weight != nil {
		weightShape = weight.Shape()
	}
	if weight != nil && (weight.Dim() != 1 || int64(weight.Numel()) != ch) {
		return nil, c.Errorf("weight", "Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape %s and input of shape %s",
			shapeString(weightShape), shapeString(shape))
	}
	if bias != nil && (bias.Dim() != 1 || int64(bias.Numel()) != ch) {
		// ATen prints the weight's shape here.
		return nil, c.Errorf("bias", "Expected bias to be a vector of size equal to the number of channels in input, but got bias of shape %s and input of shape %s",
			shapeString(weightShape), shapeString(shape))
	}
	hw := 1
	for _, s := range shape[2:] {
		hw *= s
	}
	ngn := op("aten::native_group_norm")
	out, err := ngn.Call([]any{contig(input), contig(weight), contig(bias), int64(n), ch, int64(hw), groups, c.Float("eps")}, nil)
	if err != nil {
		return nil, rebind(c, ngn, err, map[string]string{"N": "input", "C": "input", "HxW": "input", "group": "num_groups"})
	}
	return out[:1], nil
}
