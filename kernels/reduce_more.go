package kernels

import (
	"math"
	"math/bits"
	"sort"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// More reductions and data-dependent ops: the all-element overloads of any,
// mean and prod, any.dims, var.dim, sort, topk, the _native_batch_norm_legit
// family, _local_scalar_dense, native_dropout and nonzero. The overloads
// that PyTorch defines through another overload bind that overload's
// schema and run its kernel, so that both agree on every corner.
//
// sort (stable=False) and topk reproduce the exact element order of ATen's
// CPU kernels, which call libstdc++'s std::sort, std::nth_element and
// std::partial_sort on (value, index) pairs: the order of equal elements
// is whatever those algorithms leave, so they are transcribed here step by
// step (rxSorter).

func registerReduceMore() {
	registerBoth("aten::any", rxAny)
	registerBoth("aten::any.dims", rxAnyDims)
	registerBoth("aten::mean", rxMean)
	registerBoth("aten::prod", rxProd)
	registerBoth("aten::var.dim", rxVarDim)
	registerBoth("aten::sort", rxSort)
	registerBoth("aten::sort.stable", rxSortStable)
	registerBoth("aten::topk", rxTopk)
	registerBoth("aten::_native_batch_norm_legit", rxBatchNormLegit)
	registerBoth("aten::_native_batch_norm_legit.no_stats", rxBatchNormLegitNoStats)
	registerBoth("aten::_native_batch_norm_legit_no_training", rxBatchNormLegitNoTraining)
	register("aten::_local_scalar_dense", rxLocalScalarDense, rxDataDependentMeta)
	registerBoth("aten::native_dropout", rxNativeDropout)
	register("aten::nonzero", rxNonzero, rxDataDependentMeta)
}

// rxDelegate binds args and kwargs to the schema of the operator called
// name and runs kernel on the bound call: how an overload that ATen
// implements through another one runs. Argument errors keep the argument
// names, which the overloads share.
func rxDelegate(name string, kernel ops.Kernel, args []any, kwargs map[string]any) ([]any, error) {
	c, err := op(name).Bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	return kernel(c)
}

// rxDTypeKwargs returns the dtype keyword argument of c for a delegated
// call: empty when dtype is None.
func rxDTypeKwargs(c *ops.Call) map[string]any {
	if dt, ok := c.DType("dtype"); ok {
		return map[string]any{"dtype": dt}
	}
	return nil
}

// rxFlat returns t flattened to one dimension (a 0-d tensor becomes [1]).
func rxFlat(t *tensor.Tensor) *tensor.Tensor {
	return tensor.Must(t.Reshape(-1))
}

// rxAny is aten::any: whether any element is nonzero (NaN counts); bool,
// or uint8 for uint8 input. An empty tensor gives false.
func rxAny(c *ops.Call) ([]any, error) {
	return rxDelegate("aten::any.dim", redAnyDim, []any{rxFlat(c.Tensor("self")), int64(0)}, nil)
}

// rxAnyDims is aten::any.dims (newer than PyTorch 1.13): any over the
// dimensions in dim, every dimension when dim is None. An empty list
// reduces nothing: each element becomes its truth value (ATen's
// allow_empty_dims).
func rxAnyDims(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt := tensor.Bool
	if self.DType() == tensor.Uint8 {
		dt = tensor.Uint8
	}
	var mask []bool
	if c.IsNone("dim") {
		mask, _ = redDimMask(c, "dim", nil, self.Dim())
	} else {
		dims := c.Ints("dim")
		if len(dims) == 0 {
			if self.IsMeta() {
				return one(tensor.Must(tensor.NewMeta(dt, self.Shape()...))), nil
			}
			vals := self.Bools()
			out := make([]int64, len(vals))
			for i, v := range vals {
				if v {
					out[i] = 1
				}
			}
			return one(redIntResult(dt, out, self.Shape())), nil
		}
		var err error
		if mask, err = redDimMask(c, "dim", dims, self.Dim()); err != nil {
			return nil, err
		}
	}
	shape := redOutShape(self.Shape(), mask, c.Bool("keepdim"))
	if self.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(dt, shape...))), nil
	}
	p, _, outer, inner := redMoveLast(self, mask)
	vals := p.Bools()
	out := make([]int64, outer)
	redRows(outer, inner, func(r int) {
		for _, v := range vals[r*inner : (r+1)*inner] {
			if v {
				out[r] = 1
				return
			}
		}
	})
	return one(redIntResult(dt, out, shape)), nil
}

// rxMean is aten::mean: the mean of all elements (NaN for none), in dtype
// when given; the output dtype must be floating.
func rxMean(c *ops.Call) ([]any, error) {
	return rxDelegate("aten::mean.dim", redMeanDim, []any{c.Tensor("self"), nil, false}, rxDTypeKwargs(c))
}

// rxProd is aten::prod: the product of all elements (1 for none), in dtype
// when given, int64 for integral and bool inputs.
func rxProd(c *ops.Call) ([]any, error) {
	return rxDelegate("aten::prod.dim_int", redProdDimInt, []any{rxFlat(c.Tensor("self")), int64(0), false}, rxDTypeKwargs(c))
}

// rxVarDim is aten::var.dim: var.correction with correction 1 when
// unbiased, 0 otherwise; dim None or [] reduces every dimension.
func rxVarDim(c *ops.Call) ([]any, error) {
	corr := int64(0)
	if c.Bool("unbiased") {
		corr = 1
	}
	var dim any
	if !c.IsNone("dim") {
		dim = c.Ints("dim")
	}
	return rxDelegate("aten::var.correction", redVarCorrection, []any{c.Tensor("self"), dim},
		map[string]any{"correction": corr, "keepdim": c.Bool("keepdim")})
}

// rxElem is one (value, index) pair of a row being sorted.
type rxElem[T float64 | int64] struct {
	v T
	i int64
}

// rxSorter transcribes libstdc++'s (GCC 12) std::sort, std::nth_element,
// std::partial_sort and their heap helpers over a, with the strict weak
// order less, so that equal elements end up exactly where ATen leaves them.
// Positions are indices into a; ranges are half-open.
type rxSorter[T float64 | int64] struct {
	a    []rxElem[T]
	less func(x, y rxElem[T]) bool
}

// rxThreshold is libstdc++'s _S_threshold.
const rxThreshold = 16

// rxLg is std::__lg: floor(log2(n)) for n > 0.
func rxLg(n int) int { return bits.Len(uint(n)) - 1 }

// sort is std::sort(first, last).
func (s *rxSorter[T]) sort(first, last int) {
	if first != last {
		s.introsortLoop(first, last, 2*rxLg(last-first))
		s.finalInsertionSort(first, last)
	}
}

// introsortLoop is std::__introsort_loop.
func (s *rxSorter[T]) introsortLoop(first, last, depth int) {
	for last-first > rxThreshold {
		if depth == 0 {
			s.partialSort(first, last, last)
			return
		}
		depth--
		cut := s.partitionPivot(first, last)
		s.introsortLoop(cut, last, depth)
		last = cut
	}
}

// partitionPivot is std::__unguarded_partition_pivot.
func (s *rxSorter[T]) partitionPivot(first, last int) int {
	mid := first + (last-first)/2
	s.medianToFirst(first, first+1, mid, last-1)
	return s.partition(first+1, last, first)
}

// medianToFirst is std::__move_median_to_first.
func (s *rxSorter[T]) medianToFirst(result, a, b, c int) {
	x := s.a
	switch {
	case s.less(x[a], x[b]):
		switch {
		case s.less(x[b], x[c]):
			s.swap(result, b)
		case s.less(x[a], x[c]):
			s.swap(result, c)
		default:
			s.swap(result, a)
		}
	case s.less(x[a], x[c]):
		s.swap(result, a)
	case s.less(x[b], x[c]):
		s.swap(result, c)
	default:
		s.swap(result, b)
	}
}

// partition is std::__unguarded_partition around the element at pivot.
func (s *rxSorter[T]) partition(first, last, pivot int) int {
	x := s.a
	for {
		for s.less(x[first], x[pivot]) {
			first++
		}
		last--
		for s.less(x[pivot], x[last]) {
			last--
		}
		if first >= last {
			return first
		}
		s.swap(first, last)
		first++
	}
}

// swap is std::iter_swap.
func (s *rxSorter[T]) swap(i, j int) { s.a[i], s.a[j] = s.a[j], s.a[i] }

// finalInsertionSort is std::__final_insertion_sort.
func (s *rxSorter[T]) finalInsertionSort(first, last int) {
	if last-first > rxThreshold {
		s.insertionSort(first, first+rxThreshold)
		for i := first + rxThreshold; i != last; i++ {
			s.linearInsert(i)
		}
		return
	}
	s.insertionSort(first, last)
}

// insertionSort is std::__insertion_sort.
func (s *rxSorter[T]) insertionSort(first, last int) {
	if first == last {
		return
	}
	x := s.a
	for i := first + 1; i != last; i++ {
		if s.less(x[i], x[first]) {
			v := x[i]
			copy(x[first+1:i+1], x[first:i])
			x[first] = v
		} else {
			s.linearInsert(i)
		}
	}
}

// linearInsert is std::__unguarded_linear_insert.
func (s *rxSorter[T]) linearInsert(last int) {
	x := s.a
	v := x[last]
	next := last - 1
	for s.less(v, x[next]) {
		x[last] = x[next]
		last = next
		next--
	}
	x[last] = v
}

// partialSort is std::partial_sort (std::__partial_sort).
func (s *rxSorter[T]) partialSort(first, middle, last int) {
	s.heapSelect(first, middle, last)
	for middle-first > 1 {
		middle--
		s.popHeap(first, middle, middle)
	}
}

// heapSelect is std::__heap_select.
func (s *rxSorter[T]) heapSelect(first, middle, last int) {
	s.makeHeap(first, middle)
	for i := middle; i < last; i++ {
		if s.less(s.a[i], s.a[first]) {
			s.popHeap(first, middle, i)
		}
	}
}

// makeHeap is std::__make_heap.
func (s *rxSorter[T]) makeHeap(first, last int) {
	n := last - first
	if n < 2 {
		return
	}
	for parent := (n - 2) / 2; ; parent-- {
		s.adjustHeap(first, parent, n, s.a[first+parent])
		if parent == 0 {
			return
		}
	}
}

// popHeap is std::__pop_heap.
func (s *rxSorter[T]) popHeap(first, last, result int) {
	v := s.a[result]
	s.a[result] = s.a[first]
	s.adjustHeap(first, 0, last-first, v)
}

// adjustHeap is std::__adjust_heap followed by std::__push_heap. Go's
// integer division truncates like C++'s, which matters for n = 0.
func (s *rxSorter[T]) adjustHeap(first, hole, n int, v rxElem[T]) {
	x := s.a
	top, child := hole, hole
	for child < (n-1)/2 {
		child = 2 * (child + 1)
		if s.less(x[first+child], x[first+child-1]) {
			child--
		}
		x[first+hole] = x[first+child]
		hole = child
	}
	if n&1 == 0 && child == (n-2)/2 {
		child = 2 * (child + 1)
		x[first+hole] = x[first+child-1]
		hole = child - 1
	}
	parent := (hole - 1) / 2
	for hole > top && s.less(x[first+parent], v) {
		x[first+hole] = x[first+parent]
		hole = parent
		parent = (hole - 1) / 2
	}
	x[first+hole] = v
}

// nthElement is std::nth_element (std::__introselect).
func (s *rxSorter[T]) nthElement(first, nth, last int) {
	if first == last || nth == last {
		return
	}
	depth := 2 * rxLg(last-first)
	for last-first > 3 {
		if depth == 0 {
			s.heapSelect(first, nth+1, last)
			s.swap(first, nth)
			return
		}
		depth--
		cut := s.partitionPivot(first, last)
		if cut <= nth {
			first = cut
		} else {
			last = cut
		}
	}
	s.insertionSort(first, last)
}

// rxLessF returns ATen's float comparator for ascending order (NaN above
// everything) or, when desc, descending order (NaN first).
func rxLessF(desc bool) func(x, y rxElem[float64]) bool {
	if desc {
		return func(x, y rxElem[float64]) bool {
			return (math.IsNaN(x.v) && !math.IsNaN(y.v)) || x.v > y.v
		}
	}
	return func(x, y rxElem[float64]) bool {
		return (!math.IsNaN(x.v) && math.IsNaN(y.v)) || x.v < y.v
	}
}

// rxLessI returns the integer comparator for ascending or descending order.
func rxLessI(desc bool) func(x, y rxElem[int64]) bool {
	if desc {
		return func(x, y rxElem[int64]) bool { return x.v > y.v }
	}
	return func(x, y rxElem[int64]) bool { return x.v < y.v }
}

// rxRowOp rearranges one row of (value, index) pairs and returns how many
// leading pairs form the output row.
type rxRowOp[T float64 | int64] func(s *rxSorter[T]) int

// rxRows applies f to every row of p (rows of n contiguous elements, as
// redMoveLast leaves them) and gathers the first k pairs of each row.
func rxRows[T float64 | int64](vals []T, outer, n, k int, less func(x, y rxElem[T]) bool, f rxRowOp[T]) ([]T, []int64) {
	outV := make([]T, outer*k)
	outI := make([]int64, outer*k)
	redRows(outer, n, func(r int) {
		row := make([]rxElem[T], n)
		for j := range row {
			row[j] = rxElem[T]{vals[r*n+j], int64(j)}
		}
		s := &rxSorter[T]{a: row, less: less}
		f(s)
		for j := 0; j < k; j++ {
			outV[r*k+j], outI[r*k+j] = row[j].v, row[j].i
		}
	})
	return outV, outI
}

// rxSortedRows rearranges the rows of self along dimension d with the row
// operations fF (floating dtypes) or fI (integral and bool), keeping k
// elements of each, and returns values and int64 indices with dimension d
// of size k.
func rxSortedRows(self *tensor.Tensor, d, k int, desc bool, fF rxRowOp[float64], fI rxRowOp[int64]) (values, indices *tensor.Tensor) {
	dt := self.DType()
	p, perm, outer, n := redMoveLast(self, redSingleMask(self.Dim(), d))
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
		v, idx = rxRows(p.Float64s(), outer, n, k, rxLessF(desc), fF)
		values = tensor.Must(tensor.FromFloat64s(dt, v, pshape...))
	} else {
		var v []int64
		v, idx = rxRows(p.Int64s(), outer, n, k, rxLessI(desc), fI)
		values = tensor.Must(tensor.FromInt64s(dt, v, pshape...))
	}
	indices = tensor.Must(tensor.FromInt64s(tensor.Int64, idx, pshape...))
	inv := redInverse(perm)
	values = tensor.Must(values.Permute(inv...)).Contiguous()
	indices = tensor.Must(indices.Permute(inv...)).Contiguous()
	return values, indices
}

// rxScalarCopy is what ATen's sort and topk return for a 0-d input: the
// value itself and index 0.
func rxScalarCopy(self *tensor.Tensor) []any {
	if self.IsMeta() {
		return []any{self.Meta(), tensor.Must(tensor.NewMeta(tensor.Int64))}
	}
	return []any{self.Clone(), tensor.Scalar[int64](0)}
}

// rxSortImpl sorts self along dim: std::stable_sort when stable, and
// otherwise libstdc++'s introsort, whose order of equal elements ATen's
// CPU sort keeps.
func rxSortImpl(c *ops.Call, stable bool) ([]any, error) {
	self := c.Tensor("self")
	d, err := redWrapDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	if self.Dim() == 0 {
		return rxScalarCopy(self), nil
	}
	if self.IsMeta() {
		return []any{self.Meta(), tensor.Must(tensor.NewMeta(tensor.Int64, self.Shape()...))}, nil
	}
	n := self.Size(d)
	if stable {
		v, i := rxSortedRows(self, d, n, c.Bool("descending"),
			func(s *rxSorter[float64]) int {
				sort.SliceStable(s.a, func(i, j int) bool { return s.less(s.a[i], s.a[j]) })
				return n
			},
			func(s *rxSorter[int64]) int {
				sort.SliceStable(s.a, func(i, j int) bool { return s.less(s.a[i], s.a[j]) })
				return n
			})
		return []any{v, i}, nil
	}
	v, i := rxSortedRows(self, d, n, c.Bool("descending"),
		func(s *rxSorter[float64]) int { s.sort(0, len(s.a)); return n },
		func(s *rxSorter[int64]) int { s.sort(0, len(s.a)); return n })
	return []any{v, i}, nil
}

// rxSort is aten::sort: values sorted along dim (ascending unless
// descending; NaN sorts above everything) and their int64 indices. With
// stable=False ATen's CPU sort is not stable; the order of equal elements
// follows libstdc++'s std::sort.
func rxSort(c *ops.Call) ([]any, error) { return rxSortImpl(c, false) }

// rxSortStable is aten::sort.stable: stable must not be None (an internal
// assertion in ATen); stable=True keeps equal elements in input order.
func rxSortStable(c *ops.Call) ([]any, error) {
	if c.IsNone("stable") {
		return nil, c.Errorf("stable", "sort(): c10::optional<bool> for stable has to have value.")
	}
	return rxSortImpl(c, c.Bool("stable"))
}

// rxTopk is aten::topk: the k largest (smallest) elements along dim and
// their indices, computed as ATen's CPU topk does (std::partial_sort when
// k*64 <= n, std::nth_element then std::sort of the first k-1 otherwise),
// so that ties and the unsorted order match. NaN counts as the largest.
func rxTopk(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	d, err := redWrapDim(c, "dim", c.Int("dim"), self.Dim())
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
		return rxScalarCopy(self), nil
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
	v, i := rxSortedRows(self, d, kk, largest,
		func(s *rxSorter[float64]) int { return rxTopkRow(s, kk, n, partial, sorted) },
		func(s *rxSorter[int64]) int { return rxTopkRow(s, kk, n, partial, sorted) })
	return []any{v, i}, nil
}

// rxTopkRow is the row step of ATen's topk_impl_loop.
func rxTopkRow[T float64 | int64](s *rxSorter[T], k, n int, partial, sorted bool) int {
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

// rxBatchNormLegit is aten::_native_batch_norm_legit (newer than PyTorch
// 1.13): native_batch_norm with its running statistics always given.
func rxBatchNormLegit(c *ops.Call) ([]any, error) {
	return rxDelegate("aten::native_batch_norm", redNativeBatchNorm, []any{
		c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias"), c.Tensor("running_mean"), c.Tensor("running_var"),
		c.Bool("training"), c.Float("momentum"), c.Float("eps"),
	}, nil)
}

// rxBatchNormLegitNoStats is aten::_native_batch_norm_legit.no_stats:
// native_batch_norm without running statistics, which only works in
// training mode.
func rxBatchNormLegitNoStats(c *ops.Call) ([]any, error) {
	if !c.Bool("training") {
		return nil, c.Errorf("training", "running_mean must be defined in evaluation mode (no_stats needs training=True)")
	}
	return rxDelegate("aten::native_batch_norm", redNativeBatchNorm, []any{
		c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias"), nil, nil,
		true, c.Float("momentum"), c.Float("eps"),
	}, nil)
}

// rxBatchNormLegitNoTraining is aten::_native_batch_norm_legit_no_training:
// native_batch_norm with training=False (saved statistics empty [0]).
func rxBatchNormLegitNoTraining(c *ops.Call) ([]any, error) {
	return rxDelegate("aten::native_batch_norm", redNativeBatchNorm, []any{
		c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias"), c.Tensor("running_mean"), c.Tensor("running_var"),
		false, c.Float("momentum"), c.Float("eps"),
	}, nil)
}

// rxDataDependentMeta is the meta function of ops whose result depends on
// the input's values.
func rxDataDependentMeta(c *ops.Call) ([]any, error) {
	return nil, c.Errorf("self", "%s has a data-dependent output shape or value, which a meta tensor cannot provide", c.Op.Schema().QualifiedName())
}

// rxLocalScalarDense is aten::_local_scalar_dense: the tensor's first
// element as a Go number: float64 for floating dtypes, int64 for integral
// ones, bool for bool. Like ATen it does not check that there is exactly
// one element (Tensor.item does); an empty tensor is an error.
func rxLocalScalarDense(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if self.Numel() == 0 {
		return nil, c.Errorf("self", "a Tensor with 0 elements cannot be converted to Scalar")
	}
	first := tensor.Must(rxFlat(self).Narrow(0, 0, 1))
	x, err := first.Item()
	if err != nil {
		return nil, c.Errorf("self", "%v", err)
	}
	return []any{x}, nil
}

// rxNativeDropout is aten::native_dropout: (output, mask). With
// train=False it returns a copy of the input and an all-true bool mask;
// train=True or None draws a Bernoulli(1-p) mask and scales by 1/(1-p),
// which is deterministic only for p=0 (identity) and p=1 (input*0*0, NaN
// for inf and NaN). Other p need a random generator, which the reference
// kernels do not have. An empty input returns itself and an empty mask of
// its dtype, as ATen does.
func rxNativeDropout(c *ops.Call) ([]any, error) {
	x, p := c.Tensor("input"), c.Float("p")
	train := c.IsNone("train") || c.Bool("train")
	dt := x.DType()
	if x.Numel() == 0 {
		return []any{x, tensor.Must(empty(x.IsMeta(), dt, x.Shape()))}, nil
	}
	if !train {
		if x.IsMeta() {
			return []any{x.Meta(), tensor.Must(tensor.NewMeta(tensor.Bool, x.Shape()...))}, nil
		}
		return []any{x.Clone(), rxFull(tensor.Bool, 1, x.Shape())}, nil
	}
	keep := 1 - p
	if !(keep >= 0 && keep <= 1) {
		return nil, c.Errorf("p", "bernoulli_ expects p to be in [0, 1], but got p=%v", keep)
	}
	if !dt.IsFloat() {
		return nil, c.Errorf("input", "result type Float can't be cast to the desired output type %s", scalarTypeName(dt))
	}
	if x.IsMeta() {
		return []any{x.Meta(), tensor.Must(tensor.NewMeta(tensor.Bool, x.Shape()...))}, nil
	}
	switch keep {
	case 1:
		return []any{x.Clone(), rxFull(tensor.Bool, 1, x.Shape())}, nil
	case 0:
		out := mapUnary(x, dt, func(v float64) float64 { return v * 0 * 0 }, func(int64) int64 { return 0 })
		return []any{out, rxFull(tensor.Bool, 0, x.Shape())}, nil
	}
	return nil, c.Errorf("train", "native_dropout with train=True and 0 < p < 1 (p=%v) draws random numbers, which needs a random generator; the reference kernels have none (export the model in eval mode)", p)
}

// rxFull returns a tensor of dt and shape filled with v.
func rxFull(dt tensor.DType, v int64, shape []int) *tensor.Tensor {
	n, _ := tensor.Numel(shape)
	vals := make([]int64, n)
	for i := range vals {
		vals[i] = v
	}
	return tensor.Must(tensor.FromInt64s(dt, vals, shape...))
}

// rxNonzero is aten::nonzero: the int64 [n, ndim] indices of the nonzero
// elements (NaN counts) in row-major order.
func rxNonzero(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	shape := self.Shape()
	nd := len(shape)
	vals := self.Contiguous().Bools()
	var out []int64
	idx := make([]int64, nd)
	for _, v := range vals {
		if v {
			out = append(out, idx...)
		}
		for j := nd - 1; j >= 0; j-- {
			idx[j]++
			if idx[j] < int64(shape[j]) {
				break
			}
			idx[j] = 0
		}
	}
	n := 0
	if nd > 0 {
		n = len(out) / nd
	} else {
		for _, v := range vals {
			if v {
				n++
			}
		}
	}
	return one(redIntResult(tensor.Int64, out, []int{n, nd})), nil
}
