package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Losses, ATen's Loss.cpp and LossNLL.cpp: mse_loss, l1_loss,
// smooth_l1_loss, huber_loss, binary_cross_entropy_with_logits, the
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
		if !equalInts(target.Shape(), want) {
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

// equalInts reports whether two shapes are equal.
func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
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
		if !equalInts(target.Shape(), self.Shape()) {
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
