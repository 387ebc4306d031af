package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Triangular parts of matrices, ATen's TriangularOps.cpp: tril and triu
// over the last two dimensions (in-place forms derived).

// registerTriangular registers the kernels of triangular.go.
func registerTriangular() {
	registerBoth("aten::tril", func(c *ops.Call) ([]any, error) { return triangle(c, "tril", true) })
	registerBoth("aten::triu", func(c *ops.Call) ([]any, error) { return triangle(c, "triu", false) })
}

// triangle keeps the elements of every matrix of self on and below
// (lower) or on and above diagonal k, zeroing the others: column j of row
// i is kept when j-i <= k (tril) or j-i >= k (triu).
func triangle(c *ops.Call, name string, lower bool) ([]any, error) {
	self := c.Tensor("self")
	if self.Dim() < 2 {
		return nil, c.Errorf("self", "%s: input tensor must have at least 2 dimensions", name)
	}
	k := c.Int("diagonal")
	if self.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(self.DType(), self.Shape()...))), nil
	}
	shape := self.Shape()
	rows, cols := shape[len(shape)-2], shape[len(shape)-1]
	keep := func(e int) bool {
		i, j := int64((e/cols)%rows), int64(e%cols)
		if lower {
			return j-i <= k
		}
		return j-i >= k
	}
	x := self.Contiguous().Clone()
	if self.DType().IsFloat() {
		vals := x.Float64s()
		for e := range vals {
			if !keep(e) {
				vals[e] = 0
			}
		}
		return oneOrErr(tensor.FromFloat64s(self.DType(), vals, shape...))
	}
	vals := x.Int64s()
	for e := range vals {
		if !keep(e) {
			vals[e] = 0
		}
	}
	return oneOrErr(tensor.FromInt64s(self.DType(), vals, shape...))
}
