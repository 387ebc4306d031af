package kernels

import (
	"fmt"
	"math"
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Normalizations: layer norm, group norm and batch norm. Statistics are
// computed in float64 and the outputs follow the formulas of ATen's CPU
// kernels (y = x*scale + bias with scale and bias folded per row or
// channel), so that degenerate inputs (zero variance with eps = 0) give
// PyTorch's NaN and infinity.

func registerNorm() {
	registerBoth("aten::native_layer_norm", redNativeLayerNorm)
	registerBoth("aten::layer_norm", redLayerNorm)
	registerBoth("aten::native_group_norm", redNativeGroupNorm)
	registerBoth("aten::native_batch_norm", redNativeBatchNorm)
	registerBoth("aten::batch_norm", redBatchNorm)
}

// redNormDType reports whether dt is one of the dtypes ATen's CPU
// normalization kernels support.
func redNormDType(dt tensor.DType) bool {
	return dt == tensor.Float32 || dt == tensor.Float64 || dt == tensor.BFloat16
}

// redSameDType checks that the optional tensor argument arg has dtype dt,
// as the kernels' data_ptr<T> checks do.
func redSameDType(c *ops.Call, arg string, t *tensor.Tensor, dt tensor.DType) error {
	if t != nil && t.DType() != dt {
		return c.Errorf(arg, "expected scalar type %s but found %s", scalarTypeName(dt), scalarTypeName(t.DType()))
	}
	return nil
}

// redOptFloats returns t's elements as float64, or nil for a nil t.
func redOptFloats(t *tensor.Tensor) []float64 {
	if t == nil {
		return nil
	}
	return t.Float64s()
}

// redMeanVar returns the mean and the biased variance of vals (NaN for
// both when vals is empty).
func redMeanVar(vals []float64) (mean, variance float64) {
	n := float64(len(vals))
	mean = redSumF64(vals) / n
	var m2 float64
	for _, v := range vals {
		d := v - mean
		m2 += d * d
	}
	return mean, m2 / n
}

// redRstd is the reciprocal standard deviation of layer and group norm,
// 1/sqrt(max(var, 0) + eps).
func redRstd(variance, eps float64) float64 {
	return 1 / math.Sqrt(math.Max(variance, 0)+eps)
}

// redLayerNormCheck validates native_layer_norm's arguments and returns the
// number of rows M, the row length N and the shape of mean and rstd.
func redLayerNormCheck(c *ops.Call, input, weight, bias *tensor.Tensor, ns []int64) (m, n int, statShape []int, err error) {
	norm := ints(ns)
	if len(norm) == 0 {
		return 0, 0, nil, c.Errorf("normalized_shape", "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = []")
	}
	if weight != nil && !slices.Equal(weight.Shape(), norm) {
		return 0, 0, nil, c.Errorf("weight", "Expected weight to be of same shape as normalized_shape, but got weight of shape %s and normalized_shape = %s", redFmtShape(weight.Shape()), redFmtShape(norm))
	}
	if bias != nil && !slices.Equal(bias.Shape(), norm) {
		return 0, 0, nil, c.Errorf("bias", "Expected bias to be of same shape as normalized_shape, but got bias of shape %s and normalized_shape = %s", redFmtShape(bias.Shape()), redFmtShape(norm))
	}
	shape := input.Shape()
	axis := len(shape) - len(norm)
	if axis < 0 || !slices.Equal(shape[axis:], norm) {
		want := "[*"
		for _, d := range norm {
			want += fmt.Sprintf(", %d", d)
		}
		return 0, 0, nil, c.Errorf("normalized_shape", "Given normalized_shape=%s, expected input with shape %s], but got input of size%s", redFmtShape(norm), want, redFmtShape(shape))
	}
	dt := input.DType()
	if !redNormDType(dt) {
		return 0, 0, nil, notImplemented(c, "input", "LayerNormKernelImpl", dt)
	}
	if err := redSameDType(c, "weight", weight, dt); err != nil {
		return 0, 0, nil, err
	}
	if err := redSameDType(c, "bias", bias, dt); err != nil {
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

// redLayerNormCompute computes native_layer_norm's three outputs.
func redLayerNormCompute(c *ops.Call) ([]any, error) {
	input, weight, bias := c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias")
	eps := c.Float("eps")
	m, n, statShape, err := redLayerNormCheck(c, input, weight, bias, c.Ints("normalized_shape"))
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
	x := input.Float64s()
	w, b := redOptFloats(weight), redOptFloats(bias)
	y := make([]float64, len(x))
	means, rstds := make([]float64, m), make([]float64, m)
	redRows(m, n, func(r int) {
		row := x[r*n : (r+1)*n]
		if n == 0 {
			means[r], rstds[r] = 0, math.NaN()
			return
		}
		mean, variance := redMeanVar(row)
		rstd := redRstd(variance, eps)
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

// redNativeLayerNorm is aten::native_layer_norm: (out, mean, rstd)
// normalizing over the trailing normalized_shape dims, mean and rstd
// keeping those dims as size 1.
func redNativeLayerNorm(c *ops.Call) ([]any, error) { return redLayerNormCompute(c) }

// redLayerNorm is aten::layer_norm: native_layer_norm's output alone.
func redLayerNorm(c *ops.Call) ([]any, error) {
	out, err := redLayerNormCompute(c)
	if err != nil {
		return nil, err
	}
	return out[:1], nil
}

// redNativeGroupNorm is aten::native_group_norm: input viewed as [N, C,
// HxW] is normalized per sample over groups of C/group channels; returns
// (out, mean[N, group], rstd[N, group]).
func redNativeGroupNorm(c *ops.Call) ([]any, error) {
	input, weight, bias := c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias")
	n64, c64, hw64, g64 := c.Int("N"), c.Int("C"), c.Int("HxW"), c.Int("group")
	eps := c.Float("eps")
	if g64 <= 0 {
		return nil, c.Errorf("group", "Expected num groups to be greater than 0, got %d", g64)
	}
	if c64%g64 != 0 {
		return nil, c.Errorf("group", "Expected number of channels in input to be divisible by num_groups, but got input of shape %s and num_groups=%d", redFmtShape(input.Shape()), g64)
	}
	for _, wb := range []struct {
		name string
		t    *tensor.Tensor
	}{{"weight", weight}, {"bias", bias}} {
		if wb.t != nil && (wb.t.Dim() != 1 || int64(wb.t.Numel()) != c64) {
			return nil, c.Errorf(wb.name, "Expected %s to be a vector of size equal to the number of channels in input, but got %s of shape %s and input of shape %s", wb.name, wb.name, redFmtShape(wb.t.Shape()), redFmtShape(input.Shape()))
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
		return nil, c.Errorf("input", "Expected X.numel() == N * C * HxW to be true, but got false. (input of shape %s, N=%d, C=%d, HxW=%d)", redFmtShape(input.Shape()), n64, c64, hw64)
	}
	dt := input.DType()
	if !redNormDType(dt) {
		return nil, notImplemented(c, "input", "GroupNormKernelImpl", dt)
	}
	if err := redSameDType(c, "weight", weight, dt); err != nil {
		return nil, err
	}
	if err := redSameDType(c, "bias", bias, dt); err != nil {
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
	x := input.Float64s()
	w, b := redOptFloats(weight), redOptFloats(bias)
	y := make([]float64, len(x))
	d := cc / g
	rowLen := d * hw
	means, rstds := make([]float64, nn*g), make([]float64, nn*g)
	redRows(nn*g, rowLen, func(r int) {
		row := x[r*rowLen : (r+1)*rowLen]
		if rowLen == 0 {
			means[r], rstds[r] = 0, math.NaN()
			return
		}
		mean, variance := redMeanVar(row)
		rstd := redRstd(variance, eps)
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

// redBNArgs are batch norm's tensor arguments in schema order.
var redBNArgs = []string{"weight", "bias", "running_mean", "running_var"}

// redBatchNormCheck validates native_batch_norm's arguments and returns
// the channel count and the dtype of the statistics (float32 when a
// bfloat16 input comes with float32 parameters, ATen's "mixed" mode).
func redBatchNormCheck(c *ops.Call) (channels int, statDT tensor.DType, err error) {
	input := c.Tensor("input")
	if input.Dim() == 0 {
		return 0, 0, c.Errorf("input", "Dimension specified as 1 but tensor has no dimensions")
	}
	if input.Dim() < 2 {
		return 0, 0, c.Errorf("input", "Dimension out of range (expected to be in range of [-1, 0], but got 1)")
	}
	channels = input.Size(1)
	for _, name := range redBNArgs {
		if t := c.Tensor(name); t != nil && t.Numel() != channels {
			return 0, 0, c.Errorf(name, "%s should contain %d elements not %d", name, channels, t.Numel())
		}
	}
	if !c.Bool("training") {
		for _, name := range redBNArgs[2:] {
			if c.Tensor(name) == nil {
				return 0, 0, c.Errorf(name, "%s must be defined in evaluation mode", name)
			}
		}
	}
	dt := input.DType()
	mixed := false
	for _, name := range redBNArgs {
		if t := c.Tensor(name); t != nil && t.DType() != dt {
			mixed = true
		}
	}
	if mixed {
		for _, name := range redBNArgs {
			if t := c.Tensor(name); t != nil && t.DType() != tensor.Float32 {
				return 0, 0, c.Errorf(name, "mixed dtype (CPU): expect parameter to have scalar type of Float")
			}
		}
		if dt != tensor.BFloat16 {
			return 0, 0, c.Errorf("input", "mixed dtype (CPU): expect input to have scalar type of BFloat16")
		}
		return channels, tensor.Float32, nil
	}
	if !redNormDType(dt) {
		return 0, 0, notImplemented(c, "input", "batch_norm", dt)
	}
	return channels, dt, nil
}

// redBatchNormCompute computes native_batch_norm after redBatchNormCheck:
// with training, batch statistics (biased variance) normalize the input
// and the running statistics are updated in place (unbiased variance,
// momentum); otherwise the running statistics normalize it and the saved
// statistics are empty.
func redBatchNormCompute(c *ops.Call, channels int, statDT tensor.DType) ([]any, error) {
	input := c.Tensor("input")
	weight, bias := c.Tensor("weight"), c.Tensor("bias")
	rmean, rvar := c.Tensor("running_mean"), c.Tensor("running_var")
	training := c.Bool("training")
	momentum, eps := c.Float("momentum"), c.Float("eps")
	dt := input.DType()
	statLen := 0
	if training {
		statLen = channels
	}
	if meta(input, weight, bias, rmean, rvar) {
		return []any{
			tensor.Must(tensor.NewMeta(dt, input.Shape()...)),
			tensor.Must(tensor.NewMeta(statDT, statLen)),
			tensor.Must(tensor.NewMeta(statDT, statLen)),
		}, nil
	}
	shape := input.Shape()
	batch, spatial := shape[0], 1
	for _, s := range shape[2:] {
		spatial *= s
	}
	x := input.Float64s()
	w, b := redOptFloats(weight), redOptFloats(bias)
	mean, invstd := make([]float64, channels), make([]float64, channels)
	count := batch * spatial
	if training {
		varUnbiased := make([]float64, channels)
		parallelFor(channels, func(lo, hi int) {
			vals := make([]float64, 0, count)
			for ch := lo; ch < hi; ch++ {
				vals = vals[:0]
				for nb := 0; nb < batch; nb++ {
					base := (nb*channels + ch) * spatial
					vals = append(vals, x[base:base+spatial]...)
				}
				m, v := redMeanVar(vals)
				mean[ch] = m
				// ATen's InvStd: 0 when var and eps are both 0.
				if v != 0 || eps != 0 {
					invstd[ch] = 1 / math.Sqrt(v+eps)
				}
				varUnbiased[ch] = v * float64(count) / float64(count-1)
			}
		})
		if rmean != nil {
			rm := rmean.Float64s()
			for ch := range rm {
				rm[ch] = momentum*mean[ch] + (1-momentum)*rm[ch]
			}
			if err := rmean.CopyFrom(tensor.Must(tensor.FromFloat64s(rmean.DType(), rm, rmean.Shape()...))); err != nil {
				return nil, c.Errorf("running_mean", "%v", err)
			}
		}
		if rvar != nil {
			rv := rvar.Float64s()
			for ch := range rv {
				rv[ch] = momentum*varUnbiased[ch] + (1-momentum)*rv[ch]
			}
			if err := rvar.CopyFrom(tensor.Must(tensor.FromFloat64s(rvar.DType(), rv, rvar.Shape()...))); err != nil {
				return nil, c.Errorf("running_var", "%v", err)
			}
		}
	} else {
		copy(mean, rmean.Float64s())
		for ch, v := range rvar.Float64s() {
			invstd[ch] = 1 / math.Sqrt(v+eps)
		}
	}
	y := make([]float64, len(x))
	redRows(batch*channels, spatial, func(r int) {
		ch := r % channels
		alpha := invstd[ch]
		if w != nil {
			alpha *= w[ch]
		}
		beta := -mean[ch] * alpha
		if b != nil {
			beta += b[ch]
		}
		for j := r * spatial; j < (r+1)*spatial; j++ {
			y[j] = x[j]*alpha + beta
		}
	})
	out := tensor.Must(tensor.FromFloat64s(dt, y, shape...))
	if !training {
		return []any{out, tensor.Empty(statDT, 0), tensor.Empty(statDT, 0)}, nil
	}
	return []any{
		out,
		tensor.Must(tensor.FromFloat64s(statDT, mean, channels)),
		tensor.Must(tensor.FromFloat64s(statDT, invstd, channels)),
	}, nil
}

// redNativeBatchNorm is aten::native_batch_norm: (out, save_mean,
// save_invstd), the last two empty [0] tensors when not training.
func redNativeBatchNorm(c *ops.Call) ([]any, error) {
	channels, statDT, err := redBatchNormCheck(c)
	if err != nil {
		return nil, err
	}
	return redBatchNormCompute(c, channels, statDT)
}

// redBatchNorm is aten::batch_norm: native_batch_norm's output, except that
// an empty input gives input*weight[0] + bias[0] (an empty tensor of the
// promoted dtype), as ATen's _batch_norm_impl_index does.
func redBatchNorm(c *ops.Call) ([]any, error) {
	input := c.Tensor("input")
	if input.Dim() >= 2 && input.Numel() == 0 {
		dt := input.DType()
		for _, name := range redBNArgs[:2] {
			t := c.Tensor(name)
			if t == nil {
				continue
			}
			if t.Dim() == 0 {
				return nil, c.Errorf(name, "invalid index of a 0-dim tensor")
			}
			if t.Size(0) == 0 {
				return nil, c.Errorf(name, "index 0 is out of bounds for dimension 0 with size 0")
			}
			r, err := ops.ResultType(tensor.Must(tensor.NewMeta(dt, input.Shape()...)), tensor.Must(tensor.NewMeta(t.DType())))
			if err != nil {
				return nil, c.Errorf(name, "%v", err)
			}
			dt = r
		}
		return one(tensor.Must(empty(input.IsMeta(), dt, input.Shape()))), nil
	}
	channels, statDT, err := redBatchNormCheck(c)
	if err != nil {
		return nil, err
	}
	out, err := redBatchNormCompute(c, channels, statDT)
	if err != nil {
		return nil, err
	}
	return out[:1], nil
}
