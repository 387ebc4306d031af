package passes

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// RemoveDropout removes dropout that does nothing, replacing its uses with
// its input:
//
//   - call_module nodes calling an nn.Dropout in evaluation mode (or with
//     P == 0);
//   - call_function nodes of aten::dropout, feature_dropout, alpha_dropout,
//     feature_alpha_dropout and their in-place variants with train=False
//     or p=0 (F.dropout(x, p, training=false) records aten::dropout), which
//     PyTorch 1.13 computes as the input itself;
//   - the first result of aten::native_dropout with train=False (the input,
//     cloned); the node stays while its mask is used.
//
// Dropout in training mode with p > 0 draws random numbers, and stays:
// unlike torch.fx.experimental.optimization.remove_dropout, which removes
// every nn.Dropout, this pass never changes what the graph computes.
var RemoveDropout = Pass{
	Name: "remove_dropout",
	Doc:  "replace dropout in evaluation mode by its input",
	Run:  RemoveDropouts,
}

// identityDropouts are the dropout operators that return their input when
// train is false or p is 0.
var identityDropouts = map[string]bool{
	"aten::dropout": true, "aten::dropout_": true,
	"aten::feature_dropout": true, "aten::feature_dropout_": true,
	"aten::alpha_dropout": true, "aten::alpha_dropout_": true,
	"aten::feature_alpha_dropout": true, "aten::feature_alpha_dropout_": true,
}

// RemoveDropouts is the RemoveDropout pass as a function.
func RemoveDropouts(gm *fx.GraphModule) (bool, error) {
	changed := false
	for n := range gm.Graph.Nodes() {
		var in *node.Node
		switch n.Op() {
		case node.CallModule:
			m, err := nn.Submodule(gm, n.Target().String())
			if err != nil {
				continue
			}
			d, ok := m.(*nn.Dropout)
			if !ok || (d.Training() && d.P != 0) || n.NumArgs() != 1 || len(n.Kwargs()) != 0 {
				continue
			}
			in, _ = n.Arg(0).(*node.Node)
		case node.CallFunction:
			op, ok := n.Function().(*ops.Operator)
			if !ok {
				continue
			}
			sc := op.Schema()
			if sc.Overload != "" && sc.Overload != "default" {
				continue
			}
			name := sc.Namespace + "::" + sc.Name
			placed, ok := placeArgs(op, n)
			if !ok || len(placed) != 3 {
				continue
			}
			identity := isFalse(placed[2]) || isZero(placed[1])
			switch {
			case identityDropouts[name] && identity:
				in, _ = placed[0].(*node.Node)
			case name == "aten::native_dropout" && isFalse(placed[2]):
				x, ok := placed[0].(*node.Node)
				if !ok {
					continue
				}
				for _, u := range n.Users() {
					if isGetItem(u, n, 0) {
						if _, err := u.ReplaceAllUsesWith(x, nil, false); err != nil {
							return changed, fmt.Errorf("node %s: %w", u.Name(), err)
						}
						if err := gm.Graph.EraseNode(u); err != nil {
							return changed, fmt.Errorf("node %s: %w", u.Name(), err)
						}
						changed = true
					}
				}
				if n.NumUsers() == 0 {
					if err := gm.Graph.EraseNode(n); err != nil {
						return changed, fmt.Errorf("node %s: %w", n.Name(), err)
					}
				}
				continue
			}
		}
		if in == nil {
			continue
		}
		if _, err := n.ReplaceAllUsesWith(in, nil, false); err != nil {
			return changed, fmt.Errorf("node %s: %w", n.Name(), err)
		}
		if err := gm.Graph.EraseNode(n); err != nil {
			return changed, fmt.Errorf("node %s: %w", n.Name(), err)
		}
		changed = true
	}
	return changed, nil
}

// placeArgs puts n's arguments in op's schema order with defaults.
func placeArgs(op *ops.Operator, n *node.Node) ([]any, bool) {
	args := make([]any, n.NumArgs())
	for i := range args {
		args[i] = n.Arg(i)
	}
	var kw map[string]any
	if k := n.Kwargs(); len(k) > 0 {
		kw = make(map[string]any, len(k))
		for _, f := range k {
			kw[f.Name] = f.Value
		}
	}
	placed, err := op.Place(args, kw)
	return placed, err == nil
}

func isFalse(v any) bool {
	switch v := v.(type) {
	case node.Bool:
		return !bool(v)
	case bool:
		return !v
	}
	return false
}

func isZero(v any) bool {
	switch v := v.(type) {
	case node.Float:
		return v == 0
	case float64:
		return v == 0
	case node.Int:
		return v == 0
	case int64:
		return v == 0
	}
	return false
}

// isGetItem reports whether u is operator.getitem(n, i).
func isGetItem(u, n *node.Node, i int64) bool {
	if u.Op() != node.CallFunction || u.Function() != nn.GetItem || u.NumArgs() != 2 || len(u.Kwargs()) != 0 {
		return false
	}
	idx, ok := u.Arg(1).(node.Int)
	return ok && u.Arg(0) == n && int64(idx) == i
}
