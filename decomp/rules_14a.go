package decomp

import (
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/ops/aten"
)

// Core rules for the shape, indexing and counting operators kernels added
// for issue 14 (rot90, take, count_nonzero, the unsafe_ splits), written
// after PyTorch 2.6's torch/_refs, which core_aten_decompositions uses for
// them.

// addShapeIndexRules adds the rules of this file to t; coreRules calls it.
func addShapeIndexRules(t Table) {
	t.add(nn.Op("aten::rot90"), rot90)
	t.add(nn.Op("aten::take"), func(a []nn.Value) nn.Value {
		return call(aten.IndexTensor, reshape(a[0], []nn.Value{nn.Of(-1)}), []nn.Value{a[1]})
	})
	t.add(nn.Op("aten::count_nonzero"), func(a []nn.Value) nn.Value {
		dims := nn.None
		if !a[1].IsNone() {
			dims = nn.Of([]int64{a[1].Int()})
		}
		return call(aten.SumDimIntList, call(aten.NeScalar, a[0], 0), dims)
	})
	t.add(nn.Op("aten::count_nonzero.dim_IntList"), func(a []nn.Value) nn.Value {
		return call(aten.SumDimIntList, call(aten.NeScalar, a[0], 0), a[1])
	})
	t.add(nn.Op("aten::unsafe_split.Tensor"), func(a []nn.Value) nn.Value { return split(a[0], a[1], a[2]) })
	t.add(nn.Op("aten::unsafe_split_with_sizes"), func(a []nn.Value) nn.Value {
		return call(aten.SplitWithSizes, a[0], a[1], a[2])
	})
}

// rot90 is torch/_refs' rot90: flips and a transpose (as a permute).
func rot90(a []nn.Value) nn.Value {
	x, dimsArg := a[0], shapeArg(a[2])
	n := ndim(x)
	if len(dimsArg) != 2 {
		fail("expected total rotation dims == 2, but got dims = %d", len(dimsArg))
	}
	if n < 2 {
		fail("expected total dims >= 2, but got total dims = %d", n)
	}
	d0, d1 := dimsArg[0].Int(), dimsArg[1].Int()
	if diff := d0 - d1; diff == 0 || diff == int64(n) || diff == -int64(n) {
		fail("expected rotation dims to be different, but got dim0 = %d and dim1 = %d", d0, d1)
	}
	w0, w1 := int64(wrapDim(d0, n)), int64(wrapDim(d1, n))
	switch ((a[1].Int() % 4) + 4) % 4 {
	case 1:
		return transpose(call(aten.Flip, x, []int64{w1}), w0, w1)
	case 2:
		return call(aten.Flip, x, []int64{w0, w1})
	case 3:
		return transpose(call(aten.Flip, x, []int64{w0}), w0, w1)
	}
	return callKw(aten.Clone, []any{x}, map[string]any{"memory_format": contiguousFormat})
}
