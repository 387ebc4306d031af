package kernels

import (
	"slices"

	fastgemm "github.com/gofx/gofx/internal/gemm"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Matrix products, ATen's LinearAlgebra.cpp: mm, bmm, addmm and matmul,
// and the composites dot, vdot, mv, outer, ger, trace, baddbmm, addbmm.
// They multiply through blas.go. PyTorch 1.13 has no CPU matrix product
// for float16 and bool, and these kernels refuse them with PyTorch's
// message; the meta functions accept every dtype, as PyTorch's meta
// kernels do.

// registerLinearAlgebra registers the kernels of linear_algebra.go.
func registerLinearAlgebra() {
	registerBoth("aten::mm", mm)
	registerBoth("aten::bmm", bmm)
	registerBoth("aten::addmm", addmm)
	registerBoth("aten::matmul", matmul)
	registerBoth("aten::dot", dot)
	registerBoth("aten::vdot", dot)
	registerBoth("aten::mv", mv)
	registerBoth("aten::outer", outer)
	registerBoth("aten::ger", outer)
	registerBoth("aten::trace", trace)
	registerBoth("aten::baddbmm", baddbmm)
	registerBoth("aten::addbmm", addbmm)
}

// batchProduct returns a@b for 3-D a [B,m,k] and b [B,k,n] of dtype dt,
// running batches in parallel when each product is small.
func batchProduct(a, b *tensor.Tensor, dt tensor.DType) *tensor.Tensor {
	wt := workType(dt)
	nb, m, k, n := a.Size(0), a.Size(1), a.Size(2), b.Size(2)
	out := tensor.EmptyUninit(wt, nb, m, n) // every product writes its whole slice
	if out.Numel() == 0 {
		return finish(out, dt)
	}
	// PyTorch's bfloat16 bmm sums in float32 for tiny products (under 400
	// multiply-adds per batch) and in oneDNN for large batches; in between
	// it runs mm's gemm per batch.
	bf16Mid := dt == tensor.BFloat16 && m*k*n >= 400 && nb*m*k*n <= mkldnnMinSize
	orig := b
	a, b = to(a, wt), to(b, wt)
	run := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			ai := tensor.Must(a.Select(0, i))
			bi := tensor.Must(b.Select(0, i))
			oi := tensor.Must(out.Select(0, i))
			if bf16Mid && !columnMajor(tensor.Must(orig.Select(0, i))) {
				gemmBF16Seq(m, n, k, 1, valuesOf[float32](ai.Contiguous()), valuesOf[float32](bi.Contiguous()), 0, tensor.Data[float32](oi)[oi.Offset():])
				continue
			}
			mmInto(ai, bi, oi, 1, 0, 1, 0)
		}
	}
	if m*n*k >= 64*64*64 {
		// internal/gemm parallelizes large products itself.
		run(0, nb)
	} else {
		parallel(nb, nb*m*n*k, run)
	}
	return finish(out, dt)
}

// checkMatrix returns an error blaming arg unless t is 2-D.
func checkMatrix(c *ops.Call, arg, what string, t *tensor.Tensor) error {
	if t.Dim() != 2 {
		return c.Errorf(arg, "%s must be a matrix, got %d-D tensor", what, t.Dim())
	}
	return nil
}

// checkMultipliable returns PyTorch's error for mat1 [m,k1] and mat2
// [k2,n] with k1 != k2.
func checkMultipliable(c *ops.Call, arg string, a, b *tensor.Tensor) error {
	if a.Size(1) != b.Size(0) {
		return c.Errorf(arg, "mat1 and mat2 shapes cannot be multiplied (%dx%d and %dx%d)", a.Size(0), a.Size(1), b.Size(0), b.Size(1))
	}
	return nil
}

// sameDTypes returns PyTorch's "expected scalar type" error blaming arg
// unless b has a's dtype.
func sameDTypes(c *ops.Call, arg string, a, b *tensor.Tensor) error {
	if a.DType() != b.DType() {
		return c.Errorf(arg, "expected scalar type %s but found %s", scalarTypeName(a.DType()), scalarTypeName(b.DType()))
	}
	return nil
}

// mm is aten::mm: the product of two matrices of the same dtype.
func mm(c *ops.Call) ([]any, error) {
	a, b := c.Tensor("self"), c.Tensor("mat2")
	if err := checkMatrix(c, "self", "self", a); err != nil {
		return nil, err
	}
	if err := checkMatrix(c, "mat2", "mat2", b); err != nil {
		return nil, err
	}
	if err := checkMultipliable(c, "mat2", a, b); err != nil {
		return nil, err
	}
	if err := sameDTypes(c, "mat2", a, b); err != nil {
		return nil, err
	}
	dt := a.DType()
	if meta(a, b) {
		return oneOrErr(empty(true, dt, []int{a.Size(0), b.Size(1)}))
	}
	if !matmulSupported(dt) {
		return nil, notImplemented(c, "self", "addmm_impl_cpu_", dt)
	}
	return one(matrixProduct(a, b, dt)), nil
}

// bmm is aten::bmm: batched products of [B,m,k] and [B,k,n] tensors.
func bmm(c *ops.Call) ([]any, error) {
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
	if err := sameDTypes(c, "mat2", a, b); err != nil {
		return nil, err
	}
	dt := a.DType()
	if meta(a, b) {
		return oneOrErr(empty(true, dt, []int{a.Size(0), a.Size(1), b.Size(2)}))
	}
	if !matmulSupported(dt) {
		return nil, notImplemented(c, "self", "bmm", dt)
	}
	return one(batchProduct(a, b, dt)), nil
}

// addmm is aten::addmm: beta*self + alpha*(mat1@mat2), with self
// broadcast to the product's shape. With beta == 0 self is not read, so
// NaN and inf in it do not propagate.
func addmm(c *ops.Call) ([]any, error) {
	self, a, b := c.Tensor("self"), c.Tensor("mat1"), c.Tensor("mat2")
	beta, alpha := c.Scalar("beta"), c.Scalar("alpha")
	if err := checkMatrix(c, "mat1", "mat1", a); err != nil {
		return nil, err
	}
	if err := checkMatrix(c, "mat2", "mat2", b); err != nil {
		return nil, err
	}
	if err := checkMultipliable(c, "mat2", a, b); err != nil {
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
		return oneOrErr(empty(true, dt, shape))
	}
	if !matmulSupported(dt) {
		return nil, notImplemented(c, "self", "addmm_impl_cpu_", dt)
	}
	return one(addmmCompute(bias, a, b, dt, beta, alpha, bf16Sequential(b, a.Size(0), a.Size(1), b.Size(1)))), nil
}

// addmmCompute returns beta*bias + alpha*(a@b) for bias already expanded
// to the result's shape. Scalars are cast to the work dtype (integers
// truncate a float alpha or beta). A float bias that is one row or one
// column repeated (linear's, and addmm's usual [n]) is added in the
// GEMM's final stores (beta*bias, then alpha*(a@b) added to it); any
// other bias initializes the result and the GEMM accumulates onto it, as
// PyTorch's addmm does. The result comes from tensor.EmptyUninit: every
// element is written.
//
// For bfloat16, seq selects PyTorch's all-bfloat16 loop (see
// bf16Sequential); otherwise it computes in float32 and rounds once.
func addmmCompute(bias, a, b *tensor.Tensor, dt tensor.DType, beta, alpha ops.Scalar, seq bool) *tensor.Tensor {
	wt := workType(dt)
	m, k, n := a.Size(0), a.Size(1), b.Size(1)
	out := tensor.EmptyUninit(wt, m, n)
	if m == 0 || n == 0 {
		return finish(out, dt)
	}
	bf, af := beta.Float(), alpha.Float()
	bi, ai := beta.Int(), alpha.Int()
	if bf == 0 || bias == nil {
		bias, bf, bi = nil, 0, 0
	}
	if dt == tensor.BFloat16 && seq {
		if bias != nil {
			fill(out, bias)
		}
		ac, bc := to(a, wt).Contiguous(), to(b, wt).Contiguous()
		gemmBF16Seq(m, n, k, float32(af), valuesOf[float32](ac), valuesOf[float32](bc), float32(bf), tensor.Data[float32](out))
		return finish(out, dt)
	}
	a, b = to(a, wt), to(b, wt)
	switch {
	case bias == nil:
		mmInto(a, b, out, af, 0, ai, 0)
	case wt == tensor.Float32 && biasEpilogue[float32](bias, a, b, out, float32(af), float32(bf)):
	case wt == tensor.Float64 && biasEpilogue[float64](bias, a, b, out, af, bf):
	default:
		fill(out, bias)
		mmInto(a, b, out, af, bf, ai, bi)
	}
	return finish(out, dt)
}

// fill copies src (of out's shape, any dtype and strides) into out.
func fill(out, src *tensor.Tensor) {
	if err := out.CopyFrom(src); err != nil {
		panic(err) // src has out's shape: cannot happen
	}
}

// biasEpilogue computes out = alpha*(a@b) + beta*bias for float a, b and
// a contiguous out of element type T, when bias (expanded to out's shape)
// repeats one row or one column: the GEMM adds it in its final stores.
// It reports false, computing nothing, for any other bias.
func biasEpilogue[T float32 | float64](bias, a, b, out *tensor.Tensor, alpha, beta T) bool {
	m, n := out.Size(0), out.Size(1)
	st := bias.Strides()
	var vec *tensor.Tensor
	ep := new(fastgemm.Epilogue[T])
	switch {
	case st[0] == 0 || m == 1:
		vec = tensor.Must(bias.Select(0, 0))
	case st[1] == 0 || n == 1:
		vec = tensor.Must(bias.Select(1, 0))
	default:
		return false
	}
	v := vectorOf[T](vec, beta)
	if st[0] == 0 || m == 1 {
		ep.ColBias = v
	} else {
		ep.RowBias = v
	}
	ad, lda, tA := operand[T](a)
	bd, ldb, tB := operand[T](b)
	c := tensor.Data[T](out)[out.Offset():]
	if err := fastgemm.GemmEpilogue(tA, tB, m, n, a.Size(1), alpha, ad, lda, bd, ldb, 0, c, max(n, 1), ep); err != nil {
		panic(err) // the operands are consistent: cannot happen
	}
	return true
}

// vectorOf returns the elements of the 1-D t times s as a slice of T:
// t's own storage when it is contiguous of element type T and s is 1, a
// new slice otherwise.
func vectorOf[T float32 | float64](t *tensor.Tensor, s T) []T {
	n := t.Size(0)
	if s == 1 && t.DType() == tensor.DTypeOf[T]() && (t.Strides()[0] == 1 || n <= 1) {
		return tensor.Data[T](t)[t.Offset() : t.Offset()+n]
	}
	v := valuesOf[T](to(t, tensor.DTypeOf[T]()))
	out := make([]T, n)
	for i, x := range v {
		out[i] = s * x
	}
	return out
}

// matmul is aten::matmul with torch.matmul's cases: dot for two vectors,
// matrix-vector and vector-matrix products, mm, and batched products with
// broadcast batch dimensions (a 1-D operand gets a dimension of size 1
// prepended or appended, removed from the result).
func matmul(c *ops.Call) ([]any, error) {
	out, err := matmulTensors(c, "self", "other", c.Tensor("self"), c.Tensor("other"))
	if err != nil {
		return nil, err
	}
	return one(out), nil
}

// matmulTensors computes torch.matmul(a, b); argA and argB name the
// arguments errors blame.
func matmulTensors(c *ops.Call, argA, argB string, a, b *tensor.Tensor) (*tensor.Tensor, error) {
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
		if !matmulSupported(dt) {
			return nil, notImplemented(c, argA, "dot", dt)
		}
		// dot sums in float32 (opmath) for bfloat16.
		r := addmmCompute(nil, tensor.Must(a.Unsqueeze(0)), tensor.Must(b.Unsqueeze(1)), dt, ops.IntScalar(0), ops.IntScalar(1), false)
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
		if !matmulSupported(dt) {
			return nil, notImplemented(c, argA, "addmm_impl_cpu_", dt)
		}
		return tensor.Must(matrixProduct(a2, b2, dt).Reshape(shape...)), nil
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
			product(batch), k, product(batch), kb)
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
	if !matmulSupported(dt) {
		return nil, notImplemented(c, argA, "bmm", dt)
	}
	nb := product(batch)
	if db <= 2 && da >= 3 {
		// Fold a's batch dimensions into its rows: one mm.
		b2 := b
		if db == 1 {
			b2 = tensor.Must(b.Unsqueeze(1))
		}
		a2 := tensor.Must(a.Reshape(nb*m, k))
		return tensor.Must(matrixProduct(a2, b2, dt).Reshape(shape...)), nil
	}
	a3 := tensor.Must(tensor.Must(tensor.Must(a.Reshape(as...)).Expand(append(slices.Clone(batch), m, k)...)).Reshape(nb, m, k))
	b3 := tensor.Must(tensor.Must(tensor.Must(b.Reshape(bs...)).Expand(append(slices.Clone(batch), k, n)...)).Reshape(nb, k, n))
	return tensor.Must(batchProduct(a3, b3, dt).Reshape(shape...)), nil
}

// product returns the product of sizes.
func product(sizes []int) int {
	p := 1
	for _, s := range sizes {
		p *= s
	}
	return p
}

// dot is aten::dot (and vdot, the same for real tensors): the inner
// product of two 1-d tensors of one dtype and size.
func dot(c *ops.Call) ([]any, error) {
	a := c.Tensor("self")
	otherArg := "tensor"
	if !hasArg(c, otherArg) {
		otherArg = "other"
	}
	b := c.Tensor(otherArg)
	if a.Dim() != 1 || b.Dim() != 1 {
		return nil, c.Errorf(otherArg, "1D tensors expected, but got %dD and %dD tensors", a.Dim(), b.Dim())
	}
	if a.DType() != b.DType() {
		return nil, c.Errorf(otherArg, "dot : expected both vectors to have same dtype, but found %s and %s", scalarTypeName(a.DType()), scalarTypeName(b.DType()))
	}
	if a.Numel() != b.Numel() {
		return nil, c.Errorf(otherArg, "inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number of elements, but got %d and %d elements respectively",
			a.Numel(), b.Numel(), a.Numel(), b.Numel())
	}
	return delegate(c, "aten::matmul", []any{a, b}, nil)
}

// mv is aten::mv: matrix times vector.
func mv(c *ops.Call) ([]any, error) {
	m, v := c.Tensor("self"), c.Tensor("vec")
	if m.Dim() != 2 || v.Dim() != 1 {
		return nil, c.Errorf("vec", "vector + matrix @ vector expected, got 1, %d, %d", m.Dim(), v.Dim())
	}
	if m.Size(1) != v.Size(0) {
		return nil, c.Errorf("vec", "size mismatch, got input (%d), mat (%dx%d), vec (%d)", m.Size(0), m.Size(0), m.Size(1), v.Size(0))
	}
	return delegate(c, "aten::matmul", []any{m, v}, nil)
}

// outer is aten::outer (and ger): self[i]*vec2[j].
func outer(c *ops.Call) ([]any, error) {
	a, b := c.Tensor("self"), c.Tensor("vec2")
	if a.Dim() != 1 {
		return nil, c.Errorf("self", "outer: Expected 1-D argument self, but got %d-D", a.Dim())
	}
	if b.Dim() != 1 {
		return nil, c.Errorf("vec2", "outer: Expected 1-D argument vec2, but got %d-D", b.Dim())
	}
	return delegate(c, "aten::mul.Tensor", []any{tensor.Must(a.Reshape(a.Size(0), 1)), b}, nil)
}

// trace is aten::trace: the sum of the diagonal of a matrix, integers
// summed into int64.
func trace(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	if x.Dim() != 2 {
		return nil, c.Errorf("self", "trace: expected a matrix, but got tensor with dim %d", x.Dim())
	}
	p := &chain{c: c, arg: "self"}
	return p.result(p.call("aten::sum", p.call("aten::diagonal", x, int64(0), int64(0), int64(1))))
}

// baddbmm is aten::baddbmm: beta*self + alpha*(batch1 @ batch2), self
// ignored when beta is 0 (its NaNs too).
func baddbmm(c *ops.Call) ([]any, error) { return batchedAdd(c, false) }

// addbmm is aten::addbmm: beta*self + alpha*Σ_b batch1[b] @ batch2[b].
func addbmm(c *ops.Call) ([]any, error) { return batchedAdd(c, true) }

// batchedAdd implements baddbmm and (reduce) addbmm.
func batchedAdd(c *ops.Call, reduce bool) ([]any, error) {
	self, b1, b2 := c.Tensor("self"), c.Tensor("batch1"), c.Tensor("batch2")
	if b1.Dim() != 3 || b2.Dim() != 3 {
		return nil, c.Errorf("batch1", "batch1 must be a 3D tensor")
	}
	beta, alpha := c.Scalar("beta"), c.Scalar("alpha")
	p := &chain{c: c, arg: "batch1"}
	prod := p.call("aten::bmm", b1, b2)
	if reduce {
		prod = p.call("aten::sum.dim_IntList", prod, []int64{0}, false)
	}
	if p.err != nil {
		return nil, p.err
	}
	if _, err := ops.BroadcastShapes(self.Shape(), prod.Shape()); err != nil || len(self.Shape()) > len(prod.Shape()) {
		return nil, c.Errorf("self", "expected self to broadcast to %s, got %s", shapeString(prod.Shape()), shapeString(self.Shape()))
	}
	if beta.IsFloat() && beta.Float() == 0 || !beta.IsFloat() && beta.Int() == 0 {
		return p.result(p.call("aten::mul.Scalar", prod, alpha))
	}
	scaled := p.call("aten::mul.Scalar", self, beta)
	return p.result(p.callKw("aten::add.Tensor", map[string]any{"alpha": alpha}, scaled, prod))
}
