package ir

import (
	"errors"
	"fmt"

	"github.com/gofx/gofx/torchscript/types"
)

// Lint checks the graph's structure and returns every problem found
// (errors.Join), nil when there is none: each value is defined before its
// uses (a block sees its own values and those of the blocks around it up
// to its owning node, never values defined later or inside sibling blocks);
// inputs, outputs, params and uses agree with each other; nodes and blocks
// have the right owners; every value has a type and a unique number;
// prim::Constant has no inputs; prim::If has one bool input, two blocks
// without params, each yielding as many values as the If has outputs;
// prim::Loop has a trip count (int) and a condition (bool) followed by the
// carried values, one block whose params are the iteration number and the
// carried values, and which yields the condition and the carried values,
// and as many outputs as carried values; a node's Op is an overload of its
// kind.
func (g *Graph) Lint() error {
	l := &linter{g: g, uniques: map[int]*Value{}, uses: map[Use]*Value{}}
	l.block(g.top, nil)
	for name, v := range g.names {
		if v.name != name {
			l.errf("value %%%s is registered under the name %q", v.Name(), name)
		}
	}
	return errors.Join(l.errs...)
}

type linter struct {
	g       *Graph
	uniques map[int]*Value
	uses    map[Use]*Value // every use the defined values record
	errs    []error
}

type scope struct {
	vals   map[*Value]bool
	parent *scope
}

func (s *scope) has(v *Value) bool {
	for ; s != nil; s = s.parent {
		if s.vals[v] {
			return true
		}
	}
	return false
}

func (l *linter) errf(format string, a ...any) {
	if len(l.errs) < 100 {
		l.errs = append(l.errs, fmt.Errorf("ir: lint: "+format, a...))
	}
}

func (l *linter) define(s *scope, v *Value, what string) {
	if v == nil {
		l.errf("%s is nil", what)
		return
	}
	if s.has(v) {
		l.errf("%s %%%s is defined twice", what, v.Name())
	}
	s.vals[v] = true
	if w, ok := l.uniques[v.unique]; ok && w != v {
		l.errf("%s %%%s has the number %d of another value", what, v.Name(), v.unique)
	}
	l.uniques[v.unique] = v
	if v.graph != l.g {
		l.errf("%s %%%s belongs to another graph", what, v.Name())
	}
	if v.Type == nil {
		l.errf("%s %%%s has no type", what, v.Name())
	}
	if v.name != "" && l.g.names[v.name] != v {
		l.errf("%s %%%s: its name is not registered in the graph", what, v.Name())
	}
	for _, u := range v.uses {
		if _, dup := l.uses[u]; dup {
			l.errf("%%%s records a use twice, or another value records it too", v.Name())
		}
		l.uses[u] = v
		switch {
		case u.User != nil:
			if u.Index < 0 || u.Index >= len(u.User.Inputs) || u.User.Inputs[u.Index] != v {
				l.errf("%%%s records a use as input %d of %s that the node does not have", v.Name(), u.Index, u.User.Kind)
			}
		case u.Block != nil:
			if u.Index < 0 || u.Index >= len(u.Block.Outputs) || u.Block.Outputs[u.Index] != v {
				l.errf("%%%s records a use as block output %d that the block does not have", v.Name(), u.Index)
			}
		default:
			l.errf("%%%s has a use with neither node nor block", v.Name())
		}
	}
}

func (l *linter) hasUse(v *Value, u Use) bool { return l.uses[u] == v }

func (l *linter) block(b *Block, parent *scope) {
	s := &scope{vals: map[*Value]bool{}, parent: parent}
	if b.graph != l.g {
		l.errf("a block belongs to another graph")
	}
	for i, p := range b.Params {
		l.define(s, p, "block param")
		if p != nil && (p.block != b || p.offset != i || p.node != nil) {
			l.errf("block param %%%s does not record its block and position %d", p.Name(), i)
		}
	}
	for _, n := range b.Nodes {
		l.node(n, b, s)
	}
	for i, v := range b.Outputs {
		where := "the graph's return"
		if b.owner != nil {
			where = "a block of " + b.owner.Kind
		}
		if v == nil {
			l.errf("output %d of %s is nil", i, where)
			continue
		}
		if !s.has(v) {
			l.errf("%s returns %%%s, which is not defined before it", where, v.Name())
		}
		if !l.hasUse(v, Use{Block: b, Index: i}) {
			l.errf("%%%s, output %d of %s, does not record the use", v.Name(), i, where)
		}
	}
}

func (l *linter) node(n *Node, b *Block, s *scope) {
	if n.block != b {
		l.errf("%s does not record its block", n.Kind)
	}
	if n.graph != l.g {
		l.errf("%s belongs to another graph", n.Kind)
	}
	for i, v := range n.Inputs {
		if v == nil {
			l.errf("input %d of %s is nil", i, n.Kind)
			continue
		}
		if !s.has(v) {
			l.errf("%s uses %%%s (input %d), which is not defined before it", n.Kind, v.Name(), i)
		}
		if !l.hasUse(v, Use{User: n, Index: i}) {
			l.errf("%%%s, input %d of %s, does not record the use", v.Name(), i, n.Kind)
		}
	}
	for i, blk := range n.Blocks {
		if blk.owner != n {
			l.errf("block %d of %s does not record its node", i, n.Kind)
		}
		l.block(blk, s)
	}
	for i, o := range n.Outputs {
		l.define(s, o, "output of "+n.Kind)
		if o != nil && (o.node != n || o.offset != i) {
			l.errf("output %%%s of %s does not record its node and position %d", o.Name(), n.Kind, i)
		}
	}
	if n.Op != nil {
		if s := n.Op.Schema(); s.Namespace+"::"+s.Name != n.Kind {
			l.errf("%s resolved to %s, an operator of another name", n.Kind, s.QualifiedName())
		}
	}
	l.arity(n)
}

func kindIs(v *Value, k types.Kind) bool {
	return v != nil && v.Type != nil && v.Type.Kind() == k
}

func (l *linter) arity(n *Node) {
	switch n.Kind {
	case "prim::Constant":
		if len(n.Inputs) != 0 || len(n.Outputs) != 1 {
			l.errf("prim::Constant has %d inputs and %d outputs, want 0 and 1", len(n.Inputs), len(n.Outputs))
		}
	case "prim::If":
		if len(n.Inputs) != 1 {
			l.errf("prim::If has %d inputs, want 1 (the condition)", len(n.Inputs))
		} else if !kindIs(n.Inputs[0], types.BoolKind) {
			l.errf("prim::If's condition %%%s is not a bool", n.Inputs[0].Name())
		}
		if len(n.Blocks) != 2 {
			l.errf("prim::If has %d blocks, want 2", len(n.Blocks))
			return
		}
		for i, b := range n.Blocks {
			if len(b.Params) != 0 {
				l.errf("block%d of prim::If has %d params, want 0", i, len(b.Params))
			}
			if len(b.Outputs) != len(n.Outputs) {
				l.errf("block%d of prim::If yields %d values for %d outputs", i, len(b.Outputs), len(n.Outputs))
			}
		}
	case "prim::Loop":
		if len(n.Inputs) < 2 {
			l.errf("prim::Loop has %d inputs, want the trip count, the condition and the carried values", len(n.Inputs))
			return
		}
		if !kindIs(n.Inputs[0], types.IntKind) {
			l.errf("prim::Loop's trip count %%%s is not an int", n.Inputs[0].Name())
		}
		if !kindIs(n.Inputs[1], types.BoolKind) {
			l.errf("prim::Loop's condition %%%s is not a bool", n.Inputs[1].Name())
		}
		carried := len(n.Inputs) - 2
		if len(n.Outputs) != carried {
			l.errf("prim::Loop carries %d values but has %d outputs", carried, len(n.Outputs))
		}
		if len(n.Blocks) != 1 {
			l.errf("prim::Loop has %d blocks, want 1", len(n.Blocks))
			return
		}
		b := n.Blocks[0]
		if len(b.Params) != carried+1 {
			l.errf("prim::Loop's body has %d params, want %d (the iteration and %d carried)", len(b.Params), carried+1, carried)
		} else if !kindIs(b.Params[0], types.IntKind) {
			l.errf("prim::Loop's iteration param %%%s is not an int", b.Params[0].Name())
		}
		if len(b.Outputs) != carried+1 {
			l.errf("prim::Loop's body yields %d values, want %d (the condition and %d carried)", len(b.Outputs), carried+1, carried)
		} else if !kindIs(b.Outputs[0], types.BoolKind) {
			l.errf("prim::Loop's body condition %%%s is not a bool", b.Outputs[0].Name())
		}
	}
}
