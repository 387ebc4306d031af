package decomp

import (
	"math"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// Core rules for the last of issue 14's operators that PyTorch 2.6's
// core_aten_decompositions decomposes: logsumexp (and special_logsumexp),
// isin, kron, tensordot, trapezoid, block_diag and the losses
// margin_ranking_loss, poisson_nll_loss, cosine_embedding_loss,
// triplet_margin_loss and multi_margin_loss (einsum's rule is in
// rules_einsum.go). Each follows the
// decomposition PyTorch applies: torch/_refs and torch/_decomp's Python
// (logsumexp, isin, block_diag, multi_margin_loss) or, for the
// CompositeImplicitAutograd operators, ATen's C++ composite that 2.6's
// export traces (kron, tensordot, trapezoid and the other losses).
//
// isin always takes isin_default's path (a broadcast comparison reduced
// with any); PyTorch switches to sort and searchsorted when the test set
// is large (10·numel^0.145 elements or more), which gives the same values.

var (
	opLogsumexp        = nn.Op("aten::logsumexp")
	opSpecialLogsumexp = nn.Op("aten::special_logsumexp")
	opIsinTT           = nn.Op("aten::isin.Tensor_Tensor")
	opIsinTS           = nn.Op("aten::isin.Tensor_Scalar")
	opIsinST           = nn.Op("aten::isin.Scalar_Tensor")
	opKron             = nn.Op("aten::kron")
	opTensordot        = nn.Op("aten::tensordot")
	opTrapezoidX       = nn.Op("aten::trapezoid.x")
	opTrapezoidDx      = nn.Op("aten::trapezoid.dx")
	opBlockDiag        = nn.Op("aten::block_diag")
	opMarginRanking    = nn.Op("aten::margin_ranking_loss")
	opPoissonNLL       = nn.Op("aten::poisson_nll_loss")
	opCosineEmbedding  = nn.Op("aten::cosine_embedding_loss")
	opTripletMargin    = nn.Op("aten::triplet_margin_loss")
	opMultiMargin      = nn.Op("aten::multi_margin_loss")
)

// add15rRules adds the rules of this file to t; coreRules calls it.
func add15rRules(t Table) {
	t.add(opLogsumexp, func(a []nn.Value) nn.Value { return logsumexp(a[0], a[1], a[2].Bool()) })
	t.add(opSpecialLogsumexp, func(a []nn.Value) nn.Value { return logsumexp(a[0], a[1], a[2].Bool()) })
	t.add(opIsinTT, func(a []nn.Value) nn.Value { return isin(a[0], a[1], a[3].Bool()) })
	t.add(opIsinTS, func(a []nn.Value) nn.Value {
		return invertIf(call(aten.EqScalar, a[0], a[1]), a[3].Bool())
	})
	t.add(opIsinST, func(a []nn.Value) nn.Value {
		test := a[1]
		dims := make([]int64, ndim(test))
		for i := range dims {
			dims[i] = int64(i)
		}
		return invertIf(call(aten.AnyDims, call(aten.EqScalar, test, a[0]), dims), a[3].Bool())
	})
	t.add(opKron, kron)
	t.add(opTensordot, tensordot)
	t.add(opTrapezoidX, trapezoidX)
	t.add(opTrapezoidDx, trapezoidDx)
	t.add(opBlockDiag, blockDiag)
	t.add(opMarginRanking, func(a []nn.Value) nn.Value {
		x1, x2, target, margin := a[0], a[1], a[2], a[3]
		l := call(opAddT, call(opMulT, call(aten.Neg, target), call(opSubT, x1, x2)), margin)
		return reduceLoss(call(aten.Clamp, l, 0), a[4].Int())
	})
	t.add(opPoissonNLL, poissonNLLLoss)
	t.add(opCosineEmbedding, cosineEmbeddingLoss)
	t.add(opTripletMargin, tripletMarginLoss)
	t.add(opMultiMargin, multiMarginLoss)
	t.add(opEinsum, einsumRule)
}

// invertIf returns logical_not(x) when invert is set, else x.
func invertIf(x nn.Value, invert bool) nn.Value {
	if invert {
		return call(aten.LogicalNot, x)
	}
	return x
}

// zerosOf is a 0-d zero of x's dtype, the scalar masked_fill and where
// take in the references.
func zerosOf(x nn.Value) nn.Value {
	return callVia(x, aten.ScalarTensor, []any{0}, map[string]any{"dtype": dtypeOf(x)})
}

// logsumexp is torch/_refs' logsumexp (integers promoted to float32
// first): log(sum(exp(x - m))) + m with m the amax over dim, finite
// maxima only (an infinite one is replaced by 0).
func logsumexp(x, dimV nn.Value, keepdim bool) nn.Value {
	x = intToFloat(x)
	dims := dimV
	if !dims.IsTuple() {
		dims = nn.Of([]int64{dims.Int()})
	}
	if metaOf(x).Numel() == 0 {
		return call(aten.Log, call(aten.SumDimIntList, call(aten.Exp, x), dims, keepdim))
	}
	maxes := call(aten.Amax, x, dims, true)
	maxes = call(aten.WhereSelf, call(aten.EqScalar, call(aten.Abs, maxes), math.Inf(1)), zerosOf(maxes), maxes)
	squeezed := maxes
	if !keepdim {
		squeezed = call(aten.SqueezeDims, maxes, dims)
	}
	sum := call(aten.SumDimIntList, call(aten.Exp, call(opSubT, x, maxes)), dims, keepdim)
	return call(opAddT, call(aten.Log, sum), squeezed)
}

// isin is torch/_decomp's isin_default: elements viewed with a trailing
// size-1 dim per test dim, compared with test_elements, reduced with any
// over those dims (negated for invert).
func isin(elements, test nn.Value, invert bool) nn.Value {
	tn := ndim(test)
	shape := shapeOf(elements)
	for range tn {
		shape = append(shape, nn.Of(1))
	}
	x := call(opView, elements, ints(shape...))
	cmp := call(aten.EqTensor, x, test)
	if tn == 0 {
		return invertIf(cmp, invert)
	}
	dims := make([]int64, tn)
	for i := range dims {
		dims[i] = int64(-1 - i)
	}
	return invertIf(call(aten.AnyDims, cmp, dims), invert)
}

// kron is ATen's kron: self viewed as (s0, 1, s1, 1, ...), other as (1,
// o0, 1, o1, ...) (the shorter one padded with leading 1s), multiplied
// and viewed as (s0·o0, s1·o1, ...).
func kron(a []nn.Value) nn.Value {
	self, other := a[0], a[1]
	ss, os := shapeOf(self), shapeOf(other)
	n := max(len(ss), len(os))
	one := nn.Of(1)
	ar, br, rr := make([]nn.Value, 2*n), make([]nn.Value, 2*n), make([]nn.Value, n)
	for i := range n {
		s, o := one, one
		if i >= n-len(ss) {
			s = ss[i-(n-len(ss))]
		}
		if i >= n-len(os) {
			o = os[i-(n-len(os))]
		}
		ar[2*i], ar[2*i+1] = s, one
		br[2*i], br[2*i+1] = one, o
		rr[i] = prod([]nn.Value{s, o})
	}
	return reshape(call(opMulT, reshape(self, ar), reshape(other, br)), rr)
}

// tensordot is ATen's tensordot: a contracted dim of size 1 on one side
// is summed away on the other, the rest permuted to (free, contracted)
// and (contracted, free), reshaped to matrices, multiplied with mm and
// reshaped to the free sizes.
func tensordot(a []nn.Value) nn.Value {
	t1, t2 := a[0], a[1]
	d1s, d2s := shapeArg(a[2]), shapeArg(a[3])
	if len(d1s) != len(d2s) {
		fail("both dimension lists should have same length")
	}
	n1, n2 := ndim(t1), ndim(t2)
	d1, d2 := make([]int, len(d1s)), make([]int, len(d2s))
	csize := nn.Of(1)
	for i := range d1s {
		d1[i], d2[i] = wrapDim(d1s[i].Int(), n1), wrapDim(d2s[i].Int(), n2)
		s1, s2 := shapeOf(a[0])[d1[i]], shapeOf(a[1])[d2[i]]
		switch {
		case s2.Int() == 1:
			t1 = call(aten.SumDimIntList, t1, []int64{int64(d1[i])}, true)
		case s1.Int() == 1:
			t2 = call(aten.SumDimIntList, t2, []int64{int64(d2[i])}, true)
		default:
			if s1.Int() != s2.Int() {
				fail("contracted dimensions need to match, but first has size %d in dim %d and second has size %d in dim %d", s1.Int(), d1[i], s2.Int(), d2[i])
			}
			csize = prod([]nn.Value{csize, s1})
		}
	}
	in := func(d int, ds []int) bool {
		for _, x := range ds {
			if x == d {
				return true
			}
		}
		return false
	}
	sh1, sh2 := shapeOf(t1), shapeOf(t2)
	var p1, p2 []int64
	var free1, free2, rsizes []nn.Value
	for d := range n1 {
		if !in(d, d1) {
			p1 = append(p1, int64(d))
			free1 = append(free1, sh1[d])
			rsizes = append(rsizes, sh1[d])
		}
	}
	for _, d := range d1 {
		p1 = append(p1, int64(d))
	}
	for _, d := range d2 {
		p2 = append(p2, int64(d))
	}
	for d := range n2 {
		if !in(d, d2) {
			p2 = append(p2, int64(d))
			free2 = append(free2, sh2[d])
			rsizes = append(rsizes, sh2[d])
		}
	}
	m1 := reshape(call(aten.Permute, t1, p1), []nn.Value{prod(free1), csize})
	m2 := reshape(call(aten.Permute, t2, p2), []nn.Value{csize, prod(free2)})
	return reshape(call(aten.Mm, m1, m2), rsizes)
}

// zerosExcept is ATen's zeros_like_except: zeros of y's shape without dim.
func zerosExcept(y nn.Value, dim int) nn.Value {
	var sizes []nn.Value
	for i, s := range shapeOf(y) {
		if i != dim {
			sizes = append(sizes, s)
		}
	}
	return callVia(y, aten.Full, []any{ints(sizes...), 0}, map[string]any{"dtype": dtypeOf(y)})
}

// trapezoidX is ATen's trapezoid(y, x, dim): x viewed to broadcast
// along dim (a 1-d x) or padded with leading 1s, its differences dx, and
// sum((y[:-1] + y[1:])·dx, dim) / 2.
func trapezoidX(a []nn.Value) nn.Value {
	y, x := a[0], a[1]
	n := ndim(y)
	dim := wrapDim(a[2].Int(), n)
	if shapeOf(y)[dim].Int() == 0 {
		return zerosExcept(y, dim)
	}
	if dtypeOf(y) == tensor.Bool || dtypeOf(x) == tensor.Bool {
		fail("trapezoid: received a bool input for `x` or `y`, but bool is not supported")
	}
	xs := shapeOf(x)
	switch {
	case len(xs) == 1:
		if xs[0].Int() != shapeOf(y)[dim].Int() {
			fail("trapezoid: There must be one `x` value for each sample point")
		}
		sizes := make([]nn.Value, n)
		for i := range sizes {
			sizes[i] = nn.Of(1)
		}
		sizes[dim] = xs[0]
		x = call(opView, x, ints(sizes...))
	case len(xs) < n:
		sizes := make([]nn.Value, 0, n)
		for range n - len(xs) {
			sizes = append(sizes, nn.Of(1))
		}
		x = call(opView, x, ints(append(sizes, xs...)...))
	}
	dx := call(opSubT, call(aten.SliceTensor, x, dim, 1, nn.None), call(aten.SliceTensor, x, dim, 0, -1))
	left, right := call(aten.SliceTensor, y, dim, 0, -1), call(aten.SliceTensor, y, dim, 1, nn.None)
	s := call(aten.SumDimIntList, call(opMulT, call(opAddT, left, right), dx), []int64{int64(dim)})
	return call(opDivT, s, 2.0)
}

// trapezoidDx is ATen's trapezoid(y, dx, dim): (sum(y, dim) - (y[0] +
// y[-1])·0.5)·dx along dim.
func trapezoidDx(a []nn.Value) nn.Value {
	y := a[0]
	dim := wrapDim(a[2].Int(), ndim(y))
	if shapeOf(y)[dim].Int() == 0 {
		return zerosExcept(y, dim)
	}
	if dtypeOf(y) == tensor.Bool {
		fail("trapezoid: received a bool input for `y`, but bool is not supported")
	}
	ends := call(opAddT, call(aten.SelectInt, y, dim, 0), call(aten.SelectInt, y, dim, -1))
	s := call(opSubT, call(aten.SumDimIntList, y, []int64{int64(dim)}), call(opMulT, ends, 0.5))
	return call(opMulT, s, a[1].Float())
}

// blockDiag is torch/_refs' block_diag: each tensor as a matrix (0-d and
// 1-d ones as one row), padded left and right with zeros of its dtype to
// the total width, the rows concatenated.
func blockDiag(a []nn.Value) nn.Value {
	ts := a[0].Tuple()
	mats := make([]nn.Value, len(ts))
	ncols := int64(0)
	for i, t := range ts {
		if ndim(t) <= 1 {
			t = call(opView, t, []int64{1, -1})
		}
		if ndim(t) != 2 {
			fail("torch.block_diag: Input tensors must have 2 or fewer dimensions. Input %d has %d dimensions", i, ndim(ts[i]))
		}
		mats[i] = t
		ncols += shapeOf(t)[1].Int()
	}
	var rows []nn.Value
	start := int64(0)
	for _, t := range mats {
		s := shapeOf(t)
		r, c := s[0], s[1].Int()
		zeros := func(n int64) nn.Value {
			return callVia(t, aten.Full, []any{ints(r, nn.Of(n)), 0}, map[string]any{"dtype": dtypeOf(t)})
		}
		rows = append(rows, call(aten.Cat, []nn.Value{zeros(start), t, zeros(ncols - start - c)}, 1))
		start += c
	}
	return call(aten.Cat, rows, 0)
}

// poissonNLLLoss is ATen's poisson_nll_loss: exp(input) - target·input
// for a log input, else input - target·log(input + eps), plus Stirling's
// term target·log(target) - target + 0.5·log(2π·target) where target > 1
// when full, reduced.
func poissonNLLLoss(a []nn.Value) nn.Value {
	input, target, logInput, full, eps := a[0], a[1], a[2].Bool(), a[3].Bool(), a[4]
	var l nn.Value
	if logInput {
		l = call(opSubT, call(aten.Exp, input), call(opMulT, target, input))
	} else {
		l = call(opSubT, input, call(opMulT, target, call(aten.Log, call(opAddT, input, eps))))
	}
	if full {
		st := call(opAddT, call(opSubT, call(opMulT, target, call(aten.Log, target)), target),
			call(opMulT, call(aten.Log, call(opMulT, target, 2*math.Pi)), 0.5))
		l = call(opAddT, l, call(aten.WhereSelf, call(aten.LeScalar, target, 1), zerosOf(st), st))
	}
	return reduceLoss(l, a[5].Int())
}

// cosineEmbeddingLoss is ATen's cosine_embedding_loss: the cosine along
// the target's dim (squared norms + 1e-12), 1 - cos where target is 1 and
// max(cos - margin, 0) where it is -1, reduced.
func cosineEmbeddingLoss(a []nn.Value) nn.Value {
	x1, x2, target, margin := a[0], a[1], a[2], a[3]
	td := ndim(target)
	switch {
	case td > 1:
		fail("0D or 1D target tensor expected, multi-target not supported")
	case td == 1 && (ndim(x1) != 2 || ndim(x2) != 2):
		fail("1D target tensor expects 2D input tensors, but found inputs with sizes %v and %v.", toInts(shapeOf(x1)), toInts(shapeOf(x2)))
	case td == 0 && (ndim(x1) != 1 || ndim(x2) != 1):
		fail("0D target tensor expects 1D input tensors, but found inputs with sizes %v and %v.", toInts(shapeOf(x1)), toInts(shapeOf(x2)))
	}
	dim := []int64{int64(td)}
	const eps = 1e-12
	prodSum := call(aten.SumDimIntList, call(opMulT, x1, x2), dim)
	mag1 := call(opAddT, call(aten.SumDimIntList, call(opMulT, x1, x1), dim), eps)
	mag2 := call(opAddT, call(aten.SumDimIntList, call(opMulT, x2, x2), dim), eps)
	cos := call(opDivT, prodSum, call(aten.Sqrt, call(opMulT, mag1, mag2)))
	zeros := fullLike(cos, nn.Of(0), []nn.Value{nn.None, nn.None, nn.None, nn.None})
	pos := call(opAddT, call(aten.Neg, cos), 1)
	neg := call(aten.Clamp, call(opSubT, cos, margin), 0)
	out := call(opAddT, call(aten.WhereSelf, call(aten.EqScalar, target, 1), pos, zeros),
		call(aten.WhereSelf, call(aten.EqScalar, target, -1), neg, zeros))
	return reduceLoss(out, a[4].Int())
}

// pairwiseDistance is ATen's pairwise_distance: the p-norm of x1 - x2 +
// eps over the last dim.
func pairwiseDistance(x1, x2 nn.Value, p, eps float64) nn.Value {
	last := max(ndim(x1), ndim(x2)) - 1
	d := call(opAddT, call(opSubT, x1, x2), eps)
	return vectorNorm(d, nn.Of(p), nn.Of([]int64{int64(last)}), nn.Of(false), nn.None)
}

// tripletMarginLoss is ATen's triplet_margin_loss: max(margin + d(a, p)
// - d(a, n), 0) with d the pairwise distance (d(a, n) the smaller of it
// and d(p, n) with swap), reduced.
func tripletMarginLoss(a []nn.Value) nn.Value {
	anchor, pos, neg := a[0], a[1], a[2]
	margin, p, eps, swap := a[3], a[4].Float(), a[5].Float(), a[6].Bool()
	if ndim(anchor) != ndim(pos) || ndim(anchor) != ndim(neg) {
		fail("The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: anchor %dD, positive %dD, and negative %dD inputs", ndim(anchor), ndim(pos), ndim(neg))
	}
	dPos := pairwiseDistance(anchor, pos, p, eps)
	dNeg := pairwiseDistance(anchor, neg, p, eps)
	if swap {
		dNeg = call(aten.Minimum, dNeg, pairwiseDistance(pos, neg, p, eps))
	}
	l := call(opSubT, call(opAddT, dPos, margin), dNeg)
	return reduceLoss(call(aten.Clamp, l, 0), a[7].Int())
}

// multiMarginLoss is torch/_decomp's multi_margin_loss: with u the input
// at the target class, max(margin - u + input, 0) (squared for p 2,
// weighted by weight[target]), zero at the target class, averaged over
// everything (mean), summed and divided by the class count (sum), or
// averaged per sample (none).
func multiMarginLoss(a []nn.Value) nn.Value {
	input, target, p, margin, weight := a[0], a[1], a[2].Int(), a[3], a[4]
	if ndim(input) < 2 {
		input = call(opView, input, ints(append([]nn.Value{nn.Of(1)}, shapeOf(input)...)...))
	}
	if ndim(target) < 1 {
		target = call(opView, target, []int64{1})
	}
	s := shapeOf(input)
	nframe, dim := s[0].Int(), s[1].Int()
	if p != 1 && p != 2 {
		fail("only p == 1 and p == 2 supported")
	}
	if ndim(input) != 2 || dim == 0 {
		fail("Expected non-empty vector or matrix with optional 0-dim batch size, but got: %v", toInts(s))
	}
	if ndim(target) != 1 || int64(metaOf(target).Numel()) != nframe {
		fail("inconsistent target size, expected %d but got %v", nframe, toInts(shapeOf(target)))
	}
	target = call(aten.Unsqueeze, target, 1)
	u := call(aten.Gather, input, 1, target)
	z := call(aten.Clamp, call(opAddT, call(opAddT, call(aten.Neg, u), margin), input), 0)
	if p == 2 {
		z = call(opMulT, z, z)
	}
	if !weight.IsNone() {
		if ndim(weight) < 1 {
			weight = call(opView, weight, []int64{1})
		}
		z = call(opMulT, z, call(aten.IndexTensor, weight, []nn.Value{target}))
	}
	idx := callVia(input, aten.ArangeStartStep, []any{0, dim}, map[string]any{"dtype": tensor.Int64})
	z = call(aten.WhereSelf, call(aten.NeTensor, idx, target), z, zerosOf(z))
	switch a[5].Int() {
	case 1:
		return call(aten.Mean, z)
	case 2:
		return call(opDivT, call(aten.SumDimIntList, z, nn.None), dim)
	}
	return call(aten.MeanDim, z, []int64{1})
}
