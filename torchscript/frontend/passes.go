package frontend

import (
	"fmt"

	"github.com/gofx/gofx/torchscript/ir"
)

// cleanup runs what PyTorch's runCleanupPasses does to a new graph that
// matters for its structure: dead code elimination (with unused
// prim::If outputs and loop-carried values) and constant pooling (equal
// constants merged, every constant moved to the top of the graph).
func cleanup(g *ir.Graph) error {
	for changed := true; changed; {
		var err error
		if changed, err = dce(g.Block()); err != nil {
			return err
		}
	}
	poolConstants(g)
	return nil
}

// sideEffects reports whether a node must stay although its outputs are
// unused.
func sideEffects(n *ir.Node) bool {
	switch n.Kind {
	case "prim::SetAttr", "prim::RaiseException", "prim::CallMethod", "prim::CallFunction", "prim::CreateObject", "prim::Enter", "prim::Exit",
		"prim::Print", "aten::warn", "prim::Uninitialized":
		return n.Kind != "prim::Uninitialized"
	case "prim::If", "prim::Loop":
		for _, b := range n.Blocks {
			for _, m := range b.Nodes {
				if sideEffects(m) {
					return true
				}
			}
		}
		return false
	}
	return n.Op != nil && n.Op.Impure()
}

// onlyOutputUse reports whether v's only uses are as output i of block b.
func onlyOutputUse(v *ir.Value, b *ir.Block, i int) bool {
	for _, u := range v.Uses() {
		if u.User != nil || u.Block != b || u.Index != i {
			return false
		}
	}
	return true
}

// dce removes dead nodes, If outputs and loop-carried values of b and its
// nested blocks once; changed reports whether anything was removed.
func dce(b *ir.Block) (changed bool, err error) {
	for i := len(b.Nodes) - 1; i >= 0; i-- {
		if i >= len(b.Nodes) {
			continue
		}
		n := b.Nodes[i]
		switch n.Kind {
		case "prim::If":
			for k := len(n.Outputs) - 1; k >= 0; k-- {
				if len(n.Outputs[k].Uses()) > 0 {
					continue
				}
				for _, bl := range n.Blocks {
					bl.RemoveOutput(k)
				}
				if err := n.RemoveOutput(k); err != nil {
					return changed, err
				}
				changed = true
			}
		case "prim::Loop":
			body := n.Blocks[0]
			for k := len(n.Outputs) - 1; k >= 0; k-- {
				if len(n.Outputs[k].Uses()) > 0 || !onlyOutputUse(body.Params[k+1], body, k+1) {
					continue
				}
				body.RemoveOutput(k + 1)
				if err := body.RemoveParam(k + 1); err != nil {
					return changed, err
				}
				n.RemoveInput(k + 2)
				if err := n.RemoveOutput(k); err != nil {
					return changed, err
				}
				changed = true
			}
		}
		for _, bl := range n.Blocks {
			c, err := dce(bl)
			if err != nil {
				return changed, err
			}
			changed = changed || c
		}
		if sideEffects(n) {
			continue
		}
		used := false
		for _, o := range n.Outputs {
			if len(o.Uses()) > 0 {
				used = true
			}
		}
		if !used {
			if err := n.Destroy(); err != nil {
				return changed, err
			}
			changed = true
		}
	}
	return changed, nil
}

// constKey identifies equal constants.
func constKey(n *ir.Node) string {
	k := n.Outputs[0].Type.String()
	for _, a := range n.Attrs {
		if a.Kind == ir.AttrTensor {
			k += fmt.Sprintf("|%s=%p", a.Name, a.Value)
			continue
		}
		k += fmt.Sprintf("|%s:%s=%s/%#v", a.Name, a.Kind, a, a.Value)
	}
	return k
}

// poolConstants merges equal constants and moves each to the start of the
// graph, as ConstantPooling: a constant met later goes before those met
// earlier.
func poolConstants(g *ir.Graph) {
	seen := map[string]*ir.Node{}
	top := g.Block()
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		nodes := append([]*ir.Node(nil), b.Nodes...)
		for _, n := range nodes {
			for _, bl := range n.Blocks {
				walk(bl)
			}
			if n.Kind != "prim::Constant" || len(n.Outputs) != 1 {
				continue
			}
			k := constKey(n)
			if old, ok := seen[k]; ok {
				n.Outputs[0].ReplaceAllUsesWith(old.Outputs[0])
				_ = n.Destroy()
				continue
			}
			seen[k] = n
			if len(top.Nodes) > 0 && top.Nodes[0] != n {
				_ = n.MoveBefore(top.Nodes[0])
			}
		}
	}
	walk(top)
}
