package graph

import (
	"errors"
	"fmt"

	"github.com/gofx/gofx/node"
)

// NodeCopy creates, at the insertion point, a copy of n (which may belong
// to another graph): the same opcode, target, metadata (copied shallowly)
// and a name derived from n's, with every node argument replaced by
// remap's result. It is torch.fx's node_copy.
func (g *Graph) NodeCopy(n *node.Node, remap func(*node.Node) node.Arg) (*node.Node, error) {
	if n == nil {
		return nil, errors.New("node copy: nil node")
	}
	if remap == nil {
		return nil, fmt.Errorf("node copy %%%s: nil remap function", n.Name())
	}
	args, kwargs, err := remapArgs(n, remap)
	if err != nil {
		return nil, err
	}
	c, err := g.CreateNode(n.Op(), n.Target(), args, kwargs, n.Name())
	if err != nil {
		return nil, err
	}
	c.Meta = n.Meta.Clone()
	return c, nil
}

func remapArgs(n *node.Node, remap func(*node.Node) node.Arg) ([]node.Arg, node.Kwargs, error) {
	var err error
	fn := func(x *node.Node) node.Arg {
		r := remap(x)
		if r == nil && err == nil {
			err = fmt.Errorf("node copy %%%s: remap returned nil for argument %%%s", n.Name(), x.Name())
		}
		if r == nil {
			return node.None
		}
		return r
	}
	args := n.Args()
	for i, a := range args {
		args[i] = node.MapArg(a, fn)
	}
	kwargs := n.Kwargs()
	for i, f := range kwargs {
		kwargs[i].Value = node.MapArg(f.Value, fn)
	}
	return args, kwargs, err
}

// GraphCopy copies every node of src except its output into g at the
// insertion point and returns the value src returns, mapped into g (nil if
// src has no output). valueMap maps nodes of src to values in g: nodes
// already in it are not copied (so a caller can bind src's placeholders to
// existing nodes or constants), and every copied node is added to it. It is
// torch.fx's graph_copy.
func (g *Graph) GraphCopy(src *Graph, valueMap map[*node.Node]node.Arg) (node.Arg, error) {
	if src == nil {
		return nil, errors.New("graph copy: nil source graph")
	}
	if src == g {
		return nil, errors.New("graph copy: source and destination are the same graph")
	}
	if valueMap == nil {
		return nil, errors.New("graph copy: nil value map")
	}
	lookup := func(x *node.Node) node.Arg { return valueMap[x] }
	for n := range src.Nodes() {
		if _, ok := valueMap[n]; ok {
			continue
		}
		if n.Op() == node.Output {
			var err error
			out := node.MapArg(n.Arg(0), func(x *node.Node) node.Arg {
				v := valueMap[x]
				if v == nil && err == nil {
					err = fmt.Errorf("graph copy: output refers to %%%s, which has no value", x.Name())
				}
				if v == nil {
					return node.None
				}
				return v
			})
			return out, err
		}
		c, err := g.NodeCopy(n, lookup)
		if err != nil {
			return nil, fmt.Errorf("graph copy: %w", err)
		}
		valueMap[n] = c
	}
	return nil, nil
}

// Clone returns an identical copy of g: the same names, order, targets,
// arguments and metadata (copied shallowly), and a map from g's nodes to
// the copy's.
func (g *Graph) Clone() (*Graph, map[*node.Node]*node.Node, error) {
	c := New()
	m := make(map[*node.Node]*node.Node, g.Len())
	lookup := func(x *node.Node) node.Arg {
		if y := m[x]; y != nil {
			return y
		}
		return nil
	}
	for n := range g.Nodes() {
		args, kwargs, err := remapArgs(n, lookup)
		if err != nil {
			return nil, nil, fmt.Errorf("clone: %w", err)
		}
		cn, err := c.create(n.Op(), n.Target(), args, kwargs, n.Name(), true)
		if err != nil {
			return nil, nil, fmt.Errorf("clone: %w", err)
		}
		cn.Meta = n.Meta.Clone()
		m[n] = cn
	}
	return c, m, nil
}
