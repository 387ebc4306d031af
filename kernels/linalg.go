package kernels

import (
	"fmt"
	"runtime"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Matrix products (mm, bmm, addmm, matmul, linear), embedding and dropout.
//
// Floating products go through gonum's BLAS (blas32 for float32 and
// bfloat16, which computes in float32 and rounds once at the end, as
// PyTorch's CPU gemm accumulates bfloat16 in float; blas64 for float64).
// Integer products are plain loops in int64, wrapped to the dtype at the
// end: wrapping commutes with + and *, so the result equals PyTorch's
// arithmetic in the narrow type. PyTorch 1.13 has no CPU matrix product for
// float16 and bool, and these kernels refuse them with PyTorch's message;
// the meta functions accept every dtype, as PyTorch's meta kernels do.

func registerLinalg() {
	registerBoth("aten::mm", cvMm)
	registerBoth("aten::bmm", cvBmm)
	registerBoth("aten::addmm", cvAddmm)
	registerBoth("aten::matmul", cvMatmul)
	registerBoth("aten::linear", cvLinear)
	registerBoth("aten::embedding", cvEmbedding)
	registerBoth("aten::dropout", cvDropout)
}

// cvWorkType returns the dtype a matrix product of dtype dt is computed in:
// float32 for float32 and bfloat16, float64, and int64 for integers.
func cvWorkType(dt tensor.DType) tensor.DType {
	switch {
	case dt == tensor.Float64:
		return tensor.Float64
	case dt.IsFloat():
		return tensor.Float32
	}
	return tensor.Int64
}

// cvMatmulSupported reports whether PyTorch 1.13 multiplies matrices of
// dtype dt on CPU.
func cvMatmulSupported(dt tensor.DType) bool {
	return dt != tensor.Float16 && dt != tensor.Bool
}

// cvWorkers returns how many goroutines a job of work multiply-adds (or
// element visits) over n independent items should use.
func cvWorkers(n, work int) int {
	p := runtime.GOMAXPROCS(0)
	if work < 1<<16 || n < 2 || p < 2 {
		return 1
	}
	return min(p, n)
}

// cvParallel calls f over [0, n) split into contiguous chunks, one per
// worker when the job (work operations in all) is big enough to be worth
// the goroutines. A panic in a worker is re-raised on the caller's
// goroutine, where the dispatch point recovers it.
func cvParallel(n, work int, f func(lo, hi int)) {
	p := cvWorkers(n, work)
	if p == 1 {
		if n > 0 {
			f(0, n)
		}
		return
	}
	runChunks(n, p, f)
}

// cvOperand returns a 2-D tensor t (of a BLAS element type) as a BLAS
// operand: its storage from the first element, the leading dimension, and
// whether the storage holds the transpose in row-major order. Row-major and
// column-major views (such as weight.t()) are used in place; other layouts
// are copied.
func cvOperand[T tensor.Elem](t *tensor.Tensor) (data []T, ld int, trans bool) {
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

// cvTrans maps a transposition flag to BLAS's.
func cvTrans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// cvGemm computes c = alpha*op(a)*op(b) + beta*c for an m×n row-major c
// with leading dimension ldc, through gonum's BLAS for float32 and float64
// and a plain loop for int64. With beta == 0, c is not read (NaN in it is
// ignored), as BLAS specifies.
func cvGemm[T float32 | float64 | int64](tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
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
		blas32.Implementation().Sgemm(cvTrans(tA), cvTrans(tB), m, n, k, float32(alpha), av, lda,
			any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc)
	case []float64:
		blas64.Implementation().Dgemm(cvTrans(tA), cvTrans(tB), m, n, k, float64(alpha), av, lda,
			any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc)
	case []int64:
		cvGemmInt(tA, tB, m, n, k, int64(alpha), av, lda, any(b).([]int64), ldb, int64(beta), any(c).([]int64), ldc)
	}
}

// cvGemmInt is cvGemm for int64 with wrapping arithmetic, parallel over
// rows of c for large products.
func cvGemmInt(tA, tB bool, m, n, k int, alpha int64, a []int64, lda int, b []int64, ldb int, beta int64, c []int64, ldc int) {
	cvParallel(m, m*n*k, func(lo, hi int) {
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

// cvMMInto computes out = alpha*a@b + beta*out for 2-D a [m,k] and b [k,n]
// of work dtype wt (float32, float64 or int64) and a contiguous out [m,n]
// of the same dtype.
func cvMMInto(a, b, out *tensor.Tensor, alpha, beta float64, ialpha, ibeta int64) {
	m, k, n := a.Size(0), a.Size(1), b.Size(1)
	switch out.DType() {
	case tensor.Float32:
		cvMMTyped(a, b, out, m, n, k, float32(alpha), float32(beta))
	case tensor.Float64:
		cvMMTyped(a, b, out, m, n, k, alpha, beta)
	default:
		cvMMTyped(a, b, out, m, n, k, ialpha, ibeta)
	}
}

// cvMMTyped is cvMMInto for one element type.
func cvMMTyped[T float32 | float64 | int64](a, b, out *tensor.Tensor, m, n, k int, alpha, beta T) {
	ad, lda, ta := cvOperand[T](a)
	bd, ldb, tb := cvOperand[T](b)
	cd := tensor.Data[T](out)[out.Offset():]
	cvGemm(ta, tb, m, n, k, alpha, ad, lda, bd, ldb, beta, cd, max(n, 1))
}

// cvFinish converts a result computed in a work dtype to dtype dt.
func cvFinish(t *tensor.Tensor, dt tensor.DType) *tensor.Tensor { return to(t, dt) }

// cvMatrixProduct returns a@b for 2-D a [m,k] and b [k,n] of dtype dt
// (whose support the caller has checked).
func cvMatrixProduct(a, b *tensor.Tensor, dt tensor.DType) *tensor.Tensor {
	return cvAddmmCompute(nil, a, b, dt, ops.IntScalar(0), ops.IntScalar(1), cvBF16Sequential(b, a.Size(0), a.Size(1), b.Size(1)))
}

// cvMKLDNNMinSize is PyTorch 1.13's mkldnn_gemm_min_size: bfloat16
// products with more multiply-adds go to oneDNN, which accumulates in
// float32.
const cvMKLDNNMinSize = 16 * 16 * 16

// cvBF16Sequential reports whether PyTorch 1.13 computes the bfloat16
// product of a [m,k] and b [k,n] with its generic gemm_notrans_ loop, in
// bfloat16 arithmetic throughout (every product and partial sum rounded,
// k in order), rather than accumulating in float32 and rounding once: the
// product is small enough to skip oneDNN, and b is not stored column-major
// (which would select the dot-product loop that sums in float32).
func cvBF16Sequential(b *tensor.Tensor, m, k, n int) bool {
	return m*k*n <= cvMKLDNNMinSize && !cvColumnMajor(b)
}

// cvColumnMajor reports whether cvOperand uses the 2-D t as the transpose
// of a row-major matrix.
func cvColumnMajor(t *tensor.Tensor) bool {
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

// cvBF16Round rounds x to bfloat16, returned as a float32.
func cvBF16Round(x float32) float32 { return tensor.BHalfFromFloat32(x).Float32() }

// cvGemmBF16Seq computes c = beta*c + alpha*a@b for row-major float32
// copies of bfloat16 matrices a [m,k], b [k,n] and c [m,n] as PyTorch's
// gemm_notrans_ does in bfloat16: c scaled (unless beta is 1), then for
// each l in order c += a[:,l] * (b[l,:]*alpha), with b*alpha in float32
// and every product and sum rounded to bfloat16.
func cvGemmBF16Seq(m, n, k int, alpha float32, a, b []float32, beta float32, c []float32) {
	if beta == 0 {
		clear(c[:m*n])
	} else if beta != 1 {
		for i := range c[:m*n] {
			c[i] = cvBF16Round(c[i] * beta)
		}
	}
	for l := range k {
		for i := range m {
			av := a[i*k+l]
			row := c[i*n : (i+1)*n]
			for j := range row {
				val := b[l*n+j] * alpha // float32 (opmath), not rounded
				row[j] = cvBF16Round(row[j] + cvBF16Round(av*val))
			}
		}
	}
}

// cvBatchProduct returns a@b for 3-D a [B,m,k] and b [B,k,n] of dtype dt,
// running batches in parallel when each product is small.
func cvBatchProduct(a, b *tensor.Tensor, dt tensor.DType) *tensor.Tensor {
	wt := cvWorkType(dt)
	nb, m, k, n := a.Size(0), a.Size(1), a.Size(2), b.Size(2)
	out := tensor.Empty(wt, nb, m, n)
	if out.Numel() == 0 {
		return cvFinish(out, dt)
	}
	// PyTorch's bfloat16 bmm sums in float32 for tiny products (under 400
	// multiply-adds per batch) and in oneDNN for large batches; in between
	// it runs mm's gemm per batch.
	bf16Mid := dt == tensor.BFloat16 && m*k*n >= 400 && nb*m*k*n <= cvMKLDNNMinSize
	orig := b
	a, b = to(a, wt), to(b, wt)
	run := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			ai := tensor.Must(a.Select(0, i))
			bi := tensor.Must(b.Select(0, i))
			oi := tensor.Must(out.Select(0, i))
			if bf16Mid && !cvColumnMajor(tensor.Must(orig.Select(0, i))) {
				cvGemmBF16Seq(m, n, k, 1, cvVals[float32](ai.Contiguous()), cvVals[float32](bi.Contiguous()), 0, tensor.Data[float32](oi)[oi.Offset():])
				continue
			}
			cvMMInto(ai, bi, oi, 1, 0, 1, 0)
		}
	}
	if m*n*k >= 64*64*64 {
		// gonum parallelizes large products itself.
		run(0, nb)
	} else {
		cvParallel(nb, nb*m*n*k, run)
	}
	return cvFinish(out, dt)
}

// cvCheckMatrix returns an error blaming arg unless t is 2-D.
func cvCheckMatrix(c *ops.Call, arg, what string, t *tensor.Tensor) error {
	if t.Dim() != 2 {
		return c.Errorf(arg, "%s must be a matrix, got %d-D tensor", what, t.Dim())
	}
	return nil
}

// cvCheckMultipliable returns PyTorch's error for mat1 [m,k1] and mat2
// [k2,n] with k1 != k2.
func cvCheckMultipliable(c *ops.Call, arg string, a, b *tensor.Tensor) error {
	if a.Size(1) != b.Size(0) {
		return c.Errorf(arg, "mat1 and mat2 shapes cannot be multiplied (%dx%d and %dx%d)", a.Size(0), a.Size(1), b.Size(0), b.Size(1))
	}
	return nil
}

// cvSameDType returns PyTorch's "expected scalar type" error blaming arg
// unless b has a's dtype.
func cvSameDType(c *ops.Call, arg string, a, b *tensor.Tensor) error {
	if a.DType() != b.DType() {
		return c.Errorf(arg, "expected scalar type %s but found %s", scalarTypeName(a.DType()), scalarTypeName(b.DType()))
	}
	return nil
}

// cvMm is aten::mm: the product of two matrices of the same dtype.
func cvMm(c *ops.Call) ([]any, error) {
	a, b := c.Tensor("self"), c.Tensor("mat2")
	if err := cvCheckMatrix(c, "self", "self", a); err != nil {
		return nil, err
	}
	if err := cvCheckMatrix(c, "mat2", "mat2", b); err != nil {
		return nil, err
	}
	if err := cvCheckMultipliable(c, "mat2", a, b); err != nil {
		return nil, err
	}
	if err := cvSameDType(c, "mat2", a, b); err != nil {
		return nil, err
	}
	dt := a.DType()
	if meta(a, b) {
		return cvOne(empty(true, dt, []int{a.Size(0), b.Size(1)}))
	}
	if !cvMatmulSupported(dt) {
		return nil, notImplemented(c, "self", "addmm_impl_cpu_", dt)
	}
	return one(cvMatrixProduct(a, b, dt)), nil
}

// cvBmm is aten::bmm: batched products of [B,m,k] and [B,k,n] tensors.
func cvBmm(c *ops.Call) ([]any, error) {
	a, b := c.Tensor("self"), c.Tensor("mat2")
	if a.Dim() != 3 {
		return nil, c.Errorf("self", "batch1 must be a 3D tensor, got %d-D", a.Dim())
	}
	if b.Dim() != 3 {
		return nil, c.Errorf("mat2", "batch2 must be a 3D tensor, got %d-D", b.Dim())
	}
	if b.Size(0) != a.Size(0) || b.Size(1) != a.Size(2) {
		return nil, c.Errorf("mat2", "Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].",
			a.Size(0), a.Size(2), b.Size(0), b.Size(1))
	}
	if err := cvSameDType(c, "mat2", a, b); err != nil {
		return nil, err
	}
	dt := a.DType()
	if meta(a, b) {
		return cvOne(empty(true, dt, []int{a.Size(0), a.Size(1), b.Size(2)}))
	}
	if !cvMatmulSupported(dt) {
		return nil, notImplemented(c, "self", "bmm", dt)
	}
	return one(cvBatchProduct(a, b, dt)), nil
}

// cvAddmm is aten::addmm: beta*self + alpha*(mat1@mat2), with self
// broadcast to the product's shape. With beta == 0 self is not read, so
// NaN and inf in it do not propagate.
func cvAddmm(c *ops.Call) ([]any, error) {
	self, a, b := c.Tensor("self"), c.Tensor("mat1"), c.Tensor("mat2")
	beta, alpha := c.Scalar("beta"), c.Scalar("alpha")
	if err := cvCheckMatrix(c, "mat1", "mat1", a); err != nil {
		return nil, err
	}
	if err := cvCheckMatrix(c, "mat2", "mat2", b); err != nil {
		return nil, err
	}
	if err := cvCheckMultipliable(c, "mat2", a, b); err != nil {
		return nil, err
	}
	shape := []int{a.Size(0), b.Size(1)}
	bias, err := self.Expand(shape...)
	if err != nil {
		return nil, c.Errorf("self", "%v", err)
	}
	if a.DType() != b.DType() {
		return nil, c.Errorf("mat2", "mat1 and mat2 must have the same dtype")
	}
	if self.DType() != b.DType() {
		return nil, c.Errorf("self", "self and mat2 must have the same dtype")
	}
	dt := a.DType()
	if meta(self, a, b) {
		return cvOne(empty(true, dt, shape))
	}
	if !cvMatmulSupported(dt) {
		return nil, notImplemented(c, "self", "addmm_impl_cpu_", dt)
	}
	return one(cvAddmmCompute(bias, a, b, dt, beta, alpha, cvBF16Sequential(b, a.Size(0), a.Size(1), b.Size(1)))), nil
}

// cvAddmmCompute returns beta*bias + alpha*(a@b) for bias already expanded
// to the result's shape: the result is initialized with bias and the gemm
// accumulates onto it, as PyTorch's addmm does. Scalars are cast to the
// work dtype (integers truncate a float alpha or beta).
//
// For bfloat16, seq selects PyTorch's all-bfloat16 loop (see
// cvBF16Sequential); otherwise it computes in float32 and rounds once.
func cvAddmmCompute(bias, a, b *tensor.Tensor, dt tensor.DType, beta, alpha ops.Scalar, seq bool) *tensor.Tensor {
	wt := cvWorkType(dt)
	m, k, n := a.Size(0), a.Size(1), b.Size(1)
	out := tensor.Empty(wt, m, n)
	bf, af := beta.Float(), alpha.Float()
	bi, ai := beta.Int(), alpha.Int()
	if bf != 0 && bias != nil {
		if err := out.CopyFrom(bias); err != nil {
			panic(err) // bias has out's shape: cannot happen
		}
	} else {
		bf, bi = 0, 0
	}
	if dt == tensor.BFloat16 && seq {
		ac, bc := to(a, wt).Contiguous(), to(b, wt).Contiguous()
		cvGemmBF16Seq(m, n, k, float32(af), cvVals[float32](ac), cvVals[float32](bc), float32(bf), tensor.Data[float32](out))
		return cvFinish(out, dt)
	}
	cvMMInto(to(a, wt), to(b, wt), out, af, bf, ai, bi)
	return cvFinish(out, dt)
}

// cvMatmul is aten::matmul with torch.matmul's cases: dot for two vectors,
// matrix-vector and vector-matrix products, mm, and batched products with
// broadcast batch dimensions (a 1-D operand gets a dimension of size 1
// prepended or appended, removed from the result).
func cvMatmul(c *ops.Call) ([]any, error) {
	out, err := cvMatmulTensors(c, "self", "other", c.Tensor("self"), c.Tensor("other"))
	if err != nil {
		return nil, err
	}
	return one(out), nil
}

// cvMatmulTensors computes torch.matmul(a, b); argA and argB name the
// arguments errors blame.
func cvMatmulTensors(c *ops.Call, argA, argB string, a, b *tensor.Tensor) (*tensor.Tensor, error) {
	da, db := a.Dim(), b.Dim()
	if da == 0 || db == 0 {
		arg := argA
		if da != 0 {
			arg = argB
		}
		return nil, c.Errorf(arg, "both arguments to matmul need to be at least 1D, but they are %dD and %dD", da, db)
	}
	dt := a.DType()
	isMeta := meta(a, b)
	if da == 1 && db == 1 {
		if a.Size(0) != b.Size(0) {
			return nil, c.Errorf(argB, "inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number of elements, but got %d and %d elements respectively",
				a.Size(0), b.Size(0), a.Size(0), b.Size(0))
		}
		if a.DType() != b.DType() {
			return nil, c.Errorf(argB, "dot : expected both vectors to have same dtype, but found %s and %s", scalarTypeName(a.DType()), scalarTypeName(b.DType()))
		}
		if isMeta {
			return empty(true, dt, []int{})
		}
		if !cvMatmulSupported(dt) {
			return nil, notImplemented(c, argA, "dot", dt)
		}
		// dot sums in float32 (opmath) for bfloat16.
		r := cvAddmmCompute(nil, tensor.Must(a.Unsqueeze(0)), tensor.Must(b.Unsqueeze(1)), dt, ops.IntScalar(0), ops.IntScalar(1), false)
		return tensor.Must(r.Reshape()), nil
	}
	k := a.Size(-1)
	kb := b.Size(0)
	if db >= 2 {
		kb = b.Size(-2)
	}
	if da <= 2 && db <= 2 {
		if k != kb {
			if db == 1 {
				return nil, c.Errorf(argB, "size mismatch, got %d, %dx%d,%d", a.Size(0), a.Size(0), k, kb)
			}
			if da == 1 {
				return nil, c.Errorf(argB, "mat1 and mat2 shapes cannot be multiplied (1x%d and %dx%d)", k, kb, b.Size(1))
			}
			return nil, c.Errorf(argB, "mat1 and mat2 shapes cannot be multiplied (%dx%d and %dx%d)", a.Size(0), k, kb, b.Size(1))
		}
		if a.DType() != b.DType() {
			return nil, c.Errorf(argB, "expected scalar type %s but found %s", scalarTypeName(a.DType()), scalarTypeName(b.DType()))
		}
		a2, b2 := a, b
		if da == 1 {
			a2 = tensor.Must(a.Unsqueeze(0))
		}
		if db == 1 {
			b2 = tensor.Must(b.Unsqueeze(1))
		}
		var shape []int
		if da == 2 {
			shape = append(shape, a.Size(0))
		}
		if db == 2 {
			shape = append(shape, b.Size(1))
		}
		if isMeta {
			return empty(true, dt, shape)
		}
		if !cvMatmulSupported(dt) {
			return nil, notImplemented(c, argA, "addmm_impl_cpu_", dt)
		}
		return tensor.Must(cvMatrixProduct(a2, b2, dt).Reshape(shape...)), nil
	}
	// Batched: at least one operand has 3 or more dimensions.
	as, bs := a.Shape(), b.Shape()
	if da == 1 {
		as = []int{1, as[0]}
	}
	if db == 1 {
		bs = []int{bs[0], 1}
	}
	m, n := as[len(as)-2], bs[len(bs)-1]
	batch, err := ops.BroadcastShapes(as[:len(as)-2], bs[:len(bs)-2])
	if err != nil {
		return nil, c.Errorf(argB, "%v", err)
	}
	if k != kb {
		return nil, c.Errorf(argB, "Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].",
			cvProd(batch), k, cvProd(batch), kb)
	}
	if a.DType() != b.DType() {
		return nil, c.Errorf(argB, "expected scalar type %s but found %s", scalarTypeName(a.DType()), scalarTypeName(b.DType()))
	}
	shape := slices.Clone(batch)
	if da > 1 {
		shape = append(shape, m)
	}
	if db > 1 {
		shape = append(shape, n)
	}
	if isMeta {
		return empty(true, dt, shape)
	}
	if !cvMatmulSupported(dt) {
		return nil, notImplemented(c, argA, "bmm", dt)
	}
	nb := cvProd(batch)
	if db <= 2 && da >= 3 {
		// Fold a's batch dimensions into its rows: one mm.
		b2 := b
		if db == 1 {
			b2 = tensor.Must(b.Unsqueeze(1))
		}
		a2 := tensor.Must(a.Reshape(nb*m, k))
		return tensor.Must(cvMatrixProduct(a2, b2, dt).Reshape(shape...)), nil
	}
	a3 := tensor.Must(tensor.Must(tensor.Must(a.Reshape(as...)).Expand(append(slices.Clone(batch), m, k)...)).Reshape(nb, m, k))
	b3 := tensor.Must(tensor.Must(tensor.Must(b.Reshape(bs...)).Expand(append(slices.Clone(batch), k, n)...)).Reshape(nb, k, n))
	return tensor.Must(cvBatchProduct(a3, b3, dt).Reshape(shape...)), nil
}

// cvProd returns the product of sizes.
func cvProd(sizes []int) int {
	p := 1
	for _, s := range sizes {
		p *= s
	}
	return p
}

// cvLinear is aten::linear: input @ weight.t() (+ bias), following
// PyTorch 1.13's paths: addmm for 2-D input with a bias and for contiguous
// 3-D input with a bias (folded to 2-D), and otherwise matmul followed by
// an in-place add of the bias, which must broadcast to the product's shape
// and whose dtype may differ if the sum casts back to the product's dtype.
func cvLinear(c *ops.Call) ([]any, error) {
	x, w, bias := c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias")
	if w.Dim() > 2 {
		return nil, c.Errorf("weight", "t() expects a tensor with <= 2 dimensions, but self is %dD", w.Dim())
	}
	wt := w
	if w.Dim() == 2 {
		wt = tensor.Must(w.T())
	}
	if bias != nil && (x.Dim() == 2 || (x.Dim() == 3 && x.IsContiguous())) {
		x2 := x
		if x.Dim() == 3 {
			x2 = tensor.Must(x.Reshape(-1, x.Size(2)))
		}
		if wt.Dim() != 2 {
			return nil, c.Errorf("weight", "mat2 must be a matrix, got %d-D tensor", wt.Dim())
		}
		if err := cvCheckMultipliable(c, "weight", x2, wt); err != nil {
			return nil, err
		}
		shape := []int{x2.Size(0), wt.Size(1)}
		bb, err := bias.Expand(shape...)
		if err != nil {
			return nil, c.Errorf("bias", "%v", err)
		}
		if x.DType() != w.DType() {
			return nil, c.Errorf("weight", "mat1 and mat2 must have the same dtype")
		}
		if bias.DType() != w.DType() {
			return nil, c.Errorf("bias", "self and mat2 must have the same dtype")
		}
		dt := x.DType()
		outShape := shape
		if x.Dim() == 3 {
			outShape = []int{x.Size(0), x.Size(1), wt.Size(1)}
		}
		if meta(x, w, bias) {
			return cvOne(empty(true, dt, outShape))
		}
		if !cvMatmulSupported(dt) {
			return nil, notImplemented(c, "input", "addmm_impl_cpu_", dt)
		}
		r := cvAddmmCompute(bb, x2, wt, dt, ops.IntScalar(1), ops.IntScalar(1), cvBF16Sequential(wt, x2.Size(0), x2.Size(1), wt.Size(1)))
		return one(tensor.Must(r.Reshape(outShape...))), nil
	}
	out, err := cvMatmulTensors(c, "input", "weight", x, wt)
	if err != nil {
		return nil, err
	}
	if bias == nil {
		return one(out), nil
	}
	return cvAddInPlace(c, "bias", out, bias)
}

// cvAddInPlace returns out + b as out.add_(b) computes it: b broadcasts to
// out's shape, the sum is computed in the promoted dtype and cast back to
// out's dtype, which the promoted dtype must be able to cast to.
func cvAddInPlace(c *ops.Call, arg string, out, b *tensor.Tensor) ([]any, error) {
	shape, err := ops.BroadcastShapes(out.Shape(), b.Shape())
	if err != nil {
		return nil, c.Errorf(arg, "%v", err)
	}
	if !slices.Equal(shape, out.Shape()) {
		return nil, c.Errorf(arg, "output with shape %s doesn't match the broadcast shape %s", cvShapeString(out.Shape()), cvShapeString(shape))
	}
	dt, err := ops.ResultType(out, b)
	if err != nil {
		return nil, c.Errorf(arg, "%v", err)
	}
	odt := out.DType()
	if (dt.IsFloat() && !odt.IsFloat()) || (dt != tensor.Bool && odt == tensor.Bool) {
		return nil, c.Errorf(arg, "result type %s can't be cast to the desired output type %s", scalarTypeName(dt), scalarTypeName(odt))
	}
	if meta(out, b) {
		return cvOne(empty(true, odt, shape))
	}
	sum := mapBinary(out, b, shape, dt,
		func(x, y float64) float64 { return x + y },
		func(x, y int64) int64 { return x + y })
	return one(to(sum, odt)), nil
}

// cvEmbedding is aten::embedding: the rows of the 2-D weight selected by
// integer indices, in a tensor of shape indices.shape + [embedding_dim].
// padding_idx, scale_grad_by_freq and sparse only affect the gradient.
func cvEmbedding(c *ops.Call) ([]any, error) {
	w, idx := c.Tensor("weight"), c.Tensor("indices")
	if w.Dim() != 2 {
		return nil, c.Errorf("weight", "'weight' must be 2-D")
	}
	if idx.DType() != tensor.Int64 && idx.DType() != tensor.Int32 {
		return nil, c.Errorf("indices", "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got %s instead", idx.DType())
	}
	rows, dim := w.Size(0), w.Size(1)
	shape := append(idx.Shape(), dim)
	if meta(w, idx) {
		return cvOne(empty(true, w.DType(), shape))
	}
	iv := idx.Int64s()
	for _, i := range iv {
		if i < 0 || i >= int64(rows) {
			return nil, c.Errorf("indices", "index out of range in self (index %d, %d rows)", i, rows)
		}
	}
	wc := w.Contiguous()
	out := tensor.Empty(w.DType(), shape...)
	cvEmbeddingCopy(wc, out, iv, dim)
	return one(out), nil
}

// cvEmbeddingCopy copies rows iv of the contiguous 2-D w into out.
func cvEmbeddingCopy(w, out *tensor.Tensor, iv []int64, dim int) {
	switch w.DType() {
	case tensor.Float32:
		cvGatherRows[float32](w, out, iv, dim)
	case tensor.Float64:
		cvGatherRows[float64](w, out, iv, dim)
	case tensor.Float16:
		cvGatherRows[tensor.Half](w, out, iv, dim)
	case tensor.BFloat16:
		cvGatherRows[tensor.BHalf](w, out, iv, dim)
	case tensor.Int64:
		cvGatherRows[int64](w, out, iv, dim)
	case tensor.Int32:
		cvGatherRows[int32](w, out, iv, dim)
	case tensor.Int16:
		cvGatherRows[int16](w, out, iv, dim)
	case tensor.Int8:
		cvGatherRows[int8](w, out, iv, dim)
	case tensor.Uint8:
		cvGatherRows[uint8](w, out, iv, dim)
	case tensor.Bool:
		cvGatherRows[bool](w, out, iv, dim)
	}
}

// cvGatherRows copies rows iv of the contiguous 2-D w into out.
func cvGatherRows[T tensor.Elem](w, out *tensor.Tensor, iv []int64, dim int) {
	src := tensor.Values[T](w)
	dst := tensor.Data[T](out)
	for r, i := range iv {
		copy(dst[r*dim:(r+1)*dim], src[int(i)*dim:(int(i)+1)*dim])
	}
}

// cvDropout is aten::dropout. p must lie in [0, 1]. With train=False, p=0
// or no elements it returns the input itself, as PyTorch does; with p=1 it
// returns input*0 (so NaN and inf become NaN). Dropping a random subset
// needs a random generator, which reference kernels do not have: that case
// is an error.
func cvDropout(c *ops.Call) ([]any, error) {
	x, p, train := c.Tensor("input"), c.Float("p"), c.Bool("train")
	if !(p >= 0 && p <= 1) {
		return nil, c.Errorf("p", "dropout probability has to be between 0 and 1, but got %v", p)
	}
	if p == 0 || !train || x.Numel() == 0 {
		return one(x), nil
	}
	if p == 1 {
		return one(mapUnary(x, x.DType(),
			func(v float64) float64 { return v * 0 },
			func(int64) int64 { return 0 })), nil
	}
	if meta(x) {
		return cvOne(empty(true, x.DType(), x.Shape()))
	}
	return nil, c.Errorf("train", "dropout with train=True and 0 < p < 1 (p=%v) draws random numbers, which needs a random generator; the reference kernels have none (export the model in eval mode)", p)
}

// cvShapeString formats a shape as PyTorch prints sizes: [1, 2, 3].
func cvShapeString(s []int) string {
	b := []byte{'['}
	for i, d := range s {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = fmt.Appendf(b, "%d", d)
	}
	return string(append(b, ']'))
}

// cvOne wraps a single tensor result that may have failed.
func cvOne(t *tensor.Tensor, err error) ([]any, error) {
	if err != nil {
		return nil, err
	}
	return one(t), nil
}
