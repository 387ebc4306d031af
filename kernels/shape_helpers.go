package kernels

import (
	"slices"
	"strings"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Shape helpers: the composite shape functions of ATen's TensorShape.cpp,
// TensorTransformations.cpp and LinearAlgebra.cpp that models call by
// name (atleast_Nd, broadcast_tensors, column_stack, dstack, the
// tensor_split family, the unsafe_ splits, the *_as forms, ravel,
// flipud/fliplr, rot90, meshgrid, cartesian_prod, combinations,
// block_diag, kron, channel_shuffle, native_channel_shuffle) and Tensor.unfold. Like ATen's, most compose
// registered operators (chain), so their meta functions come with them.

// registerShapeHelpers registers the kernels of shape_helpers.go.
func registerShapeHelpers() {
	registerBoth("aten::atleast_1d", atleast(1))
	registerBoth("aten::atleast_2d", atleast(2))
	registerBoth("aten::atleast_3d", atleast(3))
	registerBoth("aten::atleast_1d.Sequence", atleastSeq(1))
	registerBoth("aten::atleast_2d.Sequence", atleastSeq(2))
	registerBoth("aten::atleast_3d.Sequence", atleastSeq(3))
	registerBoth("aten::broadcast_tensors", broadcastTensors)
	registerBoth("aten::column_stack", columnStack)
	registerBoth("aten::dstack", dstack)
	registerBoth("aten::hsplit.int", splitAxis("hsplit", false))
	registerBoth("aten::hsplit.array", splitAxis("hsplit", true))
	registerBoth("aten::vsplit.int", splitAxis("vsplit", false))
	registerBoth("aten::vsplit.array", splitAxis("vsplit", true))
	registerBoth("aten::dsplit.int", splitAxis("dsplit", false))
	registerBoth("aten::dsplit.array", splitAxis("dsplit", true))
	registerBoth("aten::tensor_split.sections", tensorSplitSections)
	registerBoth("aten::tensor_split.indices", tensorSplitIndices)
	registerBoth("aten::tensor_split.tensor_indices_or_sections", tensorSplitTensor)
	registerBoth("aten::unsafe_chunk", forwardTo("aten::chunk"))
	registerBoth("aten::unsafe_split.Tensor", forwardTo("aten::split.Tensor"))
	registerBoth("aten::unsafe_split_with_sizes", forwardTo("aten::split_with_sizes"))
	registerBoth("aten::expand_as", sizedAs("aten::expand"))
	registerBoth("aten::reshape_as", sizedAs("aten::reshape"))
	registerBoth("aten::view_as", sizedAs("aten::view"))
	registerBoth("aten::type_as", typeAs)
	registerBoth("aten::ravel", ravel)
	registerBoth("aten::flipud", flipAxis(0))
	registerBoth("aten::fliplr", flipAxis(1))
	registerBoth("aten::rot90", rot90)
	registerBoth("aten::meshgrid", meshgrid)
	registerBoth("aten::meshgrid.indexing", meshgrid)
	registerBoth("aten::cartesian_prod", cartesianProd)
	registerBoth("aten::combinations", combinations)
	registerBoth("aten::block_diag", blockDiag)
	registerBoth("aten::kron", kron)
	registerBoth("aten::unfold", unfold)
	registerBoth("aten::mT", matrixT("tensor.mT is only supported on matrices or batches of matrices. Got %d-D tensor.", false))
	registerBoth("aten::mH", matrixT("tensor.mH is only supported on matrices or batches of matrices. Got %d-D tensor.", false))
	registerBoth("aten::adjoint", matrixT("tensor.adjoint() is only supported on matrices or batches of matrices. Got %d-D tensor.", false))
	registerBoth("aten::matrix_H", matrixT("tensor.H is only supported on matrices (2-D tensors). Got %d-D tensor.", true))
	registerBoth("aten::numpy_T", numpyT)
	registerBoth("aten::positive", positive)
	registerBoth("aten::channel_shuffle", channelShuffle)
	registerBoth("aten::native_channel_shuffle", nativeChannelShuffle)
	registerBoth("aten::sum_to_size", sumToSize)
	register("aten::nonzero_numpy", nonzeroNumpy, dataDependentMeta)
}

// matrixT is aten::mT, mH, adjoint and matrix_H: the last two dimensions
// transposed (gofx has no complex dtypes, so the conjugate is the tensor
// itself); matrix_H takes exactly two dimensions, the others at least
// two.
func matrixT(msg string, exactly2 bool) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		self := c.Tensor("self")
		if self.Dim() < 2 || (exactly2 && self.Dim() != 2) {
			return nil, c.Errorf("self", msg, self.Dim())
		}
		return oneOrErr(self.Transpose(-2, -1))
	}
}

// numpyT is aten::numpy_T (Tensor.T): the dimensions reversed.
func numpyT(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	perm := make([]int, self.Dim())
	for i := range perm {
		perm[i] = self.Dim() - 1 - i
	}
	return oneOrErr(self.Permute(perm...))
}

// positive is aten::positive: self itself; bool tensors are refused.
func positive(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if self.DType() == tensor.Bool {
		return nil, c.Errorf("self", "The `+` operator, on a bool tensor is not supported.")
	}
	return one(self), nil
}

// channelShuffle is aten::channel_shuffle: the channels (dim 1), seen as
// groups x (channels/groups), transposed to (channels/groups) x groups.
func channelShuffle(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	g := c.Int("groups")
	if self.Dim() <= 2 {
		return nil, c.Errorf("self", "channel_shuffle expects input with > 2 dims, but got input with sizes %s", shapeString(self.Shape()))
	}
	if g <= 0 {
		return nil, c.Errorf("groups", "Number of groups to divide channels in must be positive. Value of groups:%d", g)
	}
	ch := int64(self.Size(1))
	if ch%g != 0 {
		return nil, c.Errorf("groups", "Number of channels must be divisible by groups. Got %d channels and %d groups.", ch, g)
	}
	shape := int64s(self.Shape())
	split := append([]int64{shape[0], g, ch / g}, shape[2:]...)
	p := &chain{c: c, arg: "self"}
	x := p.call("aten::transpose.int", p.call("aten::reshape", self, split), 1, 2)
	return p.result(p.call("aten::clone", p.call("aten::reshape", x, shape)))
}

// nativeChannelShuffle is aten::native_channel_shuffle, the kernel
// channel_shuffle calls after its checks, which it does not make itself.
// ATen's CPU kernel walks the output's batch x channel rows in order and
// copies into row i the input row (n, g*(C/groups) + oc), where (n, oc, g)
// counts i in the mixed radix batch x C/groups x groups, wrapping to 0 past
// its end: when groups divides C that is channel_shuffle; when it does not,
// the last C mod groups rows of a batch repeat the walk from its start
// (PyTorch 2.6 gives the same). A 1-d input fails on its missing dim 1
// as self.size(1) does; groups outside [1, C] is an error here, where
// PyTorch divides by zero (groups 0, or more than C) or reads out of range
// (negative groups).
func nativeChannelShuffle(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	g := c.Int("groups")
	if self.Dim() < 2 {
		if _, err := wrapDim(c, "self", 1, self.Dim()); err != nil {
			return nil, err
		}
	}
	if self.Numel() == 0 {
		return one(self), nil
	}
	shape := self.Shape()
	nb, ch := shape[0], shape[1]
	if g < 1 || g > int64(ch) {
		return nil, c.Errorf("groups", "native_channel_shuffle: groups must be between 1 and the %d channels, got %d (PyTorch's CPU kernel divides by zero or reads out of range there)", ch, g)
	}
	cpg := ch / int(g)
	period := nb * cpg * int(g)
	idx := make([]int64, nb*ch)
	for i := range idx {
		k := i % period
		gi := k % int(g)
		k /= int(g)
		oc := k % cpg
		n := k / cpg
		idx[i] = int64(n*ch + gi*cpg + oc)
	}
	p := &chain{c: c, arg: "self"}
	rows := p.call("aten::reshape", self, []int64{int64(nb * ch), -1})
	out := p.call("aten::index_select", rows, 0, tensor.Must(tensor.FromSlice(idx, len(idx))))
	return p.result(p.call("aten::reshape", out, int64s(shape)))
}

// sumToSize is aten::sum_to_size: self summed over the leading and the
// size-1 dimensions of size so that its shape becomes size, which must be
// expandable to self's shape.
func sumToSize(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	size := c.Ints("size")
	shape := self.Shape()
	lead := len(shape) - len(size)
	expandable := lead >= 0
	for i := 0; expandable && i < len(size); i++ {
		if size[i] != 1 && size[i] != int64(shape[lead+i]) {
			expandable = false
		}
	}
	if !expandable {
		return nil, c.Errorf("size", "size {%s} is not expandable to size {%s}.", shapeString(ints(size)), shapeString(shape))
	}
	var dims []int64
	for i := range shape {
		if i < lead || (size[i-lead] == 1 && shape[i] != 1) {
			dims = append(dims, int64(i))
		}
	}
	p := &chain{c: c, arg: "self"}
	if len(dims) == 0 {
		return one(self), nil
	}
	r := p.call("aten::sum.dim_IntList", self, dims, true)
	if lead > 0 {
		r = p.call("aten::reshape", r, size)
	}
	return p.result(r)
}

// nonzeroNumpy is aten::nonzero_numpy: the columns of nonzero(self), one
// index tensor per dimension.
func nonzeroNumpy(c *ops.Call) ([]any, error) {
	p := &chain{c: c, arg: "self"}
	nz := p.call("aten::nonzero", c.Tensor("self"))
	if p.err != nil {
		return nil, p.err
	}
	out := make([]*tensor.Tensor, nz.Size(1))
	for i := range out {
		out[i] = p.call("aten::clone", p.call("aten::select.int", nz, 1, i))
	}
	if p.err != nil {
		return nil, p.err
	}
	return []any{out}, nil
}

// forwardTo returns a kernel calling the operator name with the same
// arguments (the unsafe_ splits compute what their safe forms do).
func forwardTo(name string) ops.Kernel { return forward(op(name)) }

// atleastOne reshapes t to at least n dimensions as atleast_Nd does.
func atleastOne(p *chain, t *tensor.Tensor, n int) *tensor.Tensor {
	switch {
	case t.Dim() >= n:
		return t
	case t.Dim() == 0:
		shape := make([]int64, n)
		for i := range shape {
			shape[i] = 1
		}
		return p.call("aten::reshape", t, shape)
	case n == 2 || (n == 3 && t.Dim() == 1):
		t = p.call("aten::unsqueeze", t, 0)
		if n == 3 && t != nil {
			t = p.call("aten::unsqueeze", t, -1)
		}
		return t
	}
	return p.call("aten::unsqueeze", t, -1) // 2-d to 3-d
}

// atleast is aten::atleast_1d, _2d and _3d.
func atleast(n int) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		p := &chain{c: c, arg: "self"}
		return p.result(atleastOne(p, c.Tensor("self"), n))
	}
}

// atleastSeq is the .Sequence overloads of atleast_Nd.
func atleastSeq(n int) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		p := &chain{c: c, arg: "tensors"}
		var out []*tensor.Tensor
		for _, t := range c.Tensors("tensors") {
			out = append(out, atleastOne(p, t, n))
		}
		if p.err != nil {
			return nil, p.err
		}
		return []any{out}, nil
	}
}

// broadcastTensors is aten::broadcast_tensors: every tensor expanded to
// their common shape.
func broadcastTensors(c *ops.Call) ([]any, error) {
	ts := c.Tensors("tensors")
	shapes := make([][]int, len(ts))
	for i, t := range ts {
		shapes[i] = t.Shape()
	}
	shape, err := ops.BroadcastShapes(shapes...)
	if err != nil {
		// ATen's infer_size capitalizes its message.
		msg := err.Error()
		return nil, c.Errorf("tensors", "%s", strings.ToUpper(msg[:1])+msg[1:])
	}
	p := &chain{c: c, arg: "tensors"}
	out := make([]*tensor.Tensor, len(ts))
	for i, t := range ts {
		out[i] = p.call("aten::expand", t, int64s(shape))
	}
	if p.err != nil {
		return nil, p.err
	}
	return []any{out}, nil
}

// columnStack is aten::column_stack: 0-d and 1-d tensors as columns, then
// hstack.
func columnStack(c *ops.Call) ([]any, error) {
	ts := c.Tensors("tensors")
	if len(ts) == 0 {
		return nil, c.Errorf("tensors", "column_stack expects a non-empty TensorList")
	}
	p := &chain{c: c, arg: "tensors"}
	cols := make([]*tensor.Tensor, len(ts))
	for i, t := range ts {
		cols[i] = t
		if t.Dim() <= 1 {
			cols[i] = p.call("aten::reshape", t, []int64{int64(t.Numel()), 1})
		}
	}
	return p.result(p.call("aten::hstack", cols))
}

// dstack is aten::dstack: atleast_3d of each, concatenated along dim 2.
func dstack(c *ops.Call) ([]any, error) {
	ts := c.Tensors("tensors")
	if len(ts) == 0 {
		return nil, c.Errorf("tensors", "dstack expects a non-empty TensorList")
	}
	p := &chain{c: c, arg: "tensors"}
	out := make([]*tensor.Tensor, len(ts))
	for i, t := range ts {
		out[i] = atleastOne(p, t, 3)
	}
	return p.result(p.call("aten::cat", out, 2))
}

// splitAxis is aten::hsplit, vsplit and dsplit (.int sections or .array
// indices): tensor_split along dimension 1 (0 for a 1-d hsplit), 0 or 2.
func splitAxis(name string, array bool) ops.Kernel {
	need, dim := map[string]int{"hsplit": 1, "vsplit": 2, "dsplit": 3}[name], map[string]int{"hsplit": 1, "vsplit": 0, "dsplit": 2}[name]
	return func(c *ops.Call) ([]any, error) {
		self := c.Tensor("self")
		if self.Dim() < need {
			return nil, c.Errorf("self", "torch.%s requires a tensor with at least %d dimension, but got a tensor with %d dimensions!", name, need, self.Dim())
		}
		d := dim
		if name == "hsplit" && self.Dim() == 1 {
			d = 0
		}
		if array {
			return delegate(c, "aten::tensor_split.indices", []any{self, c.Ints("indices"), d}, nil)
		}
		s := c.Int("sections")
		if s != 0 && int64(self.Size(d))%s == 0 {
			return delegate(c, "aten::tensor_split.sections", []any{self, s, d}, nil)
		}
		return nil, c.Errorf("sections", "torch.%s attempted to split along dimension %d, but the size of the dimension %d is not divisible by the split_size %d!", name, d, self.Size(d), s)
	}
}

// tensorSplitCheck checks self and dim for the tensor_split overloads.
func tensorSplitCheck(c *ops.Call) (*tensor.Tensor, int, error) {
	self := c.Tensor("self")
	if self.Dim() == 0 {
		return nil, 0, c.Errorf("self", "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
	}
	d, err := wrapDim(c, "dim", c.Int("dim"), self.Dim())
	return self, d, err
}

// sliceList returns the slices [bounds[i], bounds[i+1]) of self along d.
func sliceList(c *ops.Call, self *tensor.Tensor, d int, bounds []int64) ([]any, error) {
	p := &chain{c: c, arg: "self"}
	out := make([]*tensor.Tensor, 0, len(bounds)-1)
	for i := 0; i+1 < len(bounds); i++ {
		out = append(out, p.call("aten::slice.Tensor", self, d, bounds[i], bounds[i+1], 1))
	}
	if p.err != nil {
		return nil, p.err
	}
	return []any{out}, nil
}

// tensorSplitSections is aten::tensor_split.sections: sections nearly
// equal parts along dim, the first size % sections one longer.
func tensorSplitSections(c *ops.Call) ([]any, error) {
	self, d, err := tensorSplitCheck(c)
	if err != nil {
		return nil, err
	}
	return splitSections(c, self, d, c.Int("sections"))
}

func splitSections(c *ops.Call, self *tensor.Tensor, d int, s int64) ([]any, error) {
	if s <= 0 {
		return nil, c.Errorf("sections", "number of sections must be larger than 0, got %d", s)
	}
	n := int64(self.Size(d))
	size, extra := n/s, n%s
	bounds := []int64{0}
	for i := range s {
		step := size
		if i < extra {
			step++
		}
		bounds = append(bounds, bounds[len(bounds)-1]+step)
	}
	return sliceList(c, self, d, bounds)
}

// tensorSplitIndices is aten::tensor_split.indices: the parts between
// the indices along dim (slices, so indices past the end give empty
// parts).
func tensorSplitIndices(c *ops.Call) ([]any, error) {
	self, d, err := tensorSplitCheck(c)
	if err != nil {
		return nil, err
	}
	return splitIndices(c, self, d, c.Ints("indices"))
}

func splitIndices(c *ops.Call, self *tensor.Tensor, d int, idx []int64) ([]any, error) {
	bounds := append([]int64{0}, idx...)
	bounds = append(bounds, int64(self.Size(d)))
	p := &chain{c: c, arg: "self"}
	out := make([]*tensor.Tensor, 0, len(bounds)-1)
	for i := 0; i+1 < len(bounds); i++ {
		start, end := bounds[i], bounds[i+1]
		// A later index before an earlier one gives an empty part.
		out = append(out, p.call("aten::slice.Tensor", self, d, start, max(start, end), 1))
	}
	if p.err != nil {
		return nil, p.err
	}
	return []any{out}, nil
}

// tensorSplitTensor is aten::tensor_split.tensor_indices_or_sections: a
// 0-d int64 tensor gives sections, a 1-d one indices.
func tensorSplitTensor(c *ops.Call) ([]any, error) {
	self, d, err := tensorSplitCheck(c)
	if err != nil {
		return nil, err
	}
	t := c.Tensor("tensor_indices_or_sections")
	if t.DType() != tensor.Int64 {
		return nil, c.Errorf("tensor_indices_or_sections", "tensor_split expected tensor_indices_or_sections to have dtype of long, but got %s", scalarTypeName(t.DType()))
	}
	if t.Dim() > 1 {
		return nil, c.Errorf("tensor_indices_or_sections", "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional tensor, but got a tensor with %d dims", t.Dim())
	}
	if t.IsMeta() {
		return dataDependentMeta(c)
	}
	if t.Dim() == 0 {
		return splitSections(c, self, d, t.Int64s()[0])
	}
	return splitIndices(c, self, d, t.Int64s())
}

// sizedAs returns the kernel of expand_as, reshape_as or view_as: the
// operator name with other's sizes.
func sizedAs(name string) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		return delegate(c, name, []any{c.Tensor("self"), int64s(c.Tensor("other").Shape())}, nil)
	}
}

// typeAs is aten::type_as: self converted to other's dtype (self itself
// when they match).
func typeAs(c *ops.Call) ([]any, error) {
	self, other := c.Tensor("self"), c.Tensor("other")
	if self.DType() == other.DType() {
		return one(self), nil
	}
	return delegate(c, "aten::_to_copy", []any{self}, map[string]any{"dtype": other.DType()})
}

// ravel is aten::ravel: reshape(-1).
func ravel(c *ops.Call) ([]any, error) {
	return delegate(c, "aten::reshape", []any{c.Tensor("self"), []int64{-1}}, nil)
}

// flipAxis is aten::flipud (d=0) and aten::fliplr (d=1).
func flipAxis(d int) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		self := c.Tensor("self")
		if self.Dim() < d+1 {
			return nil, c.Errorf("self", "Input must be >= %d-d.", d+1)
		}
		return delegate(c, "aten::flip", []any{self, []int64{int64(d)}}, nil)
	}
}

// rot90 is aten::rot90: self rotated k quarter turns in the plane of
// dims, from the first towards the second.
func rot90(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dims := c.Ints("dims")
	if len(dims) != 2 {
		return nil, c.Errorf("dims", "expected total rotation dims == 2, but got dims = %d", len(dims))
	}
	n := int64(self.Dim())
	if n < 2 {
		return nil, c.Errorf("self", "expected total dims >= 2, but got total dims = %d", n)
	}
	if diff := dims[0] - dims[1]; diff == 0 || diff == n || diff == -n {
		return nil, c.Errorf("dims", "expected rotation dims to be different, but got dim0 = %d and dim1 = %d", dims[0], dims[1])
	}
	if dims[0] >= n || dims[0] < -n {
		return nil, c.Errorf("dims", "Rotation dim0 out of range, dim0 = %d", dims[0])
	}
	if dims[1] >= n || dims[1] < -n {
		return nil, c.Errorf("dims", "Rotation dim1 out of range, dim1 = %d", dims[1])
	}
	k := (c.Int("k")%4 + 4) % 4
	p := &chain{c: c, arg: "self"}
	switch k {
	case 1:
		return p.result(p.call("aten::transpose.int", p.call("aten::flip", self, []int64{dims[1]}), dims[0], dims[1]))
	case 2:
		return p.result(p.call("aten::flip", self, dims))
	case 3:
		return p.result(p.call("aten::transpose.int", p.call("aten::flip", self, []int64{dims[0]}), dims[0], dims[1]))
	}
	return p.result(p.call("aten::clone", self))
}

// meshgrid is aten::meshgrid and meshgrid.indexing ("ij", the default,
// or "xy", which swaps the roles of the first two tensors).
func meshgrid(c *ops.Call) ([]any, error) {
	ts := slices.Clone(c.Tensors("tensors"))
	indexing := "ij"
	if argIf(c, "indexing") != nil {
		indexing = c.Str("indexing")
	}
	if len(ts) == 0 {
		return nil, c.Errorf("tensors", "meshgrid expects a non-empty TensorList")
	}
	for _, t := range ts {
		if t.Dim() > 1 {
			return nil, c.Errorf("tensors", "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a %d-d tensor", t.Dim())
		}
		if t.DType() != ts[0].DType() {
			return nil, c.Errorf("tensors", "meshgrid expects all tensors to have the same dtype")
		}
	}
	if indexing != "ij" && indexing != "xy" {
		return nil, c.Errorf("indexing", `torch.meshgrid: indexing must be one of "xy" or "ij", but received: %s`, indexing)
	}
	swap := indexing == "xy" && len(ts) >= 2
	if swap {
		ts[0], ts[1] = ts[1], ts[0]
	}
	shape := make([]int64, len(ts))
	for i, t := range ts {
		shape[i] = int64(t.Numel())
	}
	p := &chain{c: c, arg: "tensors"}
	grids := make([]*tensor.Tensor, len(ts))
	for i, t := range ts {
		view := make([]int64, len(ts))
		for j := range view {
			view[j] = 1
		}
		view[i] = -1
		grids[i] = p.call("aten::expand", p.call("aten::view", t, view), shape)
	}
	if p.err != nil {
		return nil, p.err
	}
	if swap {
		grids[0], grids[1] = grids[1], grids[0]
	}
	return []any{grids}, nil
}

// check1D is ATen's check of cartesian_prod and combinations.
func check1D(c *ops.Call, arg string, t *tensor.Tensor) error {
	if t.Dim() != 1 {
		return c.Errorf(arg, "Expect a 1D vector, but got shape %s", shapeString(t.Shape()))
	}
	return nil
}

// cartesianProd is aten::cartesian_prod: every combination of one element
// from each 1-d tensor, as rows (a single tensor is returned as is).
func cartesianProd(c *ops.Call) ([]any, error) {
	ts := c.Tensors("tensors")
	for _, t := range ts {
		if err := check1D(c, "tensors", t); err != nil {
			return nil, err
		}
	}
	if len(ts) == 1 {
		return one(ts[0]), nil
	}
	p := &chain{c: c, arg: "tensors"}
	grids := p.callsKw("aten::meshgrid.indexing", map[string]any{"indexing": "ij"}, ts)
	if p.err != nil {
		return nil, p.err
	}
	var flat []*tensor.Tensor
	for _, g := range grids[0].([]*tensor.Tensor) {
		flat = append(flat, p.call("aten::reshape", g, []int64{-1}))
	}
	return p.result(p.call("aten::stack", flat, 1))
}

// combinations is aten::combinations: the length-r combinations of the
// elements of 1-d self (with_replacement: with repetition), as rows in
// lexicographic order of positions.
func combinations(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if err := check1D(c, "self", self); err != nil {
		return nil, err
	}
	r := c.Int("r")
	if r < 0 {
		return nil, c.Errorf("r", "Expect a non-negative number, but got %d", r)
	}
	if r == 0 {
		return oneOrErr(empty(self.IsMeta(), self.DType(), []int{0}))
	}
	n := self.Size(0)
	var rows [][]int
	cur := make([]int, r)
	var rec func(pos, from int)
	rec = func(pos, from int) {
		if pos == int(r) {
			rows = append(rows, slices.Clone(cur))
			return
		}
		for i := from; i < n; i++ {
			cur[pos] = i
			if c.Bool("with_replacement") {
				rec(pos+1, i)
			} else {
				rec(pos+1, i+1)
			}
		}
	}
	rec(0, 0)
	if self.IsMeta() {
		return oneOrErr(tensor.NewMeta(self.DType(), len(rows), int(r)))
	}
	idx := make([]int, 0, len(rows)*int(r))
	for _, row := range rows {
		idx = append(idx, row...)
	}
	return one(elemsOf(self).gather(idx).tensor(len(rows), int(r))), nil
}

// blockDiag is aten::block_diag: the tensors (0-d as 1x1, 1-d as one row)
// along the diagonal of a matrix of their promoted dtype, zeros
// elsewhere.
func blockDiag(c *ops.Call) ([]any, error) {
	ts := c.Tensors("tensors")
	var operands []any
	rows, cols := 0, 0
	for i, t := range ts {
		if t.Dim() > 2 {
			return nil, c.Errorf("tensors", "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input %d has %d dimensions", i, t.Dim())
		}
		operands = append(operands, t)
		h, w := 1, 1
		switch t.Dim() {
		case 1:
			w = t.Size(0)
		case 2:
			h, w = t.Size(0), t.Size(1)
		}
		rows, cols = rows+h, cols+w
	}
	dt := tensor.Float32
	if len(ts) > 0 {
		var err error
		if dt, err = ops.ResultType(operands...); err != nil {
			return nil, c.Errorf("tensors", "%v", err)
		}
	}
	isMeta := slices.ContainsFunc(ts, func(t *tensor.Tensor) bool { return t.IsMeta() })
	out, err := empty(isMeta, dt, []int{rows, cols})
	if err != nil || isMeta {
		return oneOrErr(out, err)
	}
	r0, c0 := 0, 0
	for _, t := range ts {
		h, w := 1, 1
		switch t.Dim() {
		case 1:
			w = t.Size(0)
		case 2:
			h, w = t.Size(0), t.Size(1)
		}
		block := tensor.Must(tensor.Must(out.Narrow(0, r0, h)).Narrow(1, c0, w))
		if err := block.CopyFrom(tensor.Must(t.To(dt).Reshape(h, w))); err != nil {
			return nil, c.Errorf("tensors", "%v", err)
		}
		r0, c0 = r0+h, c0+w
	}
	return one(out), nil
}

// kron is aten::kron: the Kronecker product, both operands padded with
// leading size-1 dimensions to the same rank.
func kron(c *ops.Call) ([]any, error) {
	a, b := c.Tensor("self"), c.Tensor("other")
	n := max(a.Dim(), b.Dim())
	pad := func(s []int) []int {
		return append(slices.Repeat([]int{1}, n-len(s)), s...)
	}
	as, bs := pad(a.Shape()), pad(b.Shape())
	av, bv, res := make([]int64, 0, 2*n), make([]int64, 0, 2*n), make([]int64, n)
	for i := range n {
		av = append(av, int64(as[i]), 1)
		bv = append(bv, 1, int64(bs[i]))
		res[i] = int64(as[i] * bs[i])
	}
	p := &chain{c: c, arg: "other"}
	m := p.call("aten::mul.Tensor", p.call("aten::reshape", a, av), p.call("aten::reshape", b, bv))
	return p.result(p.call("aten::reshape", m, res))
}

// unfold is aten::unfold (Tensor.unfold): a view of every slice of size
// elements along dimension, step apart, as a new last dimension.
func unfold(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	d, err := wrapReduceDim(c, "dimension", c.Int("dimension"), self.Dim())
	if err != nil {
		return nil, err
	}
	size, step := c.Int("size"), c.Int("step")
	n, stride := 1, 1
	if self.Dim() > 0 {
		n, stride = self.Size(d), self.Strides()[d]
	}
	if size > int64(n) {
		return nil, c.Errorf("size", "maximum size for tensor at dimension %d is %d but size is %d", d, n, size)
	}
	if step <= 0 {
		return nil, c.Errorf("step", "step is %d but must be > 0", step)
	}
	if size < 0 {
		return nil, c.Errorf("size", "size is %d but must be >= 0", size)
	}
	shape, strides := self.Shape(), self.Strides()
	count := (int64(n)-size)/step + 1
	if self.Dim() > 0 {
		shape[d], strides[d] = int(count), stride*int(step)
	}
	shape, strides = append(shape, int(size)), append(strides, stride)
	return oneOrErr(self.AsStrided(shape, strides, self.Offset()))
}
