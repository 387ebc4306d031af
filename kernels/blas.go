package kernels

import (
	"runtime"

	fastgemm "github.com/gofx/gofx/internal/gemm"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Matrix multiplication machinery (ATen's CPUBlas.cpp), shared by the
// matrix products and convolution. Floating products go through
// internal/gemm (packed, blocked, AVX2/FMA assembly where the CPU has it,
// parallel over the cores for large products) in float32 for float32 and
// bfloat16, which computes in float32 and rounds once at the end, as
// PyTorch's CPU gemm accumulates bfloat16 in float; and in float64 for
// float64. Integer products are plain loops in int64,
// wrapped to the dtype at the end: wrapping commutes with + and *, so the
// result equals PyTorch's arithmetic in the narrow type.

// workType returns the dtype a matrix product of dtype dt is computed in:
// float32 for float32 and bfloat16, float64, and int64 for integers.
func workType(dt tensor.DType) tensor.DType {
	switch {
	case dt == tensor.Float64:
		return tensor.Float64
	case dt.IsFloat():
		return tensor.Float32
	}
	return tensor.Int64
}

// matmulSupported reports whether PyTorch 1.13 multiplies matrices of
// dtype dt on CPU.
func matmulSupported(dt tensor.DType) bool {
	return dt != tensor.Float16 && dt != tensor.Bool
}

// workers returns how many goroutines a job of work multiply-adds (or
// element visits) over n independent items should use.
func workers(n, work int) int {
	p := runtime.GOMAXPROCS(0)
	if work < 1<<16 || n < 2 || p < 2 {
		return 1
	}
	return min(p, n)
}

// parallel calls f over [0, n) split into contiguous chunks, one per
// worker when the job (work operations in all) is big enough to be worth
// the goroutines. A panic in a worker is re-raised on the caller's
// goroutine, where the dispatch point recovers it.
func parallel(n, work int, f func(lo, hi int)) {
	p := workers(n, work)
	if p == 1 {
		if n > 0 {
			f(0, n)
		}
		return
	}
	runChunks(n, p, f)
}

// operand returns a 2-D tensor t (of a BLAS element type) as a BLAS
// operand: its storage from the first element, the leading dimension, and
// whether the storage holds the transpose in row-major order. Row-major and
// column-major views (such as weight.t()) are used in place; other layouts
// are copied.
func operand[T tensor.Elem](t *tensor.Tensor) (data []T, ld int, trans bool) {
	r, c := t.Size(0), t.Size(1)
	if r == 0 || c == 0 {
		return nil, max(c, 1), false
	}
	st := t.Strides()
	d := tensor.Data[T](t)
	off := t.Offset()
	if st[1] == 1 || c <= 1 {
		ld = max(c, 1)
		if r > 1 {
			ld = st[0]
		}
		if ld >= max(c, 1) {
			return d[off : off+(r-1)*ld+c], ld, false
		}
	}
	if st[0] == 1 || r <= 1 {
		ld = max(r, 1)
		if c > 1 {
			ld = st[1]
		}
		if ld >= max(r, 1) {
			return d[off : off+(c-1)*ld+r], ld, true
		}
	}
	ct := t.Contiguous()
	return tensor.Data[T](ct)[ct.Offset() : ct.Offset()+r*c], max(c, 1), false
}

// gemm computes c = alpha*op(a)*op(b) + beta*c for an m×n row-major c
// with leading dimension ldc, through internal/gemm for float32 and
// float64 and a plain loop for int64. With beta == 0, c is not read (NaN in it is
// ignored), as BLAS specifies.
func gemm[T float32 | float64 | int64](tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	if k == 0 || alpha == 0 {
		for i := range m {
			row := c[i*ldc : i*ldc+n]
			for j := range row {
				if beta == 0 {
					row[j] = 0
				} else {
					row[j] *= beta
				}
			}
		}
		return
	}
	switch av := any(a).(type) {
	case []float32:
		if err := fastgemm.Gemm(tA, tB, m, n, k, float32(alpha), av, lda, any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc); err != nil {
			panic(err) // the callers build consistent operands: cannot happen
		}
	case []float64:
		if err := fastgemm.Gemm(tA, tB, m, n, k, float64(alpha), av, lda, any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc); err != nil {
			panic(err) // the callers build consistent operands: cannot happen
		}
	case []int64:
		gemmInt(tA, tB, m, n, k, int64(alpha), av, lda, any(b).([]int64), ldb, int64(beta), any(c).([]int64), ldc)
	}
}

// gemmInt is gemm for int64 with wrapping arithmetic, parallel over
// rows of c for large products.
func gemmInt(tA, tB bool, m, n, k int, alpha int64, a []int64, lda int, b []int64, ldb int, beta int64, c []int64, ldc int) {
	parallel(m, m*n*k, func(lo, hi int) {
		acc := make([]int64, n)
		for i := lo; i < hi; i++ {
			clear(acc)
			for p := range k {
				var av int64
				if tA {
					av = a[p*lda+i]
				} else {
					av = a[i*lda+p]
				}
				if av == 0 {
					continue
				}
				if tB {
					for j := range n {
						acc[j] += av * b[j*ldb+p]
					}
				} else {
					brow := b[p*ldb : p*ldb+n]
					for j, bv := range brow {
						acc[j] += av * bv
					}
				}
			}
			row := c[i*ldc : i*ldc+n]
			for j := range row {
				if beta == 0 {
					row[j] = alpha * acc[j]
				} else {
					row[j] = beta*row[j] + alpha*acc[j]
				}
			}
		}
	})
}

// mmInto computes out = alpha*a@b + beta*out for 2-D a [m,k] and b [k,n]
// of work dtype wt (float32, float64 or int64) and a contiguous out [m,n]
// of the same dtype.
func mmInto(a, b, out *tensor.Tensor, alpha, beta float64, ialpha, ibeta int64) {
	m, k, n := a.Size(0), a.Size(1), b.Size(1)
	switch out.DType() {
	case tensor.Float32:
		mmTyped(a, b, out, m, n, k, float32(alpha), float32(beta))
	case tensor.Float64:
		mmTyped(a, b, out, m, n, k, alpha, beta)
	default:
		mmTyped(a, b, out, m, n, k, ialpha, ibeta)
	}
}

// mmTyped is mmInto for one element type.
func mmTyped[T float32 | float64 | int64](a, b, out *tensor.Tensor, m, n, k int, alpha, beta T) {
	ad, lda, ta := operand[T](a)
	bd, ldb, tb := operand[T](b)
	cd := tensor.Data[T](out)[out.Offset():]
	gemm(ta, tb, m, n, k, alpha, ad, lda, bd, ldb, beta, cd, max(n, 1))
}

// finish converts a result computed in a work dtype to dtype dt.
func finish(t *tensor.Tensor, dt tensor.DType) *tensor.Tensor { return to(t, dt) }

// matrixProduct returns a@b for 2-D a [m,k] and b [k,n] of dtype dt
// (whose support the caller has checked).
func matrixProduct(a, b *tensor.Tensor, dt tensor.DType) *tensor.Tensor {
	return addmmCompute(nil, a, b, dt, ops.IntScalar(0), ops.IntScalar(1), bf16Sequential(b, a.Size(0), a.Size(1), b.Size(1)))
}

// mkldnnMinSize is PyTorch 1.13's mkldnn_gemm_min_size: bfloat16
// products with more multiply-adds go to oneDNN, which accumulates in
// float32.
const mkldnnMinSize = 16 * 16 * 16

// bf16Sequential reports whether PyTorch 1.13 computes the bfloat16
// product of a [m,k] and b [k,n] with its generic gemm_notrans_ loop, in
// bfloat16 arithmetic throughout (every product and partial sum rounded,
// k in order), rather than accumulating in float32 and rounding once: the
// product is small enough to skip oneDNN, and b is not stored column-major
// (which would select the dot-product loop that sums in float32).
func bf16Sequential(b *tensor.Tensor, m, k, n int) bool {
	return m*k*n <= mkldnnMinSize && !columnMajor(b)
}

// columnMajor reports whether operand uses the 2-D t as the transpose
// of a row-major matrix.
func columnMajor(t *tensor.Tensor) bool {
	r, c := t.Size(0), t.Size(1)
	if r == 0 || c == 0 {
		return false
	}
	st := t.Strides()
	if (st[1] == 1 || c <= 1) && (r <= 1 || st[0] >= max(c, 1)) {
		return false
	}
	return (st[0] == 1 || r <= 1) && (c <= 1 || st[1] >= max(r, 1))
}

// bf16Round rounds x to bfloat16, returned as a float32.
func bf16Round(x float32) float32 { return tensor.BHalfFromFloat32(x).Float32() }

// gemmBF16Seq computes c = beta*c + alpha*a@b for row-major float32
// copies of bfloat16 matrices a [m,k], b [k,n] and c [m,n] as PyTorch's
// gemm_notrans_ does in bfloat16: c scaled (unless beta is 1), then for
// each l in order c += a[:,l] * (b[l,:]*alpha), with b*alpha in float32
// and every product and sum rounded to bfloat16.
func gemmBF16Seq(m, n, k int, alpha float32, a, b []float32, beta float32, c []float32) {
	if beta == 0 {
		clear(c[:m*n])
	} else if beta != 1 {
		for i := range c[:m*n] {
			c[i] = bf16Round(c[i] * beta)
		}
	}
	for l := range k {
		for i := range m {
			av := a[i*k+l]
			row := c[i*n : (i+1)*n]
			for j := range row {
				val := b[l*n+j] * alpha // float32 (opmath), not rounded
				row[j] = bf16Round(row[j] + bf16Round(av*val))
			}
		}
	}
}
