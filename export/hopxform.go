package export

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/record"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/tensor"
)

// subgraphRef is, while RunDecompositions replays a graph, the value of a
// get_attr node that reads a subgraph: the new graph's get_attr node.
type subgraphRef struct{ n *node.Node }

// hopResult is the value of a higher-order operator's node while
// RunDecompositions replays a graph: the new node, whose elements its
// getitem users read.
type hopResult struct{ n *node.Node }

// replayGetAttr records a get_attr node of a subgraph as it is.
func (r *recorder) replayGetAttr(n *node.Node) (any, error) {
	c, err := r.rec.Create(node.GetAttr, n.Target(), nil, nil, n.Name(), nil)
	if err != nil {
		return nil, err
	}
	c.Meta = n.Meta.Clone()
	return subgraphRef{c}, nil
}

// replayHOP records a higher-order operator's node as it is: its operands
// are the replayed values, its subgraph arguments the new get_attr nodes
// (the subgraphs themselves are decomposed apart).
func (r *recorder) replayHOP(n *node.Node, vals map[*node.Node]any) (any, error) {
	var bad error
	conv := func(x *node.Node) node.Arg {
		switch v := vals[x].(type) {
		case subgraphRef:
			return v.n
		case *record.Proxy:
			return v.Node()
		case *sproxy:
			if v.n != nil {
				return v.n
			}
		case hopResult:
			return v.n
		}
		a, err := r.rec.Arg(vals[x])
		if err != nil {
			bad = fmt.Errorf("operand %s: %w", x.Name(), err)
			return node.None
		}
		return a
	}
	args := make([]node.Arg, n.NumArgs())
	for i := range args {
		args[i] = node.MapArg(n.Arg(i), conv)
	}
	var kwargs node.Kwargs
	for _, f := range n.Kwargs() {
		kwargs = append(kwargs, node.Field{Name: f.Name, Value: node.MapArg(f.Value, conv)})
	}
	if bad != nil {
		return nil, bad
	}
	val, _ := node.Val.Get(&n.Meta)
	c, err := r.rec.Create(node.CallFunction, n.Target(), args, kwargs, "", val)
	if err != nil {
		return nil, err
	}
	return hopResult{c}, nil
}

// replayHOPItem records getitem of a higher-order operator's result with
// the val of the original getitem node n.
func (r *recorder) replayHOPItem(n *node.Node, h hopResult) (any, error) {
	i, ok := n.Arg(1).(node.Int)
	if !ok {
		return nil, fmt.Errorf("getitem of %s with index %v, not an int", h.n.Name(), n.Arg(1))
	}
	val, _ := node.Val.Get(&n.Meta)
	gi, err := r.rec.GetItem(h.n, int(i), val)
	if err != nil {
		return nil, err
	}
	if val == nil {
		return subgraphRef{gi}, nil
	}
	return r.wrap(gi, val)
}

// decomposeSubgraphs returns the subgraphs with each graph decomposed as
// RunDecompositions decomposes the program's own, nested ones included.
func (ep *ExportedProgram) decomposeSubgraphs(subs []Subgraph, table decomp.Table, where string) ([]Subgraph, error) {
	out := make([]Subgraph, len(subs))
	for i, sg := range subs {
		at := where + "subgraph " + sg.Name
		if sg.Graph == nil {
			return nil, fmt.Errorf("export: RunDecompositions: %s: nil graph", at)
		}
		g, err := ep.decomposeGraph(sg.Graph, table, at+": ")
		if err != nil {
			return nil, err
		}
		inner, err := ep.decomposeSubgraphs(sg.Subgraphs, table, at+": ")
		if err != nil {
			return nil, err
		}
		out[i] = Subgraph{Name: sg.Name, Graph: g, Subgraphs: inner}
	}
	return out, nil
}

// decomposeGraph replays one subgraph (its placeholders are the
// operator's operands, its output what the operator returns) through
// the decompositions. Subgraphs are functional: nothing is written in
// place there.
func (ep *ExportedProgram) decomposeGraph(sg *graph.Graph, table decomp.Table, where string) (*graph.Graph, error) {
	r := newRecorder(emptyModule(), ep.Env, decomp.Core().With(table))
	r.keepConds = true
	vals := map[*node.Node]any{}
	fail := func(n *node.Node, err error) error {
		return fmt.Errorf("export: RunDecompositions: %snode %s: %w", where, n.Name(), err)
	}
	for n := range sg.Nodes() {
		r.rec.Source = n
		switch n.Op() {
		case node.Placeholder:
			val, _ := node.Val.Get(&n.Meta)
			ph, err := r.rec.Create(node.Placeholder, node.Path(n.Name()), nil, nil, n.Name(), val)
			if err != nil {
				return nil, fail(n, err)
			}
			ph.Meta = n.Meta.Clone()
			if val == nil {
				return nil, fail(n, fmt.Errorf("the placeholder has no val"))
			}
			v, err := r.wrap(ph, val)
			if err != nil {
				return nil, fail(n, err)
			}
			if v == nil {
				return nil, fail(n, fmt.Errorf("the placeholder's val %v is neither a tensor nor a symbolic integer", val))
			}
			vals[n] = v
		case node.GetAttr:
			v, err := r.replayGetAttr(n)
			if err != nil {
				return nil, fail(n, err)
			}
			vals[n] = v
		case node.CallFunction:
			v, err := r.replayNode(n, vals)
			if err != nil {
				return nil, fail(n, err)
			}
			vals[n] = v
		case node.Output:
			r.rec.Source = nil
			a, err := r.outputArg(mapArg(n.Arg(0), vals))
			if err != nil {
				return nil, fail(n, err)
			}
			o, err := r.rec.Create(node.Output, node.Path("output"), []node.Arg{a}, nil, "", nil)
			if err != nil {
				return nil, fail(n, err)
			}
			o.Meta = n.Meta.Clone()
		default:
			return nil, fail(n, fmt.Errorf("unexpected %s node in a subgraph", n.Op()))
		}
	}
	g := r.rec.Graph()
	g.EliminateDeadCode()
	if err := verifyDecomposed(g, r.table); err != nil {
		return nil, fmt.Errorf("export: RunDecompositions: %sthe graph is not core ATen: %w", where, err)
	}
	return g, nil
}

// replayNode replays one call_function node: a higher-order operator and
// the getitem nodes reading its results are recorded as they are, any
// other node through the decompositions.
func (r *recorder) replayNode(n *node.Node, vals map[*node.Node]any) (any, error) {
	if graph.IsHigherOrder(n) {
		return r.replayHOP(n, vals)
	}
	if n.Function() == node.Function(nn.GetItem) && n.NumArgs() == 2 {
		if in, ok := n.Arg(0).(*node.Node); ok {
			if h, ok := vals[in].(hopResult); ok {
				return r.replayHOPItem(n, h)
			}
		}
	}
	args, kwargs := mapArgs(n, vals)
	r.replayVal, _ = node.Val.Get(&n.Meta)
	defer func() { r.replayVal = nil }()
	return r.replay(n, args, kwargs)
}

// verifyDecomposed is decomp.Verify on a graph RunDecompositions made,
// less the aten operators that table has no rule for: PyTorch's
// run_decompositions keeps such an operator as it is
// (aten.max.default in while_converge's cond graph), and so does gofx.
func verifyDecomposed(g *graph.Graph, table decomp.Table) error {
	err := decomp.Verify(g)
	var ve *decomp.VerifyError
	if !errors.As(err, &ve) {
		return err
	}
	var bad []decomp.BadNode
	for _, b := range ve.Nodes {
		if n, ok := g.Node(b.Name); ok {
			if op, isOp := n.Function().(*ops.Operator); isOp && !op.Has(ops.Mutable) {
				if _, has := table.Lookup(op); !has {
					continue
				}
			}
		}
		bad = append(bad, b)
	}
	if len(bad) == 0 {
		return nil
	}
	return &decomp.VerifyError{Nodes: bad}
}

// subgraphsOf returns the subgraphs gm's get_attr nodes read, in graph
// order, as a program holds them (their graphs are gm's, not copies).
func subgraphsOf(gm *fx.GraphModule, depth int) ([]Subgraph, error) {
	if depth > maxSubgraphDepth {
		return nil, fmt.Errorf("subgraphs nested deeper than %d", maxSubgraphDepth)
	}
	var out []Subgraph
	seen := map[string]bool{}
	for n := range gm.Graph.Nodes() {
		sub, ok := gm.SubgraphAt(n)
		if !ok || seen[n.Target().String()] {
			continue
		}
		seen[n.Target().String()] = true
		inner, err := subgraphsOf(sub, depth+1)
		if err != nil {
			return nil, err
		}
		g, err := renamedPlaceholders(sub.Graph)
		if err != nil {
			return nil, fmt.Errorf("subgraph %s: %w", n.Target(), err)
		}
		out = append(out, Subgraph{Name: n.Target().String(), Graph: g, Subgraphs: inner})
	}
	return out, nil
}

// renamedPlaceholders returns g, or where a placeholder's name differs
// from its target (a placeholder made while an erased node held the
// name), a copy of g whose placeholders are named as their targets.
func renamedPlaceholders(g *graph.Graph) (*graph.Graph, error) {
	same := true
	for _, ph := range g.Placeholders() {
		same = same && ph.Name() == ph.Target().String()
	}
	if same {
		return g, nil
	}
	c := graph.New()
	vmap := map[*node.Node]node.Arg{}
	for n := range g.Nodes() {
		var cn *node.Node
		var err error
		if n.Op() == node.Placeholder {
			cn, err = c.CreateNode(node.Placeholder, n.Target(), n.Args(), n.Kwargs(), n.Target().String())
			if err == nil {
				cn.Meta = n.Meta.Clone()
			}
		} else {
			cn, err = c.NodeCopy(n, func(x *node.Node) node.Arg { return vmap[x] })
		}
		if err != nil {
			return nil, err
		}
		vmap[n] = cn
	}
	return c, nil
}

// maxSubgraphDepth bounds the nesting of subgraphs Transform walks.
const maxSubgraphDepth = 64

// hoistSubgraphState moves the tensors that get_attr nodes of subgraphs
// read (a tensor constant folding computed inside a branch) out to gm:
// each becomes an operand of the higher-order node (cond's operands,
// while_loop's additional inputs, map_impl's extra arguments) and a new
// last placeholder of each of the node's subgraphs, as torch.export
// passes state into branches. Nested subgraphs go first, so state moves
// up one level at a time.
func hoistSubgraphState(gm *fx.GraphModule, depth int, origin *sunk) error {
	if depth > maxSubgraphDepth {
		return fmt.Errorf("subgraphs nested deeper than %d", maxSubgraphDepth)
	}
	for _, n := range slices.Collect(gm.Graph.Nodes()) {
		if !graph.IsHigherOrder(n) {
			continue
		}
		var subs []*fx.GraphModule
		for _, a := range n.Args() {
			if ga, ok := a.(*node.Node); ok {
				if sub, ok := gm.SubgraphAt(ga); ok {
					subs = append(subs, sub)
				}
			}
		}
		for _, sub := range subs {
			if err := hoistSubgraphState(sub, depth+1, origin); err != nil {
				return err
			}
		}
		// One operand per parameter or buffer, whichever subgraphs read it.
		hoisted := map[any][]*node.Node{} // attribute -> its placeholder in each of subs
		for si, sub := range subs {
			for _, b := range slices.Collect(sub.Graph.Nodes()) {
				if b.Op() != node.GetAttr {
					continue
				}
				if _, isSub := sub.SubgraphAt(b); isSub {
					continue
				}
				a, err := nn.Attr(sub, b.Target().String())
				if err != nil {
					return fmt.Errorf("%s %s: get_attr %s: %w", n.Target(), n.Name(), b.Name(), err)
				}
				phs, ok := hoisted[a]
				if !ok {
					var from string
					if depth == 0 {
						from = origin.path[a]
					}
					if phs, err = hoistOperand(gm, n, subs, a, b, from); err != nil {
						return fmt.Errorf("%s %s: %w", n.Target(), n.Name(), err)
					}
					hoisted[a] = phs
				}
				if _, err := b.ReplaceAllUsesWith(phs[si], nil, false); err != nil {
					return err
				}
				if err := sub.Graph.EraseNode(b); err != nil {
					return err
				}
			}
		}
		if want, ok := origin.order[n]; ok && len(hoisted) > 0 {
			if err := reorderOperands(gm, n, subs, want); err != nil {
				return fmt.Errorf("%s %s: %w", n.Target(), n.Name(), err)
			}
		}
	}
	return nil
}

// sunk is what sinkStateOperands notes for hoistSubgraphState: where the
// program's module held each parameter and buffer it moved into a
// subgraph (path), and each higher-order node's operands in their order
// before (order: an operand node, or the state a get_attr operand reads).
type sunk struct {
	path  map[any]string
	order map[*node.Node][]any
}

func newSunk() *sunk { return &sunk{path: map[any]string{}, order: map[*node.Node][]any{}} }

// operandKey identifies an operand of a higher-order node of gm across a
// pass: the parameter or buffer a get_attr reads, else the node itself.
func operandKey(gm *fx.GraphModule, e node.Arg) any {
	ga, ok := e.(*node.Node)
	if !ok {
		return e
	}
	if ga.Op() == node.GetAttr {
		if a, err := nn.Attr(gm, ga.Target().String()); err == nil {
			switch a.(type) {
			case *nn.Parameter, *nn.Buffer:
				return a
			}
		}
	}
	return ga
}

// operandList returns the index of n's operand list (cond's operands,
// while_loop's additional inputs, map_impl's extra arguments) and how
// many subgraph placeholders come before its elements (carried inputs,
// mapped xs); ok is false for another form.
func operandList(n *node.Node) (at, first int, ok bool) {
	switch hopName(n) {
	case "cond":
		return 3, 0, n.NumArgs() > 3
	case "while_loop":
		if n.NumArgs() < 4 {
			return 0, 0, false
		}
		carried, ok := seqArgs(n.Arg(2))
		return 3, len(carried), ok
	case "map_impl":
		if n.NumArgs() < 3 {
			return 0, 0, false
		}
		xs, ok := seqArgs(n.Arg(1))
		return 2, len(xs), ok
	}
	return 0, 0, false
}

// reorderOperands puts the operands of n (and the matching placeholders
// of its subgraphs subs) back in the order want lists them, as the
// program had them before the passes (PyTorch's order: the parameters and
// buffers a branch reads lifted in 2.6's order); operands want does not
// know (a tensor a pass made) follow, in their order.
func reorderOperands(gm *fx.GraphModule, n *node.Node, subs []*fx.GraphModule, want []any) error {
	at, first, ok := operandList(n)
	if !ok {
		return nil
	}
	elems, ok := seqArgs(n.Arg(at))
	if !ok {
		return nil
	}
	rank := make(map[any]int, len(want))
	for i, k := range want {
		if _, dup := rank[k]; !dup {
			rank[k] = i
		}
	}
	perm := make([]int, len(elems))
	keyRank := make([]int, len(elems))
	for i, e := range elems {
		perm[i] = i
		r, known := rank[operandKey(gm, e)]
		if !known {
			r = len(want)
		}
		keyRank[i] = r
	}
	slices.SortStableFunc(perm, func(a, b int) int { return keyRank[a] - keyRank[b] })
	if slices.IsSorted(perm) {
		return nil
	}
	for _, sub := range subs {
		if len(sub.Graph.Placeholders()) != first+len(elems) {
			return nil // not the operator's usual form: left as it is
		}
	}
	out := make([]node.Arg, len(elems))
	for i, j := range perm {
		out[i] = elems[j]
	}
	var err error
	if _, isTuple := n.Arg(at).(node.Tuple); isTuple {
		err = n.UpdateArg(at, node.Tuple(out))
	} else {
		err = n.UpdateArg(at, node.List(out))
	}
	if err != nil {
		return err
	}
	for _, sub := range subs {
		phs := sub.Graph.Placeholders()
		var anchor *node.Node
		for x := range sub.Graph.Nodes() {
			if x.Op() != node.Placeholder {
				anchor = x
				break
			}
		}
		if anchor == nil {
			return fmt.Errorf("subgraph has no output node")
		}
		for _, j := range perm {
			if err := sub.Graph.MoveBefore(phs[first+j], anchor); err != nil {
				return err
			}
		}
	}
	return nil
}

// hoistOperand makes the parameter or buffer a, which the get_attr node b
// of a subgraph reads, an operand of the higher-order node n of gm, whose
// subgraphs are subs, and returns its new placeholder in each of them.
//
// from is where the program's module held a before sinkStateOperands
// moved it ("" : a tensor a pass made): when a pass deleted the module
// that held it (DeleteUnusedSubmodules, nothing reading it there any
// more), it goes back under that path.
func hoistOperand(gm *fx.GraphModule, n *node.Node, subs []*fx.GraphModule, a any, b *node.Node, from string) ([]*node.Node, error) {
	target := b.Target().String()
	var t *tensor.Tensor
	switch x := a.(type) {
	case *nn.Parameter:
		t = x.Tensor()
	case *nn.Buffer:
		t = x.Tensor()
	default:
		return nil, fmt.Errorf("get_attr %s of a subgraph reads a %T, not a tensor", b.Name(), a)
	}
	// State the enclosing module holds itself (sinkStateOperands put it in
	// the subgraph) goes back to being read there, keeping its kind.
	name, phName := ownAttr(gm, a)
	if name == "" && from != "" {
		if err := shareAt(gm, from, a); err != nil {
			return nil, err
		}
		name, phName = ownAttr(gm, a)
	}
	if name == "" {
		base := "_" + strings.ReplaceAll(strings.TrimPrefix(target, "_"), ".", "_")
		name = base
		for k := 1; ; k++ {
			if _, err := nn.Attr(gm, name); err != nil {
				break
			}
			name = fmt.Sprintf("%s_%d", base, k)
		}
		gm.RegisterBuffer(name, t, false)
		phName = "c_" + name
	}
	restore := gm.Graph.InsertingBefore(n)
	ga, err := gm.Graph.GetAttr(name)
	restore()
	if err != nil {
		return nil, err
	}
	ga.Meta = b.Meta.Clone()
	// The operand list the new operand joins.
	at := map[string]int{"cond": 3, "while_loop": 3, "map_impl": 2}[hopName(n)]
	if at == 0 || at >= n.NumArgs() {
		return nil, fmt.Errorf("gofx does not pass state into the subgraphs of %s", n.Target())
	}
	switch x := n.Arg(at).(type) {
	case node.List:
		err = n.UpdateArg(at, append(slices.Clone(x), ga))
	case node.Tuple:
		err = n.UpdateArg(at, append(slices.Clone(x), ga))
	default:
		err = fmt.Errorf("argument %d is %v, not a list", at, n.Arg(at))
	}
	if err != nil {
		return nil, err
	}
	var out []*node.Node
	for _, s := range subs {
		phs := s.Graph.Placeholders()
		var restore func()
		if len(phs) > 0 {
			restore = s.Graph.InsertingAfter(phs[len(phs)-1])
		} else {
			for f := range s.Graph.Nodes() {
				restore = s.Graph.InsertingBefore(f)
				break
			}
		}
		// Named as the operand will be once lifted (p_NAME, b_NAME,
		// c_NAME), as a branch's placeholders are named after the
		// operands (subgraphsOf makes the name the placeholder's target
		// where an earlier node held it).
		ph, err := s.Graph.Placeholder(phName)
		restore()
		if err != nil {
			return nil, err
		}
		ph.Meta = b.Meta.Clone()
		if _, ok := node.Val.Get(&ph.Meta); !ok {
			node.Val.Set(&ph.Meta, shapeprop.FakeOf(t))
		}
		out = append(out, ph)
	}
	return out, nil
}

// hopName is the last part of a higher-order node's target ("cond").
func hopName(n *node.Node) string {
	name := n.Target().String()
	return name[strings.LastIndexByte(name, '.')+1:]
}

// ownAttr returns the dotted path under which gm's module tree holds the
// parameter or buffer a (outside gm's subgraphs), and the placeholder name
// export gives it (p_conv_weight, b_running_mean); "" when gm does not
// hold it.
func ownAttr(gm *fx.GraphModule, a any) (path, placeholder string) {
	subs := map[string]bool{}
	for name, c := range gm.Children() {
		if _, ok := c.(*fx.GraphModule); ok {
			subs[name] = true
		}
	}
	// Every module outside the subgraphs, its direct attributes: a
	// parameter a subgraph shares is listed there too, and must not hide
	// the program's own.
	for mpath, m := range nn.NamedModules(gm) {
		first, _, _ := strings.Cut(mpath, ".")
		if mpath != "" && subs[first] {
			continue
		}
		join := func(name string) string {
			if mpath == "" {
				return name
			}
			return mpath + "." + name
		}
		switch x := a.(type) {
		case *nn.Parameter:
			for name, q := range m.ModuleBase().Parameters() {
				if q == x {
					p := join(name)
					return p, "p_" + strings.ReplaceAll(p, ".", "_")
				}
			}
		case *nn.Buffer:
			for name, q := range m.ModuleBase().Buffers() {
				if q == x {
					p := join(name)
					prefix := "b_"
					if !x.Persistent() {
						prefix = "c_"
					}
					return p, prefix + strings.ReplaceAll(p, ".", "_")
				}
			}
		}
	}
	return "", ""
}

// sinkStateOperands makes the parameters and buffers that gm passes to
// its higher-order operators as operands (cond's operands, while_loop's
// additional inputs, map_impl's extra arguments: get_attr nodes of gm)
// attributes of the subgraphs, read there with get_attr in place of the
// placeholders, so that passes inside a branch see state as state
// (constant folding, the batch-norm foldings). Nested subgraphs follow.
// hoistSubgraphState turns them back into operands.
func sinkStateOperands(gm *fx.GraphModule, depth int, origin *sunk) error {
	if depth > maxSubgraphDepth {
		return fmt.Errorf("subgraphs nested deeper than %d", maxSubgraphDepth)
	}
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
	for _, n := range slices.Collect(gm.Graph.Nodes()) {
		if !graph.IsHigherOrder(n) {
			continue
		}
		var subs []*fx.GraphModule
		shared := false
		for _, a := range n.Args() {
			if ga, ok := a.(*node.Node); ok {
				if sub, ok := gm.SubgraphAt(ga); ok {
					subs = append(subs, sub)
					shared = shared || uses[sub] != 1
				}
			}
		}
		if !shared && len(subs) > 0 {
			if err := sinkInto(gm, n, subs, origin); err != nil {
				return fmt.Errorf("%s %s: %w", n.Target(), n.Name(), err)
			}
		}
		for _, sub := range subs {
			if err := sinkStateOperands(sub, depth+1, origin); err != nil {
				return err
			}
		}
	}
	return nil
}

// sinkInto moves the state operands of the higher-order node n into its
// subgraphs subs.
func sinkInto(gm *fx.GraphModule, n *node.Node, subs []*fx.GraphModule, origin *sunk) error {
	var at, first int
	switch hopName(n) {
	case "cond":
		at = 3
	case "while_loop":
		at = 3
		if n.NumArgs() > 2 {
			carried, ok := seqArgs(n.Arg(2))
			if !ok {
				return nil
			}
			first = len(carried)
		}
	case "map_impl":
		at = 2
		if n.NumArgs() > 1 {
			xs, ok := seqArgs(n.Arg(1))
			if !ok {
				return nil
			}
			first = len(xs)
		}
	default:
		return nil
	}
	if n.NumArgs() <= at {
		return nil
	}
	elems, ok := seqArgs(n.Arg(at))
	if !ok {
		return nil
	}
	phs := make([][]*node.Node, len(subs))
	for i, sub := range subs {
		phs[i] = sub.Graph.Placeholders()
		if len(phs[i]) != first+len(elems) {
			return nil // not the operator's usual form: left as it is
		}
	}
	// The operands' order (PyTorch's), by operand node or by the state
	// each reads, for hoistSubgraphState to restore.
	order := make([]any, len(elems))
	for j, e := range elems {
		order[j] = operandKey(gm, e)
	}
	origin.order[n] = order
	var kept []node.Arg
	type erase struct {
		sub *fx.GraphModule
		ph  *node.Node
	}
	var gone []erase
	for j, e := range elems {
		ga, ok := e.(*node.Node)
		var a any
		if ok && ga.Op() == node.GetAttr {
			a, _ = nn.Attr(gm, ga.Target().String())
		}
		p, isParam := a.(*nn.Parameter)
		b, isBuffer := a.(*nn.Buffer)
		if !isParam && !isBuffer {
			kept = append(kept, e)
			continue
		}
		if _, seen := origin.path[a]; !seen {
			origin.path[a] = ga.Target().String() // the program's own path comes first
		}
		for i, sub := range subs {
			ph := phs[i][first+j]
			name := ph.Name()
			for k := 1; ; k++ {
				if _, err := nn.Attr(sub, name); err != nil {
					break
				}
				name = fmt.Sprintf("%s_%d", ph.Name(), k)
			}
			if isParam {
				sub.ShareParameter(name, p)
			} else {
				sub.ShareBuffer(name, b)
			}
			if err := nn.Err(sub); err != nil {
				return err
			}
			restore := sub.Graph.InsertingAfter(phs[i][len(phs[i])-1])
			c, err := sub.Graph.GetAttr(name)
			restore()
			if err != nil {
				return err
			}
			c.Meta = ph.Meta.Clone()
			if _, err := ph.ReplaceAllUsesWith(c, nil, false); err != nil {
				return err
			}
			gone = append(gone, erase{sub, ph})
		}
	}
	if len(gone) == 0 {
		return nil
	}
	for _, g := range gone {
		if err := g.sub.Graph.EraseNode(g.ph); err != nil {
			return err
		}
	}
	if _, isTuple := n.Arg(at).(node.Tuple); isTuple {
		return n.UpdateArg(at, node.Tuple(kept))
	}
	return n.UpdateArg(at, node.List(kept))
}

// seqArgs returns the elements of a list or tuple argument.
func seqArgs(a node.Arg) ([]node.Arg, bool) {
	switch x := a.(type) {
	case node.List:
		return []node.Arg(x), true
	case node.Tuple:
		return []node.Arg(x), true
	}
	return nil, false
}

// shareAt registers the parameter or buffer a in gm's module tree under
// the dotted path, creating plain modules on the way.
func shareAt(gm *fx.GraphModule, path string, a any) error {
	parts := strings.Split(path, ".")
	owner := &gm.Base
	for _, p := range parts[:len(parts)-1] {
		c, ok := owner.Child(p)
		if !ok {
			c = nn.RegisterModule(owner, p, emptyModule())
		}
		owner = c.ModuleBase()
	}
	leaf := parts[len(parts)-1]
	switch x := a.(type) {
	case *nn.Parameter:
		owner.ShareParameter(leaf, x)
	case *nn.Buffer:
		owner.ShareBuffer(leaf, x)
	}
	return nn.Err(gm)
}
