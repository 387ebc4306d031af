package record

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/tracing"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// Structured control flow (nn's controlFlowTracer): cond, while_loop and
// map record one higher-order call_function node whose branches and
// bodies are subgraphs, as torch.export 2.6 makes them. While a branch is
// traced the Recorder records into the branch's own graph (its scope):
// values of the enclosing graphs used there are parameters, buffers or
// constants, or symbolic sizes (the policy's LiftKey says which), which
// are lifted into the branch as extra operands, or an
// error (a closure over a tensor that is not an operand); an in-place
// operator on a branch input is an error too.

// Subgraphs is what a Policy implements for the Recorder to record
// structured control flow. Without it, cond, while_loop and map are
// errors.
type Subgraphs interface {
	// SubgraphInput gives placeholder n of a subgraph, which stands for
	// outer (a node of the enclosing graph; with row, one row of it, as
	// map's body sees xs), its val and returns the value model code gets
	// for it.
	SubgraphInput(r *Recorder, n, outer *node.Node, row bool) (nn.Value, error)
	// SubgraphResult gives n, the getitem of one result of a higher-order
	// node, its val (that of like, a subgraph output or a carried input;
	// with stacked non-nil, like's stacked along stacked's leading
	// dimension) and returns the value model code gets for it.
	SubgraphResult(r *Recorder, n, like, stacked *node.Node) (nn.Value, error)
	// SameValue reports how a and b (two branch outputs, or a carried
	// input and the body's result for it) differ in dtype or shape, or nil.
	SameValue(a, b *node.Node) error
	// EnterSubgraph is called before a subgraph is traced; what it returns
	// is called when the subgraph is done (the policy's per-graph caches).
	EnterSubgraph(r *Recorder) (exit func())
	// LiftKey reports whether n, a node of an enclosing graph that a
	// branch uses, may be lifted into the branch as an extra operand (a
	// parameter, buffer or constant; export's symbolic sizes too, keyed
	// to sort first as 2.14 orders them), and the key a cond's operands
	// sort by (torch.export 2.6 sorts them by their name in Dynamo's
	// graph).
	LiftKey(n *node.Node) (key string, ok bool)
	// PredicateArg returns the graph argument of a predicate that is a
	// symbolic value of the policy (export's comparison of sizes).
	PredicateArg(r *Recorder, pred nn.Value) (node.Arg, error)
}

// BranchMerger is a Subgraphs policy whose cond results may differ in
// size between the branches, as PyTorch's cond allows (since 2.7): a
// dimension where they differ gets a fresh unbacked size.
type BranchMerger interface {
	// MergeBranches checks a and b, output i of the true and the false
	// branch: an error says how they differ where they cannot merge
	// (dtype, rank); otherwise SubgraphResult gives the result with like
	// a the merged val.
	MergeBranches(r *Recorder, a, b *node.Node) error
}

// LeadingSizes is a Subgraphs policy that checks the tensors a map maps
// over (their vals) have the same leading size.
type LeadingSizes interface {
	// SameLeadingSize reports how the leading sizes of xs differ, or nil.
	SameLeadingSize(xs []*node.Node) error
}

// ConstantPredicates is a Policy that wants to know of the conds whose
// predicate was a constant (specialized: only the taken branch runs).
type ConstantPredicates interface {
	ConstantPredicate(op, where string)
}

// ConstantPredicate hands a specialized cond to the policy, if it wants
// it (nn's constantPredicates).
func (r *Recorder) ConstantPredicate(op, where string) {
	if cp, ok := r.policy.(ConstantPredicates); ok {
		cp.ConstantPredicate(op, where)
	}
}

// Sub is a subgraph recorded for a higher-order node: the attribute name
// its get_attr node reads (true_graph_0), its graph, and the subgraphs of
// its own higher-order nodes.
type Sub struct {
	Name  string
	Graph *graph.Graph
	Subs  []Sub
}

// scope is a subgraph being recorded.
type scope struct {
	what   string // "the true branch (true_graph_0) of cond"
	g      *graph.Graph
	parent *scope // nil: the enclosing graph is the root graph
	outer  *graph.Graph
	// lifted maps a node of an enclosing graph to its placeholder here;
	// lifts lists them in the order they were lifted (outer nodes of the
	// immediately enclosing graph).
	lifted map[*node.Node]*node.Node
	lifts  []*node.Node
	keys   map[*node.Node]string // the lift key of each lifted outer node
	// phOf maps a node of the immediately enclosing graph (an operand or
	// a lifted value) to its placeholder here.
	phOf   map[*node.Node]*node.Node
	inputs map[*node.Node]bool // the placeholders of the subgraph
	subs   []Sub
	count  map[string]int
	// positional names the placeholders arg0_1, arg1_1, ... by position,
	// lifted ones too, as torch.export names while_loop's (renamed once
	// arranged; lifted_NAME until then).
	positional bool
}

// Subgraphs returns the subgraphs recorded for the root graph's
// higher-order nodes.
func (r *Recorder) Subgraphs() []Sub { return r.rootSubs }

// InSubgraph reports whether the Recorder is recording a branch or body.
func (r *Recorder) InSubgraph() bool { return r.scope != nil }

// AtRoot makes the Recorder record into the root graph until the returned
// function is called: a policy creates there the nodes a branch reads that
// belong to the whole program (fx's get_attr of a parameter), which are
// then lifted into the branch.
func (r *Recorder) AtRoot() (restore func()) {
	g, s := r.g, r.scope
	for r.scope != nil {
		r.g, r.scope = r.scope.outer, r.scope.parent
	}
	return func() { r.g, r.scope = g, s }
}

// local returns the node of the current graph that stands for n: n
// itself, or the placeholder of n lifted into the current subgraph (and
// into every subgraph between). A node that cannot be lifted is an error
// naming the branch.
func (r *Recorder) local(n *node.Node) (*node.Node, error) {
	if r.scope == nil || graph.Of(n) == r.g {
		return n, nil
	}
	return r.liftInto(r.scope, n)
}

// localArg is local for a node argument a policy made (a constant, a
// symbolic size), which may be a node of an enclosing graph.
func (r *Recorder) localArg(a node.Arg, err error) (node.Arg, error) {
	if n, ok := a.(*node.Node); ok && err == nil && r.scope != nil {
		return r.local(n)
	}
	return a, err
}

func (r *Recorder) liftInto(s *scope, n *node.Node) (*node.Node, error) {
	if graph.Of(n) == s.g {
		return n, nil
	}
	if p, ok := s.lifted[n]; ok {
		return p, nil
	}
	sub, ok := r.policy.(Subgraphs)
	if !ok {
		return nil, errors.New("this recorder cannot record control flow")
	}
	key, ok := sub.LiftKey(n)
	if !ok {
		return nil, fmt.Errorf("%s uses %s at %s, a traced value of the enclosing graph that is not an operand: pass it to the branch as an operand", s.what, n.Name(), location())
	}
	outer := n
	if s.parent != nil {
		var err error
		if outer, err = r.liftInto(s.parent, n); err != nil {
			return nil, err
		}
	} else if graph.Of(n) != s.outer {
		return nil, fmt.Errorf("%s uses %s, a node of another graph", s.what, n.Name())
	}
	name := n.Name()
	if s.positional {
		name = "lifted_" + name
	}
	p, err := r.subPlaceholder(s, name, outer, false)
	if err != nil {
		return nil, err
	}
	s.lifted[n] = p
	s.phOf[outer] = p
	s.lifts = append(s.lifts, outer)
	s.keys[outer] = key
	return p, nil
}

// subPlaceholder creates a placeholder of s's graph, after its others,
// standing for outer.
func (r *Recorder) subPlaceholder(s *scope, name string, outer *node.Node, row bool) (*node.Node, error) {
	var last *node.Node
	for n := range s.g.Nodes() {
		if n.Op() != node.Placeholder {
			break
		}
		last = n
	}
	var restore func()
	if last != nil {
		restore = s.g.InsertingAfter(last)
	} else {
		restore = s.g.InsertingBefore(firstNode(s.g))
	}
	g := r.g
	r.g = s.g
	p, err := r.Create(node.Placeholder, node.Path(name), nil, nil, name, nil)
	r.g = g
	restore()
	if err != nil {
		return nil, err
	}
	if _, err := r.policy.(Subgraphs).SubgraphInput(r, p, outer, row); err != nil {
		return nil, err
	}
	s.inputs[p] = true
	return p, nil
}

func firstNode(g *graph.Graph) *node.Node {
	for n := range g.Nodes() {
		return n
	}
	return nil
}

func location() string {
	if w := tracing.Location(); w != "" {
		return w
	}
	return "(unknown location)"
}

// checkMutation refuses an in-place operator on an input of the subgraph
// being recorded (its placeholders, or values of the enclosing graphs).
func (r *Recorder) checkMutation(op *ops.Operator, args []any) error {
	if r.scope == nil || !(op.Has(ops.Inplace) || op.Has(ops.Mutable)) || len(args) == 0 {
		return nil
	}
	v := args[0]
	if x, ok := v.(nn.Value); ok {
		v = x.Raw()
	}
	p, ok := v.(*Proxy)
	if !ok || p.rec != r {
		return nil
	}
	n := p.Node()
	if graph.Of(n) != r.g || r.scope.inputs[n] {
		return fmt.Errorf("%s mutates its input %s in place (%s) at %s: branches and bodies may not mutate their inputs; compute a new tensor instead", r.scope.what, n.Name(), op, location())
	}
	return nil
}

// traced is a traced subgraph.
type traced struct {
	s    *scope
	outs []*node.Node // the subgraph's output values
	// tuple reports whether the function returned a tuple (its results are
	// read with getitem and returned as a tuple).
	tuple bool
}

// traceSub traces fn into a new subgraph standing for inputs (nodes of
// the current graph), its placeholders named by names; with row, the
// first input is one row of its node (map). single makes the output a
// single value instead of a tuple (while_loop's cond_fn).
func (r *Recorder) traceSub(what string, fn nn.Subfunc, inputs []*node.Node, names []string, rows int, single bool) (*traced, error) {
	return r.traceSubWith(what, fn, inputs, names, rows, single, false)
}

// traceSubWith is traceSub; positional names lifted placeholders for
// renaming to argN_1 (while_loop).
func (r *Recorder) traceSubWith(what string, fn nn.Subfunc, inputs []*node.Node, names []string, rows int, single, positional bool) (*traced, error) {
	sub := r.policy.(Subgraphs)
	s := &scope{
		what: what, g: graph.New(), parent: r.scope, outer: r.g,
		lifted: map[*node.Node]*node.Node{}, keys: map[*node.Node]string{},
		inputs: map[*node.Node]bool{}, count: map[string]int{},
		phOf: map[*node.Node]*node.Node{}, positional: positional,
	}
	args := make([]nn.Value, len(inputs))
	savedG, savedScope, savedStack := r.g, r.scope, r.stack
	exit := sub.EnterSubgraph(r)
	r.g, r.scope = s.g, s
	defer func() {
		r.g, r.scope, r.stack = savedG, savedScope, savedStack
		exit()
	}()
	for i, in := range inputs {
		p, err := r.Create(node.Placeholder, node.Path(names[i]), nil, nil, names[i], nil)
		if err != nil {
			return nil, err
		}
		s.inputs[p] = true
		s.phOf[in], s.lifted[in] = p, p
		if args[i], err = sub.SubgraphInput(r, p, in, i < rows); err != nil {
			return nil, err
		}
	}
	out, err := fn(args)
	if err != nil {
		return nil, err
	}
	t := &traced{s: s}
	var vals []nn.Value
	if out.IsTuple() && !single {
		t.tuple = true
		vals = out.Tuple()
	} else {
		vals = []nn.Value{out}
	}
	var res node.Tuple
	for i, v := range vals {
		a, err := r.Arg(v)
		if err != nil {
			return nil, fmt.Errorf("%s: output %d: %w", what, i, err)
		}
		n, ok := a.(*node.Node)
		if !ok {
			return nil, fmt.Errorf("%s: output %d is %s, not a traced tensor: branches and bodies return tensors", what, i, v.Kind())
		}
		t.outs = append(t.outs, n)
		res = append(res, n)
	}
	var result node.Arg = res
	if single {
		result = res[0]
	}
	if _, err := r.Create(node.Output, node.Path("output"), []node.Arg{result}, nil, "", nil); err != nil {
		return nil, err
	}
	return t, nil
}

// arrange makes the placeholders of t's graph the operands ops, in order:
// the lifted values another branch needs get placeholders here too.
func (r *Recorder) arrange(t *traced, operands []*node.Node, names []string) error {
	s := t.s
	var prev *node.Node
	for i, o := range operands {
		p, ok := s.phOf[o]
		if !ok {
			var err error
			if p, err = r.subPlaceholder(s, names[i], o, false); err != nil {
				return err
			}
			s.phOf[o] = p
		}
		var err error
		if prev == nil {
			if first := firstNode(s.g); first != p {
				err = s.g.MoveBefore(p, first)
			}
		} else {
			err = s.g.MoveAfter(p, prev)
		}
		if err != nil {
			return err
		}
		prev = p
	}
	return nil
}

// outerNode converts a value model code passed as an operand into a node
// of the current graph.
func (r *Recorder) outerNode(what string, i int, v nn.Value) (*node.Node, error) {
	a, err := r.Arg(v)
	if err != nil {
		return nil, fmt.Errorf("%s: operand %d: %w", what, i, err)
	}
	n, ok := a.(*node.Node)
	if !ok {
		return nil, fmt.Errorf("%s: operand %d is %s, not a traced tensor", what, i, v.Kind())
	}
	return n, nil
}

// subName returns the next attribute name prefix_N of the current graph.
func (r *Recorder) subName(prefix string) string {
	count := r.rootCount
	if r.scope != nil {
		count = r.scope.count
	}
	i := count[prefix]
	count[prefix] = i + 1
	return fmt.Sprintf("%s_%d", prefix, i)
}

// addSub attaches a recorded subgraph to the current graph's list.
func (r *Recorder) addSub(name string, t *traced) {
	sub := Sub{Name: name, Graph: t.s.g, Subs: t.s.subs}
	if r.scope != nil {
		r.scope.subs = append(r.scope.subs, sub)
	} else {
		r.rootSubs = append(r.rootSubs, sub)
	}
}

func hop(name string) node.Function {
	f, err := node.LookupTarget("torch.ops.higher_order." + name)
	if err != nil {
		panic(err)
	}
	return f
}

// results creates the getitem nodes of a higher-order node's k results
// (every one at once, as torch.export does) and returns the values model
// code gets; like(i) and stacked give each result's val.
func (r *Recorder) results(n *node.Node, k int, like func(i int) *node.Node, stacked *node.Node) ([]nn.Value, error) {
	sub := r.policy.(Subgraphs)
	out := make([]nn.Value, k)
	vals := make(node.ValueTuple, k)
	for i := range k {
		gi, err := r.GetItem(n, i, nil)
		if err != nil {
			return nil, err
		}
		if out[i], err = sub.SubgraphResult(r, gi, like(i), stacked); err != nil {
			return nil, err
		}
		vals[i], _ = node.Val.Get(&gi.Meta)
	}
	if vals[0] != nil {
		node.Val.Set(&n.Meta, vals)
	}
	return out, nil
}

// dynamoKeys sorts outer nodes by their lift keys.
func sortByKey(ns []*node.Node, keys map[*node.Node]string) []*node.Node {
	out := slices.Clone(ns)
	slices.SortStableFunc(out, func(a, b *node.Node) int { return strings.Compare(keys[a], keys[b]) })
	return out
}

// TraceCond records cond(pred, true_fn, false_fn, operands) (nn's
// controlFlowTracer): both branches are traced into subgraphs
// (true_graph_N, false_graph_N) taking the same operands, the parameters
// and buffers either reads lifted into them, ordered as torch.export 2.6
// orders them (the operands and the values both branches lift, sorted by
// the policy's LiftKey, then those only the true branch lifts, then those
// only the false branch lifts, each sorted); their outputs must agree in
// count, dtype and shape.
func (r *Recorder) TraceCond(pred nn.Value, trueFn, falseFn nn.Subfunc, operands []nn.Value) (nn.Value, error) {
	sub, ok := r.policy.(Subgraphs)
	if !ok {
		return nn.None, errors.New("cond: this tracer cannot record control flow")
	}
	predArg, err := sub.PredicateArg(r, pred)
	if err != nil {
		return nn.None, fmt.Errorf("cond: predicate: %w", err)
	}
	ins := make([]*node.Node, len(operands))
	names := make([]string, len(operands))
	for i, v := range operands {
		n, err := r.outerNode("cond", i, v)
		if err != nil {
			return nn.None, err
		}
		ins[i], names[i] = n, n.Name()
	}
	tname, fname := r.subName("true_graph"), r.subName("false_graph")
	tt, err := r.traceSub("cond: the true branch ("+tname+")", trueFn, ins, names, 0, false)
	if err != nil {
		return nn.None, err
	}
	ft, err := r.traceSub("cond: the false branch ("+fname+")", falseFn, ins, names, 0, false)
	if err != nil {
		return nn.None, err
	}
	if len(tt.outs) != len(ft.outs) || tt.tuple != ft.tuple {
		return nn.None, fmt.Errorf("cond: the true branch (%s) returns %d values, the false branch (%s) %d: both branches must return the same number of tensors", tname, len(tt.outs), fname, len(ft.outs))
	}
	merger, merges := r.policy.(BranchMerger)
	for i := range tt.outs {
		if merges {
			if err := merger.MergeBranches(r, tt.outs[i], ft.outs[i]); err != nil {
				return nn.None, fmt.Errorf("cond: output %d differs between the true branch (%s) and the false branch (%s): %w", i, tname, fname, err)
			}
			continue
		}
		if err := sub.SameValue(tt.outs[i], ft.outs[i]); err != nil {
			return nn.None, fmt.Errorf("cond: output %d differs between the true branch (%s) and the false branch (%s): %w", i, tname, fname, err)
		}
	}
	// The operands: torch.export 2.6's order (Dynamo's
	// dedup_and_sort_lifted_freevars).
	keys := map[*node.Node]string{}
	shared := slices.Clone(ins)
	for _, n := range ins {
		keys[n] = operandKey(sub, n)
	}
	var uniqT, uniqF []*node.Node
	for _, n := range tt.s.lifts {
		keys[n] = tt.s.keys[n]
		if slices.Contains(ft.s.lifts, n) {
			if !slices.Contains(shared, n) {
				shared = append(shared, n)
			}
		} else if !slices.Contains(shared, n) {
			uniqT = append(uniqT, n)
		}
	}
	for _, n := range ft.s.lifts {
		keys[n] = ft.s.keys[n]
		if !slices.Contains(shared, n) && !slices.Contains(uniqT, n) {
			uniqF = append(uniqF, n)
		}
	}
	all := append(append(sortByKey(shared, keys), sortByKey(uniqT, keys)...), sortByKey(uniqF, keys)...)
	allNames := make([]string, len(all))
	for i, n := range all {
		allNames[i] = n.Name()
	}
	for _, t := range []*traced{tt, ft} {
		if err := r.arrange(t, all, allNames); err != nil {
			return nn.None, err
		}
	}
	tg, err := r.Create(node.GetAttr, node.Path(tname), nil, nil, tname, nil)
	if err != nil {
		return nn.None, err
	}
	fg, err := r.Create(node.GetAttr, node.Path(fname), nil, nil, fname, nil)
	if err != nil {
		return nn.None, err
	}
	list := make(node.List, len(all))
	for i, n := range all {
		list[i] = n
	}
	n, err := r.Create(node.CallFunction, hop("cond"), []node.Arg{predArg, tg, fg, list}, nil, "cond", nil)
	if err != nil {
		return nn.None, err
	}
	r.addSub(tname, tt)
	r.addSub(fname, ft)
	vals, err := r.results(n, len(tt.outs), func(i int) *node.Node { return tt.outs[i] }, nil)
	if err != nil {
		return nn.None, err
	}
	if !tt.tuple {
		return vals[0], nil
	}
	return nn.Tuple(vals...), nil
}

// operandKey is an explicit operand's sort key: its lift key when the
// policy has one (a parameter passed as an operand), else its name as
// Dynamo names a local (l_x_).
func operandKey(sub Subgraphs, n *node.Node) string {
	if k, ok := sub.LiftKey(n); ok {
		return k
	}
	if n.Op() == node.Placeholder {
		return "l_" + n.Name() + "_"
	}
	return n.Name()
}

// TraceWhileLoop records while_loop(cond_fn, body_fn, carried,
// additional) (nn's controlFlowTracer): the condition and the body are
// traced into while_loop_cond_graph_N and while_loop_body_graph_N, both
// taking the carried values then the additional ones (placeholders
// arg0_1, arg1_1, ... as torch.export names them); parameters and buffers
// they read are lifted as additional inputs. The body must return the
// carried values' count, dtypes and shapes.
func (r *Recorder) TraceWhileLoop(condFn, bodyFn nn.Subfunc, carried, additional []nn.Value) ([]nn.Value, error) {
	sub, ok := r.policy.(Subgraphs)
	if !ok {
		return nil, errors.New("while_loop: this tracer cannot record control flow")
	}
	var ins []*node.Node
	for i, v := range append(append([]nn.Value(nil), carried...), additional...) {
		n, err := r.outerNode("while_loop", i, v)
		if err != nil {
			return nil, err
		}
		ins = append(ins, n)
	}
	names := func(k int) []string {
		out := make([]string, k)
		for i := range out {
			out[i] = fmt.Sprintf("arg%d_1", i)
		}
		return out
	}
	cname, bname := r.subName("while_loop_cond_graph"), r.subName("while_loop_body_graph")
	ct, err := r.traceSubWith("while_loop: cond_fn ("+cname+")", condFn, ins, names(len(ins)), 0, true, true)
	if err != nil {
		return nil, err
	}
	bt, err := r.traceSubWith("while_loop: body_fn ("+bname+")", bodyFn, ins, names(len(ins)), 0, false, true)
	if err != nil {
		return nil, err
	}
	if len(bt.outs) != len(carried) {
		return nil, fmt.Errorf("while_loop: body_fn (%s) returns %d values for %d carried inputs", bname, len(bt.outs), len(carried))
	}
	for i := range carried {
		if err := sub.SameValue(ins[i], bt.outs[i]); err != nil {
			return nil, fmt.Errorf("while_loop: body_fn (%s) changes carried input %d: %w", bname, i, err)
		}
	}
	all := slices.Clone(ins)
	for _, t := range []*traced{ct, bt} {
		for _, n := range t.s.lifts {
			if !slices.Contains(all, n) {
				all = append(all, n)
			}
		}
	}
	for _, t := range []*traced{ct, bt} {
		if err := r.arrange(t, all, names(len(all))); err != nil {
			return nil, err
		}
		for i, p := range t.s.g.Placeholders() {
			if want := fmt.Sprintf("arg%d_1", i); p.Name() != want {
				if _, err := t.s.g.Rename(p, want); err != nil {
					return nil, err
				}
				if err := p.SetTarget(node.Path(p.Name())); err != nil {
					return nil, err
				}
			}
		}
	}
	cg, err := r.Create(node.GetAttr, node.Path(cname), nil, nil, cname, nil)
	if err != nil {
		return nil, err
	}
	bg, err := r.Create(node.GetAttr, node.Path(bname), nil, nil, bname, nil)
	if err != nil {
		return nil, err
	}
	var carriedArg, addArg node.Tuple = node.Tuple{}, node.Tuple{}
	for i, n := range all {
		if i < len(carried) {
			carriedArg = append(carriedArg, n)
		} else {
			addArg = append(addArg, n)
		}
	}
	n, err := r.Create(node.CallFunction, hop("while_loop"), []node.Arg{cg, bg, carriedArg, addArg}, nil, "while_loop", nil)
	if err != nil {
		return nil, err
	}
	r.addSub(cname, ct)
	r.addSub(bname, bt)
	return r.results(n, len(carried), func(i int) *node.Node { return ins[i] }, nil)
}

// TraceMap records map_impl(body_fn, xs, args) (nn's controlFlowTracer):
// the body is traced into body_graph_N on one row of each of xs (the
// leaves of the mapped pytree, whose leading sizes must agree) and the
// args (placeholders named as the operands), parameters and buffers it
// reads lifted as extra args.
func (r *Recorder) TraceMap(fn nn.Subfunc, xs []nn.Value, args []nn.Value) (nn.Value, error) {
	sub, ok := r.policy.(Subgraphs)
	if !ok {
		return nn.None, errors.New("map: this tracer cannot record control flow")
	}
	if len(xs) == 0 {
		return nn.None, errors.New("map: xs has no tensors to map over")
	}
	var ins []*node.Node
	var names []string
	for i, v := range append(slices.Clone(xs), args...) {
		n, err := r.outerNode("map", i, v)
		if err != nil {
			return nn.None, err
		}
		ins, names = append(ins, n), append(names, n.Name())
	}
	if lc, ok := sub.(LeadingSizes); ok {
		if err := lc.SameLeadingSize(ins[:len(xs)]); err != nil {
			return nn.None, fmt.Errorf("map: %w", err)
		}
	}
	bname := r.subName("body_graph")
	bt, err := r.traceSub("map: the body ("+bname+")", fn, ins, names, len(xs), false)
	if err != nil {
		return nn.None, err
	}
	all := slices.Clone(ins)
	for _, n := range bt.s.lifts {
		if !slices.Contains(all, n) {
			all = append(all, n)
		}
	}
	allNames := make([]string, len(all))
	for i, n := range all {
		allNames[i] = n.Name()
	}
	if err := r.arrange(bt, all, allNames); err != nil {
		return nn.None, err
	}
	bg, err := r.Create(node.GetAttr, node.Path(bname), nil, nil, bname, nil)
	if err != nil {
		return nn.None, err
	}
	mapped := node.List{}
	for _, n := range all[:len(xs)] {
		mapped = append(mapped, n)
	}
	rest := node.List{}
	for _, n := range all[len(xs):] {
		rest = append(rest, n)
	}
	n, err := r.Create(node.CallFunction, hop("map_impl"), []node.Arg{bg, mapped, rest}, nil, "map_impl", nil)
	if err != nil {
		return nn.None, err
	}
	r.addSub(bname, bt)
	vals, err := r.results(n, len(bt.outs), func(i int) *node.Node { return bt.outs[i] }, all[0])
	if err != nil {
		return nn.None, err
	}
	if !bt.tuple {
		return vals[0], nil
	}
	return nn.Tuple(vals...), nil
}
