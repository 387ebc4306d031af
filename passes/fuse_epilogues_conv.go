package passes

import (
	"fmt"
	"slices"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/rewrite"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/tensor"
)

// convolutionArgs returns aten.convolution's nine arguments for the
// conv1d/conv2d/conv3d layer of match m (PyTorch 2.x's default IR), which
// FuseEpilogues' fused operators take, or an error saying why the layer
// is not what aten.convolution computes:
//
//   - the input must be batched (nd+2 dims, known from its val or the
//     layer's): convNd also takes an unbatched input, which aten.convolution
//     refuses;
//   - a bias of another dtype than the input is convNd's error, so the
//     dtypes must be equal where both are known;
//   - stride, padding and dilation are one size or nd sizes (ATen's
//     expand_param_if_needed), written out as nd sizes;
//   - padding "valid" is no padding; "same" needs stride 1 and a weight of
//     known spatial sizes whose dilation*(k-1) is even in every dim (ATen's
//     _convolution_mode pads an odd remainder on one side of the input
//     first, which aten.convolution cannot express).
//
// transposed is False and output_padding nd zeros, as convNd passes them.
func (f *fusedEdit) convolutionArgs(m *rewrite.Match) ([]node.Arg, error) {
	nd := f.spatial
	x := m.BoundNode("x")
	if x == nil {
		return nil, fmt.Errorf("input is not a tensor node")
	}
	xm, ok := argMeta(m, x)
	if !ok {
		xm, ok = argMeta(m, m.Node("conv"))
	}
	if !ok {
		return nil, fmt.Errorf("conv%dd: the input's rank is unknown (no val): conv%dd also takes an unbatched input, aten.convolution does not", nd, nd)
	}
	if len(xm.Shape) != nd+2 {
		return nil, fmt.Errorf("conv%dd: the input has %d dims, not %d: an unbatched input is conv%dd's alone", nd, len(xm.Shape), nd+2, nd)
	}
	b, _ := m.Binding("b")
	if bn, ok := b.(*node.Node); ok {
		if bm, ok := argMeta(m, bn); ok && bm.DType != xm.DType {
			return nil, fmt.Errorf("conv%dd: bias dtype %s differs from the input's %s (conv%dd's error)", nd, bm.DType, xm.DType, nd)
		}
	}
	stride, err := expandSizes(m, "stride", nd)
	if err != nil {
		return nil, err
	}
	dilation, err := expandSizes(m, "dilation", nd)
	if err != nil {
		return nil, err
	}
	var padding node.List
	if f.strPadding {
		if padding, err = stringPadding(m, nd, stride, dilation); err != nil {
			return nil, err
		}
	} else if padding, err = expandSizes(m, "padding", nd); err != nil {
		return nil, err
	}
	zeros := make(node.List, nd)
	for i := range zeros {
		zeros[i] = node.Int(0)
	}
	w, _ := m.Binding("w")
	groups, _ := m.Binding("groups")
	return []node.Arg{x, w, b, stride, padding, dilation, node.Bool(false), zeros, groups}, nil
}

// expandSizes returns the bound sizes of argument name as nd sizes: one
// int (or a list of one) repeated, or a list of nd.
func expandSizes(m *rewrite.Match, name string, nd int) (node.List, error) {
	a, _ := m.Binding(name)
	var sizes []node.Arg
	switch v := a.(type) {
	case node.Int, *node.Node:
		sizes = []node.Arg{v}
	case node.List:
		sizes = v
	case node.Tuple:
		sizes = v
	default:
		return nil, fmt.Errorf("%s is %v, not sizes", name, a)
	}
	if n, ok := a.(*node.Node); ok && !isSymInt(n) {
		return nil, fmt.Errorf("%s is node %s, not sizes", name, n.Name())
	}
	switch len(sizes) {
	case nd:
		return slices.Clone(node.List(sizes)), nil
	case 1:
		out := make(node.List, nd)
		for i := range out {
			out[i] = sizes[0]
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s has %d sizes for %d spatial dims", name, len(sizes), nd)
}

// isSymInt reports whether n's val is a symbolic int (not a tensor or a
// list).
func isSymInt(n *node.Node) bool {
	v, ok := node.Val.Get(&n.Meta)
	if !ok {
		return false
	}
	_, isTensor := shapeprop.MetaOf(n)
	_, isTuple := v.(node.ValueTuple)
	return !isTensor && !isTuple
}

// stringPadding returns the sizes of a .padding overload's padding string
// ("valid" or a symmetric "same"), see convolutionArgs.
func stringPadding(m *rewrite.Match, nd int, stride, dilation node.List) (node.List, error) {
	a, _ := m.Binding("padding")
	mode, ok := a.(node.Str)
	if !ok {
		return nil, fmt.Errorf("padding is %v, not a string", a)
	}
	out := make(node.List, nd)
	switch mode {
	case "valid":
		for i := range out {
			out[i] = node.Int(0)
		}
		return out, nil
	case "same":
	default:
		return nil, fmt.Errorf("padding %q is neither \"valid\" nor \"same\"", string(mode))
	}
	for _, s := range stride {
		if s != node.Arg(node.Int(1)) {
			return nil, fmt.Errorf("padding \"same\" with stride %v (conv's error unless 1)", stride)
		}
	}
	w := m.BoundNode("w")
	wm, ok := argMeta(m, w)
	if w == nil || !ok || len(wm.Shape) != nd+2 {
		return nil, fmt.Errorf("padding \"same\": the weight's spatial sizes are unknown")
	}
	for i := range out {
		k, d := wm.Shape[i+2], dilation[i]
		di, ok := d.(node.Int)
		if k.Sym != "" || !ok {
			return nil, fmt.Errorf("padding \"same\": kernel size %v or dilation %v is symbolic", k, d)
		}
		total := int64(di) * (k.Size - 1)
		if total%2 != 0 {
			return nil, fmt.Errorf("padding \"same\" is asymmetric in spatial dim %d (dilation*(k-1) = %d): conv pads the input first", i, total)
		}
		out[i] = node.Int(total / 2)
	}
	return out, nil
}

// inPlaceAddFits reports (nil) whether add_(conv, other) of match m
// computes what add.Tensor(conv, other) computes, as FuseEpilogues'
// fused operator does: add_ keeps its self's dtype and shape, add.Tensor
// promotes and broadcasts; they agree when other has conv's dtype and
// broadcasts to conv's shape, which the vals must show.
func inPlaceAddFits(m *rewrite.Match) error {
	cm, ok := argMeta(m, m.Node("conv"))
	if !ok {
		return fmt.Errorf("add_: the convolution's dtype and shape are unknown (no val)")
	}
	other := m.BoundNode("other")
	om, ok := argMeta(m, other)
	if other == nil || !ok {
		return fmt.Errorf("add_: the residual's dtype and shape are unknown (no val)")
	}
	if om.DType != cm.DType {
		return fmt.Errorf("add_: the residual is %s, the convolution %s: add_ keeps the convolution's dtype, add.Tensor promotes", om.DType, cm.DType)
	}
	if len(om.Shape) > len(cm.Shape) {
		return fmt.Errorf("add_: the residual %v has more dims than the convolution %v", om, cm)
	}
	for i, d := range om.Shape {
		c := cm.Shape[len(cm.Shape)-len(om.Shape)+i]
		if d != c && d != (node.Dim{Size: 1}) {
			return fmt.Errorf("add_: the residual %v does not broadcast to the convolution %v without growing it", om, cm)
		}
	}
	return nil
}

// argMeta returns n's dtype and shape: its val, or for a get_attr node
// without one, the tensor it reads from m's GraphModule.
func argMeta(m *rewrite.Match, n *node.Node) (node.TensorMeta, bool) {
	if n == nil {
		return node.TensorMeta{}, false
	}
	if tm, ok := shapeprop.MetaOf(n); ok {
		return tm, true
	}
	if n.Op() != node.GetAttr || m.Module == nil {
		return node.TensorMeta{}, false
	}
	v, err := nn.Attr(m.Module, n.Target().String())
	if err != nil {
		return node.TensorMeta{}, false
	}
	var t *tensor.Tensor
	switch x := v.(type) {
	case *nn.Parameter:
		t = x.Tensor()
	case *nn.Buffer:
		t = x.Tensor()
	}
	if t == nil {
		return node.TensorMeta{}, false
	}
	tm := node.TensorMeta{DType: node.DType(t.DType().String()), Shape: make([]node.Dim, t.Dim())}
	for i, d := range t.Shape() {
		tm.Shape[i] = node.Dim{Size: int64(d)}
	}
	return tm, true
}
