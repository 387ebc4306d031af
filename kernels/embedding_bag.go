package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Embedding bags, ATen's EmbeddingBag.cpp: _embedding_bag (sum, mean and
// max modes, per-sample weights, offsets).

// registerEmbeddingBag registers the kernels of embedding_bag.go.
func registerEmbeddingBag() {
	registerBoth("aten::_embedding_bag", embeddingBag)
}

// embeddingBag is aten::_embedding_bag: sums (mode 0, optionally
// weighted by per_sample_weights), means (1) or maxima (2) of the weight
// rows of each bag of indices, bags starting at offsets. It returns
// PyTorch 1.13's four outputs: the result; offset2bag (the bag of every
// index, empty for a float32/float16 sum without padding_idx, which takes
// the fast path); bag_size (indices per bag less padding ones, zeros for
// sums); and max_indices (the arg-max rows of max mode [bags, D], else a
// copy of bag_size).
func embeddingBag(c *ops.Call) ([]any, error) {
	w, idx, off := c.Tensor("weight"), c.Tensor("indices"), c.Tensor("offsets")
	psw := c.Tensor("per_sample_weights")
	mode := c.Int("mode")
	ilo := c.Bool("include_last_offset")
	pad := c.Int("padding_idx")
	for _, a := range []struct {
		n string
		t *tensor.Tensor
	}{{"indices", idx}, {"offsets", off}} {
		if dt := a.t.DType(); dt != tensor.Int64 && dt != tensor.Int32 {
			return nil, c.Errorf(a.n, "Expected tensor for argument #1 '%s' to have one of the following scalar types: Long, Int; but got %s instead (while checking arguments for embedding_bag)", a.n, scalarTypeName(dt))
		}
		if a.t.Dim() != 1 {
			return nil, c.Errorf(a.n, "embedding_bag: expected %s to be a 1-D tensor, but got %d-D", a.n, a.t.Dim())
		}
	}
	idt := idx.DType()
	if off.DType() != idt {
		idt = tensor.Int64
	}
	wdt := w.DType()
	if wdt != tensor.Float16 && wdt != tensor.Float32 && wdt != tensor.Float64 {
		return nil, c.Errorf("weight", "Expected tensor for argument #1 'weight' to have one of the following scalar types: Half, Float, Double; but got %s instead (while checking arguments for embedding_bag)", scalarTypeName(wdt))
	}
	if w.Dim() != 2 {
		return nil, c.Errorf("weight", "embedding_bag: expected weight to be a 2-D tensor, but got %d-D", w.Dim())
	}
	if mode < 0 || mode > 2 {
		return nil, c.Errorf("mode", "embedding_bag: mode must be 0 (sum), 1 (mean) or 2 (max), got %d", mode)
	}
	nIdx, nOff := idx.Numel(), off.Numel()
	if psw != nil {
		switch {
		case mode != 0:
			return nil, c.Errorf("per_sample_weights", "embedding_bag: per_sample_weights only supported with mode='sum'")
		case psw.DType() != wdt:
			return nil, c.Errorf("per_sample_weights", "expected scalar type %s but found %s", scalarTypeName(wdt), scalarTypeName(psw.DType()))
		case psw.Dim() != 1 || psw.Numel() != nIdx:
			return nil, c.Errorf("per_sample_weights", "embedding_bag: expected per_sample_weights of shape [%d], got %s", nIdx, shapeString(psw.Shape()))
		}
	}
	if ilo && nOff < 1 {
		return nil, c.Errorf("offsets", "include_last_offset: number of offset should be at least 1")
	}
	bags := nOff
	if ilo {
		bags--
	}
	vocab, dim := w.Size(0), w.Size(1)
	fast := mode == 0 && (wdt == tensor.Float32 || wdt == tensor.Float16) && pad < 0
	o2bShape := []int{nIdx}
	if fast {
		o2bShape = []int{0}
	}
	maxShape := []int{bags}
	if mode == 2 {
		maxShape = []int{bags, dim}
	}
	if meta(w, idx, off, psw) {
		return []any{tensor.Must(empty(true, wdt, []int{bags, dim})), tensor.Must(empty(true, idt, o2bShape)),
			tensor.Must(empty(true, idt, []int{bags})), tensor.Must(empty(true, idt, maxShape))}, nil
	}
	iv, ov := idx.Int64s(), off.Int64s()
	if nOff > 0 {
		if ov[0] != 0 {
			return nil, c.Errorf("offsets", "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. However, got %d", ov[0])
		}
		if ov[nOff-1] > int64(nIdx) {
			return nil, c.Errorf("offsets", "offsets[-1] can not be greater than input's length %d, but got offsets[-1] of %d", nIdx, ov[nOff-1])
		}
		for i := 1; i < nOff; i++ {
			if ov[i] < ov[i-1] {
				return nil, c.Errorf("offsets", "embedding_bag: offsets must be non-decreasing, but offsets[%d]=%d < offsets[%d]=%d", i, ov[i], i-1, ov[i-1])
			}
		}
	}
	for _, i := range iv {
		if i < 0 || i >= int64(vocab) {
			return nil, c.Errorf("indices", "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be %d", i)
		}
	}
	// offset2bag[i] = (number of offsets <= i) - 1.
	o2b := make([]int64, nIdx)
	k := 0
	for i := range nIdx {
		for k < nOff && ov[k] <= int64(i) {
			k++
		}
		o2b[i] = int64(k - 1)
	}
	size := make([]int64, bags)
	for b := range bags {
		end := int64(nIdx)
		if b+1 < bags {
			end = ov[b+1]
		}
		size[b] = end - ov[b]
	}
	wv := w.Float64s()
	var pv []float64
	if psw != nil {
		pv = psw.Float64s()
	}
	r := rounder(wdt)
	if wdt == tensor.Float16 && fast {
		r = rounder(tensor.Float32)
	}
	out := make([]float64, bags*dim)
	maxIdx := make([]int64, bags*dim)
	filled := make([]bool, bags)
	for i, word := range iv {
		b := int(o2b[i])
		if b < 0 || b >= bags { // past the last offset with include_last_offset
			continue
		}
		if word == pad {
			size[b]--
			continue
		}
		row := wv[int(word)*dim : int(word+1)*dim]
		dst := out[b*dim : (b+1)*dim]
		for j, v := range row {
			switch {
			case mode == 2:
				if !filled[b] || v > dst[j] {
					dst[j] = v
					maxIdx[b*dim+j] = word
				}
			case pv != nil:
				dst[j] = r(dst[j] + r(v*pv[i]))
			default:
				dst[j] = r(dst[j] + v)
			}
		}
		filled[b] = true
	}
	if mode == 1 {
		for b := range bags {
			n := float64(max(size[b], 1))
			for j := range dim {
				out[b*dim+j] = r(out[b*dim+j] / n)
			}
		}
	}
	if mode == 0 {
		clear(size)
	}
	var mi []int64
	if mode == 2 {
		mi = maxIdx
	} else {
		mi = size
	}
	if fast {
		o2b = nil
	}
	return []any{tensor.Must(tensor.FromFloat64s(wdt, out, bags, dim)), tensor.Must(tensor.FromInt64s(idt, o2b, o2bShape...)),
		tensor.Must(tensor.FromInt64s(idt, size, bags)), tensor.Must(tensor.FromInt64s(idt, mi, maxShape...))}, nil
}
