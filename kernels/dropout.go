package kernels

import (
	"math"
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Dropout, ATen's Dropout.cpp (dropout, feature_dropout, alpha_dropout,
// feature_alpha_dropout and the CPU native_dropout) and rrelu
// (Activation.cpp's rrelu_with_noise): their random draws come from the
// generator of random.go, as bernoulli_ and uniform_ draw them in ATen, so
// with the same seed they drop the same elements as PyTorch.

// registerDropout registers the kernels of dropout.go.
func registerDropout() {
	registerBoth("aten::dropout", func(c *ops.Call) ([]any, error) { return dropoutImpl(c, false, false) })
	registerBoth("aten::feature_dropout", func(c *ops.Call) ([]any, error) { return dropoutImpl(c, true, false) })
	registerBoth("aten::alpha_dropout", func(c *ops.Call) ([]any, error) { return dropoutImpl(c, false, true) })
	registerBoth("aten::feature_alpha_dropout", func(c *ops.Call) ([]any, error) { return dropoutImpl(c, true, true) })
	registerBoth("aten::native_dropout", nativeDropout)
	registerBoth("aten::rrelu_with_noise", func(c *ops.Call) ([]any, error) { return rrelu(c, true, false) })
	registerBoth("aten::rrelu_with_noise_functional", func(c *ops.Call) ([]any, error) { return rrelu(c, true, true) })
	registerBoth("aten::rrelu", func(c *ops.Call) ([]any, error) { return rrelu(c, false, false) })
	registerBoth("aten::rrelu_with_noise_", inPlace(func(c *ops.Call) ([]any, error) { return rrelu(c, true, false) }))
}

// bernoulliMask draws n ones with probability keep (bernoulli_(keep):
// a uniform double below keep) as values of a tensor of dt and shape.
func bernoulliMask(c *ops.Call, dt tensor.DType, shape []int, keep float64) (*tensor.Tensor, error) {
	g, err := generatorArg(c)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	vals := make([]int64, product(shape))
	for i := range vals {
		if g.uniform(tensor.Float64, 0, 1) < keep {
			vals[i] = 1
		}
	}
	return intValues(dt, vals, shape), nil
}

// dropoutImpl is ATen's _dropout_impl: dropout (and feature_dropout, with
// one draw per [batch, channel] broadcast over the rest) scales the kept
// elements by 1/(1-p); the alpha forms keep the mean and variance of SELU
// activations: x*a*m + (m-1)*α*a + α*a*p with α = 1.7580993408473766 and
// a = 1/√((α²p+1)(1-p)). p must lie in [0, 1]; with train=False, p=0 or
// no elements the input itself is returned, with p=1 input*0.
func dropoutImpl(c *ops.Call, feature, alpha bool) ([]any, error) {
	x, p, train := c.Tensor("input"), c.Float("p"), c.Bool("train")
	if !(p >= 0 && p <= 1) {
		return nil, c.Errorf("p", "dropout probability has to be between 0 and 1, but got %v", p)
	}
	if p == 0 || !train || x.Numel() == 0 {
		return one(x), nil
	}
	if feature && x.Dim() < 2 {
		return nil, c.Errorf("input", "Feature dropout requires at least 2 dimensions in the input")
	}
	ch := &chain{c: c}
	if p == 1 {
		return ch.result(ch.call("aten::mul.Tensor", x, tensor.Must(empty(x.IsMeta(), x.DType(), nil))))
	}
	if meta(x) {
		return oneOrErr(empty(true, x.DType(), x.Shape()))
	}
	if !x.DType().IsFloat() {
		return nil, c.Errorf("input", "result type Float can't be cast to the desired output type %s", scalarTypeName(x.DType()))
	}
	shape := x.Shape()
	if feature {
		shape = []int{shape[0], shape[1]}
		for range x.Dim() - 2 {
			shape = append(shape, 1)
		}
	}
	noise, err := bernoulliMask(c, x.DType(), shape, 1-p)
	if err != nil {
		return nil, err
	}
	if !alpha {
		noise = ch.call("aten::div.Scalar", noise, 1-p)
		return ch.result(ch.call("aten::mul.Tensor", x, noise))
	}
	const a0 = 1.7580993408473766
	a := 1 / math.Sqrt((a0*a0*p+1)*(1-p))
	b := ch.call("aten::add.Scalar", ch.call("aten::mul.Scalar", ch.call("aten::add.Scalar", noise, -1.0), a0*a), a0*a*p)
	noise = ch.call("aten::mul.Scalar", noise, a)
	return ch.result(ch.call("aten::add.Tensor", ch.call("aten::mul.Tensor", x, noise), b))
}

// nativeDropout is aten::native_dropout: (output, mask). With
// train=False it returns a copy of the input and an all-true bool mask;
// train=True or None draws the bool mask by bernoulli_(1-p) and returns
// input*mask*(1/(1-p)) (scale 0 for p=1). An empty input returns itself
// and an empty mask of its dtype, as ATen does.
func nativeDropout(c *ops.Call) ([]any, error) {
	x, p := c.Tensor("input"), c.Float("p")
	train := c.IsNone("train") || c.Bool("train")
	dt := x.DType()
	if x.Numel() == 0 {
		return []any{x, tensor.Must(empty(x.IsMeta(), dt, x.Shape()))}, nil
	}
	if !train {
		if x.IsMeta() {
			return []any{x.Meta(), tensor.Must(tensor.NewMeta(tensor.Bool, x.Shape()...))}, nil
		}
		return []any{x.Clone(), filledInts(tensor.Bool, 1, x.Shape())}, nil
	}
	keep := 1 - p
	if !(keep >= 0 && keep <= 1) {
		return nil, c.Errorf("p", "bernoulli_ expects p to be in [0, 1], but got p=%v", keep)
	}
	if !dt.IsFloat() {
		return nil, c.Errorf("input", "result type Float can't be cast to the desired output type %s", scalarTypeName(dt))
	}
	if x.IsMeta() {
		return []any{x.Meta(), tensor.Must(tensor.NewMeta(tensor.Bool, x.Shape()...))}, nil
	}
	mask, err := bernoulliMask(c, tensor.Bool, x.Shape(), keep)
	if err != nil {
		return nil, err
	}
	scale := 0.0
	if keep != 0 {
		scale = 1 / keep
	}
	ch := &chain{c: c}
	out := ch.call("aten::mul.Scalar", ch.call("aten::mul.Tensor", x, mask), scale)
	if ch.err != nil {
		return nil, ch.err
	}
	return []any{out, mask}, nil
}

// rrelu is aten::rrelu_with_noise (withNoise; the noise argument receives
// the slopes), rrelu_with_noise_functional (functional: noise is returned
// as a second result) and rrelu. In training each element x <= 0 is
// multiplied by a slope drawn uniformly from [lower, upper) (a uniform
// double, as uniform_real_distribution<double>), the others keep slope 1;
// otherwise it is leaky_relu with slope (lower+upper)/2.
func rrelu(c *ops.Call, withNoise, functional bool) ([]any, error) {
	x := c.Tensor("self")
	lower, upper := c.Scalar("lower").Float(), c.Scalar("upper").Float()
	if !(lower <= upper) {
		return nil, c.Errorf("upper", "Lower bound should be less than or equal to the upper bound")
	}
	var noise *tensor.Tensor
	if withNoise {
		noise = c.Tensor("noise")
		if !slices.Equal(noise.Shape(), x.Shape()) {
			return nil, c.Errorf("noise", "expected noise of self's shape %s, got %s", shapeString(x.Shape()), shapeString(noise.Shape()))
		}
	}
	dt := x.DType()
	if !dt.IsFloat() {
		return nil, notImplemented(c, "self", "rrelu_with_noise_out_cpu", dt)
	}
	if !c.Bool("training") {
		out, err := callOp(c, "aten::leaky_relu", []any{x, (lower + upper) / 2}, nil)
		if err != nil || !functional {
			return out, err
		}
		return []any{out[0], noise}, nil
	}
	if x.IsMeta() {
		out := tensor.Must(tensor.NewMeta(dt, x.Shape()...))
		if functional {
			return []any{out, tensor.Must(tensor.NewMeta(noise.DType(), x.Shape()...))}, nil
		}
		return one(out), nil
	}
	vals := x.Float64s()
	slopes := make([]float64, len(vals))
	r := rounder(dt)
	_, err := draw(c, func(g *Generator) ([]any, error) {
		for i, v := range vals {
			if v <= 0 {
				s := r(g.uniform(tensor.Float64, lower, upper))
				slopes[i] = s
				vals[i] = r(v * s)
			} else {
				slopes[i] = 1
			}
		}
		return nil, nil
	})
	if err != nil {
		return nil, err
	}
	out := floatValues(dt, vals, x.Shape())
	if !withNoise {
		return one(out), nil
	}
	nt := tensor.Must(tensor.FromFloat64s(noise.DType(), slopes, x.Shape()...))
	if functional {
		return []any{out, nt}, nil
	}
	if err := noise.CopyFrom(nt); err != nil {
		return nil, c.Errorf("noise", "%v", err)
	}
	return one(out), nil
}
