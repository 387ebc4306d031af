package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Embeddings, ATen's Embedding.cpp: embedding and its backward
// embedding_dense_backward.

// registerEmbedding registers the kernels of embedding.go.
func registerEmbedding() {
	registerBoth("aten::embedding_dense_backward", embeddingDenseBackward)
	registerBoth("aten::embedding", embedding)
}

// embeddingDenseBackward is aten::embedding_dense_backward: the gradient
// rows of every index (but padding_idx) summed into a [num_weights, D]
// gradient, each scaled by 1/count of its index when scale_grad_by_freq.
func embeddingDenseBackward(c *ops.Call) ([]any, error) {
	g, idx := c.Tensor("grad_output"), c.Tensor("indices")
	nw := c.Int("num_weights")
	pad := c.Int("padding_idx")
	scale := c.Bool("scale_grad_by_freq")
	if dt := idx.DType(); dt != tensor.Int64 && dt != tensor.Int32 {
		return nil, c.Errorf("indices", "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got %s instead (while checking arguments for embedding_backward)", scalarTypeName(dt))
	}
	if g.Dim() == 0 {
		return nil, c.Errorf("grad_output", "embedding_dense_backward: expected grad_output of at least one dimension, got a 0-d tensor")
	}
	if nw < 0 {
		return nil, c.Errorf("num_weights", "embedding_dense_backward: num_weights must be non-negative, got %d", nw)
	}
	dim := g.Size(-1)
	n := idx.Numel()
	if n*dim != g.Numel() {
		return nil, c.Errorf("grad_output", "embedding_dense_backward: grad_output of shape %s does not hold one row of %d for each of the %d indices", shapeString(g.Shape()), dim, n)
	}
	dt := g.DType()
	shape := []int{int(nw), dim}
	if meta(g, idx) {
		return oneOrErr(empty(true, dt, shape))
	}
	if !dt.IsFloat() {
		return nil, notImplemented(c, "grad_output", "embedding_dense_backward_cpu", dt)
	}
	iv := idx.Int64s()
	counts := make(map[int64]int)
	for _, i := range iv {
		if i != pad && (i < 0 || i >= nw) {
			return nil, c.Errorf("indices", "embedding_dense_backward: index %d is out of range for %d weights", i, nw)
		}
		counts[i]++
	}
	gv := g.Float64s()
	res := make([]float64, int(nw)*dim)
	r := rounder(dt)
	for i, k := range iv {
		if k == pad {
			continue
		}
		alpha := 1.0
		if scale {
			alpha = r(1 / float64(counts[k]))
		}
		row := res[int(k)*dim : int(k+1)*dim]
		for j, v := range gv[i*dim : (i+1)*dim] {
			row[j] = r(row[j] + r(alpha*v))
		}
	}
	return oneOrErr(tensor.FromFloat64s(dt, res, shape...))
}

// embedding is aten::embedding: the rows of the 2-D weight selected by
// integer indices, in a tensor of shape indices.shape + [embedding_dim].
// padding_idx, scale_grad_by_freq and sparse only affect the gradient.
func embedding(c *ops.Call) ([]any, error) {
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
		return oneOrErr(empty(true, w.DType(), shape))
	}
	iv := idx.Int64s()
	for _, i := range iv {
		if i < 0 || i >= int64(rows) {
			return nil, c.Errorf("indices", "index out of range in self (index %d, %d rows)", i, rows)
		}
	}
	wc := w.Contiguous()
	out := tensor.Empty(w.DType(), shape...)
	embeddingCopy(wc, out, iv, dim)
	return one(out), nil
}

// embeddingCopy copies rows iv of the contiguous 2-D w into out.
func embeddingCopy(w, out *tensor.Tensor, iv []int64, dim int) {
	switch w.DType() {
	case tensor.Float32:
		gatherRows[float32](w, out, iv, dim)
	case tensor.Float64:
		gatherRows[float64](w, out, iv, dim)
	case tensor.Float16:
		gatherRows[tensor.Half](w, out, iv, dim)
	case tensor.BFloat16:
		gatherRows[tensor.BHalf](w, out, iv, dim)
	case tensor.Int64:
		gatherRows[int64](w, out, iv, dim)
	case tensor.Int32:
		gatherRows[int32](w, out, iv, dim)
	case tensor.Int16:
		gatherRows[int16](w, out, iv, dim)
	case tensor.Int8:
		gatherRows[int8](w, out, iv, dim)
	case tensor.Uint8:
		gatherRows[uint8](w, out, iv, dim)
	case tensor.Bool:
		gatherRows[bool](w, out, iv, dim)
	}
}

// gatherRows copies rows iv of the contiguous 2-D w into out.
func gatherRows[T tensor.Elem](w, out *tensor.Tensor, iv []int64, dim int) {
	src := tensor.Values[T](w)
	dst := tensor.Data[T](out)
	for r, i := range iv {
		copy(dst[r*dim:(r+1)*dim], src[int(i)*dim:(int(i)+1)*dim])
	}
}
