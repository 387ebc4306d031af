package shapeprop

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// The shape rules, grouped by kind. Every pointwise operator broadcasts
// its tensor arguments; every in-place operator returns self's shape; the
// others are listed by name.
func init() {
	for _, o := range ops.Global().All() {
		name := o.Schema().QualifiedName()
		switch {
		case o.Has(ops.Inplace):
			RegisterRule(name, inplaceRule)
		case o.Has(ops.Pointwise) && !o.Has(ops.Mutable):
			RegisterRule(name, pointwiseRule)
		}
	}
	for names, r := range map[string]Rule{
		// Same shape as self, a new contiguous tensor.
		"_to_copy clone contiguous copy fill.Scalar fill.Tensor zeros_like ones_like full_like empty_like " +
			"rand_like randn_like _softmax _log_softmax softmax.int log_softmax.int dropout flip cumsum " +
			"batch_norm layer_norm group_norm instance_norm hardshrink nan_to_num scatter.src scatter.value " +
			"scatter_add scatter_reduce.two index_put select_scatter slice_scatter": sameRule,
		"alias detach":                     aliasRule,
		"native_dropout":                   nativeDropoutRule,
		"view _unsafe_view reshape":        viewRule,
		"_reshape_alias":                   reshapeAliasRule,
		"flatten.using_ints":               flattenRule,
		"unflatten.int":                    unflattenRule,
		"unsqueeze":                        unsqueezeRule,
		"squeeze squeeze.dim squeeze.dims": squeezeRule,
		"permute":                          permuteRule,
		"transpose.int":                    transposeRule,
		"t":                                tRule,
		"expand":                           expandRule,
		"expand_as":                        expandAsRule,
		"repeat":                           repeatRule,
		"select.int":                       selectRule,
		"slice.Tensor":                     sliceRule,
		"narrow":                           narrowRule,
		"split.Tensor":                     splitRule,
		"split_with_sizes":                 splitSizesRule,
		"chunk":                            chunkRule,
		"cat":                              catRule,
		"mm":                               mmRule,
		"bmm":                              bmmRule,
		"addmm":                            addmmRule,
		"matmul":                           matmulRule,
		"linear":                           linearRule,
		"convolution":                      convolutionRule,
		"conv1d conv2d conv3d":             convRule,
		"conv2d.padding":                   convPaddingRule,
		"max_pool1d max_pool2d max_pool3d": poolRule(false, true),
		"max_pool2d_with_indices":          poolRule(true, true),
		"max_pool3d_with_indices":          poolRule(true, true),
		"avg_pool1d avg_pool2d avg_pool3d": poolRule(false, false),
		"adaptive_avg_pool1d adaptive_avg_pool2d _adaptive_avg_pool2d adaptive_avg_pool3d _adaptive_avg_pool3d": adaptiveRule,
		"mean.dim sum.dim_IntList amax amin var.correction var.dim any.dims":                                    reduceRule,
		"sum mean prod any":    fullReduceRule,
		"argmax argmin":        argReduceRule,
		"max.dim min.dim":      valuesIndicesReduceRule,
		"prod.dim_int any.dim": oneDimReduceRule,
		"native_batch_norm _native_batch_norm_legit _native_batch_norm_legit_no_training _native_batch_norm_legit.no_stats": batchNormRule,
		"_native_batch_norm_legit_functional":              batchNormFunctionalRule,
		"sym_constrain_range sym_constrain_range_for_size": constrainRangeRule,
		"native_layer_norm":                                layerNormRule,
		"native_group_norm":                                groupNormRule,
		"embedding":                                        embeddingRule,
		"topk":                                             topkRule,
		"sort sort.stable":                                 sortRule,
		"sym_size.int":                                     symSizeRule,
		"sym_numel":                                        symNumelRule,
		"full zeros ones empty.memory_format rand randn": sizeRule,
		"new_zeros new_ones new_empty new_full":          newSizeRule,
		"scalar_tensor":                                  scalarTensorRule,
		"arange arange.start arange.start_step":          arangeRule,
		"constant_pad_nd":                                padRule,
		"index_select":                                   indexSelectRule,
		"gather":                                         gatherRule,
		"nonzero":                                        nonzeroRule,
		"upsample_nearest2d.vec upsample_bilinear2d.vec": upsampleRule,
	} {
		for _, n := range strings.Fields(names) {
			name := "aten::" + n
			if _, ok := ops.Global().Lookup(name); !ok {
				continue // not in this build's registry
			}
			RegisterRule(name, r)
		}
	}
}

// pointwiseRule broadcasts the tensor arguments; every return has the
// broadcast shape.
func pointwiseRule(c *RuleCall) ([]any, error) {
	var buf [4][]sym.Expr
	shapes := buf[:0]
	for _, a := range c.Args {
		if f, ok := a.(*Fake); ok && f != nil {
			shapes = append(shapes, f.Shape)
		}
	}
	sh, err := c.Broadcast(shapes...)
	if err != nil {
		return nil, err
	}
	n := len(c.Op.Schema().Returns)
	if n == 1 {
		return []any{fake(sh)}, nil
	}
	out := make([]any, n)
	for i := range out {
		out[i] = fake(sh)
	}
	return out, nil
}

// inplaceRule returns self's shape; the other tensor arguments must
// broadcast to it.
func inplaceRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	if self == nil {
		return nil, fmt.Errorf("self is None")
	}
	shapes := [][]sym.Expr{self.Shape}
	for _, a := range c.Args[1:] {
		if f, ok := a.(*Fake); ok && f != nil {
			shapes = append(shapes, f.Shape)
		}
	}
	sh, err := c.Broadcast(shapes...)
	if err != nil {
		return nil, err
	}
	if len(sh) != len(self.Shape) {
		return nil, fmt.Errorf("output with shape %v doesn't match the broadcast shape %v", self.Shape, sh)
	}
	for i := range sh {
		if err := c.mustEq(sh[i], self.Shape[i], func() string {
			return fmt.Sprintf("output with shape %v doesn't match the broadcast shape %v", self.Shape, sh)
		}); err != nil {
			return nil, err
		}
	}
	return []any{self.withShape(self.Shape, self.Contiguous)}, nil
}

func sameRule(c *RuleCall) ([]any, error) { return []any{fake(c.Fake(0).Shape)}, nil }

func aliasRule(c *RuleCall) ([]any, error) {
	s := c.Fake(0)
	return []any{s.withShape(s.Shape, s.Contiguous)}, nil
}

func nativeDropoutRule(c *RuleCall) ([]any, error) {
	s := c.Fake(0).Shape
	return results(fake(s), fake(s)), nil
}

// inferSize is infer_size: the shape size with its -1 computed from
// numel, checked against numel.
func (c *RuleCall) inferSize(size []sym.Expr, numel sym.Expr) ([]sym.Expr, error) {
	out := slices.Clone(size)
	infer := -1
	known := one
	for i, d := range size {
		if v, ok := d.Const(); ok && v < 0 {
			if v != -1 {
				return nil, fmt.Errorf("invalid shape dimension %d", v)
			}
			if infer >= 0 {
				return nil, fmt.Errorf("only one dimension can be inferred")
			}
			infer = i
			continue
		}
		known = known.Mul(d)
	}
	invalid := func() string { return fmt.Sprintf("shape '%v' is invalid for input of size %s", size, numel) }
	if infer >= 0 {
		zeroKnown, err := c.eq(known, zero)
		if err != nil {
			return nil, err
		}
		if zeroKnown {
			return nil, fmt.Errorf("cannot reshape tensor of %s elements into shape %v because the unspecified dimension size -1 can be any value and is ambiguous", numel, size)
		}
		rem, err := sym.ModErr(numel, known)
		if err != nil {
			return nil, err
		}
		if err := c.mustEq(rem, zero, invalid); err != nil {
			return nil, err
		}
		q, err := sym.FloorDivErr(numel, known)
		if err != nil {
			return nil, err
		}
		out[infer] = q
		return out, nil
	}
	return out, c.mustEq(numel, known, invalid)
}

func viewRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	sh, err := c.inferSize(c.Ints(1), self.Numel())
	if err != nil {
		return nil, err
	}
	contig := true
	if c.Op.Schema().Name == "view" {
		contig = self.Contiguous
	}
	return []any{self.withShape(sh, contig)}, nil
}

func reshapeAliasRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	return []any{self.withShape(slices.Clone(c.Ints(1)), self.Contiguous)}, nil
}

func flattenRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	if len(self.Shape) == 0 {
		return []any{self.withShape(consts(1), true)}, nil
	}
	s, err := c.dim(1, len(self.Shape))
	if err != nil {
		return nil, err
	}
	e, err := c.dim(2, len(self.Shape))
	if err != nil {
		return nil, err
	}
	if s > e {
		return nil, fmt.Errorf("flatten() has invalid args: start_dim cannot come after end_dim")
	}
	sh := make([]sym.Expr, 0, len(self.Shape)-(e-s))
	sh = append(sh, self.Shape[:s]...)
	sh = append(sh, prod(self.Shape[s:e+1]))
	sh = append(sh, self.Shape[e+1:]...)
	return []any{self.withShape(sh, self.Contiguous || s == e)}, nil
}

func unflattenRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	d, err := c.dim(1, len(self.Shape))
	if err != nil {
		return nil, err
	}
	mid, err := c.inferSize(c.Ints(2), self.Shape[d])
	if err != nil {
		return nil, err
	}
	sh := slices.Concat(self.Shape[:d], mid, self.Shape[d+1:])
	return []any{self.withShape(sh, self.Contiguous)}, nil
}

func unsqueezeRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	d, err := c.dim(1, len(self.Shape)+1)
	if err != nil {
		return nil, err
	}
	sh := slices.Insert(slices.Clone(self.Shape), d, one)
	return []any{self.withShape(sh, self.Contiguous)}, nil
}

func squeezeRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	rank := len(self.Shape)
	drop := make([]bool, rank)
	switch c.Op.Schema().Overload {
	case "":
		for i := range drop {
			drop[i] = true
		}
	case "dim":
		d, err := c.dim(1, rank)
		if err != nil {
			return nil, err
		}
		if rank > 0 {
			drop[d] = true
		}
	default:
		for _, e := range c.Ints(1) {
			d, err := c.wrapDim(e, rank)
			if err != nil {
				return nil, err
			}
			if rank > 0 {
				drop[d] = true
			}
		}
	}
	sh := make([]sym.Expr, 0, rank)
	for i, d := range self.Shape {
		if drop[i] {
			isOne, err := c.isOne(d)
			if err != nil {
				return nil, err
			}
			if isOne {
				continue
			}
		}
		sh = append(sh, d)
	}
	return []any{self.withShape(sh, self.Contiguous)}, nil
}

func permuteRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	dims := c.Ints(1)
	rank := len(self.Shape)
	if len(dims) != rank {
		return nil, fmt.Errorf("permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %d", rank, len(dims))
	}
	sh := make([]sym.Expr, rank)
	identity := true
	for i, e := range dims {
		d, err := c.wrapDim(e, rank)
		if err != nil {
			return nil, err
		}
		sh[i] = self.Shape[d]
		identity = identity && d == i
	}
	return []any{self.withShape(sh, self.Contiguous && identity)}, nil
}

func transposeRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	rank := len(self.Shape)
	d0, err := c.dim(1, rank)
	if err != nil {
		return nil, err
	}
	d1, err := c.dim(2, rank)
	if err != nil {
		return nil, err
	}
	sh := slices.Clone(self.Shape)
	if rank > 0 {
		sh[d0], sh[d1] = sh[d1], sh[d0]
	}
	return []any{self.withShape(sh, self.Contiguous && d0 == d1)}, nil
}

func tRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	if len(self.Shape) > 2 {
		return nil, fmt.Errorf("t() expects a tensor with <= 2 dimensions, but self is %dD", len(self.Shape))
	}
	sh := slices.Clone(self.Shape)
	slices.Reverse(sh)
	return []any{self.withShape(sh, self.Contiguous && len(sh) < 2)}, nil
}

// expandTo is expand's shape: sizes aligned to the right of self's dims,
// -1 keeping a dim, a dim of 1 taking any size.
func (c *RuleCall) expandTo(self *Fake, size []sym.Expr) (*Fake, error) {
	if len(size) < len(self.Shape) {
		return nil, fmt.Errorf("expand(%v, size=%v): the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)",
			self, size, len(size), len(self.Shape))
	}
	off := len(size) - len(self.Shape)
	sh := make([]sym.Expr, len(size))
	same := off == 0
	for i, s := range size {
		if i < off {
			sh[i] = s
			continue
		}
		d := self.Shape[i-off]
		if v, ok := s.Const(); ok && v == -1 {
			sh[i] = d
			continue
		}
		isOne, err := c.isOne(d)
		if err != nil {
			return nil, err
		}
		if isOne {
			sh[i] = s
			same = same && s.Equal(d)
			continue
		}
		if err := c.mustEq(d, s, func() string {
			return fmt.Sprintf("The expanded size of the tensor (%s) must match the existing size (%s) at non-singleton dimension %d.  Target sizes: %v.  Tensor sizes: %v", s, d, i, size, self.Shape)
		}); err != nil {
			return nil, err
		}
		sh[i] = d
	}
	return self.withShape(sh, self.Contiguous && same), nil
}

func expandRule(c *RuleCall) ([]any, error) {
	f, err := c.expandTo(c.Fake(0), c.Ints(1))
	if err != nil {
		return nil, err
	}
	return []any{f}, nil
}

func expandAsRule(c *RuleCall) ([]any, error) {
	f, err := c.expandTo(c.Fake(0), c.Fake(1).Shape)
	if err != nil {
		return nil, err
	}
	return []any{f}, nil
}

func repeatRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	reps := c.Ints(1)
	if len(reps) < len(self.Shape) {
		return nil, torchErr("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
	}
	off := len(reps) - len(self.Shape)
	sh := make([]sym.Expr, len(reps))
	for i, r := range reps {
		if i < off {
			sh[i] = r
		} else {
			sh[i] = self.Shape[i-off].Mul(r)
		}
	}
	return []any{fake(sh)}, nil
}

// leadingOnes reports whether dims before d are all of size 1 (a slice
// along d of a contiguous tensor is then contiguous).
func leadingOnes(sh []sym.Expr, d int) bool {
	for _, e := range sh[:d] {
		if v, ok := e.Const(); !ok || v != 1 {
			return false
		}
	}
	return true
}

func selectRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	if len(self.Shape) == 0 {
		return nil, torchErr("select() cannot be applied to a 0-dim tensor.")
	}
	d, err := c.dim(1, len(self.Shape))
	if err != nil {
		return nil, err
	}
	idx, _ := c.Int(2)
	size := self.Shape[d]
	outOfRange := func() string {
		return fmt.Sprintf("select(): index %s out of range for tensor of size %v at dimension %d", idx, self.Shape, d)
	}
	neg, err := c.Decide(sym.Lt(idx, zero))
	if err != nil {
		return nil, err
	}
	var in bool
	if neg {
		in, err = c.Decide(sym.Ge(size.Add(idx), zero))
	} else {
		in, err = c.Decide(sym.Lt(idx, size))
	}
	if err != nil {
		return nil, err
	}
	if !in {
		return nil, fmt.Errorf("%s", outOfRange())
	}
	sh := slices.Delete(slices.Clone(self.Shape), d, d+1)
	return []any{self.withShape(sh, self.Contiguous && leadingOnesOrFirst(self.Shape, d))}, nil
}

func leadingOnesOrFirst(sh []sym.Expr, d int) bool { return d == 0 || leadingOnes(sh, d) }

// bigEnd is the end PyTorch's slicing gives for an open end (sys.maxsize).
const bigEnd = int64(1) << 62

// sliceBounds clamps start and end to [0, size] as slice.Tensor does and
// returns them.
func (c *RuleCall) sliceBounds(start, end, size sym.Expr) (sym.Expr, sym.Expr, error) {
	norm := func(v sym.Expr) (sym.Expr, error) {
		if k, ok := v.Const(); ok && k >= bigEnd {
			return size, nil
		}
		if k, ok := v.Const(); ok && k <= -bigEnd {
			return zero, nil
		}
		neg, err := c.Decide(sym.Lt(v, zero))
		if err != nil {
			return v, err
		}
		if neg {
			v = v.Add(size)
		}
		below, err := c.Decide(sym.Lt(v, zero))
		if err != nil || below {
			return zero, err
		}
		above, err := c.Decide(sym.Gt(v, size))
		if err != nil || above {
			return size, err
		}
		return v, nil
	}
	s, err := norm(start)
	if err != nil {
		return s, s, err
	}
	e, err := norm(end)
	if err != nil {
		return s, e, err
	}
	back, err := c.Decide(sym.Lt(e, s))
	if err != nil {
		return s, e, err
	}
	if back {
		e = s
	}
	return s, e, nil
}

func sliceRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	if len(self.Shape) == 0 {
		return nil, torchErr("slice() cannot be applied to a 0-dim tensor.")
	}
	d, err := c.dim(1, len(self.Shape))
	if err != nil {
		return nil, err
	}
	size := self.Shape[d]
	start, ok := c.Int(2)
	if !ok {
		start = zero
	}
	end, ok := c.Int(3)
	if !ok {
		end = sym.Const(bigEnd)
	}
	step, _ := c.Int(4)
	if v, ok := step.Const(); !ok || v <= 0 {
		return nil, fmt.Errorf("slice step must be positive")
	}
	s, e, err := c.sliceBounds(start, end, size)
	if err != nil {
		return nil, err
	}
	sh := slices.Clone(self.Shape)
	sh[d] = ceilDiv(e.Sub(s), step)
	full := s.Equal(zero) && e.Equal(size)
	st, _ := step.Const()
	contig := self.Contiguous && (full || (st == 1 && leadingOnesOrFirst(self.Shape, d)))
	return []any{self.withShape(sh, contig)}, nil
}

func narrowRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	d, err := c.dim(1, len(self.Shape))
	if err != nil {
		return nil, err
	}
	start, _ := c.Int(2)
	length, _ := c.Int(3)
	neg, err := c.Decide(sym.Lt(start, zero))
	if err != nil {
		return nil, err
	}
	if neg {
		start = start.Add(self.Shape[d])
	}
	ok, err := c.Decide(sym.Le(start.Add(length), self.Shape[d]))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, torchErr("start (%s) + length (%s) exceeds dimension size (%s).", start, length, self.Shape[d])
	}
	sh := slices.Clone(self.Shape)
	sh[d] = length
	full := start.Equal(zero) && length.Equal(self.Shape[d])
	return []any{self.withShape(sh, self.Contiguous && (full || leadingOnesOrFirst(self.Shape, d)))}, nil
}

// pieces returns the fakes of self split along d into sizes.
func pieces(self *Fake, d int, sizes []sym.Expr) []*Fake {
	out := make([]*Fake, len(sizes))
	for i, s := range sizes {
		sh := slices.Clone(self.Shape)
		sh[d] = s
		out[i] = self.withShape(sh, self.Contiguous && (len(sizes) == 1 || leadingOnesOrFirst(self.Shape, d)))
	}
	return out
}

// splitSizes returns the sizes of splitting size into pieces of ss (the
// last smaller): their number is fixed by the hints, with a guard when
// size is symbolic.
func (c *RuleCall) splitSizes(size, ss sym.Expr) ([]sym.Expr, error) {
	h := c.hints()
	sv, err := h.hint(size)
	if err != nil {
		return nil, err
	}
	ssv, err := c.concrete(ss)
	if err != nil {
		return nil, err
	}
	if ssv <= 0 && sv > 0 {
		return nil, fmt.Errorf("split_size can only be 0 if dimension size is 0, but got dimension size of %d", sv)
	}
	n := int64(1)
	if ssv > 0 {
		n = max((sv+ssv-1)/ssv, 1)
	}
	if !size.IsConst() && ssv > 0 {
		ok, err := c.eq(sym.Max(ceilDiv(size, ss), one), sym.Const(n))
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("cannot split a dimension of size %s into a fixed number of pieces", size)
		}
	}
	out := make([]sym.Expr, n)
	for i := range out {
		out[i] = ss
	}
	out[n-1] = size.Sub(ss.Mul(sym.Const(n - 1)))
	return out, nil
}

func splitRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	if len(self.Shape) == 0 {
		return nil, fmt.Errorf("split expects at least a 1-dimensional tensor")
	}
	d, err := c.dim(2, len(self.Shape))
	if err != nil {
		return nil, err
	}
	ss, _ := c.Int(1)
	sizes, err := c.splitSizes(self.Shape[d], ss)
	if err != nil {
		return nil, err
	}
	return []any{pieces(self, d, sizes)}, nil
}

func splitSizesRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	d, err := c.dim(2, len(self.Shape))
	if err != nil {
		return nil, err
	}
	sizes := c.Ints(1)
	if err := c.mustEq(prod1Sum(sizes), self.Shape[d], func() string {
		return fmt.Sprintf("split_with_sizes expects split_sizes to sum exactly to %s (input tensor's size at dimension %d), but got split_sizes=%v", self.Shape[d], d, sizes)
	}); err != nil {
		return nil, err
	}
	return []any{pieces(self, d, sizes)}, nil
}

func prod1Sum(es []sym.Expr) sym.Expr {
	s := zero
	for _, e := range es {
		s = s.Add(e)
	}
	return s
}

func chunkRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	d, err := c.dim(2, len(self.Shape))
	if err != nil {
		return nil, err
	}
	n, _ := c.Int(1)
	size := self.Shape[d]
	ss := ceilDiv(size, n)
	if _, ok := ss.Const(); !ok {
		v, err := c.concrete(ss)
		if err != nil {
			return nil, err
		}
		ss = sym.Const(v)
	}
	if v, _ := ss.Const(); v == 0 {
		ss = one
	}
	sizes, err := c.splitSizes(size, ss)
	if err != nil {
		return nil, err
	}
	return []any{pieces(self, d, sizes)}, nil
}

func catRule(c *RuleCall) ([]any, error) {
	ts := c.Fakes(0)
	var ref *Fake
	for _, t := range ts {
		if !legacyEmpty(t) {
			ref = t
			break
		}
	}
	if ref == nil {
		return []any{fake(consts(0))}, nil
	}
	d, err := c.dim(1, len(ref.Shape))
	if err != nil {
		return nil, err
	}
	sh := slices.Clone(ref.Shape)
	sum := zero
	for i, t := range ts {
		if legacyEmpty(t) {
			continue
		}
		if len(t.Shape) != len(ref.Shape) {
			return nil, torchErr("Tensors must have same number of dimensions: got %d and %d", len(ref.Shape), len(t.Shape))
		}
		for j := range t.Shape {
			if j == d {
				continue
			}
			if err := c.mustEq(ref.Shape[j], t.Shape[j], func() string {
				return fmt.Sprintf("Sizes of tensors must match except in dimension %d. Expected size %s but got size %s for tensor number %d in the list.", d, ref.Shape[j], t.Shape[j], i)
			}); err != nil {
				return nil, err
			}
		}
		sum = sum.Add(t.Shape[d])
	}
	sh[d] = sum
	return []any{fake(sh)}, nil
}

// legacyEmpty reports whether t is a 1-D tensor of size 0, which cat skips.
func legacyEmpty(t *Fake) bool {
	if len(t.Shape) != 1 {
		return false
	}
	v, ok := t.Shape[0].Const()
	return ok && v == 0
}

// contract checks that the contracted dims k1 and k2 agree.
func (c *RuleCall) contract(a, b *Fake, k1, k2 sym.Expr) error {
	return c.mustEq(k1, k2, func() string {
		return fmt.Sprintf("mat1 and mat2 shapes cannot be multiplied (%s and %s)", shapeText(a.Shape), shapeText(b.Shape))
	})
}

func shapeText(sh []sym.Expr) string {
	parts := make([]string, len(sh))
	for i, d := range sh {
		parts[i] = d.String()
	}
	return strings.Join(parts, "x")
}

func mmRule(c *RuleCall) ([]any, error) {
	a, b := c.Fake(0), c.Fake(1)
	if len(a.Shape) != 2 || len(b.Shape) != 2 {
		return nil, fmt.Errorf("mm expects 2-D tensors")
	}
	if err := c.contract(a, b, a.Shape[1], b.Shape[0]); err != nil {
		return nil, err
	}
	return []any{fake([]sym.Expr{a.Shape[0], b.Shape[1]})}, nil
}

func bmmRule(c *RuleCall) ([]any, error) {
	a, b := c.Fake(0), c.Fake(1)
	if len(a.Shape) != 3 || len(b.Shape) != 3 {
		return nil, fmt.Errorf("bmm expects 3-D tensors")
	}
	if err := c.mustEq(a.Shape[0], b.Shape[0], func() string { return "batch1 and batch2 must have same number of batches" }); err != nil {
		return nil, err
	}
	if err := c.contract(a, b, a.Shape[2], b.Shape[1]); err != nil {
		return nil, err
	}
	return []any{fake([]sym.Expr{a.Shape[0], a.Shape[1], b.Shape[2]})}, nil
}

func addmmRule(c *RuleCall) ([]any, error) {
	self, a, b := c.Fake(0), c.Fake(1), c.Fake(2)
	if len(a.Shape) != 2 || len(b.Shape) != 2 {
		return nil, fmt.Errorf("addmm expects 2-D matrices")
	}
	if err := c.contract(a, b, a.Shape[1], b.Shape[0]); err != nil {
		return nil, err
	}
	out := []sym.Expr{a.Shape[0], b.Shape[1]}
	if _, err := c.expandTo(self, out); err != nil {
		return nil, err
	}
	return []any{fake(out)}, nil
}

func matmulRule(c *RuleCall) ([]any, error) {
	a, b := c.Fake(0), c.Fake(1)
	ra, rb := len(a.Shape), len(b.Shape)
	if ra == 0 || rb == 0 {
		return nil, fmt.Errorf("both arguments to matmul need to be at least 1D, but they are %dD and %dD", ra, rb)
	}
	ka := a.Shape[ra-1]
	kb := b.Shape[0]
	if rb >= 2 {
		kb = b.Shape[rb-2]
	}
	if err := c.contract(a, b, ka, kb); err != nil {
		return nil, err
	}
	var batchA, batchB []sym.Expr
	if ra > 2 {
		batchA = a.Shape[:ra-2]
	}
	if rb > 2 {
		batchB = b.Shape[:rb-2]
	}
	sh, err := c.Broadcast(batchA, batchB)
	if err != nil {
		return nil, err
	}
	sh = slices.Clone(sh)
	if ra >= 2 {
		sh = append(sh, a.Shape[ra-2])
	}
	if rb >= 2 {
		sh = append(sh, b.Shape[rb-1])
	}
	return []any{fake(sh)}, nil
}

func linearRule(c *RuleCall) ([]any, error) {
	x, w, bias := c.Fake(0), c.Fake(1), c.Fake(2)
	if len(x.Shape) == 0 {
		return nil, fmt.Errorf("linear: input must be at least 1-D")
	}
	k := x.Shape[len(x.Shape)-1]
	sh := slices.Clone(x.Shape[:len(x.Shape)-1])
	switch len(w.Shape) {
	case 1:
		if err := c.contract(x, w, k, w.Shape[0]); err != nil {
			return nil, err
		}
	case 2:
		if err := c.contract(x, &Fake{Shape: []sym.Expr{w.Shape[1], w.Shape[0]}}, k, w.Shape[1]); err != nil {
			return nil, err
		}
		sh = append(sh, w.Shape[0])
	default:
		return nil, fmt.Errorf("linear: weight must be 1-D or 2-D, got %d-D", len(w.Shape))
	}
	if bias != nil {
		if _, err := c.expandTo(bias, sh); err != nil {
			return nil, err
		}
	}
	return []any{fake(sh)}, nil
}

// spread returns v's element for each of n spatial dims (a single element
// stands for all).
func spread(v []sym.Expr, n int, def int64) []sym.Expr {
	switch len(v) {
	case n:
		return v
	case 0:
		out := make([]sym.Expr, n)
		for i := range out {
			out[i] = sym.Const(def)
		}
		return out
	}
	out := make([]sym.Expr, n)
	for i := range out {
		out[i] = v[min(i, len(v)-1)]
	}
	return out
}

// convShape computes the output shape of a convolution.
func (c *RuleCall) convShape(x, w *Fake, stride, padding, dilation []sym.Expr, transposed bool, outPad []sym.Expr, groups sym.Expr, same bool) ([]sym.Expr, error) {
	rw := len(w.Shape)
	if rw < 3 {
		return nil, fmt.Errorf("weight should have at least three dimensions")
	}
	spatial := rw - 2
	batched := len(x.Shape) == rw
	if !batched && len(x.Shape) != rw-1 {
		return nil, torchErr("Expected %dD (unbatched) or %dD (batched) input to conv, but got input of size: %v", rw-1, rw, x.Shape)
	}
	in := x.Shape[len(x.Shape)-spatial:]
	// The input's channels are the weight's (times groups): a guard when
	// they are symbolic, as PyTorch's meta function checks.
	channels := x.Shape[len(x.Shape)-spatial-1]
	want := w.Shape[1].Mul(groups)
	if transposed {
		want = w.Shape[0]
	}
	if err := c.mustEq(channels, want, func() string {
		return fmt.Sprintf("Given groups=%v, weight of size %v, expected input%v to have %v channels, but got %v channels instead", groups, w.Shape, x.Shape, want, channels)
	}); err != nil {
		return nil, err
	}
	stride = spread(stride, spatial, 1)
	padding = spread(padding, spatial, 0)
	dilation = spread(dilation, spatial, 1)
	outPad = spread(outPad, spatial, 0)
	sh := make([]sym.Expr, 0, len(x.Shape))
	if batched {
		sh = append(sh, x.Shape[0])
	}
	if transposed {
		sh = append(sh, w.Shape[1].Mul(groups))
	} else {
		sh = append(sh, w.Shape[0])
	}
	for i := 0; i < spatial; i++ {
		k := w.Shape[2+i]
		ext := dilation[i].Mul(k.Sub(one))
		switch {
		case same:
			sh = append(sh, in[i])
		case transposed:
			sh = append(sh, in[i].Sub(one).Mul(stride[i]).Sub(padding[i].Mul(sym.Const(2))).Add(ext).Add(outPad[i]).Add(one))
		default:
			// The padded input must hold the dilated kernel: a guard
			// when symbolic, as PyTorch's meta function checks (an
			// AUTO dim of a 3x3 convolution's input is at least 3).
			padded := in[i].Add(padding[i].Mul(sym.Const(2)))
			fits, err := c.Decide(sym.Ge(padded, ext.Add(one)))
			if err != nil {
				return nil, err
			}
			if !fits {
				return nil, torchErr("Calculated padded input size per channel: (%v). Kernel size: (%v). Kernel size can't be greater than actual input size", padded, ext.Add(one))
			}
			num := padded.Sub(ext).Sub(one)
			o, err := sym.FloorDivErr(num, stride[i])
			if err != nil {
				return nil, err
			}
			sh = append(sh, o.Add(one))
		}
	}
	return sh, nil
}

func convolutionRule(c *RuleCall) ([]any, error) {
	g, _ := c.Int(8)
	sh, err := c.convShape(c.Fake(0), c.Fake(1), c.Ints(3), c.Ints(4), c.Ints(5), c.Bool(6), c.Ints(7), g, false)
	if err != nil {
		return nil, err
	}
	return []any{fake(sh)}, nil
}

func convRule(c *RuleCall) ([]any, error) {
	g, _ := c.Int(6)
	sh, err := c.convShape(c.Fake(0), c.Fake(1), c.Ints(3), c.Ints(4), c.Ints(5), false, nil, g, false)
	if err != nil {
		return nil, err
	}
	return []any{fake(sh)}, nil
}

func convPaddingRule(c *RuleCall) ([]any, error) {
	g, _ := c.Int(6)
	pad, _ := c.Args[4].(string)
	sh, err := c.convShape(c.Fake(0), c.Fake(1), c.Ints(3), nil, c.Ints(5), false, nil, g, pad == "same")
	if err != nil {
		return nil, err
	}
	return []any{fake(sh)}, nil
}

// poolOut is pooling_output_shape: the output size of a pooling window.
func (c *RuleCall) poolOut(in, k, s, p, d sym.Expr, ceil bool) (sym.Expr, error) {
	num := in.Add(p.Mul(sym.Const(2))).Sub(d.Mul(k.Sub(one))).Sub(one)
	if ceil {
		num = num.Add(s).Sub(one)
	}
	o, err := sym.FloorDivErr(num, s)
	if err != nil {
		return o, err
	}
	o = o.Add(one)
	if ceil {
		// The last window must start inside the input or the left padding.
		past, err := c.Decide(sym.Ge(o.Sub(one).Mul(s), in.Add(p)))
		if err != nil {
			return o, err
		}
		if past {
			o = o.Sub(one)
		}
	}
	return o, nil
}

// poolDims returns the number of spatial dims of a pooling operator
// (max_pool2d: 2).
func poolDims(name string) int {
	switch {
	case strings.Contains(name, "1d"):
		return 1
	case strings.Contains(name, "3d"):
		return 3
	}
	return 2
}

// poolRule computes max and average pooling shapes (withIndices: two
// results; dilated: the schema has a dilation argument before ceil_mode).
func poolRule(withIndices, dilated bool) Rule {
	return func(c *RuleCall) ([]any, error) {
		self := c.Fake(0)
		// The op's name says how many spatial dims it pools (a kernel
		// of one element is spread over them, as PyTorch does).
		n := poolDims(c.Op.ShortName())
		kernel := c.Ints(1)
		if len(kernel) != 1 && len(kernel) != n {
			return nil, fmt.Errorf("kernel_size must either be a single int, or a tuple of %d ints", n)
		}
		kernel = spread(kernel, n, 1)
		if len(self.Shape) < n+1 {
			return nil, fmt.Errorf("pooling expects a %dD or %dD input, got %dD", n+1, n+2, len(self.Shape))
		}
		stride := c.Ints(2)
		if len(stride) == 0 {
			stride = kernel
		}
		stride = spread(stride, n, 1)
		padding := spread(c.Ints(3), n, 0)
		dilation := spread(nil, n, 1)
		ceilAt := 4
		if dilated {
			dilation = spread(c.Ints(4), n, 1)
			ceilAt = 5
		}
		ceil := c.Bool(ceilAt)
		sh := slices.Clone(self.Shape)
		in := sh[len(sh)-n:]
		for i := range in {
			o, err := c.poolOut(in[i], kernel[i], stride[i], padding[i], dilation[i], ceil)
			if err != nil {
				return nil, err
			}
			// pool2d_shape_check: every output dim is at least 1 (a guard
			// on symbolic dims).
			big, err := c.Decide(sym.Ge(o, one))
			if err != nil {
				return nil, err
			}
			if !big {
				return nil, torchErr("Given input size: (%v). Calculated output size: (%v). Output size is too small", in[i], o)
			}
			in[i] = o
		}
		if withIndices {
			return results(fake(sh), fake(slices.Clone(sh))), nil
		}
		return []any{fake(sh)}, nil
	}
}

func adaptiveRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	out := c.Ints(1)
	if len(self.Shape) < len(out) {
		return nil, fmt.Errorf("adaptive pooling expects at least a %dD input", len(out)+1)
	}
	sh := slices.Concat(self.Shape[:len(self.Shape)-len(out)], out)
	return []any{fake(sh)}, nil
}

// reduced returns self's shape reduced over dims (all when empty).
func (c *RuleCall) reduced(self *Fake, dims []sym.Expr, keep bool) ([]sym.Expr, error) {
	rank := len(self.Shape)
	red := make([]bool, max(rank, 1))
	if len(dims) == 0 {
		for i := range red {
			red[i] = true
		}
	}
	for _, e := range dims {
		d, err := c.wrapDim(e, rank)
		if err != nil {
			return nil, err
		}
		if red[d] {
			return nil, fmt.Errorf("dim %d appears multiple times in the list of dims", d)
		}
		red[d] = true
	}
	sh := make([]sym.Expr, 0, rank)
	for i, d := range self.Shape {
		switch {
		case !red[i]:
			sh = append(sh, d)
		case keep:
			sh = append(sh, one)
		}
	}
	return sh, nil
}

func reduceRule(c *RuleCall) ([]any, error) {
	sh, err := c.reduced(c.Fake(0), c.Ints(1), c.Bool(c.argIndex("keepdim")))
	if err != nil {
		return nil, err
	}
	return []any{fake(sh)}, nil
}

func fullReduceRule(*RuleCall) ([]any, error) { return []any{fake(nil)}, nil }

func argReduceRule(c *RuleCall) ([]any, error) {
	d, ok := c.Int(1)
	if !ok {
		if c.Bool(2) {
			return []any{fake(consts(slices.Repeat([]int64{1}, len(c.Fake(0).Shape))...))}, nil
		}
		return []any{fake(nil)}, nil
	}
	sh, err := c.reduced(c.Fake(0), []sym.Expr{d}, c.Bool(2))
	if err != nil {
		return nil, err
	}
	return []any{fake(sh)}, nil
}

func oneDimReduceRule(c *RuleCall) ([]any, error) {
	d, _ := c.Int(1)
	sh, err := c.reduced(c.Fake(0), []sym.Expr{d}, c.Bool(2))
	if err != nil {
		return nil, err
	}
	return []any{fake(sh)}, nil
}

func valuesIndicesReduceRule(c *RuleCall) ([]any, error) {
	r, err := oneDimReduceRule(c)
	if err != nil {
		return nil, err
	}
	sh := r[0].(*Fake).Shape
	return results(fake(sh), fake(slices.Clone(sh))), nil
}

// batchNormRule: the output has the input's shape; the saved statistics
// have C elements, or none (shape [0]) where the meta function says so.
func batchNormRule(c *RuleCall) ([]any, error) {
	x := c.Fake(0)
	out := []any{fake(x.Shape)}
	for i := 1; i < 3; i++ {
		m, _ := c.Hint[i].(*tensor.Tensor)
		if m != nil && m.Numel() == 0 || len(x.Shape) < 2 {
			out = append(out, fake(consts(0)))
			continue
		}
		out = append(out, fake([]sym.Expr{x.Shape[1]}))
	}
	return out, nil
}

// constrainRangeRule is sym_constrain_range(_for_size)'s (torch._check_is_size
// and torch._constrain_as_size): no result; a size that is one symbol is
// marked size-like (its range at least [0, int_oo]) and narrowed to
// [min, max] where those are given. Without the rule the symbolic size
// would be specialized.
func constrainRangeRule(c *RuleCall) ([]any, error) {
	e, ok := c.Int(0)
	if !ok {
		return []any{}, nil
	}
	ss := e.Symbols()
	if len(ss) != 1 || !ss[0].Expr().Equal(e) {
		return []any{}, nil
	}
	s := ss[0]
	if c.Op.Schema().Name == "sym_constrain_range_for_size" {
		if err := c.Env.ConstrainAsSize(s); err != nil {
			return nil, err
		}
	}
	r := c.Env.RangeOf(s)
	for i, bound := range []*int64{&r.Lo, &r.Hi} {
		if i+1 >= len(c.Args) {
			break
		}
		if b, ok := c.Args[i+1].(sym.Expr); ok {
			if v, ok := b.Const(); ok {
				*bound = v
			}
		}
	}
	if r != c.Env.RangeOf(s) {
		if err := c.Env.Constrain(s, r); err != nil {
			return nil, err
		}
	}
	return []any{}, nil
}

// batchNormFunctionalRule is _native_batch_norm_legit_functional's: batch
// norm's three results, then the new running mean and variance (the
// shapes of the old).
func batchNormFunctionalRule(c *RuleCall) ([]any, error) {
	x := c.Fake(0)
	if len(x.Shape) < 2 {
		return nil, torchErr("batch norm expects an input with at least 2 dims, got %d", len(x.Shape))
	}
	out, err := batchNormRule(c)
	if err != nil {
		return nil, err
	}
	return append(out, fake(c.Fake(3).Shape), fake(c.Fake(4).Shape)), nil
}

func layerNormRule(c *RuleCall) ([]any, error) {
	x := c.Fake(0)
	ns := c.Ints(1)
	axis := len(x.Shape) - len(ns)
	if axis < 0 {
		return nil, torchErr("Given normalized_shape=%v, expected input with shape [*, %v], but got input of size %v", ns, ns, x.Shape)
	}
	for i, n := range ns {
		if err := c.mustEq(x.Shape[axis+i], n, func() string {
			return fmt.Sprintf("Given normalized_shape=%v, expected input with shape [*, %v], but got input of size %v", ns, ns, x.Shape)
		}); err != nil {
			return nil, err
		}
	}
	stat := slices.Clone(x.Shape)
	for i := axis; i < len(stat); i++ {
		stat[i] = one
	}
	return results(fake(x.Shape), fake(stat), fake(slices.Clone(stat))), nil
}

func groupNormRule(c *RuleCall) ([]any, error) {
	x := c.Fake(0)
	n, _ := c.Int(3)
	g, _ := c.Int(6)
	return results(fake(x.Shape), fake([]sym.Expr{n, g}), fake([]sym.Expr{n, g})), nil
}

func embeddingRule(c *RuleCall) ([]any, error) {
	w, idx := c.Fake(0), c.Fake(1)
	if len(w.Shape) != 2 {
		return nil, fmt.Errorf("'weight' must be 2-D")
	}
	return []any{fake(append(slices.Clone(idx.Shape), w.Shape[1]))}, nil
}

func topkRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	k, _ := c.Int(1)
	d, err := c.dim(2, len(self.Shape))
	if err != nil {
		return nil, err
	}
	sh := slices.Clone(self.Shape)
	if len(sh) > 0 {
		ok, err := c.Decide(sym.Le(k, sh[d]))
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("selected index k out of range")
		}
		sh[d] = k
	}
	return results(fake(sh), fake(slices.Clone(sh))), nil
}

func sortRule(c *RuleCall) ([]any, error) {
	s := c.Fake(0).Shape
	return results(fake(s), fake(s)), nil
}

func symSizeRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	d, err := c.dim(1, len(self.Shape))
	if err != nil {
		return nil, err
	}
	if len(self.Shape) == 0 {
		return nil, fmt.Errorf("dimension specified as %d but tensor has no dimensions", d)
	}
	return []any{self.Shape[d]}, nil
}

func symNumelRule(c *RuleCall) ([]any, error) { return []any{c.Fake(0).Numel()}, nil }

func sizeRule(c *RuleCall) ([]any, error) { return []any{fake(slices.Clone(c.Ints(0)))}, nil }

func newSizeRule(c *RuleCall) ([]any, error) { return []any{fake(slices.Clone(c.Ints(1)))}, nil }

func scalarTensorRule(*RuleCall) ([]any, error) { return []any{fake(nil)}, nil }

// arangeRule: a length symbolic when an integer bound is symbolic,
// ceil((end - start) / step), else the meta function's.
func arangeRule(c *RuleCall) ([]any, error) {
	var start, end, step any = int64(0), nil, int64(1)
	switch c.Op.Schema().Overload {
	case "":
		end = c.Args[0]
	case "start":
		start, end = c.Args[0], c.Args[1]
	default:
		start, end, step = c.Args[0], c.Args[1], c.Args[2]
	}
	es, ok1 := scalarInt(start)
	ee, ok2 := scalarInt(end)
	ep, ok3 := scalarInt(step)
	if !ok1 || !ok2 || !ok3 || (es.IsConst() && ee.IsConst() && ep.IsConst()) {
		m := c.Hint[0].(*tensor.Tensor)
		return []any{FakeOf(m)}, nil
	}
	st, ok := ep.Const()
	if !ok || st == 0 {
		return nil, fmt.Errorf("arange: a symbolic step is not supported")
	}
	var n sym.Expr
	if st > 0 {
		n = ceilDiv(ee.Sub(es), ep)
	} else {
		n = es.Sub(ee).Sub(ep).Sub(one).FloorDiv(ep.Neg())
	}
	return []any{fake([]sym.Expr{sym.Max(n, zero)})}, nil
}

func scalarInt(v any) (sym.Expr, bool) {
	switch x := v.(type) {
	case ops.Scalar:
		if x.IsInt() {
			return sym.Const(x.Int()), true
		}
		return sym.Expr{}, false
	case bool:
		return sym.Expr{}, false
	}
	return toExpr(v)
}

func padRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	pad := c.Ints(1)
	if len(pad)%2 != 0 || len(pad)/2 > len(self.Shape) {
		return nil, torchErr("Length of pad must be even but instead it equals %d", len(pad))
	}
	sh := slices.Clone(self.Shape)
	for i := 0; i < len(pad)/2; i++ {
		d := len(sh) - 1 - i
		sh[d] = sh[d].Add(pad[2*i]).Add(pad[2*i+1])
	}
	return []any{fake(sh)}, nil
}

func indexSelectRule(c *RuleCall) ([]any, error) {
	self, idx := c.Fake(0), c.Fake(2)
	if len(idx.Shape) > 1 {
		return nil, fmt.Errorf("index_select(): Index is supposed to be a vector")
	}
	sh := slices.Clone(self.Shape)
	if len(sh) == 0 {
		return []any{fake(sh)}, nil
	}
	d, err := c.dim(1, len(sh))
	if err != nil {
		return nil, err
	}
	sh[d] = idx.Numel()
	return []any{fake(sh)}, nil
}

func gatherRule(c *RuleCall) ([]any, error) { return []any{fake(slices.Clone(c.Fake(2).Shape))}, nil }

// nonzeroRule: the number of nonzero elements is data-dependent, a fresh
// unbacked symbol in [0, numel].
func nonzeroRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	hi := int64(sym.Inf)
	if n, ok := self.Numel().Const(); ok {
		hi = n
	}
	u := c.Env.NewUnbacked(sym.Range{Lo: 0, Hi: hi})
	return []any{&Fake{DType: tensor.Int64, Shape: []sym.Expr{u.Expr(), sym.Const(int64(len(self.Shape)))}, Contiguous: true}}, nil
}

// upsampleRule: the output sizes given, or the input sizes times integral
// scale factors (a fractional factor specializes the size to its hint).
func upsampleRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	sizes := c.Ints(1)
	var scales []float64
	switch x := c.Args[2].(type) {
	case []float64:
		scales = x
	case []any:
		for _, e := range x {
			f, ok := e.(float64)
			if !ok {
				return nil, fmt.Errorf("scale_factors: expected floats, got %T", e)
			}
			scales = append(scales, f)
		}
	}
	n := len(self.Shape) - 2
	if n < 1 || (sizes == nil && len(scales) != n) || (sizes != nil && len(sizes) != n) {
		return nil, fmt.Errorf("upsample: expected %d output sizes or scale factors for input %s", max(n, 0), self)
	}
	sh := slices.Clone(self.Shape)
	for i := 0; i < n; i++ {
		d := sh[2+i]
		switch {
		case sizes != nil:
			sh[2+i] = sizes[i]
		case scales[i] == float64(int64(scales[i])):
			sh[2+i] = d.Mul(sym.Const(int64(scales[i])))
		default:
			v, err := c.concrete(d)
			if err != nil {
				return nil, err
			}
			sh[2+i] = sym.Const(int64(float64(v) * scales[i]))
		}
	}
	return []any{fake(sh)}, nil
}
