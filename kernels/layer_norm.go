package kernels

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Layer normalization, ATen's layer_norm.cpp: native_layer_norm,
// layer_norm and native_layer_norm_backward, with the statistics and
// gradients computed in float64 and rounded to the dtype once (float32's
// forward by typed row loops, layerNormF32); and
// rms_norm, composed from registered operators as ATen's composite is.

// registerLayerNorm registers the kernels of layer_norm.go.
func registerLayerNorm() {
	registerBoth("aten::native_layer_norm_backward", nativeLayerNormBackward)
	registerBoth("aten::native_layer_norm", nativeLayerNorm)
	registerBoth("aten::layer_norm", layerNorm)
	registerBoth("aten::rms_norm", rmsNorm)
}

// nativeLayerNormBackward is aten::native_layer_norm_backward: the
// gradients of native_layer_norm's output with respect to input, weight
// and bias, from the saved mean and rstd (M values each, one per row).
func nativeLayerNormBackward(c *ops.Call) ([]any, error) {
	g, x := c.Tensor("grad_out"), c.Tensor("input")
	mean, rstd := c.Tensor("mean"), c.Tensor("rstd")
	weight, bias := c.Tensor("weight"), c.Tensor("bias")
	mask := outputMask(c)
	dt := x.DType()
	if !normDType(dt) {
		return nil, notImplemented(c, "input", "LayerNormBackwardKernelImpl", dt)
	}
	m, n, _, err := layerNormCheck(c, x, weight, bias, c.Ints("normalized_shape"))
	if err != nil {
		return nil, err
	}
	if err := checkDType(c, "grad_out", g, dt); err != nil {
		return nil, err
	}
	if !slices.Equal(g.Shape(), x.Shape()) {
		return nil, c.Errorf("grad_out", "Expected grad_out of the input's shape %s, but got %s", shapeString(x.Shape()), shapeString(g.Shape()))
	}
	if err := checkStat(c, "mean", mean, dt, m, "M"); err != nil {
		return nil, err
	}
	if err := checkStat(c, "rstd", rstd, dt, m, "M"); err != nil {
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
		return optionalResults(dX, dW, dB), nil
	}
	dy, xv := g.Float64s(), x.Float64s()
	mv, rv := mean.Float64s(), rstd.Float64s()
	w := optFloats(weight)
	if mask[0] {
		res := make([]float64, len(xv))
		scale := 1 / float64(n)
		forRows(m, n, func(r int) {
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
	return optionalResults(dX, dW, dB), nil
}

// layerNormCheck validates native_layer_norm's arguments and returns the
// number of rows M, the row length N and the shape of mean and rstd.
func layerNormCheck(c *ops.Call, input, weight, bias *tensor.Tensor, ns []int64) (m, n int, statShape []int, err error) {
	norm := ints(ns)
	if len(norm) == 0 {
		return 0, 0, nil, c.Errorf("normalized_shape", "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = []")
	}
	if weight != nil && !slices.Equal(weight.Shape(), norm) {
		return 0, 0, nil, c.Errorf("weight", "Expected weight to be of same shape as normalized_shape, but got weight of shape %s and normalized_shape = %s", shapeString(weight.Shape()), shapeString(norm))
	}
	if bias != nil && !slices.Equal(bias.Shape(), norm) {
		return 0, 0, nil, c.Errorf("bias", "Expected bias to be of same shape as normalized_shape, but got bias of shape %s and normalized_shape = %s", shapeString(bias.Shape()), shapeString(norm))
	}
	shape := input.Shape()
	axis := len(shape) - len(norm)
	if axis < 0 || !slices.Equal(shape[axis:], norm) {
		want := "[*"
		for _, d := range norm {
			want += fmt.Sprintf(", %d", d)
		}
		return 0, 0, nil, c.Errorf("normalized_shape", "Given normalized_shape=%s, expected input with shape %s], but got input of size%s", shapeString(norm), want, shapeString(shape))
	}
	dt := input.DType()
	if !normDType(dt) {
		return 0, 0, nil, notImplemented(c, "input", "LayerNormKernelImpl", dt)
	}
	if err := checkDType(c, "weight", weight, dt); err != nil {
		return 0, 0, nil, err
	}
	if err := checkDType(c, "bias", bias, dt); err != nil {
		return 0, 0, nil, err
	}
	m, n = 1, 1
	statShape = make([]int, len(shape))
	for i, d := range shape {
		if i < axis {
			m *= d
			statShape[i] = d
		} else {
			n *= d
			statShape[i] = 1
		}
	}
	return m, n, statShape, nil
}

// layerNormCompute computes native_layer_norm's three outputs.
func layerNormCompute(c *ops.Call) ([]any, error) {
	input, weight, bias := c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias")
	eps := c.Float("eps")
	m, n, statShape, err := layerNormCheck(c, input, weight, bias, c.Ints("normalized_shape"))
	if err != nil {
		return nil, err
	}
	dt := input.DType()
	if meta(input, weight, bias) {
		return []any{
			tensor.Must(tensor.NewMeta(dt, input.Shape()...)),
			tensor.Must(tensor.NewMeta(dt, statShape...)),
			tensor.Must(tensor.NewMeta(dt, statShape...)),
		}, nil
	}
	if dt == tensor.Float32 {
		return layerNormF32(input, weight, bias, m, n, statShape, eps), nil
	}
	x := input.Float64s()
	w, b := optFloats(weight), optFloats(bias)
	y := make([]float64, len(x))
	means, rstds := make([]float64, m), make([]float64, m)
	forRows(m, n, func(r int) {
		row := x[r*n : (r+1)*n]
		if n == 0 {
			means[r], rstds[r] = 0, math.NaN()
			return
		}
		mean, variance := meanVar(row)
		rstd := rstdOf(variance, eps)
		means[r], rstds[r] = mean, rstd
		scale, shift := rstd, -rstd*mean
		o := y[r*n : (r+1)*n]
		for j, v := range row {
			u := v*scale + shift
			if w != nil {
				u *= w[j]
			}
			if b != nil {
				u += b[j]
			}
			o[j] = u
		}
	})
	return []any{
		tensor.Must(tensor.FromFloat64s(dt, y, input.Shape()...)),
		tensor.Must(tensor.FromFloat64s(dt, means, statShape...)),
		tensor.Must(tensor.FromFloat64s(dt, rstds, statShape...)),
	}, nil
}

// layerNormF32 is layerNormCompute for float32: typed row loops in
// parallel over the rows, the statistics in float64 (vec.Moments, two
// passes) rounded to float32 once, then y = (x*rstd + (-rstd*mean))*w + b
// in float32 with every operation rounded, as ATen 1.13's kernel computes
// it from its float statistics. (ATen accumulates the statistics in
// float, with a cascaded Welford; float64 sums are at least as close to
// the exact values.)
func layerNormF32(input, weight, bias *tensor.Tensor, m, n int, statShape []int, eps float64) []any {
	f := newNormF32(input, weight, bias, statShape)
	x, w, b, y, means, rstds := f.x, f.w, f.b, f.y, f.means, f.rstds
	forRows(m, n, func(r int) {
		if n == 0 {
			means[r], rstds[r] = 0, float32(math.NaN())
			return
		}
		row, o := x[r*n:(r+1)*n], y[r*n:(r+1)*n]
		mean, variance := vec.Moments(row)
		mf, rf := float32(mean), float32(rstdOf(variance, eps))
		means[r], rstds[r] = mf, rf
		shift := -rf * mf
		if w != nil && b != nil {
			vec.Affine(o, row, w, b, rf, shift)
			return
		}
		vec.ScaleShift(o, row, rf, shift)
		if w != nil {
			vec.Binary(vec.Mul, o, o, w)
		}
		if b != nil {
			vec.Binary(vec.Add, o, o, b)
		}
	})
	return f.results()
}

// normF32 holds the operands and outputs of a float32 norm kernel
// (layerNormF32, groupNormF32): the elements of input, weight and bias
// (nil when absent), and fresh uninitialised (out, mean, rstd) tensors
// with their elements; the kernel writes every output element.
type normF32 struct {
	x, w, b           []float32
	out, meanT, rstdT *tensor.Tensor
	y, means, rstds   []float32
}

// newNormF32 reads the float32 operands and makes the outputs: out
// shaped as input, mean and rstd shaped statShape.
func newNormF32(input, weight, bias *tensor.Tensor, statShape []int) *normF32 {
	f := &normF32{x: tensor.Values[float32](input)}
	if weight != nil {
		f.w = tensor.Values[float32](weight)
	}
	if bias != nil {
		f.b = tensor.Values[float32](bias)
	}
	f.out = tensor.EmptyUninit(tensor.Float32, input.Shape()...)
	f.meanT = tensor.EmptyUninit(tensor.Float32, statShape...)
	f.rstdT = tensor.EmptyUninit(tensor.Float32, statShape...)
	f.y, f.means, f.rstds = tensor.Values[float32](f.out), tensor.Values[float32](f.meanT), tensor.Values[float32](f.rstdT)
	return f
}

// results is the kernel's result list: out, mean, rstd.
func (f *normF32) results() []any { return []any{f.out, f.meanT, f.rstdT} }

// nativeLayerNorm is aten::native_layer_norm: (out, mean, rstd)
// normalizing over the trailing normalized_shape dims, mean and rstd
// keeping those dims as size 1.
func nativeLayerNorm(c *ops.Call) ([]any, error) { return layerNormCompute(c) }

// layerNorm is aten::layer_norm: native_layer_norm's output alone.
func layerNorm(c *ops.Call) ([]any, error) {
	out, err := layerNormCompute(c)
	if err != nil {
		return nil, err
	}
	return out[:1], nil
}

// rmsNorm is aten::rms_norm (PyTorch 2.4+): x·rsqrt(mean(x², last
// len(normalized_shape) dims) + eps)·weight, computed in the opmath dtype
// (float32 for float16/bfloat16) and cast back before the weight; eps
// defaults to the opmath dtype's machine epsilon.
func rmsNorm(c *ops.Call) ([]any, error) {
	x := c.Tensor("input")
	ns := c.Ints("normalized_shape")
	shape := x.Shape()
	ok := len(ns) > 0 && len(ns) <= len(shape)
	for i := 0; ok && i < len(ns); i++ {
		ok = int64(shape[len(shape)-len(ns)+i]) == ns[i]
	}
	if !ok {
		return nil, c.Errorf("normalized_shape", "Given normalized_shape=%s, expected input with shape [*, %s], but got input of size%s",
			fmtInts(ns), strings.Trim(fmtInts(ns), "[]"), fmtInts64(shape))
	}
	var w *tensor.Tensor
	if !c.IsNone("weight") {
		w = c.Tensor("weight")
		if !slices.Equal(intsToInt64(w.Shape()), ns) {
			return nil, c.Errorf("weight", "Expected weight to be of same shape as normalized_shape, but got weight of shape %s and normalized_shape = %s",
				fmtInts64(w.Shape()), fmtInts(ns))
		}
	}
	dt := x.DType()
	if !dt.IsFloat() {
		return nil, notImplemented(c, "input", "rms_norm", dt)
	}
	op := computeType(dt)
	eps := 1.1920928955078125e-07
	if op == tensor.Float64 {
		eps = 2.220446049250313e-16
	}
	if v, ok := c.OptFloat("eps"); ok {
		eps = v
	}
	eps = roundTo(dt, eps)
	dims := make([]int64, len(ns))
	for i := range dims {
		dims[i] = int64(len(shape) - i - 1)
	}
	p := &chain{c: c, arg: "input"}
	up := to2(p, x, op)
	ms := p.call("aten::mean.dim", p.call("aten::pow.Tensor_Scalar", up, ops.IntScalar(2)), dims, true)
	r := p.call("aten::rsqrt", p.call("aten::add.Scalar", ms, ops.FloatScalar(eps)))
	out := to2(p, p.call("aten::mul.Tensor", up, r), dt)
	if w != nil {
		out = p.call("aten::mul.Tensor", out, w)
	}
	return p.result(out)
}
