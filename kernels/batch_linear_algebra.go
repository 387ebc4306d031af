package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Determinants and inverses, ATen's BatchLinearAlgebra.cpp and
// LinearAlgebra.cpp: the LU factorization with partial pivoting that
// LAPACK's getrf computes (the first largest |a| of a column is its
// pivot; pivots are 1-based int32), and from it _linalg_det, linalg_det,
// det, _linalg_slogdet, linalg_slogdet, slogdet, logdet, linalg_inv_ex,
// linalg_inv and inverse. The factorization runs in float64 and rounds its
// results to the dtype, so float32 results are at least as accurate as
// LAPACK's single-precision ones.

// registerBatchLinearAlgebra registers the kernels of
// batch_linear_algebra.go.
func registerBatchLinearAlgebra() {
	registerBoth("aten::_linalg_det", linalgDetLU)
	registerBoth("aten::linalg_det", func(c *ops.Call) ([]any, error) { return detFirst(c, "A", "linalg.det") })
	registerBoth("aten::det", func(c *ops.Call) ([]any, error) { return detFirst(c, "self", "linalg.det") })
	registerBoth("aten::_linalg_slogdet", linalgSlogdetLU)
	registerBoth("aten::linalg_slogdet", func(c *ops.Call) ([]any, error) { return slogdetTwo(c, "A") })
	registerBoth("aten::slogdet", func(c *ops.Call) ([]any, error) { return slogdetTwo(c, "self") })
	registerBoth("aten::logdet", logdet)
	registerBoth("aten::linalg_inv_ex", linalgInvEx)
	registerBoth("aten::linalg_inv", func(c *ops.Call) ([]any, error) { return invFirst(c, "A") })
	registerBoth("aten::inverse", func(c *ops.Call) ([]any, error) { return invFirst(c, "self") })
}

// squareCheck is ATen's squareCheckInputs and checkFloatingOrComplex
// (low-precision dtypes refused): a batch of square float32 or float64
// matrices.
func squareCheck(c *ops.Call, arg, fn string, a *tensor.Tensor) error {
	if a.Dim() < 2 {
		return c.Errorf(arg, "%s: The input tensor A must have at least 2 dimensions.", fn)
	}
	if a.Size(-1) != a.Size(-2) {
		return c.Errorf(arg, "%s: A must be batches of square matrices, but they are %d by %d matrices", fn, a.Size(-2), a.Size(-1))
	}
	dt := a.DType()
	if !dt.IsFloat() {
		return c.Errorf(arg, "%s: Expected a floating point or complex tensor as input. Got %s", fn, scalarTypeName(dt))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return c.Errorf(arg, "%s: Low precision dtypes not supported. Got %s", fn, scalarTypeName(dt))
	}
	return nil
}

// luBatch holds the LU factorizations of a batch of n×n matrices.
type luBatch struct {
	n, count int
	lu       []float64 // count matrices, row-major
	piv      []int     // count×n pivots, 0-based
	info     []int     // per matrix: 0, or the 1-based index of the first zero pivot
}

// factor computes the LU factorizations of the matrices of a (contiguous
// in its last two dimensions after Contiguous).
func factor(a *tensor.Tensor) *luBatch {
	n := a.Size(-1)
	vals := to(a, tensor.Float64).Contiguous().Float64s()
	count := 1
	for _, s := range a.Shape()[:a.Dim()-2] {
		count *= s
	}
	b := &luBatch{n: n, count: count, lu: vals, piv: make([]int, count*n), info: make([]int, count)}
	for m := range count {
		b.info[m] = luFactor(vals[m*n*n:(m+1)*n*n], b.piv[m*n:(m+1)*n], n)
	}
	return b
}

// luFactor factors the row-major n×n matrix a in place (getf2: unit lower
// L below the diagonal, U on and above it), writing the 0-based pivot row
// of each column to piv; it returns LAPACK's info.
func luFactor(a []float64, piv []int, n int) int {
	info := 0
	for j := range n {
		p := j
		best := math.Abs(a[j*n+j])
		for i := j + 1; i < n; i++ {
			if v := math.Abs(a[i*n+j]); v > best || best != best {
				p, best = i, v
			}
		}
		piv[j] = p
		if a[p*n+j] == 0 {
			if info == 0 {
				info = j + 1
			}
			continue
		}
		if p != j {
			for k := range n {
				a[j*n+k], a[p*n+k] = a[p*n+k], a[j*n+k]
			}
		}
		d := a[j*n+j]
		for i := j + 1; i < n; i++ {
			a[i*n+j] /= d
		}
		for i := j + 1; i < n; i++ {
			l := a[i*n+j]
			if l == 0 {
				continue
			}
			for k := j + 1; k < n; k++ {
				a[i*n+k] -= l * a[j*n+k]
			}
		}
	}
	return info
}

// det returns the determinant of matrix m, and its sign and log|det|.
func (b *luBatch) det(m int) (det, sign, logabs float64) {
	n := b.n
	lu := b.lu[m*n*n:]
	det, sign = 1, 1
	for i := range n {
		d := lu[i*n+i]
		det *= d
		if d < 0 {
			sign = -sign
		}
		logabs += math.Log(math.Abs(d))
		if b.piv[m*n+i] != i {
			det, sign = -det, -sign
		}
	}
	if det == 0 && !math.IsNaN(logabs) {
		sign = 0
	}
	if math.IsNaN(det) {
		sign = math.NaN()
	}
	return det, sign, logabs
}

// detFactor factors a as ATen's determinants do: a contiguous a through
// its transpose (which LAPACK reads in place), any other as it is. The
// determinants agree; the LU factors and pivots are those PyTorch returns.
func detFactor(a *tensor.Tensor) *luBatch {
	if a.IsContiguous() {
		return factor(tensor.Must(a.Transpose(-2, -1)))
	}
	return factor(a)
}

// luOutputs returns the LU factors (dtype dt, a's shape) and the 1-based
// int32 pivots (a's batch shape and n) of b.
func (b *luBatch) luOutputs(a *tensor.Tensor, dt tensor.DType) (*tensor.Tensor, *tensor.Tensor) {
	lu := tensor.Must(tensor.FromFloat64s(dt, b.lu, a.Shape()...))
	piv := make([]int64, len(b.piv))
	for i, p := range b.piv {
		piv[i] = int64(p + 1)
	}
	pshape := append(append([]int{}, a.Shape()[:a.Dim()-2]...), b.n)
	return lu, tensor.Must(tensor.FromInt64s(tensor.Int32, piv, pshape...))
}

// linalgDetLU is aten::_linalg_det: the determinants, the LU factors and
// the pivots.
func linalgDetLU(c *ops.Call) ([]any, error) {
	a := c.Tensor("A")
	if err := squareCheck(c, "A", "linalg.det", a); err != nil {
		return nil, err
	}
	dt := a.DType()
	batch := a.Shape()[:a.Dim()-2]
	pshape := append(append([]int{}, batch...), a.Size(-1))
	if a.IsMeta() {
		return []any{tensor.Must(tensor.NewMeta(dt, batch...)), tensor.Must(tensor.NewMeta(dt, a.Shape()...)),
			tensor.Must(tensor.NewMeta(tensor.Int32, pshape...))}, nil
	}
	b := detFactor(a)
	out := make([]float64, b.count)
	for m := range b.count {
		out[m], _, _ = b.det(m)
	}
	lu, piv := b.luOutputs(a, dt)
	return []any{tensor.Must(tensor.FromFloat64s(dt, out, batch...)), lu, piv}, nil
}

// detFirst is aten::linalg_det and aten::det: _linalg_det's determinants.
func detFirst(c *ops.Call, arg, fn string) ([]any, error) {
	a := c.Tensor(arg)
	if err := squareCheck(c, arg, fn, a); err != nil {
		return nil, err
	}
	out, err := delegate(c, "aten::_linalg_det", []any{a}, nil)
	if err != nil {
		return nil, err
	}
	return out[:1], nil
}

// linalgSlogdetLU is aten::_linalg_slogdet: the signs (0 for a singular
// matrix) and logs of the absolute determinants, the LU factors and the
// pivots.
func linalgSlogdetLU(c *ops.Call) ([]any, error) {
	a := c.Tensor("A")
	if err := squareCheck(c, "A", "linalg.slogdet", a); err != nil {
		return nil, err
	}
	dt := a.DType()
	batch := a.Shape()[:a.Dim()-2]
	pshape := append(append([]int{}, batch...), a.Size(-1))
	if a.IsMeta() {
		return []any{tensor.Must(tensor.NewMeta(dt, batch...)), tensor.Must(tensor.NewMeta(dt, batch...)),
			tensor.Must(tensor.NewMeta(dt, a.Shape()...)), tensor.Must(tensor.NewMeta(tensor.Int32, pshape...))}, nil
	}
	b := detFactor(a)
	sign, logabs := make([]float64, b.count), make([]float64, b.count)
	for m := range b.count {
		_, sign[m], logabs[m] = b.det(m)
	}
	lu, piv := b.luOutputs(a, dt)
	return []any{tensor.Must(tensor.FromFloat64s(dt, sign, batch...)), tensor.Must(tensor.FromFloat64s(dt, logabs, batch...)), lu, piv}, nil
}

// slogdetTwo is aten::linalg_slogdet and aten::slogdet: _linalg_slogdet's
// sign and logabsdet.
func slogdetTwo(c *ops.Call, arg string) ([]any, error) {
	a := c.Tensor(arg)
	if err := squareCheck(c, arg, "linalg.slogdet", a); err != nil {
		return nil, err
	}
	out, err := delegate(c, "aten::_linalg_slogdet", []any{a}, nil)
	if err != nil {
		return nil, err
	}
	return out[:2], nil
}

// logdet is aten::logdet: log|det|, NaN where the determinant is
// negative.
func logdet(c *ops.Call) ([]any, error) {
	a := c.Tensor("self")
	if err := squareCheck(c, "self", "logdet", a); err != nil {
		return nil, err
	}
	p := &chain{c: c, arg: "self"}
	out := p.calls("aten::_linalg_slogdet", a)
	if p.err != nil {
		return nil, p.err
	}
	sign, logabs := out[0].(*tensor.Tensor), out[1].(*tensor.Tensor)
	neg := p.call("aten::eq.Scalar", sign, ops.IntScalar(-1))
	return p.result(p.call("aten::where.ScalarSelf", neg, ops.FloatScalar(math.NaN()), logabs))
}

// linalgInvEx is aten::linalg_inv_ex: the inverses and, per matrix, info
// (0, or the 1-based index of the first zero pivot of a singular matrix,
// whose inverse is then undefined); check_errors makes a singular matrix
// an error.
func linalgInvEx(c *ops.Call) ([]any, error) {
	a := c.Tensor("A")
	inv, info, err := invert(c, "A", a)
	if err != nil {
		return nil, err
	}
	if c.Bool("check_errors") && !a.IsMeta() {
		for m, i := range info.Int64s() {
			if i > 0 {
				return nil, singularErr(c, "A", a, m, i)
			}
		}
	}
	return []any{inv, info}, nil
}

// singularErr is linalg.inv's error for matrix m of a, whose pivot i is
// zero.
func singularErr(c *ops.Call, arg string, a *tensor.Tensor, m int, i int64) error {
	if a.Dim() > 2 {
		return c.Errorf(arg, "linalg.inv: (Batch element %d): The diagonal element %d is zero, the inversion could not be completed because the input matrix is singular.", m, i)
	}
	return c.Errorf(arg, "linalg.inv: The diagonal element %d is zero, the inversion could not be completed because the input matrix is singular.", i)
}

// invFirst is aten::linalg_inv and aten::inverse: the inverse, a
// singular matrix an error.
func invFirst(c *ops.Call, arg string) ([]any, error) {
	a := c.Tensor(arg)
	inv, info, err := invert(c, arg, a)
	if err != nil {
		return nil, err
	}
	if !a.IsMeta() {
		for m, i := range info.Int64s() {
			if i > 0 {
				return nil, singularErr(c, arg, a, m, i)
			}
		}
	}
	return one(inv), nil
}

// invert returns the inverses of the matrices of a and their int32 infos.
func invert(c *ops.Call, arg string, a *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor, error) {
	if err := squareCheck(c, arg, "linalg.inv", a); err != nil {
		return nil, nil, err
	}
	dt := a.DType()
	batch := a.Shape()[:a.Dim()-2]
	if a.IsMeta() {
		return tensor.Must(tensor.NewMeta(dt, a.Shape()...)), tensor.Must(tensor.NewMeta(tensor.Int32, batch...)), nil
	}
	b := factor(a)
	n := b.n
	out := make([]float64, b.count*n*n)
	info := make([]int64, b.count)
	col := make([]float64, n)
	for m := range b.count {
		info[m] = int64(b.info[m])
		lu := b.lu[m*n*n : (m+1)*n*n]
		piv := b.piv[m*n : (m+1)*n]
		inv := out[m*n*n : (m+1)*n*n]
		for j := range n {
			for i := range col {
				col[i] = 0
			}
			col[j] = 1
			// Apply the row swaps of P to the unit vector, then solve
			// L y = P e_j and U x = y.
			for i := range n {
				if p := piv[i]; p != i {
					col[i], col[p] = col[p], col[i]
				}
			}
			for i := range n {
				s := col[i]
				for k := range i {
					s -= lu[i*n+k] * col[k]
				}
				col[i] = s
			}
			for i := n - 1; i >= 0; i-- {
				s := col[i]
				for k := i + 1; k < n; k++ {
					s -= lu[i*n+k] * col[k]
				}
				col[i] = s / lu[i*n+i]
			}
			for i := range n {
				inv[i*n+j] = col[i]
			}
		}
	}
	return tensor.Must(tensor.FromFloat64s(dt, out, a.Shape()...)), tensor.Must(tensor.FromInt64s(tensor.Int32, info, batch...)), nil
}
