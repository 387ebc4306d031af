package kernels

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Norms, ATen's LinearAlgebra.cpp, ReduceOps.cpp, WeightNorm.cpp,
// Normalization.cpp and Distance.cpp as PyTorch 2.6 has them:
// linalg_vector_norm (the one reduction kernel), the norm overloads,
// frobenius_norm and dist, which call it as ATen does; linalg_matrix_norm
// (fro, nuc, ±1, ±2, ±inf) and linalg_norm; nuclear_norm; renorm;
// norm_except_dim, _weight_norm and _weight_norm_interface;
// cosine_similarity, pairwise_distance and pdist. The vector norm sums
// in float64 and rounds once; the singular values of the nuclear and
// spectral norms come from gonum's SVD in float64, rounded to the dtype.

// registerNorm registers the kernels of norm.go.
func registerNorm() {
	registerBoth("aten::linalg_vector_norm", linalgVectorNorm)
	for _, o := range []string{"Scalar", "ScalarOpt_dim", "ScalarOpt_dtype", "ScalarOpt_dim_dtype"} {
		registerBoth("aten::norm."+o, normKernel)
	}
	registerBoth("aten::frobenius_norm.dim", frobeniusNorm)
	registerBoth("aten::linalg_matrix_norm", linalgMatrixNorm)
	registerBoth("aten::linalg_matrix_norm.str_ord", linalgMatrixNorm)
	registerBoth("aten::linalg_norm", linalgNorm)
	registerBoth("aten::linalg_norm.ord_str", linalgNorm)
	registerBoth("aten::nuclear_norm", nuclearNorm)
	registerBoth("aten::nuclear_norm.dim", nuclearNorm)
	registerBoth("aten::renorm", renorm)
	registerBoth("aten::dist", distKernel)
	registerBoth("aten::norm_except_dim", normExceptDim)
	registerBoth("aten::_weight_norm", weightNorm)
	registerBoth("aten::_weight_norm_interface", weightNormInterface)
	registerBoth("aten::cosine_similarity", cosineSimilarity)
	registerBoth("aten::pairwise_distance", pairwiseDistance)
	registerBoth("aten::pdist", pdist)
	registerBoth("aten::cdist", cdist)
	registerBoth("aten::_euclidean_dist", euclideanDist)
}

// vectorNorm is the ord-norm of x over the dimensions of mask, in dtype
// dt (x is converted to dt first): 0 counts the nonzero elements, inf and
// -inf are the largest and smallest |x|, and other ord (sum |x|^ord)^(1/ord);
// the sums accumulate in float64 and round once.
func vectorNorm(x *tensor.Tensor, ord float64, mask []bool, keepdim bool, dt tensor.DType) *tensor.Tensor {
	shape := reducedShape(x.Shape(), mask, keepdim)
	if x.IsMeta() {
		return tensor.Must(tensor.NewMeta(dt, shape...))
	}
	x = to(x, dt)
	p, _, outer, inner := moveLast(x, mask)
	vals := p.Float64s()
	out := make([]float64, outer)
	forRows(outer, inner, func(r int) {
		row := vals[r*inner : (r+1)*inner]
		var acc float64
		switch {
		case ord == 0:
			for _, v := range row {
				if v != 0 {
					acc++
				}
			}
		case math.IsInf(ord, 1):
			for _, v := range row {
				if a := math.Abs(v); a > acc || a != a {
					acc = a
				}
				if acc != acc {
					break
				}
			}
		case math.IsInf(ord, -1):
			acc = math.Inf(1)
			for _, v := range row {
				if a := math.Abs(v); a < acc || a != a {
					acc = a
				}
				if acc != acc {
					break
				}
			}
		case ord == 1:
			for _, v := range row {
				acc += math.Abs(v)
			}
		case ord == 2:
			for _, v := range row {
				acc += v * v
			}
			acc = math.Sqrt(acc)
		default:
			for _, v := range row {
				acc += math.Pow(math.Abs(v), ord)
			}
			acc = math.Pow(acc, 1/ord)
		}
		out[r] = acc
	})
	return floatResult(false, dt, out, shape)
}

// linalgVectorNorm is aten::linalg_vector_norm: the ord-norm over dim
// (None or [] for every dimension) of a floating self, in dtype when
// given.
func linalgVectorNorm(c *ops.Call) ([]any, error) {
	return vectorNormCall(c, "linalg.vector_norm", c.Scalar("ord").Float())
}

// vectorNormCall checks and runs a vector norm of c's self over its dim
// argument with its keepdim and dtype arguments; fn names the function in
// errors.
func vectorNormCall(c *ops.Call, fn string, ord float64) ([]any, error) {
	self := c.Tensor("self")
	dt := self.DType()
	if !dt.IsFloat() {
		if fn == "norm" {
			return nil, c.Errorf("self", "norm(): input dtype should be either floating point or complex. Got %s instead.", scalarTypeName(dt))
		}
		return nil, c.Errorf("self", "%s: Expected a floating point or complex tensor as input. Got %s", fn, scalarTypeName(dt))
	}
	if d, ok := optDType(c); ok {
		if !d.IsFloat() {
			if fn == "norm" {
				return nil, c.Errorf("dtype", "norm(): the desired output dtype should be either floating point or complex. Got %s instead.", scalarTypeName(d))
			}
			return nil, c.Errorf("dtype", "%s: dtype should be floating point or complex. Got %s", fn, scalarTypeName(d))
		}
		if ops.PromoteTypes(dt, d) != d {
			return nil, c.Errorf("dtype", "%s: the dtype of the input (%s) should be convertible without narrowing to the specified dtype (%s)", fn, scalarTypeName(dt), scalarTypeName(d))
		}
		dt = d
	}
	var dims []int64
	if hasArg(c, "dim") {
		dims = c.Ints("dim")
	}
	mask, err := dimMask(c, "dim", dims, self.Dim())
	if err != nil {
		return nil, err
	}
	if self.Numel() == 0 && (ord < 0 || math.IsInf(ord, 1)) {
		shape := self.Shape()
		if len(dims) == 0 {
			return nil, c.Errorf("self", "%s cannot compute the %s norm on an empty tensor because the operation does not have an identity", fn, formatOrd(ord))
		}
		for i, m := range mask {
			if m && (len(shape) == 0 || shape[i] == 0) {
				// PyTorch's message lacks the space before "because".
				return nil, c.Errorf("dim", "%s cannot compute the %s norm on the dimension %dbecause this dimension is empty and the operation does not have an identity", fn, formatOrd(ord), i)
			}
		}
	}
	keepdim := false
	if hasArg(c, "keepdim") {
		keepdim = c.Bool("keepdim")
	}
	return one(vectorNorm(self, ord, mask, keepdim, dt)), nil
}

// optDType returns c's dtype argument, if it has one and it is not None.
func optDType(c *ops.Call) (tensor.DType, bool) {
	if !hasArg(c, "dtype") {
		return 0, false
	}
	return c.DType("dtype")
}

// formatOrd prints an order as PyTorch prints a Scalar: inf, -inf, 2.
func formatOrd(ord float64) string {
	return ops.FloatScalar(ord).String()
}

// normKernel is aten::norm (Scalar, ScalarOpt_dim, ScalarOpt_dtype and
// ScalarOpt_dim_dtype): the vector norm of order p (2 when None).
func normKernel(c *ops.Call) ([]any, error) {
	ord := 2.0
	if s, ok := c.OptScalar("p"); ok {
		ord = s.Float()
	}
	return vectorNormCall(c, "norm", ord)
}

// frobeniusNorm is aten::frobenius_norm.dim: the 2-norm over at most two
// dimensions.
func frobeniusNorm(c *ops.Call) ([]any, error) {
	dim := c.Ints("dim")
	if len(dim) > 2 {
		return nil, c.Errorf("dim", "Expected at most 2 dimensions, but got %d dimensions instead.", len(dim))
	}
	return delegate(c, "aten::norm.ScalarOpt_dim", []any{c.Tensor("self"), ops.FloatScalar(2), dim, c.Bool("keepdim")}, nil)
}

// matrixDims checks and normalizes the two matrix dimensions of a matrix
// norm of a.
func matrixDims(c *ops.Call, fn string, a *tensor.Tensor, dim []int64) (int, int, error) {
	if a.Dim() < 2 {
		return 0, 0, c.Errorf("self", "%s: The input tensor A must have at least 2 dimensions.", fn)
	}
	if !a.DType().IsFloat() {
		return 0, 0, c.Errorf("self", "%s: Expected a floating point or complex tensor as input. Got %s", fn, scalarTypeName(a.DType()))
	}
	if len(dim) != 2 {
		return 0, 0, c.Errorf("dim", "%s: dim must be a 2-tuple. Got %v", fn, dim)
	}
	d0, err := wrapReduceDim(c, "dim", dim[0], a.Dim())
	if err != nil {
		return 0, 0, err
	}
	d1, err := wrapReduceDim(c, "dim", dim[1], a.Dim())
	if err != nil {
		return 0, 0, err
	}
	if d0 == d1 {
		return 0, 0, c.Errorf("dim", "%s: dims must be different. Got (%d, %d)", fn, d0, d1)
	}
	return d0, d1, nil
}

// linalgMatrixNorm is aten::linalg_matrix_norm (Scalar and str orders):
// fro and nuc, the largest or smallest column (±1) or row (±inf) sums, and
// the largest or smallest singular value (±2).
func linalgMatrixNorm(c *ops.Call) ([]any, error) {
	a := c.Tensor("self")
	d0, d1, err := matrixDims(c, "linalg.matrix_norm", a, c.Ints("dim"))
	if err != nil {
		return nil, err
	}
	keepdim := c.Bool("keepdim")
	dt := dtypeArg(c)
	kw := map[string]any{"dtype": dt}
	if s, ok := c.Arg("ord").(string); ok {
		switch s {
		case "fro":
			return delegate(c, "aten::linalg_vector_norm", []any{a, ops.IntScalar(2), []int64{int64(d0), int64(d1)}, keepdim}, kw)
		case "nuc":
			return singularNorm(c, a, d0, d1, keepdim, 0)
		}
		return nil, c.Errorf("ord", "linalg.matrix_norm: Order %s not supported.", s)
	}
	ord := c.Scalar("ord").Float()
	switch math.Abs(ord) {
	case 2:
		return singularNorm(c, a, d0, d1, keepdim, ord)
	case 1, math.Inf(1):
	default:
		return nil, c.Errorf("ord", "linalg.matrix_norm: Order %s not supported.", c.Scalar("ord"))
	}
	if math.IsInf(ord, 0) {
		d0, d1 = d1, d0
	}
	if !keepdim && d0 < d1 {
		d1--
	}
	p := &chain{c: c, arg: "self"}
	n := p.callKw("aten::linalg_vector_norm", kw, a, ops.IntScalar(1), []int64{int64(d0)}, keepdim)
	if ord > 0 {
		return p.result(p.call("aten::amax", n, []int64{int64(d1)}, keepdim))
	}
	return p.result(p.call("aten::amin", n, []int64{int64(d1)}, keepdim))
}

// singularNorm is the nuclear norm (ord 0: the sum of the singular
// values) or the largest (2) or smallest (-2) singular value of the
// matrices of a over dimensions d0 and d1.
func singularNorm(c *ops.Call, a *tensor.Tensor, d0, d1 int, keepdim bool, ord float64) ([]any, error) {
	dt := a.DType()
	if d, ok := optDType(c); ok {
		dt = d
	}
	rank := a.Dim()
	mask := make([]bool, rank)
	mask[d0], mask[d1] = true, true
	shape := reducedShape(a.Shape(), mask, keepdim)
	if a.IsMeta() {
		return oneOrErr(tensor.NewMeta(dt, shape...))
	}
	m, n := a.Size(d0), a.Size(d1)
	if (m == 0 || n == 0) && ord != 0 {
		return nil, c.Errorf("self", "linalg.matrix_norm: The input tensor A must have at least 1 element for ord=%s", formatOrd(ord))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return nil, notImplemented(c, "self", "linalg_svd_cpu", dt)
	}
	// Move the matrix dimensions last, d0 before d1.
	perm := []int{}
	for i := range rank {
		if i != d0 && i != d1 {
			perm = append(perm, i)
		}
	}
	perm = append(perm, d0, d1)
	x := tensor.Must(to(a, dt).Permute(perm...)).Contiguous()
	vals := x.Float64s()
	count := x.Numel()
	if m*n > 0 {
		count /= m * n
	} else {
		count = 1
		for _, s := range x.Shape()[:rank-2] {
			count *= s
		}
	}
	out := make([]float64, count)
	r := rounder(dt)
	for b := range count {
		if m == 0 || n == 0 {
			continue
		}
		var svd mat.SVD
		if !svd.Factorize(mat.NewDense(m, n, append([]float64(nil), vals[b*m*n:(b+1)*m*n]...)), mat.SVDNone) {
			out[b] = math.NaN()
			continue
		}
		sv := svd.Values(nil)
		switch ord {
		case 0:
			var s float64
			for _, v := range sv {
				s += r(v)
			}
			out[b] = s
		case 2:
			out[b] = sv[0]
		default:
			out[b] = sv[len(sv)-1]
		}
	}
	return oneOrErr(tensor.FromFloat64s(dt, out, shape...))
}

// nuclearNorm is aten::nuclear_norm (a 2-d self) and nuclear_norm.dim:
// the sum of the singular values.
func nuclearNorm(c *ops.Call) ([]any, error) {
	a := c.Tensor("self")
	dim := []int64{-2, -1}
	if hasArg(c, "dim") {
		dim = c.Ints("dim")
	} else if a.Dim() != 2 {
		s := "s"
		if a.Dim() == 1 {
			s = ""
		}
		return nil, c.Errorf("self", "Expected a tensor with 2 dimensions, but got a tensor with %d dimension%s instead.", a.Dim(), s)
	}
	d0, d1, err := matrixDims(c, "linalg.matrix_norm", a, dim)
	if err != nil {
		return nil, err
	}
	return singularNorm(c, a, d0, d1, c.Bool("keepdim"), 0)
}

// linalgNorm is aten::linalg_norm (Scalar and str orders): a matrix norm
// when ord is given and the norm is over two dimensions (dim of length 2,
// or no dim and a 2-d self), else the vector norm (2 when ord is None).
func linalgNorm(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dim, hasDim := c.Ints("dim"), !c.IsNone("dim")
	strOrd, isStr := c.Arg("ord").(string)
	hasOrd := !c.IsNone("ord")
	if hasDim {
		if len(dim) != 1 && len(dim) != 2 {
			return nil, c.Errorf("dim", "linalg.norm: If dim is specified, it must be of length 1 or 2. Got %v", dim)
		}
	} else if hasOrd && x.Dim() != 1 && x.Dim() != 2 {
		return nil, c.Errorf("self", "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got %dD.", x.Dim())
	}
	dt := dtypeArg(c)
	kw := map[string]any{"dtype": dt}
	if isStr || hasOrd && (hasDim && len(dim) == 2 || !hasDim && x.Dim() == 2) {
		if !hasDim {
			dim = []int64{0, 1}
		}
		var ord any = strOrd
		if !isStr {
			ord = c.Scalar("ord")
		}
		name := "aten::linalg_matrix_norm"
		if isStr {
			name += ".str_ord"
		}
		return delegate(c, name, []any{x, ord, dim, c.Bool("keepdim")}, kw)
	}
	ord := ops.FloatScalar(2)
	if hasOrd {
		ord = c.Scalar("ord")
	}
	var d any
	if hasDim {
		d = dim
	}
	return delegate(c, "aten::linalg_vector_norm", []any{x, ord, d, c.Bool("keepdim")}, kw)
}

// renorm is aten::renorm: each slice of self along dim whose p-norm
// exceeds maxnorm scaled to norm maxnorm (by maxnorm/(norm+1e-7),
// computed in the accumulate dtype, float32 for float16 and bfloat16).
func renorm(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	p, maxnorm := c.Scalar("p").Float(), c.Scalar("maxnorm").Float()
	if !(p > 0) {
		return nil, c.Errorf("p", "renorm: non-positive-norm not supported")
	}
	if !(maxnorm >= 0) {
		return nil, c.Errorf("maxnorm", "renorm: expected maxnorm to be >= 0 but got %v", maxnorm)
	}
	if self.Dim() <= 1 {
		return nil, c.Errorf("self", "renorm: input needs at least 2 dimensions, got %d dimensions", self.Dim())
	}
	dim, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	dt := self.DType()
	if !dt.IsFloat() {
		return nil, c.Errorf("self", "linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s", scalarTypeName(dt))
	}
	if self.IsMeta() {
		return oneOrErr(tensor.NewMeta(dt, self.Shape()...))
	}
	acc := computeType(dt)
	mask := make([]bool, self.Dim())
	for i := range mask {
		mask[i] = i != dim
	}
	norm := vectorNorm(self, p, mask, true, acc)
	r := rounder(acc)
	f := norm.Float64s()
	for i, n := range f {
		if n > maxnorm {
			f[i] = r(maxnorm / r(n+1e-7))
		} else {
			f[i] = 1
		}
	}
	factor := tensor.Must(tensor.FromFloat64s(acc, f, norm.Shape()...))
	return delegate(c, "aten::mul.Tensor", []any{self, to(factor, dt)}, nil)
}

// distKernel is aten::dist: the p-norm of self - other.
func distKernel(c *ops.Call) ([]any, error) {
	p := &chain{c: c, arg: "other"}
	d := p.call("aten::sub.Tensor", c.Tensor("self"), c.Tensor("other"))
	return p.result(p.call("aten::norm.Scalar", d, c.Scalar("p")))
}

// normExceptDim is aten::norm_except_dim: the pow-norm of v over every
// dimension but dim, kept as size 1 (dim -1: the norm of everything).
func normExceptDim(c *ops.Call) ([]any, error) {
	v := c.Tensor("v")
	pw, dim := c.Int("pow"), int(c.Int("dim"))
	if dim == -1 {
		return delegate(c, "aten::norm.Scalar", []any{v, ops.IntScalar(pw)}, nil)
	}
	if dim < 0 || dim >= max(v.Dim(), 1) {
		return nil, c.Errorf("dim", "%s", dimErr(dim, v.Dim()))
	}
	if !v.DType().IsFloat() {
		return nil, c.Errorf("v", "norm(): input dtype should be either floating point or complex. Got %s instead.", scalarTypeName(v.DType()))
	}
	mask := make([]bool, max(v.Dim(), 1))
	for i := range mask {
		mask[i] = i != dim
	}
	if v.Dim() == 0 {
		mask[0] = true
	}
	return one(vectorNorm(v, float64(pw), mask, true, v.DType())), nil
}

// weightNorm is aten::_weight_norm: v * (g / norm_except_dim(v, 2, dim)),
// through _weight_norm_interface's fused kernel for dim 0 and the last
// dimension as ATen does.
func weightNorm(c *ops.Call) ([]any, error) {
	v, g := c.Tensor("v"), c.Tensor("g")
	dim := c.Int("dim")
	if v.DType() != tensor.Float16 && g.DType() != tensor.Float16 && (dim == 0 || dim == int64(v.Dim())-1) {
		out, err := delegate(c, "aten::_weight_norm_interface", []any{v, g, dim}, nil)
		if err != nil {
			return nil, err
		}
		return out[:1], nil
	}
	p := &chain{c: c, arg: "v"}
	n := p.call("aten::norm_except_dim", v, int64(2), dim)
	return p.result(p.call("aten::mul.Tensor", v, p.call("aten::div.Tensor", g, n)))
}

// weightNormInterface is aten::_weight_norm_interface, ATen's fused CPU
// kernel for dim 0 or the last dimension: the 2-norms of v over every
// other dimension (float32 for a bfloat16 g), and w = v * g / norm.
func weightNormInterface(c *ops.Call) ([]any, error) {
	v, g := c.Tensor("v"), c.Tensor("g")
	dim := int(c.Int("dim"))
	if dim != 0 && dim != v.Dim()-1 {
		return nil, c.Errorf("dim", "Expected dim to be the first or last dimension")
	}
	if !v.DType().IsFloat() {
		return nil, c.Errorf("v", "\"weight_norm_first_dim_kernel\" not implemented for '%s'", scalarTypeName(v.DType()))
	}
	ndt := g.DType()
	if ndt == tensor.BFloat16 {
		ndt = tensor.Float32
	}
	if meta(v, g) {
		w := tensor.Must(tensor.NewMeta(v.DType(), v.Shape()...))
		return []any{w, tensor.Must(tensor.NewMeta(ndt, g.Shape()...))}, nil
	}
	acc := computeType(v.DType())
	mask := make([]bool, max(v.Dim(), 1))
	for i := range mask {
		mask[i] = i != dim || v.Dim() == 0
	}
	norm := vectorNorm(v, 2, mask, true, acc)
	if norm.Numel() != g.Numel() {
		return nil, c.Errorf("g", "expected g to have %d elements, got %d", norm.Numel(), g.Numel())
	}
	r := rounder(acc)
	nv := norm.Float64s()
	gv := to(g, acc).Float64s()
	scale := make([]float64, len(nv))
	for i := range nv {
		scale[i] = r(gv[i] / nv[i])
	}
	st := tensor.Must(tensor.FromFloat64s(acc, scale, norm.Shape()...))
	vv := to(v, acc)
	sh := v.Shape()
	w := mapBinary(vv, expandedTensor(st, sh), sh, acc, func(x, y float64) float64 { return x * y }, nil)
	nt := tensor.Must(tensor.FromFloat64s(ndt, nv, g.Shape()...))
	return []any{to(w, v.DType()), nt}, nil
}

// cosineSimilarity is aten::cosine_similarity: the sum over dim of
// (x1/|x1|) * (x2/|x2|), each norm clamped below at eps, in the common
// floating dtype of x1 and x2 (broadcast).
func cosineSimilarity(c *ops.Call) ([]any, error) {
	x1, x2 := c.Tensor("x1"), c.Tensor("x2")
	dt := ops.PromoteTypes(x1.DType(), x2.DType())
	if !dt.IsFloat() {
		return nil, c.Errorf("x1", "expected common dtype to be floating point, yet common dtype is %s", scalarTypeName(dt))
	}
	if !x1.DType().IsFloat() {
		x1 = to(x1, dt)
	}
	if !x2.DType().IsFloat() {
		x2 = to(x2, dt)
	}
	shape, err := ops.BroadcastShapes(x1.Shape(), x2.Shape())
	if err != nil {
		return nil, c.Errorf("x2", "%v", err)
	}
	x1, x2 = expandedTensor(x1, shape), expandedTensor(x2, shape)
	dim := []int64{c.Int("dim")}
	eps := ops.FloatScalar(c.Float("eps"))
	p := &chain{c: c, arg: "x1"}
	n1 := p.call("aten::clamp_min", p.call("aten::linalg_vector_norm", x1, ops.IntScalar(2), dim, true), eps)
	n2 := p.call("aten::clamp_min", p.call("aten::linalg_vector_norm", x2, ops.IntScalar(2), dim, true), eps)
	prod := p.call("aten::mul.Tensor", p.call("aten::div.Tensor", x1, n1), p.call("aten::div.Tensor", x2, n2))
	return p.result(p.call("aten::sum.dim_IntList", prod, dim))
}

// pairwiseDistance is aten::pairwise_distance: the p-norm of
// x1 - x2 + eps over the last dimension.
func pairwiseDistance(c *ops.Call) ([]any, error) {
	x1, x2 := c.Tensor("x1"), c.Tensor("x2")
	inner := int64(max(x1.Dim(), x2.Dim()) - 1)
	p := &chain{c: c, arg: "x2"}
	d := p.call("aten::add.Scalar", p.call("aten::sub.Tensor", x1, x2), ops.FloatScalar(c.Float("eps")))
	return p.result(p.call("aten::norm.ScalarOpt_dim", d, ops.FloatScalar(c.Float("p")), []int64{inner}, c.Bool("keepdim")))
}

// pdist is aten::pdist: _pdist_forward of a 2-d floating self.
func pdist(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if self.Dim() != 2 {
		return nil, c.Errorf("self", "pdist only supports 2D tensors, got: %dD", self.Dim())
	}
	if !self.DType().IsFloat() {
		return nil, c.Errorf("self", "pdist only supports floating-point dtypes")
	}
	if c.Float("p") < 0 {
		return nil, c.Errorf("p", "pdist only supports non-negative p values")
	}
	return delegate(c, "aten::_pdist_forward", []any{contig(self), c.Float("p")}, nil)
}

// cdist is aten::cdist: _cdist_forward after cdist's own checks (which
// also takes the matrix-product path for p = 2 as cdist_impl does).
func cdist(c *ops.Call) ([]any, error) {
	x1, x2 := c.Tensor("x1"), c.Tensor("x2")
	if x1.Dim() < 2 {
		return nil, c.Errorf("x1", "cdist only supports at least 2D tensors, X1 got: %dD", x1.Dim())
	}
	if x2.Dim() < 2 {
		return nil, c.Errorf("x2", "cdist only supports at least 2D tensors, X2 got: %dD", x2.Dim())
	}
	if x1.Size(-1) != x2.Size(-1) {
		return nil, c.Errorf("x2", "X1 and X2 must have the same number of columns. X1: %d X2: %d", x1.Size(-1), x2.Size(-1))
	}
	var mode any
	if m, ok := c.OptInt("compute_mode"); ok {
		mode = m
	}
	return delegate(c, "aten::_cdist_forward", []any{x1, x2, c.Float("p"), mode}, nil)
}

// euclideanDist is aten::_euclidean_dist: the Euclidean distances of the
// rows of x1 and x2 through one matrix product, [-2x1, |x1|², 1] times
// [x2, 1, |x2|²]ᵀ, clamped at 0 and square-rooted.
func euclideanDist(c *ops.Call) ([]any, error) {
	x1, x2 := c.Tensor("x1"), c.Tensor("x2")
	p := &chain{c: c, arg: "x2"}
	last := []int64{-1}
	n1 := p.call("aten::sum.dim_IntList", p.call("aten::pow.Tensor_Scalar", x1, ops.IntScalar(2)), last, true)
	n2 := p.call("aten::sum.dim_IntList", p.call("aten::pow.Tensor_Scalar", x2, ops.IntScalar(2)), last, true)
	a := p.call("aten::cat", []*tensor.Tensor{p.call("aten::mul.Scalar", x1, ops.IntScalar(-2)), n1, p.call("aten::ones_like", n1)}, int64(-1))
	b := p.call("aten::cat", []*tensor.Tensor{x2, p.call("aten::ones_like", n2), n2}, int64(-1))
	r := p.call("aten::matmul", a, p.call("aten::transpose.int", b, int64(-2), int64(-1)))
	return p.result(p.call("aten::sqrt", p.call("aten::clamp_min", r, ops.IntScalar(0))))
}
