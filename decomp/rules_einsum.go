package decomp

import (
	"slices"
	"strings"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/ops/aten"
)

// einsum is ATen's einsum (Linear.cpp), which PyTorch 2.6's export traces
// for the CompositeImplicitAutograd einsum: each operand's repeated labels
// become diagonals, missing labels size-1 dims, and a permute puts its dims
// in one order (the output's, the ellipsis where the output has it, then
// the contracted labels); operands are then contracted two at a time (left
// to right, or in the order of path) by sumproduct_pair, which permutes
// and reshapes both to batched matrices and multiplies them with bmm;
// dims that only one operand still has are summed first. A single operand
// is summed over its contracted dims; an operand with a zero-sized dim
// makes the result zeros.

var opEinsum = nn.Op("aten::einsum")

// einsumLabel maps a label letter to ATen's label order: 'A'..'Z' then
// 'a'..'z'; -1 for any other character.
func einsumLabel(c byte) int {
	switch {
	case 'A' <= c && c <= 'Z':
		return int(c - 'A')
	case 'a' <= c && c <= 'z':
		return 26 + int(c-'a')
	}
	return -1
}

const einsumEllipsis = -2

// parseEinsumTerm parses one operand or output term into labels, with
// einsumEllipsis for "...".
func parseEinsumTerm(term string) []int {
	var out []int
	for i := 0; i < len(term); i++ {
		c := term[i]
		switch {
		case c == '.':
			if !strings.HasPrefix(term[i:], "...") || slices.Contains(out, einsumEllipsis) {
				fail("einsum(): found '.' for operand that is not part of any ellipsis")
			}
			out = append(out, einsumEllipsis)
			i += 2
		case einsumLabel(c) >= 0:
			out = append(out, einsumLabel(c))
		default:
			fail("einsum(): invalid subscript given at index %d in the equation string, subscripts must be in [a-zA-Z]", i)
		}
	}
	return out
}

func einsumRule(a []nn.Value) nn.Value {
	eqStr, ok := a[0].Raw().(string)
	if !ok {
		fail("einsum(): expected the equation as a string, got %s", a[0].Kind())
	}
	eq := strings.ReplaceAll(eqStr, " ", "")
	operands := a[1].Tuple()
	lhs, rhs, explicit := strings.Cut(eq, "->")
	terms := strings.Split(lhs, ",")
	if len(terms) != len(operands) {
		fail("einsum(): more operands were provided than specified in the equation")
	}
	const total = 52
	labels := make([][]int, len(terms))
	count := make([]int, total)
	ellDims := 0
	for i, term := range terms {
		labels[i] = parseEinsumTerm(term)
		n := ndim(operands[i])
		nl := len(labels[i])
		if slices.Contains(labels[i], einsumEllipsis) {
			nl--
			if n < nl {
				fail("einsum(): the number of subscripts in the equation (%d) is more than the number of dimensions (%d) for operand %d", nl, n, i)
			}
			ellDims = max(ellDims, n-nl)
		} else if n != nl {
			fail("einsum(): the number of subscripts in the equation (%d) does not match the number of dimensions (%d) for operand %d and no ellipsis was given", nl, n, i)
		}
		for _, l := range labels[i] {
			if l >= 0 {
				count[l]++
			}
		}
	}
	permIndex := make([]int, total)
	for i := range permIndex {
		permIndex[i] = -1
	}
	perm, ellIndex, hasEll := 0, 0, false
	if !explicit {
		perm = ellDims
		hasEll = true
		for l := range total {
			if count[l] == 1 {
				permIndex[l] = perm
				perm++
			}
		}
	} else {
		for _, l := range parseEinsumTerm(rhs) {
			if l == einsumEllipsis {
				ellIndex, hasEll = perm, true
				perm += ellDims
				continue
			}
			if count[l] == 0 {
				fail("einsum(): output subscript %c does not appear in the equation for any input operand", labelChar(l))
			}
			if permIndex[l] != -1 {
				fail("einsum(): output subscript %c appears more than once in the output", labelChar(l))
			}
			permIndex[l] = perm
			perm++
		}
	}
	outDims := perm
	if !hasEll {
		ellIndex = perm
		perm += ellDims
	}
	for l := range total {
		if count[l] > 0 && permIndex[l] == -1 {
			permIndex[l] = perm
			perm++
		}
	}

	// Align every operand to the perm dims.
	dimCounts := make([]int, perm)
	sizes := make([]int64, perm)
	zero := false
	ops := make([]nn.Value, len(operands))
	for i, x := range operands {
		p := make([]int, perm)
		for j := range p {
			p[j] = -1
		}
		dim := 0
		for _, l := range labels[i] {
			sh := shapeOf(x)
			switch {
			case l == einsumEllipsis:
				covered := ndim(operands[i]) - (len(labels[i]) - 1)
				for j := ellDims - covered; j < ellDims; j++ {
					if s := sh[dim].Int(); s != 1 {
						sizes[ellIndex+j] = s
						dimCounts[ellIndex+j]++
					}
					p[ellIndex+j] = dim
					dim++
				}
			case p[permIndex[l]] == -1:
				if s := sh[dim].Int(); s != 1 {
					if sizes[permIndex[l]] > 1 && sizes[permIndex[l]] != s {
						fail("einsum(): operands do not broadcast with remapped shapes (original->remapped)")
					}
					sizes[permIndex[l]] = s
					dimCounts[permIndex[l]]++
				}
				p[permIndex[l]] = dim
				dim++
			default:
				prev := p[permIndex[l]]
				if sh[dim].Int() != sh[prev].Int() {
					fail("einsum(): subscript %c is repeated for operand %d but the sizes don't match, %d != %d", labelChar(l), i, sh[dim].Int(), sh[prev].Int())
				}
				x = movedimLast(call(aten.Diagonal, x, 0, prev, dim), prev)
			}
		}
		for j := range p {
			if p[j] == -1 {
				x = call(aten.Unsqueeze, x, dim)
				p[j] = dim
				dim++
			}
		}
		perm64 := make([]int64, len(p))
		for j, v := range p {
			perm64[j] = int64(v)
		}
		x = call(aten.Permute, x, perm64)
		for _, s := range shapeOf(x) {
			zero = zero || s.Int() == 0
		}
		ops[i] = x
	}
	if zero {
		out := make([]nn.Value, outDims)
		for d := range out {
			s := int64(1)
			for _, x := range ops {
				s = max(s, shapeOf(x)[d].Int())
				if shapeOf(x)[d].Int() == 0 {
					s = 0
					break
				}
			}
			out[d] = nn.Of(s)
		}
		return callVia(ops[0], aten.Full, []any{ints(out...), 0}, map[string]any{"dtype": dtypeOf(ops[0])})
	}
	if len(ops) == 1 {
		if perm > outDims {
			dims := make([]int64, 0, perm-outDims)
			for d := outDims; d < perm; d++ {
				dims = append(dims, int64(d))
			}
			return call(aten.SumDimIntList, ops[0], dims)
		}
		return ops[0]
	}
	var path []int64
	if len(a) > 2 && !a[2].IsNone() {
		for _, v := range a[2].Tuple() {
			path = append(path, v.Int())
		}
	}
	for k := 0; len(ops) > 1; k++ {
		i, j := 0, 1
		if path != nil {
			i, j = int(path[2*k]), int(path[2*k+1])
			if i > j {
				i, j = j, i
			}
		}
		x, y := ops[i], ops[j]
		ops = slices.Delete(ops, j, j+1)
		ops = slices.Delete(ops, i, i+1)
		var sumDims, xSum, ySum []int64
		for d := outDims; d < perm; d++ {
			xs, ys := shapeOf(x)[d].Int() != 1, shapeOf(y)[d].Int() != 1
			switch {
			case xs && ys:
				dimCounts[d]--
				if dimCounts[d] == 1 {
					sumDims = append(sumDims, int64(d))
					dimCounts[d] = 0
				}
			case dimCounts[d] == 1 && xs:
				xSum = append(xSum, int64(d))
				dimCounts[d] = 0
			case dimCounts[d] == 1 && ys:
				ySum = append(ySum, int64(d))
				dimCounts[d] = 0
			}
		}
		if len(xSum) > 0 {
			x = call(aten.SumDimIntList, x, xSum, true)
		}
		if len(ySum) > 0 {
			y = call(aten.SumDimIntList, y, ySum, true)
		}
		r := sumproductPair(x, y, sumDims)
		if path != nil {
			ops = append(ops, r)
		} else {
			ops = append([]nn.Value{r}, ops...)
		}
	}
	r := ops[0]
	if perm > outDims {
		return reshape(r, shapeOf(r)[:outDims])
	}
	return r
}

// labelChar is the letter of an einsum label.
func labelChar(l int) byte {
	if l < 26 {
		return byte('A' + l)
	}
	return byte('a' + l - 26)
}

// movedimLast moves x's last dim to position to (Tensor.movedim(-1, to))
// with a permute.
func movedimLast(x nn.Value, to int) nn.Value {
	n := ndim(x)
	p := make([]int64, 0, n)
	for d := 0; d < n-1; d++ {
		if d == to {
			p = append(p, int64(n-1))
		}
		p = append(p, int64(d))
	}
	if to == n-1 {
		p = append(p, int64(n-1))
	}
	return call(aten.Permute, x, p)
}

// sumproductPair is ATen's sumproduct_pair with keepdim: the dims both
// operands have (and do not sum) become bmm's batch, those only left or
// right has its rows or columns, the summed dims (sumDims) its inner dim;
// dims summed that only one operand has are summed away first. The result
// keeps every dim, the summed ones with size 1.
func sumproductPair(left, right nn.Value, sumDims []int64) nn.Value {
	n := ndim(left)
	var lro, lo, ro, sum []int64
	lroSize, loSize, roSize, sumSize := int64(1), int64(1), int64(1), int64(1)
	for d := range n {
		ls, rs := shapeOf(left)[d].Int(), shapeOf(right)[d].Int()
		sl, sr := ls != 1, rs != 1
		switch {
		case slices.Contains(sumDims, int64(d)):
			switch {
			case sl && sr:
				if ls != rs {
					fail("non-broadcast dimensions must match")
				}
				sumSize *= ls
			case sl:
				left = call(aten.SumDimIntList, left, []int64{int64(d)}, true)
			case sr:
				right = call(aten.SumDimIntList, right, []int64{int64(d)}, true)
			}
			sum = append(sum, int64(d))
		case sl && sr:
			if ls != rs {
				fail("non-broadcast dimensions must match")
			}
			lro = append(lro, int64(d))
			lroSize *= ls
		case sl:
			lo = append(lo, int64(d))
			loSize *= ls
		default:
			ro = append(ro, int64(d))
			roSize *= rs
		}
	}
	outSize := make([]nn.Value, 0, n)
	for _, d := range lro {
		outSize = append(outSize, shapeOf(left)[d])
	}
	for _, d := range lo {
		outSize = append(outSize, shapeOf(left)[d])
	}
	for range sum {
		outSize = append(outSize, nn.Of(1))
	}
	for _, d := range ro {
		outSize = append(outSize, shapeOf(right)[d])
	}
	lperm := slices.Concat(lro, lo, sum, ro)
	rperm := slices.Concat(lro, sum, ro, lo)
	operm := make([]int64, n)
	for i, d := range slices.Concat(lro, lo, sum, ro) {
		operm[d] = int64(i)
	}
	l := reshape(call(aten.Permute, left, lperm), []nn.Value{nn.Of(lroSize), nn.Of(loSize), nn.Of(sumSize)})
	r := reshape(call(aten.Permute, right, rperm), []nn.Value{nn.Of(lroSize), nn.Of(sumSize), nn.Of(roSize)})
	out := call(aten.Bmm, l, r)
	return call(aten.Permute, call(opView, out, ints(outSize...)), operm)
}
