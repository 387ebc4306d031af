package passes

import (
	"errors"
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
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

// stateOrNone returns the node a of argument i of n when isState(a), nil
// for None or an absent optional argument; ok is false for anything else.
func stateOrNone(n *node.Node, i int, name string, isState func(*node.Node) bool) (*node.Node, bool) {
	a, present := argOf(n, i, name)
	if !present {
		return nil, true
	}
	switch x := a.(type) {
	case node.NoneType:
		return nil, true
	case *node.Node:
		return x, isState(x)
	}
	return nil, false
}

// isAttr tells the state nodes of a GraphModule: get_attr.
func isAttr(n *node.Node) bool { return n.Op() == node.GetAttr }

// layerKind is the layer a batch norm folds into.
type layerKind int

const (
	convLayer   layerKind = iota // aten.convolution
	linearLayer                  // aten.addmm or aten.mm of a permuted weight
)

// foldMatch is one layer (convolution or linear) and batch norm to fold.
type foldMatch struct {
	kind           layerKind
	layer, bn      *node.Node   // the convolution, addmm or mm; the batch norm
	permute        *node.Node   // linear: the permute of the weight
	getitems       []*node.Node // the users of a tuple-valued batch norm
	w, b           *node.Node   // layer weight and bias (b may be nil)
	gamma, beta    *node.Node   // may be nil
	mean, variance *node.Node
	eps            float64
	transposed     bool
}

// matchFold returns the fold of a layer of the given kind into the
// batch-norm node n, or nil; isState tells the nodes that read state
// (get_attr nodes, or the placeholders of an exported program's lifted
// state).
func matchFold(n *node.Node, kind layerKind, isState func(*node.Node) bool) *foldMatch {
	op, ok := n.Function().(*ops.Operator)
	if !ok || n.Op() != node.CallFunction {
		return nil
	}
	m := &foldMatch{kind: kind, bn: n}
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
	layer, isNode := in.(*node.Node)
	if !ok || !isNode || layer.Op() != node.CallFunction || layer.NumUsers() != 1 {
		return nil
	}
	m.layer = layer
	if m.gamma, ok = stateOrNone(n, 1, "weight", isState); !ok {
		return nil
	}
	if m.beta, ok = stateOrNone(n, 2, "bias", isState); !ok {
		return nil
	}
	if m.mean, ok = stateOrNone(n, 3, "running_mean", isState); !ok || m.mean == nil {
		return nil
	}
	if m.variance, ok = stateOrNone(n, 4, "running_var", isState); !ok || m.variance == nil {
		return nil
	}
	if kind == linearLayer {
		return matchLinear(m, isState)
	}
	return matchConv(m, isState)
}

// matchConv completes m, whose layer is to be a convolution.
func matchConv(m *foldMatch, isState func(*node.Node) bool) *foldMatch {
	conv := m.layer
	if conv.Function() != node.Function(opConv) {
		return nil
	}
	var ok bool
	if m.w, ok = stateOrNone(conv, 1, "weight", isState); !ok || m.w == nil {
		return nil
	}
	if m.b, ok = stateOrNone(conv, 2, "bias", isState); !ok {
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

func foldConvBN(gm *fx.GraphModule) (bool, error) {
	if gm == nil || gm.Graph == nil {
		return false, fmt.Errorf("nil GraphModule")
	}
	matches, err := foldAll(gm.Graph, &attrState{gm: gm, t: newTree(gm)}, convLayer)
	return len(matches) > 0, err
}

// foldState is where the tensors a fold reads and writes live: a
// GraphModule's attributes read with get_attr (attrState), or an exported
// program's lifted state read through placeholders (programState).
type foldState interface {
	// isState tells the nodes that read state.
	isState(n *node.Node) bool
	// tensor returns the tensor the state node n reads (nil for nil).
	tensor(n *node.Node) (*tensor.Tensor, error)
	// target returns the state name n reads (conv1.weight).
	target(n *node.Node) string
	// sole reports whether n is the only reader of its state and has one
	// user.
	sole(n *node.Node) bool
	// reuse makes the state read by n, which only argument i (keyword kw)
	// of conv reads, a parameter holding x under the same name.
	reuse(conv *node.Node, i int, kw string, n *node.Node, x *tensor.Tensor) error
	// add makes x a new parameter called name (free, see unique), read
	// by argument i (keyword kw) of conv; like is a node of the same
	// shape whose val metadata the new node may take.
	add(conv *node.Node, i int, kw, name string, x *tensor.Tensor, like *node.Node) error
	// free reports whether name names no state.
	free(name string) bool
	// drop erases the state node n, which has no users, and the state it
	// reads when nothing else reads it.
	drop(n *node.Node) error
}

// errNoFold is fold's answer for a match it leaves alone after reading
// the tensors (shapes that do not fit the layer).
var errNoFold = errors.New("passes: not folded")

// foldAll folds every match of g for layers of the given kind into st and
// returns the matches folded. The rest of a folded batch norm's state that
// nothing reads (num_batches_tracked) goes with it, as FuseConvBN drops
// the module.
func foldAll(g *graph.Graph, st foldState, kind layerKind) ([]*foldMatch, error) {
	var candidates, matches []*foldMatch
	for n := range g.Nodes() {
		if m := matchFold(n, kind, st.isState); m != nil {
			candidates = append(candidates, m)
		}
	}
	owners := map[string]bool{}
	for _, m := range candidates {
		owner, _ := split(st.target(m.mean))
		err := fold(g, st, m)
		if errors.Is(err, errNoFold) {
			continue
		}
		if err != nil {
			return matches, fmt.Errorf("nodes %s and %s: %w", m.layer.Name(), m.bn.Name(), err)
		}
		matches = append(matches, m)
		owners[owner] = true
	}
	if len(matches) == 0 {
		return nil, nil
	}
	var dead []*node.Node
	for n := range g.Nodes() {
		if !st.isState(n) || n.NumUsers() > 0 {
			continue
		}
		if owner, _ := split(st.target(n)); owners[owner] {
			dead = append(dead, n)
		}
	}
	for _, n := range dead {
		if err := st.drop(n); err != nil {
			return matches, err
		}
	}
	return matches, nil
}

// fold rewrites one match.
func fold(g *graph.Graph, st foldState, m *foldMatch) error {
	var ts [6]*tensor.Tensor
	for i, n := range []*node.Node{m.w, m.b, m.gamma, m.beta, m.mean, m.variance} {
		x, err := st.tensor(n)
		if err != nil {
			return err
		}
		ts[i] = x
	}
	// Where the folded weight and bias go: argument i (keyword kw) of
	// node n.
	type slot struct {
		n  *node.Node
		i  int
		kw string
	}
	wAt, bAt := slot{m.layer, 1, "weight"}, slot{m.layer, 2, "bias"}
	var w, b *tensor.Tensor
	var err error
	if m.kind == linearLayer {
		if !linearFits(ts[0], ts[1], ts[4]) {
			return errNoFold
		}
		w, b, err = FuseLinearBNWeights(ts[0], ts[1], ts[4], ts[5], m.eps, ts[2], ts[3])
		wAt, bAt = slot{m.permute, 0, "self"}, slot{m.layer, 0, "self"}
	} else {
		w, b, err = FuseConvBNWeights(ts[0], ts[1], ts[4], ts[5], m.eps, ts[2], ts[3], m.transposed)
	}
	if err != nil {
		return err
	}
	// The same state when only this convolution reads it; a new
	// parameter otherwise.
	sole := func(n *node.Node) bool { return n != nil && m.w != m.b && st.sole(n) }
	wTarget := st.target(m.w)
	if sole(m.w) {
		err = st.reuse(wAt.n, wAt.i, wAt.kw, m.w, w)
	} else {
		err = st.add(wAt.n, wAt.i, wAt.kw, unique(st, wTarget+"_folded"), w, m.w)
	}
	if err != nil {
		return err
	}
	if m.kind == linearLayer && m.b == nil {
		if err := mmToAddmm(m.layer); err != nil {
			return err
		}
	}
	switch {
	case sole(m.b):
		err = st.reuse(bAt.n, bAt.i, bAt.kw, m.b, b)
	case m.b != nil:
		err = st.add(bAt.n, bAt.i, bAt.kw, unique(st, st.target(m.b)+"_folded"), b, m.b)
	default:
		owner, _ := split(wTarget)
		err = st.add(bAt.n, bAt.i, bAt.kw, unique(st, joinPath(owner, "bias")), b, m.mean)
	}
	if err != nil {
		return err
	}
	// Rewire the batch norm's users to the convolution.
	outs := m.getitems
	if outs == nil {
		outs = []*node.Node{m.bn}
	}
	for _, u := range outs {
		if _, err := u.ReplaceAllUsesWith(m.layer, nil, false); err != nil {
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
	// Drop the state nodes and state nothing reads any more.
	for _, n := range []*node.Node{m.w, m.b, m.gamma, m.beta, m.mean, m.variance} {
		if n == nil || n.Erased() || n.NumUsers() > 0 {
			continue
		}
		if err := st.drop(n); err != nil {
			return err
		}
	}
	return nil
}

// setConvArg makes a argument i (keyword kw) of conv.
func setConvArg(conv *node.Node, i int, kw string, a *node.Node) error {
	if i < conv.NumArgs() {
		return conv.UpdateArg(i, a)
	}
	return conv.UpdateKwarg(kw, a)
}

// attrState is the state of a GraphModule, read with get_attr.
type attrState struct {
	gm *fx.GraphModule
	t  *tree
}

func (s *attrState) isState(n *node.Node) bool { return isAttr(n) }

func (s *attrState) target(n *node.Node) string { return n.Target().String() }

func (s *attrState) tensor(n *node.Node) (*tensor.Tensor, error) {
	if n == nil {
		return nil, nil
	}
	v, err := nn.Attr(s.gm, n.Target().String())
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

func (s *attrState) sole(n *node.Node) bool {
	return n.NumUsers() == 1 && len(s.gm.Graph.FindNodes(node.GetAttr, n.Target())) == 1
}

func (s *attrState) reuse(_ *node.Node, _ int, _ string, n *node.Node, x *tensor.Tensor) error {
	return s.t.setParam(n.Target().String(), x)
}

// add registers x as a parameter at name and reads it with a new get_attr
// node before conv (with like's val metadata).
func (s *attrState) add(conv *node.Node, i int, kw, name string, x *tensor.Tensor, like *node.Node) error {
	if err := s.t.setParam(name, x); err != nil {
		return err
	}
	restore := s.gm.Graph.InsertingBefore(conv)
	ga, err := s.gm.Graph.GetAttr(name)
	restore()
	if err != nil {
		return err
	}
	if v, ok := node.Val.Get(&like.Meta); ok {
		node.Val.Set(&ga.Meta, v)
	}
	return setConvArg(conv, i, kw, ga)
}

func (s *attrState) free(name string) bool { return s.t.free(name) }

// drop erases the get_attr node n and the attribute it reads when no other
// node reads it (and the modules left empty).
func (s *attrState) drop(n *node.Node) error {
	g := s.gm.Graph
	target := n.Target()
	if err := g.EraseNode(n); err != nil {
		return err
	}
	if len(g.FindNodes(node.GetAttr, target)) > 0 {
		return nil
	}
	keep := func(p string) bool { return len(g.FindNodes(node.CallModule, node.Path(p))) > 0 }
	if err := s.t.deleteAttr(target.String(), keep); err != nil {
		return fmt.Errorf("node %s: %w", n.Name(), err)
	}
	return nil
}

// unique returns name, or name_1, name_2, ... the first that names
// no state.
func unique(st foldState, name string) string {
	if st.free(name) {
		return name
	}
	for i := 1; ; i++ {
		c := fmt.Sprintf("%s_%d", name, i)
		if st.free(c) {
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
