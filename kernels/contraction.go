package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Contractions, ATen's Linear.cpp and LinearAlgebra.cpp as PyTorch 2.6 has
// them: einsum (ellipses, repeated labels taken as diagonals, implicit and
// explicit outputs, an optional contraction path), reduced to
// permute/reshape/bmm by sumproduct_pair as ATen does; tensordot and
// inner; addmv and addr; cross and linalg_cross; linalg_multi_dot and
// chain_matmul (the optimal parenthesization); matrix_power and
// linalg_matrix_power (binary powers). They compose registered operators,
// so their meta functions come with them.

// registerContraction registers the kernels of contraction.go.
func registerContraction() {
	registerBoth("aten::einsum", einsum)
	registerBoth("aten::tensordot", tensordot)
	registerBoth("aten::inner", inner)
	registerBoth("aten::addmv", addmv)
	registerBoth("aten::addr", addr)
	registerBoth("aten::linalg_cross", linalgCross)
	registerBoth("aten::cross", cross)
	registerBoth("aten::linalg_multi_dot", linalgMultiDot)
	registerBoth("aten::chain_matmul", chainMatmul)
	registerBoth("aten::linalg_matrix_power", matrixPower)
	registerBoth("aten::matrix_power", matrixPower)
	registerBoth("aten::linalg_vecdot", linalgVecdot)
	registerBoth("aten::_trilinear", trilinear)
	registerBoth("aten::bilinear", bilinear)
}

// einsumEllipsis marks "..." among an operand's labels.
const einsumEllipsis = 52

// einsumLabel maps a letter to ATen's subscript: A-Z to 0-25, a-z to 26-51.
func einsumLabel(b byte) (int, bool) {
	switch {
	case b >= 'A' && b <= 'Z':
		return int(b - 'A'), true
	case b >= 'a' && b <= 'z':
		return int(b-'a') + 26, true
	}
	return 0, false
}

// einsumLetter is the letter of subscript s.
func einsumLetter(s int) byte {
	if s < 26 {
		return byte('A' + s)
	}
	return byte('a' + s - 26)
}

// einsum is aten::einsum, ATen's algorithm: the operands are aligned to
// the output dimensions followed by the contraction dimensions (diagonals
// for repeated labels, size-1 dimensions for missing ones), then
// contracted pairwise, left to right or along path, by sumproduct_pair.
func einsum(c *ops.Call) ([]any, error) {
	eq := c.Str("equation")
	operands := c.Tensors("tensors")
	if len(operands) == 0 {
		return nil, c.Errorf("tensors", "einsum(): must provide at least one operand")
	}
	n := len(operands)
	path, hasPath := c.Ints("path"), !c.IsNone("path")
	if hasPath {
		want := 1
		if n > 1 {
			want = (n - 1) * 2
		}
		if len(path) != want {
			return nil, c.Errorf("path", "einsum(): expected contraction path given in path parameter to have size %d but got %d", want, len(path))
		}
	}
	lhs, rhs, explicit := eq, "", false
	for i := 0; i+1 < len(eq); i++ {
		if eq[i] == '-' && eq[i+1] == '>' {
			lhs, rhs, explicit = eq[:i], eq[i+2:], true
			break
		}
	}
	labels := make([][]int, n)
	ellIn := false
	cur := 0
	for i := 0; i < len(lhs); i++ {
		switch b := lhs[i]; b {
		case ' ':
		case '.':
			if ellIn {
				return nil, c.Errorf("equation", "einsum(): found '.' for operand %d for which an ellipsis was already found", cur)
			}
			if !(i+2 < len(lhs) && lhs[i+1] == '.' && lhs[i+2] == '.') {
				return nil, c.Errorf("equation", "einsum(): found '.' for operand %d that is not part of any ellipsis", cur)
			}
			i += 2
			labels[cur] = append(labels[cur], einsumEllipsis)
			ellIn = true
		case ',':
			cur++
			if cur >= n {
				return nil, c.Errorf("equation", "einsum(): fewer operands were provided than specified in the equation")
			}
			ellIn = false
		default:
			s, ok := einsumLabel(b)
			if !ok {
				return nil, c.Errorf("equation", "einsum(): invalid subscript given at index %d in the equation string, subscripts must be in [a-zA-Z]", i)
			}
			labels[cur] = append(labels[cur], s)
		}
	}
	if cur != n-1 {
		return nil, c.Errorf("equation", "einsum(): more operands were provided than specified in the equation")
	}
	count := make([]int, 52)
	ellDims := 0
	for i, t := range operands {
		nl, hasEll := len(labels[i]), false
		for _, s := range labels[i] {
			if s == einsumEllipsis {
				nl--
				hasEll = true
			} else {
				count[s]++
			}
		}
		for _, s := range labels[i] {
			if s == einsumEllipsis {
				ellDims = max(ellDims, t.Dim()-nl)
			}
		}
		if hasEll && nl > t.Dim() || !hasEll && nl != t.Dim() {
			if hasEll {
				return nil, c.Errorf("tensors", "einsum(): the number of subscripts in the equation (%d) is more than the number of dimensions (%d) for operand %d", nl, t.Dim(), i)
			}
			return nil, c.Errorf("tensors", "einsum(): the number of subscripts in the equation (%d) does not match the number of dimensions (%d) for operand %d and no ellipsis was given", nl, t.Dim(), i)
		}
	}
	permIndex := make([]int, 52)
	for i := range permIndex {
		permIndex[i] = -1
	}
	pi, ellIndex, ellOut := 0, 0, false
	if !explicit {
		pi, ellOut = ellDims, true
		for s := range 52 {
			if count[s] == 1 {
				permIndex[s] = pi
				pi++
			}
		}
	} else {
		for i := 0; i < len(rhs); i++ {
			switch b := rhs[i]; b {
			case ' ':
			case '.':
				if ellOut {
					return nil, c.Errorf("equation", "einsum(): found '.' for output but an ellipsis (...) was already found")
				}
				if !(i+2 < len(rhs) && rhs[i+1] == '.' && rhs[i+2] == '.') {
					return nil, c.Errorf("equation", "einsum(): found '.' for output that is not part of any ellipsis (...)")
				}
				i += 2
				ellIndex = pi
				pi += ellDims
				ellOut = true
			default:
				s, ok := einsumLabel(b)
				if !ok {
					return nil, c.Errorf("equation", "einsum(): invalid subscript given at index %d in the equation string, subscripts must be in [a-zA-Z]", len(lhs)+2+i)
				}
				if count[s] == 0 || permIndex[s] != -1 {
					why := " does not appear in the equation for any input operand"
					if permIndex[s] != -1 {
						why = " appears more than once in the output"
					}
					return nil, c.Errorf("equation", "einsum(): output subscript %c%s", b, why)
				}
				permIndex[s] = pi
				pi++
			}
		}
	}
	outDims := pi
	if !ellOut {
		ellIndex = pi
		pi += ellDims
	}
	for s := range 52 {
		if count[s] > 0 && permIndex[s] == -1 {
			permIndex[s] = pi
			pi++
		}
	}
	p := &chain{c: c, arg: "tensors"}
	labelSize := make([]int, 52)
	for i := range labelSize {
		labelSize[i] = 1
	}
	ellSizes := make([]int, ellDims)
	for i := range ellSizes {
		ellSizes[i] = 1
	}
	dimCounts := make([]int, pi)
	ops := make([]*tensor.Tensor, 0, n)
	for i, t := range operands {
		op := t
		perm := make([]int, pi)
		for j := range perm {
			perm[j] = -1
		}
		dim := 0
		for _, s := range labels[i] {
			switch {
			case s == einsumEllipsis:
				nd := t.Dim() - (len(labels[i]) - 1)
				for j := ellDims - nd; j < ellDims; j++ {
					if sz := op.Size(dim); sz != 1 {
						if ellSizes[j] != 1 && ellSizes[j] != sz {
							return nil, c.Errorf("tensors", "einsum(): dimension %d covered by ellipsis in operand %dhas size %d which does not broadcast with previously seen ellipsis with size %d for the respective dimension", dim, i, sz, ellSizes[j])
						}
						ellSizes[j] = sz
						dimCounts[ellIndex+j]++
					}
					perm[ellIndex+j] = dim
					dim++
				}
			case perm[permIndex[s]] == -1:
				if sz := op.Size(dim); sz != 1 {
					if labelSize[s] != 1 && labelSize[s] != sz {
						return nil, c.Errorf("tensors", "einsum(): subscript %c has size %d for operand %d which does not broadcast with previously seen size %d", einsumLetter(s), sz, i, labelSize[s])
					}
					labelSize[s] = sz
					dimCounts[permIndex[s]]++
				}
				perm[permIndex[s]] = dim
				dim++
			default:
				prev := perm[permIndex[s]]
				if op.Size(dim) != op.Size(prev) {
					return nil, c.Errorf("tensors", "einsum(): subscript %c is repeated for operand %d but the sizes don't match, %d != %d", einsumLetter(s), i, op.Size(dim), op.Size(prev))
				}
				op = p.call("aten::diagonal", op, int64(0), int64(prev), int64(dim))
				op = p.call("aten::movedim.int", op, int64(-1), int64(prev))
				if p.err != nil {
					return nil, p.err
				}
			}
		}
		for j := range perm {
			if perm[j] == -1 {
				op = p.call("aten::unsqueeze", op, int64(dim))
				perm[j] = dim
				dim++
			}
		}
		op = p.call("aten::permute", op, intsToInt64(perm))
		if p.err != nil {
			return nil, p.err
		}
		ops = append(ops, op)
	}
	step := 0
	for len(ops) > 1 {
		i, j := 0, 1
		if hasPath {
			i, j = int(path[step]), int(path[step+1])
			step += 2
			if j < i {
				i, j = j, i
			}
			if i == j || i < 0 || j >= len(ops) {
				why := ") operand index is out of bounds"
				if i == j {
					why = ") cannot contract an operand with itself"
				}
				return nil, c.Errorf("path", "einsum(): invalid contraction (%d, %d%s", i, j, why)
			}
		}
		a, b := ops[i], ops[j]
		ops = append(ops[:j], ops[j+1:]...)
		ops = append(ops[:i], ops[i+1:]...)
		var sumDims, aSum, bSum []int64
		for d := outDims; d < pi; d++ {
			switch {
			case a.Size(d) != 1 && b.Size(d) != 1:
				dimCounts[d]--
				if dimCounts[d] == 1 {
					sumDims = append(sumDims, int64(d))
					dimCounts[d] = 0
				}
			case dimCounts[d] == 1:
				if a.Size(d) != 1 {
					aSum = append(aSum, int64(d))
					dimCounts[d] = 0
				} else if b.Size(d) != 1 {
					bSum = append(bSum, int64(d))
					dimCounts[d] = 0
				}
			}
		}
		if len(aSum) > 0 {
			a = p.call("aten::sum.dim_IntList", a, aSum, true)
		}
		if len(bSum) > 0 {
			b = p.call("aten::sum.dim_IntList", b, bSum, true)
		}
		if p.err != nil {
			return nil, p.err
		}
		r, err := sumproductPair(p, a, b, sumDims)
		if err != nil {
			return nil, err
		}
		if hasPath {
			ops = append(ops, r)
		} else {
			ops = append([]*tensor.Tensor{r}, ops...)
		}
	}
	res := ops[0]
	if pi > outDims {
		if n > 1 {
			return p.result(p.call("aten::reshape", res, intsToInt64(res.Shape()[:outDims])))
		}
		sum := make([]int64, 0, pi-outDims)
		for d := outDims; d < pi; d++ {
			sum = append(sum, int64(d))
		}
		return p.result(p.call("aten::sum.dim_IntList", res, sum))
	}
	return p.result(res)
}

// sumproductPair is ATen's sumproduct_pair with keepdim: the product of
// left and right (of one rank, broadcasting) summed over sumDims, as one
// bmm of [lro, lo, sum] by [lro, sum, ro] (lro: the dimensions of both,
// lo and ro of one only), the summed dimensions kept as size 1.
func sumproductPair(p *chain, left, right *tensor.Tensor, sumDims []int64) (*tensor.Tensor, error) {
	if left.Dim() != right.Dim() {
		return nil, p.c.Errorf("tensors", "number of dimensions must match")
	}
	if len(sumDims) == 0 {
		out := p.call("aten::mul.Tensor", left, right)
		return out, p.err
	}
	dim := left.Dim()
	isSum := make([]bool, dim)
	for _, d := range sumDims {
		isSum[d] = true
	}
	var lro, lo, ro []int
	lroSize, loSize, roSize, sumSize := 1, 1, 1, 1
	for i := range dim {
		sl, sr := left.Size(i) != 1, right.Size(i) != 1
		switch {
		case isSum[i]:
			switch {
			case sl && sr:
				if left.Size(i) != right.Size(i) {
					return nil, p.c.Errorf("tensors", "non-broadcast dimensions must match")
				}
				sumSize *= left.Size(i)
			case sl:
				left = p.call("aten::sum.dim_IntList", left, []int64{int64(i)}, true)
			case sr:
				right = p.call("aten::sum.dim_IntList", right, []int64{int64(i)}, true)
			}
			if p.err != nil {
				return nil, p.err
			}
		case sl && sr:
			if left.Size(i) != right.Size(i) {
				return nil, p.c.Errorf("tensors", "non-broadcast dimensions must match")
			}
			lro = append(lro, i)
			lroSize *= left.Size(i)
		case sl:
			lo = append(lo, i)
			loSize *= left.Size(i)
		default:
			ro = append(ro, i)
			roSize *= right.Size(i)
		}
	}
	var outSize []int64
	for _, d := range lro {
		outSize = append(outSize, int64(left.Size(d)))
	}
	for _, d := range lo {
		outSize = append(outSize, int64(left.Size(d)))
	}
	for range sumDims {
		outSize = append(outSize, 1)
	}
	for _, d := range ro {
		outSize = append(outSize, int64(right.Size(d)))
	}
	cat := func(parts ...[]int) []int64 {
		var out []int64
		for _, part := range parts {
			for _, d := range part {
				out = append(out, int64(d))
			}
		}
		return out
	}
	sd := make([]int, len(sumDims))
	for i, d := range sumDims {
		sd[i] = int(d)
	}
	lperm := cat(lro, lo, sd, ro)
	rperm := cat(lro, sd, ro, lo)
	operm := make([]int, len(outSize))
	k := 0
	for _, part := range [][]int{lro, lo, sd, ro} {
		for _, d := range part {
			operm[d] = k
			k++
		}
	}
	l := p.call("aten::reshape", p.call("aten::permute", left, lperm), []int64{int64(lroSize), int64(loSize), int64(sumSize)})
	r := p.call("aten::reshape", p.call("aten::permute", right, rperm), []int64{int64(lroSize), int64(sumSize), int64(roSize)})
	res := p.call("aten::bmm", l, r)
	res = p.call("aten::permute", p.call("aten::view", res, outSize), intsToInt64(operm))
	return res, p.err
}

// tensordot is aten::tensordot: the contraction of self's dims_self with
// other's dims_other as one mm, broadcast (size-1) dimensions summed
// first.
func tensordot(c *ops.Call) ([]any, error) {
	a, b := c.Tensor("self"), c.Tensor("other")
	d1, d2 := c.Ints("dims_self"), c.Ints("dims_other")
	if len(d1) != len(d2) {
		return nil, c.Errorf("dims_other", "both dimension lists should have same length")
	}
	if a.DType() != b.DType() {
		return nil, c.Errorf("other", "both inputs should have same dtype")
	}
	return tensordotDims(c, a, b, d1, d2)
}

// tensordotDims is tensordot over dimension lists d1 of a and d2 of b.
func tensordotDims(c *ops.Call, a, b *tensor.Tensor, d1, d2 []int64) ([]any, error) {
	p := &chain{c: c, arg: "other"}
	t1, t2 := a, b
	csize := 1
	m1, err := dimMask(c, "dims_self", d1, a.Dim())
	if err != nil && len(d1) > 0 {
		return nil, err
	}
	m2, err := dimMask(c, "dims_other", d2, b.Dim())
	if err != nil && len(d2) > 0 {
		return nil, err
	}
	w1, w2 := make([]int64, len(d1)), make([]int64, len(d2))
	for i := range d1 {
		x, _ := wrapReduceDim(c, "dims_self", d1[i], a.Dim())
		y, _ := wrapReduceDim(c, "dims_other", d2[i], b.Dim())
		w1[i], w2[i] = int64(x), int64(y)
		s1, s2 := a.Size(x), b.Size(y)
		switch {
		case s2 == 1:
			t1 = p.call("aten::sum.dim_IntList", t1, []int64{int64(x)}, true)
		case s1 == 1:
			t2 = p.call("aten::sum.dim_IntList", t2, []int64{int64(y)}, true)
		default:
			if s1 != s2 {
				return nil, c.Errorf("other", "contracted dimensions need to match, but first has size %d in dim %d and second has size %d in dim %d", s1, d1[i], s2, d2[i])
			}
			csize *= s1
		}
		if p.err != nil {
			return nil, p.err
		}
	}
	if len(d1) == 0 {
		m1, m2 = make([]bool, a.Dim()), make([]bool, b.Dim())
	}
	var p1, p2, rsizes []int64
	size1, size2 := 1, 1
	for i := range a.Dim() {
		if !m1[i] {
			p1 = append(p1, int64(i))
			size1 *= t1.Size(i)
			rsizes = append(rsizes, int64(t1.Size(i)))
		}
	}
	p1 = append(p1, w1...)
	p2 = append(p2, w2...)
	for i := range b.Dim() {
		if !m2[i] {
			p2 = append(p2, int64(i))
			size2 *= t2.Size(i)
			rsizes = append(rsizes, int64(t2.Size(i)))
		}
	}
	if p1 == nil {
		p1 = []int64{}
	}
	if p2 == nil {
		p2 = []int64{}
	}
	if rsizes == nil {
		rsizes = []int64{}
	}
	t1 = p.call("aten::reshape", p.call("aten::permute", t1, p1), []int64{int64(size1), int64(csize)})
	t2 = p.call("aten::reshape", p.call("aten::permute", t2, p2), []int64{int64(csize), int64(size2)})
	return p.result(p.call("aten::reshape", p.call("aten::mm", t1, t2), rsizes))
}

// inner is aten::inner: self * other when either is 0-d, else tensordot
// over both last dimensions.
func inner(c *ops.Call) ([]any, error) {
	a, b := c.Tensor("self"), c.Tensor("other")
	if a.Dim() == 0 || b.Dim() == 0 {
		return delegate(c, "aten::mul.Tensor", []any{a, b}, nil)
	}
	if a.Size(-1) != b.Size(-1) {
		return nil, c.Errorf("other", "inner() the last dimension must match on both input tensors but got shapes %s and %s", shapeString(a.Shape()), shapeString(b.Shape()))
	}
	if a.DType() != b.DType() {
		return nil, c.Errorf("other", "both inputs should have same dtype")
	}
	return tensordotDims(c, a, b, []int64{-1}, []int64{-1})
}

// addmv is aten::addmv: beta*self + alpha*(mat @ vec), self ignored when
// beta is 0.
func addmv(c *ops.Call) ([]any, error) {
	self, m, v := c.Tensor("self"), c.Tensor("mat"), c.Tensor("vec")
	beta, alpha := c.Scalar("beta"), c.Scalar("alpha")
	if m.Dim() != 2 || v.Dim() != 1 || self.Dim() > 1 {
		return nil, c.Errorf("vec", "vector + matrix @ vector expected, got %d, %d, %d", self.Dim(), m.Dim(), v.Dim())
	}
	if m.Size(1) != v.Size(0) || self.Dim() == 1 && self.Size(0) != m.Size(0) && self.Size(0) != 1 {
		ss := 1
		if self.Dim() == 1 {
			ss = self.Size(0)
		}
		return nil, c.Errorf("vec", "size mismatch, got input (%d), mat (%dx%d), vec (%d)", ss, m.Size(0), m.Size(1), v.Size(0))
	}
	p := &chain{c: c, arg: "vec"}
	prod := p.call("aten::mv", m, v)
	if alpha.Float() != 1 || alpha.IsFloat() {
		prod = p.call("aten::mul.Scalar", prod, alpha)
	}
	if beta.Float() == 0 {
		return p.result(prod)
	}
	bias := p.call("aten::expand", self, []int64{int64(m.Size(0))})
	if beta.Float() != 1 || beta.IsFloat() {
		bias = p.call("aten::mul.Scalar", bias, beta)
	}
	return p.result(p.call("aten::add.Tensor", bias, prod))
}

// addr is aten::addr: beta*self + alpha*vec1[i]*vec2[j] in the promoted
// dtype, self ignored when beta is 0; for bool, (beta && self) ||
// (alpha && vec1 && vec2).
func addr(c *ops.Call) ([]any, error) {
	self, v1, v2 := c.Tensor("self"), c.Tensor("vec1"), c.Tensor("vec2")
	if v1.Dim() != 1 {
		return nil, c.Errorf("vec1", "addr: Expected 1-D argument vec1, but got %d-D", v1.Dim())
	}
	if v2.Dim() != 1 {
		return nil, c.Errorf("vec2", "addr: Expected 1-D argument vec2, but got %d-D", v2.Dim())
	}
	dt, err := ops.ResultType(self, v1, v2)
	if err != nil {
		return nil, c.Errorf("self", "%v", err)
	}
	shape := []int{v1.Size(0), v2.Size(0)}
	if _, err := ops.BroadcastShapes(self.Shape(), shape); err != nil || len(self.Shape()) > 2 {
		return nil, c.Errorf("self", "The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension 1.  Target sizes: %s.  Tensor sizes: %s", shape[1], self.Size(-1), shapeString(shape), shapeString(self.Shape()))
	}
	beta, alpha := scalarArg(c, "beta"), scalarArg(c, "alpha")
	if !dt.IsFloat() && dt != tensor.Bool {
		if beta.IsFloat() {
			return nil, c.Errorf("beta", "For integral input tensors, argument beta must not be a floating point number.")
		}
		if alpha.IsFloat() {
			return nil, c.Errorf("alpha", "For integral input tensors, argument alpha must not be a floating point number.")
		}
	}
	if meta(self, v1, v2) {
		return oneOrErr(tensor.NewMeta(dt, shape...))
	}
	a := tensor.Must(to(v1, dt).Reshape(shape[0], 1))
	b := tensor.Must(to(v2, dt).Reshape(1, shape[1]))
	s := to(self, dt)
	r := rounder(computeType(dt))
	bf, af := roundTo(computeType(dt), beta.Float()), roundTo(computeType(dt), alpha.Float())
	bi, ai := beta.Int(), alpha.Int()
	if dt == tensor.Bool {
		return one(map3(s, a, b, shape, dt, nil, func(x, y, z int64) int64 {
			return b2i(bi != 0 && x != 0 || ai != 0 && y != 0 && z != 0)
		})), nil
	}
	return one(map3(s, a, b, shape, dt, func(x, y, z float64) float64 {
		if bf == 0 {
			return r(r(af*y) * z)
		}
		return r(r(bf*x) + r(r(af*y)*z))
	}, func(x, y, z int64) int64 {
		if bi == 0 {
			return ai * y * z
		}
		return bi*x + ai*y*z
	})), nil
}

// linalgCross is aten::linalg_cross: the cross product of 3-vectors
// along dim, batch dimensions broadcast.
func linalgCross(c *ops.Call) ([]any, error) {
	return crossAlong(c, c.Int("dim"))
}

// cross is aten::cross: linalg_cross along dim, or (None) the first
// dimension of size 3.
func cross(c *ops.Call) ([]any, error) {
	if d, ok := c.OptInt("dim"); ok {
		return crossAlong(c, d)
	}
	self := c.Tensor("self")
	for i, s := range self.Shape() {
		if s == 3 {
			return crossAlong(c, int64(i))
		}
	}
	return nil, c.Errorf("self", "no dimension of size 3 in input")
}

// crossAlong is the cross product of self and other along dim.
func crossAlong(c *ops.Call, d int64) ([]any, error) {
	a, b := c.Tensor("self"), c.Tensor("other")
	if a.Dim() != b.Dim() {
		return nil, c.Errorf("other", "linalg.cross: inputs must have the same number of dimensions.")
	}
	dim, err := wrapReduceDim(c, "dim", d, a.Dim())
	if err != nil {
		return nil, err
	}
	if a.Size(dim) != 3 || b.Size(dim) != 3 {
		return nil, c.Errorf("other", "linalg.cross: inputs dimension %d must have length 3. Got %d and %d", d, a.Size(dim), b.Size(dim))
	}
	shape, err := ops.BroadcastShapes(a.Shape(), b.Shape())
	if err != nil {
		return nil, c.Errorf("other", "%v", err)
	}
	dt := ops.PromoteTypes(a.DType(), b.DType())
	if meta(a, b) {
		return oneOrErr(tensor.NewMeta(dt, shape...))
	}
	if dt == tensor.Bool {
		return nil, notImplemented(c, "self", "linalg_cross", dt)
	}
	av := expandedTensor(to(a, dt), shape).Contiguous()
	bv := expandedTensor(to(b, dt), shape).Contiguous()
	stride := 1
	for _, s := range shape[dim+1:] {
		stride *= s
	}
	total := product(shape)
	ct := computeType(dt)
	r := rounder(ct)
	if dt.IsFloat() {
		x, y := av.Float64s(), bv.Float64s()
		out := make([]float64, total)
		crossLoop(total, stride, func(i0, i1, i2 int) {
			out[i0] = r(r(x[i1]*y[i2]) - r(x[i2]*y[i1]))
			out[i1] = r(r(x[i2]*y[i0]) - r(x[i0]*y[i2]))
			out[i2] = r(r(x[i0]*y[i1]) - r(x[i1]*y[i0]))
		})
		return oneOrErr(tensor.FromFloat64s(dt, out, shape...))
	}
	x, y := av.Int64s(), bv.Int64s()
	out := make([]int64, total)
	crossLoop(total, stride, func(i0, i1, i2 int) {
		out[i0] = x[i1]*y[i2] - x[i2]*y[i1]
		out[i1] = x[i2]*y[i0] - x[i0]*y[i2]
		out[i2] = x[i0]*y[i1] - x[i1]*y[i0]
	})
	return oneOrErr(tensor.FromInt64s(dt, out, shape...))
}

// crossLoop calls f with the flat indices of the three components of
// every 3-vector of a contiguous tensor of total elements whose vector
// dimension has the given stride.
func crossLoop(total, stride int, f func(i0, i1, i2 int)) {
	if total == 0 {
		return
	}
	block := 3 * stride
	for base := 0; base < total; base += block {
		for k := range stride {
			i0 := base + k
			f(i0, i0+stride, i0+2*stride)
		}
	}
}

// linalgMultiDot is aten::linalg_multi_dot: the product of a chain of
// matrices (the first may be a row and the last a column vector) in the
// parenthesization of least cost.
func linalgMultiDot(c *ops.Call) ([]any, error) {
	return multiDot(c, "multi_dot(): ", c.Tensors("tensors"))
}

// chainMatmul is aten::chain_matmul: linalg_multi_dot of 2-d matrices (a
// copy of a single one).
func chainMatmul(c *ops.Call) ([]any, error) {
	ms := c.Tensors("matrices")
	if len(ms) == 0 {
		return nil, c.Errorf("matrices", "chain_matmul(): Expected one or more matrices")
	}
	for i, m := range ms {
		if m.Dim() != 2 {
			return nil, c.Errorf("matrices", "Tensor dimension is %d, expected 2 instead. (tensor %d)", m.Dim(), i)
		}
	}
	if len(ms) == 1 {
		return delegate(c, "aten::clone", []any{ms[0]}, nil)
	}
	return multiDot(c, "multi_dot(): ", ms)
}

// multiDot is ATen's multi_dot_impl.
func multiDot(c *ops.Call, pre string, ts []*tensor.Tensor) ([]any, error) {
	n := len(ts)
	arg := "tensors"
	if hasArg(c, "matrices") {
		arg = "matrices"
	}
	if n < 2 {
		return nil, c.Errorf(arg, "%sexpected at least 2 tensors but got %d", pre, n)
	}
	first, last := ts[0].Dim(), ts[n-1].Dim()
	if first != 1 && first != 2 {
		return nil, c.Errorf(arg, "%sthe first tensor must be 1D or 2D but got %dD", pre, first)
	}
	if last != 1 && last != 2 {
		return nil, c.Errorf(arg, "%sthe last tensor must be 1D or 2D but got %dD", pre, last)
	}
	for i := 1; i < n-1; i++ {
		if ts[i].Dim() != 2 {
			return nil, c.Errorf(arg, "%stensor %d must be 2D but got %dD", pre, i, ts[i].Dim())
		}
	}
	dt := ts[0].DType()
	for i := 1; i < n; i++ {
		if ts[i].DType() != dt {
			return nil, c.Errorf(arg, "%sall tensors must have be the same dtype but tensor 0 is %s and tensor %d is %s", pre, scalarTypeName(dt), i, scalarTypeName(ts[i].DType()))
		}
	}
	p := &chain{c: c, arg: arg}
	ms := append([]*tensor.Tensor(nil), ts...)
	if first == 1 {
		ms[0] = p.call("aten::unsqueeze", ms[0], int64(0))
	}
	if last == 1 {
		ms[n-1] = p.call("aten::unsqueeze", ms[n-1], int64(-1))
	}
	if p.err != nil {
		return nil, p.err
	}
	for i := 0; i+1 < n; i++ {
		if ms[i].Size(1) != ms[i+1].Size(0) {
			return nil, c.Errorf(arg, "%stensors %d and %d with shapes %s and %s cannot be multiplied", pre, i, i+1, shapeString(ts[i].Shape()), shapeString(ts[i+1].Shape()))
		}
	}
	var res *tensor.Tensor
	switch n {
	case 2:
		res = p.call("aten::mm", ms[0], ms[1])
	case 3:
		a, b, cc, d := ms[0].Size(0), ms[1].Size(0), ms[2].Size(0), ms[2].Size(1)
		if (a*cc)*(b+d) > (b*d)*(a+cc) {
			res = p.call("aten::mm", ms[0], p.call("aten::mm", ms[1], ms[2]))
		} else {
			res = p.call("aten::mm", p.call("aten::mm", ms[0], ms[1]), ms[2])
		}
	default:
		order := matrixChainOrder(ms)
		var mul func(i, j int) *tensor.Tensor
		mul = func(i, j int) *tensor.Tensor {
			if i == j {
				return ms[i]
			}
			return p.call("aten::mm", mul(i, order[i][j]), mul(order[i][j]+1, j))
		}
		res = mul(0, n-1)
	}
	switch {
	case first == 1 && last == 1:
		res = p.call("aten::view", res, []int64{})
	case first == 1:
		res = p.call("aten::squeeze.dim", res, int64(0))
	case last == 1:
		res = p.call("aten::squeeze.dim", res, int64(-1))
	}
	return p.result(res)
}

// matrixChainOrder is the dynamic program of the matrix chain problem:
// s[i][j] is where to split the product of matrices i..j.
func matrixChainOrder(ms []*tensor.Tensor) [][]int {
	n := len(ms)
	dims := make([]int, n+1)
	for i, m := range ms {
		dims[i] = m.Size(0)
	}
	dims[n] = ms[n-1].Size(1)
	cost := make([][]int, n)
	split := make([][]int, n)
	for i := range cost {
		cost[i] = make([]int, n)
		split[i] = make([]int, n)
	}
	for l := 1; l < n; l++ {
		for i := 0; i < n-l; i++ {
			j := i + l
			cost[i][j] = math.MaxInt
			for k := i; k < j; k++ {
				q := cost[i][k] + cost[k+1][j] + dims[i]*dims[k+1]*dims[j+1]
				if q < cost[i][j] {
					cost[i][j], split[i][j] = q, k
				}
			}
		}
	}
	return split
}

// matrixPower is aten::linalg_matrix_power and aten::matrix_power: the
// identity for n = 0, a copy for 1, the inverse for -1, and otherwise
// powers of (for negative n, the inverse of) self by binary
// decomposition, as ATen multiplies them.
func matrixPower(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	n := c.Int("n")
	if self.Dim() < 2 {
		return nil, c.Errorf("self", "linalg.matrix_power: The input tensor A must have at least 2 dimensions.")
	}
	if self.Size(-1) != self.Size(-2) {
		return nil, c.Errorf("self", "linalg.matrix_power: A must be batches of square matrices, but they are %d by %d matrices", self.Size(-2), self.Size(-1))
	}
	p := &chain{c: c, arg: "self"}
	switch n {
	case 0:
		if self.IsMeta() {
			return oneOrErr(tensor.NewMeta(self.DType(), self.Shape()...))
		}
		eye := p.callKw("aten::eye", map[string]any{"dtype": self.DType()}, int64(self.Size(-1)))
		return p.result(p.call("aten::clone", p.call("aten::expand", eye, intsToInt64(self.Shape()))))
	case 1:
		return p.result(p.call("aten::clone", self))
	case -1:
		return p.result(p.call("aten::linalg_inv", self))
	}
	a := self
	if n < 0 {
		a = p.call("aten::linalg_inv", self)
		n = -n
	}
	switch n {
	case 2:
		return p.result(p.call("aten::matmul", a, a))
	case 3:
		return p.result(p.call("aten::matmul", p.call("aten::matmul", a, a), a))
	}
	var z, res *tensor.Tensor
	for n > 0 {
		bit := n % 2
		n /= 2
		if z == nil {
			z = a
		} else {
			z = p.call("aten::matmul", z, z)
		}
		if bit == 1 {
			if res == nil {
				res = z
			} else {
				res = p.call("aten::matmul", res, z)
			}
		}
		if p.err != nil {
			return nil, p.err
		}
	}
	return p.result(res)
}

// linalgVecdot is aten::linalg_vecdot: the sum over dim of x·y.
func linalgVecdot(c *ops.Call) ([]any, error) {
	x, y := c.Tensor("x"), c.Tensor("y")
	if !x.DType().IsFloat() {
		return nil, c.Errorf("x", "linalg.vecdot: Expected a floating point or complex tensor as input. Got %s", scalarTypeName(x.DType()))
	}
	if x.DType() != y.DType() {
		return nil, c.Errorf("y", "linalg.vecdot: Expected x and y to have the same dtype, but found x of type %s and y of type %s instead", scalarTypeName(x.DType()), scalarTypeName(y.DType()))
	}
	p := &chain{c: c, arg: "y"}
	return p.result(p.call("aten::sum.dim_IntList", p.call("aten::mul.Tensor", x, y), []int64{c.Int("dim")}))
}

// trilinear is aten::_trilinear: (i1.unsqueeze(expand1) *
// i2.unsqueeze(expand2) * i3.unsqueeze(expand3)).sum(sumdim), computed as
// ATen does, slice by slice along unroll_dim through sumproduct_pair.
func trilinear(c *ops.Call) ([]any, error) {
	i1, i2, i3 := c.Tensor("i1"), c.Tensor("i2"), c.Tensor("i3")
	e1, e2, e3, sd := c.Ints("expand1"), c.Ints("expand2"), c.Ints("expand3"), c.Ints("sumdim")
	unroll := int(c.Int("unroll_dim"))
	total := i1.Dim() + len(e1)
	if unroll < 0 || unroll >= total {
		return nil, c.Errorf("unroll_dim", "unroll_dim must be in [0,%d]", total-1)
	}
	bits := func(arg string, d []int64) ([]bool, error) {
		m := make([]bool, total)
		for _, x := range d {
			w, err := wrapReduceDim(c, arg, x, total)
			if err != nil {
				return nil, err
			}
			m[w] = true
		}
		return m, nil
	}
	x1, err := bits("expand1", e1)
	if err != nil {
		return nil, err
	}
	x2, err := bits("expand2", e2)
	if err != nil {
		return nil, err
	}
	x3, err := bits("expand3", e3)
	if err != nil {
		return nil, err
	}
	sum, err := bits("sumdim", sd)
	if err != nil {
		return nil, err
	}
	p := &chain{c: c, arg: "i1"}
	var outSize []int64
	var sum12, sum23 []int64
	unrollSize := -1
	for i := range total {
		s := 0
		if x1[i] {
			i1 = p.call("aten::unsqueeze", i1, int64(i))
		} else {
			s = i1.Size(i)
		}
		if x2[i] {
			i2 = p.call("aten::unsqueeze", i2, int64(i))
		} else {
			s = i2.Size(i)
		}
		if x3[i] {
			i3 = p.call("aten::unsqueeze", i3, int64(i))
			if sum[i] && i != unroll {
				sum12 = append(sum12, int64(i))
			}
		} else {
			s = i3.Size(i)
			if sum[i] && i != unroll {
				sum23 = append(sum23, int64(i))
			}
		}
		if p.err != nil {
			return nil, p.err
		}
		if sum[i] {
			outSize = append(outSize, 1)
		} else {
			outSize = append(outSize, int64(s))
		}
		if i == unroll {
			unrollSize = s
		}
	}
	mul := func(e []bool) int64 {
		if e[unroll] {
			return 0
		}
		return 1
	}
	m1, m2, m3 := mul(x1), mul(x2), mul(x3)
	out := p.callKw("aten::zeros", map[string]any{"dtype": i1.DType()}, outSize)
	if out != nil && i1.IsMeta() {
		out = tensor.Must(tensor.NewMeta(i1.DType(), ints(outSize)...))
	}
	if i1.Numel() != 0 && i2.Numel() != 0 && i3.Numel() != 0 && !meta(i1, i2, i3) {
		for k := range unrollSize {
			a := p.call("aten::narrow", i1, int64(unroll), int64(k)*m1, int64(1))
			b := p.call("aten::narrow", i2, int64(unroll), int64(k)*m2, int64(1))
			cc := p.call("aten::narrow", i3, int64(unroll), int64(k)*m3, int64(1))
			if p.err != nil {
				return nil, p.err
			}
			buf, err := sumproductPair(p, a, b, sum12)
			if err != nil {
				return nil, err
			}
			buf, err = sumproductPair(p, buf, cc, sum23)
			if err != nil {
				return nil, err
			}
			if !sum[unroll] {
				sl := p.call("aten::slice.Tensor", out, int64(unroll), int64(k), int64(k+1))
				out = p.call("aten::slice_scatter", out, p.call("aten::add.Tensor", sl, buf), int64(unroll), int64(k), int64(k+1))
			} else {
				out = p.call("aten::add.Tensor", out, buf)
			}
		}
	}
	var dims []int64
	for i := total - 1; i >= 0; i-- {
		if sum[i] {
			dims = append(dims, int64(i))
		}
	}
	for _, d := range dims {
		out = p.call("aten::squeeze.dim", out, d)
	}
	return p.result(out)
}

// bilinear is aten::bilinear: input1ᵀ·weight·input2 (+ bias) over the last
// dimensions, through _trilinear as ATen computes it.
func bilinear(c *ops.Call) ([]any, error) {
	x1, x2, w := c.Tensor("input1"), c.Tensor("input2"), c.Tensor("weight")
	if x1.Dim() != x2.Dim() {
		return nil, c.Errorf("input2", "bilinear(): input dimensions do not match: got %d and %d", x1.Dim(), x2.Dim())
	}
	if x1.Dim() == 0 || w.Dim() != 3 {
		return nil, c.Errorf("weight", "bilinear(): expected 1-d or higher inputs and a 3-d weight, got %dD inputs and a %dD weight", x1.Dim(), w.Dim())
	}
	for i := 0; i < x1.Dim()-1; i++ {
		if x1.Size(i) != x2.Size(i) {
			return nil, c.Errorf("input2", "bilinear(): input batch dimensions do not match at dim %d: got %d and %d", i, x1.Size(i), x2.Size(i))
		}
	}
	if x1.Size(-1) != w.Size(1) {
		return nil, c.Errorf("weight", "bilinear(): input1 size does not match weight size: got %d but expected %d", x1.Size(-1), w.Size(1))
	}
	if x2.Size(-1) != w.Size(2) {
		return nil, c.Errorf("weight", "bilinear(): input2 size does not match weight size: got %d but expected %d", x2.Size(-1), w.Size(2))
	}
	var bias *tensor.Tensor
	if !c.IsNone("bias") {
		bias = c.Tensor("bias")
		if bias.Dim() == 0 || bias.Size(0) != w.Size(0) {
			return nil, c.Errorf("bias", "bilinear(): bias size does not match weight size: got %d but expected %d", bias.Numel(), w.Size(0))
		}
	}
	outShape := intsToInt64(x1.Shape()[:x1.Dim()-1])
	outShape = append(outShape, int64(w.Size(0)))
	p := &chain{c: c, arg: "input1"}
	f1 := p.call("aten::reshape", x1, []int64{-1, int64(x1.Size(-1))})
	f2 := p.call("aten::reshape", x2, []int64{-1, int64(x2.Size(-1))})
	out := p.call("aten::_trilinear", f1, w, f2, []int64{1, 3}, []int64{0}, []int64{1, 2}, []int64{2, 3}, int64(1))
	out = p.call("aten::reshape", out, outShape)
	if bias != nil {
		out = p.call("aten::add.Tensor", out, bias)
	}
	return p.result(out)
}
