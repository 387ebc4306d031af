package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Distances, ATen's Distance.cpp: _cdist_forward and _pdist_forward, the
// p-norm distances accumulated as ATen's Dist functors do.

// registerDistance registers the kernels of distance.go.
func registerDistance() {
	registerBoth("aten::_cdist_forward", cdistForward)
	registerBoth("aten::_pdist_forward", pdistForward)
}

// pnormDist accumulates a p-norm distance as ATen's Dist functors do: p = 0
// counts differing elements, 1 sums |d|, 2 is the square root of the sum
// of squares, inf is the largest |d|, and other p the p-th root of the sum
// of |d|^p; every step rounded by r.
type pnormDist struct {
	p    float64
	invP float64
	r    func(float64) float64
}

// newPnormDist returns the distance functor for p in the type r rounds to.
func newPnormDist(p float64, r func(float64) float64) *pnormDist {
	return &pnormDist{p: p, invP: r(1 / p), r: r}
}

// dist is the distance between rows a and b.
func (d *pnormDist) dist(a, b []float64) float64 {
	r := d.r
	var agg float64
	for i := range a {
		diff := math.Abs(r(a[i] - b[i]))
		switch {
		case d.p == 0:
			if diff != 0 {
				agg = r(agg + 1)
			} else if diff != diff {
				agg = r(agg + diff)
			}
		case d.p == 1:
			agg = r(agg + diff)
		case d.p == 2:
			agg = r(agg + r(diff*diff))
		case math.IsInf(d.p, 1):
			if diff > agg || diff != diff {
				agg = diff
			}
		default:
			agg = r(agg + r(math.Pow(diff, d.p)))
		}
	}
	switch {
	case d.p == 2:
		return r(math.Sqrt(agg))
	case d.p == 0 || d.p == 1 || math.IsInf(d.p, 1):
		return agg
	}
	return r(math.Pow(agg, d.invP))
}

// cdistForward is aten::_cdist_forward: p-norm distances between the
// rows of x1 [..., r1, c] and x2 [..., r2, c], batch dimensions
// broadcast. For p = 2 with compute_mode 1, or 0 and more than 25 rows,
// PyTorch computes through a matrix product (|a|² + |b|² - 2a·b, clamped
// at 0), and so does this kernel.
func cdistForward(c *ops.Call) ([]any, error) {
	x1, x2 := c.Tensor("x1"), c.Tensor("x2")
	p := c.Float("p")
	if x1.Dim() < 2 {
		return nil, c.Errorf("x1", "cdist only supports at least 2D tensors, X1 got: %dD", x1.Dim())
	}
	if x2.Dim() < 2 {
		return nil, c.Errorf("x2", "cdist only supports at least 2D tensors, X2 got: %dD", x2.Dim())
	}
	s1, s2 := x1.Shape(), x2.Shape()
	cols := s1[len(s1)-1]
	if cols != s2[len(s2)-1] {
		return nil, c.Errorf("x2", "X1 and X2 must have the same number of columns. X1: %d X2: %d", cols, s2[len(s2)-1])
	}
	dt := x1.DType()
	if !dt.IsFloat() {
		return nil, c.Errorf("x1", "cdist only supports floating-point dtypes, X1 got: %s", scalarTypeName(dt))
	}
	if !x2.DType().IsFloat() {
		return nil, c.Errorf("x2", "cdist only supports floating-point dtypes, X2 got: %s", scalarTypeName(x2.DType()))
	}
	if p < 0 || p != p {
		return nil, c.Errorf("p", "cdist only supports non-negative p values")
	}
	mode, _ := c.OptInt("compute_mode")
	if mode < 0 || mode > 2 {
		return nil, c.Errorf("compute_mode", "possible modes: 0, 1, 2, but was: %d", mode)
	}
	batch, err := ops.BroadcastShapes(s1[:len(s1)-2], s2[:len(s2)-2])
	if err != nil {
		return nil, c.Errorf("x2", "%v", err)
	}
	r1, r2 := s1[len(s1)-2], s2[len(s2)-2]
	shape := append(append([]int{}, batch...), r1, r2)
	if x2.DType() != dt {
		return nil, c.Errorf("x2", "expected scalar type %s but found %s", scalarTypeName(dt), scalarTypeName(x2.DType()))
	}
	if meta(x1, x2) {
		return oneOrErr(empty(true, dt, shape))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return nil, notImplemented(c, "x1", "cdist", dt)
	}
	nb := product(batch)
	res := make([]float64, product(shape))
	if nb == 0 || r1 == 0 || r2 == 0 || cols == 0 {
		return oneOrErr(tensor.FromFloat64s(dt, res, shape...))
	}
	a := tensor.Must(x1.Expand(append(append([]int{}, batch...), r1, cols)...)).Float64s()
	b := tensor.Must(x2.Expand(append(append([]int{}, batch...), r2, cols)...)).Float64s()
	r := rounder(dt)
	euclid := p == 2 && (mode == 1 || mode == 0 && (r1 > 25 || r2 > 25))
	d := newPnormDist(p, r)
	parallel(nb*r1, nb*r1*r2*cols, func(lo, hi int) {
		for row := lo; row < hi; row++ {
			bi, i := row/r1, row%r1
			ai := a[(bi*r1+i)*cols : (bi*r1+i+1)*cols]
			for j := range r2 {
				bj := b[(bi*r2+j)*cols : (bi*r2+j+1)*cols]
				if euclid {
					res[row*r2+j] = euclidean(ai, bj, r)
				} else {
					res[row*r2+j] = d.dist(ai, bj)
				}
			}
		}
	})
	return oneOrErr(tensor.FromFloat64s(dt, res, shape...))
}

// euclidean is _euclidean_dist for one pair of rows: the product of
// [-2a, |a|², 1] and [b, 1, |b|²], clamped at 0, square-rooted.
func euclidean(a, b []float64, r func(float64) float64) float64 {
	var na, nb, dot float64
	for i := range a {
		na = r(na + r(a[i]*a[i]))
		nb = r(nb + r(b[i]*b[i]))
	}
	for i := range a {
		dot = r(dot + r(r(-2*a[i])*b[i]))
	}
	dot = r(r(dot+na) + nb)
	return r(math.Sqrt(math.Max(dot, 0)))
}

// pdistForward is aten::_pdist_forward: the p-norm distances between
// every pair of rows i < j of the 2-d self, in row-major pair order.
func pdistForward(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	p := c.Float("p")
	if x.Dim() != 2 {
		return nil, c.Errorf("self", "pdist only supports 2D tensors, got: %dD", x.Dim())
	}
	dt := x.DType()
	if !dt.IsFloat() {
		return nil, c.Errorf("self", "pdist only supports floating-point dtypes")
	}
	n, m := x.Size(0), x.Size(1)
	count := 0
	if n > 1 {
		count = n * (n - 1) / 2
	}
	if meta(x) {
		return oneOrErr(empty(true, dt, []int{count}))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return nil, notImplemented(c, "self", "pdist", dt)
	}
	res := make([]float64, count)
	if count == 0 || m == 0 {
		return oneOrErr(tensor.FromFloat64s(dt, res, count))
	}
	vals := x.Float64s()
	d := newPnormDist(p, rounder(dt))
	k := 0
	for i := range n {
		for j := i + 1; j < n; j++ {
			res[k] = d.dist(vals[i*m:(i+1)*m], vals[j*m:(j+1)*m])
			k++
		}
	}
	return oneOrErr(tensor.FromFloat64s(dt, res, count))
}
