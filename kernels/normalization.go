package kernels

import (
	"math"
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Batch and instance normalization, ATen's Normalization.cpp:
// native_batch_norm, batch_norm, the _native_batch_norm_legit family
// (with 2.x's _native_batch_norm_legit_functional), 2.x's
// _batch_norm_with_update family and instance_norm. Statistics are computed in float64 and the outputs follow
// the formulas of ATen's CPU kernels (y = x*scale + bias with scale and
// bias folded per channel), so that degenerate inputs (zero variance with
// eps = 0) give PyTorch's NaN and infinity.

// registerNormalization registers the kernels of normalization.go.
func registerNormalization() {
	registerBoth("aten::native_batch_norm", nativeBatchNorm)
	registerBoth("aten::batch_norm", batchNorm)
	registerBoth("aten::_native_batch_norm_legit", batchNormLegit)
	registerBoth("aten::_native_batch_norm_legit.no_stats", batchNormLegitNoStats)
	registerBoth("aten::_native_batch_norm_legit_no_training", batchNormLegitNoTraining)
	registerBoth("aten::instance_norm", instanceNorm)
	registerBoth("aten::_native_batch_norm_legit_functional", batchNormLegitFunctional)
	registerBoth("aten::_batch_norm_with_update", batchNormWithUpdate)
	registerBoth("aten::_batch_norm_with_update_functional", batchNormWithUpdateFunctional)
	registerBoth("aten::_batch_norm_no_update", batchNormNoUpdate)
}

// normDType reports whether dt is one of the dtypes ATen's CPU
// normalization kernels support.
func normDType(dt tensor.DType) bool {
	return dt == tensor.Float32 || dt == tensor.Float64 || dt == tensor.BFloat16
}

// checkDType checks that the optional tensor argument arg has dtype dt,
// as the kernels' data_ptr<T> checks do.
func checkDType(c *ops.Call, arg string, t *tensor.Tensor, dt tensor.DType) error {
	if t != nil && t.DType() != dt {
		return c.Errorf(arg, "expected scalar type %s but found %s", scalarTypeName(dt), scalarTypeName(t.DType()))
	}
	return nil
}

// optFloats returns t's elements as float64, or nil for a nil t.
func optFloats(t *tensor.Tensor) []float64 {
	if t == nil {
		return nil
	}
	return t.Float64s()
}

// meanVar returns the mean and the biased variance of vals (NaN for
// both when vals is empty).
func meanVar(vals []float64) (mean, variance float64) {
	n := float64(len(vals))
	mean = sumF64(vals) / n
	var m2 float64
	for _, v := range vals {
		d := v - mean
		m2 += d * d
	}
	return mean, m2 / n
}

// rstdOf is the reciprocal standard deviation of layer and group norm,
// 1/sqrt(max(var, 0) + eps).
func rstdOf(variance, eps float64) float64 {
	return 1 / math.Sqrt(math.Max(variance, 0)+eps)
}

// bnArgs are batch norm's tensor arguments in schema order.
var bnArgs = []string{"weight", "bias", "running_mean", "running_var"}

// batchNormCheck validates native_batch_norm's arguments and returns
// the channel count and the dtype of the statistics (float32 when a
// bfloat16 input comes with float32 parameters, ATen's "mixed" mode).
func batchNormCheck(c *ops.Call) (channels int, statDT tensor.DType, err error) {
	input := c.Tensor("input")
	if input.Dim() == 0 {
		return 0, 0, c.Errorf("input", "Dimension specified as 1 but tensor has no dimensions")
	}
	if input.Dim() < 2 {
		return 0, 0, c.Errorf("input", "Dimension out of range (expected to be in range of [-1, 0], but got 1)")
	}
	channels = input.Size(1)
	for _, name := range bnArgs {
		if t := c.Tensor(name); t != nil && t.Numel() != channels {
			return 0, 0, c.Errorf(name, "%s should contain %d elements not %d", name, channels, t.Numel())
		}
	}
	if !c.Bool("training") {
		for _, name := range bnArgs[2:] {
			if c.Tensor(name) == nil {
				return 0, 0, c.Errorf(name, "%s must be defined in evaluation mode", name)
			}
		}
	}
	dt := input.DType()
	mixed := false
	for _, name := range bnArgs {
		if t := c.Tensor(name); t != nil && t.DType() != dt {
			mixed = true
		}
	}
	if mixed {
		for _, name := range bnArgs {
			if t := c.Tensor(name); t != nil && t.DType() != tensor.Float32 {
				return 0, 0, c.Errorf(name, "mixed dtype (CPU): expect parameter to have scalar type of Float")
			}
		}
		if dt != tensor.BFloat16 {
			return 0, 0, c.Errorf("input", "mixed dtype (CPU): expect input to have scalar type of BFloat16")
		}
		return channels, tensor.Float32, nil
	}
	if !normDType(dt) {
		return 0, 0, notImplemented(c, "input", "batch_norm", dt)
	}
	return channels, dt, nil
}

// batchNormCompute computes native_batch_norm after batchNormCheck:
// with training, batch statistics (biased variance) normalize the input
// and the running statistics are updated in place (unbiased variance,
// momentum); otherwise the running statistics normalize it and the saved
// statistics are empty.
func batchNormCompute(c *ops.Call, channels int, statDT tensor.DType) ([]any, error) {
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
	// A contiguous float32 or float64 input is read in place by a typed
	// loop (bnApply); the statistics of training need the float64 copy.
	fast := (dt == tensor.Float32 || dt == tensor.Float64) && input.IsContiguous()
	var x []float64
	if training || !fast {
		x = input.Float64s()
	}
	w, b := optFloats(weight), optFloats(bias)
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
				m, v := meanVar(vals)
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
	// y = x*alpha + beta, alpha and beta folded per channel.
	fold := func(ch int) (alpha, beta float64) {
		alpha = invstd[ch]
		if w != nil {
			alpha *= w[ch]
		}
		beta = -mean[ch] * alpha
		if b != nil {
			beta += b[ch]
		}
		return alpha, beta
	}
	var out *tensor.Tensor
	switch {
	case fast && dt == tensor.Float32:
		out = bnApply[float32](input, batch*channels, channels, spatial, fold)
	case fast:
		out = bnApply[float64](input, batch*channels, channels, spatial, fold)
	default:
		y := make([]float64, len(x))
		forRows(batch*channels, spatial, func(r int) {
			alpha, beta := fold(r % channels)
			for j := r * spatial; j < (r+1)*spatial; j++ {
				y[j] = x[j]*alpha + beta
			}
		})
		out = tensor.Must(tensor.FromFloat64s(dt, y, shape...))
	}
	if !training {
		return []any{out, tensor.Empty(statDT, 0), tensor.Empty(statDT, 0)}, nil
	}
	return []any{
		out,
		tensor.Must(tensor.FromFloat64s(statDT, mean, channels)),
		tensor.Must(tensor.FromFloat64s(statDT, invstd, channels)),
	}, nil
}

// nativeBatchNorm is aten::native_batch_norm: (out, save_mean,
// save_invstd), the last two empty [0] tensors when not training.
func nativeBatchNorm(c *ops.Call) ([]any, error) {
	channels, statDT, err := batchNormCheck(c)
	if err != nil {
		return nil, err
	}
	return batchNormCompute(c, channels, statDT)
}

// batchNorm is aten::batch_norm: native_batch_norm's output, except that
// an empty input gives input*weight[0] + bias[0] (an empty tensor of the
// promoted dtype), as ATen's _batch_norm_impl_index does.
func batchNorm(c *ops.Call) ([]any, error) {
	input := c.Tensor("input")
	if input.Dim() >= 2 && input.Numel() == 0 {
		dt := input.DType()
		for _, name := range bnArgs[:2] {
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
	channels, statDT, err := batchNormCheck(c)
	if err != nil {
		return nil, err
	}
	out, err := batchNormCompute(c, channels, statDT)
	if err != nil {
		return nil, err
	}
	return out[:1], nil
}

// batchNormLegit is aten::_native_batch_norm_legit (newer than PyTorch
// 1.13): native_batch_norm with its running statistics always given.
func batchNormLegit(c *ops.Call) ([]any, error) {
	return delegateKernel("aten::native_batch_norm", nativeBatchNorm, []any{
		c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias"), c.Tensor("running_mean"), c.Tensor("running_var"),
		c.Bool("training"), c.Float("momentum"), c.Float("eps"),
	}, nil)
}

// batchNormLegitNoStats is aten::_native_batch_norm_legit.no_stats:
// native_batch_norm without running statistics, which only works in
// training mode.
func batchNormLegitNoStats(c *ops.Call) ([]any, error) {
	if !c.Bool("training") {
		return nil, c.Errorf("training", "running_mean must be defined in evaluation mode (no_stats needs training=True)")
	}
	return delegateKernel("aten::native_batch_norm", nativeBatchNorm, []any{
		c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias"), nil, nil,
		true, c.Float("momentum"), c.Float("eps"),
	}, nil)
}

// batchNormLegitNoTraining is aten::_native_batch_norm_legit_no_training:
// native_batch_norm with training=False (saved statistics empty [0]).
func batchNormLegitNoTraining(c *ops.Call) ([]any, error) {
	return delegateKernel("aten::native_batch_norm", nativeBatchNorm, []any{
		c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias"), c.Tensor("running_mean"), c.Tensor("running_var"),
		false, c.Float("momentum"), c.Float("eps"),
	}, nil)
}

// instanceNorm is aten::instance_norm as ATen composes it: batch_norm on
// input viewed as [1, N*C, ...] with the parameters and running statistics
// repeated N times; the running statistics, when given, are then updated
// in place to the mean over the batch of the updated copies.
func instanceNorm(c *ops.Call) ([]any, error) {
	input := c.Tensor("input")
	rm, rv := c.Tensor("running_mean"), c.Tensor("running_var")
	useStats := c.Bool("use_input_stats")
	if !useStats && (rm == nil || rv == nil) {
		return nil, c.Errorf("use_input_stats", "Expected running_mean and running_var to be defined when use_input_stats is false")
	}
	if input.Dim() < 2 {
		d := 0
		if input.Dim() == 1 {
			d = 1
		}
		return nil, c.Errorf("input", "%s", dimErr(d, input.Dim()))
	}
	shape := input.Shape()
	b, ch := shape[0], shape[1]
	flat := slices.Clone(shape)
	flat[0], flat[1] = 1, b*ch
	rep := map[string]*tensor.Tensor{}
	for _, name := range []string{"weight", "bias", "running_mean", "running_var"} {
		t := c.Tensor(name)
		if t == nil {
			continue
		}
		if t.Dim() > 1 {
			return nil, c.Errorf(name, "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
		}
		r, err := repeatTensor(t, b)
		if err != nil {
			return nil, c.Errorf(name, "%v", err)
		}
		rep[name] = r
	}
	x := input
	if !x.IsMeta() {
		x = x.Contiguous()
	}
	x, err := x.Reshape(flat...)
	if err != nil {
		return nil, c.Errorf("input", "%v", err)
	}
	bn := op("aten::batch_norm")
	out, err := bn.Call([]any{x, rep["weight"], rep["bias"], rep["running_mean"], rep["running_var"],
		useStats, c.Float("momentum"), c.Float("eps"), c.Bool("cudnn_enabled")}, nil)
	if err != nil {
		return nil, rebind(c, bn, err, map[string]string{"training": "use_input_stats"})
	}
	y := out[0].(*tensor.Tensor)
	for _, name := range []string{"running_mean", "running_var"} {
		if t := c.Tensor(name); t != nil && !meta(t, rep[name]) {
			if err := t.CopyFrom(batchMean(rep[name], b, ch)); err != nil {
				return nil, c.Errorf(name, "%v", err)
			}
		}
	}
	if y.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(y.DType(), shape...))), nil
	}
	return one(tensor.Must(y.Reshape(shape...))), nil
}

// batchMean is t.view(b, c).mean(0): the mean over b rows, summed in
// order in the dtype's accumulation type (float32 for float32 and the
// half types, float64 for float64).
func batchMean(t *tensor.Tensor, b, c int) *tensor.Tensor {
	v := t.Float64s()
	out := make([]float64, c)
	for j := range out {
		if t.DType() == tensor.Float64 {
			s := 0.0
			for i := 0; i < b; i++ {
				s += v[i*c+j]
			}
			out[j] = s / float64(b)
			continue
		}
		var s float32
		for i := 0; i < b; i++ {
			s += float32(v[i*c+j])
		}
		out[j] = float64(s / float32(b))
	}
	return tensor.Must(tensor.FromFloat64s(t.DType(), out, c))
}

// cloneStat returns a contiguous copy of a running statistic (a meta
// tensor for a meta one).
func cloneStat(t *tensor.Tensor) *tensor.Tensor {
	if t.IsMeta() {
		return t.Meta()
	}
	return t.Contiguous().Clone()
}

// batchNormLegitFunctional is aten::_native_batch_norm_legit_functional,
// the functional form torch.export's training IR uses: native_batch_norm
// on copies of the running statistics, returned updated after its three
// outputs.
func batchNormLegitFunctional(c *ops.Call) ([]any, error) {
	rm, rv := cloneStat(c.Tensor("running_mean")), cloneStat(c.Tensor("running_var"))
	out, err := delegateKernel("aten::native_batch_norm", nativeBatchNorm, []any{
		c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias"), rm, rv,
		c.Bool("training"), c.Float("momentum"), c.Float("eps"),
	}, nil)
	if err != nil {
		return nil, err
	}
	return append(out, rm, rv), nil
}

// reserveOf is the empty uint8 reserve tensor the _batch_norm_with_update
// family returns on the CPU.
func reserveOf(input *tensor.Tensor) *tensor.Tensor {
	return tensor.Must(empty(input.IsMeta(), tensor.Uint8, []int{0}))
}

// batchNormWithUpdate is aten::_batch_norm_with_update: training-mode
// native_batch_norm updating the running statistics in place, plus the
// empty reserve.
func batchNormWithUpdate(c *ops.Call) ([]any, error) {
	input := c.Tensor("input")
	out, err := delegateKernel("aten::native_batch_norm", nativeBatchNorm, []any{
		input, c.Tensor("weight"), c.Tensor("bias"), c.Tensor("running_mean"), c.Tensor("running_var"),
		true, c.Float("momentum"), c.Float("eps"),
	}, nil)
	if err != nil {
		return nil, err
	}
	return append(out, reserveOf(input)), nil
}

// batchNormWithUpdateFunctional is
// aten::_batch_norm_with_update_functional: _batch_norm_with_update on
// copies of the running statistics, returned updated.
func batchNormWithUpdateFunctional(c *ops.Call) ([]any, error) {
	input := c.Tensor("input")
	rm, rv := cloneStat(c.Tensor("running_mean")), cloneStat(c.Tensor("running_var"))
	out, err := delegateKernel("aten::native_batch_norm", nativeBatchNorm, []any{
		input, c.Tensor("weight"), c.Tensor("bias"), rm, rv, true, c.Float("momentum"), c.Float("eps"),
	}, nil)
	if err != nil {
		return nil, err
	}
	return append(out, reserveOf(input), rm, rv), nil
}

// batchNormNoUpdate is aten::_batch_norm_no_update: evaluation-mode
// native_batch_norm (the running statistics are read, not written), plus
// the empty reserve.
func batchNormNoUpdate(c *ops.Call) ([]any, error) {
	input := c.Tensor("input")
	out, err := delegateKernel("aten::native_batch_norm", nativeBatchNorm, []any{
		input, c.Tensor("weight"), c.Tensor("bias"), c.Tensor("running_mean"), c.Tensor("running_var"),
		false, c.Float("momentum"), c.Float("eps"),
	}, nil)
	if err != nil {
		return nil, err
	}
	return append(out, reserveOf(input)), nil
}

// bnApply returns x*alpha + beta over a contiguous float32 or float64
// input of rows rows of spatial elements, alpha and beta given per channel
// by fold, computed in float64 and rounded once as the float64 path does.
func bnApply[T float32 | float64](input *tensor.Tensor, rows, channels, spatial int, fold func(ch int) (alpha, beta float64)) *tensor.Tensor {
	in := tensor.Values[T](input)
	out := tensor.Empty(input.DType(), input.Shape()...)
	o := tensor.Data[T](out)
	forRows(rows, spatial, func(r int) {
		alpha, beta := fold(r % channels)
		src, dst := in[r*spatial:(r+1)*spatial], o[r*spatial:(r+1)*spatial]
		for j, v := range src {
			dst[j] = T(float64(v)*alpha + beta)
		}
	})
	return out
}
