package rewrite

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pattern"
)

// A Rule is one rewrite: where Pattern matches and Constraint agrees, the
// match becomes Replacement, or what Rewrite returns for it, or what Edit
// makes of it in place. Exactly one of Replacement, Rewrite and Edit is set.
type Rule struct {
	// Name identifies the rule in errors and explanations
	// ("conv_bn_no_training").
	Name string
	// Doc says in one line what the rule does.
	Doc string
	// Pattern is what the rule matches: anything pattern.Compile accepts
	// (a Go function over nn.Values, an nn.Module, a *fx.GraphModule, a
	// *graph.Graph, or a compiled *pattern.Pattern).
	Pattern any
	// Options are given to pattern.Compile (Literal, AnyLiterals,
	// NoCommutativity, ModulesByPath, WithFilter); they are ignored when
	// Pattern is already a *pattern.Pattern.
	Options []pattern.Option
	// Constraint, when set, decides per structural match whether the rule
	// fires: nil to fire, or an error saying why not (Explain reports it).
	// It sees the bindings, the matched nodes with their metadata and the
	// GraphModule; it must not edit anything. A rejected candidate leaves
	// its nodes free for the candidates after it.
	Constraint func(m *Match) error
	// Replacement is what every match becomes: anything pattern.Replace
	// accepts as a replacement (a Go function, an nn.Module, a
	// *fx.GraphModule or a *graph.Graph), taking the pattern's placeholders
	// and then its literal wildcards, and returning as many values as the
	// pattern. A Go function or module is traced once, when the rule set is
	// built.
	Replacement any
	// Rewrite returns the replacement of one match (anything Replacement
	// may be), or nil to leave the match alone.
	Rewrite func(m *Match) (any, error)
	// Edit rewrites one match in place, as MLIR's matchAndRewrite does:
	// it may set arguments and targets, add and erase nodes, and edit the
	// module tree; it returns whether it changed anything. A match whose
	// nodes an earlier edit of the same round erased is skipped (the next
	// round finds it again if it still holds), so an edit should change
	// only its own match's nodes and the nodes bound to its placeholders.
	// The graph must pass Lint after each edit.
	Edit func(m *Match) (bool, error)
	// Benefit orders the rules of a set: higher first (MLIR's
	// PatternBenefit); rules of equal benefit keep their order.
	Benefit int
}

// A Match is one place where a rule's pattern matched, as the rule's
// Constraint, Rewrite and Edit see it.
type Match struct {
	*pattern.Match
	// Rule is the rule that matched.
	Rule *Rule
	// Graph is the graph being rewritten.
	Graph *graph.Graph
	// Module is the GraphModule being rewritten, or nil when the target is
	// a bare *graph.Graph.
	Module *fx.GraphModule
	run    *run
}

// Shared returns the value kept under key for the whole Apply call (every
// rule, every round), made by init on first use: state that the rewrites
// of one call share, such as a copy-on-write view of the module tree.
func (m *Match) Shared(key any, init func() any) any {
	if m.run == nil {
		m.run = &run{}
	}
	return m.run.shared(key, init)
}

// BoundNode returns the node bound to the placeholder called name, or nil
// when it is bound to a literal (or there is no such placeholder).
func (m *Match) BoundNode(name string) *node.Node {
	a, _ := m.Binding(name)
	n, _ := a.(*node.Node)
	return n
}

// run is the state of one Apply call.
type run struct {
	values map[any]any
}

func (r *run) shared(key any, init func() any) any {
	if v, ok := r.values[key]; ok {
		return v
	}
	if r.values == nil {
		r.values = map[any]any{}
	}
	v := init()
	r.values[key] = v
	return v
}

// compiled is a rule with its pattern compiled and its replacement
// prepared.
type compiled struct {
	Rule
	p *pattern.Pattern
}

// compileRule checks r and compiles its pattern.
func compileRule(r Rule) (*compiled, error) {
	if r.Name == "" {
		return nil, errors.New("a rule has no name")
	}
	set := 0
	for _, ok := range []bool{r.Replacement != nil, r.Rewrite != nil, r.Edit != nil} {
		if ok {
			set++
		}
	}
	if set != 1 {
		return nil, fmt.Errorf("rule %s: %d of Replacement, Rewrite and Edit are set, want exactly one", r.Name, set)
	}
	if r.Pattern == nil {
		return nil, fmt.Errorf("rule %s: no pattern", r.Name)
	}
	opts := append([]pattern.Option{pattern.Name(r.Name)}, r.Options...)
	p, err := pattern.Compile(r.Pattern, opts...)
	if err != nil {
		return nil, fmt.Errorf("rule %s: %w", r.Name, err)
	}
	// Trace a Go function or module replacement once.
	switch rep := r.Replacement.(type) {
	case nil, *graph.Graph, *fx.GraphModule:
	case nn.Module:
		gm, err := fx.SymbolicTrace(rep)
		if err != nil {
			return nil, fmt.Errorf("rule %s: replacement: %w", r.Name, err)
		}
		r.Replacement = gm
	default:
		if reflect.TypeOf(rep).Kind() != reflect.Func {
			return nil, fmt.Errorf("rule %s: replacement is a %T: expected a func over nn.Values, an nn.Module, a *fx.GraphModule or a *graph.Graph", r.Name, rep)
		}
		gm, err := fx.SymbolicTraceFunc(rep)
		if err != nil {
			return nil, fmt.Errorf("rule %s: replacement: %w", r.Name, err)
		}
		r.Replacement = gm
	}
	return &compiled{Rule: r, p: p}, nil
}

// check runs the rule's constraint; a panic inside it comes back as
// panicked (and the match is rejected).
func (c *compiled) check(m *Match) (reason, panicked error) {
	if c.Constraint == nil {
		return nil, nil
	}
	defer func() {
		if r := recover(); r != nil {
			reason = fmt.Errorf("constraint panicked: %v", r)
			panicked = fmt.Errorf("rule %s: constraint panicked at %%%s: %v", c.Name, m.Anchor.Name(), r)
		}
	}()
	return c.Constraint(m), nil
}
