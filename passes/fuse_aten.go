package passes

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pattern"
	"github.com/gofx/gofx/rewrite"
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
// aten.batch_norm.default with training=False fold the same way, and so do
// the convolutions of PyTorch 2.x's default export IR, which .pt2 files
// hold: aten.conv1d/conv2d/conv3d.default, with or without their trailing
// default arguments (a conv2d without bias gets the folded bias as its
// bias keyword). A pair is
// folded only when the convolution has no other user, every user of a
// tuple-valued batch norm is getitem 0 (or a getitem of the saved
// statistics that nothing uses, as run_decompositions leaves them), and the weights, running
// statistics and affine parameters are get_attr nodes (or None).
//
// The folded tensors are new parameters: under the convolution's weight
// and bias names when nothing else reads those (conv1.weight, conv1.bias),
// under new names (conv1.weight_folded) otherwise. Attributes no node
// reads any more are deleted, and so are modules left empty. Modules on
// the edited paths are replaced by shallow copies, so a model the
// GraphModule shares modules with is not changed.
//
// The pass is a rule set (RuleSetOf): one rule per batch-norm form, whose
// pattern binds the operators' arguments by schema name, whose constraint
// checks the conditions above (and says which fails), and whose edit sets
// the convolution's weight and bias in place, keeping its node and name.
var FoldConvBN = Pass{
	Name: "fold_conv_bn",
	Doc:  "fold eval-mode batch-norm operators into the aten.convolution feeding them (weights from get_attr)",
	Run:  foldConvBN,
}

var getItem = nn.GetItem

// isNodeIndex reports whether a is an int (an index of a getitem).
func isNodeIndex(a node.Arg) bool { _, ok := a.(node.Int); return ok }

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
	owner          string // the module path of the batch norm's state
}

func foldConvBN(gm *fx.GraphModule) (bool, error) {
	if gm == nil || gm.Graph == nil {
		return false, fmt.Errorf("nil GraphModule")
	}
	matches, err := foldAll(gm.Graph, &attrState{gm: gm, t: fx.NewModuleEditor(gm)}, convLayer)
	return len(matches) > 0, err
}

// foldState is where the tensors a fold reads and writes live: a
// GraphModule's attributes read with get_attr (attrState). Exported programs
// are folded through ExportedProgram.Transform, which runs the pass on
// ep.Module() and lifts the state again.
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

// foldAll folds every match of g for layers of the given kind into st,
// with the rule set foldRules builds, and returns the matches folded. The
// rest of a folded batch norm's state that nothing reads
// (num_batches_tracked) goes with it, as FuseConvBN drops the module.
func foldAll(g *graph.Graph, st foldState, kind layerKind) ([]*foldMatch, error) {
	var matches []*foldMatch
	set, err := foldRules(kind, st, &matches)
	if err != nil {
		return nil, err
	}
	if _, err := set.Apply(g); err != nil {
		return matches, err
	}
	if len(matches) == 0 {
		return nil, nil
	}
	owners := map[string]bool{}
	for _, m := range matches {
		owners[m.owner] = true
	}
	var dead []*node.Node
	for n := range g.Nodes() {
		if !st.isState(n) || n.NumUsers() > 0 {
			continue
		}
		if owner, _ := fx.SplitPath(st.target(n)); owners[owner] {
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
		if m.permute != nil { // addmm/mm of a permuted weight; aten.linear keeps the conv slots
			wAt, bAt = slot{m.permute, 0, "self"}, slot{m.layer, 0, "self"}
		}
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
	if m.kind == linearLayer && m.b == nil && m.permute != nil {
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
		owner, _ := fx.SplitPath(wTarget)
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
	t  *fx.ModuleEditor
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
	return s.t.SetParameter(n.Target().String(), x)
}

// add registers x as a parameter at name and reads it with a new get_attr
// node before conv (with like's val metadata).
func (s *attrState) add(conv *node.Node, i int, kw, name string, x *tensor.Tensor, like *node.Node) error {
	if err := s.t.SetParameter(name, x); err != nil {
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

func (s *attrState) free(name string) bool { return s.t.Free(name) }

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
	if err := s.t.DeleteAttr(target.String(), keep); err != nil {
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

// The batch-norm operators in eval form that fold, as graph text calling
// them on %layer: name, call, and whether the result is a tuple (read by
// getitem 0).
var bnForms = []struct {
	name, call string
	tuple      bool
}{
	{"bn_no_training", "aten._native_batch_norm_legit_no_training.default(%layer, %gamma, %beta, %mean, %var, %momentum, %eps)", true},
	{"native_bn", "aten.native_batch_norm.default(%layer, %gamma, %beta, %mean, %var, %training, %momentum, %eps)", true},
	{"batch_norm", "aten.batch_norm.default(%layer, %gamma, %beta, %mean, %var, %training, %momentum, %eps, %cudnn_enabled)", false},
}

// The layers a batch norm folds into, as graph text computing %layer:
// core ATen's convolution and addmm/mm of a permuted weight, and PyTorch
// 2.x's default export IR (what .pt2 files hold): conv1d/2d/3d and linear,
// which torch.export writes without their trailing default arguments, so
// each is listed at every arity.
var foldLayers = sync.OnceValue(func() []foldLayer {
	layers := []foldLayer{
		{"conv", convLayer, `%layer = call_function aten.convolution.default(%x, %w, %b, %stride, %padding, %dilation, %transposed, %output_padding, %groups)`},
		{"addmm", linearLayer, `%t = call_function aten.permute.default(%w, %dims)
%layer = call_function aten.addmm.default(%b, %x, %t, beta=%addmm_beta, alpha=%addmm_alpha)`},
		{"mm", linearLayer, `%t = call_function aten.permute.default(%w, %dims)
%layer = call_function aten.mm.default(%x, %t)`},
	}
	convArgs := []string{"%x", "%w", "%b", "%stride", "%padding", "%dilation", "%groups"}
	for _, op := range []string{"conv1d", "conv2d", "conv3d"} {
		for n := 2; n <= len(convArgs); n++ {
			layers = append(layers, foldLayer{fmt.Sprintf("%s_%d", op, n), convLayer,
				"%layer = call_function aten." + op + ".default(" + strings.Join(convArgs[:n], ", ") + ")"})
		}
	}
	for _, args := range []string{"%x, %w", "%x, %w, %b"} {
		layers = append(layers, foldLayer{fmt.Sprintf("linear_%d", strings.Count(args, ",")+1), linearLayer,
			"%layer = call_function aten.linear.default(" + args + ")"})
	}
	return layers
})

// foldLayer is a layer a batch norm folds into: its rule name's prefix,
// its kind and the graph text computing %layer.
type foldLayer struct {
	name string
	kind layerKind
	text string
}

// foldPattern is one compiled pattern of a fold rule.
type foldPattern struct {
	name  string
	kind  layerKind
	tuple bool
	p     *pattern.Pattern
}

// foldPatterns compiles the fold patterns once: every layer followed by
// every batch-norm form, the batch norm being the pattern's output (its
// users, getitem 0 for the tuple forms, are the constraint's).
var foldPatterns = sync.OnceValues(func() ([]foldPattern, error) {
	var out []foldPattern
	for _, l := range foldLayers() {
		for _, f := range bnForms {
			body := l.text + "\n%bn = call_function " + f.call
			var b strings.Builder
			defined := map[string]bool{}
			for _, line := range strings.Split(body, "\n") {
				lhs, rhs, _ := strings.Cut(line, " = ")
				for _, r := range refs(rhs) {
					if !defined[r] {
						defined[r] = true
						fmt.Fprintf(&b, "%%%s = placeholder %q()\n", r, r)
					}
				}
				defined[strings.TrimPrefix(lhs, "%")] = true
			}
			name := l.name + "_" + f.name
			g, err := graph.Parse(b.String() + body + "\n%output = output \"output\"(%bn)\n")
			if err != nil {
				return nil, fmt.Errorf("fold pattern %s: %w", name, err)
			}
			p, err := pattern.Compile(g, pattern.Name(name))
			if err != nil {
				return nil, err
			}
			out = append(out, foldPattern{name: name, kind: l.kind, tuple: f.tuple, p: p})
		}
	}
	return out, nil
})

// refs returns the %names graph text refers to, in order.
func refs(text string) []string {
	var out []string
	for {
		i := strings.IndexByte(text, '%')
		if i < 0 {
			return out
		}
		j := i + 1
		for j < len(text) && (text[j] == '_' || 'a' <= text[j] && text[j] <= 'z' || '0' <= text[j] && text[j] <= '9') {
			j++
		}
		out = append(out, text[i+1:j])
		text = text[j:]
	}
}

// foldRules returns the rule set that folds batch norms into layers of
// the given kind, reading and writing the tensors in st, and appending
// each fold to *folded.
func foldRules(kind layerKind, st foldState, folded *[]*foldMatch) (*rewrite.RuleSet, error) {
	pats, err := foldPatterns()
	if err != nil {
		return nil, err
	}
	var rules []rewrite.Rule
	for _, fp := range pats {
		if fp.kind != kind {
			continue
		}
		rules = append(rules, rewrite.Rule{
			Name:       fp.name,
			Doc:        "fold a batch norm in eval form into the layer feeding it",
			Pattern:    fp.p,
			Constraint: func(m *rewrite.Match) error { _, err := foldMatchOf(m, fp, st); return err },
			Edit: func(m *rewrite.Match) (bool, error) {
				fm, err := foldMatchOf(m, fp, st)
				if err != nil {
					return false, nil
				}
				fm.owner, _ = fx.SplitPath(st.target(fm.mean))
				err = fold(m.Graph, st, fm)
				if errors.Is(err, errNoFold) {
					return false, nil
				}
				if err != nil {
					return false, fmt.Errorf("nodes %s and %s: %w", fm.layer.Name(), fm.bn.Name(), err)
				}
				*folded = append(*folded, fm)
				return true, nil
			},
		})
	}
	name := "fold_conv_bn"
	if kind == linearLayer {
		name = "fold_linear_bn"
	}
	return rewrite.NewRuleSet(name, rules...)
}

// foldMatchOf checks a structural match of fp and returns the fold it
// stands for, or an error saying why it does not fold.
func foldMatchOf(m *rewrite.Match, fp foldPattern, st foldState) (*foldMatch, error) {
	fm := &foldMatch{kind: fp.kind, bn: m.Node("bn"), layer: m.Node("layer")}
	bind := func(name string) node.Arg { a, _ := m.Binding(name); return a }
	if tr, ok := m.Binding("training"); ok {
		if b, isBool := tr.(node.Bool); !isBool || bool(b) {
			return nil, fmt.Errorf("training is %v, not False", tr)
		}
	}
	if fp.tuple {
		for _, u := range fm.bn.Users() {
			// getitem 0, or a dead getitem of the saved statistics
			// (core ATen programs keep them until DCE).
			if u.Op() != node.CallFunction || u.Function() != node.Function(getItem) || u.NumArgs() != 2 || u.Arg(0) != node.Arg(fm.bn) ||
				u.Arg(1) != node.Arg(node.Int(0)) && (u.NumUsers() > 0 || !isNodeIndex(u.Arg(1))) {
				return nil, fmt.Errorf("%%%s uses the batch norm's tuple other than as getitem 0", u.Name())
			}
			fm.getitems = append(fm.getitems, u)
		}
	}
	switch x := bind("eps").(type) {
	case node.Float:
		fm.eps = float64(x)
	case node.Int:
		fm.eps = float64(x)
	default:
		return nil, fmt.Errorf("eps is %v, not a number", x)
	}
	var err error
	stateOrNone := func(name string, required bool) *node.Node {
		if err != nil {
			return nil
		}
		switch x := bind(name).(type) {
		case node.NoneType, nil: // nil: a default argument the call leaves out
			if required {
				err = fmt.Errorf("%s is None", name)
			}
			return nil
		case *node.Node:
			if st.isState(x) {
				return x
			}
			err = fmt.Errorf("%s is %%%s, which reads no state", name, x.Name())
		default:
			err = fmt.Errorf("%s is %v, not state", name, x)
		}
		return nil
	}
	fm.gamma, fm.beta = stateOrNone("gamma", false), stateOrNone("beta", false)
	fm.mean, fm.variance = stateOrNone("mean", true), stateOrNone("var", true)
	fm.w = stateOrNone("w", true)
	if fm.kind == convLayer {
		fm.b = stateOrNone("b", false)
		if err != nil {
			return nil, err
		}
		if a, ok := m.Binding("transposed"); ok { // conv1d/2d/3d are never transposed
			tr, ok := a.(node.Bool)
			if !ok {
				return nil, fmt.Errorf("transposed is %v, not a bool", a)
			}
			fm.transposed = bool(tr)
		}
		if g, isInt := bind("groups").(node.Int); fm.transposed && (!isInt || g != 1) {
			return nil, fmt.Errorf("a transposed convolution with groups %v", bind("groups"))
		}
		return fm, nil
	}
	switch {
	case strings.HasPrefix(fp.name, "addmm"):
		fm.b = stateOrNone("b", true)
	case strings.HasPrefix(fp.name, "linear"):
		fm.b = stateOrNone("b", false)
	}
	if err != nil {
		return nil, err
	}
	fm.permute = m.Node("t")
	// aten.linear reads its weight as it is; addmm and mm a permute of it.
	if fm.permute != nil && !isTranspose(bind("dims")) {
		return nil, fmt.Errorf("the weight's permutation is %s, not [1, 0]", argText(bind("dims")))
	}
	if strings.HasPrefix(fp.name, "addmm") && (!isUnit(bind("addmm_beta")) || !isUnit(bind("addmm_alpha"))) {
		return nil, fmt.Errorf("addmm with beta %v and alpha %v, not 1", bind("addmm_beta"), bind("addmm_alpha"))
	}
	if x, ok := bind("x").(*node.Node); !ok || !maybe2D(x) {
		return nil, fmt.Errorf("the input %v is not 2-D", bind("x"))
	}
	var ts [3]*tensor.Tensor
	for i, n := range []*node.Node{fm.w, fm.b, fm.mean} {
		if ts[i], err = st.tensor(n); err != nil {
			return nil, err
		}
	}
	if !linearFits(ts[0], ts[1], ts[2]) {
		return nil, fmt.Errorf("the weight, bias and running mean do not have the shapes of Linear(in, out) and BatchNorm1d(out)")
	}
	return fm, nil
}

// argText writes an argument for a reason: nodes as %name, lists in
// brackets.
func argText(a node.Arg) string {
	var elems []node.Arg
	open, closing := "[", "]"
	switch x := a.(type) {
	case *node.Node:
		return "%" + x.Name()
	case node.List:
		elems = x
	case node.Tuple:
		elems, open, closing = x, "(", ")"
	default:
		return fmt.Sprint(a)
	}
	parts := make([]string, len(elems))
	for i, e := range elems {
		parts[i] = argText(e)
	}
	return open + strings.Join(parts, ", ") + closing
}
