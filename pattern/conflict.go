package pattern

import (
	"errors"
	"fmt"
	"strings"

	dgraph "github.com/dominikbraun/graph"

	"github.com/gofx/gofx/node"
)

// A multi-output match is replaced by one subgraph that may join what the
// match kept apart: an output that depended on one input only may depend on
// every input afterwards. Each match is checked alone when it is found (a
// path from one of its outputs back to one of its inputs is a cycle), but
// two matches can be fine alone and form a cycle together: an output of the
// first reaches an input of the second and an output of the second reaches
// an input of the first. The conflict graph has a vertex per replaced
// multi-output match and an edge X -> Y when an output of X reaches an input
// of Y in the graph as found; Replace adds each match with its edges before
// replacing it, and a match whose edges would close a cycle is skipped
// (dominikbraun/graph's PreventCycles refuses the edge) and reported through
// OnSkip. Single-output matches need no vertex: every node of one reaches
// its output, so a cycle through one is a path of the graph itself.

// conflicts is the conflict graph of the multi-output matches of one
// Replace.
type conflicts struct {
	anchors []*node.Node // per match, for the messages
	// reach[i] lists the multi-output matches j whose inputs an output of
	// match i reaches.
	reach [][]int
	g     dgraph.Graph[int, int]
	added []int
}

// newConflicts computes, on the graph as found, which multi-output matches
// reach which; nil when the pattern has one output or there are fewer than
// two matches.
func (m *matcher) newConflicts(matches []*Match) *conflicts {
	if len(m.p.outs) < 2 || len(matches) < 2 {
		return nil
	}
	c := &conflicts{
		anchors: make([]*node.Node, len(matches)),
		reach:   make([][]int, len(matches)),
		g:       dgraph.New(dgraph.IntHash, dgraph.Directed(), dgraph.PreventCycles()),
	}
	inputOf := map[*node.Node][]int{}
	var last *node.Node
	for j, mt := range matches {
		c.anchors[j] = mt.Anchor
		for _, in := range mt.Inputs {
			if n, ok := in.(*node.Node); ok {
				inputOf[n] = append(inputOf[n], j)
				if last == nil || m.g.Before(last, n) {
					last = n
				}
			}
		}
	}
	if last == nil {
		return c
	}
	for i, mt := range matches {
		seen := map[*node.Node]bool{}
		hit := map[int]bool{}
		stack := append([]*node.Node(nil), mt.Outputs...)
		for _, o := range mt.Outputs {
			seen[o] = true
		}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, j := range inputOf[v] {
				if j != i && !hit[j] {
					hit[j] = true
					c.reach[i] = append(c.reach[i], j)
				}
			}
			for _, u := range v.Users() {
				if !seen[u] && (u == last || m.g.Before(u, last)) {
					seen[u] = true
					stack = append(stack, u)
				}
			}
		}
	}
	return c
}

// add puts match i in the conflict graph, or returns why it cannot go
// there: the cycle its edges would close, as the anchors of the matches on
// it.
func (c *conflicts) add(i int) error {
	if err := c.g.AddVertex(i); err != nil {
		return err
	}
	var edges [][2]int
	undo := func() {
		for _, e := range edges {
			_ = c.g.RemoveEdge(e[0], e[1])
		}
		_ = c.g.RemoveVertex(i)
	}
	in := map[int]bool{}
	for _, j := range c.added {
		in[j] = true
	}
	try := func(from, to int) error {
		err := c.g.AddEdge(from, to)
		switch {
		case err == nil:
			edges = append(edges, [2]int{from, to})
			return nil
		case errors.Is(err, dgraph.ErrEdgeAlreadyExists):
			return nil
		case errors.Is(err, dgraph.ErrEdgeCreatesCycle):
			path, perr := dgraph.ShortestPath(c.g, to, from)
			if perr != nil {
				path = []int{to, from}
			}
			path = append(path, to)
			var names []string
			for _, k := range path {
				names = append(names, "%"+c.anchors[k].Name())
			}
			undo()
			return fmt.Errorf("replacing it after the earlier replaced matches would make a cycle: an output of each match reaches an input of the next (matches by anchor: %s)", strings.Join(names, " -> "))
		}
		undo()
		return err
	}
	for _, j := range c.reach[i] {
		if in[j] {
			if err := try(i, j); err != nil {
				return err
			}
		}
	}
	for _, j := range c.added {
		for _, k := range c.reach[j] {
			if k == i {
				if err := try(j, i); err != nil {
					return err
				}
			}
		}
	}
	c.added = append(c.added, i)
	return nil
}
