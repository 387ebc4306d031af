package passes

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/rewrite"
)

// FromRules returns the pass that applies a rule set (package rewrite) to
// a GraphModule until no rule fires.
func FromRules(name, doc string, set *rewrite.RuleSet) Pass {
	return Pass{
		Name: name,
		Doc:  doc,
		Run: func(gm *fx.GraphModule) (bool, error) {
			if set == nil {
				return false, fmt.Errorf("nil rule set")
			}
			return set.Apply(gm)
		},
	}
}

// RuleSetOf returns the rule set that the pass p of this package applies
// to gm, for its Explain (why a rule does or does not fire at a node):
// RemoveDropout, FuseConvBN, FuseLinearBN, FoldConvBN, FoldLinearBN and
// FuseEpilogues are rule sets. The sets of FoldConvBN and FoldLinearBN read gm's state;
// applying them folds as the passes do, except that the passes also drop
// the batch norms' state nothing reads any more (num_batches_tracked). It
// fails for the other passes.
func RuleSetOf(p Pass, gm *fx.GraphModule) (*rewrite.RuleSet, error) {
	switch p.Name {
	case RemoveDropout.Name:
		return dropoutRules()
	case FuseConvBN.Name, FuseLinearBN.Name:
		sets, err := fuseModuleSets()
		if err != nil {
			return nil, err
		}
		if p.Name == FuseConvBN.Name {
			return sets[convLayer], nil
		}
		return sets[linearLayer], nil
	case FuseEpilogues.Name:
		return epilogueRuleSet()
	case FoldConvBN.Name, FoldLinearBN.Name:
		if gm == nil || gm.Graph == nil {
			return nil, fmt.Errorf("passes: RuleSetOf(%s): nil GraphModule", p.Name)
		}
		kind := convLayer
		if p.Name == FoldLinearBN.Name {
			kind = linearLayer
		}
		var folded []*foldMatch
		return foldRules(kind, &attrState{gm: gm, t: fx.NewModuleEditor(gm)}, &folded)
	}
	return nil, fmt.Errorf("passes: RuleSetOf: pass %q is not a rule set", p.Name)
}
