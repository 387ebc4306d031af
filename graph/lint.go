package graph

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// LintError lists the problems Lint found, each naming its node.
type LintError struct {
	Problems []string
}

func (e *LintError) Error() string {
	if len(e.Problems) == 1 {
		return "lint: " + e.Problems[0]
	}
	return fmt.Sprintf("lint: %d problems:\n  %s", len(e.Problems), strings.Join(e.Problems, "\n  "))
}

// maxLintProblems bounds the report of a badly broken graph.
const maxLintProblems = 20

// Lint checks every invariant of g and returns a *LintError naming the
// offending nodes, or nil:
//
//   - the list of nodes is well linked and owned by g, and the
//     (opcode, target) index holds exactly its nodes;
//   - names are unique identifiers and the name table maps each to its node;
//   - every argument is a node of g that comes before its user
//     (topological order);
//   - use-def edges agree in both directions;
//   - there is exactly one output node, and it is last;
//   - every call_function of an operator (an *ops.Operator) binds to the
//     operator's schema as the dispatch point binds it (ops.Operator.Place):
//     no more positional arguments than the schema has, keyword names the
//     schema knows and not also given by position, every argument without a
//     default given. Argument values are not checked against the schema's
//     types: a node's type is known only at run time.
func (g *Graph) Lint() error {
	var probs []string
	add := func(format string, args ...any) {
		if len(probs) < maxLintProblems {
			probs = append(probs, fmt.Sprintf(format, args...))
		}
	}
	if err := g.chain.Check(); err != nil {
		add("%v", err)
		return &LintError{probs}
	}
	live := 0
	outputs := 0
	for n := range g.Nodes() {
		live++
		if !node.IsIdentifier(n.Name()) {
			add("node %q: name is not an identifier", n.Name())
		}
		n.EachInput(func(in *node.Node) {
			if !g.Before(in, n) {
				add("node %%%s: uses %%%s, which does not come before it", n.Name(), in.Name())
			}
		})
		if n.Op() == node.Output {
			outputs++
			if n != g.Last() {
				add("node %%%s: output node is not the last node", n.Name())
			}
			if outputs > 1 {
				add("node %%%s: a second output node", n.Name())
			}
			if n.NumUsers() > 0 {
				add("node %%%s: output node has users", n.Name())
			}
		}
		if n.Op() == node.CallFunction {
			if op, ok := n.Target().(*ops.Operator); ok {
				if p := bindProblem(op, n); p != "" {
					add("node %%%s: %s", n.Name(), p)
				}
			}
		}
	}
	if outputs == 0 {
		add("the graph has no output node")
	}
	// The name table is checked from its side, which costs one pass over
	// the table instead of one random lookup per node: every live entry
	// must be a node of g carrying that name, and there must be as many
	// such entries as live nodes. Entries then map names one-to-one onto
	// the nodes, so names are unique.
	named := 0
	for name, n := range g.names.nodes {
		if n == nil || n.Erased() {
			continue
		}
		named++
		switch {
		case n.Name() != name:
			add("node %%%s: name table lists it under %q", n.Name(), name)
		case !g.Contains(n):
			add("node %%%s: name table lists a node of another graph", name)
		}
	}
	if named != live {
		add("name table holds %d live nodes, the graph %d (duplicate or unrecorded names)", named, live)
	}
	if len(probs) > 0 {
		return &LintError{probs}
	}
	return nil
}

// bindProblem checks the arguments of n, a call of op, against op's schema
// with the rules of ops.Operator.Place, without allocating (Lint allocates
// nothing), and describes the first problem, naming the argument, or
// returns "". A call that the newest schema refuses but an older one
// accepts (a program saved by PyTorch 2.6 naming an argument 2.14
// renamed) binds, as ops.Operator.Bind binds it.
func bindProblem(op *ops.Operator, n *node.Node) string {
	p := bindProblemSchema(op, op.Schema(), n)
	if p == "" {
		return ""
	}
	for _, s := range op.Schemas()[1:] {
		if bindProblemSchema(op, s, n) == "" {
			return ""
		}
	}
	return p
}

// bindProblemSchema is bindProblem against s, one of op's schemas.
func bindProblemSchema(op *ops.Operator, s *ops.Schema, n *node.Node) string {
	if nargs := n.NumArgs(); len(n.Kwargs()) == 0 {
		// The common case, positional arguments only: one pass over the
		// schema, every argument not given must have a default.
		pos, ok := 0, true
		for i := range s.Args {
			a := &s.Args[i]
			if !a.KwargOnly {
				pos++
				if pos <= nargs {
					continue
				}
			}
			if a.Default == nil {
				ok = false
				break
			}
		}
		if ok && (nargs <= pos || s.VarArgs) {
			return ""
		}
	}
	const maxArgs = 64
	if len(s.Args) > maxArgs {
		// No such operator in PyTorch 1.13 (the most is 28); bind the
		// slow way.
		kw := make(map[string]any, len(n.Kwargs()))
		for _, f := range n.Kwargs() {
			kw[f.Name] = f.Value
		}
		if _, err := op.Place(make([]any, n.NumArgs()), kw); err != nil {
			return err.Error()
		}
		return ""
	}
	var set [maxArgs]bool
	positional := 0
	for i, a := range s.Args {
		if a.KwargOnly {
			continue
		}
		if positional < n.NumArgs() {
			set[i] = true
			positional++
		}
	}
	if n.NumArgs() > positional && !s.VarArgs {
		return fmt.Sprintf("%s takes at most %d positional arguments but %d were given", op, positional, n.NumArgs())
	}
	for _, f := range n.Kwargs() {
		i := -1
		for j, a := range s.Args {
			if a.Name == f.Name {
				i = j
				break
			}
		}
		switch {
		case i < 0:
			return fmt.Sprintf("%s got an unexpected keyword argument '%s'", op, f.Name)
		case set[i]:
			return fmt.Sprintf("%s: argument '%s' given both by position and by keyword", op, f.Name)
		}
		set[i] = true
	}
	for i, a := range s.Args {
		if !set[i] && a.Default == nil {
			return fmt.Sprintf("%s: missing required argument '%s' of type %s", op, a.Name, a.Type)
		}
	}
	return ""
}

// EliminateDeadCode erases every node whose value is unused and that has no
// side effects (see node.IsImpure), in reverse order so that chains of dead
// nodes go in one pass. It reports whether it erased anything.
func (g *Graph) EliminateDeadCode() bool {
	return g.EliminateDeadCodeFunc(nil)
}

// EliminateDeadCodeFunc is EliminateDeadCode with a custom impurity test:
// nodes for which isImpure returns true are kept. A nil isImpure means
// node.IsImpure.
func (g *Graph) EliminateDeadCodeFunc(isImpure func(*node.Node) bool) bool {
	if isImpure == nil {
		isImpure = (*node.Node).IsImpure
	}
	changed := false
	for n := range g.Backward() {
		if n.NumUsers() == 0 && !isImpure(n) {
			// Cannot fail: n is live, in g, and unused.
			if g.EraseNode(n) == nil {
				changed = true
			}
		}
	}
	return changed
}
