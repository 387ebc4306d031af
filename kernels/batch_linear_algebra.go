package kernels

import (
	"fmt"
	"math"
	"slices"

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
	registerBoth("aten::linalg_cholesky_ex", linalgCholeskyEx)
	registerBoth("aten::linalg_cholesky", linalgCholesky)
	registerBoth("aten::cholesky", linalgCholesky)
	registerBoth("aten::_linalg_solve_ex", linalgSolveEx)
	registerBoth("aten::linalg_solve", linalgSolve)
	registerBoth("aten::linalg_solve_ex", func(c *ops.Call) ([]any, error) {
		out, err := delegate(c, "aten::_linalg_solve_ex", []any{c.Tensor("A"), c.Tensor("B")},
			map[string]any{"left": c.Bool("left"), "check_errors": c.Bool("check_errors")})
		if err != nil {
			return nil, err
		}
		return []any{out[0], out[3]}, nil
	})
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
	return squareFirst(c, arg, fn, "aten::_linalg_det", 1)
}

// squareFirst checks that argument arg is a batch of square matrices (fn
// names the function for the error) and returns the first n outputs of
// op on it.
func squareFirst(c *ops.Call, arg, fn, op string, n int) ([]any, error) {
	a := c.Tensor(arg)
	if err := squareCheck(c, arg, fn, a); err != nil {
		return nil, err
	}
	out, err := delegate(c, op, []any{a}, nil)
	if err != nil {
		return nil, err
	}
	return out[:n], nil
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
	return squareFirst(c, arg, "linalg.slogdet", "aten::_linalg_slogdet", 2)
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

// choleskyFactor returns the lower Cholesky factors of the matrices of a
// (float64, row-major) and per matrix LAPACK's potrf info: 0, or the order
// of the first leading minor that is not positive-definite.
func choleskyFactor(a *tensor.Tensor) ([]float64, []int64, int) {
	n := a.Size(-1)
	vals := to(a, tensor.Float64).Contiguous().Float64s()
	count := 1
	for _, s := range a.Shape()[:a.Dim()-2] {
		count *= s
	}
	out := make([]float64, len(vals))
	info := make([]int64, count)
	for m := range count {
		src, l := vals[m*n*n:(m+1)*n*n], out[m*n*n:(m+1)*n*n]
		for j := range n {
			d := src[j*n+j]
			for k := range j {
				d -= l[j*n+k] * l[j*n+k]
			}
			if !(d > 0) {
				info[m] = int64(j + 1)
				break
			}
			d = math.Sqrt(d)
			l[j*n+j] = d
			for i := j + 1; i < n; i++ {
				s := src[i*n+j]
				for k := range j {
					s -= l[i*n+k] * l[j*n+k]
				}
				l[i*n+j] = s / d
			}
		}
	}
	return out, info, count
}

// linalgCholeskyEx is aten::linalg_cholesky_ex: the Cholesky factors of
// the (symmetric, lower triangle read) matrices, upper ones when upper,
// and the int32 infos; check_errors makes a failure an error.
func linalgCholeskyEx(c *ops.Call) ([]any, error) {
	a := c.Tensor("self")
	l, info, err := cholesky(c, a, c.Bool("upper"))
	if err != nil {
		return nil, err
	}
	if c.Bool("check_errors") && !a.IsMeta() {
		if err := choleskyErr(c, a, info); err != nil {
			return nil, err
		}
	}
	return []any{l, info}, nil
}

// choleskyErr is linalg.cholesky's error for the first failed matrix.
func choleskyErr(c *ops.Call, a *tensor.Tensor, info *tensor.Tensor) error {
	for m, i := range info.Int64s() {
		if i > 0 {
			if a.Dim() > 2 {
				return c.Errorf("self", "linalg.cholesky: (Batch element %d): The factorization could not be completed because the input is not positive-definite (the leading minor of order %d is not positive-definite).", m, i)
			}
			return c.Errorf("self", "linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the leading minor of order %d is not positive-definite).", i)
		}
	}
	return nil
}

// cholesky factors a; a failed matrix's factor is left as far as it got.
func cholesky(c *ops.Call, a *tensor.Tensor, upper bool) (*tensor.Tensor, *tensor.Tensor, error) {
	if err := squareCheck(c, "self", "linalg.cholesky", a); err != nil {
		return nil, nil, err
	}
	dt := a.DType()
	batch := a.Shape()[:a.Dim()-2]
	if a.IsMeta() {
		return tensor.Must(tensor.NewMeta(dt, a.Shape()...)), tensor.Must(tensor.NewMeta(tensor.Int32, batch...)), nil
	}
	l, info, _ := choleskyFactor(a)
	lt := tensor.Must(tensor.FromFloat64s(dt, l, a.Shape()...))
	if upper {
		lt = tensor.Must(lt.Transpose(-2, -1)).Contiguous()
	}
	return lt, tensor.Must(tensor.FromInt64s(tensor.Int32, info, batch...)), nil
}

// linalgCholesky is aten::linalg_cholesky and (upper's default differing
// only in the schema) aten::cholesky: the factors, a failure an error.
func linalgCholesky(c *ops.Call) ([]any, error) {
	a := c.Tensor("self")
	l, info, err := cholesky(c, a, c.Bool("upper"))
	if err != nil {
		return nil, err
	}
	if !a.IsMeta() {
		if err := choleskyErr(c, a, info); err != nil {
			return nil, err
		}
	}
	return one(l), nil
}

// linalgSolveEx is aten::_linalg_solve_ex: the solution X of A X = B (X A
// = B when not left), B a vector or a batch of matrices broadcasting
// with A, and A's LU factors, pivots and infos.
func linalgSolveEx(c *ops.Call) ([]any, error) {
	a, b := c.Tensor("A"), c.Tensor("B")
	left := c.Bool("left")
	if err := squareCheck(c, "A", "linalg.solve", a); err != nil {
		return nil, err
	}
	if a.DType() != b.DType() {
		return nil, c.Errorf("B", "linalg.solve: Expected A and B to have the same dtype, but found A of type %s and B of type %s instead", scalarTypeName(a.DType()), scalarTypeName(b.DType()))
	}
	n := a.Size(-1)
	vector := b.Dim() == 1 || b.Dim() == a.Dim()-1 && slices.Equal(b.Shape(), a.Shape()[:a.Dim()-1])
	if vector && !left {
		return nil, c.Errorf("B", "linalg.solve: Vector broadcasting of the left hand side is not supported for left=False. In this case linalg.solve is equivalent to B / A.squeeze(-1)")
	}
	p := &chain{c: c, arg: "B"}
	bm := b
	if vector {
		bm = p.call("aten::unsqueeze", b, int64(-1))
	}
	if !left {
		bm = p.call("aten::transpose.int", bm, int64(-2), int64(-1))
	}
	if p.err != nil {
		return nil, p.err
	}
	if bm.Dim() < 2 || bm.Size(-2) != n {
		eq := "AX = B"
		if !left {
			eq = "XA = B"
		}
		return nil, c.Errorf("B", "linalg.solve: Incompatible shapes of A and B for the equation %s (%s and %s)", eq, matShape(a), matShape(bm))
	}
	batch, err := ops.BroadcastShapes(a.Shape()[:a.Dim()-2], bm.Shape()[:bm.Dim()-2])
	if err != nil {
		return nil, c.Errorf("B", "%v", err)
	}
	k := bm.Size(-1)
	dt := a.DType()
	xshape := append(append([]int{}, batch...), n, k)
	abatch := a.Shape()[:a.Dim()-2]
	pshape := append(append([]int{}, abatch...), n)
	finish := func(x *tensor.Tensor) *tensor.Tensor {
		if !left {
			x = p.call("aten::transpose.int", x, int64(-2), int64(-1))
		}
		if vector {
			x = p.call("aten::squeeze.dim", x, int64(-1))
		}
		return x
	}
	if meta(a, b) {
		x := finish(tensor.Must(tensor.NewMeta(dt, xshape...)))
		if p.err != nil {
			return nil, p.err
		}
		return []any{x, tensor.Must(tensor.NewMeta(dt, a.Shape()...)), tensor.Must(tensor.NewMeta(tensor.Int32, pshape...)),
			tensor.Must(tensor.NewMeta(tensor.Int32, abatch...))}, nil
	}
	if !left {
		a = tensor.Must(a.Transpose(-2, -1))
	}
	f := detFactor(a)
	// detFactor factors Aᵀ of a contiguous A: solve Aᵀᵀ X = B with the
	// transposed factors then.
	trans := a.IsContiguous()
	bv := tensor.Must(to(bm, tensor.Float64).Expand(xshape...)).Contiguous().Float64s()
	out := make([]float64, len(bv))
	nb := product(batch)
	amap := broadcastIndex(abatch, batch)
	col := make([]float64, n)
	info := make([]int64, f.count)
	for m := range f.count {
		info[m] = int64(f.info[m])
	}
	for m := range nb {
		am := amap(m)
		lu := f.lu[am*n*n : (am+1)*n*n]
		piv := f.piv[am*n : (am+1)*n]
		for j := range k {
			for i := range n {
				col[i] = bv[m*n*k+i*k+j]
			}
			luSolve(lu, piv, n, col, trans)
			for i := range n {
				out[m*n*k+i*k+j] = col[i]
			}
		}
	}
	x := finish(tensor.Must(tensor.FromFloat64s(dt, out, xshape...)))
	if p.err != nil {
		return nil, p.err
	}
	luT, pivT := f.luOutputs(a, dt)
	infoT := tensor.Must(tensor.FromInt64s(tensor.Int32, info, abatch...))
	if c.Bool("check_errors") {
		for m, i := range info {
			if i > 0 {
				if a.Dim() > 2 {
					return nil, c.Errorf("A", "torch.linalg.solve: (Batch element %d): The solver failed because the input matrix is singular.", m)
				}
				return nil, c.Errorf("A", "torch.linalg.solve: The solver failed because the input matrix is singular.")
			}
		}
	}
	return []any{x, luT, pivT, infoT}, nil
}

// broadcastIndex maps the flat index of a batch of shape to the flat
// index of the batch of shape from that broadcasts to it.
func broadcastIndex(from, shape []int) func(int) int {
	return func(m int) int {
		idx, stride := 0, 1
		for d := len(shape) - 1; d >= 0; d-- {
			i := m % shape[d]
			m /= shape[d]
			fd := d - (len(shape) - len(from))
			if fd >= 0 {
				if from[fd] != 1 {
					idx += i * stride
				}
				stride *= from[fd]
			}
		}
		return idx
	}
}

// luSolve solves M x = b in place for the LU factors of M (P M = L U,
// row-major) or, when trans, of Mᵀ (P Mᵀ = L U, so M = Uᵀ Lᵀ P).
func luSolve(lu []float64, piv []int, n int, b []float64, trans bool) {
	if !trans {
		for i := range n {
			if p := piv[i]; p != i {
				b[i], b[p] = b[p], b[i]
			}
		}
		for i := range n {
			for k := range i {
				b[i] -= lu[i*n+k] * b[k]
			}
		}
		for i := n - 1; i >= 0; i-- {
			for k := i + 1; k < n; k++ {
				b[i] -= lu[i*n+k] * b[k]
			}
			b[i] /= lu[i*n+i]
		}
		return
	}
	// Uᵀ y = b (forward), Lᵀ z = y (backward), x = Pᵀ z.
	for i := range n {
		for k := range i {
			b[i] -= lu[k*n+i] * b[k]
		}
		b[i] /= lu[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		for k := i + 1; k < n; k++ {
			b[i] -= lu[k*n+i] * b[k]
		}
	}
	for i := n - 1; i >= 0; i-- {
		if p := piv[i]; p != i {
			b[i], b[p] = b[p], b[i]
		}
	}
}

// linalgSolve is aten::linalg_solve: _linalg_solve_ex's solution, a
// singular A an error.
func linalgSolve(c *ops.Call) ([]any, error) {
	out, err := delegate(c, "aten::_linalg_solve_ex", []any{c.Tensor("A"), c.Tensor("B")},
		map[string]any{"left": c.Bool("left"), "check_errors": true})
	if err != nil {
		return nil, err
	}
	return out[:1], nil
}

// matShape prints the matrix size of t as ATen's solve errors do: "3x3".
func matShape(t *tensor.Tensor) string {
	if t.Dim() < 2 {
		return fmt.Sprintf("%d", t.Size(-1))
	}
	return fmt.Sprintf("%dx%d", t.Size(-2), t.Size(-1))
}
