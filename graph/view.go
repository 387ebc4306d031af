package graph

import (
	gonum "gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/iterator"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/gofx/gofx/node"
)

// View is a read-only snapshot of a graph's data flow that implements
// gonum's graph.Directed, so gonum's algorithms (topo.Sort,
// flow.Dominators, path searches, ...) run on it. Node IDs are positions in
// program order at the time the view was made; there is an edge from each
// node to each of its users. A View does not follow later changes to the
// graph: make a new one.
type View struct {
	nodes []ViewNode
	ids   map[*node.Node]int64
}

// ViewNode is a gonum graph node standing for one gofx node.
type ViewNode struct {
	id int64
	// Node is the gofx node.
	Node *node.Node
}

// ID returns the node's position in program order.
func (v ViewNode) ID() int64 { return v.id }

var _ gonum.Directed = (*View)(nil)

// View returns a gonum view of g.
func (g *Graph) View() *View {
	v := &View{nodes: make([]ViewNode, 0, g.Len()), ids: make(map[*node.Node]int64, g.Len())}
	for n := range g.Nodes() {
		id := int64(len(v.nodes))
		v.nodes = append(v.nodes, ViewNode{id, n})
		v.ids[n] = id
	}
	return v
}

// ID returns the view's ID for n, or -1 if n is not in the view.
func (v *View) ID(n *node.Node) int64 {
	if id, ok := v.ids[n]; ok {
		return id
	}
	return -1
}

// Lookup returns the gofx node with the given ID, or nil.
func (v *View) Lookup(id int64) *node.Node {
	if id < 0 || id >= int64(len(v.nodes)) {
		return nil
	}
	return v.nodes[id].Node
}

// Node returns the node with the given ID, or nil.
func (v *View) Node(id int64) gonum.Node {
	if id < 0 || id >= int64(len(v.nodes)) {
		return nil
	}
	return v.nodes[id]
}

// Nodes returns all nodes in program order.
func (v *View) Nodes() gonum.Nodes {
	out := make([]gonum.Node, len(v.nodes))
	for i := range v.nodes {
		out[i] = v.nodes[i]
	}
	return iterator.NewOrderedNodes(out)
}

func (v *View) gonumNodes(ns []*node.Node) gonum.Nodes {
	out := make([]gonum.Node, 0, len(ns))
	for _, n := range ns {
		if id, ok := v.ids[n]; ok {
			out = append(out, v.nodes[id])
		}
	}
	if len(out) == 0 {
		return gonum.Empty
	}
	return iterator.NewOrderedNodes(out)
}

// From returns the users of the node with the given ID.
func (v *View) From(id int64) gonum.Nodes {
	n := v.Lookup(id)
	if n == nil {
		return gonum.Empty
	}
	return v.gonumNodes(n.Users())
}

// To returns the distinct inputs of the node with the given ID.
func (v *View) To(id int64) gonum.Nodes {
	n := v.Lookup(id)
	if n == nil {
		return gonum.Empty
	}
	return v.gonumNodes(n.AllInputNodes())
}

// HasEdgeFromTo reports whether the node vid uses the node uid.
func (v *View) HasEdgeFromTo(uid, vid int64) bool {
	u, w := v.Lookup(uid), v.Lookup(vid)
	if u == nil || w == nil {
		return false
	}
	_, ok := v.ids[w]
	return ok && u.HasUser(w)
}

// HasEdgeBetween reports whether either node uses the other.
func (v *View) HasEdgeBetween(xid, yid int64) bool {
	return v.HasEdgeFromTo(xid, yid) || v.HasEdgeFromTo(yid, xid)
}

// Edge returns the edge from uid to vid, or nil if vid does not use uid.
func (v *View) Edge(uid, vid int64) gonum.Edge {
	if !v.HasEdgeFromTo(uid, vid) {
		return nil
	}
	return simple.Edge{F: v.nodes[uid], T: v.nodes[vid]}
}
