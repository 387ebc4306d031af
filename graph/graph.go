package graph

import (
	"errors"
	"fmt"
	"iter"

	"github.com/gofx/gofx/node"
)

// Graph is a program: an ordered list of nodes with unique names, an
// insertion point, and use-def edges that are always right.
//
// The zero Graph is not usable; create one with New.
type Graph struct {
	chain *node.Chain
	names namespace
	ins   insertPoint
}

// insertPoint says where CreateNode puts new nodes.
type insertPoint struct {
	mode insertMode
	mark *node.Node // the anchor; for insertAfter, the last node inserted (nil: the start)
}

type insertMode uint8

const (
	insertDefault insertMode = iota // at the end, before the output node if there is one (the default)
	insertBefore                    // before mark
	insertAfter                     // after mark (nil: at the start), advancing mark
)

// New returns an empty graph.
func New() *Graph {
	g := &Graph{names: newNamespace()}
	g.chain = node.NewChain(g)
	return g
}

// Of returns the graph that holds n, or nil if n is detached or erased.
func Of(n *node.Node) *Graph {
	if n == nil || n.Erased() {
		return nil
	}
	g, _ := n.Owner().(*Graph)
	return g
}

// Version returns a number that changes with every change of g's nodes:
// a node created, erased, moved or renamed, or a node's arguments or
// target set (node.Chain.Version). Node metadata is not counted, nor are
// changes inside the graphs of g's higher-order calls (each has its own).
// A cache of what is computed from g's structure keeps the version it was
// computed at and computes again when Version differs, so that a pass
// changing g after a first computation is noticed.
func (g *Graph) Version() uint64 { return g.chain.Version() }

// Len returns the number of nodes.
func (g *Graph) Len() int { return g.chain.Len() }

// Nodes iterates over the nodes in program order. Nodes may be erased
// during the iteration (erased nodes are skipped); a node inserted after the
// one being visited is visited too.
func (g *Graph) Nodes() iter.Seq[*node.Node] { return g.chain.All() }

// Backward iterates over the nodes in reverse program order.
func (g *Graph) Backward() iter.Seq[*node.Node] { return g.chain.Backward() }

// NodeList returns the nodes in program order, in a new slice.
func (g *Graph) NodeList() []*node.Node {
	out := make([]*node.Node, 0, g.Len())
	for n := range g.Nodes() {
		out = append(out, n)
	}
	return out
}

// First returns the first node, or nil for an empty graph.
func (g *Graph) First() *node.Node { return g.chain.Front() }

// Last returns the last node, or nil for an empty graph.
func (g *Graph) Last() *node.Node { return g.chain.Back() }

// Contains reports whether n is a live node of g.
func (g *Graph) Contains(n *node.Node) bool { return g.chain.Contains(n) }

// Before reports whether a comes before b in program order, in O(1). Both
// must be nodes of g.
func (g *Graph) Before(a, b *node.Node) bool { return g.chain.Before(a, b) }

// Node returns the live node called name.
func (g *Graph) Node(name string) (*node.Node, bool) {
	n := g.names.nodes[name]
	if n == nil || n.Erased() {
		return nil, false
	}
	return n, true
}

// OutputNode returns the output node, or nil if the graph has none yet.
func (g *Graph) OutputNode() *node.Node {
	if last := g.chain.Back(); last != nil && last.Op() == node.Output {
		return last
	}
	if outs := g.chain.Find(node.Output, nil); len(outs) > 0 {
		return outs[0]
	}
	return nil
}

// Placeholders returns the placeholder nodes in order.
func (g *Graph) Placeholders() []*node.Node { return g.chain.Find(node.Placeholder, nil) }

// FindNodes returns the nodes with opcode op and the given target (by its
// String form), or with any target when target is nil, in program order.
// It is served by an index: its cost depends on the number of results, not
// on the size of the graph.
func (g *Graph) FindNodes(op node.Opcode, target node.Target) []*node.Node {
	return g.chain.Find(op, target)
}

// CreateNode creates a node at the insertion point and returns it. name is
// the candidate name ("" derives one from the target); it is made unique as
// torch.fx does, by appending _1, _2, ...
//
// An output node always goes at the end of the graph, and a graph has at
// most one.
func (g *Graph) CreateNode(op node.Opcode, target node.Target, args []node.Arg, kwargs node.Kwargs, name string) (*node.Node, error) {
	return g.create(op, target, args, kwargs, name, false)
}

func (g *Graph) create(op node.Opcode, target node.Target, args []node.Arg, kwargs node.Kwargs, name string, exact bool) (*node.Node, error) {
	if op == node.Output {
		if out := g.OutputNode(); out != nil {
			return nil, fmt.Errorf("graph already has an output node %%%s", out.Name())
		}
	}
	display := name
	if display == "" && target != nil {
		display = defaultName(op, target)
	}
	n, err := g.chain.New(display, op, target, args, kwargs)
	if err != nil {
		return nil, err
	}
	if exact {
		if !g.names.reserveExact(name, n) {
			if !node.IsIdentifier(name) {
				return nil, fmt.Errorf("node name %q is not an identifier", name)
			}
			if pythonReserved[name] {
				return nil, fmt.Errorf("node name %q is reserved in Python code", name)
			}
			return nil, fmt.Errorf("node name %%%s is already taken", name)
		}
	} else {
		display = g.names.create(display, n)
	}
	g.chain.SetName(n, display)
	if err := g.place(n); err != nil {
		delete(g.names.nodes, display)
		return nil, err
	}
	return n, nil
}

// place links n at the insertion point.
func (g *Graph) place(n *node.Node) error {
	if n.Op() == node.Output {
		return g.chain.InsertBefore(n, nil)
	}
	ip := &g.ins
	switch ip.mode {
	case insertBefore:
		if !g.Contains(ip.mark) {
			return fmt.Errorf("node %%%s: insertion point %%%s was erased", n.Name(), ip.mark.Name())
		}
		return g.chain.InsertBefore(n, ip.mark)
	case insertAfter:
		if ip.mark != nil && !g.Contains(ip.mark) {
			return fmt.Errorf("node %%%s: insertion point %%%s was erased", n.Name(), ip.mark.Name())
		}
		if ip.mark != nil && ip.mark.Op() == node.Output {
			return fmt.Errorf("node %%%s: cannot insert after the output node %%%s", n.Name(), ip.mark.Name())
		}
		if err := g.chain.InsertAfter(n, ip.mark); err != nil {
			return err
		}
		ip.mark = n
		return nil
	}
	if last := g.chain.Back(); last != nil && last.Op() == node.Output {
		return g.chain.InsertBefore(n, last)
	}
	return g.chain.InsertBefore(n, nil)
}

// InsertingBefore makes new nodes go just before n, in the order they are
// created; n == nil means the start of the graph. It returns a function that
// restores the previous insertion point:
//
//	defer g.InsertingBefore(n)()
func (g *Graph) InsertingBefore(n *node.Node) (restore func()) {
	old := g.ins
	if n == nil {
		g.ins = insertPoint{mode: insertAfter}
	} else {
		g.ins = insertPoint{mode: insertBefore, mark: n}
	}
	return func() { g.ins = old }
}

// InsertingAfter makes new nodes go just after n, in the order they are
// created (unlike torch.fx, where consecutive nodes come out reversed);
// n == nil means the end of the graph, before its output node. Nothing can
// be inserted after the output node. It returns a function that restores
// the previous insertion point.
func (g *Graph) InsertingAfter(n *node.Node) (restore func()) {
	old := g.ins
	if n == nil {
		g.ins = insertPoint{mode: insertDefault}
	} else {
		g.ins = insertPoint{mode: insertAfter, mark: n}
	}
	return func() { g.ins = old }
}

// Placeholder creates an input called name.
func (g *Graph) Placeholder(name string) (*node.Node, error) {
	return g.CreateNode(node.Placeholder, node.Path(name), nil, nil, "")
}

// PlaceholderWithDefault creates an input called name whose value is
// def when the caller does not supply one.
func (g *Graph) PlaceholderWithDefault(name string, def node.Arg) (*node.Node, error) {
	return g.CreateNode(node.Placeholder, node.Path(name), []node.Arg{def}, nil, "")
}

// GetAttr creates a node that fetches the parameter, buffer or constant at
// the dotted path.
func (g *Graph) GetAttr(path string) (*node.Node, error) {
	return g.CreateNode(node.GetAttr, node.Path(path), nil, nil, "")
}

// CallFunction creates a node that calls fn.
func (g *Graph) CallFunction(fn node.Function, args []node.Arg, kwargs node.Kwargs) (*node.Node, error) {
	if fn == nil {
		return nil, errors.New("call_function: nil function")
	}
	return g.CreateNode(node.CallFunction, fn, args, kwargs, "")
}

// CallMethod creates a node that calls method on args[0].
func (g *Graph) CallMethod(method string, args []node.Arg, kwargs node.Kwargs) (*node.Node, error) {
	return g.CreateNode(node.CallMethod, node.Path(method), args, kwargs, "")
}

// CallModule creates a node that calls the submodule at the dotted path.
func (g *Graph) CallModule(path string, args []node.Arg, kwargs node.Kwargs) (*node.Node, error) {
	return g.CreateNode(node.CallModule, node.Path(path), args, kwargs, "")
}

// Output creates the output node returning result (a node, or a tuple or
// list of values).
func (g *Graph) Output(result node.Arg) (*node.Node, error) {
	return g.CreateNode(node.Output, node.Path("output"), []node.Arg{result}, nil, "")
}

// EraseNode removes n from g. It is an error while n has users, and for a
// node of another graph.
func (g *Graph) EraseNode(n *node.Node) error {
	if n == nil {
		return errors.New("erase: nil node")
	}
	if n.Erased() {
		return fmt.Errorf("erase %%%s: node is already erased", n.Name())
	}
	if Of(n) != g {
		return fmt.Errorf("erase %%%s: node belongs to another graph", n.Name())
	}
	// The name stays in the table, taken: Node skips erased nodes.
	return g.chain.Remove(n)
}

// MoveBefore moves n just before mark. It fails, changing nothing, if n
// would come before one of its inputs or after one of its users, or if the
// move would put a node after the output node.
func (g *Graph) MoveBefore(n, mark *node.Node) error {
	if n != nil && n.Op() == node.Output {
		return fmt.Errorf("move %%%s: the output node stays last", n.Name())
	}
	return g.chain.MoveBefore(n, mark)
}

// MoveAfter moves n just after mark, with the same checks as MoveBefore.
func (g *Graph) MoveAfter(n, mark *node.Node) error {
	if n != nil && n.Op() == node.Output {
		return fmt.Errorf("move %%%s: the output node stays last", n.Name())
	}
	if mark != nil && mark.Op() == node.Output {
		return fmt.Errorf("move %%%s after %%%s: nothing may follow the output node", n.Name(), mark.Name())
	}
	return g.chain.MoveAfter(n, mark)
}

// Rename gives n a new name derived from candidate as CreateNode does, and
// returns it. The old name stays taken.
func (g *Graph) Rename(n *node.Node, candidate string) (string, error) {
	if !g.Contains(n) {
		return "", fmt.Errorf("rename: node %v is not in this graph", n)
	}
	if candidate == n.Name() {
		return candidate, nil
	}
	old := n.Name()
	name := g.names.create(candidate, n)
	g.names.nodes[old] = nil
	g.chain.SetName(n, name)
	return name, nil
}
