package kernels

import (
	"math"
	"math/bits"
	"sort"

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
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	k := c.Int("k")
	slice := 1
	if self.Dim() > 0 {
		slice = self.Size(d)
	}
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
