package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Attention, ATen's transformers/attention.cpp: scaled_dot_product_attention,
// its math backend _scaled_dot_product_attention_math, the CPU flash
// entry _scaled_dot_product_flash_attention_for_cpu, and _safe_softmax.
// Every one computes PyTorch's math backend (composed from registered
// operators, so the meta functions come with them): q and kᵀ each scaled
// by √scale, their product plus the mask, _safe_softmax, times v. On the
// CPU PyTorch itself runs most 4-d calls through its flash kernel, whose
// blockwise softmax rounds differently: results agree to float32
// rounding, not bit for bit.

// registerAttention registers the kernels of attention.go.
func registerAttention() {
	registerBoth("aten::_safe_softmax", safeSoftmax)
	registerBoth("aten::scaled_dot_product_attention", sdpa)
	registerBoth("aten::_scaled_dot_product_attention_math", sdpaMath)
	registerBoth("aten::_scaled_dot_product_flash_attention_for_cpu", sdpaFlashCPU)
}

// safeSoftmax is aten::_safe_softmax: softmax over dim, except that rows
// whose elements are all -inf give zeros instead of NaN.
func safeSoftmax(c *ops.Call) ([]any, error) {
	p := &chain{c: c, arg: "self"}
	self := c.Tensor("self")
	dim := c.Int("dim")
	dt := dtypeArg(c)
	out := p.call("aten::softmax.int", self, dim, dt)
	masked := p.call("aten::all.dim", p.call("aten::eq.Scalar", self, ops.FloatScalar(math.Inf(-1))), dim, true)
	if p.err != nil {
		return nil, p.err
	}
	zero := tensor.Must(empty(out.IsMeta(), out.DType(), []int{}))
	res := p.call("aten::where.self", masked, zero, out)
	if p.err != nil {
		return nil, p.err
	}
	return one(res), nil
}

// sdpaInputs are the checked arguments of an attention call.
type sdpaInputs struct {
	q, k, v, mask *tensor.Tensor
	causal        bool
	scale         float64 // 0: 1/√E
	hasScale      bool
	gqa           bool
}

// checkSDPA makes validate_sdpa_input's checks.
func checkSDPA(c *ops.Call, maskArg string) (*sdpaInputs, error) {
	in := &sdpaInputs{q: c.Tensor("query"), k: c.Tensor("key"), v: c.Tensor("value"), causal: c.Bool("is_causal")}
	if !c.IsNone(maskArg) {
		in.mask = c.Tensor(maskArg)
	}
	in.scale, in.hasScale = c.OptFloat("scale")
	if hasArg(c, "enable_gqa") {
		in.gqa = c.Bool("enable_gqa")
	}
	if in.q.DType() != in.k.DType() || in.q.DType() != in.v.DType() {
		return nil, c.Errorf("key", "Expected query, key, and value to have the same dtype, but got query.dtype: %s key.dtype: %s and value.dtype: %s instead.",
			demangledTypeName(in.q.DType()), demangledTypeName(in.k.DType()), demangledTypeName(in.v.DType()))
	}
	if !in.q.DType().IsFloat() {
		return nil, c.Errorf("query", "scaled_dot_product_attention needs floating-point query, key and value, got %s", scalarTypeName(in.q.DType()))
	}
	if in.q.Dim() < 2 || in.k.Dim() < 2 || in.v.Dim() < 2 {
		return nil, c.Errorf("query", "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: %d key.dim: %d and value.dim: %d instead.",
			in.q.Dim(), in.k.Dim(), in.v.Dim())
	}
	if m := in.mask; m != nil && m.DType() != tensor.Bool && !m.DType().IsFloat() && m.DType() != in.q.DType() {
		return nil, c.Errorf(maskArg, "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: %s and  query.dtype: %s instead.",
			demangledTypeName(m.DType()), demangledTypeName(in.q.DType()))
	}
	return in, nil
}

// boolMaskToFloat is convert_boolean_attn_mask: a bool mask becomes 0
// where true and -inf where false, in dtype dt; other masks are kept.
func boolMaskToFloat(p *chain, m *tensor.Tensor, dt tensor.DType) *tensor.Tensor {
	if m == nil || m.DType() != tensor.Bool || p.err != nil {
		return m
	}
	if m.IsMeta() {
		return tensor.Must(tensor.NewMeta(dt, m.Shape()...))
	}
	b := m.Contiguous().Bools()
	vals := make([]float64, len(b))
	for i, keep := range b {
		if !keep {
			vals[i] = math.Inf(-1)
		}
	}
	return tensor.Must(tensor.FromFloat64s(dt, vals, m.Shape()...))
}

// sdpaScores computes the masked attention scores of the math backend,
// (q·√s)(kᵀ·√s) + mask, in the accumulate dtype (float32 for float16 and
// bfloat16), and the value tensor in that dtype (heads repeated for
// grouped-query attention).
func sdpaScores(p *chain, in *sdpaInputs) (scores, value *tensor.Tensor) {
	c := p.c
	q, k, v := in.q, in.k, in.v
	if dt := q.DType(); dt == tensor.Float16 || dt == tensor.BFloat16 {
		to := func(t *tensor.Tensor) *tensor.Tensor {
			out, err := delegate(c, "aten::_to_copy", []any{t}, map[string]any{"dtype": tensor.Float32})
			if err != nil {
				p.err = err
				return nil
			}
			return out[0].(*tensor.Tensor)
		}
		q, k, v = to(q), to(k), to(v)
		if p.err != nil {
			return nil, nil
		}
	}
	s := 1 / math.Sqrt(float64(q.Size(q.Dim()-1)))
	neg := in.hasScale && in.scale < 0
	if in.hasScale {
		s = math.Abs(in.scale)
	}
	sf := math.Sqrt(s)
	qs := sf
	if neg {
		qs = 0 - sf
	}
	query := p.call("aten::mul.Scalar", q, ops.FloatScalar(qs))
	mask := in.mask
	if in.gqa && p.err == nil {
		k, v = repeatHeads(p, query, k), repeatHeads(p, query, v)
	}
	kt := p.call("aten::mul.Scalar", p.call("aten::transpose.int", k, int64(-2), int64(-1)), ops.FloatScalar(sf))
	attn := p.call("aten::matmul", query, kt)
	if mask != nil && p.err == nil {
		sum := p.call("aten::add.Tensor", attn, mask)
		if p.err == nil && sum.DType() != attn.DType() {
			sum = to2(p, sum, attn.DType())
		}
		attn = sum
	}
	if in.causal && p.err == nil {
		// ones(L, S).tril() as a 0/-inf mask: column j of row i is
		// masked when j > i.
		L, S := attn.Size(attn.Dim()-2), attn.Size(attn.Dim()-1)
		var upper *tensor.Tensor
		if attn.IsMeta() {
			upper = tensor.Must(tensor.NewMeta(tensor.Bool, L, S))
		} else {
			vals := make([]int64, L*S)
			for i := range L {
				for j := i + 1; j < S; j++ {
					vals[i*S+j] = 1
				}
			}
			upper = tensor.Must(tensor.FromInt64s(tensor.Bool, vals, L, S))
		}
		attn = p.call("aten::masked_fill.Scalar", attn, upper, ops.FloatScalar(math.Inf(-1)))
	}
	return attn, v
}

// to2 converts t to dtype dt through aten::_to_copy.
func to2(p *chain, t *tensor.Tensor, dt tensor.DType) *tensor.Tensor {
	if p.err != nil || t.DType() == dt {
		return t
	}
	out, err := op("aten::_to_copy").Call([]any{t}, map[string]any{"dtype": dt})
	if err != nil {
		p.err = p.c.Errorf("query", "%v", err)
		return nil
	}
	return out[0].(*tensor.Tensor)
}

// repeatHeads is pre_process_group_query_attention_input for one of key
// and value: its heads (dimension -3) repeated (repeat_interleave) to the
// query's head count, which must be a multiple of them.
func repeatHeads(p *chain, q, t *tensor.Tensor) *tensor.Tensor {
	if p.err != nil {
		return nil
	}
	if q.Dim() < 3 || t.Dim() < 3 {
		p.err = p.c.Errorf("query", "enable_gqa needs query, key and value of at least 3 dimensions")
		return nil
	}
	qh, th := q.Size(q.Dim()-3), t.Size(t.Dim()-3)
	if th == 0 || qh%th != 0 {
		p.err = p.c.Errorf("key", "number of heads in key/value must divide number of heads in query")
		return nil
	}
	if qh == th {
		return t
	}
	idx := make([]int64, qh)
	for i := range idx {
		idx[i] = int64(i / (qh / th))
	}
	return p.call("aten::index_select", t, int64(t.Dim()-3), tensor.Must(tensor.FromInt64s(tensor.Int64, idx, qh)))
}

// sdpaMathRun runs the math backend and returns (output, attention
// weights) in the inputs' dtype.
func sdpaMathRun(c *ops.Call, in *sdpaInputs, dropoutMask *tensor.Tensor) ([]any, error) {
	p := &chain{c: c, arg: "query"}
	attn, v := sdpaScores(p, in)
	attn = p.call("aten::_safe_softmax", attn, int64(-1), nil)
	if dp := c.Float("dropout_p"); dp > 0 && p.err == nil {
		if dropoutMask != nil {
			attn = p.call("aten::masked_fill.Scalar", attn, p.call("aten::logical_not", dropoutMask), ops.FloatScalar(0))
			v = p.call("aten::mul.Scalar", v, ops.FloatScalar(1/(1-dp)))
		} else {
			attn = p.call("aten::dropout", attn, dp, true)
		}
	}
	out := p.call("aten::matmul", attn, v)
	dt := in.q.DType()
	out, attn = to2(p, out, dt), to2(p, attn, dt)
	if p.err != nil {
		return nil, p.err
	}
	return []any{out, attn}, nil
}

// sdpa is aten::scaled_dot_product_attention: softmax(q kᵀ·scale + mask) v
// with scale 1/√E by default, a bool mask meaning "may attend" (false
// becomes -inf), is_causal a lower-triangular mask (both may be given, as
// PyTorch's CPU flash kernel allows), dropout_p applied to
// the weights (randomly, with the package's generator) and enable_gqa
// repeating key and value heads to the query's.
func sdpa(c *ops.Call) ([]any, error) {
	in, err := checkSDPA(c, "attn_mask")
	if err != nil {
		return nil, err
	}
	p := &chain{c: c, arg: "attn_mask"}
	in.mask = boolMaskToFloat(p, in.mask, in.q.DType())
	out, err := sdpaMathRun(c, in, nil)
	if err != nil {
		return nil, err
	}
	return out[:1], nil
}

// sdpaMath is aten::_scaled_dot_product_attention_math: (output,
// attention weights). A bool mask is added as 0/1, as ATen's math
// function does (scaled_dot_product_attention converts it first).
func sdpaMath(c *ops.Call) ([]any, error) {
	in, err := checkSDPA(c, "attn_mask")
	if err != nil {
		return nil, err
	}
	if in.causal && in.mask != nil {
		return nil, c.Errorf("attn_mask", "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
	}
	var dm *tensor.Tensor
	if hasArg(c, "dropout_mask") && !c.IsNone("dropout_mask") {
		dm = c.Tensor("dropout_mask")
	}
	return sdpaMathRun(c, in, dm)
}

// sdpaFlashCPU is aten::_scaled_dot_product_flash_attention_for_cpu:
// (output, logsumexp), the latter the log-sum-exp of every row of the
// masked scores, float32 for float16/bfloat16 inputs, of shape
// [batch, heads, L]. Computed with the math backend.
func sdpaFlashCPU(c *ops.Call) ([]any, error) {
	in, err := checkSDPA(c, "attn_mask")
	if err != nil {
		return nil, err
	}
	if in.q.Dim() != 4 || in.k.Dim() != 4 || in.v.Dim() != 4 {
		return nil, c.Errorf("query", "flash attention for cpu expects 4-d query, key and value, got %d-d, %d-d and %d-d", in.q.Dim(), in.k.Dim(), in.v.Dim())
	}
	if c.Float("dropout_p") > 0 {
		return nil, c.Errorf("dropout_p", "flash attention for cpu with dropout is not supported by gofx")
	}
	p := &chain{c: c, arg: "query"}
	in.mask = boolMaskToFloat(p, in.mask, in.q.DType())
	scores, v := sdpaScores(p, in)
	attn := p.call("aten::_safe_softmax", scores, int64(-1), nil)
	out := to2(p, p.call("aten::matmul", attn, v), in.q.DType())
	if p.err != nil {
		return nil, p.err
	}
	shape := scores.Shape()
	lseShape := shape[:len(shape)-1]
	if scores.IsMeta() {
		return []any{out, tensor.Must(tensor.NewMeta(scores.DType(), lseShape...))}, nil
	}
	n := shape[len(shape)-1]
	vals := scores.Contiguous().Float64s()
	lse := make([]float64, len(vals)/max(n, 1))
	for r := range lse {
		row := vals[r*n : (r+1)*n]
		m := math.Inf(-1)
		for _, x := range row {
			m = max(m, x)
		}
		if math.IsInf(m, -1) {
			lse[r] = m
			continue
		}
		var s float64
		for _, x := range row {
			s += math.Exp(x - m)
		}
		lse[r] = m + math.Log(s)
	}
	return []any{out, tensor.Must(tensor.FromFloat64s(scores.DType(), lse, lseShape...))}, nil
}
