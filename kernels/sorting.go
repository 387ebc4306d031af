package kernels

import (
	"math"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Sorting, ATen's Sorting.cpp: sort (stable or not) and topk. They
// reproduce the exact element order of ATen's CPU kernels, which call
// libstdc++'s std::sort, std::nth_element and std::partial_sort on (value,
// index) pairs: the order of equal elements is whatever those algorithms
// leave, so they are transcribed here step by step (sorter).

// registerSorting registers the kernels of sorting.go.
func registerSorting() {
	registerBoth("aten::sort", sortKernel)
	registerBoth("aten::sort.stable", sortStable)
	registerBoth("aten::topk", topk)
	registerSortingSelect()
}

// elem is one (value, index) pair of a row being sorted.
type elem[T float64 | int64] struct {
	v T
	i int64
}

// sorter transcribes libstdc++'s (GCC 12) std::sort, std::nth_element,
// std::partial_sort and their heap helpers over a, with the strict weak
// order less, so that equal elements end up exactly where ATen leaves them.
// Positions are indices into a; ranges are half-open.
type sorter[T float64 | int64] struct {
	a    []elem[T]
	less func(x, y elem[T]) bool
}

// sortThreshold is libstdc++'s _S_threshold.
const sortThreshold = 16

// lg is std::__lg: floor(log2(n)) for n > 0.
func lg(n int) int { return bits.Len(uint(n)) - 1 }

// lessF returns ATen's float comparator for ascending order (NaN above
// everything) or, when desc, descending order (NaN first).
func lessF(desc bool) func(x, y elem[float64]) bool {
	if desc {
		return func(x, y elem[float64]) bool {
			return (math.IsNaN(x.v) && !math.IsNaN(y.v)) || x.v > y.v
		}
	}
	return func(x, y elem[float64]) bool {
		return (!math.IsNaN(x.v) && math.IsNaN(y.v)) || x.v < y.v
	}
}

// lessI returns the integer comparator for ascending or descending order.
func lessI(desc bool) func(x, y elem[int64]) bool {
	if desc {
		return func(x, y elem[int64]) bool { return x.v > y.v }
	}
	return func(x, y elem[int64]) bool { return x.v < y.v }
}

// rowOp rearranges one row of (value, index) pairs and returns how many
// leading pairs form the output row.
type rowOp[T float64 | int64] func(s *sorter[T]) int

// sortRows applies f to every row of p (rows of n contiguous elements, as
// moveLast leaves them) and gathers the first k pairs of each row.
func sortRows[T float64 | int64](vals []T, outer, n, k int, less func(x, y elem[T]) bool, f rowOp[T]) ([]T, []int64) {
	outV := make([]T, outer*k)
	outI := make([]int64, outer*k)
	forRows(outer, n, func(r int) {
		row := make([]elem[T], n)
		for j := range row {
			row[j] = elem[T]{vals[r*n+j], int64(j)}
		}
		s := &sorter[T]{a: row, less: less}
		f(s)
		for j := 0; j < k; j++ {
			outV[r*k+j], outI[r*k+j] = row[j].v, row[j].i
		}
	})
	return outV, outI
}

// sortedRows rearranges the rows of self along dimension d with the row
// operations fF (floating dtypes) or fI (integral and bool), keeping k
// elements of each, and returns values and int64 indices with dimension d
// of size k.
func sortedRows(self *tensor.Tensor, d, k int, desc bool, fF rowOp[float64], fI rowOp[int64]) (values, indices *tensor.Tensor) {
	dt := self.DType()
	p, perm, outer, n := moveLast(self, singleMask(self.Dim(), d))
	pshape := p.Shape()
	if len(pshape) > 0 {
		pshape[len(pshape)-1] = k
	}
	if outer*n == 0 || k == 0 {
		outer = 0
	}
	var idx []int64
	if dt.IsFloat() {
		var v []float64
		v, idx = sortRows(p.Float64s(), outer, n, k, lessF(desc), fF)
		values = tensor.Must(tensor.FromFloat64s(dt, v, pshape...))
	} else {
		var v []int64
		v, idx = sortRows(p.Int64s(), outer, n, k, lessI(desc), fI)
		values = tensor.Must(tensor.FromInt64s(dt, v, pshape...))
	}
	indices = tensor.Must(tensor.FromInt64s(tensor.Int64, idx, pshape...))
	inv := inverse(perm)
	values = tensor.Must(values.Permute(inv...)).Contiguous()
	indices = tensor.Must(indices.Permute(inv...)).Contiguous()
	return values, indices
}

// scalarCopy is what ATen's sort and topk return for a 0-d input: the
// value itself and index 0.
func scalarCopy(self *tensor.Tensor) []any {
	if self.IsMeta() {
		return []any{self.Meta(), tensor.Must(tensor.NewMeta(tensor.Int64))}
	}
	return []any{self.Clone(), tensor.Scalar[int64](0)}
}

// sortImpl sorts self along dim: std::stable_sort when stable, and
// otherwise libstdc++'s introsort, whose order of equal elements ATen's
// CPU sort keeps.
func sortImpl(c *ops.Call, stable bool) ([]any, error) {
	self := c.Tensor("self")
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	if self.Dim() == 0 {
		return scalarCopy(self), nil
	}
	if self.IsMeta() {
		return []any{self.Meta(), tensor.Must(tensor.NewMeta(tensor.Int64, self.Shape()...))}, nil
	}
	n := self.Size(d)
	if stable {
		v, i := sortedRows(self, d, n, c.Bool("descending"),
			func(s *sorter[float64]) int {
				sort.SliceStable(s.a, func(i, j int) bool { return s.less(s.a[i], s.a[j]) })
				return n
			},
			func(s *sorter[int64]) int {
				sort.SliceStable(s.a, func(i, j int) bool { return s.less(s.a[i], s.a[j]) })
				return n
			})
		return []any{v, i}, nil
	}
	v, i := sortedRows(self, d, n, c.Bool("descending"),
		func(s *sorter[float64]) int { s.sort(0, len(s.a)); return n },
		func(s *sorter[int64]) int { s.sort(0, len(s.a)); return n })
	return []any{v, i}, nil
}

// sortKernel is aten::sort: values sorted along dim (ascending unless
// descending; NaN sorts above everything) and their int64 indices. With
// stable=False ATen's CPU sort is not stable; the order of equal elements
// follows libstdc++'s std::sort.
func sortKernel(c *ops.Call) ([]any, error) { return sortImpl(c, false) }

// sortStable is aten::sort.stable: stable must not be None (an internal
// assertion in ATen); stable=True keeps equal elements in input order.
func sortStable(c *ops.Call) ([]any, error) {
	if c.IsNone("stable") {
		return nil, c.Errorf("stable", "sort(): c10::optional<bool> for stable has to have value.")
	}
	return sortImpl(c, c.Bool("stable"))
}

// topk is aten::topk: the k largest (smallest) elements along dim and
// their indices, computed as ATen's CPU topk does (std::partial_sort when
// k*64 <= n, std::nth_element then std::sort of the first k-1 otherwise),
// so that ties and the unsorted order match. NaN counts as the largest.
func topk(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	d, slice, err := dimSlice(c, self)
	if err != nil {
		return nil, err
	}
	k := c.Int("k")
	if k < 0 || k > int64(slice) {
		return nil, c.Errorf("k", "selected index k out of range")
	}
	if self.Dim() == 0 {
		return scalarCopy(self), nil
	}
	dt := self.DType()
	if dt == tensor.Float16 || dt == tensor.Bool {
		return nil, notImplemented(c, "self", "topk_cpu", dt)
	}
	kk := int(k)
	if self.IsMeta() {
		shape := self.Shape()
		shape[d] = kk
		return []any{tensor.Must(tensor.NewMeta(dt, shape...)), tensor.Must(tensor.NewMeta(tensor.Int64, shape...))}, nil
	}
	largest, sorted := c.Bool("largest"), c.Bool("sorted")
	n := slice
	partial := kk*64 <= n
	v, i := sortedRows(self, d, kk, largest,
		func(s *sorter[float64]) int { return topkRow(s, kk, n, partial, sorted) },
		func(s *sorter[int64]) int { return topkRow(s, kk, n, partial, sorted) })
	return []any{v, i}, nil
}

// topkRow is the row step of ATen's topk_impl_loop.
func topkRow[T float64 | int64](s *sorter[T], k, n int, partial, sorted bool) int {
	if partial {
		s.partialSort(0, k, n)
		return k
	}
	s.nthElement(0, k-1, n)
	if sorted {
		s.sort(0, k-1)
	}
	return k
}

// Selection and order statistics of ATen's Sorting.cpp (argsort, msort,
// kthvalue, median, nanmedian, mode, quantile, nanquantile) and the
// cumulative scans of ReduceOps.cpp that return indices or work in log
// space (cummax, cummin, logcumsumexp). They are registered by
// registerSorting.

// registerSortingSelect registers the selection kernels below;
// registerSorting calls it.
func registerSortingSelect() {
	registerBoth("aten::argsort", argsort)
	registerBoth("aten::argsort.stable", argsortStable)
	registerBoth("aten::msort", msort)
	registerBoth("aten::kthvalue", kthvalue)
	register("aten::median", medianAll(false), medianAllMeta)
	register("aten::nanmedian", medianAll(true), medianAllMeta)
	registerBoth("aten::median.dim", medianDim(false))
	registerBoth("aten::nanmedian.dim", medianDim(true))
	registerBoth("aten::mode", modeKernel)
	registerBoth("aten::quantile", quantile(false))
	registerBoth("aten::quantile.scalar", quantile(false))
	registerBoth("aten::nanquantile", quantile(true))
	registerBoth("aten::nanquantile.scalar", quantile(true))
	registerBoth("aten::cummax", cumExtreme(true))
	registerBoth("aten::cummin", cumExtreme(false))
	registerBoth("aten::_cummax_helper", cumHelper("aten::cummax"))
	registerBoth("aten::_cummin_helper", cumHelper("aten::cummin"))
	registerBoth("aten::logcumsumexp", logcumsumexp)
	registerBoth("aten::_logcumsumexp", logcumsumexp)
}

// argsort is aten::argsort: the indices of sort(self, dim, descending).
func argsort(c *ops.Call) ([]any, error) {
	out, err := delegate(c, "aten::sort", []any{c.Tensor("self"), c.Int("dim"), c.Bool("descending")}, nil)
	if err != nil {
		return nil, err
	}
	return out[1:], nil
}

// argsortStable is aten::argsort.stable: the indices of sort.stable.
func argsortStable(c *ops.Call) ([]any, error) {
	out, err := delegate(c, "aten::sort.stable", []any{c.Tensor("self")},
		map[string]any{"stable": c.Bool("stable"), "dim": c.Int("dim"), "descending": c.Bool("descending")})
	if err != nil {
		return nil, err
	}
	return out[1:], nil
}

// msort is aten::msort: the values of sort(self, dim=0).
func msort(c *ops.Call) ([]any, error) {
	out, err := delegate(c, "aten::sort", []any{c.Tensor("self"), 0, false}, nil)
	if err != nil {
		return nil, err
	}
	return out[:1], nil
}

// selectRows reduces dimension d of self row by row: pick returns the
// position within the (rearranged) row whose value and original index
// form the output element. name is the operator for ATen's errors: an
// empty reduced dimension of a non-empty tensor is an error; an empty
// tensor gives empty outputs.
func selectRows(c *ops.Call, name, kernel string, d int, keepdim bool,
	pickF func(s *sorter[float64]) int, pickI func(s *sorter[int64]) int) ([]any, error) {
	self := c.Tensor("self")
	dt := self.DType()
	if self.Dim() == 0 {
		return scalarCopy(self), nil
	}
	if kernel != "" && dt == tensor.Bool {
		return nil, notImplemented(c, "self", kernel, dt)
	}
	if self.Size(d) == 0 && numelOtherThan(self, d) != 0 {
		return nil, c.Errorf("dim", "%s(): Expected reduction dim %d to have non-zero size.", name, d)
	}
	mask := singleMask(self.Dim(), d)
	shape := reducedShape(self.Shape(), mask, keepdim)
	if self.IsMeta() {
		return []any{tensor.Must(tensor.NewMeta(dt, shape...)), tensor.Must(tensor.NewMeta(tensor.Int64, shape...))}, nil
	}
	p, _, outer, n := moveLast(self, mask)
	if n == 0 {
		outer = 0
	}
	idx := make([]int64, outer)
	var values *tensor.Tensor
	if dt.IsFloat() {
		v := pickRows(p.Float64s(), outer, n, idx, pickF)
		values = tensor.Must(tensor.FromFloat64s(dt, v, shape...))
	} else {
		v := pickRows(p.Int64s(), outer, n, idx, pickI)
		values = tensor.Must(tensor.FromInt64s(dt, v, shape...))
	}
	return []any{values, tensor.Must(tensor.FromInt64s(tensor.Int64, idx, shape...))}, nil
}

// numelOtherThan is the number of elements of t over every dimension but d.
func numelOtherThan(t *tensor.Tensor, d int) int {
	n := 1
	for i, s := range t.Shape() {
		if i != d {
			n *= s
		}
	}
	return n
}

// pickRows runs pick on every row of vals (outer rows of n) and returns
// the picked values, storing their original indices in idx.
func pickRows[T float64 | int64](vals []T, outer, n int, idx []int64, pick func(s *sorter[T]) int) []T {
	out := make([]T, outer)
	forRows(outer, n, func(r int) {
		row := make([]elem[T], n)
		for j := range row {
			row[j] = elem[T]{vals[r*n+j], int64(j)}
		}
		s := &sorter[T]{a: row}
		j := pick(s)
		out[r], idx[r] = row[j].v, row[j].i
	})
	return out
}

// gtOrNaN is the order of ATen's kthvalue: NaN above everything.
func gtOrNaN[T float64 | int64](x, y T) bool {
	fx, fy := float64(x), float64(y)
	return (math.IsNaN(fx) && !math.IsNaN(fy)) || x > y
}

// quickSelect transcribes ATen's quick_select_template (SortingUtils.h):
// it partitions s.a so that position k holds the k-th smallest element
// under gt (a "greater than" order), moving (value, index) pairs as ATen
// does, so that the index of a tied k-th value matches.
func quickSelect[T float64 | int64](s *sorter[T], k int, gt func(x, y T) bool) {
	a := s.a
	l, r := 0, len(a)-1
	for {
		if r <= l {
			return
		}
		if r == l+1 {
			if gt(a[l].v, a[r].v) {
				s.swap(l, r)
			}
			return
		}
		p := l + (r-l)/2
		s.swap(p, l+1)
		if gt(a[l+1].v, a[r].v) {
			s.swap(l+1, r)
		}
		if gt(a[l].v, a[r].v) {
			s.swap(l, r)
		}
		if gt(a[l+1].v, a[l].v) {
			s.swap(l+1, l)
		}
		i, j := l+1, r
		piv := a[l].v
		for {
			for i++; gt(piv, a[i].v); i++ {
			}
			for j--; gt(a[j].v, piv); j-- {
			}
			if j < i {
				break
			}
			s.swap(i, j)
		}
		s.swap(l, j)
		if j <= k {
			l = i
		}
		if j >= k {
			r = j - 1
		}
	}
}

// dimSlice wraps the dim argument of self and gives the length of self
// along it (1 for a 0-d self, whose one element is its only slice).
func dimSlice(c *ops.Call, self *tensor.Tensor) (int, int, error) {
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return 0, 0, err
	}
	if self.Dim() == 0 {
		return d, 1, nil
	}
	return d, self.Size(d), nil
}

// kthvalue is aten::kthvalue: the k-th smallest element along dim (NaN
// largest) and its index, found by ATen's quickselect.
func kthvalue(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	d, slice, err := dimSlice(c, self)
	if err != nil {
		return nil, err
	}
	k := c.Int("k")
	if self.Dim() > 0 && slice == 0 && numelOtherThan(self, d) != 0 {
		return nil, c.Errorf("dim", "kthvalue(): Expected reduction dim %d to have non-zero size.", d)
	}
	if k < 1 || k > int64(slice) {
		return nil, c.Errorf("k", "kthvalue(): selected number k out of range for dimension %d", d)
	}
	kk := int(k) - 1
	return selectRows(c, "kthvalue", "kthvalue_cpu", d, c.Bool("keepdim"),
		func(s *sorter[float64]) int { quickSelect(s, kk, gtOrNaN[float64]); return kk },
		func(s *sorter[int64]) int { quickSelect(s, kk, gtOrNaN[int64]); return kk })
}

// medianAllMeta is the meta function of aten::median and aten::nanmedian:
// a 0-d tensor of self's dtype.
func medianAllMeta(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if self.DType() == tensor.Bool {
		return nil, notImplemented(c, "self", "median_cpu", self.DType())
	}
	return oneOrErr(tensor.NewMeta(self.DType()))
}

// medianAll is aten::median (nanmedian when ignoreNaN) over every
// element: the lower median, NaN if any element is NaN (nanmedian: of the
// non-NaN elements); NaN cast to the dtype for an empty tensor.
func medianAll(ignoreNaN bool) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		self := c.Tensor("self")
		dt := self.DType()
		if dt == tensor.Bool {
			return nil, notImplemented(c, "self", "median_cpu", dt)
		}
		vals := self.Contiguous().Float64s()
		if dt.IsFloat() {
			var kept []float64
			for _, v := range vals {
				if !math.IsNaN(v) {
					kept = append(kept, v)
				} else if !ignoreNaN {
					kept = nil
					vals = []float64{math.NaN()}
					break
				}
			}
			if kept != nil || len(vals) != 1 || !math.IsNaN(vals[0]) {
				vals = kept
			}
		}
		if len(vals) == 0 {
			return one(tensor.Must(tensor.FromFloat64s(dt, []float64{math.NaN()}))), nil
		}
		if !dt.IsFloat() {
			m := lowerMedian(self.Contiguous().Int64s(), lessI(false))
			return one(tensor.Must(tensor.FromInt64s(dt, []int64{m}))), nil
		}
		m := lowerMedian(vals, lessF(false))
		return one(tensor.Must(tensor.FromFloat64s(dt, []float64{m}))), nil
	}
}

// lowerMedian is the element at (len(vals)-1)/2 in the order of less, as
// ATen's std::nth_element places it.
func lowerMedian[T float64 | int64](vals []T, less func(x, y elem[T]) bool) T {
	s := &sorter[T]{a: make([]elem[T], len(vals)), less: less}
	for i, v := range vals {
		s.a[i] = elem[T]{v, int64(i)}
	}
	m := (len(vals) - 1) / 2
	s.nthElement(0, m, len(vals))
	return s.a[m].v
}

// medianDim is aten::median.dim (nanmedian.dim when ignoreNaN): the lower
// median along dim and its index. Equal values order by index, so the
// index is the one ATen's nth_element with its tie-breaking comparator
// finds; with NaN in a row, median returns the first NaN, nanmedian the
// median of the rest (ATen's comparator for all-NaN rows is transcribed).
func medianDim(ignoreNaN bool) ops.Kernel {
	name := "median"
	if ignoreNaN {
		name = "nanmedian"
	}
	return func(c *ops.Call) ([]any, error) {
		self := c.Tensor("self")
		d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
		if err != nil {
			return nil, err
		}
		pickI := func(s *sorter[int64]) int {
			s.less = func(x, y elem[int64]) bool { return x.v < y.v || (x.v == y.v && x.i < y.i) }
			m := (len(s.a) - 1) / 2
			s.nthElement(0, m, len(s.a))
			return m
		}
		pickF := func(s *sorter[float64]) int {
			n := len(s.a)
			nan := 0
			for j, e := range s.a {
				if math.IsNaN(e.v) {
					if !ignoreNaN {
						return j
					}
					nan++
				}
			}
			if !ignoreNaN {
				s.less = func(x, y elem[float64]) bool { return x.v < y.v || (x.v == y.v && x.i < y.i) }
			} else {
				s.less = func(x, y elem[float64]) bool {
					return x.v < y.v || (math.IsNaN(y.v) && !math.IsNaN(x.v)) || (x.v == y.v && x.i < y.i)
				}
			}
			m := (n - nan - 1) / 2 // 0 for an all-NaN row, as in C++
			s.nthElement(0, m, n)
			return m
		}
		return selectRows(c, name, "median_out", d, c.Bool("keepdim"), pickF, pickI)
	}
}

// modeKernel is aten::mode: the most frequent value along dim and the
// index ATen's CPU kernel reports, the last element of the value's run
// after libstdc++'s (unstable) std::sort of the (value, index) pairs by
// value; among equally frequent values the smallest wins.
func modeKernel(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	return selectRows(c, "mode", "", d, c.Bool("keepdim"),
		func(s *sorter[float64]) int {
			s.less = func(x, y elem[float64]) bool { return x.v < y.v }
			return modeRun(s)
		},
		func(s *sorter[int64]) int {
			s.less = func(x, y elem[int64]) bool { return x.v < y.v }
			return modeRun(s)
		})
}

// modeRun sorts the row and returns the position of the last element of
// its first longest run of equal values.
func modeRun[T float64 | int64](s *sorter[T]) int {
	n := len(s.a)
	s.sort(0, n)
	best, bestFreq, freq := 0, 0, 0
	for i := 0; i < n; i++ {
		freq++
		if i == n-1 || s.a[i].v != s.a[i+1].v {
			if freq > bestFreq {
				best, bestFreq = i, freq
			}
			freq = 0
		}
	}
	return best
}

// quantileModes are the interpolation modes quantile accepts.
var quantileModes = map[string]bool{"linear": true, "lower": true, "higher": true, "midpoint": true, "nearest": true}

// quantile is aten::quantile and aten::nanquantile (q a tensor or, for
// .scalar, a float): the q-th quantiles of self (flattened when dim is
// None) with the interpolation mode, computed with the same sequence of
// operators as ATen's quantile_compute (sort, ranks from q, gather, lerp),
// so that values round as PyTorch's do.
func quantile(ignoreNaN bool) ops.Kernel {
	name := "quantile"
	if ignoreNaN {
		name = "nanquantile"
	}
	return func(c *ops.Call) ([]any, error) {
		self := c.Tensor("self")
		dt := self.DType()
		if dt != tensor.Float32 && dt != tensor.Float64 {
			return nil, c.Errorf("self", "%s() input tensor must be either float or double dtype", name)
		}
		q, isT := c.Arg("q").(*tensor.Tensor)
		if !isT {
			qf := c.Float("q")
			if qf < 0 || qf > 1 {
				return nil, c.Errorf("q", "%s() q must be in the range [0, 1] but got %v", name, pyFloatRepr(qf))
			}
			q = tensor.Must(tensor.FromFloat64s(dt, []float64{qf}))
			if self.IsMeta() {
				q = q.Meta()
			}
		}
		if q.Dim() > 1 {
			return nil, c.Errorf("q", "%s() q must be a scalar or 1D tensor", name)
		}
		if self.Numel() == 0 {
			return nil, c.Errorf("self", "%s() input tensor must be non-empty", name)
		}
		if q.DType() != dt {
			return nil, c.Errorf("q", "%s() q tensor must be same dtype as the input tensor", name)
		}
		interp := c.Str("interpolation")
		if !quantileModes[interp] {
			return nil, c.Errorf("interpolation", "%s() interpolation must be one of linear, lower, higher, midpoint or nearest, but got %s", name, interp)
		}
		if isT && !q.IsMeta() {
			for _, v := range q.Float64s() {
				if !(v >= 0 && v <= 1) {
					return nil, c.Errorf("q", "%s() q values must be in the range [0, 1]", name)
				}
			}
		}
		keepdim := c.Bool("keepdim")
		// The output shape, with q's length in front for a 1-d q.
		var outShape []int
		var wd int
		hasDim := !c.IsNone("dim")
		if !hasDim {
			if keepdim {
				for range self.Dim() {
					outShape = append(outShape, 1)
				}
			}
		} else {
			var err error
			if wd, err = wrapReduceDim(c, "dim", c.Int("dim"), self.Dim()); err != nil {
				return nil, err
			}
			outShape = self.Shape()
			if self.Dim() == 0 {
				outShape = []int{}
			} else if keepdim {
				outShape[wd] = 1
			} else {
				outShape = append(outShape[:wd], outShape[wd+1:]...)
			}
		}
		p := &chain{c: c, arg: "self"}
		var sorted *tensor.Tensor
		switch {
		case !hasDim:
			sorted = p.calls("aten::sort", p.call("aten::reshape", self, []int64{-1}), -1, false)[0].(*tensor.Tensor)
		case self.Dim() == 0 || wd == self.Dim()-1:
			sorted = p.calls("aten::sort", self, -1, false)[0].(*tensor.Tensor)
		default:
			u := p.call("aten::transpose.int", p.call("aten::unsqueeze", self, -1), wd, -1)
			sorted = p.calls("aten::sort", u, -1, false)[0].(*tensor.Tensor)
		}
		if p.err != nil {
			return nil, p.err
		}
		full := append([]int{q.Numel()}, outShape...)
		if q.Dim() == 1 {
			outShape = full
		}
		inShape := make([]int64, 0, len(full))
		for _, s := range full[1:] {
			inShape = append(inShape, int64(s))
		}
		inShape = append(inShape, int64(sorted.Size(-1)))
		sorted = p.call("aten::reshape", sorted, inShape)
		var ranks *tensor.Tensor
		if ignoreNaN {
			notNaN := p.call("aten::logical_not", p.call("aten::isnan", sorted))
			cnt := p.call("aten::sub.Scalar", p.callKw("aten::sum.dim_IntList", nil, notNaN, []int64{-1}, true), 1, 1)
			ranks = p.call("aten::mul.Tensor", q, cnt)
			ranks = p.call("aten::masked_fill.Scalar", ranks, p.call("aten::lt.Scalar", ranks, 0), 0)
		} else {
			last := sorted.Size(-1) - 1
			qr := p.call("aten::mul.Scalar", q, last)
			anyNaN := p.call("aten::any.dim", p.call("aten::isnan", sorted), -1, true)
			shape, err := ops.BroadcastShapes(qr.Shape(), anyNaN.Shape())
			if err != nil {
				return nil, c.Errorf("q", "%v", err)
			}
			s64 := make([]int64, len(shape))
			for i, v := range shape {
				s64[i] = int64(v)
			}
			ranks = p.call("aten::masked_fill.Scalar", p.call("aten::expand", qr, s64), p.call("aten::expand", anyNaN, s64), last)
		}
		switch interp {
		case "lower":
			ranks = p.call("aten::floor", ranks)
		case "higher":
			ranks = p.call("aten::ceil", ranks)
		case "nearest":
			ranks = p.call("aten::round", ranks)
		}
		below := p.callKw("aten::_to_copy", map[string]any{"dtype": tensor.Int64}, ranks)
		values := p.call("aten::gather", sorted, -1, below)
		if interp == "linear" || interp == "midpoint" {
			var w *tensor.Tensor
			if interp == "midpoint" {
				w = p.call("aten::full_like", ranks, 0.5)
			} else {
				w = p.call("aten::sub.Tensor", ranks, p.callKw("aten::_to_copy", map[string]any{"dtype": dt}, below))
			}
			above := p.callKw("aten::_to_copy", map[string]any{"dtype": tensor.Int64}, p.call("aten::ceil", ranks))
			values = p.call("aten::lerp.Tensor", values, p.call("aten::gather", sorted, -1, above), w)
		}
		if p.err != nil {
			return nil, p.err
		}
		if q.Dim() == 0 {
			values = p.call("aten::squeeze.dim", values, -1)
		} else {
			values = p.call("aten::movedim.int", values, -1, 0)
		}
		o := make([]int64, len(outShape))
		for i, v := range outShape {
			o[i] = int64(v)
		}
		return p.result(p.call("aten::clone", p.call("aten::reshape", values, o)))
	}
}

// pyFloatRepr formats v as Python's repr of a float prints it.
func pyFloatRepr(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eIN") {
		s += ".0"
	}
	return s
}

// cumExtreme is aten::cummax (greater) and aten::cummin: the running
// maximum (minimum) along dim and the index where it was reached, the
// latest index among ties; NaN propagates and takes the index of each
// later NaN, as ATen's cummax_cummin_helper does.
func cumExtreme(greater bool) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		self := c.Tensor("self")
		d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
		if err != nil {
			return nil, err
		}
		dt := self.DType()
		if self.IsMeta() {
			return []any{self.Meta(), tensor.Must(tensor.NewMeta(tensor.Int64, self.Shape()...))}, nil
		}
		if self.Dim() == 0 {
			return scalarCopy(self), nil
		}
		mask := singleMask(self.Dim(), d)
		p, perm, outer, n := moveLast(self, mask)
		if n == 0 {
			outer = 0
		}
		better := func(x, out float64) bool {
			if math.IsNaN(x) {
				return true
			}
			if math.IsNaN(out) {
				return false
			}
			if greater {
				return x >= out
			}
			return x <= out
		}
		idx := make([]int64, outer*n)
		var values *tensor.Tensor
		if dt.IsFloat() {
			in := p.Float64s()
			out := make([]float64, len(in))
			forRows(outer, n, func(r int) {
				row := in[r*n : r*n+n]
				cur, ci := row[0], 0
				for j, x := range row {
					if better(x, cur) {
						cur, ci = x, j
					}
					out[r*n+j], idx[r*n+j] = cur, int64(ci)
				}
			})
			values = tensor.Must(tensor.FromFloat64s(dt, out, p.Shape()...))
		} else {
			in := p.Int64s()
			out := make([]int64, len(in))
			forRows(outer, n, func(r int) {
				row := in[r*n : r*n+n]
				cur, ci := row[0], 0
				for j, x := range row {
					if (greater && x >= cur) || (!greater && x <= cur) {
						cur, ci = x, j
					}
					out[r*n+j], idx[r*n+j] = cur, int64(ci)
				}
			})
			values = tensor.Must(tensor.FromInt64s(dt, out, p.Shape()...))
		}
		indices := tensor.Must(tensor.FromInt64s(tensor.Int64, idx, p.Shape()...))
		inv := inverse(perm)
		return []any{tensor.Must(values.Permute(inv...)).Contiguous(), tensor.Must(indices.Permute(inv...)).Contiguous()}, nil
	}
}

// cumHelper is aten::_cummax_helper and aten::_cummin_helper: the scan of
// the operator called name written into values and indices.
func cumHelper(name string) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		out, err := delegate(c, name, []any{c.Tensor("self"), c.Int("dim")}, nil)
		if err != nil {
			return nil, err
		}
		for i, arg := range []string{"values", "indices"} {
			dst, src := c.Tensor(arg), out[i].(*tensor.Tensor)
			if !dst.IsMeta() {
				if err := dst.CopyFrom(src); err != nil {
					return nil, c.Errorf(arg, "%v", err)
				}
			}
		}
		return []any{}, nil
	}
}

// logcumsumexp is aten::logcumsumexp and aten::_logcumsumexp: the running
// log(sum(exp)) along dim, accumulated from -inf with ATen's
// _log_add_exp_helper in the tensor's precision. Only floating dtypes.
func logcumsumexp(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	dt := self.DType()
	if !dt.IsFloat() {
		return nil, notImplemented(c, "self", "logcumsumexp_out_cpu", dt)
	}
	if self.IsMeta() {
		return one(self.Meta()), nil
	}
	if self.Dim() == 0 {
		return one(self.Clone()), nil
	}
	r := rounder(computeType(dt))
	mask := singleMask(self.Dim(), d)
	p, perm, outer, n := moveLast(self, mask)
	if n == 0 {
		outer = 0
	}
	in := p.Float64s()
	out := make([]float64, len(in))
	forRows(outer, n, func(row int) {
		acc := math.Inf(-1)
		for j := 0; j < n; j++ {
			x, y := acc, in[row*n+j]
			lo, hi := math.Min(x, y), math.Max(x, y)
			if math.IsNaN(y) {
				lo, hi = y, y
			} else if math.IsNaN(x) {
				lo, hi = x, x
			}
			if lo != hi || !math.IsInf(lo, 0) && !math.IsNaN(lo) {
				acc = r(r(math.Log1p(r(math.Exp(r(lo-hi))))) + hi)
			} else {
				acc = x
			}
			out[row*n+j] = acc
		}
	})
	v := tensor.Must(tensor.FromFloat64s(dt, out, p.Shape()...))
	return one(tensor.Must(v.Permute(inverse(perm)...)).Contiguous()), nil
}
