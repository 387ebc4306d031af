package decomp

import (
	"math"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// Rules for more of issue 14's operators that PyTorch 2.6's
// core_aten_decompositions decomposes, written after torch/_refs and
// torch/_decomp/decompositions.py: logaddexp, logaddexp2, addr, addmv,
// diag_embed, the norm overloads and the losses binary_cross_entropy,
// mse_loss, l1_loss, huber_loss, smooth_l1_loss, hinge_embedding_loss and
// kl_div. PyTorch 2.6
// keeps linalg_vector_norm and exp2 as core operators; gofx's core set
// (1.13's) has neither, so linalg_vector_norm gets a rule here too (the
// reference's own formula), and the norm overloads decompose through it
// into abs, pow, sum, sqrt, amax and amin.

var (
	opLogaddexp    = nn.Op("aten::logaddexp")
	opLogaddexp2   = nn.Op("aten::logaddexp2")
	opAddr         = nn.Op("aten::addr")
	opDiagEmbed    = nn.Op("aten::diag_embed")
	opBCE          = nn.Op("aten::binary_cross_entropy")
	opVectorNorm   = nn.Op("aten::linalg_vector_norm")
	opNormScalar   = nn.Op("aten::norm.Scalar")
	opNormDim      = nn.Op("aten::norm.ScalarOpt_dim")
	opNormDimDType = nn.Op("aten::norm.ScalarOpt_dim_dtype")
	opNormDType    = nn.Op("aten::norm.ScalarOpt_dtype")
	opAddmv        = nn.Op("aten::addmv")
	opMSELoss      = nn.Op("aten::mse_loss")
	opL1Loss       = nn.Op("aten::l1_loss")
	opHuberLoss    = nn.Op("aten::huber_loss")
	opSmoothL1Loss = nn.Op("aten::smooth_l1_loss")
	opHingeLoss    = nn.Op("aten::hinge_embedding_loss")
	opKLDiv        = nn.Op("aten::kl_div")
)

// addDeriveRules adds the rules of this file to t; coreRules calls it.
func addDeriveRules(t Table) {
	t.add(opLogaddexp, func(a []nn.Value) nn.Value { return logaddexp(a[0], a[1], false) })
	t.add(opLogaddexp2, func(a []nn.Value) nn.Value { return logaddexp(a[0], a[1], true) })
	t.add(opAddr, addr)
	t.add(opDiagEmbed, diagEmbed)
	t.add(opBCE, binaryCrossEntropy)
	t.add(opVectorNorm, func(a []nn.Value) nn.Value { return vectorNorm(a[0], a[1], a[2], a[3], a[4]) })
	t.add(opNormScalar, func(a []nn.Value) nn.Value { return vectorNorm(a[0], a[1], nn.None, nn.Of(false), nn.None) })
	t.add(opNormDim, func(a []nn.Value) nn.Value { return vectorNorm(a[0], a[1], a[2], a[3], nn.None) })
	t.add(opNormDimDType, func(a []nn.Value) nn.Value { return vectorNorm(a[0], a[1], a[2], a[3], a[4]) })
	t.add(opNormDType, func(a []nn.Value) nn.Value { return vectorNorm(a[0], a[1], nn.None, nn.Of(false), a[2]) })
	t.add(opAddmv, addmv)
	t.add(opMSELoss, func(a []nn.Value) nn.Value {
		return reduceLoss(call(aten.PowTensorScalar, call(opSubT, a[0], a[1]), 2), a[2].Int())
	})
	t.add(opL1Loss, func(a []nn.Value) nn.Value {
		return reduceLoss(call(aten.Abs, call(opSubT, a[0], a[1])), a[2].Int())
	})
	t.add(opHuberLoss, huberLoss)
	t.add(opSmoothL1Loss, smoothL1Loss)
	t.add(opHingeLoss, hingeEmbeddingLoss)
	t.add(opKLDiv, klDiv)
}

// reduceLoss reduces a pointwise loss as ATen's Reduction enum says: 0
// none, 1 mean, 2 sum.
func reduceLoss(l nn.Value, reduction int64) nn.Value {
	switch reduction {
	case 0:
		return l
	case 1:
		return call(aten.Mean, l)
	case 2:
		return call(aten.SumDimIntList, l, nn.None)
	}
	fail("%d is not a valid value for reduction", reduction)
	return nn.None
}

// addmv is torch/_decomp's addmv: alpha·mv(mat, vec) + beta·self, self
// ignored when beta is 0.
func addmv(a []nn.Value) nn.Value {
	self, mat, vec, beta, alpha := a[0], a[1], a[2], a[3], a[4]
	if ndim(mat) != 2 || ndim(vec) != 1 {
		fail("vector + matrix @ vector expected, got %d, %d, %d", ndim(self), ndim(mat), ndim(vec))
	}
	out := matmul(mat, vec)
	if alpha.Float() != 1 {
		out = call(opMulT, out, alpha)
	}
	if beta.Float() == 0 {
		return out
	}
	if beta.Float() != 1 {
		self = call(opMulT, self, beta)
	}
	return call(opAddT, out, self)
}

// huberLoss is torch/_decomp's huber_loss: with z = |input - target|,
// 0.5·z·z where z < delta and delta·(z - 0.5·delta) elsewhere, reduced.
func huberLoss(a []nn.Value) nn.Value {
	delta := a[3].Float()
	z := call(aten.Abs, call(opSubT, a[0], a[1]))
	l := call(aten.WhereSelf, call(aten.LtScalar, z, delta),
		call(opMulT, call(opMulT, z, 0.5), z), call(opMulT, call(opSubT, z, 0.5*delta), delta))
	return reduceLoss(l, a[2].Int())
}

// smoothL1Loss is torch/_decomp's smooth_l1_loss: with z = |input -
// target|, 0.5·z²/beta where z < beta and z - 0.5·beta elsewhere (l1_loss
// for beta 0), reduced.
func smoothL1Loss(a []nn.Value) nn.Value {
	beta := a[3].Float()
	z := call(aten.Abs, call(opSubT, a[0], a[1]))
	if beta == 0 {
		return reduceLoss(z, a[2].Int())
	}
	l := call(aten.WhereSelf, call(aten.LtScalar, z, beta),
		call(opDivT, call(opMulT, call(aten.PowTensorScalar, z, 2), 0.5), beta), call(opSubT, z, 0.5*beta))
	return reduceLoss(l, a[2].Int())
}

// hingeEmbeddingLoss is torch/_decomp's hinge_embedding_loss:
// where(target != 1, max(margin - input, 0), 0) + where(target != -1,
// input, 0), reduced.
func hingeEmbeddingLoss(a []nn.Value) nn.Value {
	x, y, margin := a[0], a[1], a[2]
	zero := callVia(x, aten.ScalarTensor, []any{0}, map[string]any{"dtype": dtypeOf(x)})
	clamped := call(aten.Clamp, call(opAddT, call(aten.Neg, x), margin), 0)
	l := call(opAddT, call(aten.WhereSelf, call(aten.NeScalar, y, 1), clamped, zero),
		call(aten.WhereSelf, call(aten.NeScalar, y, -1), x, zero))
	return reduceLoss(l, a[3].Int())
}

// klDiv is torch/_decomp's kl_div: xlogy(target, target) - target·input,
// or exp(target)·(target - input) for a log target, reduced; xlogy(t, t)
// is where(isnan(t), nan, where(t == 0, 0, t·log(t))).
func klDiv(a []nn.Value) nn.Value {
	x, y, logTarget := a[0], a[1], a[3].Bool()
	var l nn.Value
	if logTarget {
		l = call(opMulT, call(aten.Exp, y), call(opSubT, y, x))
	} else {
		dt := dtypeOf(y)
		zero := callVia(y, aten.ScalarTensor, []any{0}, map[string]any{"dtype": dt})
		nan := callVia(y, aten.ScalarTensor, []any{math.NaN()}, map[string]any{"dtype": dt})
		xlogy := call(aten.WhereSelf, call(aten.EqScalar, y, 0), zero, call(opMulT, y, call(aten.Log, y)))
		xlogy = call(aten.WhereSelf, call(aten.Isnan, y), nan, xlogy)
		l = call(opSubT, xlogy, call(opMulT, y, x))
	}
	return reduceLoss(l, a[2].Int())
}

// logaddexp is torch/_refs' logaddexp (base2: logaddexp2):
// where(inf_mask, a, max + log1p(exp(min - max))), where max and min are
// taken elementwise and inf_mask marks equal infinite a and b (whose
// difference would be nan). exp2(d) is written exp(d·ln 2), and the
// log1p of logaddexp2 is divided by ln 2. float16 and bfloat16 compute in
// float32, as ATen's kernel does.
func logaddexp(a, b nn.Value, base2 bool) nn.Value {
	a, b = intToFloat(a), intToFloat(b)
	dt := dtypeOf(a)
	if db := dtypeOf(b); db != dt {
		dt = ops.PromoteTypes(dt, db)
		a, b = toDType(a, dt), toDType(b, dt)
	}
	a, b = toDType(a, computationDType(dt)), toDType(b, computationDType(dt))
	mask := call(aten.GeTensor, a, b)
	hi := call(aten.WhereSelf, mask, a, b)
	lo := call(aten.WhereSelf, mask, b, a)
	infinite := call(aten.NeScalar, call(aten.Abs, a), math.Inf(1))
	infinite = call(aten.LogicalNot, call(aten.LogicalAnd, call(aten.EqTensor, a, a), infinite))
	infMask := call(aten.LogicalAnd, infinite, call(aten.EqTensor, a, b))
	d := call(opSubT, lo, hi)
	var l nn.Value
	if base2 {
		l = call(opMulT, call(aten.Log1p, call(aten.Exp, call(opMulT, d, math.Ln2))), 1/math.Ln2)
	} else {
		l = call(aten.Log1p, call(aten.Exp, d))
	}
	return toDType(call(aten.WhereSelf, infMask, a, call(opAddT, hi, l)), dt)
}

// addr is torch/_refs' addr: beta·self + alpha·outer(vec1, vec2), self
// expanded to the outer product's shape; with beta 0 self is ignored (nan
// included), and bool tensors combine with logical or and and.
func addr(a []nn.Value) nn.Value {
	self, v1, v2, beta, alpha := a[0], a[1], a[2], a[3], a[4]
	if ndim(v1) != 1 || ndim(v2) != 1 {
		fail("addr: Expected 1-D argument vec1 and vec2, but got %d-D and %d-D", ndim(v1), ndim(v2))
	}
	n, m := shapeOf(v1)[0], shapeOf(v2)[0]
	self = call(aten.Expand, self, ints(n, m))
	outer := call(opMulT, call(opView, v1, ints(n, nn.Of(1))), v2)
	if dtypeOf(self) == tensor.Bool {
		if !beta.Bool() {
			self = fullLike(self, nn.Of(false), []nn.Value{nn.None, nn.None, nn.None, nn.None})
		}
		if !alpha.Bool() {
			outer = fullLike(outer, nn.Of(false), []nn.Value{nn.None, nn.None, nn.None, nn.None})
		}
		return call(aten.LogicalOr, self, outer)
	}
	if alpha.Float() != 1 {
		outer = call(opMulT, outer, alpha)
	}
	if beta.Float() == 0 {
		return outer
	}
	if beta.Float() != 1 {
		self = call(opMulT, self, beta)
	}
	return call(opAddT, self, outer)
}

// diagEmbed is torch/_refs' diag_embed: t padded with |offset| zeros in
// its last dim, given a size-1 dim1 and its last dim moved to dim2, kept
// where an arange mask marks the diagonal and zero elsewhere.
func diagEmbed(a []nn.Value) nn.Value {
	t, offset := a[0], a[1].Int()
	rank := ndim(t) + 1
	dim1, dim2 := wrapDim(a[2].Int(), rank), wrapDim(a[3].Int(), rank)
	if dim1 == dim2 {
		fail("diagonal dimensions cannot be identical %d, %d", a[2].Int(), a[3].Int())
	}
	if dim1 > dim2 {
		dim1, dim2, offset = dim2, dim1, -offset
	}
	shape := shapeOf(t)
	last := shape[len(shape)-1].Int()
	if offset != 0 {
		zs := append([]nn.Value(nil), shape...)
		zs[len(zs)-1] = nn.Of(absInt(offset))
		z := callVia(t, aten.Full, []any{ints(zs...), 0}, map[string]any{"dtype": dtypeOf(t)})
		pair := []nn.Value{z, t}
		if offset < 0 {
			pair = []nn.Value{t, z}
		}
		t = call(aten.Cat, pair, -1)
		last += absInt(offset)
	}
	t = call(opUnsqueeze, t, dim1)
	perm := make([]int, 0, rank)
	for d := 0; d < rank-1; d++ {
		perm = append(perm, d)
	}
	perm = append(perm[:dim2], append([]int{rank - 1}, perm[dim2:]...)...)
	t = call(opPermute, t, intList(perm...))
	ar := callVia(t, aten.ArangeStartStep, []any{0, last}, map[string]any{"dtype": tensor.Int64})
	br := callVia(t, aten.ArangeStartStep, []any{offset, last + offset}, map[string]any{"dtype": tensor.Int64})
	cond := call(aten.EqTensor, ar, call(opUnsqueeze, br, -1))
	cs := make([]nn.Value, rank)
	for d := range cs {
		cs[d] = nn.Of(1)
		if d == dim1 || d == dim2 {
			cs[d] = nn.Of(last)
		}
	}
	cond = call(opView, cond, ints(cs...))
	zero := callVia(t, aten.ScalarTensor, []any{0}, map[string]any{"dtype": dtypeOf(t)})
	return contiguous(call(aten.WhereSelf, cond, t, zero))
}

// absInt is |x|.
func absInt(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// binaryCrossEntropy is torch/_decomp's binary_cross_entropy:
// (target - 1)·max(log1p(-input), -100) - target·max(log(input), -100),
// times weight, reduced (0 none, 1 mean, 2 sum).
func binaryCrossEntropy(a []nn.Value) nn.Value {
	x, y, w, reduction := a[0], a[1], a[2], a[3].Int()
	dt := dtypeOf(x)
	floor := func() nn.Value {
		return callVia(x, aten.Full, []any{ints(), -100}, map[string]any{"dtype": dt})
	}
	l := call(opMulT, call(opSubT, y, 1), call(aten.Maximum, call(aten.Log1p, call(aten.Neg, x)), floor()))
	l = call(opSubT, l, call(opMulT, y, call(aten.Maximum, call(aten.Log, x), floor())))
	if !w.IsNone() {
		l = call(opMulT, l, w)
	}
	return reduceLoss(l, reduction)
}

// vectorNorm is torch/_refs' linalg.vector_norm (ord None is 2): the
// count of nonzeros for ord 0, the max or min of |x| for ±inf, and
// otherwise sum(|x|^ord)^(1/ord) computed in float32 for float16 and
// bfloat16 (sqrt for ord 2), x cast to dtype first when one is given.
func vectorNorm(x, ordV, dim, keepdim, dtypeV nn.Value) nn.Value {
	ord := 2.0
	if !ordV.IsNone() {
		ord = ordV.Float()
	}
	if !dtypeOf(x).IsFloat() {
		fail("linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s", dtypeOf(x))
	}
	if dt, ok := optDType(dtypeV); ok {
		x = toDType(x, dt)
	}
	result := dtypeOf(x)
	dims := dim
	if !dims.IsNone() && !dims.IsTuple() {
		dims = nn.Of([]int64{dims.Int()})
	}
	switch {
	case ord == 0:
		return callKw(aten.SumDimIntList, []any{call(aten.NeScalar, x, 0), dims, keepdim}, map[string]any{"dtype": result})
	case math.IsInf(ord, 1), math.IsInf(ord, -1):
		op := aten.Amax
		if ord < 0 {
			op = aten.Amin
		}
		if dims.IsNone() {
			dims = nn.Of([]int64{})
		}
		return call(op, call(aten.Abs, x), dims, keepdim)
	}
	x = toDType(x, computationDType(result))
	if !(math.Mod(ord, 2) == 0) {
		x = call(aten.Abs, x)
	}
	var r nn.Value
	if ord == 2 {
		r = call(aten.Sqrt, call(aten.SumDimIntList, call(opMulT, x, x), dims, keepdim))
	} else {
		r = call(aten.PowTensorScalar, call(aten.SumDimIntList, call(aten.PowTensorScalar, x, ord), dims, keepdim), 1/ord)
	}
	return toDType(r, result)
}
