package rewrite_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pattern"
	"github.com/gofx/gofx/rewrite"
)

func parse(t *testing.T, text string) *graph.Graph {
	t.Helper()
	g, err := graph.Parse(text)
	require.NoError(t, err)
	return g
}

const negNeg = `
%x = placeholder "x"()
%neg = call_function aten.neg.default(%x)
%neg_1 = call_function aten.neg.default(%neg)
%output = output "output"(%neg_1)
`

const identity = `
%x = placeholder "x"()
%output = output "output"(%x)
`

// TestConstraintAndExplain: a constraint rejects some matches (leaving
// them alone) and Explain reports the pattern's reason, the constraint's
// verdict, and the firing.
func TestConstraintAndExplain(t *testing.T) {
	g := parse(t, `
%a = placeholder "a"()
%b = call_function aten.neg.default(%a)
%c = call_function aten.neg.default(%b)
%d = call_function aten.neg.default(%c) {keep: "yes"}
%e = call_function aten.neg.default(%d)
%output = output "output"((%c, %e))
`)
	set, err := rewrite.NewRuleSet("negs", rewrite.Rule{
		Name:    "neg_neg",
		Pattern: parse(t, negNeg),
		Constraint: func(m *rewrite.Match) error {
			if v, ok := m.Node("neg").Meta.Get("keep"); ok {
				return fmt.Errorf("inner neg %%%s is marked keep=%v", m.Node("neg").Name(), v)
			}
			return nil
		},
		Replacement: parse(t, identity),
	})
	require.NoError(t, err)
	e, _ := g.Node("e")
	text, err := set.Explain(g, e)
	require.NoError(t, err)
	assert.Contains(t, text, "rule neg_neg (benefit 0): does not fire: pattern neg_neg at %e: neg=%d, neg_1=%e; x=%c; constraint: inner neg %d is marked keep=yes")
	b, _ := g.Node("b")
	text, err = set.Explain(g, b)
	require.NoError(t, err)
	assert.Contains(t, text, "does not fire: no match of pattern neg_neg at %b")
	c, _ := g.Node("c")
	text, err = set.Explain(g, c)
	require.NoError(t, err)
	assert.Contains(t, text, "fires: pattern neg_neg at %c: neg=%b, neg_1=%c; x=%a")

	changed, err := set.Apply(g)
	require.NoError(t, err)
	assert.True(t, changed)
	require.NoError(t, g.Lint())
	// c = neg(neg(a)) became a; e = neg(neg(c)) was refused, and
	// e = neg(d) with d = neg(c) where c is now a is refused again.
	assert.Equal(t, `%a = placeholder "a"()
%d = call_function aten.neg.default(%a) {keep: "yes"}
%e = call_function aten.neg.default(%d)
%output = output "output"((%a, %e))
`, g.Text())

	_, err = set.Explain(g, c)
	assert.ErrorContains(t, err, "not a live node")
}

// TestBenefitOrder: the rule of higher benefit takes the nodes first,
// whatever the order the rules are given in.
func TestBenefitOrder(t *testing.T) {
	mk := func(name, op string, benefit int) rewrite.Rule {
		return rewrite.Rule{
			Name:    name,
			Pattern: parse(t, negNeg),
			Replacement: parse(t, `
%x = placeholder "x"()
%r = call_function aten.`+op+`.default(%x)
%output = output "output"(%r)
`),
			Benefit: benefit,
		}
	}
	for _, order := range [][]rewrite.Rule{
		{mk("to_relu", "relu", 1), mk("to_abs", "abs", 2)},
		{mk("to_abs", "abs", 2), mk("to_relu", "relu", 1)},
	} {
		g := parse(t, negNeg)
		set, err := rewrite.NewRuleSet("s", order...)
		require.NoError(t, err)
		assert.Equal(t, "to_abs", set.Rules()[0].Name)
		changed, err := set.Apply(g)
		require.NoError(t, err)
		assert.True(t, changed)
		assert.Len(t, g.FindNodes(node.CallFunction, nil), 1)
		for n := range g.Nodes() {
			if n.Op() == node.CallFunction {
				assert.Equal(t, "aten.abs.default", n.Target().String())
			}
		}
	}
}

// TestNoConvergence: a rule that undoes another's work never settles;
// Apply stops at the bound with an error naming the rules.
func TestNoConvergence(t *testing.T) {
	swap := func(name, from, to string) rewrite.Rule {
		return rewrite.Rule{
			Name:        name,
			Pattern:     parse(t, "%x = placeholder \"x\"()\n%r = call_function aten."+from+".default(%x)\n%output = output \"output\"(%r)"),
			Replacement: parse(t, "%x = placeholder \"x\"()\n%r = call_function aten."+to+".default(%x)\n%output = output \"output\"(%r)"),
		}
	}
	set, err := rewrite.NewRuleSet("flip", swap("sin_cos", "sin", "cos"), swap("cos_sin", "cos", "sin"))
	require.NoError(t, err)
	g := parse(t, "%x = placeholder \"x\"()\n%r = call_function aten.sin.default(%x)\n%output = output \"output\"(%r)")
	changed, err := set.WithMaxRounds(5).Apply(g)
	assert.True(t, changed)
	require.ErrorContains(t, err, "rule set flip does not converge: rule sin_cos, cos_sin still fired in round 5")
	require.NoError(t, g.Lint())
}

// TestEdit: an Edit rule rewrites in place, keeps node names, shares
// state across matches through Match.Shared, and a failing edit stops
// Apply with an error naming the rule and the node.
func TestEdit(t *testing.T) {
	g := parse(t, `
%x = placeholder "x"()
%a = call_function aten.neg.default(%x)
%b = call_function aten.neg.default(%a)
%output = output "output"(%b)
`)
	var counted []int
	rule := rewrite.Rule{
		Name:    "neg_is_abs",
		Pattern: parse(t, "%x = placeholder \"x\"()\n%neg = call_function aten.neg.default(%x)\n%output = output \"output\"(%neg)"),
		Edit: func(m *rewrite.Match) (bool, error) {
			k := m.Shared("count", func() any { return new(int) }).(*int)
			*k++
			counted = append(counted, *k)
			n := m.Node("neg")
			abs, _ := node.LookupFunction("aten.abs.default")
			return true, n.SetTarget(abs)
		},
	}
	changed, err := rewrite.Apply(g, rule)
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, []int{1, 2}, counted, "one Shared value for the whole Apply")
	assert.Equal(t, `%x = placeholder "x"()
%a = call_function aten.abs.default(%x)
%b = call_function aten.abs.default(%a)
%output = output "output"(%b)
`, g.Text())

	g = parse(t, negNeg)
	rule.Edit = func(m *rewrite.Match) (bool, error) { return false, errors.New("boom") }
	_, err = rewrite.Apply(g, rule)
	assert.ErrorContains(t, err, "rule set rules: rule neg_is_abs at %neg: boom")
	rule.Edit = func(m *rewrite.Match) (bool, error) { panic("bang") }
	_, err = rewrite.Apply(g, rule)
	assert.ErrorContains(t, err, "rule neg_is_abs panicked: bang")
	rule.Edit = func(m *rewrite.Match) (bool, error) { return false, nil }
	rule.Constraint = func(m *rewrite.Match) error { panic("oops") }
	_, err = rewrite.Apply(g, rule)
	assert.ErrorContains(t, err, "rule neg_is_abs: constraint panicked at %neg: oops")
}

// TestRuleErrors: malformed rules and targets are errors naming the rule.
func TestRuleErrors(t *testing.T) {
	p := parse(t, negNeg)
	for _, tc := range []struct {
		name  string
		rules []rewrite.Rule
		want  string
	}{
		{"no name", []rewrite.Rule{{Pattern: p, Replacement: p}}, "a rule has no name"},
		{"no pattern", []rewrite.Rule{{Name: "r", Replacement: p}}, "rule r: no pattern"},
		{"no rewrite", []rewrite.Rule{{Name: "r", Pattern: p}}, "rule r: 0 of Replacement, Rewrite and Edit are set"},
		{"two rewrites", []rewrite.Rule{{Name: "r", Pattern: p, Replacement: p, Edit: func(*rewrite.Match) (bool, error) { return false, nil }}}, "rule r: 2 of"},
		{"bad pattern", []rewrite.Rule{{Name: "r", Pattern: 3, Replacement: p}}, "rule r: pattern.Compile"},
		{"bad replacement", []rewrite.Rule{{Name: "r", Pattern: p, Replacement: 3}}, "rule r: replacement is a int"},
		{"duplicate", []rewrite.Rule{{Name: "r", Pattern: p, Replacement: p}, {Name: "r", Pattern: p, Replacement: p}}, "two rules called r"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := rewrite.NewRuleSet("s", tc.rules...)
			assert.ErrorContains(t, err, tc.want)
		})
	}
	set, err := rewrite.NewRuleSet("s", rewrite.Rule{Name: "r", Pattern: p, Replacement: parse(t, identity)})
	require.NoError(t, err)
	_, err = set.Apply(3)
	assert.ErrorContains(t, err, "cannot rewrite a int")
	_, err = set.Apply((*graph.Graph)(nil))
	assert.ErrorContains(t, err, "nil *graph.Graph")
	_, err = set.Func()(nil)
	assert.ErrorContains(t, err, "rule set s: nil GraphModule")
	var nilSet *rewrite.RuleSet
	_, err = nilSet.Apply(p)
	assert.Error(t, err)
	// A compiled *pattern.Pattern is used as is.
	cp, err := pattern.Compile(p)
	require.NoError(t, err)
	_, err = rewrite.NewRuleSet("s", rewrite.Rule{Name: "r", Pattern: cp, Replacement: parse(t, identity)})
	require.NoError(t, err)
}
