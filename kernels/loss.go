package kernels

import (
	"math"
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Losses, ATen's Loss.cpp, LossNLL.cpp, LossMultiMargin.cpp and
// LossMultiLabelMargin.cpp: mse_loss, l1_loss, smooth_l1_loss, huber_loss,
// binary_cross_entropy(_with_logits), kl_div, poisson_nll_loss, the
// margin losses (margin_ranking, hinge_embedding, cosine_embedding,
// soft_margin, triplet_margin, multi_margin, multilabel_margin), the
// negative log likelihood family (nll_loss_forward, nll_loss2d_forward,
// nll_loss, nll_loss2d, nll_loss_nd) and cross_entropy_loss (class-index
// and class-probability targets, with label smoothing). reduction is
// ATen's enum: 0 none, 1 mean, 2 sum. The NLL sums accumulate in float64
// and round once.

// registerLoss registers the kernels of loss.go.
func registerLoss() {
	registerBoth("aten::mse_loss", func(c *ops.Call) ([]any, error) { return pointLoss(c, "aten::square") })
	registerBoth("aten::l1_loss", func(c *ops.Call) ([]any, error) { return pointLoss(c, "aten::abs") })
	registerBoth("aten::nll_loss_forward", func(c *ops.Call) ([]any, error) { return nllForward(c, 1) })
	registerBoth("aten::nll_loss2d_forward", func(c *ops.Call) ([]any, error) { return nllForward(c, 2) })
	registerBoth("aten::nll_loss", func(c *ops.Call) ([]any, error) { return nllFirst(c, 1) })
	registerBoth("aten::nll_loss2d", func(c *ops.Call) ([]any, error) { return nllFirst(c, 2) })
	registerBoth("aten::nll_loss_nd", func(c *ops.Call) ([]any, error) { return nllFirst(c, 0) })
	registerBoth("aten::cross_entropy_loss", crossEntropy)
	registerBoth("aten::smooth_l1_loss", smoothL1)
	registerBoth("aten::huber_loss", huber)
	registerBoth("aten::binary_cross_entropy_with_logits", bceWithLogits)
	registerBoth("aten::binary_cross_entropy", bce)
	registerBoth("aten::kl_div", klDiv)
	registerBoth("aten::poisson_nll_loss", poissonNLL)
	registerBoth("aten::margin_ranking_loss", marginRanking)
	registerBoth("aten::hinge_embedding_loss", hingeEmbedding)
	registerBoth("aten::cosine_embedding_loss", cosineEmbedding)
	registerBoth("aten::soft_margin_loss", softMargin)
	registerBoth("aten::triplet_margin_loss", tripletMargin)
	registerBoth("aten::multi_margin_loss", multiMargin)
	registerBoth("aten::multilabel_margin_loss_forward", multilabelMarginForward)
	registerBoth("aten::multilabel_margin_loss", func(c *ops.Call) ([]any, error) {
		out, err := delegate(c, "aten::multilabel_margin_loss_forward", []any{c.Tensor("self"), c.Tensor("target"), c.Int("reduction")}, nil)
		if err != nil {
			return nil, err
		}
		return out[:1], nil
	})
}

// reduce applies reduction (0 none, 1 mean, 2 sum) to the elementwise
// losses t.
func reduce(p *chain, t *tensor.Tensor, reduction int64) *tensor.Tensor {
	switch reduction {
	case 0:
		return t
	case 1:
		return p.call("aten::mean", t)
	case 2:
		return p.call("aten::sum", t)
	}
	if p.err == nil {
		p.err = p.c.Errorf("reduction", "%d is not a valid value for reduction", reduction)
	}
	return nil
}

// pointLoss is mse_loss and l1_loss: f(self - target), reduced.
func pointLoss(c *ops.Call, f string) ([]any, error) {
	p := &chain{c: c, arg: "target"}
	d := p.call("aten::sub.Tensor", c.Tensor("self"), c.Tensor("target"))
	if f == "aten::square" {
		d = p.call("aten::mul.Tensor", d, d)
	} else {
		d = p.call(f, d)
	}
	return p.result(reduce(p, d, c.Int("reduction")))
}

// nllForward is nll_loss_forward (rank 1: self [C] or [N, C], target [] or
// [N]) and nll_loss2d_forward (rank 2: self [N, C, H, W], target
// [N, H, W]): -weight[t]*self[n, t] per element (0 where the target is
// ignore_index), and the total weight of the targets counted. rank 0
// takes any [N, C, d...] input, as nll_loss_nd does.
func nllForward(c *ops.Call, rank int) ([]any, error) {
	self, target := c.Tensor("self"), c.Tensor("target")
	reduction, ignore := c.Int("reduction"), c.Int("ignore_index")
	var w *tensor.Tensor
	if !c.IsNone("weight") {
		w = c.Tensor("weight")
	}
	switch rank {
	case 1:
		if self.Dim() < 1 || self.Dim() > 2 {
			return nil, c.Errorf("self", "input tensor should be 1D or 2D")
		}
		if target.Dim() > 1 {
			return nil, c.Errorf("target", "0D or 1D target tensor expected, multi-target not supported")
		}
	case 2:
		if self.Dim() != 4 {
			return nil, c.Errorf("self", "only batches of spatial inputs supported (4D tensors), but got input of dimension: %d", self.Dim())
		}
		if target.Dim() != 3 {
			return nil, c.Errorf("target", "only batches of spatial targets supported (3D tensors) but got targets of dimension: %d", target.Dim())
		}
	default:
		if self.Dim() < 1 {
			return nil, c.Errorf("self", "Expected 1 or more dimensions (got %d)", self.Dim())
		}
	}
	if target.DType() != tensor.Int64 && target.DType() != tensor.Uint8 && target.DType() != tensor.Int32 {
		return nil, c.Errorf("target", "expected scalar type Long but found %s", scalarTypeName(target.DType()))
	}
	batched := self.Dim() >= 2
	n, ch := 1, self.Size(0)
	spatial := []int{}
	if batched {
		n, ch = self.Size(0), self.Size(1)
		spatial = self.Shape()[2:]
		if target.Dim() == 0 || target.Size(0) != n {
			tb := 0
			if target.Dim() > 0 {
				tb = target.Size(0)
			}
			return nil, c.Errorf("target", "Expected input batch_size (%d) to match target batch_size (%d).", n, tb)
		}
		want := append([]int{n}, spatial...)
		if !slices.Equal(target.Shape(), want) {
			return nil, c.Errorf("target", "Expected target size %s, got %s", shapeString(want), shapeString(target.Shape()))
		}
	} else if target.Dim() == 1 && target.Size(0) != 1 || target.Dim() > 1 {
		return nil, c.Errorf("target", "Expected input batch_size (1) to match target batch_size (%d).", target.Size(0))
	}
	if w != nil && w.Numel() != ch {
		return nil, c.Errorf("weight", "weight tensor should be defined either for all %d classes or no classes but got weight tensor of shape: %s", ch, shapeString(w.Shape()))
	}
	if reduction < 0 || reduction > 2 {
		return nil, c.Errorf("reduction", "%d is not a valid value for reduction", reduction)
	}
	dt := self.DType()
	outShape := []int{}
	if reduction == 0 && batched {
		outShape = target.Shape()
	}
	if meta(self, target, w) {
		return []any{tensor.Must(tensor.NewMeta(dt, outShape...)), tensor.Must(tensor.NewMeta(dt))}, nil
	}
	x := self.Contiguous().Float64s()
	t := target.Contiguous().Int64s()
	var wv []float64
	if w != nil {
		wv = w.Contiguous().Float64s()
	}
	sp := 1
	for _, s := range spatial {
		sp *= s
	}
	out := make([]float64, len(t))
	var total, sum float64
	for i, k := range t {
		if k == ignore {
			continue
		}
		if k < 0 || k >= int64(ch) {
			return nil, c.Errorf("target", "Target %d is out of bounds.", k)
		}
		b, s := i/sp, i%sp
		wt := 1.0
		if wv != nil {
			wt = wv[k]
		}
		v := -roundTo(dt, wt*x[(b*ch+int(k))*sp+s])
		out[i] = v
		total += wt
		sum += v
	}
	switch reduction {
	case 0:
		return []any{tensor.Must(tensor.FromFloat64s(dt, out, outShape...)), tensor.Must(tensor.FromFloat64s(dt, []float64{0}))}, nil
	case 1:
		r := roundTo(dt, sum) / roundTo(dt, total)
		if total == 0 && sum == 0 {
			r = math.NaN()
		}
		return []any{tensor.Must(tensor.FromFloat64s(dt, []float64{r})), tensor.Must(tensor.FromFloat64s(dt, []float64{total}))}, nil
	}
	return []any{tensor.Must(tensor.FromFloat64s(dt, []float64{sum})), tensor.Must(tensor.FromFloat64s(dt, []float64{total}))}, nil
}

// nllFirst is nll_loss, nll_loss2d and nll_loss_nd: the loss of
// nllForward without the total weight.
func nllFirst(c *ops.Call, rank int) ([]any, error) {
	out, err := nllForward(c, rank)
	if err != nil {
		return nil, err
	}
	return out[:1], nil
}

// crossEntropy is aten::cross_entropy_loss: log_softmax over the class
// dimension (1, or 0 for unbatched input), then nll_loss_nd for class
// index targets or -Σ target·log_softmax for class probabilities, with
// ATen's label smoothing.
func crossEntropy(c *ops.Call) ([]any, error) {
	self, target := c.Tensor("self"), c.Tensor("target")
	var w *tensor.Tensor
	if !c.IsNone("weight") {
		w = c.Tensor("weight")
	}
	reduction, ignore, ls := c.Int("reduction"), c.Int("ignore_index"), c.Float("label_smoothing")
	if ls < 0 || ls > 1 {
		return nil, c.Errorf("label_smoothing", "label_smoothing must be between 0.0 and 1.0. Got: %v", ls)
	}
	if self.Dim() == 0 {
		return nil, c.Errorf("self", "cross_entropy: input must have at least 1 dimension")
	}
	classDim := int64(1)
	if self.Dim() == 1 {
		classDim = 0
	}
	nClasses := float64(self.Size(int(classDim)))
	p := &chain{c: c, arg: "self"}
	input := p.call("aten::_log_softmax", self, classDim, false)
	var wb *tensor.Tensor
	if w != nil && p.err == nil {
		shape := make([]int, self.Dim())
		for i := range shape {
			shape[i] = 1
		}
		shape[classDim] = w.Numel()
		wb = tensor.Must(w.Reshape(shape...))
	}
	if target.DType().IsFloat() {
		if !slices.Equal(target.Shape(), self.Shape()) {
			return nil, c.Errorf("target", "Expected input batch_size (%d) to match target batch_size (%d).", self.Size(0), target.Size(0))
		}
		t := target
		if ls > 0 {
			t = p.call("aten::add.Scalar", p.call("aten::mul.Scalar", target, ops.FloatScalar(1-ls)), ops.FloatScalar(ls/nClasses))
		}
		prod := p.call("aten::mul.Tensor", input, t)
		if wb != nil {
			prod = p.call("aten::mul.Tensor", prod, wb)
		}
		switch reduction {
		case 0:
			return p.result(p.call("aten::neg", p.call("aten::sum.dim_IntList", prod, []int64{classDim})))
		case 2:
			return p.result(p.call("aten::neg", p.call("aten::sum", prod)))
		}
		s := p.call("aten::neg", p.call("aten::sum", prod))
		if p.err == nil && input.Numel() == 0 {
			return p.result(p.call("aten::fill.Scalar", s, ops.FloatScalar(math.NaN())))
		}
		return p.result(p.call("aten::div.Scalar", s, ops.IntScalar(int64(input.Numel())/int64(nClasses))))
	}
	var wa any
	if w != nil {
		wa = w
	}
	nll := p.call("aten::nll_loss_nd", input, target, wa, reduction, ignore)
	if ls == 0 {
		return p.result(nll)
	}
	ignored := p.call("aten::eq.Scalar", target, ops.IntScalar(ignore))
	var smooth *tensor.Tensor
	if wb != nil {
		smooth = p.call("aten::neg", p.call("aten::sum.dim_IntList", p.call("aten::mul.Tensor", input, wb), []int64{classDim}))
	} else {
		smooth = p.call("aten::neg", p.call("aten::sum.dim_IntList", input, []int64{classDim}))
	}
	smooth = p.call("aten::masked_fill.Scalar", smooth, ignored, ops.FloatScalar(0))
	var ret *tensor.Tensor
	switch reduction {
	case 0:
		ret = smooth
	case 2:
		ret = p.call("aten::sum", smooth)
	default:
		keep := p.call("aten::logical_not", ignored)
		if w != nil && meta(self, target, w) {
			ret = tensor.Must(tensor.NewMeta(self.DType()))
		} else if w != nil {
			ts := p.calls("aten::index.Tensor", target, []*tensor.Tensor{keep})
			if p.err != nil {
				return nil, p.err
			}
			den := p.call("aten::sum", p.call("aten::index_select", w, int64(0), p.call("aten::reshape", ts[0].(*tensor.Tensor), []int64{-1})))
			ret = p.call("aten::div.Tensor", p.call("aten::sum", smooth), den)
		} else {
			ret = p.call("aten::div.Tensor", p.call("aten::sum", smooth), p.call("aten::sum", keep))
		}
	}
	a := p.call("aten::mul.Scalar", nll, ops.FloatScalar(1-ls))
	return p.result(p.call("aten::add.Tensor", a, p.call("aten::mul.Scalar", ret, ops.FloatScalar(ls/nClasses))))
}

// smoothL1 is aten::smooth_l1_loss: with z = |self - target|,
// 0.5·z²/beta where z < beta and z - 0.5·beta elsewhere (l1_loss for
// beta 0), reduced.
func smoothL1(c *ops.Call) ([]any, error) {
	beta := c.Float("beta")
	if beta < 0 {
		return nil, c.Errorf("beta", "smooth_l1_loss does not support negative values for beta.")
	}
	if beta == 0 {
		return delegate(c, "aten::l1_loss", []any{c.Tensor("self"), c.Tensor("target"), c.Int("reduction")}, nil)
	}
	p := &chain{c: c, arg: "target"}
	z := p.call("aten::abs", p.call("aten::sub.Tensor", c.Tensor("self"), c.Tensor("target")))
	b := ops.FloatScalar(beta)
	quad := p.call("aten::div.Scalar", p.call("aten::mul.Tensor", p.call("aten::mul.Scalar", z, ops.FloatScalar(0.5)), z), b)
	lin := p.call("aten::sub.Scalar", z, ops.FloatScalar(0.5*beta))
	l := p.call("aten::where.self", p.call("aten::lt.Scalar", z, b), quad, lin)
	return p.result(reduce(p, l, c.Int("reduction")))
}

// huber is aten::huber_loss: with z = |self - target|, 0.5·z² where
// z < delta and delta·(z - 0.5·delta) elsewhere, reduced.
func huber(c *ops.Call) ([]any, error) {
	delta := c.Float("delta")
	if delta <= 0 {
		return nil, c.Errorf("delta", "huber_loss does not support non-positive values for delta.")
	}
	p := &chain{c: c, arg: "target"}
	z := p.call("aten::abs", p.call("aten::sub.Tensor", c.Tensor("self"), c.Tensor("target")))
	d := ops.FloatScalar(delta)
	quad := p.call("aten::mul.Tensor", p.call("aten::mul.Scalar", z, ops.FloatScalar(0.5)), z)
	lin := p.call("aten::mul.Scalar", p.call("aten::sub.Scalar", z, ops.FloatScalar(0.5*delta)), d)
	l := p.call("aten::where.self", p.call("aten::lt.Scalar", z, d), quad, lin)
	return p.result(reduce(p, l, c.Int("reduction")))
}

// bceWithLogits is aten::binary_cross_entropy_with_logits in PyTorch
// 1.13's stable form: with m = max(-x, 0),
// (1-t)·x + lw·(log(e^-m + e^(-x-m)) + m), lw = (pos_weight-1)·t + 1 (1
// without pos_weight), times weight, reduced.
func bceWithLogits(c *ops.Call) ([]any, error) {
	x, t := c.Tensor("self"), c.Tensor("target")
	p := &chain{c: c, arg: "target"}
	m := p.call("aten::clamp_min", p.call("aten::neg", x), ops.IntScalar(0))
	negM := p.call("aten::neg", m)
	lse := p.call("aten::add.Tensor", p.call("aten::log", p.call("aten::add.Tensor", p.call("aten::exp", negM),
		p.call("aten::exp", p.call("aten::sub.Tensor", p.call("aten::neg", x), m)))), m)
	first := p.call("aten::mul.Tensor", p.call("aten::rsub.Scalar", t, ops.IntScalar(1)), x)
	var l *tensor.Tensor
	if !c.IsNone("pos_weight") {
		lw := p.call("aten::add.Scalar", p.call("aten::mul.Tensor", p.call("aten::sub.Scalar", c.Tensor("pos_weight"), ops.IntScalar(1)), t), ops.IntScalar(1))
		l = p.call("aten::add.Tensor", first, p.call("aten::mul.Tensor", lw, lse))
	} else {
		l = p.call("aten::add.Tensor", p.call("aten::add.Tensor", first, m), p.call("aten::log", p.call("aten::add.Tensor", p.call("aten::exp", negM),
			p.call("aten::exp", p.call("aten::sub.Tensor", p.call("aten::neg", x), m)))))
	}
	if !c.IsNone("weight") {
		l = p.call("aten::mul.Tensor", l, c.Tensor("weight"))
	}
	return p.result(reduce(p, l, c.Int("reduction")))
}

// checkReduction reports a reduction that is not 0, 1 or 2.
func checkReduction(c *ops.Call) (int64, error) {
	r := c.Int("reduction")
	if r < 0 || r > 2 {
		return 0, c.Errorf("reduction", "%d is not a valid value for reduction", r)
	}
	return r, nil
}

// bce is aten::binary_cross_entropy's CPU kernel: (t - 1)·max(log1p(-x),
// -100) - t·max(log(x), -100) in the input dtype, inputs outside [0, 1]
// an error, times weight, reduced.
func bce(c *ops.Call) ([]any, error) {
	x, t := c.Tensor("self"), c.Tensor("target")
	reduction, err := checkReduction(c)
	if err != nil {
		return nil, err
	}
	dt := x.DType()
	if !dt.IsFloat() || dt == tensor.Float16 && !x.IsMeta() {
		return nil, notImplemented(c, "self", "binary_cross_entropy", dt)
	}
	if x.Numel() != t.Numel() {
		return nil, c.Errorf("target", "Using a target size (%s) that is different to the input size (%s) is deprecated. Please ensure they have the same size.", shapeString(t.Shape()), shapeString(x.Shape()))
	}
	if t.DType() != dt {
		return nil, c.Errorf("target", "expected scalar type %s but found %s", scalarTypeName(dt), scalarTypeName(t.DType()))
	}
	p := &chain{c: c, arg: "target"}
	var l *tensor.Tensor
	if meta(x, t) {
		l = tensor.Must(tensor.NewMeta(dt, x.Shape()...))
	} else {
		r := rounder(computeType(dt))
		rd := rounder(dt)
		xv, tv := x.Contiguous().Float64s(), tensor.Must(t.Reshape(x.Shape()...)).Contiguous().Float64s()
		out := make([]float64, len(xv))
		for i, xi := range xv {
			ti := tv[i]
			if !(xi >= 0 && xi <= 1) {
				return nil, c.Errorf("self", "all elements of input should be between 0 and 1")
			}
			if !(ti >= 0 && ti <= 1) {
				return nil, c.Errorf("target", "all elements of target should be between 0 and 1")
			}
			a := math.Max(rd(r(math.Log1p(-xi))), -100)
			b := math.Max(rd(r(logFloat(xi))), -100)
			out[i] = rd(rd(rd(ti-1)*a) - rd(ti*b))
		}
		l = tensor.Must(tensor.FromFloat64s(dt, out, x.Shape()...))
	}
	if !c.IsNone("weight") {
		l = p.call("aten::mul.Tensor", l, c.Tensor("weight"))
	}
	return p.result(reduce(p, l, reduction))
}

// klDiv is aten::kl_div: exp(target)·(target - self) for a log target,
// else xlogy(target, target) - target·self, reduced.
func klDiv(c *ops.Call) ([]any, error) {
	x, t := c.Tensor("self"), c.Tensor("target")
	if !x.DType().IsFloat() || !t.DType().IsFloat() {
		return nil, c.Errorf("self", "kl_div: Integral inputs not supported.")
	}
	p := &chain{c: c, arg: "target"}
	var l *tensor.Tensor
	if c.Bool("log_target") {
		l = p.call("aten::mul.Tensor", p.call("aten::exp", t), p.call("aten::sub.Tensor", t, x))
	} else {
		l = p.call("aten::sub.Tensor", p.call("aten::xlogy.Tensor", t, t), p.call("aten::mul.Tensor", t, x))
	}
	return p.result(reduce(p, l, c.Int("reduction")))
}

// poissonNLL is aten::poisson_nll_loss: exp(input) - target·input for a
// log input, else input - target·log(input + eps), plus (full) Stirling's
// term where target > 1, reduced.
func poissonNLL(c *ops.Call) ([]any, error) {
	x, t := c.Tensor("input"), c.Tensor("target")
	p := &chain{c: c, arg: "target"}
	var l *tensor.Tensor
	if c.Bool("log_input") {
		l = p.call("aten::sub.Tensor", p.call("aten::exp", x), p.call("aten::mul.Tensor", t, x))
	} else {
		l = p.call("aten::sub.Tensor", x, p.call("aten::mul.Tensor", t, p.call("aten::log", p.call("aten::add.Scalar", x, ops.FloatScalar(c.Float("eps"))))))
	}
	if c.Bool("full") {
		st := p.call("aten::sub.Tensor", p.call("aten::mul.Tensor", t, p.call("aten::log", t)), t)
		half := p.call("aten::mul.Scalar", p.call("aten::log", p.call("aten::mul.Scalar", t, ops.FloatScalar(2*math.Pi))), ops.FloatScalar(0.5))
		st = p.call("aten::add.Tensor", st, half)
		st = p.call("aten::masked_fill.Scalar", st, p.call("aten::le.Scalar", t, ops.IntScalar(1)), ops.IntScalar(0))
		l = p.call("aten::add.Tensor", l, st)
	}
	return p.result(reduce(p, l, c.Int("reduction")))
}

// marginRanking is aten::margin_ranking_loss: max(0, -target·(input1 -
// input2) + margin), reduced.
func marginRanking(c *ops.Call) ([]any, error) {
	p := &chain{c: c, arg: "target"}
	d := p.call("aten::sub.Tensor", c.Tensor("input1"), c.Tensor("input2"))
	l := p.call("aten::add.Scalar", p.call("aten::mul.Tensor", p.call("aten::neg", c.Tensor("target")), d), ops.FloatScalar(c.Float("margin")))
	return p.result(reduce(p, p.call("aten::clamp_min", l, ops.IntScalar(0)), c.Int("reduction")))
}

// hingeEmbedding is aten::hinge_embedding_loss: max(0, margin - self)
// where target is not 1, plus self where target is not -1, reduced.
func hingeEmbedding(c *ops.Call) ([]any, error) {
	x, t := c.Tensor("self"), c.Tensor("target")
	p := &chain{c: c, arg: "target"}
	zeros := p.call("aten::zeros_like", x)
	mc := p.call("aten::clamp_min", p.call("aten::rsub.Scalar", x, ops.FloatScalar(c.Float("margin"))), ops.IntScalar(0))
	om := p.call("aten::where.self", p.call("aten::ne.Scalar", t, ops.IntScalar(1)), mc, zeros)
	os := p.call("aten::where.self", p.call("aten::ne.Scalar", t, ops.IntScalar(-1)), x, zeros)
	return p.result(reduce(p, p.call("aten::add.Tensor", om, os), c.Int("reduction")))
}

// cosineEmbedding is aten::cosine_embedding_loss: with cos the cosine of
// input1 and input2 (their squared norms plus 1e-12), 1 - cos where
// target is 1 and max(0, cos - margin) where it is -1, reduced.
func cosineEmbedding(c *ops.Call) ([]any, error) {
	x1, x2, t := c.Tensor("input1"), c.Tensor("input2"), c.Tensor("target")
	td := t.Dim()
	switch {
	case td > 1:
		return nil, c.Errorf("target", "0D or 1D target tensor expected, multi-target not supported")
	case td == 1 && (x1.Dim() != 2 || x2.Dim() != 2):
		return nil, c.Errorf("input1", "1D target tensor expects 2D input tensors, but found inputs with sizes %s and %s.", shapeString(x1.Shape()), shapeString(x2.Shape()))
	case td == 0 && (x1.Dim() != 1 || x2.Dim() != 1):
		return nil, c.Errorf("input1", "0D target tensor expects 1D input tensors, but found inputs with sizes %s and %s.", shapeString(x1.Shape()), shapeString(x2.Shape()))
	}
	p := &chain{c: c, arg: "input2"}
	dim := []int64{int64(td)}
	eps := ops.FloatScalar(1e-12)
	prod := p.call("aten::sum.dim_IntList", p.call("aten::mul.Tensor", x1, x2), dim)
	m1 := p.call("aten::add.Scalar", p.call("aten::sum.dim_IntList", p.call("aten::mul.Tensor", x1, x1), dim), eps)
	m2 := p.call("aten::add.Scalar", p.call("aten::sum.dim_IntList", p.call("aten::mul.Tensor", x2, x2), dim), eps)
	cos := p.call("aten::div.Tensor", prod, p.call("aten::sqrt", p.call("aten::mul.Tensor", m1, m2)))
	zeros := p.call("aten::zeros_like", cos)
	pos := p.call("aten::rsub.Scalar", cos, ops.IntScalar(1))
	neg := p.call("aten::clamp_min", p.call("aten::sub.Scalar", cos, ops.FloatScalar(c.Float("margin"))), ops.IntScalar(0))
	op := p.call("aten::where.self", p.call("aten::eq.Scalar", t, ops.IntScalar(1)), pos, zeros)
	on := p.call("aten::where.self", p.call("aten::eq.Scalar", t, ops.IntScalar(-1)), neg, zeros)
	return p.result(reduce(p, p.call("aten::add.Tensor", op, on), c.Int("reduction")))
}

// softMargin is aten::soft_margin_loss: log1p(exp(-self·target)),
// reduced.
func softMargin(c *ops.Call) ([]any, error) {
	p := &chain{c: c, arg: "target"}
	l := p.call("aten::log1p", p.call("aten::exp", p.call("aten::mul.Tensor", p.call("aten::neg", c.Tensor("self")), c.Tensor("target"))))
	return p.result(reduce(p, l, c.Int("reduction")))
}

// tripletMargin is aten::triplet_margin_loss: max(0, margin + d(a, p) -
// d(a, n)) with pairwise distances d (d(a, n) replaced by d(p, n) where
// smaller, with swap), reduced.
func tripletMargin(c *ops.Call) ([]any, error) {
	a, pos, neg := c.Tensor("anchor"), c.Tensor("positive"), c.Tensor("negative")
	if a.Dim() != pos.Dim() || pos.Dim() != neg.Dim() {
		return nil, c.Errorf("anchor", "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: anchor %dD, positive %dD, and negative %dD inputs", a.Dim(), pos.Dim(), neg.Dim())
	}
	p := &chain{c: c, arg: "anchor"}
	pp, eps := c.Float("p"), c.Float("eps")
	dp := p.call("aten::pairwise_distance", a, pos, pp, eps)
	dn := p.call("aten::pairwise_distance", a, neg, pp, eps)
	if c.Bool("swap") {
		dn = p.call("aten::minimum", dn, p.call("aten::pairwise_distance", pos, neg, pp, eps))
	}
	l := p.call("aten::sub.Tensor", p.call("aten::add.Scalar", dp, ops.FloatScalar(c.Float("margin"))), dn)
	return p.result(reduce(p, p.call("aten::clamp_min", l, ops.IntScalar(0)), c.Int("reduction")))
}

// marginFrames checks the input of the multi-margin losses: a non-empty
// vector or a matrix (with possibly no rows), returning its frames and
// their length.
func marginFrames(c *ops.Call, x *tensor.Tensor) (nframe, dim int, err error) {
	nd := x.Dim()
	if !(nd == 2 && x.Size(1) != 0 || nd == 1 && x.Size(0) != 0 || nd == 0) {
		return 0, 0, c.Errorf("self", "Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s", shapeString(x.Shape()))
	}
	if nd <= 1 {
		return 1, max(x.Numel(), 1), nil
	}
	return x.Size(0), x.Size(1), nil
}

// multiMargin is aten::multi_margin_loss's CPU kernel: per frame, the sum
// over classes d other than the target y of max(0, margin - x[y] +
// x[d])^p (times weight[y]), divided by the number of classes; reduced
// in float64.
func multiMargin(c *ops.Call) ([]any, error) {
	x, t := c.Tensor("self"), c.Tensor("target")
	reduction, err := checkReduction(c)
	if err != nil {
		return nil, err
	}
	ps := c.Scalar("p")
	if ps.IsFloat() || ps.Int() != 1 && ps.Int() != 2 {
		return nil, c.Errorf("p", "only p == 1 and p == 2 supported")
	}
	pw := ps.Int()
	nframe, dim, err := marginFrames(c, x)
	if err != nil {
		return nil, err
	}
	if t.Dim() > 1 || t.Numel() != nframe {
		return nil, c.Errorf("target", "inconsistent target size, expected %d but got %s", nframe, shapeString(t.Shape()))
	}
	var w *tensor.Tensor
	if !c.IsNone("weight") {
		w = c.Tensor("weight")
		if w.Dim() > 1 || w.Numel() != dim {
			return nil, c.Errorf("weight", "inconsistent weight size, expected %d but got %s", dim, shapeString(w.Shape()))
		}
	}
	dt := x.DType()
	if !dt.IsFloat() {
		return nil, notImplemented(c, "self", "multi_margin_loss_cpu_kernel", dt)
	}
	shape := []int{}
	if reduction == 0 && t.Dim() > 0 {
		shape = []int{nframe}
	}
	if meta(x, t, w) {
		return oneOrErr(tensor.NewMeta(dt, shape...))
	}
	r := rounder(dt)
	xv, tv := x.Contiguous().Float64s(), t.Contiguous().Int64s()
	var wv []float64
	if w != nil {
		wv = to(w, dt).Contiguous().Float64s()
	}
	margin := roundTo(dt, c.Scalar("margin").Float())
	out := make([]float64, nframe)
	var total float64
	for f := range nframe {
		y := tv[f]
		if y < 0 || y >= int64(dim) {
			return nil, c.Errorf("target", "target out of range")
		}
		row := xv[f*dim : (f+1)*dim]
		xt := row[y]
		var sum float64
		for d, v := range row {
			if d == int(y) {
				continue
			}
			z := r(r(margin-xt) + v)
			if z > 0 {
				h := z
				if pw == 2 {
					h = r(z * z)
				}
				if wv != nil {
					h = r(h * wv[y])
				}
				sum = r(sum + h)
			}
		}
		sum = r(sum / float64(dim))
		out[f] = sum
		total += sum
	}
	switch reduction {
	case 0:
		return oneOrErr(tensor.FromFloat64s(dt, out, shape...))
	case 1:
		total /= float64(nframe)
	}
	return oneOrErr(tensor.FromFloat64s(dt, []float64{total}))
}

// multilabelMarginForward is aten::multilabel_margin_loss_forward's CPU
// kernel: per frame, with the targets the leading non-negative entries of
// its target row, the sum over targets j and non-target classes d of
// max(0, 1 - x[j] + x[d]), divided by the number of classes; and is_target,
// 1 at the target classes. Sums are in float64.
func multilabelMarginForward(c *ops.Call) ([]any, error) {
	x, t := c.Tensor("self"), c.Tensor("target")
	reduction, err := checkReduction(c)
	if err != nil {
		return nil, err
	}
	nframe, dim, err := marginFrames(c, x)
	if err != nil {
		return nil, err
	}
	if x.Dim() <= 1 {
		if t.Dim() > 1 || t.Numel() != dim {
			return nil, c.Errorf("target", "inconsistent target size: %s for input of size: %s", shapeString(t.Shape()), shapeString(x.Shape()))
		}
	} else if t.Dim() != 2 || t.Size(0) != nframe || t.Size(1) != dim {
		return nil, c.Errorf("target", "inconsistent target size: %s for input of size: %s", shapeString(t.Shape()), shapeString(x.Shape()))
	}
	dt := x.DType()
	if !dt.IsFloat() {
		return nil, notImplemented(c, "self", "multilabel_margin_loss_forward_out_frame", dt)
	}
	shape := []int{}
	if reduction == 0 && t.Dim() > 1 {
		shape = []int{nframe}
	}
	if meta(x, t) {
		return []any{tensor.Must(tensor.NewMeta(dt, shape...)), tensor.Must(tensor.NewMeta(dt, t.Shape()...))}, nil
	}
	r := rounder(dt)
	xv, tv := x.Contiguous().Float64s(), t.Contiguous().Int64s()
	isTarget := make([]float64, len(tv))
	out := make([]float64, nframe)
	var total float64
	for f := range nframe {
		row, trow, isT := xv[f*dim:(f+1)*dim], tv[f*dim:(f+1)*dim], isTarget[f*dim:(f+1)*dim]
		for _, y := range trow {
			if y < 0 {
				break
			}
			if y >= int64(dim) {
				return nil, c.Errorf("target", "target index %d is out of bounds for dimension 0 with size %d", y, dim)
			}
			isT[y] = 1
		}
		var sum float64
		for _, y := range trow {
			if y < 0 {
				break
			}
			xt := row[y]
			for d, v := range row {
				if isT[d] == 0 {
					if z := r(r(1-xt) + v); z > 0 {
						sum += z
					}
				}
			}
		}
		sum /= float64(dim)
		out[f] = sum
		total += sum
	}
	var res *tensor.Tensor
	switch reduction {
	case 0:
		res = tensor.Must(tensor.FromFloat64s(dt, out, shape...))
	case 1:
		res = tensor.Must(tensor.FromFloat64s(dt, []float64{total / float64(nframe)}))
	default:
		res = tensor.Must(tensor.FromFloat64s(dt, []float64{total}))
	}
	return []any{res, tensor.Must(tensor.FromFloat64s(dt, isTarget, t.Shape()...))}, nil
}
