package gemm

import (
	"fmt"
	"unsafe"

	"github.com/gofx/gofx/internal/vec"
)

// Float is the element type of a product: float32 or float64.
type Float interface{ float32 | float64 }

// Epilogue is what the final store of a product applies to each element
// v of the m×n result c, in this order:
//
//	v = alpha*op(a)*op(b) + beta*c
//	v += RowBias[i] + ColBias[j]      (each when non-nil)
//	v += Residual[i*LdResidual+j]     (when non-nil)
//	v = min(max(v, Min), Max)         (when Clamp; NaN stays NaN)
//
// ReLU is Clamp with Min 0 and Max +Inf; ReLU6 is Min 0, Max 6. The zero
// Epilogue applies nothing.
type Epilogue[T Float] struct {
	RowBias    []T // len m: added to every element of row i (a convolution's per-channel bias)
	ColBias    []T // len n: added to every element of column j (linear's bias)
	Residual   []T // m×n row-major with leading dimension LdResidual; must not overlap c
	LdResidual int
	Clamp      bool
	Min, Max   T
}

// empty reports whether ep applies nothing.
func (ep *Epilogue[T]) empty() bool {
	return ep == nil || (ep.RowBias == nil && ep.ColBias == nil && ep.Residual == nil && !ep.Clamp)
}

// Gemm computes c = alpha*op(a)*op(b) + beta*c, where c is m×n, op(a)
// is m×k and op(b) is k×n, every matrix row-major with the given leading
// dimension (the distance between the starts of consecutive rows, at
// least the row's width). op(x) is x, or its transpose when tX is true:
// a transposed a is stored k×m, a transposed b n×k. With beta == 0, c is
// only written (NaN in it is ignored), as BLAS specifies; with k == 0 or
// alpha == 0, a and b are not read.
//
// c must not overlap a or b. Gemm returns an error naming the argument
// for negative sizes, a leading dimension below the row width, a slice
// too short for its matrix, or overlapping operands; it does not panic.
func Gemm[T Float](tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error {
	return GemmEpilogue(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, nil)
}

// GemmEpilogue is Gemm with ep applied to each element of c once its
// product is complete, tile by tile while the tile is in cache (nil
// applies nothing). The bias and residual slices are checked
// like the operands.
func GemmEpilogue[T Float](tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int, ep *Epilogue[T]) error {
	if err := check(tA, tB, m, n, k, a, lda, b, ldb, c, ldc, ep); err != nil {
		return err
	}
	if ep.empty() {
		ep = nil
	}
	if gemvT(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, ep) {
		return nil
	}
	newJob(kernelFor[T](m), tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, ep).run()
	return nil
}

// span returns how many elements a rows×cols matrix with leading
// dimension ld covers from its first element, 0 when it is empty.
func span(rows, cols, ld int) int {
	if rows == 0 || cols == 0 {
		return 0
	}
	return (rows-1)*ld + cols
}

// checkMatrix checks one operand: name, its stored rows×cols, ld, x.
func checkMatrix[T Float](name string, rows, cols int, x []T, ld int) error {
	if ld < max(cols, 1) {
		return fmt.Errorf("gemm: ld%s %d is below the %d columns of %s as stored (%d×%d)", name, ld, cols, name, rows, cols)
	}
	if rows > 0 && cols > 0 && (rows-1) > (1<<62)/ld {
		return fmt.Errorf("gemm: %s (%d×%d, ld %d) is too large", name, rows, cols, ld)
	}
	if s := span(rows, cols, ld); len(x) < s {
		return fmt.Errorf("gemm: %s has %d elements, its %d×%d matrix with ld %d needs %d", name, len(x), rows, cols, ld, s)
	}
	return nil
}

// overlap reports whether the first nx elements of x and the first ny of
// y share memory.
func overlap[T Float](x []T, nx int, y []T, ny int) bool {
	if nx == 0 || ny == 0 {
		return false
	}
	sz := unsafe.Sizeof(x[0])
	x0 := uintptr(unsafe.Pointer(&x[0]))
	y0 := uintptr(unsafe.Pointer(&y[0]))
	return x0 < y0+uintptr(ny)*sz && y0 < x0+uintptr(nx)*sz
}

func check[T Float](tA, tB bool, m, n, k int, a []T, lda int, b []T, ldb int, c []T, ldc int, ep *Epilogue[T]) error {
	if m < 0 || n < 0 || k < 0 {
		return fmt.Errorf("gemm: sizes m=%d n=%d k=%d must not be negative", m, n, k)
	}
	ar, ac := m, k
	if tA {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB {
		br, bc = n, k
	}
	if err := checkMatrix("a", ar, ac, a, lda); err != nil {
		return err
	}
	if err := checkMatrix("b", br, bc, b, ldb); err != nil {
		return err
	}
	return checkC(m, n, c, ldc, ep, operand[T]{"a", a, span(ar, ac, lda)}, operand[T]{"b", b, span(br, bc, ldb)})
}

// operand is an input of a product for the overlap check: its name, its
// slice and how many elements of it the product reads.
type operand[T Float] struct {
	name string
	x    []T
	n    int
}

// checkC checks c (m×n, leading dimension ldc) and ep, and that c
// overlaps none of ins.
func checkC[T Float](m, n int, c []T, ldc int, ep *Epilogue[T], ins ...operand[T]) error {
	if err := checkMatrix("c", m, n, c, ldc); err != nil {
		return err
	}
	sc := span(m, n, ldc)
	for _, in := range ins {
		if overlap(c, sc, in.x, in.n) {
			return fmt.Errorf("gemm: c overlaps %s", in.name)
		}
	}
	if ep == nil {
		return nil
	}
	if ep.RowBias != nil && len(ep.RowBias) < m {
		return fmt.Errorf("gemm: epilogue RowBias has %d elements, want m=%d", len(ep.RowBias), m)
	}
	if ep.ColBias != nil && len(ep.ColBias) < n {
		return fmt.Errorf("gemm: epilogue ColBias has %d elements, want n=%d", len(ep.ColBias), n)
	}
	if ep.Residual != nil {
		if err := checkMatrix("Residual", m, n, ep.Residual, ep.LdResidual); err != nil {
			return err
		}
		if overlap(c, sc, ep.Residual, span(m, n, ep.LdResidual)) {
			return fmt.Errorf("gemm: epilogue Residual overlaps c")
		}
	}
	if overlap(c, sc, ep.RowBias, min(len(ep.RowBias), m)) || overlap(c, sc, ep.ColBias, min(len(ep.ColBias), n)) {
		return fmt.Errorf("gemm: epilogue bias overlaps c")
	}
	return nil
}

// applyEpilogue applies ep to the rows×cols block of c at (i0, j0), whose
// first element is c[0] (leading dimension ldc): a row at a time, the
// row bias, residual and clamp in one vector pass (vec.AddClamp, the row
// loop kernels' convolution epilogue shares), a column bias before it.
func applyEpilogue[T Float](ep *Epilogue[T], c []T, ldc, i0, j0, rows, cols int) {
	lo, hi := vec.NoClamp[T]()
	if ep.Clamp {
		lo, hi = ep.Min, ep.Max
	}
	nobias := vec.NoBias[T]()
	rest := ep.RowBias != nil || ep.Residual != nil || ep.Clamp
	for i := range rows {
		row := c[i*ldc : i*ldc+cols]
		s := nobias
		if ep.RowBias != nil {
			s = ep.RowBias[i0+i]
		}
		if ep.ColBias != nil {
			cb := ep.ColBias[j0 : j0+cols]
			if ep.RowBias != nil {
				for j := range row {
					row[j] += s + cb[j]
				}
				s = nobias
			} else {
				vec.Binary(vec.Add, row, row, cb)
			}
		}
		if !rest {
			continue
		}
		var r []T
		if ep.Residual != nil {
			r = ep.Residual[(i0+i)*ep.LdResidual+j0:][:cols]
		}
		vec.AddClamp(row, r, s, lo, hi)
	}
}
