package passes

import (
	"fmt"
	"sync"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/rewrite"
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
//
// The pass is a rule set (RuleSetOf): one rule per dropout operator and
// one for nn.Dropout modules, each replacing the match by its input, and
// one editing native_dropout's getitem 0.
var RemoveDropout = Pass{
	Name: "remove_dropout",
	Doc:  "replace dropout in evaluation mode by its input",
	Run:  removeDropout,
}

// identityDropouts are the dropout operators that return their input when
// train is false or p is 0.
var identityDropouts = []string{
	"dropout", "dropout_", "feature_dropout", "feature_dropout_",
	"alpha_dropout", "alpha_dropout_", "feature_alpha_dropout", "feature_alpha_dropout_",
}

const identityText = "%x = placeholder \"x\"()\n%output = output \"output\"(%x)\n"

// dropoutRules is RemoveDropout's rule set, built once: one rule per
// identity dropout operator (replaced by its input when train is False or
// p is 0), one for nn.Dropout modules (by their input, in evaluation mode
// or with P 0), and one for getitem 0 of aten::native_dropout with
// train=False (by the input; the native_dropout node goes when nothing
// else reads it).
var dropoutRules = sync.OnceValues(func() (*rewrite.RuleSet, error) {
	identity, err := graph.Parse(identityText)
	if err != nil {
		return nil, err
	}
	// The identity of a dropout call's three arguments.
	identity3, err := graph.Parse("%x = placeholder \"x\"()\n%p = placeholder \"p\"()\n%train = placeholder \"train\"()\n%output = output \"output\"(%x)\n")
	if err != nil {
		return nil, err
	}
	var rules []rewrite.Rule
	for _, name := range identityDropouts {
		p, err := graph.Parse(`%x = placeholder "x"()
%p = placeholder "p"()
%train = placeholder "train"()
%dropout = call_function aten.` + name + `.default(%x, %p, %train)
%output = output "output"(%dropout)`)
		if err != nil {
			return nil, err
		}
		rules = append(rules, rewrite.Rule{
			Name:    name,
			Doc:     "aten::" + name + " with train=False or p=0 is its input",
			Pattern: p,
			Constraint: func(m *rewrite.Match) error {
				p, _ := m.Binding("p")
				train, _ := m.Binding("train")
				if _, isNode := m.Match.Inputs[0].(*node.Node); !isNode {
					return fmt.Errorf("the input is no node")
				}
				if !isFalse(train) && !isZero(p) {
					return fmt.Errorf("train is %v and p is %v: the dropout draws random numbers", train, p)
				}
				return nil
			},
			Replacement: identity3,
		})
	}
	getitem, err := graph.Parse(`%dropout = placeholder "dropout"()
%getitem = call_function operator.getitem(%dropout, 0)
%output = output "output"(%getitem)`)
	if err != nil {
		return nil, err
	}
	rules = append(rules,
		rewrite.Rule{
			Name:        "dropout_module",
			Doc:         "an nn.Dropout in evaluation mode, or with P 0, is its input",
			Pattern:     newModuleChain([]string{"dropout"}, nn.NewDropout(0.5)),
			Options:     moduleTypeOptions,
			Constraint:  dropoutModule,
			Replacement: identity,
		},
		rewrite.Rule{
			Name:       "native_dropout",
			Doc:        "the first result of aten::native_dropout with train=False is its input",
			Pattern:    getitem,
			Constraint: func(m *rewrite.Match) error { _, err := nativeDropoutInput(m); return err },
			Edit:       removeNativeDropout,
		})
	return rewrite.NewRuleSet("remove_dropout", rules...)
})

// dropoutModule accepts a call of an nn.Dropout in evaluation mode or with
// P 0, with one argument.
func dropoutModule(m *rewrite.Match) error {
	n := m.Match.Outputs[0]
	if m.Module == nil {
		return fmt.Errorf("no module tree")
	}
	mod, err := nn.Submodule(m.Module, n.Target().String())
	if err != nil {
		return err
	}
	d, ok := mod.(*nn.Dropout)
	switch {
	case !ok:
		return fmt.Errorf("%s is a %T", n.Target(), mod)
	case d.Training() && d.P != 0:
		return fmt.Errorf("%s is in training mode with p %v", n.Target(), d.P)
	case n.NumArgs() != 1 || len(n.Kwargs()) != 0:
		return fmt.Errorf("%%%s has other arguments than its input", n.Name())
	}
	if _, isNode := n.Arg(0).(*node.Node); !isNode {
		return fmt.Errorf("the input is no node")
	}
	return nil
}

// nativeDropoutInput returns the input of the aten::native_dropout node
// whose getitem 0 m matched, when its train is False.
func nativeDropoutInput(m *rewrite.Match) (*node.Node, error) {
	n := m.BoundNode("dropout")
	if n == nil || n.Op() != node.CallFunction {
		return nil, fmt.Errorf("getitem of no call")
	}
	op, ok := n.Function().(*ops.Operator)
	if !ok || op != aten.NativeDropout {
		return nil, fmt.Errorf("getitem of %s, not aten.native_dropout.default", n.Function())
	}
	placed, ok := placeArgs(op, n)
	if !ok || len(placed) != 3 || !isFalse(placed[2]) {
		return nil, fmt.Errorf("%%%s is not in evaluation form (train=False)", n.Name())
	}
	x, ok := placed[0].(*node.Node)
	if !ok {
		return nil, fmt.Errorf("the input of %%%s is no node", n.Name())
	}
	return x, nil
}

// removeNativeDropout replaces getitem 0 of a native_dropout in
// evaluation form by the dropout's input, and erases the dropout when
// nothing else reads it.
func removeNativeDropout(m *rewrite.Match) (bool, error) {
	x, err := nativeDropoutInput(m)
	if err != nil {
		return false, nil
	}
	u, n := m.Match.Outputs[0], m.BoundNode("dropout")
	if _, err := u.ReplaceAllUsesWith(x, nil, false); err != nil {
		return false, fmt.Errorf("node %s: %w", u.Name(), err)
	}
	if err := m.Graph.EraseNode(u); err != nil {
		return true, fmt.Errorf("node %s: %w", u.Name(), err)
	}
	if n.NumUsers() == 0 {
		if err := m.Graph.EraseNode(n); err != nil {
			return true, fmt.Errorf("node %s: %w", n.Name(), err)
		}
	}
	return true, nil
}

// removeDropout runs RemoveDropout's rule set.
func removeDropout(gm *fx.GraphModule) (bool, error) {
	if gm == nil || gm.Graph == nil {
		return false, fmt.Errorf("nil GraphModule")
	}
	set, err := dropoutRules()
	if err != nil {
		return false, err
	}
	return set.Apply(gm)
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
