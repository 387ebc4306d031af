package decomp

import (
	"math"
	"sync"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// Operators the rules emit or decompose that have no handle in ops/aten.
var (
	opAddS, opAddT     = aten.AddScalar, aten.AddTensor
	opSubT             = aten.SubTensor
	opMulS, opMulT     = aten.MulScalar, aten.MulTensor
	opDivT             = aten.DivTensor
	opUnsqueeze        = aten.Unsqueeze
	opToCopy           = aten.InternalToCopy
	opView             = aten.View
	opPermute          = aten.Permute
	opClone            = aten.Clone
	opCopy_            = nn.Op("aten::copy_")
	opConv1d           = nn.Op("aten::conv1d")
	opConvT2d          = nn.Op("aten::conv_transpose2d.input")
	opGroupNorm        = nn.Op("aten::group_norm")
	opContiguous       = nn.Op("aten::contiguous")
	opExpandAs         = nn.Op("aten::expand_as")
	opTypeAs           = nn.Op("aten::type_as")
	opReshapeAlias     = nn.Op("aten::_reshape_alias")
	opDetach           = nn.Op("aten::detach")
	opToDType          = nn.Op("aten::to.dtype")
	opStack            = nn.Op("aten::stack")
	opChunk            = nn.Op("aten::chunk")
	opFloorDivide      = nn.Op("aten::floor_divide")
	opFloorDivideS     = nn.Op("aten::floor_divide.Scalar")
	opSquare           = nn.Op("aten::square")
	opViewAs           = nn.Op("aten::view_as")
	opReshapeAs        = nn.Op("aten::reshape_as")
	opMv               = nn.Op("aten::mv")
	opDot              = nn.Op("aten::dot")
	opLegit            = aten.InternalNativeBatchNormLegit
	opLegitNoStats     = aten.InternalNativeBatchNormLegitNoStats
	opLegitNoTraining  = aten.InternalNativeBatchNormLegitNoTraining
	contiguousFormat   = "contiguous_format"
	getitemFirstResult = 0
)

var (
	coreOnce, extraOnce sync.Once
	coreTable           Table
	extraTable          Table
)

// Core returns the decompositions of composite operators into core ATen:
// every non-core operator that the zoo's models and the conformance set
// use, and the other composites model code commonly reaches (conv1d,
// group_norm, contiguous, stack, ...). Every rule emits core operators
// only (and operator.getitem), whether or not the tracer running it
// decomposes recursively. The returned table is a fresh copy.
func Core() Table { return coreShared().With(nil) }

// coreShared returns the shared Core table (not to be changed).
func coreShared() Table {
	coreOnce.Do(func() { coreTable = coreRules() })
	return coreTable
}

// Extra returns the decompositions PyTorch 1.13's decomposition list
// applies on top of Core to make ../shared/models/*.aten.json:
// native_batch_norm (and the newer _native_batch_norm_legit variants),
// gelu, _softmax, _log_softmax, hardtanh, leaky_relu, t, transpose.int,
// _reshape_alias and _unsafe_view, each into finer core operators as
// torch/_decomp/decompositions.py writes them. The returned table is a
// fresh copy.
func Extra() Table {
	extraOnce.Do(func() { extraTable = extraRules() })
	return extraTable.With(nil)
}

func (t Table) add(op *ops.Operator, f func(a []nn.Value) nn.Value) {
	t[op] = rule(op, len(op.Schema().Args), f)
}

func coreRules() Table {
	t := Table{}
	t.add(aten.Linear, linear)
	t.add(aten.Matmul, func(a []nn.Value) nn.Value { return matmul(a[0], a[1]) })
	t.add(opMv, func(a []nn.Value) nn.Value { return matmul(a[0], a[1]) })
	t.add(opDot, func(a []nn.Value) nn.Value { return matmul(a[0], a[1]) })
	t.add(aten.Conv2d, func(a []nn.Value) nn.Value { return convND(a, 2, false) })
	t.add(opConv1d, func(a []nn.Value) nn.Value { return convND(a, 1, false) })
	t.add(opConvT2d, func(a []nn.Value) nn.Value { return convND(a, 2, true) })
	t.add(aten.BatchNorm, batchNorm)
	t.add(aten.NativeBatchNorm, nativeBatchNormCore)
	t.add(aten.LayerNorm, func(a []nn.Value) nn.Value {
		return call(aten.NativeLayerNorm, a[0], a[1], a[2], a[3], a[4]).Index(getitemFirstResult)
	})
	t.add(opGroupNorm, groupNorm)
	t.add(aten.SoftmaxInt, func(a []nn.Value) nn.Value { return softmaxInt(aten.InternalSoftmax, a) })
	t.add(aten.LogSoftmaxInt, func(a []nn.Value) nn.Value { return softmaxInt(aten.InternalLogSoftmax, a) })
	t.add(aten.FlattenUsingInts, flatten)
	t.add(aten.Reshape, func(a []nn.Value) nn.Value { return reshape(a[0], shapeArg(a[1])) })
	t.add(opReshapeAs, func(a []nn.Value) nn.Value { return reshape(a[0], shapeOf(a[1])) })
	t.add(opViewAs, func(a []nn.Value) nn.Value { return call(opView, a[0], ints(shapeOf(a[1])...)) })
	t.add(aten.InternalUnsafeView, viewRule)
	t.add(opReshapeAlias, viewRule)
	t.add(aten.Dropout, dropout)
	t.add(aten.AdaptiveAvgPool2d, adaptiveAvgPool2d)
	t.add(aten.MaxPool2d, func(a []nn.Value) nn.Value {
		return call(aten.MaxPool2dWithIndices, a[0], a[1], a[2], a[3], a[4], a[5]).Index(getitemFirstResult)
	})
	t.add(aten.Relu6, func(a []nn.Value) nn.Value { return call(aten.Hardtanh, a[0], 0, 6) })
	t.add(aten.Item, func(a []nn.Value) nn.Value { return call(aten.InternalLocalScalarDense, a[0]) })
	t.add(aten.Elu, elu)
	t.add(aten.Silu, func(a []nn.Value) nn.Value { return call(opMulT, a[0], call(aten.Sigmoid, a[0])) })
	t.add(aten.Hardswish, func(a []nn.Value) nn.Value {
		return call(opDivT, call(opMulT, a[0], relu6Shift(a[0])), 6)
	})
	t.add(aten.Hardsigmoid, func(a []nn.Value) nn.Value { return call(opDivT, relu6Shift(a[0]), 6) })
	t.add(aten.RsubScalar, rsub)
	t.add(aten.FullLike, func(a []nn.Value) nn.Value { return fullLike(a[0], a[1], a[2:6]) })
	t.add(aten.ZerosLike, func(a []nn.Value) nn.Value { return fullLike(a[0], nn.Of(0), a[1:5]) })
	t.add(aten.OnesLike, func(a []nn.Value) nn.Value { return fullLike(a[0], nn.Of(1), a[1:5]) })
	t.add(aten.SplitTensor, func(a []nn.Value) nn.Value { return split(a[0], a[1], a[2]) })
	t.add(opChunk, chunk)
	t.add(aten.Squeeze, squeeze)
	// sum.default is sum.dim_IntList(self, [], dtype=dtype), as PyTorch's
	// sum_default decomposition records it (an empty list of dims: all).
	t.add(aten.Sum, func(a []nn.Value) nn.Value {
		if a[1].IsNone() {
			return call(aten.SumDimIntList, a[0], intList())
		}
		return callKw(aten.SumDimIntList, []any{a[0], intList()}, map[string]any{"dtype": a[1]})
	})
	t.add(aten.T, func(a []nn.Value) nn.Value { return transposeT(a[0]) })
	t.add(aten.TransposeInt, func(a []nn.Value) nn.Value { return transpose(a[0], a[1].Int(), a[2].Int()) })
	t.add(opExpandAs, func(a []nn.Value) nn.Value { return call(aten.Expand, a[0], ints(shapeOf(a[1])...)) })
	t.add(opTypeAs, func(a []nn.Value) nn.Value { return toDType(a[0], dtypeOf(a[1])) })
	t.add(opContiguous, func(a []nn.Value) nn.Value { return contiguous(a[0]) })
	t.add(opDetach, func(a []nn.Value) nn.Value { return call(aten.Alias, a[0]) })
	t.add(opToDType, toDTypeRule)
	t.add(opStack, stack)
	t.add(opFloorDivide, func(a []nn.Value) nn.Value {
		return callKw(aten.DivTensorMode, []any{a[0], a[1]}, map[string]any{"rounding_mode": "floor"})
	})
	t.add(opFloorDivideS, func(a []nn.Value) nn.Value {
		return callKw(aten.DivScalarMode, []any{a[0], a[1]}, map[string]any{"rounding_mode": "floor"})
	})
	t.add(opSquare, func(a []nn.Value) nn.Value { return call(aten.PowTensorScalar, a[0], 2) })
	addShapeIndexRules(t)
	addMathRules(t)
	addDeriveRules(t)
	add15rRules(t)
	addFusedRules(t)
	return t
}

func extraRules() Table {
	t := Table{}
	t.add(aten.NativeBatchNorm, func(a []nn.Value) nn.Value {
		return batchNorm113(a[0], a[1], a[2], a[3], a[4], a[5].Bool(), a[6], a[7])
	})
	t.add(opLegit, func(a []nn.Value) nn.Value {
		return batchNorm113(a[0], a[1], a[2], a[3], a[4], a[5].Bool(), a[6], a[7])
	})
	t.add(opLegitNoStats, func(a []nn.Value) nn.Value {
		return batchNorm113(a[0], a[1], a[2], nn.None, nn.None, a[3].Bool(), a[4], a[5])
	})
	t.add(opLegitNoTraining, func(a []nn.Value) nn.Value {
		return batchNorm113(a[0], a[1], a[2], a[3], a[4], false, a[5], a[6])
	})
	t.add(aten.Gelu, gelu)
	t.add(aten.InternalSoftmax, func(a []nn.Value) nn.Value { return softmax113(a[0], a[1].Int(), a[2].Bool(), false) })
	t.add(aten.InternalLogSoftmax, func(a []nn.Value) nn.Value { return softmax113(a[0], a[1].Int(), a[2].Bool(), true) })
	t.add(aten.Hardtanh, func(a []nn.Value) nn.Value { return call(aten.Clamp, a[0], a[1], a[2]) })
	t.add(aten.LeakyRelu, func(a []nn.Value) nn.Value {
		return call(aten.WhereSelf, call(aten.GtScalar, a[0], 0), a[0], call(opMulT, a[0], a[1]))
	})
	t.add(aten.T, func(a []nn.Value) nn.Value { return transposeT(a[0]) })
	t.add(aten.TransposeInt, func(a []nn.Value) nn.Value { return transpose(a[0], a[1].Int(), a[2].Int()) })
	t.add(opReshapeAlias, viewRule)
	t.add(aten.InternalUnsafeView, viewRule)
	return t
}

// shapeArg returns an int[] argument's sizes.
func shapeArg(v nn.Value) []nn.Value {
	if !v.IsTuple() {
		fail("expected a list of sizes, got %s", v.Kind())
	}
	return v.Tuple()
}

func viewRule(a []nn.Value) nn.Value { return call(opView, a[0], a[1]) }

// linear is 1.13's at::linear (Linear.cpp): addmm for 2-d input with a
// bias, view + addmm + view for contiguous 3-d input with a bias, matmul
// (+ add) otherwise.
func linear(a []nn.Value) nn.Value {
	x, w, b := a[0], a[1], a[2]
	xs := shapeOf(x)
	wt := transposeT(w)
	if len(xs) == 2 && !b.IsNone() {
		return call(aten.Addmm, b, x, wt)
	}
	if !b.IsNone() && len(xs) == 3 && isContiguous(x) {
		flat := call(opView, x, ints(xs[0].Mul(xs[1]), xs[2]))
		out := call(aten.Addmm, b, flat, wt)
		return call(opView, out, ints(xs[0], xs[1], shapeOf(out)[1]))
	}
	out := matmul(x, wt)
	if !b.IsNone() {
		out = call(opAddT, out, b)
	}
	return out
}

// transposeT is t(): permute of a matrix's two dims (identity for fewer).
func transposeT(x nn.Value) nn.Value {
	n := ndim(x)
	if n > 2 {
		fail("t() expects a tensor with <= 2 dimensions, but self is %dD", n)
	}
	if n < 2 {
		return transpose(x, 0, 0)
	}
	return transpose(x, 0, 1)
}

// transpose is transpose.int as a permute.
func transpose(x nn.Value, d0, d1 int64) nn.Value {
	n := ndim(x)
	i, j := wrapDim(d0, n), wrapDim(d1, n)
	perm := make([]int, n)
	for k := range perm {
		perm[k] = k
	}
	if n > 0 {
		perm[i], perm[j] = perm[j], perm[i]
	}
	return call(opPermute, x, intList(perm...))
}

// mT transposes the last two dims.
func mT(x nn.Value) nn.Value { return transpose(x, -2, -1) }

// contiguous is Tensor.contiguous(): x itself when contiguous, a
// contiguous clone otherwise.
func contiguous(x nn.Value) nn.Value {
	if isContiguous(x) {
		return x
	}
	return callKw(opClone, []any{x}, map[string]any{"memory_format": contiguousFormat})
}

// reshape is 1.13's at::reshape: a view when the strides allow one
// (_reshape_alias, a view in core ATen), a contiguous clone viewed
// otherwise (_unsafe_view, also a view).
func reshape(x nn.Value, shape []nn.Value) nn.Value {
	xs := shapeOf(x)
	if concrete(shape) && concrete(xs) {
		sizes, err := tensor.InferShape(toInts(shape), int(prod(xs).Int()))
		if err != nil {
			fail("reshape: %v", err)
		}
		vs := make([]nn.Value, len(sizes))
		for i, s := range sizes {
			vs[i] = nn.Of(s)
		}
		if m := metaOf(x); m == nil || viewable(m, sizes) {
			return call(opView, x, ints(vs...))
		}
		return call(opView, callKw(opClone, []any{x}, map[string]any{"memory_format": contiguousFormat}), ints(vs...))
	}
	if isContiguous(x) || viewableAtExample(x, xs, shape) {
		return call(opView, x, ints(shape...))
	}
	return call(opView, callKw(opClone, []any{x}, map[string]any{"memory_format": contiguousFormat}), ints(shape...))
}

// viewableAtExample reports whether x, of symbolic sizes xs, can be viewed
// with the symbolic sizes shape, judged on its meta tensor at the example
// sizes as at::reshape's computeStride judges the symbolic strides (a
// chunk of a split's last dimension views as [B, T, 4, 8]). A size of
// shape is known when it is an int or the very value of one of xs (a size
// read from x); one other size is inferred from the element count; with
// more unknown, or no meta, it reports false.
func viewableAtExample(x nn.Value, xs, shape []nn.Value) bool {
	m := metaOf(x)
	if m == nil || len(m.Shape()) != len(xs) {
		return false
	}
	sizes := make([]int, len(shape))
	unknown := -1
	for i, v := range shape {
		if c, ok := v.Raw().(int64); ok {
			sizes[i] = int(c)
			continue
		}
		sizes[i] = -1
		if s, ok := v.Symbolic(); ok {
			for j, d := range xs {
				if ds, ok := d.Symbolic(); ok && ds == s {
					sizes[i] = m.Shape()[j]
					break
				}
			}
		}
		if sizes[i] == -1 {
			if unknown >= 0 {
				return false
			}
			unknown = i
		}
	}
	sizes, err := tensor.InferShape(sizes, m.Numel())
	return err == nil && viewable(m, sizes)
}

// viewable reports whether m can be viewed with sizes.
func viewable(m *tensor.Tensor, sizes []int) bool {
	_, err := m.View(sizes...)
	return err == nil
}

// shouldFold is 1.13's should_fold (LinearAlgebra.cpp): fold the batch of
// t into mm's rows when the other operand is a vector or matrix, except
// for a 3-d t whose last two dims are transposed.
func shouldFold(t nn.Value, otherDim int) bool {
	s := shapeOf(t)
	if len(s) >= 3 && (otherDim == 1 || otherDim == 2) {
		st := strides(t)
		if len(s) == 3 && otherDim == 2 && st[2] != 1 && int64(st[0]) == s[1].Mul(s[2]).Int() {
			return false
		}
		return true
	}
	return false
}

// matmul is 1.13's at::matmul: dot, mv, mm for 1-d and 2-d operands (dot
// and mv as mm, which core ATen has), the batch folded into mm where
// should_fold allows, and otherwise both operands expanded to a common
// batch, reshaped to 3-d and multiplied with bmm.
func matmul(t1, t2 nn.Value) nn.Value {
	s1, s2 := shapeOf(t1), shapeOf(t2)
	d1, d2 := len(s1), len(s2)
	if d1 == 0 || d2 == 0 {
		fail("both arguments to matmul need to be at least 1D, but they are %dD and %dD", d1, d2)
	}
	switch {
	case d1 == 1 && d2 == 1:
		out := call(aten.Mm, call(opUnsqueeze, t1, 0), call(opUnsqueeze, t2, 1))
		return call(opView, out, intList())
	case d1 == 2 && d2 == 1:
		// squeeze.dims, as PyTorch 2.6 and 2.14 record the squeeze_ of
		// their _matmul_impl (map_rows.core.pt2).
		return call(aten.SqueezeDims, call(aten.Mm, t1, call(opUnsqueeze, t2, 1)), intList(1))
	case d1 == 1 && d2 == 2:
		return call(aten.SqueezeDims, call(aten.Mm, call(opUnsqueeze, t1, 0), t2), intList(0))
	case d1 == 2 && d2 == 2:
		return call(aten.Mm, t1, t2)
	case shouldFold(t1, d2) || shouldFold(t2, d1):
		transposed := d2 > d1
		a, b := t1, t2
		if transposed {
			a = mT(t2)
			b = t1
			if d1 == 2 {
				b = transposeT(t1)
			}
		}
		sa := shapeOf(a)
		outShape := append([]nn.Value(nil), sa[:len(sa)-1]...)
		folded := reshape(a, []nn.Value{prod(outShape), sa[len(sa)-1]})
		if ndim(b) == 2 {
			outShape = append(outShape, shapeOf(b)[1])
			out := call(opView, call(aten.Mm, folded, b), ints(outShape...))
			if transposed {
				return contiguous(mT(out))
			}
			return out
		}
		return call(opView, call(aten.Mm, folded, call(opUnsqueeze, b, 1)), ints(outShape...))
	}
	n, p := nn.Of(1), nn.Of(1)
	if d1 > 1 {
		n = s1[d1-2]
	}
	m1 := s1[d1-1]
	m2 := s2[0]
	if d2 > 1 {
		m2, p = s2[d2-2], s2[d2-1]
	}
	b1 := s1[:max(d1-2, 0)]
	b2 := s2[:max(d2-2, 0)]
	batch := broadcastSizes(b1, b2)
	e1 := append(append([]nn.Value(nil), batch...), n, m1)
	e2 := append(append([]nn.Value(nil), batch...), m2, p)
	bp := prod(batch)
	x1, x2 := t1, t2
	if d1 == 1 {
		x1 = call(opUnsqueeze, t1, 0)
	}
	if d2 == 1 {
		x2 = call(opUnsqueeze, t2, 1)
	}
	x1 = reshape(call(aten.Expand, x1, ints(e1...)), []nn.Value{bp, n, m1})
	x2 = reshape(call(aten.Expand, x2, ints(e2...)), []nn.Value{bp, m2, p})
	outShape := append([]nn.Value(nil), batch...)
	if d1 > 1 {
		outShape = append(outShape, n)
	}
	if d2 > 1 {
		outShape = append(outShape, p)
	}
	return call(opView, call(aten.Bmm, x1, x2), ints(outShape...))
}

// broadcastSizes is infer_size for two batch shapes.
func broadcastSizes(a, b []nn.Value) []nn.Value {
	n := max(len(a), len(b))
	out := make([]nn.Value, n)
	for i := range n {
		ia, ib := i-(n-len(a)), i-(n-len(b))
		switch {
		case ia < 0:
			out[i] = b[ib]
		case ib < 0:
			out[i] = a[ia]
		case a[ia].Kind() == "int" && a[ia].Int() == 1:
			out[i] = b[ib]
		case b[ib].Kind() == "int" && b[ib].Int() == 1:
			out[i] = a[ia]
		default:
			if a[ia].Ne(b[ib]).Bool() {
				fail("The size of tensor a (%s) must match the size of tensor b (%s) at non-singleton dimension %d", a[ia], b[ib], i)
			}
			out[i] = a[ia]
		}
	}
	return out
}

// convND is conv1d/conv2d/conv_transpose2d.input: aten::convolution, with
// an unbatched input given a batch of one and the result squeezed back
// (1.13's batchify).
func convND(a []nn.Value, spatial int, transposed bool) nn.Value {
	x, w, b := a[0], a[1], a[2]
	var stride, padding, dilation, outPad nn.Value
	var groups nn.Value
	if transposed {
		// (input, weight, bias, stride, padding, output_padding, groups, dilation)
		stride, padding, outPad, groups, dilation = a[3], a[4], a[5], a[6], a[7]
	} else {
		// (input, weight, bias, stride, padding, dilation, groups)
		stride, padding, dilation, groups = a[3], a[4], a[5], a[6]
		zeros := make([]int, spatial)
		outPad = intList(zeros...)
	}
	if padding.Kind() == "str" {
		fail("padding=%q is not supported; give the padding as sizes", padding)
	}
	dim := ndim(x)
	batched := dim == spatial+2
	if !batched && dim != spatial+1 {
		fail("Expected %dD (unbatched) or %dD (batched) input, but got input of size: %s", spatial+1, spatial+2, x.Shape())
	}
	if !batched {
		x = call(opUnsqueeze, x, 0)
	}
	out := call(aten.Convolution, x, w, b,
		ints(intsOf(stride, spatial)...), ints(intsOf(padding, spatial)...), ints(intsOf(dilation, spatial)...),
		transposed, ints(intsOf(outPad, spatial)...), groups)
	if !batched {
		out = call(aten.SqueezeDim, out, 0)
	}
	return out
}

// batchNorm is aten::batch_norm: the core batch-norm operator for the
// mode (eval with running statistics: _native_batch_norm_legit_no_training;
// training: _native_batch_norm_legit, which updates the running
// statistics, or its no_stats overload without them), result 0.
func batchNorm(a []nn.Value) nn.Value {
	x, w, b, rm, rv, training, momentum, eps := a[0], a[1], a[2], a[3], a[4], a[5].Bool(), a[6], a[7]
	return batchNormCore(x, w, b, rm, rv, training, momentum, eps).Index(getitemFirstResult)
}

func nativeBatchNormCore(a []nn.Value) nn.Value {
	return batchNormCore(a[0], a[1], a[2], a[3], a[4], a[5].Bool(), a[6], a[7])
}

func batchNormCore(x, w, b, rm, rv nn.Value, training bool, momentum, eps nn.Value) nn.Value {
	stats := !rm.IsNone() && !rv.IsNone()
	if rm.IsNone() != rv.IsNone() {
		fail("running_mean and running_var must both be given or both be None")
	}
	switch {
	case training && stats:
		return call(opLegit, x, w, b, rm, rv, true, momentum, eps)
	case training:
		return call(opLegitNoStats, x, w, b, true, momentum, eps)
	case stats:
		return call(opLegitNoTraining, x, w, b, rm, rv, momentum, eps)
	}
	fail("running_mean and running_var are required in eval mode (training=False)")
	return nn.None
}

// groupNorm is 1.13's group_norm: native_group_norm over the contiguous
// input with N, C and HxW read from its shape, result 0.
func groupNorm(a []nn.Value) nn.Value {
	x, groups, w, b, eps := a[0], a[1], a[2], a[3], a[4]
	s := shapeOf(x)
	if len(s) < 2 {
		fail("Expected at least 2 dimensions for input tensor but received %d", len(s))
	}
	hw := prod(s[2:])
	if len(s) == 2 {
		hw = nn.Of(1)
	}
	return call(aten.NativeGroupNorm, contiguous(x), w, b, s[0], s[1], hw, groups, eps).Index(getitemFirstResult)
}

// softmaxInt is softmax.int / log_softmax.int: the input converted to
// dtype when one is given, then _softmax / _log_softmax.
func softmaxInt(op *ops.Operator, a []nn.Value) nn.Value {
	x := a[0]
	if dt, ok := optDType(a[2]); ok {
		x = toDType(x, dt)
	}
	return call(op, x, a[1], false)
}

// flatten is 1.13's flatten.using_ints: reshape to [1] for 0-d input, the
// input itself when start == end, else a reshape merging the dims.
func flatten(a []nn.Value) nn.Value {
	x := a[0]
	s := shapeOf(x)
	n := len(s)
	start, end := wrapDim(a[1].Int(), n), wrapDim(a[2].Int(), n)
	if start > end {
		fail("flatten() has invalid args: start_dim cannot come after end_dim")
	}
	if n == 0 {
		return reshape(x, []nn.Value{nn.Of(1)})
	}
	if start == end {
		return x
	}
	shape := append([]nn.Value(nil), s[:start]...)
	shape = append(shape, prod(s[start:end+1]))
	shape = append(shape, s[end+1:]...)
	return reshape(x, shape)
}

// dropout is 1.13's decomposition: native_dropout in training with p > 0,
// otherwise a clone (a new tensor, so the graph stays functional).
func dropout(a []nn.Value) nn.Value {
	x, p, train := a[0], a[1], a[2].Bool()
	if train && p.Float() != 0 {
		return call(aten.NativeDropout, x, p, train).Index(getitemFirstResult)
	}
	return call(opClone, x)
}

// adaptiveAvgPool2d is 1.13's adaptive_avg_pool2d: a mean over the last
// two dims (keepdim) for output 1x1, _adaptive_avg_pool2d otherwise.
func adaptiveAvgPool2d(a []nn.Value) nn.Value {
	x := a[0]
	size := intsOf(a[1], 2)
	if len(size) == 2 && size[0].Kind() == "int" && size[1].Kind() == "int" && size[0].Int() == 1 && size[1].Int() == 1 {
		return call(aten.MeanDim, x, intList(-1, -2), true)
	}
	return call(aten.InternalAdaptiveAvgPool2d, x, ints(size...))
}

// relu6Shift is clamp(x + 3, 0, 6), shared by hardswish and hardsigmoid
// (1.13's decompositions clamp min and max in turn: the same values).
func relu6Shift(x nn.Value) nn.Value {
	return call(aten.Clamp, call(opAddT, x, 3), 0, 6)
}

// elu is 1.13's decomposition: where(x > 0, x * scale, (exp(x *
// input_scale) - 1) * alpha * scale).
func elu(a []nn.Value) nn.Value {
	x, alpha, scale, inScale := a[0], a[1], a[2], a[3]
	neg := alpha.Mul(scale)
	pos := call(opMulT, x, scale)
	e := call(opMulT, call(opSubT, call(aten.Exp, call(opMulT, x, inScale)), 1), neg)
	return call(aten.WhereSelf, call(aten.GtScalar, x, 0), pos, e)
}

// rsub is other - alpha * self, as (-self) * alpha + other with Python
// numbers (so the result dtype is promoted as rsub promotes).
func rsub(a []nn.Value) nn.Value {
	x, other, alpha := a[0], a[1], a[2]
	if alpha.Kind() == "int" && alpha.Int() == 1 {
		return call(opAddS, call(aten.Neg, x), other)
	}
	return call(opAddS, call(opMulS, x, alpha.Neg()), other)
}

// fullLike is full_like/zeros_like/ones_like: aten::full of x's shape with
// x's dtype unless one is given (the memory format does not change the
// values).
func fullLike(x, value nn.Value, opts []nn.Value) nn.Value {
	dt := opts[0]
	if dt.IsNone() {
		dt = nn.Of(dtypeOf(x))
	}
	kw := map[string]any{"dtype": dt}
	for i, name := range []string{"layout", "device", "pin_memory"} {
		if !opts[i+1].IsNone() {
			kw[name] = opts[i+1]
		}
	}
	return callVia(x, aten.Full, []any{ints(shapeOf(x)...), value}, kw)
}

// callVia calls op, recording it with like's tracer when like is symbolic
// even though no argument is (a factory function such as aten::full, whose
// arguments are all sizes and numbers).
func callVia(like nn.Value, op *ops.Operator, args []any, kwargs map[string]any) nn.Value {
	s, ok := like.Symbolic()
	if !ok {
		return callKw(op, args, kwargs)
	}
	raw := make([]any, len(args))
	for i, a := range args {
		raw[i] = nn.Of(a).Raw()
	}
	rkw := make(map[string]any, len(kwargs))
	for k, a := range kwargs {
		rkw[k] = nn.Of(a).Raw()
	}
	out, err := s.Tracer().Trace(op, raw, rkw)
	if err != nil {
		panic(err)
	}
	if len(out) == 1 {
		return nn.Of(out[0])
	}
	return nn.Of(out)
}

// split is 1.13's split.Tensor as split_with_sizes: ceil(size / split)
// chunks (at least one), the last one shorter.
func split(x, splitSize, dimArg nn.Value) nn.Value {
	s := shapeOf(x)
	dim := wrapDim(dimArg.Int(), len(s))
	size := s[dim].Int()
	ss := splitSize.Int()
	if ss < 0 {
		fail("split expects split_size be non-negative, but got split_size=%d", ss)
	}
	if ss == 0 && size != 0 {
		fail("split_size can only be 0 if dimension size is 0, but got dimension size of %d", size)
	}
	num := int64(1)
	if ss != 0 {
		num = max((size+ss-1)/ss, 1)
	}
	sizes := make([]int, num)
	for i := range sizes {
		sizes[i] = int(ss)
	}
	sizes[num-1] = int(ss - (ss*num - size))
	return call(aten.SplitWithSizes, x, intList(sizes...), dim)
}

// chunk is 1.13's chunk: split with ceil(size / chunks), or chunks empty
// pieces of an empty dim.
func chunk(a []nn.Value) nn.Value {
	x, chunks := a[0], a[1].Int()
	s := shapeOf(x)
	dim := wrapDim(a[2].Int(), len(s))
	if chunks <= 0 {
		fail("chunk expects `chunks` to be greater than 0, got: %d", chunks)
	}
	size := s[dim].Int()
	ss := (size + chunks - 1) / chunks
	if ss == 0 && size == 0 {
		sizes := make([]int, chunks)
		return call(aten.SplitWithSizes, x, intList(sizes...), dim)
	}
	return split(x, nn.Of(ss), nn.Of(dim))
}

// squeeze is squeeze() as squeeze.dims over the size-1 dims.
func squeeze(a []nn.Value) nn.Value {
	x := a[0]
	var dims []int
	for i, d := range shapeOf(x) {
		if d.Kind() == "int" && d.Int() == 1 {
			dims = append(dims, i)
		}
	}
	return call(aten.SqueezeDims, x, intList(dims...))
}

// toDTypeRule is to.dtype: a copy (_to_copy) when the dtype differs or
// copy=True, x itself otherwise.
func toDTypeRule(a []nn.Value) nn.Value {
	x, dt, cp := a[0], a[1], a[3].Bool()
	d, _ := optDType(dt)
	if cp {
		return callKw(opToCopy, []any{x}, map[string]any{"dtype": d})
	}
	return toDType(x, d)
}

// stack is cat of the inputs unsqueezed at dim.
func stack(a []nn.Value) nn.Value {
	ts := a[0].Tuple()
	if len(ts) == 0 {
		fail("stack expects a non-empty TensorList")
	}
	dim := wrapDim(a[1].Int(), ndim(ts[0])+1)
	us := make([]nn.Value, len(ts))
	for i, t := range ts {
		us[i] = call(opUnsqueeze, t, dim)
	}
	return call(aten.Cat, nn.Tuple(us...), dim)
}

// batchNorm113 is 1.13's native_batch_norm decomposition
// (torch/_decomp/decompositions.py), which also serves the newer
// _native_batch_norm_legit variants.
func batchNorm113(x, w, b, rm, rv nn.Value, training bool, momentum, eps nn.Value) nn.Value {
	n := ndim(x)
	if n < 2 {
		fail("batch norm expects an input with at least 2 dims, got %d", n)
	}
	red := []int{0}
	for i := 2; i < n; i++ {
		red = append(red, i)
	}
	dt := dtypeOf(x)
	cdt := computationDType(dt)
	var out, saveMean, saveRstd nn.Value
	if training {
		xacc := toDType(x, cdt)
		biasedVar := callKw(aten.VarCorrection, []any{xacc, intList(red...)}, map[string]any{"correction": 0, "keepdim": true})
		mean := call(aten.MeanDim, xacc, intList(red...), true)
		rstd := call(aten.Rsqrt, call(opAddT, biasedVar, eps))
		out = call(opMulT, call(opSubT, x, mean), rstd)
		saveMean, saveRstd = squeezeDims(mean, red), squeezeDims(rstd, red)
		if !rm.IsNone() {
			upd := call(opAddT, call(opMulT, saveMean, momentum), call(opMulT, rm, nn.Of(1.0).Sub(momentum)))
			call(opCopy_, rm, upd)
		}
		if !rv.IsNone() {
			s := shapeOf(x)
			cnt := prod(s).Div(s[1])
			unbiased := call(opMulT, squeezeDims(biasedVar, red), cnt.Div(cnt.Sub(1)))
			upd := call(opAddT, call(opMulT, unbiased, momentum), call(opMulT, rv, nn.Of(1.0).Sub(momentum)))
			call(opCopy_, rv, upd)
		}
	} else {
		if rm.IsNone() || rv.IsNone() {
			fail("running_mean and running_var are required in eval mode (training=False)")
		}
		mean := callKw(opToCopy, []any{rm}, map[string]any{"dtype": cdt})
		v := callKw(opToCopy, []any{rv}, map[string]any{"dtype": cdt})
		invstd := call(opMulT, call(aten.Reciprocal, call(aten.Sqrt, call(opAddT, v, eps))), 1)
		saveMean = callVia(x, aten.Full, []any{intList(0), 0}, map[string]any{"dtype": dt})
		saveRstd = callVia(x, aten.Full, []any{intList(0), 0}, map[string]any{"dtype": dt})
		mean, invstd = unsqueezeTo(mean, n-1), unsqueezeTo(invstd, n-1)
		out = call(opMulT, call(opSubT, x, mean), invstd)
	}
	if !w.IsNone() {
		out = call(opMulT, out, unsqueezeTo(w, n-1))
	}
	if !b.IsNone() {
		out = call(opAddT, out, unsqueezeTo(b, n-1))
	}
	return nn.Tuple(toDType(out, dt), toDType(saveMean, dt), toDType(saveRstd, dt))
}

// squeezeDims squeezes dims one by one from the last (1.13's
// _squeeze_multiple).
func squeezeDims(x nn.Value, dims []int) nn.Value {
	for i := len(dims) - 1; i >= 0; i-- {
		x = call(aten.SqueezeDim, x, dims[i])
	}
	return x
}

// gelu is 1.13's decomposition: x * 0.5 * (1 + erf(x / sqrt(2))), or the
// tanh approximation.
func gelu(a []nn.Value) nn.Value {
	x, approx := a[0], a[1]
	switch approx.Any() {
	case "none":
		return call(opMulT, call(opMulT, x, 0.5), call(opAddT, call(aten.Erf, call(opMulT, x, math.Sqrt2/2)), 1))
	case "tanh":
		const kBeta = math.Sqrt2 * (2 / math.SqrtPi) * 0.5
		const kKappa = 0.044715
		cube := call(opMulT, call(opMulT, x, x), x)
		inner := call(opMulT, call(opAddT, x, call(opMulT, cube, kKappa)), kBeta)
		return call(opMulT, call(opMulT, x, 0.5), call(opAddT, call(aten.Tanh, inner), 1))
	}
	fail("approximate argument must be either none or tanh, got %s", approx)
	return nn.None
}

// softmax113 is 1.13's _softmax / _log_softmax decomposition: computed in
// float32 for half types, max-shifted.
func softmax113(x nn.Value, dim int64, halfToFloat, log bool) nn.Value {
	x = contiguous(x)
	dt := dtypeOf(x)
	if halfToFloat && dt != tensor.Float16 {
		fail("half_to_float requires a float16 input, got %s", dt)
	}
	cdt := computationDType(dt)
	x = toDType(x, cdt)
	d := intList(int(dim))
	shifted := call(opSubT, x, call(aten.Amax, x, d, true))
	var out nn.Value
	if log {
		out = call(opSubT, shifted, call(aten.Log, call(aten.SumDimIntList, call(aten.Exp, shifted), d, true)))
	} else {
		e := call(aten.Exp, shifted)
		out = call(opDivT, e, call(aten.SumDimIntList, e, d, true))
	}
	if !halfToFloat {
		out = toDType(out, dt)
	}
	return out
}
