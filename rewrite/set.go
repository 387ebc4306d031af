package rewrite

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pattern"
)

// DefaultMaxRounds bounds the rounds of a RuleSet's Apply unless
// WithMaxRounds says otherwise.
const DefaultMaxRounds = 100

// A RuleSet is rules compiled and ordered by benefit, applied together
// by a greedy fixed-point driver. It is immutable and may be applied by
// several goroutines at once (to different graphs).
type RuleSet struct {
	name      string
	rules     []*compiled
	maxRounds int
}

// NewRuleSet compiles rules into a set called name. Rules are ordered by
// descending Benefit, keeping their order among equal benefits. It fails,
// naming the rule, when a rule has no name or pattern, a pattern does not
// compile, a replacement does not trace, or not exactly one of
// Replacement, Rewrite and Edit is set; and when two rules share a name.
func NewRuleSet(name string, rules ...Rule) (*RuleSet, error) {
	s := &RuleSet{name: name, maxRounds: DefaultMaxRounds}
	seen := map[string]bool{}
	for _, r := range rules {
		c, err := compileRule(r)
		if err != nil {
			return nil, fmt.Errorf("rewrite: rule set %s: %w", name, err)
		}
		if seen[r.Name] {
			return nil, fmt.Errorf("rewrite: rule set %s: two rules called %s", name, r.Name)
		}
		seen[r.Name] = true
		s.rules = append(s.rules, c)
	}
	slices.SortStableFunc(s.rules, func(a, b *compiled) int { return b.Benefit - a.Benefit })
	return s, nil
}

// Name returns the set's name.
func (s *RuleSet) Name() string { return s.name }

// Rules returns the set's rules in the order the driver tries them
// (descending benefit), with their patterns compiled (*pattern.Pattern)
// and Go-function or module replacements traced (*fx.GraphModule).
func (s *RuleSet) Rules() []Rule {
	out := make([]Rule, len(s.rules))
	for i, c := range s.rules {
		out[i] = c.Rule
		out[i].Pattern = c.p
	}
	return out
}

// WithMaxRounds returns a copy of s whose Apply gives up, with an error,
// after n rounds in which some rule still fired (n < 1 means
// DefaultMaxRounds).
func (s *RuleSet) WithMaxRounds(n int) *RuleSet {
	if n < 1 {
		n = DefaultMaxRounds
	}
	c := *s
	c.maxRounds = n
	return &c
}

// Apply rewrites target (a *fx.GraphModule or a *graph.Graph) in place
// with rules compiled as NewRuleSet compiles them; see RuleSet.Apply.
func Apply(target any, rules ...Rule) (changed bool, err error) {
	s, err := NewRuleSet("rules", rules...)
	if err != nil {
		return false, err
	}
	return s.Apply(target)
}

// Apply rewrites target (a *fx.GraphModule or a *graph.Graph) in place
// until no rule fires, and reports whether anything changed.
//
// The driver is greedy and works in rounds: in each round every rule, by
// descending benefit, rewrites all its non-overlapping matches that its
// Constraint accepts (pattern.ReplaceFunc for Replacement and Rewrite
// rules, one Edit per match otherwise), so a rule of higher benefit takes
// the nodes first; rounds repeat until one changes nothing. A set still
// firing after its round bound (DefaultMaxRounds, or WithMaxRounds) does
// not converge: Apply stops with an error naming the rules that fired in
// the last round. An error from a rule stops Apply with an error naming
// the rule; what the rules rewrote before it stays rewritten, and the
// graph is valid. A panic inside a rule's function comes back as an
// error naming the rule.
func (s *RuleSet) Apply(target any) (changed bool, err error) {
	if s == nil {
		return false, errors.New("rewrite: nil *RuleSet")
	}
	g, gm, err := graphOf(target)
	if err != nil {
		return false, fmt.Errorf("rewrite: rule set %s: %w", s.name, err)
	}
	r := &run{}
	for round := 1; ; round++ {
		var fired []string
		for _, c := range s.rules {
			n, err := c.apply(target, g, gm, r)
			if n > 0 {
				changed = true
				fired = append(fired, c.Name)
			}
			if err != nil {
				return changed, fmt.Errorf("rewrite: rule set %s: %w", s.name, err)
			}
		}
		if len(fired) == 0 {
			return changed, nil
		}
		if round >= s.maxRounds {
			return changed, fmt.Errorf("rewrite: rule set %s does not converge: rule %s still fired in round %d (the limit)", s.name, strings.Join(fired, ", "), round)
		}
	}
}

// Func returns s.Apply as a function of a GraphModule, the form of a
// passes.Pass's Run (passes.FromRules wraps it).
func (s *RuleSet) Func() func(gm *fx.GraphModule) (bool, error) {
	return func(gm *fx.GraphModule) (bool, error) {
		if gm == nil {
			return false, fmt.Errorf("rewrite: rule set %s: nil GraphModule", s.name)
		}
		return s.Apply(gm)
	}
}

// graphOf returns the graph of a target and its GraphModule, if any.
func graphOf(target any) (*graph.Graph, *fx.GraphModule, error) {
	switch t := target.(type) {
	case *fx.GraphModule:
		if t == nil || t.Graph == nil {
			return nil, nil, errors.New("nil GraphModule")
		}
		return t.Graph, t, nil
	case *graph.Graph:
		if t == nil {
			return nil, nil, errors.New("nil *graph.Graph")
		}
		return t, nil, nil
	}
	return nil, nil, fmt.Errorf("cannot rewrite a %T: expected a *fx.GraphModule or a *graph.Graph", target)
}

// apply runs one round of rule c over target and returns the number of
// matches it rewrote.
func (c *compiled) apply(target any, g *graph.Graph, gm *fx.GraphModule, r *run) (n int, err error) {
	var panicked error
	wrap := func(pm *pattern.Match) *Match {
		return &Match{Match: pm, Rule: &c.Rule, Graph: g, Module: gm, run: r}
	}
	accept := pattern.WithFilter(func(pm *pattern.Match) bool {
		if panicked != nil {
			return false
		}
		reason, p := c.check(wrap(pm))
		if p != nil {
			panicked = p
		}
		return reason == nil
	})
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("rule %s panicked: %v", c.Name, x)
		}
	}()
	if c.Edit == nil {
		with := func(pm *pattern.Match) (any, error) {
			if panicked != nil {
				return nil, nil
			}
			if c.Rewrite != nil {
				return c.Rewrite(wrap(pm))
			}
			return c.Replacement, nil
		}
		ms, err := pattern.ReplaceFunc(target, c.p, with, accept)
		if err == nil {
			err = panicked
		}
		if err != nil {
			return len(ms), fmt.Errorf("rule %s: %w", c.Name, err)
		}
		return len(ms), nil
	}
	ms, err := pattern.Find(target, c.p, accept)
	if err == nil {
		err = panicked
	}
	if err != nil {
		return 0, fmt.Errorf("rule %s: %w", c.Name, err)
	}
	for _, pm := range ms {
		if stale(pm) {
			continue
		}
		ok, err := c.Edit(wrap(pm))
		if ok {
			n++
		}
		if err != nil {
			return n, fmt.Errorf("rule %s at %%%s: %w", c.Name, pm.Anchor.Name(), err)
		}
	}
	return n, nil
}

// stale reports whether an earlier edit erased a node of m.
func stale(m *pattern.Match) bool {
	for _, n := range m.Nodes {
		if n.Erased() {
			return true
		}
	}
	for _, a := range m.Inputs {
		if n, ok := a.(*node.Node); ok && n.Erased() {
			return true
		}
	}
	return false
}

// Explain says, for each rule of s in the order the driver tries them,
// whether it fires in target with the graph node n as its pattern's
// anchor and why not: the pattern's own explanation (pattern.Explain,
// one reason per alternative tried) when it does not match there, the
// Constraint's verdict when it does.
func (s *RuleSet) Explain(target any, n *node.Node) (string, error) {
	if s == nil {
		return "", errors.New("rewrite: nil *RuleSet")
	}
	g, gm, err := graphOf(target)
	if err != nil {
		return "", fmt.Errorf("rewrite: rule set %s: %w", s.name, err)
	}
	if n == nil || !g.Contains(n) {
		return "", fmt.Errorf("rewrite: rule set %s: node %v is not a live node of the graph", s.name, n)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "rule set %s at %%%s:", s.name, n.Name())
	for _, c := range s.rules {
		fmt.Fprintf(&b, "\nrule %s (benefit %d): ", c.Name, c.Benefit)
		text, err := pattern.Explain(target, c.p, n)
		if err != nil {
			return "", fmt.Errorf("rewrite: rule set %s: rule %s: %w", s.name, c.Name, err)
		}
		if !strings.HasPrefix(text, "match: ") {
			b.WriteString("does not fire: ")
			b.WriteString(strings.ReplaceAll(text, "\n", "\n  "))
			continue
		}
		ms, err := pattern.Find(target, c.p, pattern.WithFilter(func(m *pattern.Match) bool { return m.Anchor == n }))
		if err != nil {
			return "", fmt.Errorf("rewrite: rule set %s: rule %s: %w", s.name, c.Name, err)
		}
		if len(ms) == 0 {
			fmt.Fprintf(&b, "does not fire: the pattern matches (%s) but the match is refused", strings.TrimPrefix(text, "match: "))
			continue
		}
		m := &Match{Match: ms[0], Rule: &c.Rule, Graph: g, Module: gm, run: &run{}}
		if reason, _ := c.check(m); reason != nil {
			fmt.Fprintf(&b, "does not fire: %s; constraint: %v", ms[0], reason)
			continue
		}
		fmt.Fprintf(&b, "fires: %s", ms[0])
	}
	return b.String(), nil
}
