package export

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/tensor"
)

// A Pass is a transformation of a GraphModule that Transform runs on a
// program: Apply edits gm in place and reports whether it changed it.
// passes.Pass and *passes.Manager satisfy it (export does not import
// package passes); PassFunc turns a function into one.
type Pass interface {
	Apply(gm *fx.GraphModule) (changed bool, err error)
}

// PassFunc is a function used as a Pass.
type PassFunc func(gm *fx.GraphModule) (changed bool, err error)

// Apply calls f(gm).
func (f PassFunc) Apply(gm *fx.GraphModule) (bool, error) { return f(gm) }

// Transform runs passes, in order, on the program as a GraphModule (what
// Module returns: the state read with get_attr, buffer and input
// mutations written back with copy_) and returns the new program, with the
// state lifted back into placeholders. ep is not changed, nor is the model
// it was exported from; when no pass reports a change the result is ep
// itself.
//
// The program is edited, not re-exported: the user inputs (specialized
// ones included) and their checks, the nodes left with their names and
// metadata, the output structure, the range and equality constraints and
// the module call graph carry over. The state is what the passes left:
//
//   - every tensor a get_attr node still reads is an input: under its old
//     placeholder when it keeps its kind (a parameter whose tensor a pass
//     replaced keeps p_conv1_weight), otherwise under a new placeholder
//     named as export names them (p_conv1_weight_folded,
//     c__folded_constant_0), with a val, after the old inputs of its kind;
//   - a parameter of the GraphModule is a PARAMETER input, a persistent
//     buffer a BUFFER, and a new non-persistent buffer (a tensor computed
//     by constant folding) a lifted CONSTANT_TENSOR; a constant of ep
//     that a pass made a parameter becomes one;
//   - state no get_attr node reads any more is dropped, with its input;
//     the buffers the program mutates stay, with their write-back
//     outputs.
//
// The passes must not write into the state tensors in place: they are
// ep's (create new tensors, as the folding passes do). A module call graph
// entry naming a value a pass replaced names its replacement when a node
// that used the old value survives, and loses the name otherwise.
func (ep *ExportedProgram) Transform(passes ...Pass) (*ExportedProgram, error) {
	if ep == nil || ep.Graph == nil {
		return nil, fmt.Errorf("export: Transform: nil program")
	}
	gm, err := ep.Module()
	if err != nil {
		return nil, fmt.Errorf("export: Transform: %w", err)
	}
	calls := trackCalls(ep, gm.Graph)
	// State reaches a subgraph as an operand: the passes see it there as
	// state (read with get_attr) while they run; lift makes it an
	// operand again.
	origin := newSunk()
	if err := sinkStateOperands(gm, 0, origin); err != nil {
		return nil, fmt.Errorf("export: Transform: %w", err)
	}
	changed := false
	for i, p := range passes {
		c, err := applyPass(p, gm)
		if err != nil {
			return nil, fmt.Errorf("export: Transform: pass %d (%s): %w", i, passName(p), err)
		}
		changed = changed || c
	}
	if !changed {
		return ep, nil
	}
	out, err := ep.lift(gm, origin)
	if err != nil {
		return nil, fmt.Errorf("export: Transform: %w", err)
	}
	out.ModuleCallGraph = calls.update(out.ModuleCallGraph, out.Graph)
	return out, nil
}

// applyPass runs p on gm; a panic comes back as an error.
func applyPass(p Pass, gm *fx.GraphModule) (changed bool, err error) {
	if p == nil {
		return false, fmt.Errorf("nil pass")
	}
	defer func() {
		if r := recover(); r != nil {
			changed, err = true, fmt.Errorf("panic: %v", r)
		}
	}()
	return p.Apply(gm)
}

func passName(p Pass) string {
	if s, ok := p.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%T", p)
}

// lifted is one input of the transformed program.
type lifted struct {
	spec InputSpec
	t    *tensor.Tensor
	meta *node.Node // the first node reading it (get_attr or placeholder)
	old  int        // its position in ep's inputs; -1 for a new input
	ph   *node.Node // its placeholder in the new graph
}

// lift turns gm, a GraphModule made by ep.Module and transformed, back
// into a program.
func (ep *ExportedProgram) lift(gm *fx.GraphModule, origin *sunk) (*ExportedProgram, error) {
	src := gm.Graph
	if err := hoistSubgraphState(gm, 0, origin); err != nil {
		return nil, err
	}
	subs, err := subgraphsOf(gm, 0)
	if err != nil {
		return nil, err
	}
	oldSpec := map[string]int{} // state target -> input position in ep
	for i, in := range ep.Signature.Inputs {
		if in.Kind != UserInput {
			oldSpec[in.Target] = i
		}
	}
	// The copy_ nodes that Module added write the mutated buffers and
	// user inputs back: they become outputs again.
	writes, err := ep.writeBacks(src)
	if err != nil {
		return nil, err
	}
	skip := map[*node.Node]bool{}
	for _, c := range writes {
		skip[c] = true
	}

	// The state inputs: one per get_attr target, in kind order, old
	// inputs first.
	byTarget := map[string]*lifted{}
	var state []*lifted
	names := map[string]bool{}
	for n := range src.Nodes() {
		names[n.Name()] = true
	}
	for n := range src.Nodes() {
		if n.Op() != node.GetAttr {
			continue
		}
		if _, isSub := gm.SubgraphAt(n); isSub {
			continue // a subgraph stays an attribute
		}
		target := n.Target().String()
		if byTarget[target] != nil {
			continue
		}
		l, err := ep.liftAttr(gm, n, oldSpec)
		if err != nil {
			return nil, err
		}
		byTarget[target] = l
		state = append(state, l)
	}
	slices.SortStableFunc(state, func(a, b *lifted) int {
		if a.spec.Kind != b.spec.Kind {
			return int(a.spec.Kind) - int(b.spec.Kind)
		}
		switch {
		case a.old >= 0 && b.old >= 0:
			return a.old - b.old
		case a.old >= 0:
			return -1
		case b.old >= 0:
			return 1
		}
		return 0
	})
	for _, l := range state {
		if l.old >= 0 {
			continue
		}
		prefix := map[InputKind]string{Parameter: "p_", Buffer: "b_", ConstantTensor: "c_"}[l.spec.Kind]
		base := prefix + strings.ReplaceAll(l.spec.Target, ".", "_")
		name := base
		for k := 1; names[name]; k++ {
			name = fmt.Sprintf("%s_%d", base, k)
		}
		names[name] = true
		l.spec.Name = name
	}

	g := graph.New()
	vmap := map[*node.Node]node.Arg{}
	for _, l := range state {
		ph, err := g.CreateNode(node.Placeholder, node.Path(l.spec.Name), nil, nil, l.spec.Name)
		if err != nil {
			return nil, err
		}
		if ph.Name() != l.spec.Name {
			return nil, fmt.Errorf("placeholder %s was named %s", l.spec.Name, ph.Name())
		}
		ph.Meta = l.meta.Meta.Clone()
		if _, ok := node.Val.Get(&ph.Meta); !ok || l.old < 0 {
			node.Val.Set(&ph.Meta, shapeprop.FakeOf(l.t))
		}
		l.ph = ph
	}
	for n := range src.Nodes() {
		switch {
		case n.Op() == node.Output || skip[n]:
			continue
		case n.Op() == node.GetAttr && byTarget[n.Target().String()] != nil:
			vmap[n] = byTarget[n.Target().String()].ph
			continue
		}
		c, err := g.NodeCopy(n, func(x *node.Node) node.Arg { return vmap[x] })
		if err != nil {
			return nil, err
		}
		if c.Name() != n.Name() {
			return nil, fmt.Errorf("node %s was renamed %s", n.Name(), c.Name())
		}
		vmap[n] = c
	}

	// The output: the write-backs, then the user outputs, flattened.
	leaves, err := ep.out.flattenArg(src.OutputNode().Arg(0))
	if err != nil {
		return nil, fmt.Errorf("output node %s: %w", src.OutputNode().Name(), err)
	}
	var results node.Tuple
	sig := Signature{Outputs: slices.Clone(ep.Signature.Outputs)}
	for i, o := range sig.Outputs {
		var r node.Arg
		if o.Kind == UserOutput {
			r, leaves = leaves[0], leaves[1:]
		} else {
			r = writes[o.Target].Arg(1)
		}
		r = node.MapArg(r, func(x *node.Node) node.Arg { return vmap[x] })
		n, ok := r.(*node.Node)
		if !ok {
			return nil, fmt.Errorf("output %d (%s, %s) is %v, not a node", i, o.Name, o.Kind, r)
		}
		sig.Outputs[i].Name = n.Name()
		results = append(results, n)
	}
	out, err := g.Output(results)
	if err != nil {
		return nil, err
	}
	out.Meta = src.OutputNode().Meta.Clone()

	params := map[string]*tensor.Tensor{}
	var consts []stateEntry
	statePH := map[*node.Node]bool{}
	for _, l := range state {
		statePH[l.ph] = true
		sig.Inputs = append(sig.Inputs, l.spec)
		if l.spec.Kind == ConstantTensor {
			consts = append(consts, stateEntry{l.spec.Target, l.t})
		} else {
			params[l.spec.Target] = l.t
		}
	}
	for _, ph := range g.Placeholders() {
		if statePH[ph] {
			continue
		}
		sig.Inputs = append(sig.Inputs, InputSpec{Kind: UserInput, Name: ph.Name()})
	}
	prog, err := ep.withState(g, sig, params, consts)
	if err != nil {
		return nil, err
	}
	prog.subgraphs = subs
	return prog, nil
}

// liftAttr returns the input for the tensor that the get_attr node n
// reads.
func (ep *ExportedProgram) liftAttr(gm *fx.GraphModule, n *node.Node, oldSpec map[string]int) (*lifted, error) {
	target := n.Target().String()
	a, err := nn.Attr(gm, target)
	if err != nil {
		return nil, fmt.Errorf("get_attr %s: %w", n.Name(), err)
	}
	l := &lifted{meta: n, old: -1}
	i, had := oldSpec[target]
	var old InputSpec
	if had {
		old = ep.Signature.Inputs[i]
	}
	switch x := a.(type) {
	case *nn.Parameter:
		l.t = x.Tensor()
		l.spec = InputSpec{Kind: Parameter, Target: target}
	case *nn.Buffer:
		l.t = x.Tensor()
		switch {
		case x.Persistent():
			l.spec = InputSpec{Kind: Buffer, Target: target, Persistent: true}
		case had && old.Kind == Buffer:
			l.spec = InputSpec{Kind: Buffer, Target: target}
		default: // Module's constants, constant folding's results
			l.spec = InputSpec{Kind: ConstantTensor, Target: target}
		}
	default:
		return nil, fmt.Errorf("get_attr %s reads %s, a %T, not a parameter or buffer", n.Name(), target, a)
	}
	if l.t == nil {
		return nil, fmt.Errorf("get_attr %s reads %s, a nil tensor", n.Name(), target)
	}
	if had && old.Kind == l.spec.Kind {
		l.spec, l.old = old, i
	}
	return l, nil
}

// writeBacks returns the copy_ nodes that write the mutated buffers and
// user inputs back (what Module adds at the end of the graph), by the
// target of their output spec.
func (ep *ExportedProgram) writeBacks(g *graph.Graph) (map[string]*node.Node, error) {
	want := map[string]OutputKind{}
	for _, o := range ep.Signature.Outputs {
		if o.Kind != UserOutput {
			want[o.Target] = o.Kind
		}
	}
	out := map[string]*node.Node{}
	if len(want) == 0 {
		return out, nil
	}
	for n := range g.Nodes() {
		if n.Op() != node.CallFunction || n.Function() != node.Function(copyInPlace) || n.NumUsers() > 0 || n.NumArgs() != 2 {
			continue
		}
		dst, ok := n.Arg(0).(*node.Node)
		if !ok {
			continue
		}
		var target string
		switch {
		case dst.Op() == node.GetAttr && want[dst.Target().String()] == BufferMutation:
			target = dst.Target().String()
		case dst.Op() == node.Placeholder && want[dst.Name()] == UserInputMutation:
			target = dst.Name()
		}
		if target == "" {
			continue
		}
		out[target] = n // the last write wins
	}
	for _, o := range ep.Signature.Outputs {
		if o.Kind != UserOutput && out[o.Target] == nil {
			return nil, fmt.Errorf("the graph no longer writes %s back (%s output %s): a pass removed its copy_", o.Target, o.Kind, o.Name)
		}
	}
	return out, nil
}

// callTracker follows the values the module call graph names through the
// passes: for each, one user and the value's position among the user's
// inputs.
type callTracker map[string]struct {
	n    *node.Node
	user *node.Node
	at   int
}

func trackCalls(ep *ExportedProgram, g *graph.Graph) callTracker {
	t := callTracker{}
	for _, c := range ep.ModuleCallGraph {
		for _, name := range slices.Concat(c.Inputs, c.Outputs) {
			n, ok := g.Node(name)
			if !ok {
				continue
			}
			e := t[name]
			e.n = n
			for _, u := range n.Users() {
				for i, in := range inputsOf(u) {
					if in == n {
						e.user, e.at = u, i
						break
					}
				}
				if e.user != nil {
					break
				}
			}
			t[name] = e
		}
	}
	return t
}

// update renames, in calls, the values the passes replaced (and drops
// those with no replacement); g is the new program's graph.
func (t callTracker) update(calls []ModuleCall, g *graph.Graph) []ModuleCall {
	rename := func(names []string) []string {
		var out []string
		for _, name := range names {
			e, ok := t[name]
			if !ok || !e.n.Erased() {
				out = append(out, name)
				continue
			}
			if e.user == nil || e.user.Erased() {
				continue
			}
			ins := inputsOf(e.user)
			if e.at < len(ins) {
				if _, ok := g.Node(ins[e.at].Name()); ok {
					out = append(out, ins[e.at].Name())
				}
			}
		}
		return out
	}
	for i := range calls {
		calls[i].Inputs = rename(calls[i].Inputs)
		calls[i].Outputs = rename(calls[i].Outputs)
	}
	return calls
}

// inputsOf returns the nodes n's arguments name, in order, repetitions
// included.
func inputsOf(n *node.Node) []*node.Node {
	var out []*node.Node
	n.EachInput(func(in *node.Node) { out = append(out, in) })
	return out
}
