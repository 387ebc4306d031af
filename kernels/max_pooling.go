package kernels

import (
	"math"
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Max pooling beyond pooling.go's: ATen's MaxPooling.cpp (max_pool1d,
// max_pool3d), AdaptiveMaxPooling2d/3d.cpp, MaxUnpooling.cpp,
// FractionalMaxPool2d/3d.cpp and the public adaptive_avg_pool3d. Maxima
// are exact in any float dtype, so the kernels compare in float64 and
// write the input's dtype; NaN wins a window and among equal values the
// first in row-major order wins, as ATen's loops. Indices are flat offsets
// in each plane (H*W or T*H*W), as PyTorch returns them.

// registerMaxPooling registers the kernels of max_pooling.go.
func registerMaxPooling() {
	registerBoth("aten::max_pool1d", func(c *ops.Call) ([]any, error) { return maxPool1d(c, false) })
	registerBoth("aten::max_pool1d_with_indices", func(c *ops.Call) ([]any, error) { return maxPool1d(c, true) })
	registerBoth("aten::max_pool3d", maxPool3d)
	registerBoth("aten::adaptive_max_pool1d", adaptiveMaxPool1d)
	registerBoth("aten::adaptive_max_pool2d", func(c *ops.Call) ([]any, error) { return adaptiveMaxPool(c, 2) })
	registerBoth("aten::adaptive_max_pool3d", func(c *ops.Call) ([]any, error) { return adaptiveMaxPool(c, 3) })
	registerBoth("aten::adaptive_avg_pool3d", adaptiveAvgPool3dPublic)
	registerBoth("aten::max_unpool2d", func(c *ops.Call) ([]any, error) { return maxUnpool(c, 2) })
	registerBoth("aten::max_unpool3d", func(c *ops.Call) ([]any, error) { return maxUnpool(c, 3) })
	registerBoth("aten::fractional_max_pool2d", func(c *ops.Call) ([]any, error) { return fractionalMaxPool(c, 2) })
	registerBoth("aten::fractional_max_pool3d", func(c *ops.Call) ([]any, error) { return fractionalMaxPool(c, 3) })
}

// maxFloat reports whether dt is a dtype ATen's max pooling kernels take.
func maxFloat(dt tensor.DType) bool {
	return dt == tensor.Float32 || dt == tensor.Float64 || dt == tensor.BFloat16 || dt == tensor.Float16
}

// maxPool1d is aten::max_pool1d and max_pool1d_with_indices:
// max_pool2d_with_indices over self.unsqueeze(-2) with a one-row window,
// squeezed back.
func maxPool1d(c *ops.Call, withIdx bool) ([]any, error) {
	x := c.Tensor("self")
	ks, st, pd, dl := c.Ints("kernel_size"), c.Ints("stride"), c.Ints("padding"), c.Ints("dilation")
	if len(st) == 0 {
		st = ks
	}
	if x.Dim() < 2 || x.Dim() > 3 {
		return nil, c.Errorf("self", "max_pool1d() Expected 2D or 3D input tensor, but got %s", shapeString(x.Shape()))
	}
	for _, a := range []struct {
		n string
		v []int64
	}{{"kernel_size", ks}, {"stride", st}, {"padding", pd}, {"dilation", dl}} {
		if err := check1d(c, "max_pool1d", a.n, a.v); err != nil {
			return nil, err
		}
	}
	xu := tensor.Must(x.Unsqueeze(-2))
	out, err := callOp(c, "aten::max_pool2d_with_indices", []any{xu, []int64{1, ks[0]}, []int64{1, st[0]},
		[]int64{0, pd[0]}, []int64{1, dl[0]}, c.Bool("ceil_mode")}, nil)
	if err != nil {
		return nil, err
	}
	v := tensor.Must(out[0].(*tensor.Tensor).SqueezeDim(-2))
	if !withIdx {
		return one(v), nil
	}
	return []any{v, tensor.Must(out[1].(*tensor.Tensor).SqueezeDim(-2))}, nil
}

// maxPool3d is aten::max_pool3d: the values of max_pool3d_with_indices.
func maxPool3d(c *ops.Call) ([]any, error) {
	out, err := maxPool3dWithIndices(c)
	if err != nil {
		return nil, err
	}
	return out[:1], nil
}

// adaptiveMaxPool1d is aten::adaptive_max_pool1d: adaptive_max_pool2d
// over self.unsqueeze(-2) to [1, output_size], squeezed back.
func adaptiveMaxPool1d(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	os := c.Ints("output_size")
	if x.Dim() < 2 || x.Dim() > 3 {
		return nil, c.Errorf("self", "adaptive_max_pool1d: Expected 2 to 3 dimensions, but got %d-dimensional tensor", x.Dim())
	}
	if err := check1d(c, "adaptive_max_pool1d", "output_size", os); err != nil {
		return nil, err
	}
	out, err := callOp(c, "aten::adaptive_max_pool2d", []any{tensor.Must(x.Unsqueeze(-2)), []int64{1, os[0]}}, nil)
	if err != nil {
		return nil, err
	}
	return []any{tensor.Must(out[0].(*tensor.Tensor).SqueezeDim(-2)), tensor.Must(out[1].(*tensor.Tensor).SqueezeDim(-2))}, nil
}

// adaptiveAvgPool3dPublic is aten::adaptive_avg_pool3d, which ATen
// routes to _adaptive_avg_pool3d.
func adaptiveAvgPool3dPublic(c *ops.Call) ([]any, error) {
	return callOp(c, "aten::_adaptive_avg_pool3d", []any{c.Tensor("self"), c.Ints("output_size")}, nil)
}

// spatialInput checks that self has nd spatial dimensions after an
// optional batch and a channel dimension, none of them but the batch
// empty, and returns its shape.
func spatialInput(c *ops.Call, fn string, nd int) ([]int, error) {
	x := c.Tensor("self")
	xs := x.Shape()
	if x.Dim() != nd+1 && x.Dim() != nd+2 {
		return nil, c.Errorf("self", "%s(): Expected %dD or %dD tensor, but got: %s", fn, nd+1, nd+2, shapeString(xs))
	}
	for i := x.Dim() - nd - 1; i < x.Dim(); i++ {
		if i > 0 && xs[i] == 0 || x.Dim() == nd+1 && xs[i] == 0 {
			return nil, c.Errorf("self", "%s(): Expected input to have non-zero size for non-batch dimensions, but input has sizes %s with dimension %d being empty", fn, shapeString(xs), i)
		}
	}
	return xs, nil
}

// adaptiveMaxPool is aten::adaptive_max_pool2d (nd 2) and 3d: the maximum
// of each adaptive window [⌊o*in/out⌋, ⌈(o+1)*in/out⌉) and its flat
// offset in the plane.
func adaptiveMaxPool(c *ops.Call, nd int) ([]any, error) {
	fn := map[int]string{2: "adaptive_max_pool2d", 3: "adaptive_max_pool3d"}[nd]
	x := c.Tensor("self")
	os := c.Ints("output_size")
	if len(os) != nd {
		return nil, c.Errorf("output_size", "%s(): internal error: output_size.size() must be %d", fn, nd)
	}
	xs, err := spatialInput(c, fn, nd)
	if err != nil {
		return nil, err
	}
	for _, v := range os {
		if v < 0 {
			return nil, c.Errorf("output_size", "%s(): elements of output_size must be greater than or equal to 0 but received %v", fn, os)
		}
	}
	lead := xs[:x.Dim()-nd]
	shape := append(append([]int{}, lead...), ints(os)...)
	dt := x.DType()
	if meta(x) {
		return []any{tensor.Must(empty(true, dt, shape)), tensor.Must(empty(true, tensor.Int64, shape))}, nil
	}
	if !maxFloat(dt) {
		return nil, notImplemented(c, "self", fn, dt)
	}
	in := append([]int{1, 1, 1}[:3-nd:3-nd], xs[x.Dim()-nd:]...)
	out := append([]int{1, 1, 1}[:3-nd:3-nd], ints(os)...)
	planes := product(lead)
	idx := tensor.EmptyUninit(tensor.Int64, shape...)
	iv := tensor.Data[int64](idx)
	switch dt {
	case tensor.Float32:
		res := tensor.EmptyUninit(dt, shape...)
		adaptiveMaxRun(tensor.Values[float32](x), tensor.Data[float32](res), iv, planes, in, out)
		return []any{res, idx}, nil
	case tensor.Float64:
		res := tensor.EmptyUninit(dt, shape...)
		adaptiveMaxRun(tensor.Values[float64](x), tensor.Data[float64](res), iv, planes, in, out)
		return []any{res, idx}, nil
	}
	res := make([]float64, product(shape))
	adaptiveMaxRun(x.Float64s(), res, iv, planes, in, out)
	return []any{tensor.Must(tensor.FromFloat64s(dt, res, shape...)), idx}, nil
}

// adaptiveMaxRun is adaptive max pooling of every plane of x (sizes in,
// 3-d) to sizes out, the maxima into res and their flat offsets into idx.
func adaptiveMaxRun[T float32 | float64](x, res []T, idx []int64, planes int, in, out []int) {
	lin, lout := in[0]*in[1]*in[2], out[0]*out[1]*out[2]
	var s, e [3][]int
	for i := range 3 {
		s[i], e[i] = adaptiveWindows(out[i], in[i])
	}
	if adaptiveMaxRows(x, res, idx, planes, in, out, &s, &e) {
		return
	}
	parallel(planes, planes*lin, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := x[pl*lin : (pl+1)*lin]
			o := pl * lout
			for ot := range out[0] {
				for oh := range out[1] {
					for ow := range out[2] {
						m, best := boxMax(src, in, s[0][ot], e[0][ot], s[1][oh], e[1][oh], s[2][ow], e[2][ow])
						res[o], idx[o] = m, int64(best)
						o++
					}
				}
			}
		}
	})
}

// boxMax is the largest value of a plane src of sizes in (3-d, row-major)
// over the box [t0,t1)×[h0,h1)×[w0,w1), and its flat index: NaN wins, and
// the first of equal maxima is kept (the box's first element when it
// holds only -inf), as ATen's 3-d max pooling loops.
func boxMax[T float32 | float64](src []T, in []int, t0, t1, h0, h1, w0, w1 int) (T, int) {
	best := (t0*in[1]+h0)*in[2] + w0
	m := T(math.Inf(-1))
	for t := t0; t < t1; t++ {
		for h := h0; h < h1; h++ {
			for w := w0; w < w1; w++ {
				i := (t*in[1]+h)*in[2] + w
				if v := src[i]; v > m || v != v {
					m, best = v, i
				}
			}
		}
	}
	return m, best
}

// maxUnpool is aten::max_unpool2d (nd 2) and max_unpool3d: a zero tensor
// of the output size per plane, with self's values written at the flat
// offsets of indices (a later duplicate index overwrites an earlier one).
// max_unpool3d's stride and padding only enter ATen's checks.
func maxUnpool(c *ops.Call, nd int) ([]any, error) {
	fn := map[int]string{2: "max_unpool2d", 3: "max_unpool3d"}[nd]
	x, ix := c.Tensor("self"), c.Tensor("indices")
	os := c.Ints("output_size")
	if len(os) != nd {
		return nil, c.Errorf("output_size", "There should be exactly %d elements (depth, height, width) in output_size, but got %d elements.", nd, len(os))
	}
	if ix.DType() != tensor.Int64 {
		return nil, c.Errorf("indices", "elements in indices should be type int64 but got: %s", scalarTypeName(ix.DType()))
	}
	if x.Dim() != nd+1 && x.Dim() != nd+2 {
		return nil, c.Errorf("self", "Input to %s should be a %dd or %dd Tensor, but got a tensor with %d dimensions.", fn, nd+1, nd+2, x.Dim())
	}
	if !slices.Equal(x.Shape(), ix.Shape()) {
		return nil, c.Errorf("indices", "Expected shape of indices to be same as that of the input tensor (%s) but got indices tensor with shape: %s", shapeString(x.Shape()), shapeString(ix.Shape()))
	}
	xs := x.Shape()
	for i := x.Dim() - nd; i < x.Dim(); i++ {
		if xs[i] <= 0 {
			return nil, c.Errorf("self", "%s(): Expected input to have non-zero size for non-batch dimensions, but got %s with dimension %d being empty.", fn, shapeString(xs), i)
		}
	}
	if nd == 3 {
		st, pd := c.Ints("stride"), c.Ints("padding")
		if len(st) != 3 {
			return nil, c.Errorf("stride", "There should be exactly three elements (depth, height, width) in stride, but got: %d", len(st))
		}
		if len(pd) != 3 {
			return nil, c.Errorf("padding", "There should be exactly three elements (depth, height, width) in padding, but got: %d", len(pd))
		}
		if st[0] <= 0 || st[1] <= 0 || st[2] <= 0 {
			return nil, c.Errorf("stride", "strides should be greater than zero, but got stride: %v", st)
		}
	}
	for _, v := range os {
		if v < 0 {
			return nil, c.Errorf("output_size", "output_size must be non-negative, got %v", os)
		}
	}
	lead := xs[:x.Dim()-nd]
	shape := append(append([]int{}, lead...), ints(os)...)
	dt := x.DType()
	if meta(x, ix) {
		return oneOrErr(empty(true, dt, shape))
	}
	if !maxFloat(dt) {
		return nil, notImplemented(c, "self", fn, dt)
	}
	planes := product(lead)
	lin, lout := product(xs[x.Dim()-nd:]), product(ints(os))
	vals, iv := x.Float64s(), ix.Int64s()
	res := make([]float64, planes*lout)
	for pl := range planes {
		for i := range lin {
			k := iv[pl*lin+i]
			if k < 0 || k >= int64(lout) {
				return nil, c.Errorf("indices", "Found an invalid max index: %d (output volumes are of size %s)", k, shapeString(ints(os)))
			}
			res[pl*lout+int(k)] = vals[pl*lin+i]
		}
	}
	return oneOrErr(tensor.FromFloat64s(dt, res, shape...))
}

// fractionalIntervals is ATen's generate_intervals: the window starts of
// a fractional max pooling along one dimension, from the plane's random
// sample u in [0, 1): ⌊(i+u)·α⌋ - ⌊u·α⌋ with α = (in-pool)/(out-1) in the
// input's precision, the last window ending at the input's end.
func fractionalIntervals(u float64, in, out, pool int, single bool) []int {
	seq := make([]int, out)
	if out > 1 {
		if single {
			a := float32(in-pool) / float32(out-1)
			s := float32(u)
			for i := range out - 1 {
				seq[i] = int((float32(i)+s)*a) - int(s*a)
			}
		} else {
			a := float64(in-pool) / float64(out-1)
			for i := range out - 1 {
				seq[i] = int((float64(i)+u)*a) - int(u*a)
			}
		}
	}
	if out > 0 {
		seq[out-1] = in - pool
	}
	return seq
}

// fractionalMaxPool is aten::fractional_max_pool2d (nd 2) and 3d: max
// pooling with windows of kernel_size placed by fractionalIntervals from
// random_samples, [batch, channels, nd] of numbers in [0, 1) (sample 0
// places the windows along the last dimension for 2-d, along T for 3-d,
// as ATen). It returns the maxima and their flat offsets in the plane.
func fractionalMaxPool(c *ops.Call, nd int) ([]any, error) {
	fn := map[int]string{2: "fractional_max_pool2d", 3: "fractional_max_pool3d"}[nd]
	x, rs := c.Tensor("self"), c.Tensor("random_samples")
	ks, os := c.Ints("kernel_size"), c.Ints("output_size")
	if len(ks) != nd {
		return nil, c.Errorf("kernel_size", "%s: kernel_size must either be a single int, or a tuple of %d ints", fn, nd)
	}
	if len(os) != nd {
		return nil, c.Errorf("output_size", "%s: output_size must either be a single int, or a tuple of %d ints", fn, nd)
	}
	xs := x.Shape()
	if x.Dim() != nd+1 && x.Dim() != nd+2 {
		return nil, c.Errorf("self", "%s(): Expected %dD or %dD tensor, but got: %s", fn, nd+1, nd+2, shapeString(xs))
	}
	for i := 1; i < x.Dim(); i++ {
		if xs[i] <= 0 {
			return nil, c.Errorf("self", "%s(): Expected input to have non-zero size for non-batch dimensions, but got %s with dimension %d being empty.", fn, shapeString(xs), i)
		}
	}
	batch := 1
	if x.Dim() == nd+2 {
		batch = xs[0]
	}
	planesPerBatch := xs[x.Dim()-nd-1]
	if rs.Dim() != 3 || rs.Size(0) < batch || rs.Size(1) < planesPerBatch || rs.Size(2) != nd {
		return nil, c.Errorf("random_samples", "%s(): expected random_samples of shape [%d, %d, %d], got %s", fn, batch, planesPerBatch, nd, shapeString(rs.Shape()))
	}
	if rs.DType() != x.DType() {
		return nil, c.Errorf("random_samples", "%s(): expected random_samples of dtype %s, got %s", fn, scalarTypeName(x.DType()), scalarTypeName(rs.DType()))
	}
	sp := xs[x.Dim()-nd:]
	names := []string{"time", "height", "width"}[3-nd:]
	for i := range nd {
		if ks[i] <= 0 || os[i] < 0 {
			return nil, c.Errorf("kernel_size", "%s(): kernel_size and output_size must be positive, got %v and %v", fn, ks, os)
		}
		// ATen's 3-d check is strict, its 2-d one is not.
		if end := int(os[i] + ks[i] - 1); end > sp[i] || nd == 3 && end == sp[i] {
			return nil, c.Errorf("output_size", "%s(): pool %s %d too large relative to input %s %d", fn, names[i], ks[i], names[i], sp[i])
		}
	}
	shape := append(append([]int{}, xs[:x.Dim()-nd]...), ints(os)...)
	dt := x.DType()
	if meta(x, rs) {
		return []any{tensor.Must(empty(true, dt, shape)), tensor.Must(empty(true, tensor.Int64, shape))}, nil
	}
	if !maxFloat(dt) {
		return nil, notImplemented(c, "self", fn, dt)
	}
	in := append([]int{1, 1, 1}[:3-nd:3-nd], sp...)
	out := append([]int{1, 1, 1}[:3-nd:3-nd], ints(os)...)
	k := append([]int{1, 1, 1}[:3-nd:3-nd], ints(ks)...)
	single := dt != tensor.Float64
	vals := x.Float64s()
	samples := contig(rs).Float64s()
	rsPlane := rs.Size(1) * nd
	lin, lout := in[0]*in[1]*in[2], out[0]*out[1]*out[2]
	res := make([]float64, product(shape))
	idx := make([]int64, len(res))
	for b := range batch {
		for ch := range planesPerBatch {
			u := samples[b*rsPlane+ch*nd : b*rsPlane+ch*nd+nd]
			// ATen's order: 2-d uses sample 0 for W and 1 for H; 3-d
			// uses 0, 1, 2 for T, H, W.
			var seq [3][]int
			if nd == 2 {
				seq[0] = []int{0}
				seq[1] = fractionalIntervals(u[1], in[1], out[1], k[1], single)
				seq[2] = fractionalIntervals(u[0], in[2], out[2], k[2], single)
			} else {
				for i := range 3 {
					seq[i] = fractionalIntervals(u[i], in[i], out[i], k[i], single)
				}
			}
			pl := b*planesPerBatch + ch
			src := vals[pl*lin : (pl+1)*lin]
			o := pl * lout
			for ot := range out[0] {
				t0 := seq[0][ot]
				for oh := range out[1] {
					h0 := seq[1][oh]
					for ow := range out[2] {
						w0 := seq[2][ow]
						m, best := boxMax(src, in, t0, t0+k[0], h0, h0+k[1], w0, w0+k[2])
						res[o], idx[o] = m, int64(best)
						o++
					}
				}
			}
		}
	}
	return []any{tensor.Must(tensor.FromFloat64s(dt, res, shape...)), tensor.Must(tensor.FromInt64s(tensor.Int64, idx, shape...))}, nil
}
