package ir

import (
	"fmt"
	"maps"
	"slices"
)

// Copy returns a deep copy of the graph: the same nodes, blocks, names,
// value numbers, types (types are immutable and shared), attributes (the
// slice copied, the values shared), operators, source ranges and scopes.
// It fails only for a graph that does not pass Lint (a value used where it
// is not defined).
func (g *Graph) Copy() (*Graph, error) {
	c := NewGraph()
	c.suffixes = maps.Clone(g.suffixes)
	env := map[*Value]*Value{}
	keep := func(src, dst *Value) {
		dst.unique = src.unique
		if src.name != "" {
			dst.setNameExact(src.name)
		}
		env[src] = dst
	}
	for _, p := range g.top.Params {
		keep(p, c.top.AddParam(p.Type))
	}
	cl := &cloner{g: c, env: env, name: keep}
	if err := cl.nodes(g.top, c.top, func(n *Node) error { return c.top.Append(n) }); err != nil {
		return nil, err
	}
	for i, v := range g.top.Outputs {
		w, ok := env[v]
		if !ok {
			return nil, fmt.Errorf("ir: Copy: the graph's output %d (%%%s) is not defined in it", i, v.Name())
		}
		c.top.AddOutput(w)
	}
	c.nextUnique = g.nextUnique
	return c, nil
}

// InsertGraph inserts a copy of callee's nodes at g's insert point, with
// callee's inputs replaced by inputs, and returns the values that stand for
// callee's outputs: PyTorch's insertGraph, what inlining a
// prim::CallMethod or prim::CallFunction does. The copies' values are
// numbered afresh in g; those named in callee take their names through
// SetDebugName, so that, as in PyTorch's inliner, a clash renames g's older
// value ("x" becomes "x.1").
func (g *Graph) InsertGraph(callee *Graph, inputs []*Value) ([]*Value, error) {
	if len(inputs) != len(callee.top.Params) {
		return nil, fmt.Errorf("ir: InsertGraph: the graph takes %d inputs, got %d", len(callee.top.Params), len(inputs))
	}
	env := map[*Value]*Value{}
	for i, p := range callee.top.Params {
		if inputs[i] == nil || inputs[i].graph != g {
			return nil, fmt.Errorf("ir: InsertGraph: input %d is not a value of this graph", i)
		}
		env[p] = inputs[i]
	}
	var nameErr error
	cl := &cloner{g: g, env: env, name: func(src, dst *Value) {
		env[src] = dst
		if src.name != "" && nameErr == nil {
			nameErr = dst.SetDebugName(src.name)
		}
	}}
	if err := cl.nodes(callee.top, nil, g.Insert); err != nil {
		return nil, err
	}
	if nameErr != nil {
		return nil, nameErr
	}
	outs := make([]*Value, len(callee.top.Outputs))
	for i, v := range callee.top.Outputs {
		w, ok := env[v]
		if !ok {
			return nil, fmt.Errorf("ir: InsertGraph: output %d of the graph is not defined in it", i)
		}
		outs[i] = w
	}
	return outs, nil
}

type cloner struct {
	g    *Graph
	env  map[*Value]*Value
	name func(src, dst *Value)
}

// nodes copies src's nodes, each placed by place (the top level) or
// appended to dst (nested blocks).
func (c *cloner) nodes(src, dst *Block, place func(*Node) error) error {
	for _, n := range src.Nodes {
		m := &Node{Kind: n.Kind, Attrs: slices.Clone(n.Attrs), Op: n.Op, Scope: n.Scope, graph: c.g}
		if n.Source != nil {
			s := *n.Source
			m.Source = &s
		}
		for i, v := range n.Inputs {
			w, ok := c.env[v]
			if !ok {
				m.detach()
				return fmt.Errorf("ir: copying %s: input %d (%%%s) is not defined before it", n.Kind, i, v.Name())
			}
			m.AddInput(w)
		}
		for _, b := range n.Blocks {
			nb := m.AddBlock()
			for _, p := range b.Params {
				c.name(p, nb.AddParam(p.Type))
			}
			if err := c.nodes(b, nb, nil); err != nil {
				return err
			}
			for i, v := range b.Outputs {
				w, ok := c.env[v]
				if !ok {
					return fmt.Errorf("ir: copying a block of %s: output %d (%%%s) is not defined in it", n.Kind, i, v.Name())
				}
				nb.AddOutput(w)
			}
		}
		for _, o := range n.Outputs {
			c.name(o, m.AddOutput(o.Type))
		}
		var err error
		if place != nil {
			err = place(m)
		} else {
			err = dst.Append(m)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
