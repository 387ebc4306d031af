package kernels

import (
	"math"
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Shape and view kernels, ATen's TensorShape.cpp. The view operators
// (view, reshape when the strides allow, alias, expand, permute, t,
// transpose, unsqueeze, squeeze, select, slice, flatten, split,
// as_strided, diagonal) return views sharing their input's storage, as
// ATen does; on meta tensors the same code computes the output shapes,
// since views touch no data. cat, repeat, select_scatter and slice_scatter
// copy. The composites (narrow, chunk, unbind, stack, hstack, vstack,
// unflatten, broadcast_to, movedim, swapaxes, tile, repeat_interleave
// (Repeat.cpp), detach, lift_fresh)
// call those operators as ATen's composite functions do.

// registerTensorShape registers the kernels of tensor_shape.go.
func registerTensorShape() {
	registerTensorShapeDiag()
	registerBoth("aten::select_scatter", selectScatter)
	registerBoth("aten::slice_scatter", sliceScatter)
	registerBoth("aten::view", viewKernel)
	registerBoth("aten::_unsafe_view", unsafeView)
	registerBoth("aten::reshape", reshape)
	registerBoth("aten::alias", alias)
	registerBoth("aten::expand", expand)
	registerBoth("aten::permute", permute)
	registerBoth("aten::t", tKernel)
	registerBoth("aten::transpose.int", transpose)
	registerBoth("aten::unsqueeze", unsqueeze)
	registerBoth("aten::squeeze", squeeze)
	registerBoth("aten::squeeze.dim", squeezeDim)
	registerBoth("aten::select.int", selectKernel)
	registerBoth("aten::slice.Tensor", sliceTensor)
	registerBoth("aten::flatten.using_ints", flatten)
	registerBoth("aten::split.Tensor", splitKernel)
	registerBoth("aten::split_with_sizes", splitWithSizes)
	registerBoth("aten::cat", cat)
	registerBoth("aten::repeat", repeatKernel)
	registerBoth("aten::as_strided", asStrided)
	registerBoth("aten::diagonal", diagonal)
	registerBoth("aten::squeeze.dims", squeezeDims)
	registerBoth("aten::detach", detach)
	registerBoth("aten::lift_fresh", liftFresh)
	registerBoth("aten::lift_fresh_copy", liftFreshCopy)
	registerBoth("aten::narrow", narrowKernel)
	registerBoth("aten::narrow.Tensor", narrowKernel)
	registerBoth("aten::unbind.int", unbind)
	registerBoth("aten::chunk", chunk)
	registerBoth("aten::split.sizes", splitSizes)
	registerBoth("aten::stack", stack)
	registerBoth("aten::hstack", hstack)
	registerBoth("aten::vstack", vstack)
	registerBoth("aten::unflatten.int", unflatten)
	registerBoth("aten::broadcast_to", broadcastTo)
	registerBoth("aten::movedim.intlist", movedim)
	registerBoth("aten::movedim.int", movedim)
	registerBoth("aten::moveaxis.intlist", movedim)
	registerBoth("aten::moveaxis.int", movedim)
	registerBoth("aten::swapaxes", swapaxes)
	registerBoth("aten::swapdims", swapaxes)
	registerBoth("aten::tile", tile)
	register("aten::repeat_interleave.self_int", repeatInterleave, repeatInterleave)
	register("aten::repeat_interleave.self_Tensor", repeatInterleave, repeatInterleave)
	register("aten::repeat_interleave.Tensor", repeatInterleaveTensor, repeatInterleaveTensor)
}

// selectScatter is aten::select_scatter: a copy of self with
// self.select(dim, index) replaced by src (of that exact shape, converted
// to self's dtype).
func selectScatter(c *ops.Call) ([]any, error) {
	x, src := c.Tensor("self"), c.Tensor("src")
	if x.Dim() == 0 {
		return nil, c.Errorf("self", "select() cannot be applied to a 0-dim tensor.")
	}
	d, err := wrapDim(c, "dim", c.Int("dim"), x.Dim())
	if err != nil {
		return nil, err
	}
	idx, size := c.Int("index"), int64(x.Shape()[d])
	if idx < -size || idx >= size {
		return nil, c.Errorf("index", "select(): index %d out of range for tensor of size %v at dimension %d", idx, x.Shape(), c.Int("dim"))
	}
	if idx < 0 {
		idx += size
	}
	out := rebase(x).Clone()
	return putSlice(c, out, tensor.Must(out.Select(d, int(idx))), src)
}

// sliceBounds computes the start and the number of elements of a slice
// of a dimension of the given size as aten::slice.Tensor does: start and
// end default to the whole dimension, count from the end when negative,
// and are clamped.
func sliceBounds(c *ops.Call, size int64) (start, n, step int64, err error) {
	step = c.Int("step")
	if step <= 0 {
		return 0, 0, 0, c.Errorf("step", "slice step must be positive")
	}
	start, ok := c.OptInt("start")
	if !ok {
		start = 0
	}
	end, ok := c.OptInt("end")
	if !ok {
		end = math.MaxInt64
	}
	if start < 0 {
		start += size
	}
	if end < 0 {
		end += size
	}
	start = min(max(start, 0), size)
	end = min(max(end, start), size)
	n = end - start
	if n == 0 {
		return start, 0, 1, nil
	}
	return start, (n-1)/step + 1, min(step, n), nil
}

// sliceScatter is aten::slice_scatter: a copy of self with the slice
// start:end:step of dimension dim replaced by src (of that exact shape,
// converted to self's dtype).
func sliceScatter(c *ops.Call) ([]any, error) {
	x, src := c.Tensor("self"), c.Tensor("src")
	if x.Dim() == 0 {
		return nil, c.Errorf("self", "slice() cannot be applied to a 0-dim tensor.")
	}
	d, err := wrapDim(c, "dim", c.Int("dim"), x.Dim())
	if err != nil {
		return nil, err
	}
	start, n, step, err := sliceBounds(c, int64(x.Shape()[d]))
	if err != nil {
		return nil, err
	}
	out := rebase(x).Clone()
	shape, strides := out.Shape(), out.Strides()
	off := out.Offset() + int(start)*strides[d]
	shape[d] = int(n)
	strides[d] *= int(step)
	if n == 0 {
		off = 0
	}
	return putSlice(c, out, tensor.Must(out.AsStrided(shape, strides, off)), src)
}

// wrapDim wraps dimension d of a tensor of the given rank as ATen's
// maybe_wrap_dim does, blaming argument arg when it is out of range.
func wrapDim(c *ops.Call, arg string, d int64, rank int) (int, error) {
	if d < math.MinInt32 || d > math.MaxInt32 {
		r := max(rank, 1)
		return 0, c.Errorf(arg, "Dimension out of range (expected to be in range of [%d, %d], but got %d)", -r, r-1, d)
	}
	n, err := tensor.NormDim(int(d), rank)
	if err != nil {
		return 0, c.Errorf(arg, "%s", capitalize(err.Error()))
	}
	return n, nil
}

// capitalize upper-cases the first letter of a message, as ATen's errors start.
func capitalize(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// sizesArg converts a SymInt[] size argument to ints, rejecting values that
// cannot be dimensions (below -1, or beyond tensor.MaxElements).
func sizesArg(c *ops.Call, arg string, v []int64) ([]int, error) {
	out := make([]int, len(v))
	for i, x := range v {
		if x > tensor.MaxElements || x < -tensor.MaxElements {
			return nil, c.Errorf(arg, "size %d at index %d is too large", x, i)
		}
		out[i] = int(x)
	}
	return out, nil
}

// viewKernel is aten::view: a view with a new shape (one dimension may be -1);
// the strides must allow it.
func viewKernel(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	size, err := sizesArg(c, "size", c.Ints("size"))
	if err != nil {
		return nil, err
	}
	v, err := x.View(size...)
	if err != nil {
		return nil, c.Errorf("size", "%v", err)
	}
	return one(v), nil
}

// unsafeView is aten::_unsafe_view: view's semantics, without the alias
// annotation in the schema.
func unsafeView(c *ops.Call) ([]any, error) {
	return viewKernel(c)
}

// reshape is aten::reshape: a view when the strides allow one, and a
// contiguous copy otherwise.
func reshape(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	shape, err := sizesArg(c, "shape", c.Ints("shape"))
	if err != nil {
		return nil, err
	}
	v, err := x.Reshape(shape...)
	if err != nil {
		return nil, c.Errorf("shape", "%v", err)
	}
	return one(v), nil
}

// sameView returns a view of x with its own shape and strides.
func sameView(x *tensor.Tensor) *tensor.Tensor {
	return tensor.Must(x.AsStrided(x.Shape(), x.Strides(), x.Offset()))
}

// rebase works around tensor.Values slicing from the offset of empty
// views: an empty view (which reaches no element) gets offset 0.
func rebase(v *tensor.Tensor) *tensor.Tensor {
	if v.IsMeta() || v.Numel() != 0 || v.Offset() == 0 {
		return v
	}
	return tensor.Must(v.AsStrided(v.Shape(), v.Strides(), 0))
}

// alias is aten::alias: a view of self with the same shape.
func alias(c *ops.Call) ([]any, error) {
	return one(sameView(c.Tensor("self"))), nil
}

// expand is aten::expand: a view broadcast to size (-1 keeps a
// dimension), with stride 0 in the expanded dimensions.
func expand(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	size, err := sizesArg(c, "size", c.Ints("size"))
	if err != nil {
		return nil, err
	}
	v, err := x.Expand(size...)
	if err != nil {
		return nil, c.Errorf("size", "%v", err)
	}
	return one(v), nil
}

// permute is aten::permute: a view with its dimensions reordered.
func permute(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dims := c.Ints("dims")
	if len(dims) != x.Dim() {
		return nil, c.Errorf("dims", "number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %d", x.Dim(), len(dims))
	}
	nd := make([]int, len(dims))
	seen := make([]bool, len(dims))
	for i, d := range dims {
		n, err := wrapDim(c, "dims", d, x.Dim())
		if err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, c.Errorf("dims", "permute(): duplicate dims are not allowed.")
		}
		seen[n] = true
		nd[i] = n
	}
	v, err := x.Permute(nd...)
	if err != nil {
		return nil, c.Errorf("dims", "%v", err)
	}
	return one(v), nil
}

// tKernel is aten::t: the transpose of a tensor of at most 2 dimensions.
func tKernel(c *ops.Call) ([]any, error) {
	v, err := c.Tensor("self").T()
	if err != nil {
		return nil, c.Errorf("self", "%v", err)
	}
	return one(v), nil
}

// transpose is aten::transpose.int: a view with two dimensions swapped.
func transpose(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	d0, err := wrapDim(c, "dim0", c.Int("dim0"), x.Dim())
	if err != nil {
		return nil, err
	}
	d1, err := wrapDim(c, "dim1", c.Int("dim1"), x.Dim())
	if err != nil {
		return nil, err
	}
	return one(tensor.Must(x.Transpose(d0, d1))), nil
}

// unsqueeze is aten::unsqueeze: a view with a dimension of size 1
// inserted at dim.
func unsqueeze(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	d, err := wrapDim(c, "dim", c.Int("dim"), x.Dim()+1)
	if err != nil {
		return nil, err
	}
	return one(tensor.Must(x.Unsqueeze(d))), nil
}

// squeeze is aten::squeeze: a view without the dimensions of size 1.
func squeeze(c *ops.Call) ([]any, error) {
	return one(c.Tensor("self").Squeeze()), nil
}

// squeezeDim is aten::squeeze.dim: a view without dimension dim if it
// has size 1.
func squeezeDim(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	d, err := wrapDim(c, "dim", c.Int("dim"), x.Dim())
	if err != nil {
		return nil, err
	}
	return one(tensor.Must(x.SqueezeDim(d))), nil
}

// selectKernel is aten::select.int: the view at index along dim, without that
// dimension.
func selectKernel(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	if x.Dim() == 0 {
		return nil, c.Errorf("self", "select() cannot be applied to a 0-dim tensor.")
	}
	d, err := wrapDim(c, "dim", c.Int("dim"), x.Dim())
	if err != nil {
		return nil, err
	}
	idx, size := c.Int("index"), int64(x.Shape()[d])
	if idx < -size || idx >= size {
		return nil, c.Errorf("index", "select(): index %d out of range for tensor of size %v at dimension %d", idx, x.Shape(), c.Int("dim"))
	}
	return one(rebase(tensor.Must(x.Select(d, int(idx))))), nil
}

// sliceTensor is aten::slice.Tensor: the view of start, start+step, ...
// below end along dim, with Python's clamping (start defaults to 0, end to
// the end: INT64_MAX is the exporters' idiom for it).
func sliceTensor(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	if x.Dim() == 0 {
		return nil, c.Errorf("self", "slice() cannot be applied to a 0-dim tensor.")
	}
	d, err := wrapDim(c, "dim", c.Int("dim"), x.Dim())
	if err != nil {
		return nil, err
	}
	step := c.Int("step")
	if step <= 0 {
		return nil, c.Errorf("step", "slice step must be positive")
	}
	start, ok := c.OptInt("start")
	if !ok {
		start = 0
	}
	end, ok := c.OptInt("end")
	if !ok {
		end = math.MaxInt64
	}
	size := int64(x.Shape()[d])
	if start < 0 {
		start += size
	}
	if end < 0 {
		end += size
	}
	switch {
	case start < 0:
		start = 0
	case start >= size:
		start = size
	}
	switch {
	case end < start:
		end = start
	case end >= size:
		end = size
	}
	n := end - start
	// ATen computes (n + step - 1) / step in int64 and fails on the
	// overflow of huge steps; any step >= n gives the same single element.
	if n+step-1 < 0 {
		return nil, c.Errorf("step", "slice: step %d overflows the size computation", step)
	}
	if step > n {
		step = max(n, 1)
	}
	return one(rebase(tensor.Must(x.Slice(d, int(start), int(end), int(step))))), nil
}

// flatten is aten::flatten.using_ints: dimensions start_dim..end_dim
// merged into one (a view when the strides allow); a 0-d tensor becomes
// [1].
func flatten(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	s, err := wrapDim(c, "start_dim", c.Int("start_dim"), x.Dim())
	if err != nil {
		return nil, err
	}
	e, err := wrapDim(c, "end_dim", c.Int("end_dim"), x.Dim())
	if err != nil {
		return nil, err
	}
	if s > e {
		return nil, c.Errorf("start_dim", "flatten() has invalid args: start_dim cannot come after end_dim")
	}
	if x.Dim() == 0 {
		return one(tensor.Must(x.Reshape(1))), nil
	}
	if s == e {
		return one(sameView(x)), nil
	}
	v, err := x.Flatten(s, e)
	if err != nil {
		return nil, c.Errorf("self", "%v", err)
	}
	return one(v), nil
}

// splitKernel is aten::split.Tensor: views of split_size along dim, the last
// one smaller when split_size does not divide the size.
func splitKernel(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	if x.Dim() == 0 {
		return nil, c.Errorf("self", "split expects at least a 1-dimensional tensor")
	}
	split := c.Int("split_size")
	if split < 0 {
		return nil, c.Errorf("split_size", "split expects split_size be non-negative, but got split_size=%d", split)
	}
	d, err := wrapDim(c, "dim", c.Int("dim"), x.Dim())
	if err != nil {
		return nil, err
	}
	size := int64(x.Shape()[d])
	if split == 0 && size != 0 {
		return nil, c.Errorf("split_size", "split_size can only be 0 if dimension size is 0, but got dimension size of %d", size)
	}
	var out []*tensor.Tensor
	if split == 0 || split >= size {
		out = []*tensor.Tensor{rebase(tensor.Must(x.Narrow(d, 0, int(size))))}
	} else {
		for s := int64(0); s < size; s += split {
			out = append(out, rebase(tensor.Must(x.Narrow(d, int(s), int(min(split, size-s))))))
		}
	}
	return []any{out}, nil
}

// splitWithSizes is aten::split_with_sizes: views of the given sizes
// along dim, which must add up to the size of dim.
func splitWithSizes(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	if x.Dim() == 0 {
		return nil, c.Errorf("self", "split expects at least a 1-dimensional tensor")
	}
	d, err := wrapDim(c, "dim", c.Int("dim"), x.Dim())
	if err != nil {
		return nil, err
	}
	sizes := c.Ints("split_sizes")
	size := int64(x.Shape()[d])
	var sum int64
	for _, s := range sizes {
		if s < 0 {
			return nil, c.Errorf("split_sizes", "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=%v", sizes)
		}
		if sum += s; sum > size {
			break
		}
	}
	if sum != size {
		return nil, c.Errorf("split_sizes", "split_with_sizes expects split_sizes to sum exactly to %d (input tensor's size at dimension %d), but got split_sizes=%v", size, d, sizes)
	}
	out := make([]*tensor.Tensor, len(sizes))
	start := 0
	for i, s := range sizes {
		out[i] = rebase(tensor.Must(x.Narrow(d, start, int(s))))
		start += int(s)
	}
	return []any{out}, nil
}

// catSkip reports whether cat skips t: legacy empty tensors of shape [0].
func catSkip(t *tensor.Tensor) bool { return t.Dim() == 1 && t.Numel() == 0 }

// cat is aten::cat: the tensors joined along dim, promoted to their
// common dtype. One-dimensional empty tensors are skipped, as ATen keeps
// doing for backward compatibility.
func cat(c *ops.Call) ([]any, error) {
	ts := c.Tensors("tensors")
	if len(ts) == 0 {
		return nil, c.Errorf("tensors", "torch.cat(): expected a non-empty list of Tensors")
	}
	dt := tensor.Invalid
	for i, t := range ts {
		if t.Dim() == 0 {
			return nil, c.Errorf("tensors", "zero-dimensional tensor (at position %d) cannot be concatenated", i)
		}
		dt = ops.PromoteTypes(dt, t.DType())
	}
	valid := slices.IndexFunc(ts, func(t *tensor.Tensor) bool { return !catSkip(t) })
	if valid < 0 {
		// Only legacy empty tensors: the result is one too.
		return one(tensor.Must(empty(meta(ts...), dt, []int{0}))), nil
	}
	ref := ts[valid].Shape()
	d, err := wrapDim(c, "dim", c.Int("dim"), len(ref))
	if err != nil {
		return nil, err
	}
	shape := slices.Clone(ref)
	shape[d] = 0
	for i, t := range ts {
		if catSkip(t) {
			continue
		}
		s := t.Shape()
		if len(s) != len(ref) {
			return nil, c.Errorf("tensors", "Tensors must have same number of dimensions: got %d and %d", len(ref), len(s))
		}
		for k := range s {
			if k != d && s[k] != ref[k] {
				return nil, c.Errorf("tensors", "Sizes of tensors must match except in dimension %d. Expected size %d but got size %d for tensor number %d in the list.", d, ref[k], s[k], i)
			}
		}
		shape[d] += s[d]
	}
	out, err := empty(meta(ts...), dt, shape)
	if err != nil {
		return nil, c.Errorf("tensors", "%v", err)
	}
	if out.IsMeta() {
		return one(out), nil
	}
	at := 0
	for _, t := range ts {
		if catSkip(t) {
			continue
		}
		n := t.Shape()[d]
		if t.Numel() == 0 {
			at += n
			continue
		}
		if err := tensor.Must(out.Narrow(d, at, n)).CopyFrom(t); err != nil {
			return nil, err
		}
		at += n
	}
	return one(out), nil
}

// checkMemoryFormat checks a MemoryFormat? argument against the rank of
// the tensor it applies to. Outputs are always contiguous: the format
// changes strides only, which the values do not show.
func checkMemoryFormat(c *ops.Call, rank int) error {
	if c.IsNone("memory_format") {
		return nil
	}
	switch f := c.Str("memory_format"); f {
	case "preserve_format", "contiguous_format":
	case "channels_last":
		if rank != 4 {
			return c.Errorf("memory_format", "required rank 4 tensor to use channels_last format")
		}
	case "channels_last_3d":
		if rank != 5 {
			return c.Errorf("memory_format", "required rank 5 tensor to use channels_last_3d format")
		}
	default:
		return c.Errorf("memory_format", "unknown memory format %q", f)
	}
	return nil
}

// offsets returns the storage offsets, in row-major order, of the
// elements of a strided layout (strides may be negative or zero).
func offsets(shape, strides []int, offset int) []int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	out := make([]int, n)
	if n == 0 {
		return out
	}
	nd := len(shape)
	if nd == 0 {
		out[0] = offset
		return out
	}
	idx := make([]int, nd)
	off := offset
	inner, is := shape[nd-1], strides[nd-1]
	for i := 0; i < n; {
		o := off
		for j := 0; j < inner; j++ {
			out[i] = o
			o += is
			i++
		}
		for k := nd - 2; k >= 0; k-- {
			idx[k]++
			off += strides[k]
			if idx[k] < shape[k] {
				break
			}
			off -= strides[k] * shape[k]
			idx[k] = 0
		}
	}
	return out
}

// take returns the contiguous tensor of shape whose i-th element is the
// element of src's storage at offs[i].
func take(src *tensor.Tensor, shape []int, offs []int) *tensor.Tensor {
	out := tensor.Empty(src.DType(), shape...)
	switch src.DType() {
	case tensor.Float32:
		takeT[float32](out, src, offs)
	case tensor.Float64:
		takeT[float64](out, src, offs)
	case tensor.Float16:
		takeT[tensor.Half](out, src, offs)
	case tensor.BFloat16:
		takeT[tensor.BHalf](out, src, offs)
	case tensor.Int64:
		takeT[int64](out, src, offs)
	case tensor.Int32:
		takeT[int32](out, src, offs)
	case tensor.Int16:
		takeT[int16](out, src, offs)
	case tensor.Int8:
		takeT[int8](out, src, offs)
	case tensor.Uint8:
		takeT[uint8](out, src, offs)
	case tensor.Bool:
		takeT[bool](out, src, offs)
	}
	return out
}

// takeT is take for element type T.
func takeT[T tensor.Elem](out, src *tensor.Tensor, offs []int) {
	o, s := tensor.Data[T](out), tensor.Data[T](src)
	parallelFor(len(o), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			o[i] = s[offs[i]]
		}
	})
}

// repeatKernel is aten::repeat: self tiled repeats[i] times along dimension i
// (leading repeats add dimensions).
func repeatKernel(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	reps := c.Ints("repeats")
	if len(reps) < x.Dim() {
		return nil, c.Errorf("repeats", "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
	}
	padded := make([]int, len(reps))
	for i := range padded {
		padded[i] = 1
	}
	copy(padded[len(reps)-x.Dim():], x.Shape())
	target := make([]int, len(reps))
	inter := make([]int, 0, 2*len(reps))
	tiled := make([]int, 0, 2*len(reps))
	for i, r := range reps {
		switch {
		case padded[i] == 0:
			// 0 * r is 0 even for a negative r, which ATen accepts.
			r = max(r, 0)
		case r < 0:
			return nil, c.Errorf("repeats", "Trying to create tensor with negative dimension %d: %v", int64(padded[i])*r, reps)
		case r > tensor.MaxElements/int64(padded[i]):
			return nil, c.Errorf("repeats", "repeats %v give a tensor that is too large", reps)
		}
		target[i] = padded[i] * int(r)
		inter = append(inter, 1, padded[i])
		tiled = append(tiled, int(r), padded[i])
	}
	out, err := empty(x.IsMeta(), x.DType(), target)
	if err != nil {
		return nil, c.Errorf("repeats", "%v", err)
	}
	if x.IsMeta() || out.Numel() == 0 {
		return one(out), nil
	}
	e, err := tensor.Must(x.Reshape(inter...)).Expand(tiled...)
	if err != nil {
		return nil, c.Errorf("repeats", "%v", err)
	}
	return one(tensor.Must(e.Clone().View(target...))), nil
}

// stridesArg converts a stride argument to ints, rejecting negative strides
// (which ATen does not support) and absurd values.
func stridesArg(c *ops.Call, arg, what string, v []int64) ([]int, error) {
	out := make([]int, len(v))
	for i, s := range v {
		if s < 0 {
			return nil, c.Errorf(arg, "%s: Negative strides are not supported at the moment, got strides: %v", what, v)
		}
		if s > tensor.MaxElements {
			return nil, c.Errorf(arg, "stride %d at index %d is too large", s, i)
		}
		out[i] = int(s)
	}
	return out, nil
}

// nonNegSizes converts a size argument to ints, rejecting negative
// dimensions as ATen's factories and resize_ do.
func nonNegSizes(c *ops.Call, arg string, v []int64) ([]int, error) {
	for _, d := range v {
		if d < 0 {
			return nil, c.Errorf(arg, "Trying to create tensor with negative dimension %d: %v", d, v)
		}
	}
	return sizesArg(c, arg, v)
}

// asStrided is aten::as_strided: a view of self's storage with the given
// sizes, strides and storage offset (self's own offset when None). Every
// element it reaches must lie in the storage (meta tensors have none to
// check).
func asStrided(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	size, stride := c.Ints("size"), c.Ints("stride")
	if len(size) != len(stride) {
		return nil, c.Errorf("stride", "mismatch in length of strides and shape")
	}
	shape, err := nonNegSizes(c, "size", size)
	if err != nil {
		return nil, err
	}
	strides, err := stridesArg(c, "stride", "as_strided", stride)
	if err != nil {
		return nil, err
	}
	off := int64(x.Offset())
	if o, ok := c.OptInt("storage_offset"); ok {
		off = o
	}
	if off < 0 {
		return nil, c.Errorf("storage_offset", "Tensor: invalid storage offset %d", off)
	}
	if off > tensor.MaxElements {
		return nil, c.Errorf("storage_offset", "storage offset %d is too large", off)
	}
	v, err := x.AsStrided(shape, strides, int(off))
	if err != nil {
		return nil, c.Errorf("size", "%v", err)
	}
	return one(v), nil
}

// diagonal is aten::diagonal: the view of the elements (i, i+offset) of
// dimensions dim1 and dim2, which are removed and replaced by a last
// dimension of the diagonal's length (0 when offset is past the end).
func diagonal(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	d1, err := wrapDim(c, "dim1", c.Int("dim1"), x.Dim())
	if err != nil {
		return nil, err
	}
	d2, err := wrapDim(c, "dim2", c.Int("dim2"), x.Dim())
	if err != nil {
		return nil, err
	}
	if d1 == d2 {
		return nil, c.Errorf("dim2", "diagonal dimensions cannot be identical %d, %d", c.Int("dim1"), c.Int("dim2"))
	}
	offset := c.Int("offset")
	shape, strides := x.Shape(), x.Strides()
	s1, s2 := int64(shape[d1]), int64(shape[d2])
	var n int64
	if offset >= 0 {
		n = max(min(s1, s2-min(offset, s2)), 0)
	} else {
		n = max(min(s1+max(offset, -s1), s2), 0)
	}
	off := x.Offset()
	if n > 0 {
		if offset >= 0 {
			off += int(offset) * strides[d2]
		} else {
			off -= int(offset) * strides[d1]
		}
	}
	st := strides[d1] + strides[d2]
	hi, lo := max(d1, d2), min(d1, d2)
	shape = slices.Delete(shape, hi, hi+1)
	shape = slices.Delete(shape, lo, lo+1)
	strides = slices.Delete(strides, hi, hi+1)
	strides = slices.Delete(strides, lo, lo+1)
	shape = append(shape, int(n))
	strides = append(strides, st)
	v, err := x.AsStrided(shape, strides, off)
	if err != nil {
		return nil, c.Errorf("offset", "%v", err)
	}
	return one(rebase(v)), nil
}

// squeezeDims is aten::squeeze.dims (newer than PyTorch 1.13): a view of
// self without those of the dimensions dim that have size 1; the others
// stay. Dimensions wrap; a repeated one is an error.
func squeezeDims(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	drop := make([]bool, max(x.Dim(), 1))
	for _, d := range c.Ints("dim") {
		n, err := wrapDim(c, "dim", d, x.Dim())
		if err != nil {
			return nil, err
		}
		if drop[n] {
			return nil, c.Errorf("dim", "dim %d appears multiple times in the list of dims", n)
		}
		drop[n] = true
	}
	var shape, strides []int
	for d, s := range x.Shape() {
		if drop[d] && s == 1 {
			continue
		}
		shape = append(shape, s)
		strides = append(strides, x.Strides()[d])
	}
	if shape == nil {
		shape, strides = []int{}, []int{}
	}
	v, err := x.AsStrided(shape, strides, x.Offset())
	if err != nil {
		return nil, c.Errorf("self", "%v", err)
	}
	return one(v), nil
}

// detach is aten::detach: a view of self sharing its storage (gofx has
// no autograd to detach from).
func detach(c *ops.Call) ([]any, error) {
	return delegate(c, "aten::alias", []any{c.Tensor("self")}, nil)
}

// liftFresh is aten::lift_fresh: self itself.
func liftFresh(c *ops.Call) ([]any, error) { return one(c.Tensor("self")), nil }

// liftFreshCopy is aten::lift_fresh_copy: a contiguous copy of self, how
// exported programs materialize tensor constants.
func liftFreshCopy(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	if x.IsMeta() {
		return one(x.Meta()), nil
	}
	return one(x.Contiguous().Clone()), nil
}

// narrowKernel is aten::narrow (and narrow.Tensor, start a 0-d integer
// tensor): length elements of dim from start (negative start counts from
// the end), as a slice view.
func narrowKernel(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	var start int64
	switch v := c.Arg("start").(type) {
	case *tensor.Tensor:
		if v.Dim() != 0 || v.DType().IsFloat() || v.DType() == tensor.Bool {
			return nil, c.Errorf("start", "start must be an 0-dim integral Tensor.")
		}
		if v.IsMeta() {
			return dataDependentMeta(c)
		}
		start = v.Int64s()[0]
	default:
		start = c.Int("start")
	}
	length := c.Int("length")
	if self.Dim() == 0 {
		return nil, c.Errorf("self", "narrow() cannot be applied to a 0-dim tensor.")
	}
	if length < 0 {
		return nil, c.Errorf("length", "narrow(): length must be non-negative.")
	}
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	size := int64(self.Size(d))
	if start < -size || start > size {
		return nil, c.Errorf("start", "start out of range (expected to be in range of [%d, %d], but got %d)", -size, size, start)
	}
	if start < 0 {
		start += size
	}
	if start > size-length {
		return nil, c.Errorf("length", "start (%d) + length (%d) exceeds dimension size (%d).", start, length, size)
	}
	return delegate(c, "aten::slice.Tensor", []any{self, int64(d), start, start + length, int64(1)}, nil)
}

// unbind is aten::unbind.int: the slices of self along dim, as views.
func unbind(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if self.Dim() == 0 {
		return nil, c.Errorf("self", "Dimension specified as 0 but tensor has no dimensions")
	}
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	out := make([]*tensor.Tensor, self.Size(d))
	for i := range out {
		out[i] = tensor.Must(self.Select(d, i))
	}
	return []any{out}, nil
}

// chunk is aten::chunk: split into chunks parts of ⌈size/chunks⌉ along
// dim (fewer when the size runs out).
func chunk(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	chunks := c.Int("chunks")
	if self.Dim() == 0 {
		return nil, c.Errorf("self", "chunk expects at least a 1-dimensional tensor")
	}
	if chunks <= 0 {
		return nil, c.Errorf("chunks", "chunk expects `chunks` to be greater than 0, got: %d", chunks)
	}
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	size := int64(self.Size(d))
	split := (size + chunks - 1) / chunks
	if split == 0 && size == 0 {
		sizes := make([]int64, chunks)
		return delegate(c, "aten::split_with_sizes", []any{self, sizes, int64(d)}, nil)
	}
	return delegate(c, "aten::split.Tensor", []any{self, split, int64(d)}, nil)
}

// splitSizes is aten::split.sizes: split_with_sizes.
func splitSizes(c *ops.Call) ([]any, error) {
	return delegate(c, "aten::split_with_sizes", []any{c.Tensor("self"), c.Ints("split_size"), c.Int("dim")}, nil)
}

// stack is aten::stack: the tensors, all of one shape, joined along a new
// dimension dim.
func stack(c *ops.Call) ([]any, error) {
	ts := c.Tensors("tensors")
	if len(ts) == 0 {
		return nil, c.Errorf("tensors", "stack expects a non-empty TensorList")
	}
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), ts[0].Dim()+1)
	if err != nil {
		return nil, err
	}
	us := make([]*tensor.Tensor, len(ts))
	for i, t := range ts {
		if !slices.Equal(t.Shape(), ts[0].Shape()) {
			return nil, c.Errorf("tensors", "stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %d", shapeString(ts[0].Shape()), shapeString(t.Shape()), i)
		}
		us[i] = tensor.Must(t.Unsqueeze(d))
	}
	return delegate(c, "aten::cat", []any{us, int64(d)}, nil)
}

// atLeast returns t with leading dimensions of size 1 up to rank n.
func atLeast(t *tensor.Tensor, n int) *tensor.Tensor {
	for t.Dim() < n {
		if n == 2 && t.Dim() == 1 {
			return tensor.Must(t.Unsqueeze(0))
		}
		t = tensor.Must(t.Unsqueeze(0))
	}
	return t
}

// hstack is aten::hstack: cat along dim 1, or 0 for 1-d tensors (0-d
// ones become 1-d).
func hstack(c *ops.Call) ([]any, error) {
	ts := c.Tensors("tensors")
	if len(ts) == 0 {
		return nil, c.Errorf("tensors", "hstack expects a non-empty TensorList")
	}
	us := make([]*tensor.Tensor, len(ts))
	for i, t := range ts {
		us[i] = atLeast(t, 1)
	}
	dim := int64(1)
	if us[0].Dim() == 1 {
		dim = 0
	}
	return delegate(c, "aten::cat", []any{us, dim}, nil)
}

// vstack is aten::vstack: cat along dim 0 of the tensors made at least
// 2-d.
func vstack(c *ops.Call) ([]any, error) {
	ts := c.Tensors("tensors")
	if len(ts) == 0 {
		return nil, c.Errorf("tensors", "vstack expects a non-empty TensorList")
	}
	us := make([]*tensor.Tensor, len(ts))
	for i, t := range ts {
		us[i] = atLeast(t, 2)
	}
	return delegate(c, "aten::cat", []any{us, int64(0)}, nil)
}

// unflatten is aten::unflatten.int: dimension dim viewed as sizes (one
// may be -1).
func unflatten(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	sizes := c.Ints("sizes")
	if len(sizes) == 0 {
		return nil, c.Errorf("sizes", "unflatten: sizes must be non-empty")
	}
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	shape := []int64{}
	for i, s := range self.Shape() {
		if i == d {
			shape = append(shape, sizes...)
			continue
		}
		shape = append(shape, int64(s))
	}
	return delegate(c, "aten::view", []any{self, shape}, nil)
}

// broadcastTo is aten::broadcast_to: expand.
func broadcastTo(c *ops.Call) ([]any, error) {
	return delegate(c, "aten::expand", []any{c.Tensor("self"), c.Ints("size")}, nil)
}

// movedim is aten::movedim.intlist and .int (and moveaxis): the
// dimensions in source moved to the positions in destination, the others
// keeping their order.
func movedim(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	var src, dst []int64
	if v, ok := c.Arg("source").([]int64); ok {
		src, dst = v, c.Ints("destination")
	} else {
		src, dst = []int64{c.Int("source")}, []int64{c.Int("destination")}
	}
	if len(src) != len(dst) {
		return nil, c.Errorf("destination", "movedim: Invalid source or destination dims: source (%v dims) should contain the same number of dims as destination (%v dims)", fmtInts(src), fmtInts(dst))
	}
	n := self.Dim()
	perm := make([]int, max(n, 1))
	for i := range perm {
		perm[i] = -1
	}
	used := make([]bool, max(n, 1))
	for i := range src {
		s, err := wrapReduceDim(c, "source", src[i], n)
		if err != nil {
			return nil, err
		}
		d, err := wrapReduceDim(c, "destination", dst[i], n)
		if err != nil {
			return nil, err
		}
		if perm[d] != -1 || used[s] {
			return nil, c.Errorf("source", "movedim: repeated dim in `source` or `destination`")
		}
		perm[d], used[s] = s, true
	}
	next := 0
	for i := range perm {
		if perm[i] != -1 {
			continue
		}
		for used[next] {
			next++
		}
		perm[i], used[next] = next, true
	}
	if n == 0 {
		return one(self), nil
	}
	p := make([]int64, n)
	for i, v := range perm {
		p[i] = int64(v)
	}
	return delegate(c, "aten::permute", []any{self, p}, nil)
}

// swapaxes is aten::swapaxes (and swapdims): transpose.
func swapaxes(c *ops.Call) ([]any, error) {
	names := []string{"axis0", "axis1"}
	if !hasArg(c, "axis0") {
		names = []string{"dim0", "dim1"}
	}
	return delegate(c, "aten::transpose.int", []any{c.Tensor("self"), c.Int(names[0]), c.Int(names[1])}, nil)
}

// tile is aten::tile: repeat, with dims padded with leading ones to
// self's rank.
func tile(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dims := c.Ints("dims")
	for len(dims) < self.Dim() {
		dims = append([]int64{1}, dims...)
	}
	return delegate(c, "aten::repeat", []any{self, dims}, nil)
}

// repeatIndex returns the indices that repeat index i repeats[i] times.
func repeatIndex(c *ops.Call, arg string, repeats []int64) ([]int64, error) {
	var idx []int64
	for i, r := range repeats {
		if r < 0 {
			return nil, c.Errorf(arg, "repeats can not be negative")
		}
		if len(idx)+int(r) > tensor.MaxElements {
			return nil, c.Errorf(arg, "repeat_interleave of %d elements is too large", len(idx)+int(r))
		}
		for range r {
			idx = append(idx, int64(i))
		}
	}
	return idx, nil
}

// repeatsOf reads the repeats argument of repeat_interleave: an int, or a
// 0-d or 1-d integer tensor, expanded to n entries.
func repeatsOf(c *ops.Call, n int) ([]int64, error) {
	var reps []int64
	switch v := c.Arg("repeats").(type) {
	case int64:
		reps = []int64{v}
	case *tensor.Tensor:
		if v.Dim() > 1 {
			return nil, c.Errorf("repeats", "repeats must be 0-dim or 1-dim tensor")
		}
		if v.DType().IsFloat() || v.DType() == tensor.Bool {
			return nil, c.Errorf("repeats", "repeats has to be Long or Int tensor")
		}
		reps = v.Int64s()
	}
	if len(reps) == 1 && n != 1 {
		r := reps[0]
		reps = make([]int64, n)
		for i := range reps {
			reps[i] = r
		}
	}
	if len(reps) != n {
		return nil, c.Errorf("repeats", "repeats must have the same size as input along dim, but got repeats.size(0) = %d and input.size(%d) = %d", len(reps), 0, n)
	}
	return reps, nil
}

// repeatInterleave is aten::repeat_interleave.self_int and .self_Tensor:
// each slice of self along dim (the flattened self when dim is None)
// repeated repeats times in place.
func repeatInterleave(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	x, d := self, 0
	if c.IsNone("dim") {
		x = tensor.Must(self.Reshape(self.Numel()))
	} else {
		nd, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
		if err != nil {
			return nil, err
		}
		d = nd
		if x.Dim() == 0 {
			x = tensor.Must(x.Reshape(1))
		}
	}
	if t, ok := c.Arg("repeats").(*tensor.Tensor); ok && t.IsMeta() {
		return dataDependentMeta(c)
	}
	reps, err := repeatsOf(c, x.Size(d))
	if err != nil {
		return nil, err
	}
	idx, err := repeatIndex(c, "repeats", reps)
	if err != nil {
		return nil, err
	}
	return delegate(c, "aten::index_select", []any{x, int64(d), tensor.Must(tensor.FromInt64s(tensor.Int64, idx, len(idx)))}, nil)
}

// repeatInterleaveTensor is aten::repeat_interleave.Tensor: i repeated
// repeats[i] times, for the 1-d integer tensor repeats, in its dtype.
func repeatInterleaveTensor(c *ops.Call) ([]any, error) {
	r := c.Tensor("repeats")
	if r.Dim() != 1 {
		return nil, c.Errorf("repeats", "repeat_interleave only accept 1D vector as repeat")
	}
	if r.DType() != tensor.Int64 && r.DType() != tensor.Int32 {
		return nil, c.Errorf("repeats", "repeats has to be Long or Int tensor")
	}
	if r.IsMeta() {
		return dataDependentMeta(c)
	}
	idx, err := repeatIndex(c, "repeats", r.Int64s())
	if err != nil {
		return nil, err
	}
	return oneOrErr(tensor.FromInt64s(r.DType(), idx, len(idx)))
}

// registerTensorShapeDiag registers the diagonal and scatter kernels
// below; registerTensorShape calls it.
func registerTensorShapeDiag() {
	registerBoth("aten::diag", diag)
	registerBoth("aten::diag_embed", diagEmbed)
	registerBoth("aten::diagflat", diagflat)
	registerBoth("aten::diagonal_scatter", diagonalScatter)
	registerBoth("aten::as_strided_scatter", asStridedScatter)
}

// diag is aten::diag: the matrix with 1-d self on its diagonal-th
// diagonal, or a copy of the diagonal-th diagonal of 2-d self.
func diag(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	p := &chain{c: c, arg: "self"}
	switch self.Dim() {
	case 1:
		return p.result(p.call("aten::diag_embed", self, c.Int("diagonal"), 0, 1))
	case 2:
		return p.result(p.call("aten::clone", p.call("aten::diagonal", self, c.Int("diagonal"), 0, 1)))
	}
	return nil, c.Errorf("self", "diag(): Supports 1D or 2D tensors. Got %dD", self.Dim())
}

// diagEmbed is aten::diag_embed: zeros with one more dimension than self,
// whose offset diagonal over dim1 and dim2 holds the last dimension of
// self.
func diagEmbed(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	rank := self.Dim() + 1
	d1, err := wrapDim(c, "dim1", c.Int("dim1"), rank)
	if err != nil {
		return nil, err
	}
	d2, err := wrapDim(c, "dim2", c.Int("dim2"), rank)
	if err != nil {
		return nil, err
	}
	if d1 == d2 {
		return nil, c.Errorf("dim2", "diagonal dimensions cannot be identical %d, %d", c.Int("dim1"), c.Int("dim2"))
	}
	off := c.Int("offset")
	n := int64(1)
	if self.Dim() > 0 {
		n = int64(self.Size(-1))
	}
	if off < 0 {
		n -= off
	} else {
		n += off
	}
	shape := int64s(self.Shape())
	if len(shape) > 0 {
		shape = shape[:len(shape)-1]
	}
	lo, hi := min(d1, d2), max(d1, d2)
	shape = append(shape[:lo], append([]int64{n}, shape[lo:]...)...)
	shape = append(shape[:hi], append([]int64{n}, shape[hi:]...)...)
	p := &chain{c: c, arg: "self"}
	z := p.callKw("aten::zeros", map[string]any{"dtype": self.DType()}, shape)
	if z != nil && self.IsMeta() {
		z = z.Meta()
	}
	return p.result(p.call("aten::diagonal_scatter", z, self, off, d1, d2))
}

// diagflat is aten::diagflat: diag of self flattened.
func diagflat(c *ops.Call) ([]any, error) {
	p := &chain{c: c, arg: "self"}
	return p.result(p.call("aten::diag_embed", p.call("aten::reshape", c.Tensor("self"), []int64{-1}), c.Int("offset"), 0, 1))
}

// scatterInto copies src into the view of a copy of self that view
// makes, checking their shapes as ATen's *_scatter operators do.
func scatterInto(c *ops.Call, view func(out *tensor.Tensor) (*tensor.Tensor, error)) ([]any, error) {
	self, src := c.Tensor("self"), c.Tensor("src")
	out := self.Clone()
	if self.IsMeta() {
		out = self.Meta()
	}
	v, err := view(out)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(v.Shape(), src.Shape()) {
		return nil, c.Errorf("src", "expected src to have a size equal to the slice of self. src size = %s, slice size = %s", shapeString(src.Shape()), shapeString(v.Shape()))
	}
	if !meta(self, src) {
		if err := v.CopyFrom(src.To(v.DType())); err != nil {
			return nil, c.Errorf("src", "%v", err)
		}
	}
	return one(out), nil
}

// diagonalScatter is aten::diagonal_scatter: a copy of self with src
// written into its diagonal (offset, dim1, dim2).
func diagonalScatter(c *ops.Call) ([]any, error) {
	return scatterInto(c, func(out *tensor.Tensor) (*tensor.Tensor, error) {
		r, err := delegate(c, "aten::diagonal", []any{out, c.Int("offset"), c.Int("dim1"), c.Int("dim2")}, nil)
		if err != nil {
			return nil, err
		}
		return r[0].(*tensor.Tensor), nil
	})
}

// asStridedScatter is aten::as_strided_scatter: a copy of self with src
// written into its as_strided(size, stride, storage_offset) view.
func asStridedScatter(c *ops.Call) ([]any, error) {
	return scatterInto(c, func(out *tensor.Tensor) (*tensor.Tensor, error) {
		args := []any{out, c.Ints("size"), c.Ints("stride")}
		if !c.IsNone("storage_offset") {
			args = append(args, c.Int("storage_offset"))
		}
		r, err := delegate(c, "aten::as_strided", args, nil)
		if err != nil {
			return nil, err
		}
		return r[0].(*tensor.Tensor), nil
	})
}
