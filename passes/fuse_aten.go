package passes

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// FoldConvBN folds batch norms in eval form into the convolutions that
// feed them, in a GraphModule of core ATen operators whose state is read
// with get_attr (what ExportedProgram.Module returns):
//
//	conv = aten.convolution.default(x, w, b, ...)          w, b: get_attr (b may be None)
//	bn = aten._native_batch_norm_legit_no_training.default(conv, gamma, beta, mean, var, momentum, eps)
//	y = operator.getitem(bn, 0)
//
// becomes aten.convolution.default(x, w', b', ...) with w' and b' computed
// by FuseConvBNWeights. aten.native_batch_norm.default and
// aten.batch_norm.default with training=False fold the same way. A pair is
// folded only when the convolution has no other user, every user of a
// tuple-valued batch norm is getitem 0, and the weights, running
// statistics and affine parameters are get_attr nodes (or None).
//
// The folded tensors are new parameters: under the convolution's weight
// and bias names when nothing else reads those (conv1.weight, conv1.bias),
// under new names (conv1.weight_folded) otherwise. Attributes no node
// reads any more are deleted, and so are modules left empty. Modules on
// the edited paths are replaced by shallow copies, so a model the
// GraphModule shares modules with is not changed.
var FoldConvBN = Pass{
	Name: "fold_conv_bn",
	Doc:  "fold eval-mode batch-norm operators into the aten.convolution feeding them (weights from get_attr)",
	Run:  foldConvBN,
}

var (
	getItem = nn.GetItem
	opConv  = aten.Convolution
	bnNoTrn = aten.InternalNativeBatchNormLegitNoTraining
	bnNat   = aten.NativeBatchNorm
	bnComp  = aten.BatchNorm
)

// argOf returns the argument of n at schema position i (named name),
// given positionally or as a keyword; ok is false when absent.
func argOf(n *node.Node, i int, name string) (node.Arg, bool) {
	if i < n.NumArgs() {
		return n.Arg(i), true
	}
	return n.Kwarg(name)
}

// attrOrNone returns the get_attr node a of argument i of n, nil for None
// or an absent optional argument; ok is false for anything else.
func attrOrNone(n *node.Node, i int, name string) (*node.Node, bool) {
	a, present := argOf(n, i, name)
	if !present {
		return nil, true
	}
	switch x := a.(type) {
	case node.NoneType:
		return nil, true
	case *node.Node:
		return x, x.Op() == node.GetAttr
	}
	return nil, false
}

// foldMatch is one convolution and batch norm to fold.
type foldMatch struct {
	conv, bn       *node.Node
	getitems       []*node.Node // the users of a tuple-valued batch norm
	w, b           *node.Node   // conv weight and bias (b may be nil)
	gamma, beta    *node.Node   // may be nil
	mean, variance *node.Node
	eps            float64
	transposed     bool
}

// matchFold returns the fold rooted at the batch-norm node n, or nil.
func matchFold(n *node.Node) *foldMatch {
	op, ok := n.Function().(*ops.Operator)
	if !ok || n.Op() != node.CallFunction {
		return nil
	}
	m := &foldMatch{bn: n}
	epsAt := 0
	switch op {
	case bnNoTrn:
		epsAt = 6
	case bnNat, bnComp:
		tr, ok := argOf(n, 5, "training")
		if b, isBool := tr.(node.Bool); !ok || !isBool || bool(b) {
			return nil
		}
		epsAt = 7
	default:
		return nil
	}
	if op != bnComp {
		for _, u := range n.Users() {
			if u.Op() != node.CallFunction || u.Function() != node.Function(getItem) || u.NumArgs() != 2 || u.Arg(0) != node.Arg(n) || u.Arg(1) != node.Arg(node.Int(0)) {
				return nil
			}
			m.getitems = append(m.getitems, u)
		}
	}
	e, ok := argOf(n, epsAt, "eps")
	switch x := e.(type) {
	case node.Float:
		m.eps = float64(x)
	case node.Int:
		m.eps = float64(x)
	default:
		return nil
	}
	if !ok {
		return nil
	}
	in, ok := argOf(n, 0, "input")
	conv, isNode := in.(*node.Node)
	if !ok || !isNode || conv.Op() != node.CallFunction || conv.Function() != node.Function(opConv) || conv.NumUsers() != 1 {
		return nil
	}
	m.conv = conv
	if m.gamma, ok = attrOrNone(n, 1, "weight"); !ok {
		return nil
	}
	if m.beta, ok = attrOrNone(n, 2, "bias"); !ok {
		return nil
	}
	if m.mean, ok = attrOrNone(n, 3, "running_mean"); !ok || m.mean == nil {
		return nil
	}
	if m.variance, ok = attrOrNone(n, 4, "running_var"); !ok || m.variance == nil {
		return nil
	}
	if m.w, ok = attrOrNone(conv, 1, "weight"); !ok || m.w == nil {
		return nil
	}
	if m.b, ok = attrOrNone(conv, 2, "bias"); !ok {
		return nil
	}
	tr, ok := argOf(conv, 6, "transposed")
	b, isBool := tr.(node.Bool)
	if !ok || !isBool {
		return nil
	}
	m.transposed = bool(b)
	if m.transposed {
		g, ok := argOf(conv, 8, "groups")
		if gi, isInt := g.(node.Int); !ok || !isInt || gi != 1 {
			return nil
		}
	}
	return m
}

// attrTensor returns the tensor a get_attr node reads (nil for nil).
func attrTensor(gm *fx.GraphModule, n *node.Node) (*tensor.Tensor, error) {
	if n == nil {
		return nil, nil
	}
	v, err := nn.Attr(gm, n.Target().String())
	if err != nil {
		return nil, fmt.Errorf("node %s: %w", n.Name(), err)
	}
	switch x := v.(type) {
	case *nn.Parameter:
		return x.Tensor(), nil
	case *nn.Buffer:
		return x.Tensor(), nil
	}
	return nil, fmt.Errorf("node %s: get_attr %s is a %T, not a tensor", n.Name(), n.Target(), v)
}

func foldConvBN(gm *fx.GraphModule) (bool, error) {
	if gm == nil || gm.Graph == nil {
		return false, fmt.Errorf("nil GraphModule")
	}
	var matches []*foldMatch
	for n := range gm.Graph.Nodes() {
		if m := matchFold(n); m != nil {
			matches = append(matches, m)
		}
	}
	t := newTree(gm)
	changed := false
	owners := map[string]bool{}
	for _, m := range matches {
		owner, _ := split(m.mean.Target().String())
		if err := fold(gm, t, m); err != nil {
			return changed, fmt.Errorf("nodes %s and %s: %w", m.conv.Name(), m.bn.Name(), err)
		}
		owners[owner] = true
		changed = true
	}
	if !changed {
		return false, nil
	}
	// The rest of a folded batch norm's state that nothing reads
	// (num_batches_tracked) goes with it, as FuseConvBN drops the module.
	var dead []*node.Node
	for n := range gm.Graph.Nodes() {
		if n.Op() != node.GetAttr || n.NumUsers() > 0 {
			continue
		}
		if owner, _ := split(n.Target().String()); owners[owner] {
			dead = append(dead, n)
		}
	}
	for _, n := range dead {
		if err := dropAttrNode(gm, t, n); err != nil {
			return changed, err
		}
	}
	return changed, nil
}

// dropAttrNode erases the get_attr node n, which has no users, and the
// attribute it reads when no other node reads it.
func dropAttrNode(gm *fx.GraphModule, t *tree, n *node.Node) error {
	g := gm.Graph
	target := n.Target()
	if err := g.EraseNode(n); err != nil {
		return err
	}
	if len(g.FindNodes(node.GetAttr, target)) > 0 {
		return nil
	}
	keep := func(p string) bool { return len(g.FindNodes(node.CallModule, node.Path(p))) > 0 }
	if err := t.deleteAttr(target.String(), keep); err != nil {
		return fmt.Errorf("node %s: %w", n.Name(), err)
	}
	return nil
}

// soleReader reports whether n is the only get_attr node of its target
// and has one user.
func soleReader(gm *fx.GraphModule, n *node.Node) bool {
	return n.NumUsers() == 1 && len(gm.Graph.FindNodes(node.GetAttr, n.Target())) == 1
}

// fold rewrites one match.
func fold(gm *fx.GraphModule, t *tree, m *foldMatch) error {
	var ts [6]*tensor.Tensor
	for i, n := range []*node.Node{m.w, m.b, m.gamma, m.beta, m.mean, m.variance} {
		x, err := attrTensor(gm, n)
		if err != nil {
			return err
		}
		ts[i] = x
	}
	w, b, err := FuseConvBNWeights(ts[0], ts[1], ts[4], ts[5], m.eps, ts[2], ts[3], m.transposed)
	if err != nil {
		return err
	}
	g := gm.Graph
	// Weight: the same get_attr node when it reads only for this
	// convolution; a new attribute and node otherwise.
	wTarget := m.w.Target().String()
	if soleReader(gm, m.w) {
		if err := t.setParam(wTarget, w); err != nil {
			return err
		}
	} else {
		if err := newAttrFor(gm, t, m.conv, 1, "weight", unique(t, wTarget+"_folded"), w, m.w); err != nil {
			return err
		}
	}
	switch {
	case m.b != nil && soleReader(gm, m.b):
		if err := t.setParam(m.b.Target().String(), b); err != nil {
			return err
		}
	default:
		name := ""
		if m.b != nil {
			name = unique(t, m.b.Target().String()+"_folded")
		} else {
			owner, _ := split(wTarget)
			name = unique(t, joinPath(owner, "bias"))
		}
		if err := newAttrFor(gm, t, m.conv, 2, "bias", name, b, m.mean); err != nil {
			return err
		}
	}
	// Rewire the batch norm's users to the convolution.
	outs := m.getitems
	if outs == nil {
		outs = []*node.Node{m.bn}
	}
	for _, u := range outs {
		if _, err := u.ReplaceAllUsesWith(m.conv, nil, false); err != nil {
			return err
		}
		if u != m.bn {
			if err := g.EraseNode(u); err != nil {
				return err
			}
		}
	}
	if err := g.EraseNode(m.bn); err != nil {
		return err
	}
	// Drop the get_attr nodes and attributes nothing reads any more.
	for _, n := range []*node.Node{m.w, m.b, m.gamma, m.beta, m.mean, m.variance} {
		if n == nil || n.Erased() || n.NumUsers() > 0 {
			continue
		}
		if err := dropAttrNode(gm, t, n); err != nil {
			return err
		}
	}
	return nil
}

// newAttrFor registers x as a parameter at name, reads it with a new
// get_attr node before conv (with like's val metadata), and makes it
// argument i (keyword kw) of conv.
func newAttrFor(gm *fx.GraphModule, t *tree, conv *node.Node, i int, kw, name string, x *tensor.Tensor, like *node.Node) error {
	if err := t.setParam(name, x); err != nil {
		return err
	}
	restore := gm.Graph.InsertingBefore(conv)
	ga, err := gm.Graph.GetAttr(name)
	restore()
	if err != nil {
		return err
	}
	if v, ok := node.Val.Get(&like.Meta); ok {
		node.Val.Set(&ga.Meta, v)
	}
	if i < conv.NumArgs() {
		return conv.UpdateArg(i, ga)
	}
	return conv.UpdateKwarg(kw, ga)
}

// unique returns name, or name_1, name_2, ... the first that names
// nothing in the tree.
func unique(t *tree, name string) string {
	if t.free(name) {
		return name
	}
	for i := 1; ; i++ {
		c := fmt.Sprintf("%s_%d", name, i)
		if t.free(c) {
			return c
		}
	}
}

func joinPath(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}
