package kernels

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Searching, counting and uniqueness: ATen's Bucketization.cpp
// (searchsorted, bucketize), SummaryOps.cpp and HistogramKernel.cpp
// (bincount, histc), TensorCompare.cpp's isin, ReduceOps.cpp's
// count_nonzero, TensorAdvancedIndexing.cpp's argwhere and nonzero_static,
// and Unique.cpp (_unique, _unique2, unique_dim, unique_consecutive,
// unique_dim_consecutive). The outputs of bincount, argwhere and the
// unique family have data-dependent shapes; their meta functions say so.

// registerSearch registers the kernels of search.go.
func registerSearch() {
	registerBoth("aten::searchsorted.Tensor", searchsorted)
	registerBoth("aten::searchsorted.Scalar", searchsorted)
	registerBoth("aten::bucketize.Tensor", bucketize)
	registerBoth("aten::bucketize.Scalar", bucketize)
	registerBoth("aten::histc", histc)
	registerBoth("aten::histogram.bin_ct", histogram)
	registerBoth("aten::histogram.bins_tensor", histogram)
	register("aten::bincount", bincount, dataDependentMeta)
	registerBoth("aten::isin.Tensor_Tensor", isin)
	registerBoth("aten::isin.Tensor_Scalar", isin)
	registerBoth("aten::isin.Scalar_Tensor", isin)
	registerBoth("aten::count_nonzero", countNonzero)
	registerBoth("aten::count_nonzero.dim_IntList", countNonzero)
	register("aten::argwhere", argwhere, dataDependentMeta)
	registerBoth("aten::nonzero_static", nonzeroStatic)
	register("aten::_unique", uniqueKernel(false), dataDependentMeta)
	register("aten::_unique2", uniqueKernel(true), dataDependentMeta)
	register("aten::unique_dim", uniqueDim(false), dataDependentMeta)
	register("aten::unique_dim_consecutive", uniqueDim(true), dataDependentMeta)
	register("aten::unique_consecutive", uniqueConsecutive, dataDependentMeta)
}

// tensorOrScalar returns the argument name as a tensor: a Scalar becomes a
// 0-d tensor of its own dtype, as ATen's wrapped scalars do.
func tensorOrScalar(c *ops.Call, name string, isMeta bool) *tensor.Tensor {
	if t, ok := c.Arg(name).(*tensor.Tensor); ok {
		return t
	}
	s := scalarArg(c, name)
	t := s.Tensor(s.DType())
	if isMeta {
		return t.Meta()
	}
	return t
}

// searchsorted is aten::searchsorted.Tensor and .Scalar: for every value
// of self, the index in the last dimension of sorted_sequence where it
// would be inserted to keep the order (the first such index, or with
// right=True or side="right" the last), the rows of an N-d sequence
// matching the leading dimensions of self; sorter, when given, holds the
// indices that sort each row. NaN values go past every number.
func searchsorted(c *ops.Call) ([]any, error) {
	seq := c.Tensor("sorted_sequence")
	self := tensorOrScalar(c, "self", seq.IsMeta())
	right := c.Bool("right")
	if !c.IsNone("side") {
		side := c.Str("side")
		if side != "left" && side != "right" {
			return nil, c.Errorf("side", "torch.searchsorted(): side can only be 'left' or 'right' but got %s", side)
		}
		if right && side != "right" {
			return nil, c.Errorf("side", "torch.searchsorted(): side and right can't be set to opposites, got side of %s while right was True", side)
		}
		right = side == "right"
	}
	var sorter *tensor.Tensor
	if !c.IsNone("sorter") {
		sorter = c.Tensor("sorter")
	}
	return searchsortedImpl(c, seq, self, sorter, c.Bool("out_int32"), right)
}

// searchsortedImpl checks and runs searchsorted as ATen's
// searchsorted_pre_check orders its checks.
func searchsortedImpl(c *ops.Call, seq, self, sorter *tensor.Tensor, outInt32, right bool) ([]any, error) {
	if sorter != nil && !slices.Equal(sorter.Shape(), seq.Shape()) {
		return nil, c.Errorf("sorter", "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor %s and got sorter tensor %s", shapeString(seq.Shape()), shapeString(sorter.Shape()))
	}
	if !(self.Dim() > 0 || (self.Numel() == 1 && seq.Dim() == 1)) {
		return nil, c.Errorf("self", "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries tensor dim(%d) and input value's dim(%d) numel(%d)", seq.Dim(), self.Dim(), self.Numel())
	}
	if seq.Dim() == 0 {
		return nil, c.Errorf("sorted_sequence", "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension")
	}
	if seq.Dim() != 1 && (seq.Dim() != self.Dim() || !slices.Equal(seq.Shape()[:seq.Dim()-1], self.Shape()[:self.Dim()-1])) {
		return nil, c.Errorf("sorted_sequence", "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor %s and input value tensor %s", shapeString(seq.Shape()), shapeString(self.Shape()))
	}
	if sorter != nil && sorter.DType() != tensor.Int64 {
		return nil, c.Errorf("sorter", "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype %s", scalarTypeName(sorter.DType()))
	}
	odt := tensor.Int64
	if outInt32 {
		odt = tensor.Int32
	}
	if meta(seq, self, sorter) {
		return oneOrErr(tensor.NewMeta(odt, self.Shape()...))
	}
	n := seq.Size(-1)
	var order []int64
	if sorter != nil {
		order = sorter.Contiguous().Int64s()
		for _, v := range order {
			if v < 0 || v >= int64(n) {
				return nil, c.Errorf("sorter", "torch.searchsorted(): sorter index out of range")
			}
		}
	}
	dt, err := ops.ResultType(seq, self)
	if err != nil {
		return nil, err
	}
	if dt == tensor.Bool {
		return nil, notImplemented(c, "self", "searchsorted_out_cpu", dt)
	}
	bd := seq.Contiguous().Float64s()
	vals := self.Contiguous().Float64s()
	inner := 1
	if self.Dim() > 0 {
		inner = self.Size(-1)
	}
	out := make([]int64, len(vals))
	for k, v := range vals {
		start := 0
		if seq.Dim() > 1 {
			start = k / inner * n
		}
		lo, hi := 0, n
		for lo < hi {
			mid := lo + (hi-lo)>>1
			j := start + mid
			if order != nil {
				j = start + int(order[start+mid])
			}
			m := bd[j]
			if (!right && !(m >= v)) || (right && !(m > v)) {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		out[k] = int64(lo)
	}
	return oneOrErr(tensor.FromInt64s(odt, out, self.Shape()...))
}

// bucketize is aten::bucketize.Tensor and .Scalar: searchsorted over 1-d
// boundaries.
func bucketize(c *ops.Call) ([]any, error) {
	bd := c.Tensor("boundaries")
	if bd.Dim() != 1 {
		return nil, c.Errorf("boundaries", "boundaries tensor must be 1 dimension, but got dim(%d)", bd.Dim())
	}
	self := tensorOrScalar(c, "self", bd.IsMeta())
	return searchsortedImpl(c, bd, self, nil, c.Bool("out_int32"), c.Bool("right"))
}

// histc is aten::histc: a histogram of bins equal-width bins over [min,
// max] (the data's range when min == max, widened by 0.5 each side when
// that range is one value), counted in self's floating dtype; elements
// outside the range are ignored and the last bin includes its right edge.
func histc(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt := self.DType()
	if !dt.IsFloat() {
		return nil, notImplemented(c, "self", "histogram_cpu", dt)
	}
	bins := c.Int("bins")
	if bins <= 0 {
		return nil, c.Errorf("bins", "torch.histogram(): bins must be > 0, but got %d for dimension 0", bins)
	}
	r := rounder(dt)
	lo, hi := r(scalarArg(c, "min").Float()), r(scalarArg(c, "max").Float())
	if lo > hi {
		return nil, c.Errorf("max", "torch.histc: max must be larger than min")
	}
	if self.IsMeta() {
		return oneOrErr(tensor.NewMeta(dt, int(bins)))
	}
	vals := self.Contiguous().Float64s()
	if lo == hi && len(vals) > 0 {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, v := range vals {
			if v < lo || math.IsNaN(v) {
				lo = v
			}
			if v > hi || math.IsNaN(v) {
				hi = v
			}
		}
		if math.IsNaN(lo) || math.IsNaN(hi) {
			lo, hi = math.NaN(), math.NaN()
		}
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
		return nil, c.Errorf("self", "torch.histc: range of [%s, %s] is not finite", cppFloat(lo), cppFloat(hi))
	}
	if lo == hi {
		lo, hi = r(lo-0.5), r(hi+0.5)
	}
	counts := make([]float64, bins)
	nb := float64(bins)
	for _, v := range vals {
		if !(v >= lo && v <= hi) {
			continue
		}
		pos := int64(r(r(r(v-lo)*nb) / r(hi-lo)))
		if pos == bins {
			pos--
		}
		counts[pos]++
	}
	return oneOrErr(tensor.FromFloat64s(dt, counts, int(bins)))
}

// histogram is aten::histogram: .bin_ct counts into bins equal bins over
// range (the data's range when None, widened by 0.5 each side when that is
// one value), their edges made by linspace; .bins_tensor counts into the
// bins between the given edges. Each element lands in the bin whose edges
// hold it (the last bin includes its right edge), found as ATen's
// histogramdd finds it (interpolation then a local search, or a binary
// search); weight adds its values instead of ones and density divides by
// the total and the bin widths.
func histogram(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt := self.DType()
	if !dt.IsFloat() {
		return nil, notImplemented(c, "self", "histogramdd", dt)
	}
	var w *tensor.Tensor
	if !c.IsNone("weight") {
		w = c.Tensor("weight")
		if !slices.Equal(w.Shape(), self.Shape()) {
			return nil, c.Errorf("weight", "torch.histogramdd: if weight tensor is provided it should have the same shape as the input tensor excluding its innermost dimension, but got input with shape %s and weight with shape %s", shapeString(append(self.Shape(), 1)), shapeString(w.Shape()))
		}
	}
	r := rounder(dt)
	var edges *tensor.Tensor
	binCount := argIf(c, "bins") != nil && isInt(c.Arg("bins"))
	if binCount {
		bins := c.Int("bins")
		if bins <= 0 {
			return nil, c.Errorf("bins", "torch.histogramdd(): bins must be > 0, but got %d for dimension 0", bins)
		}
		if self.IsMeta() {
			return []any{tensor.Must(tensor.NewMeta(dt, int(bins))), tensor.Must(tensor.NewMeta(dt, int(bins)+1))}, nil
		}
		var lo, hi float64
		if !c.IsNone("range") {
			rg := c.Floats("range")
			if len(rg) != 2 {
				return nil, c.Errorf("range", "torch.histogramdd: for a 1-dimensional input, expected range of length 2, but got %d", len(rg))
			}
			lo, hi = rg[0], rg[1]
			if lo > hi {
				return nil, c.Errorf("range", "torch.histogramdd: min should not exceed max, but got min %s max %s for dimension 0", cppFloat(lo), cppFloat(hi))
			}
		} else if self.Numel() > 0 {
			vals := self.Contiguous().Float64s()
			lo, hi = slices.Min(vals), slices.Max(vals)
		}
		if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
			return nil, c.Errorf("self", "torch.histogramdd: dimension 0's range [%s, %s] is not finite", cppFloat(lo), cppFloat(hi))
		}
		if lo == hi {
			lo, hi = lo-0.5, hi+0.5
		}
		out, err := delegate(c, "aten::linspace", []any{ops.FloatScalar(r(lo)), ops.FloatScalar(r(hi)), bins + 1}, map[string]any{"dtype": dt})
		if err != nil {
			return nil, err
		}
		edges = out[0].(*tensor.Tensor)
	} else {
		edges = c.Tensor("bins")
		if edges.Dim() != 1 {
			return nil, c.Errorf("bins", "torch.histogramdd: bins tensor should have one dimension, but got %d dimensions in the bins tensor for dimension 0", edges.Dim())
		}
		if edges.Numel() == 0 {
			return nil, c.Errorf("bins", "torch.histogramdd: bins tensor should have at least 1 element, but got 0 elements in the bins tensor for dimension 0")
		}
		if self.IsMeta() || edges.IsMeta() {
			return []any{tensor.Must(tensor.NewMeta(dt, edges.Numel()-1)), tensor.Must(tensor.NewMeta(dt, edges.Numel()))}, nil
		}
		edges = edges.Contiguous().Clone()
	}
	e := edges.Float64s()
	ne := len(e)
	lo, hi := e[0], e[ne-1]
	hist := make([]float64, ne-1)
	var wv []float64
	if w != nil {
		wv = w.Contiguous().Float64s()
	}
	for i, v := range self.Contiguous().Float64s() {
		if !(v >= lo && v <= hi) {
			continue
		}
		var pos int
		if binCount {
			pos = int(r(r(r(v-lo)*float64(ne-1)) / r(hi-lo)))
			pmin, pmax := max(0, pos-1), min(pos+2, ne)
			pos = pmin + sort.Search(pmax-pmin, func(k int) bool { return e[pmin+k] > v }) - 1
		} else {
			pos = sort.Search(ne, func(k int) bool { return e[k] > v }) - 1
		}
		if pos == ne-1 {
			pos--
		}
		if wv != nil {
			hist[pos] = r(hist[pos] + wv[i])
		} else {
			hist[pos] = r(hist[pos] + 1)
		}
	}
	if c.Bool("density") {
		total := 0.0
		for _, h := range hist {
			total = r(total + h)
		}
		for k := range hist {
			hist[k] = r(r(hist[k]/total) / r(e[k+1]-e[k]))
		}
	}
	return []any{tensor.Must(tensor.FromFloat64s(dt, hist, ne-1)), edges}, nil
}

// isInt reports whether v is an int argument.
func isInt(v any) bool { _, ok := v.(int64); return ok }

// cppFloat formats v as C++ streams print a float (6 significant digits).
func cppFloat(v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// bincount is aten::bincount: how often each non-negative integer occurs
// in 1-d self (summing weights when given: float32 weights give float32,
// others float64), at least minlength long.
func bincount(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt := self.DType()
	if dt.IsFloat() || dt == tensor.Bool {
		return nil, notImplemented(c, "self", "bincount_cpu", dt)
	}
	minlength := c.Int("minlength")
	if minlength < 0 {
		return nil, c.Errorf("minlength", "minlength should be >= 0")
	}
	var w *tensor.Tensor
	if !c.IsNone("weights") {
		w = c.Tensor("weights")
	}
	odt := tensor.Int64
	if w != nil {
		odt = tensor.Float64
		if w.DType() == tensor.Float32 {
			odt = tensor.Float32
		}
	}
	if self.Dim() == 1 && self.Numel() == 0 {
		return oneOrErr(tensor.New(odt, int(minlength)))
	}
	vals := self.Contiguous().Int64s()
	if self.Dim() != 1 || slices.Min(vals) < 0 {
		return nil, c.Errorf("self", "bincount only supports 1-d non-negative integral inputs.")
	}
	if w != nil && (w.Dim() != 1 || w.Size(0) != self.Size(0)) {
		return nil, c.Errorf("weights", "weights should be 1-d and have the same length as input")
	}
	n := max(slices.Max(vals)+1, minlength)
	counts := make([]float64, n)
	var wv []float64
	if w != nil {
		wv = w.Contiguous().Float64s()
	}
	for i, v := range vals {
		if wv != nil {
			counts[v] += wv[i]
		} else {
			counts[v]++
		}
	}
	if odt == tensor.Float32 {
		// ATen accumulates float32 weights in float.
		counts = make([]float64, n)
		for i, v := range vals {
			counts[v] = float64(float32(counts[v]) + float32(wv[i]))
		}
	}
	return oneOrErr(tensor.FromFloat64s(odt, counts, int(n)))
}

// isin is aten::isin (Tensor_Tensor, Tensor_Scalar, Scalar_Tensor):
// whether each element is among the test elements, compared in their
// promoted dtype (NaN is in nothing); invert negates. Bool is refused.
func isin(c *ops.Call) ([]any, error) {
	isMeta := false
	for _, n := range []string{"elements", "test_elements", "element", "test_element"} {
		if t, ok := argIf(c, n).(*tensor.Tensor); ok && t.IsMeta() {
			isMeta = true
		}
	}
	var elems, test *tensor.Tensor
	if argIf(c, "elements") != nil {
		elems = tensorOrScalar(c, "elements", isMeta)
	} else {
		elems = tensorOrScalar(c, "element", isMeta)
	}
	if argIf(c, "test_elements") != nil {
		test = tensorOrScalar(c, "test_elements", isMeta)
	} else {
		test = tensorOrScalar(c, "test_element", isMeta)
	}
	dt, err := ops.ResultType(elems, test)
	if err != nil {
		return nil, err
	}
	if elems.DType() == tensor.Bool || test.DType() == tensor.Bool {
		return nil, c.Errorf("elements", "Unsupported input type encountered for isin(): Bool")
	}
	if isMeta {
		return oneOrErr(tensor.NewMeta(tensor.Bool, elems.Shape()...))
	}
	invert := c.Bool("invert")
	out := make([]int64, elems.Numel())
	if dt.IsFloat() {
		r := rounder(dt)
		set := map[float64]bool{}
		for _, v := range test.Contiguous().Float64s() {
			set[r(v)] = true
		}
		for i, v := range elems.Contiguous().Float64s() {
			out[i] = b2i(set[r(v)] != invert)
		}
	} else {
		set := map[int64]bool{}
		for _, v := range test.Contiguous().Int64s() {
			set[v] = true
		}
		for i, v := range elems.Contiguous().Int64s() {
			out[i] = b2i(set[v] != invert)
		}
	}
	return oneOrErr(tensor.FromInt64s(tensor.Bool, out, elems.Shape()...))
}

// argIf returns the argument name, or nil when the schema has no such
// argument.
func argIf(c *ops.Call, name string) any {
	for _, a := range c.Schema().Args {
		if a.Name == name {
			return c.Arg(name)
		}
	}
	return nil
}

// countNonzero is aten::count_nonzero (one optional dim) and
// .dim_IntList: the number of nonzero elements over the dims (every
// dimension for None or an empty list), as int64.
func countNonzero(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	var dims []int64
	switch v := c.Arg("dim").(type) {
	case int64:
		dims = []int64{v}
	case []int64:
		dims = v
	}
	mask, err := dimMask(c, "dim", dims, self.Dim())
	if err != nil {
		return nil, err
	}
	shape := reducedShape(self.Shape(), mask[:self.Dim()], false)
	if self.IsMeta() {
		return oneOrErr(tensor.NewMeta(tensor.Int64, shape...))
	}
	p, _, outer, n := moveLast(self, mask)
	out := make([]int64, outer)
	vals := p.Float64s()
	for r := range outer {
		for _, v := range vals[r*n : r*n+n] {
			if v != 0 {
				out[r]++
			}
		}
	}
	return oneOrErr(tensor.FromInt64s(tensor.Int64, out, shape...))
}

// argwhere is aten::argwhere: nonzero(self).
func argwhere(c *ops.Call) ([]any, error) {
	return delegate(c, "aten::nonzero", []any{c.Tensor("self")}, nil)
}

// nonzeroStatic is aten::nonzero_static: the indices of the first size
// nonzero elements, as nonzero gives them, padded with rows of fill_value
// up to size rows.
func nonzeroStatic(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	size := c.Int("size")
	if size < 0 {
		return nil, c.Errorf("size", "nonzero_static: 'size' must be an non-negative integer")
	}
	nd := self.Dim()
	if self.IsMeta() {
		return oneOrErr(tensor.NewMeta(tensor.Int64, int(size), nd))
	}
	out, err := delegate(c, "aten::nonzero", []any{self}, nil)
	if err != nil {
		return nil, err
	}
	idx := out[0].(*tensor.Tensor).Int64s()
	res := make([]int64, int(size)*nd)
	for i := range res {
		if i < len(idx) {
			res[i] = idx[i]
		} else {
			res[i] = c.Int("fill_value")
		}
	}
	return oneOrErr(tensor.FromInt64s(tensor.Int64, res, int(size), nd))
}

// uniqueSorted returns the distinct values of vals in ascending order
// (each NaN distinct, after every number), the position of each element's
// value in them and how often each occurs.
func uniqueSorted(vals []float64) (uniq []float64, inverse, counts []int64) {
	order := make([]int, len(vals))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := vals[a], vals[b]
		switch {
		case math.IsNaN(x) && math.IsNaN(y):
			return 0
		case math.IsNaN(x):
			return 1
		case math.IsNaN(y), x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	inverse = make([]int64, len(vals))
	for k, i := range order {
		if k == 0 || !(vals[i] == uniq[len(uniq)-1]) {
			uniq = append(uniq, vals[i])
			counts = append(counts, 0)
		}
		inverse[i] = int64(len(uniq) - 1)
		counts[len(counts)-1]++
	}
	return uniq, inverse, counts
}

// uniqueKernel is aten::_unique (two results) and aten::_unique2 (three,
// with counts): the sorted distinct elements of self (sorted=False gives
// the same order on CPU), the inverse indices in self's shape when
// return_inverse, the counts when return_counts; unrequested results are
// empty.
func uniqueKernel(withCounts bool) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		self := c.Tensor("self")
		dt := self.DType()
		if !dt.IsFloat() {
			u, inv, counts := uniqueInts(self.Contiguous().Int64s())
			out := tensor.Must(tensor.FromInt64s(dt, u, len(u)))
			return uniqueResults(c, self, out, inv, counts, withCounts), nil
		}
		u, inv, counts := uniqueSorted(self.Contiguous().Float64s())
		out := tensor.Must(tensor.FromFloat64s(dt, u, len(u)))
		return uniqueResults(c, self, out, inv, counts, withCounts), nil
	}
}

// uniqueInts is uniqueSorted for integer values.
func uniqueInts(vals []int64) (uniq, inverse, counts []int64) {
	order := make([]int, len(vals))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(vals[a], vals[b]) })
	inverse = make([]int64, len(vals))
	for k, i := range order {
		if k == 0 || vals[i] != uniq[len(uniq)-1] {
			uniq = append(uniq, vals[i])
			counts = append(counts, 0)
		}
		inverse[i] = int64(len(uniq) - 1)
		counts[len(counts)-1]++
	}
	return uniq, inverse, counts
}

// uniqueResults assembles the results of _unique and _unique2.
func uniqueResults(c *ops.Call, self, out *tensor.Tensor, inv, counts []int64, withCounts bool) []any {
	invT := tensor.Must(tensor.New(tensor.Int64, 0))
	if c.Bool("return_inverse") {
		invT = tensor.Must(tensor.FromInt64s(tensor.Int64, inv, self.Shape()...))
	}
	if !withCounts {
		return []any{out, invT}
	}
	cntT := tensor.Must(tensor.New(tensor.Int64, 0))
	if c.Bool("return_counts") {
		cntT = tensor.Must(tensor.FromInt64s(tensor.Int64, counts, len(counts)))
	}
	return []any{out, invT, cntT}
}

// uniqueConsecutive is aten::unique_consecutive: self with each run of
// equal consecutive elements (slices along dim, when given) reduced to
// one, the run index of every element when return_inverse and the run
// lengths when return_counts (empty tensors otherwise).
func uniqueConsecutive(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if !c.IsNone("dim") {
		if self.Dim() == 0 {
			return nil, c.Errorf("dim", "%s", dimErr(int(c.Int("dim")), 0))
		}
		d, err := wrapDim(c, "dim", c.Int("dim"), self.Dim())
		if err != nil {
			return nil, err
		}
		return uniqueAlong(c, self, d, true, c.Bool("return_inverse"), c.Bool("return_counts"))
	}
	flat := tensor.Must(self.Contiguous().Reshape(self.Numel()))
	out, err := uniqueAlong(c, flat, 0, true, true, true)
	if err != nil {
		return nil, err
	}
	inv := tensor.Must(out[1].(*tensor.Tensor).Reshape(self.Shape()...))
	if !c.Bool("return_inverse") {
		inv = tensor.Must(tensor.New(tensor.Int64, 0))
	}
	if !c.Bool("return_counts") {
		out[2] = tensor.Must(tensor.New(tensor.Int64, 0))
	}
	return []any{out[0], inv, out[2]}, nil
}

// uniqueDim is aten::unique_dim (consecutive: unique_dim_consecutive):
// the distinct slices of self along dim, sorted lexicographically (or
// runs of equal consecutive slices), with inverse indices and counts,
// which both always return, whatever return_inverse and return_counts
// say.
func uniqueDim(consecutive bool) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		self := c.Tensor("self")
		if self.Dim() == 0 {
			return nil, c.Errorf("dim", "%s", dimErr(int(c.Int("dim")), 0))
		}
		d, err := wrapDim(c, "dim", c.Int("dim"), self.Dim())
		if err != nil {
			return nil, err
		}
		if self.Size(d) != 0 && self.Numel() == 0 {
			return nil, c.Errorf("self", "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
		}
		return uniqueAlong(c, self, d, consecutive, true, true)
	}
}

// uniqueAlong finds the distinct slices of self along dimension d: runs
// of equal consecutive slices when consecutive, otherwise the sorted
// distinct slices (ordered lexicographically, NaN compared as ATen's
// operator< compares it).
func uniqueAlong(c *ops.Call, self *tensor.Tensor, d int, consecutive, wantInv, wantCnt bool) ([]any, error) {
	n := self.Size(d)
	if n == 0 {
		empty := tensor.Must(tensor.New(tensor.Int64, 0))
		return []any{self.Clone(), empty, empty.Clone()}, nil
	}
	// The slices flattened as ATen's moveaxis(dim, 0) orders them, which
	// decides the lexicographic order.
	perm := []int{d}
	for i := range self.Dim() {
		if i != d {
			perm = append(perm, i)
		}
	}
	p := tensor.Must(tensor.Must(self.Permute(perm...)).Contiguous().Reshape(n, -1))
	vals := p.Float64s()
	w := len(vals) / n
	row := func(i int) []float64 { return vals[i*w : i*w+w] }
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if !consecutive {
		slices.SortStableFunc(order, func(a, b int) int {
			ra, rb := row(a), row(b)
			for k := range ra {
				if ra[k] < rb[k] {
					return -1
				}
				if ra[k] > rb[k] {
					return 1
				}
			}
			return 0
		})
	}
	inverse := make([]int64, n)
	var keep []int64
	var counts []int64
	for k, i := range order {
		if k == 0 || !slices.Equal(row(i), row(order[k-1])) {
			keep = append(keep, int64(i))
			counts = append(counts, 0)
		}
		inverse[i] = int64(len(keep) - 1)
		counts[len(counts)-1]++
	}
	idx := tensor.Must(tensor.FromInt64s(tensor.Int64, keep, len(keep)))
	out, err := delegate(c, "aten::index_select", []any{self, d, idx}, nil)
	if err != nil {
		return nil, err
	}
	invT := tensor.Must(tensor.New(tensor.Int64, 0))
	if wantInv {
		invT = tensor.Must(tensor.FromInt64s(tensor.Int64, inverse, n))
	}
	cntT := tensor.Must(tensor.New(tensor.Int64, 0))
	if wantCnt {
		cntT = tensor.Must(tensor.FromInt64s(tensor.Int64, counts, len(counts)))
	}
	return []any{out[0], invT, cntT}, nil
}
