package passes

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// FoldOptions limit constant folding.
type FoldOptions struct {
	// MaxGrowth, when positive, refuses to fold a value whose tensor is
	// more than MaxGrowth times as large (in bytes) as the parameters,
	// buffers and constants it is computed from: folding expand(w, ...)
	// or ones_like(w) would store a large tensor in place of a small one
	// and a cheap computation. The refused node stays in the graph, and the
	// folding stops at its inputs.
	MaxGrowth float64
	// MaxBytes, when positive, refuses to fold a value whose tensor is
	// larger than MaxBytes (this also bounds values computed from no
	// tensor at all, such as zeros([1000, 1000])).
	MaxBytes int64
}

// FoldConstants folds the parts of the graph that depend only on the
// module's state and on literals (FoldConstantsWith with no limits).
var FoldConstants = FoldConstantsWith(FoldOptions{})

// FoldConstantsWith returns the constant-folding pass with the given
// limits.
//
// A node is constant when it is a get_attr of a parameter, buffer or
// constant tensor, or a pure call (the nodes CSE may merge: no side
// effects, no random numbers, no call_module) whose inputs are all
// constant. The constant nodes that a non-constant node (or the output)
// uses are computed once, with the interpreter and therefore the same
// kernels the graph would run, and each is replaced by a get_attr of a new
// non-persistent buffer of the GraphModule called _folded_constant_N
// (a number or bool is written into its users as a literal instead).
// Constant nodes that are then unused are removed.
//
// The folded buffers are snapshots: a later change to the parameters they
// were computed from does not reach them. The user's module is not
// touched; the buffers belong to the GraphModule. A folded value that is
// a view of a parameter (t(), permute) stays a view of it, strides and all,
// so that the kernels that use it compute exactly what they did.
func FoldConstantsWith(o FoldOptions) Pass {
	return Pass{
		Name: "fold_constants",
		Doc:  "compute the parts of the graph that depend only on state and literals once",
		Run:  func(gm *fx.GraphModule) (bool, error) { return foldConstants(gm, o) },
	}
}

// foldConstants is the constant-folding pass with the limits o.
func foldConstants(gm *fx.GraphModule, o FoldOptions) (bool, error) {
	g := gm.Graph
	mutated := mutatedState(gm)
	foldable := map[*node.Node]bool{}
	var order []*node.Node
	for n := range g.Nodes() {
		if n.Op() == node.GetAttr && mutated(n.Target().String()) {
			continue
		}
		if constantNode(gm, n, foldable) {
			foldable[n] = true
			order = append(order, n)
		}
	}
	if len(order) == 0 {
		return false, nil
	}
	var cands []*node.Node
	var vals []nn.Value
	for {
		cands = cands[:0]
		for _, n := range order {
			if foldable[n] && n.Op() != node.GetAttr && !allUsers(n, func(u *node.Node) bool { return foldable[u] }) {
				cands = append(cands, n)
			}
		}
		if len(cands) == 0 {
			return false, nil
		}
		var err error
		vals, err = evalConstants(gm, order, foldable, cands)
		if err != nil {
			return false, err
		}
		refused := false
		if o.MaxGrowth > 0 || o.MaxBytes > 0 {
			var src map[*node.Node]map[*node.Node]bool
			if o.MaxGrowth > 0 {
				src = sources(order, foldable)
			}
			for i, c := range cands {
				t := vals[i].Tensor()
				if t == nil {
					continue
				}
				size := int64(t.Numel()) * int64(t.DType().Size())
				if o.MaxBytes > 0 && size > o.MaxBytes {
					foldable[c], refused = false, true
					continue
				}
				if o.MaxGrowth > 0 {
					var in int64
					for s := range src[c] {
						if st := constTensor(gm, s); st != nil {
							in += int64(st.Numel()) * int64(st.DType().Size())
						}
					}
					if in > 0 && float64(size) > o.MaxGrowth*float64(in) {
						foldable[c], refused = false, true
					}
				}
			}
		}
		if !refused {
			break
		}
	}
	changed := false
	next := 0
	for i, c := range cands {
		v := vals[i]
		if t := v.Tensor(); t != nil {
			name := ""
			name, next = freeName(gm, next)
			gm.RegisterBuffer(name, t, false) // cannot fail: the name is free
			restore := g.InsertingBefore(c)
			ga, err := g.GetAttr(name)
			restore()
			if err != nil {
				return changed, fmt.Errorf("node %s: %w", c.Name(), err)
			}
			ga.Meta = c.Meta.Clone()
			if _, err := c.ReplaceAllUsesWith(ga, nil, false); err != nil {
				return changed, fmt.Errorf("node %s: %w", c.Name(), err)
			}
			changed = true
			continue
		}
		lit, ok := literal(v)
		if !ok {
			continue // a tuple or a string: leave it to run
		}
		for _, u := range c.Users() {
			args := u.Args()
			for j, a := range args {
				args[j] = node.MapArg(a, func(m *node.Node) node.Arg {
					if m == c {
						return lit
					}
					return m
				})
			}
			kw := u.Kwargs()
			for j := range kw {
				kw[j].Value = node.MapArg(kw[j].Value, func(m *node.Node) node.Arg {
					if m == c {
						return lit
					}
					return m
				})
			}
			if err := u.SetArgsKwargs(args, kw); err != nil {
				return changed, fmt.Errorf("node %s: %w", u.Name(), err)
			}
		}
		changed = true
	}
	// Remove the constant nodes nothing uses any more, last first.
	for i := len(order) - 1; i >= 0; i-- {
		n := order[i]
		if n.NumUsers() == 0 && !gm.IsImpure(n) {
			if err := g.EraseNode(n); err != nil {
				return changed, fmt.Errorf("node %s: %w", n.Name(), err)
			}
			changed = true
		}
	}
	return changed, nil
}

// constantNode reports whether n computes a constant, given which earlier
// nodes do.
func constantNode(gm *fx.GraphModule, n *node.Node, foldable map[*node.Node]bool) bool {
	switch n.Op() {
	case node.GetAttr:
		return constTensor(gm, n) != nil
	case node.CallFunction:
		fn := n.Function()
		if op, ok := fn.(*ops.Operator); ok {
			if !pureOperator(op) || !op.HasKernel() {
				return false
			}
		} else if !pureFunction(fn) {
			return false
		}
	case node.CallMethod:
		if !pureMethod(n.Target().String()) {
			return false
		}
	default:
		return false
	}
	ok := true
	n.EachInput(func(in *node.Node) {
		if !foldable[in] {
			ok = false
		}
	})
	return ok
}

// mutatedState returns a test of whether the graph may change the state
// at a get_attr target: a parameter or buffer that an operator writes
// (aten.copy_ writing back a buffer, an in-place method), directly or
// through views, or one that belongs to a module called in training mode
// (batch norm's running statistics).
func mutatedState(gm *fx.GraphModule) func(target string) bool {
	targets := map[string]bool{}
	var prefixes []string
	seen := map[*node.Node]bool{}
	var mark func(n *node.Node)
	mark = func(n *node.Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		switch n.Op() {
		case node.GetAttr:
			targets[n.Target().String()] = true
		case node.CallFunction, node.CallMethod:
			n.EachInput(mark)
		}
	}
	for n := range gm.Graph.Nodes() {
		switch {
		case n.Op() == node.CallModule && trainingModule(gm, n):
			prefixes = append(prefixes, n.Target().String()+".")
			n.EachInput(mark)
		case n.Op() == node.Placeholder || n.Op() == node.Output:
		case gm.IsImpure(n):
			for _, in := range writtenInputs(n) {
				mark(in)
			}
		}
	}
	return func(target string) bool {
		if targets[target] {
			return true
		}
		for _, p := range prefixes {
			if strings.HasPrefix(target, p) {
				return true
			}
		}
		return false
	}
}

// writtenInputs returns the nodes an impure node may write: for an
// operator, its arguments whose schema type is written (Tensor(a!)); for
// an in-place method, the tensor it is called on; otherwise every input.
func writtenInputs(n *node.Node) []*node.Node {
	switch n.Op() {
	case node.CallMethod:
		if a, ok := n.Arg(0).(*node.Node); ok && n.NumArgs() > 0 {
			return []*node.Node{a}
		}
	case node.CallFunction:
		if op, ok := n.Function().(*ops.Operator); ok {
			if placed, ok := placeArgs(op, n); ok {
				var out []*node.Node
				for i, a := range op.Schema().Args {
					if i < len(placed) && writes(a.Type) {
						if arg, ok := placed[i].(node.Arg); ok {
							out = append(out, node.Nodes(arg)...)
						}
					}
				}
				return out
			}
		}
	}
	return n.AllInputNodes()
}

// writes reports whether a schema type is written by the operator.
func writes(t *ops.Type) bool {
	if t == nil {
		return false
	}
	if t.Alias != nil && t.Alias.Write {
		return true
	}
	if writes(t.Elem) {
		return true
	}
	for _, p := range t.Params {
		if writes(p) {
			return true
		}
	}
	return false
}

// constTensor returns the tensor a get_attr node reads, or nil.
func constTensor(gm *fx.GraphModule, n *node.Node) *tensor.Tensor {
	if n.Op() != node.GetAttr {
		return nil
	}
	v, err := nn.AttrValue(gm, n.Target().String())
	if err != nil {
		return nil
	}
	return v.Tensor()
}

// evalConstants computes the values of cands by running the constant part
// of the graph with the interpreter.
func evalConstants(gm *fx.GraphModule, order []*node.Node, foldable map[*node.Node]bool, cands []*node.Node) ([]nn.Value, error) {
	sub := graph.New()
	vmap := make(map[*node.Node]*node.Node, len(order))
	for _, n := range order {
		if !foldable[n] {
			continue
		}
		c, err := sub.NodeCopy(n, func(in *node.Node) node.Arg { return vmap[in] })
		if err != nil {
			return nil, fmt.Errorf("node %s: %w", n.Name(), err)
		}
		vmap[n] = c
	}
	outs := make(node.Tuple, len(cands))
	for i, c := range cands {
		outs[i] = vmap[c]
	}
	if _, err := sub.Output(outs); err != nil {
		return nil, err
	}
	sub.EliminateDeadCode()
	out, err := interp.New(sub, gm).Run()
	if err != nil {
		return nil, fmt.Errorf("computing constants: %w", err)
	}
	vals := out.Tuple()
	if len(vals) != len(cands) {
		return nil, fmt.Errorf("computing constants: got %d values for %d nodes", len(vals), len(cands))
	}
	return vals, nil
}

// sources returns, for every constant node, the get_attr nodes it is
// computed from.
func sources(order []*node.Node, foldable map[*node.Node]bool) map[*node.Node]map[*node.Node]bool {
	src := make(map[*node.Node]map[*node.Node]bool, len(order))
	for _, n := range order {
		if !foldable[n] {
			continue
		}
		s := map[*node.Node]bool{}
		if n.Op() == node.GetAttr {
			s[n] = true
		}
		n.EachInput(func(in *node.Node) {
			for k := range src[in] {
				s[k] = true
			}
		})
		src[n] = s
	}
	return src
}

// freeName returns the first name _folded_constant_N, N >= next, that gm
// does not use, and the next N to try.
func freeName(gm *fx.GraphModule, next int) (string, int) {
	for ; ; next++ {
		name := "_folded_constant_" + strconv.Itoa(next)
		if taken(&gm.Base, name) {
			continue
		}
		return name, next + 1
	}
}

func taken(b *nn.Base, name string) bool {
	if _, ok := b.Child(name); ok {
		return true
	}
	for n := range b.Parameters() {
		if n == name {
			return true
		}
	}
	for n := range b.Buffers() {
		if n == name {
			return true
		}
	}
	return false
}

// literal returns a number or bool value as a graph argument.
func literal(v nn.Value) (node.Arg, bool) {
	switch x := v.Any().(type) {
	case int64:
		return node.Int(x), true
	case float64:
		return node.Float(x), true
	case bool:
		return node.Bool(x), true
	}
	return nil, false
}

// allUsers reports whether every user of n satisfies ok.
func allUsers(n *node.Node, ok func(*node.Node) bool) bool {
	for _, u := range n.Users() {
		if !ok(u) {
			return false
		}
	}
	return true
}
