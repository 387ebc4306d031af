package passes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
)

// hopKind is the name of n's higher-order operator ("cond", "while_loop",
// "map_impl").
func hopKind(n *node.Node) string {
	name := n.Target().String()
	return name[strings.LastIndexByte(name, '.')+1:]
}

// subgraphModules returns, in graph order and once each, the
// GraphModules that gm's higher-order operators call (read by get_attr
// nodes), with their attribute names.
func subgraphModules(gm *fx.GraphModule) (names []string, mods []*fx.GraphModule) {
	seen := map[*fx.GraphModule]bool{}
	for n := range gm.Graph.Nodes() {
		if !graph.IsHigherOrder(n) {
			continue
		}
		n.EachInput(func(in *node.Node) {
			sub, ok := gm.SubgraphAt(in)
			if ok && !seen[sub] {
				seen[sub] = true
				names = append(names, in.Target().String())
				mods = append(mods, sub)
			}
		})
	}
	return names, mods
}

// runDeep runs run on the subgraphs that gm's higher-order operators call
// (nested ones first), then on gm itself.
func runDeep(run func(*fx.GraphModule) (bool, error), gm *fx.GraphModule, depth int) (bool, error) {
	if depth > maxSubgraphDepth {
		return false, fmt.Errorf("subgraphs nested deeper than %d", maxSubgraphDepth)
	}
	changed := false
	names, subs := subgraphModules(gm)
	for i, sub := range subs {
		c, err := runDeep(run, sub, depth+1)
		changed = changed || c
		if err != nil {
			return changed, fmt.Errorf("subgraph %s: %w", names[i], err)
		}
	}
	c, err := run(gm)
	return changed || c, err
}

// maxSubgraphDepth bounds the nesting of subgraphs a pass walks.
const maxSubgraphDepth = 64

// InlineConstantCond replaces a cond whose predicate is a constant (a
// Python bool, or a one-element tensor that a get_attr reads, as constant
// folding leaves it) by the branch it takes: the branch's nodes are
// copied in place of the cond node, its placeholders bound to the
// operands, and the getitem nodes reading the cond's results replaced by
// the branch's outputs (the nested subgraphs and any state the branch
// reads become attributes of the enclosing module). The branch graphs
// are left for DCE and DeleteUnusedSubmodules.
var InlineConstantCond = Pass{
	Name: "inline_constant_cond",
	Doc:  "replace a cond with a constant predicate by the branch it takes",
	Run:  inlineConstantConds,
}

func inlineConstantConds(gm *fx.GraphModule) (bool, error) {
	changed := false
	for _, n := range slices.Collect(gm.Graph.Nodes()) {
		if n.Erased() || !graph.IsHigherOrder(n) || hopKind(n) != "cond" || n.NumArgs() != 4 {
			continue
		}
		pred, ok := constantPred(gm, n.Arg(0))
		if !ok {
			continue
		}
		ga, ok := n.Arg(2).(*node.Node)
		if pred {
			ga, ok = n.Arg(1).(*node.Node)
		}
		if !ok {
			continue
		}
		branch, ok := gm.SubgraphAt(ga)
		if !ok {
			return changed, fmt.Errorf("cond %s: its branch %s is not a GraphModule", n.Name(), ga.Name())
		}
		operands, ok := seqOf(n.Arg(3))
		if !ok {
			return changed, fmt.Errorf("cond %s: its operands are %v, not a list", n.Name(), n.Arg(3))
		}
		if err := inline(gm, n, branch, operands); err != nil {
			return changed, fmt.Errorf("cond %s: %w", n.Name(), err)
		}
		changed = true
	}
	if changed {
		gm.EliminateDeadCode()
	}
	return changed, nil
}

// constantPred returns the value of a cond's predicate when it is a
// constant.
func constantPred(gm *fx.GraphModule, a node.Arg) (bool, bool) {
	switch x := a.(type) {
	case node.Bool:
		return bool(x), true
	case node.Int:
		return x != 0, true
	case *node.Node:
		if x.Op() != node.GetAttr {
			return false, false
		}
		t := constTensor(gm, x)
		if t == nil || t.Numel() != 1 {
			return false, false
		}
		v, err := t.Item()
		if err != nil {
			return false, false
		}
		switch y := v.(type) {
		case bool:
			return y, true
		case int64:
			return y != 0, true
		case float64:
			return y != 0, true
		}
	}
	return false, false
}

// inline copies branch's graph before n (a cond node), binding its
// placeholders to operands, and replaces n's getitem users by the
// branch's outputs.
func inline(gm *fx.GraphModule, n *node.Node, branch *fx.GraphModule, operands []node.Arg) error {
	g := gm.Graph
	phs := branch.Graph.Placeholders()
	if len(phs) != len(operands) {
		return fmt.Errorf("the branch has %d placeholders for %d operands", len(phs), len(operands))
	}
	vmap := map[*node.Node]node.Arg{}
	for i, ph := range phs {
		vmap[ph] = operands[i]
	}
	restore := g.InsertingBefore(n)
	defer restore()
	var outs []node.Arg
	for b := range branch.Graph.Nodes() {
		switch b.Op() {
		case node.Placeholder:
			continue
		case node.Output:
			res, ok := seqOf(b.Arg(0))
			if !ok {
				res = []node.Arg{b.Arg(0)}
			}
			for _, r := range res {
				outs = append(outs, node.MapArg(r, func(x *node.Node) node.Arg { return vmap[x] }))
			}
			continue
		case node.GetAttr:
			c, err := hoistAttr(gm, branch, b)
			if err != nil {
				return err
			}
			vmap[b] = c
			continue
		}
		c, err := g.NodeCopy(b, func(x *node.Node) node.Arg { return vmap[x] })
		if err != nil {
			return err
		}
		vmap[b] = c
	}
	for _, u := range n.Users() {
		i, ok := getitemIndex(n, u)
		if !ok || i >= len(outs) {
			return fmt.Errorf("its user %s is not a getitem of one of its %d results", u.Name(), len(outs))
		}
		r, isNode := outs[i].(*node.Node)
		if !isNode {
			return fmt.Errorf("result %d of the branch is %v, not a node", i, outs[i])
		}
		if _, err := u.ReplaceAllUsesWith(r, nil, false); err != nil {
			return err
		}
		if err := g.EraseNode(u); err != nil {
			return err
		}
	}
	return g.EraseNode(n)
}

// hoistAttr makes what the get_attr node b of a subgraph reads (a nested
// subgraph, a tensor) an attribute of gm under a free name and returns a
// get_attr node of gm reading it.
func hoistAttr(gm *fx.GraphModule, sub *fx.GraphModule, b *node.Node) (*node.Node, error) {
	target := b.Target().String()
	a, err := nn.Attr(sub, target)
	if err != nil {
		return nil, fmt.Errorf("get_attr %s: %w", b.Name(), err)
	}
	base := strings.ReplaceAll(target, ".", "_")
	name := base
	for k := 1; taken(&gm.Base, name); k++ {
		name = fmt.Sprintf("%s_%d", base, k)
	}
	switch x := a.(type) {
	case nn.Module:
		gm.AddModule(name, x)
	case *nn.Parameter:
		gm.RegisterParameter(name, x.Tensor())
	case *nn.Buffer:
		gm.RegisterBuffer(name, x.Tensor(), x.Persistent())
	default:
		return nil, fmt.Errorf("get_attr %s reads a %T", b.Name(), a)
	}
	c, err := gm.Graph.GetAttr(name)
	if err != nil {
		return nil, err
	}
	c.Meta = b.Meta.Clone()
	return c, nil
}

// getitemIndex returns i when u is getitem(n, i).
func getitemIndex(n, u *node.Node) (int, bool) {
	if u.Op() != node.CallFunction || u.Function() != node.Function(nn.GetItem) || u.NumArgs() != 2 || u.Arg(0) != node.Arg(n) {
		return 0, false
	}
	i, ok := u.Arg(1).(node.Int)
	return int(i), ok && i >= 0
}

// seqOf returns the elements of a list or tuple argument.
func seqOf(a node.Arg) ([]node.Arg, bool) {
	switch x := a.(type) {
	case node.List:
		return []node.Arg(x), true
	case node.Tuple:
		return []node.Arg(x), true
	}
	return nil, false
}

// sameSeq returns elems as a list or tuple, as like is.
func sameSeq(like node.Arg, elems []node.Arg) node.Arg {
	if _, ok := like.(node.Tuple); ok {
		return node.Tuple(elems)
	}
	return node.List(elems)
}

// PruneHigherOrder removes the results of cond, while_loop and map_impl
// that nothing reads, and the operands their subgraphs do not use,
// consistently: a cond's result goes from both branches' outputs, and an
// operand from the operand list and both branches' placeholders (a
// while_loop's carried value from the carried inputs, the body's outputs
// and both graphs' placeholders, when neither the cond graph nor the rest
// of the body reads it; a map_impl's mapped input only while another one
// remains); the getitem nodes are renumbered and the node's val follows.
// A subgraph that another higher-order node also calls is left as it is.
var PruneHigherOrder = Pass{
	Name: "prune_higher_order",
	Doc:  "remove unused results and operands of cond, while_loop and map_impl",
	Run:  pruneHigherOrder,
}

func pruneHigherOrder(gm *fx.GraphModule) (bool, error) {
	uses := map[*fx.GraphModule]int{}
	for n := range gm.Graph.Nodes() {
		if graph.IsHigherOrder(n) {
			n.EachInput(func(in *node.Node) {
				if sub, ok := gm.SubgraphAt(in); ok {
					uses[sub]++
				}
			})
		}
	}
	changed := false
	for _, n := range slices.Collect(gm.Graph.Nodes()) {
		if !graph.IsHigherOrder(n) {
			continue
		}
		var c bool
		var err error
		switch hopKind(n) {
		case "cond":
			c, err = pruneCond(gm, n, uses)
		case "map_impl":
			c, err = pruneMap(gm, n, uses)
		case "while_loop":
			c, err = pruneWhile(gm, n, uses)
		}
		changed = changed || c
		if err != nil {
			return changed, fmt.Errorf("%s %s: %w", hopKind(n), n.Name(), err)
		}
	}
	if changed {
		gm.EliminateDeadCode() // the operands nothing reads any more
	}
	return changed, nil
}

// subgraphArgs returns the subgraphs n's arguments at idx name, or false
// when one is not a GraphModule or another node also calls it.
func subgraphArgs(gm *fx.GraphModule, n *node.Node, uses map[*fx.GraphModule]int, idx ...int) ([]*fx.GraphModule, bool) {
	var out []*fx.GraphModule
	for _, i := range idx {
		if i >= n.NumArgs() {
			return nil, false
		}
		ga, ok := n.Arg(i).(*node.Node)
		if !ok {
			return nil, false
		}
		sub, ok := gm.SubgraphAt(ga)
		if !ok || uses[sub] != 1 || slices.Contains(out, sub) {
			return nil, false
		}
		out = append(out, sub)
	}
	return out, true
}

// usedResults returns which of n's k results its getitem users read, or
// false when a user is not such a getitem.
func usedResults(n *node.Node, k int) ([]bool, bool) {
	used := make([]bool, k)
	for _, u := range n.Users() {
		i, ok := getitemIndex(n, u)
		if !ok || i >= k {
			return nil, false
		}
		used[i] = true
	}
	return used, true
}

// graphOutputs returns g's outputs (a tuple or list of them).
func graphOutputs(g *graph.Graph) (*node.Node, []node.Arg, bool) {
	out := g.OutputNode()
	if out == nil || out.NumArgs() != 1 {
		return nil, nil, false
	}
	res, ok := seqOf(out.Arg(0))
	return out, res, ok
}

// dropResults removes the results at drop (ascending) from the subgraphs'
// outputs, renumbers n's getitem users and drops them from n's val.
func dropResults(n *node.Node, subs []*fx.GraphModule, drop []int) error {
	if len(drop) == 0 {
		return nil
	}
	for _, sub := range subs {
		out, res, ok := graphOutputs(sub.Graph)
		if !ok {
			return fmt.Errorf("a subgraph's output is not a tuple")
		}
		kept := deleteAt(res, drop)
		if err := out.SetArgs([]node.Arg{sameSeq(out.Arg(0), kept)}); err != nil {
			return err
		}
		sub.EliminateDeadCode()
	}
	for _, u := range n.Users() {
		i, _ := getitemIndex(n, u)
		shift := 0
		for _, d := range drop {
			if d < i {
				shift++
			}
		}
		if shift > 0 {
			if err := u.UpdateArg(1, node.Int(i-shift)); err != nil {
				return err
			}
		}
	}
	if v, ok := node.Val.Get(&n.Meta); ok {
		if t, isTuple := v.(node.ValueTuple); isTuple {
			node.Val.Set(&n.Meta, node.ValueTuple(deleteAt([]node.Value(t), drop)))
		}
	}
	return nil
}

// dropOperands removes the placeholders at drop (ascending) from the
// subgraphs.
func dropOperands(subs []*fx.GraphModule, drop []int) error {
	for _, sub := range subs {
		phs := sub.Graph.Placeholders()
		for _, j := range drop {
			if err := sub.Graph.EraseNode(phs[j]); err != nil {
				return err
			}
		}
	}
	return nil
}

// deleteAt returns xs without the elements at the ascending indices drop.
func deleteAt[E any](xs []E, drop []int) []E {
	out := make([]E, 0, len(xs))
	for i, x := range xs {
		if !slices.Contains(drop, i) {
			out = append(out, x)
		}
	}
	return out
}

// unusedIn returns the placeholder positions in [from, to) that no
// subgraph uses.
func unusedIn(subs []*fx.GraphModule, from, to int) ([]int, bool) {
	var phs [][]*node.Node
	for _, sub := range subs {
		p := sub.Graph.Placeholders()
		if len(p) < to {
			return nil, false
		}
		phs = append(phs, p)
	}
	var out []int
	for j := from; j < to; j++ {
		unused := true
		for _, p := range phs {
			if p[j].NumUsers() > 0 {
				unused = false
			}
		}
		if unused {
			out = append(out, j)
		}
	}
	return out, true
}

// dropUnusedResults drops the results of n (computed by subs' outputs)
// that nothing reads; all of them unused is left to DCE.
func dropUnusedResults(n *node.Node, subs []*fx.GraphModule) (bool, error) {
	_, res, ok := graphOutputs(subs[0].Graph)
	if !ok {
		return false, nil
	}
	used, ok := usedResults(n, len(res))
	if !ok {
		return false, nil
	}
	var drop []int
	for i, u := range used {
		if !u {
			drop = append(drop, i)
		}
	}
	if len(drop) == 0 || len(drop) == len(res) {
		return false, nil
	}
	return true, dropResults(n, subs, drop)
}

// pruneCond prunes cond(pred, true_graph, false_graph, operands).
func pruneCond(gm *fx.GraphModule, n *node.Node, uses map[*fx.GraphModule]int) (bool, error) {
	subs, ok := subgraphArgs(gm, n, uses, 1, 2)
	if !ok || n.NumArgs() != 4 {
		return false, nil
	}
	changed, err := dropUnusedResults(n, subs)
	if err != nil {
		return changed, err
	}
	ops, ok := seqOf(n.Arg(3))
	if !ok {
		return changed, nil
	}
	drop, ok := unusedIn(subs, 0, len(ops))
	if !ok || len(drop) == 0 {
		return changed, nil
	}
	if err := dropOperands(subs, drop); err != nil {
		return true, err
	}
	return true, n.UpdateArg(3, sameSeq(n.Arg(3), deleteAt(ops, drop)))
}

// pruneMap prunes map_impl(body, xs, extra).
func pruneMap(gm *fx.GraphModule, n *node.Node, uses map[*fx.GraphModule]int) (bool, error) {
	subs, ok := subgraphArgs(gm, n, uses, 0)
	if !ok || n.NumArgs() != 3 {
		return false, nil
	}
	changed, err := dropUnusedResults(n, subs)
	if err != nil {
		return changed, err
	}
	xs, ok1 := seqOf(n.Arg(1))
	extra, ok2 := seqOf(n.Arg(2))
	if !ok1 || !ok2 {
		return changed, nil
	}
	drop, ok := unusedIn(subs, 0, len(xs)+len(extra))
	if !ok {
		return changed, nil
	}
	var dx, de []int
	for _, j := range drop {
		if j < len(xs) {
			dx = append(dx, j)
		} else {
			de = append(de, j-len(xs))
		}
	}
	if len(dx) == len(xs) {
		dx = dx[1:] // the mapped dimension needs one input
	}
	if len(dx)+len(de) == 0 {
		return changed, nil
	}
	all := slices.Clone(dx)
	for _, j := range de {
		all = append(all, j+len(xs))
	}
	if err := dropOperands(subs, all); err != nil {
		return true, err
	}
	if err := n.UpdateArg(1, sameSeq(n.Arg(1), deleteAt(xs, dx))); err != nil {
		return true, err
	}
	return true, n.UpdateArg(2, sameSeq(n.Arg(2), deleteAt(extra, de)))
}

// pruneWhile prunes while_loop(cond_graph, body_graph, carried,
// additional).
func pruneWhile(gm *fx.GraphModule, n *node.Node, uses map[*fx.GraphModule]int) (bool, error) {
	subs, ok := subgraphArgs(gm, n, uses, 0, 1)
	if !ok || n.NumArgs() != 4 {
		return false, nil
	}
	condG, body := subs[0], subs[1]
	carried, ok1 := seqOf(n.Arg(2))
	additional, ok2 := seqOf(n.Arg(3))
	if !ok1 || !ok2 {
		return false, nil
	}
	_, res, ok := graphOutputs(body.Graph)
	if !ok || len(res) != len(carried) {
		return false, nil
	}
	used, ok := usedResults(n, len(carried))
	if !ok {
		return false, nil
	}
	changed := false
	// A carried value nothing reads after the loop, that the cond graph
	// does not read and that feeds no other carried value.
	condPHs, bodyPHs := condG.Graph.Placeholders(), body.Graph.Placeholders()
	if len(condPHs) != len(carried)+len(additional) || len(bodyPHs) != len(condPHs) {
		return false, nil
	}
	var drop []int
	for i := range carried {
		if used[i] || condPHs[i].NumUsers() > 0 {
			continue
		}
		reach := reachable(bodyPHs[i])
		only := true
		for p, r := range res {
			if rn, isNode := r.(*node.Node); isNode && p != i && reach[rn] {
				only = false
			}
		}
		if only {
			drop = append(drop, i)
		}
	}
	if len(drop) > 0 && len(drop) < len(carried) {
		if err := dropResults(n, []*fx.GraphModule{body}, drop); err != nil {
			return true, err
		}
		for _, i := range drop {
			if bodyPHs[i].NumUsers() > 0 {
				return true, fmt.Errorf("carried value %d is still read in the body after its result went", i)
			}
		}
		if err := dropOperands(subs, drop); err != nil {
			return true, err
		}
		carried = deleteAt(carried, drop)
		if err := n.UpdateArg(2, sameSeq(n.Arg(2), carried)); err != nil {
			return true, err
		}
		changed = true
	}
	dropA, ok := unusedIn(subs, len(carried), len(carried)+len(additional))
	if !ok || len(dropA) == 0 {
		return changed, nil
	}
	if err := dropOperands(subs, dropA); err != nil {
		return true, err
	}
	for i := range dropA {
		dropA[i] -= len(carried)
	}
	return true, n.UpdateArg(3, sameSeq(n.Arg(3), deleteAt(additional, dropA)))
}

// reachable returns the nodes computed from n (n included).
func reachable(n *node.Node) map[*node.Node]bool {
	seen := map[*node.Node]bool{n: true}
	stack := []*node.Node{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, u := range x.Users() {
			if !seen[u] {
				seen[u] = true
				stack = append(stack, u)
			}
		}
	}
	return seen
}
