package pattern

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// Match is one occurrence of a pattern in a graph.
type Match struct {
	// Pattern is the pattern that matched.
	Pattern *Pattern
	// Anchor is the graph node matched to the pattern's anchor (its first
	// output that only the output uses): candidates are tried in the graph
	// order of their anchors.
	Anchor *node.Node
	// Outputs are the graph nodes matched to the pattern's outputs, in the
	// pattern's output order.
	Outputs []*node.Node
	// Inputs are the values bound to the pattern's placeholders, in order:
	// nodes or literals. After Replace they are the values the replacement
	// was given (a node replaced by an earlier match stands for its
	// replacement).
	Inputs []node.Arg
	// Nodes are the graph nodes matched to the pattern's nodes other than
	// placeholders and output, in the pattern's program order. After Replace
	// they are erased.
	Nodes []*node.Node
	// Literals are the values bound to the pattern's literal wildcards,
	// in Pattern.Literals order.
	Literals []node.Arg
	// Replacement are the nodes Replace created for this match, in program
	// order (nil before Replace, or when the replacement returns its inputs).
	Replacement []*node.Node
}

// Binding returns the value bound to the placeholder or literal wildcard
// called name ("x", "add.other").
func (m *Match) Binding(name string) (node.Arg, bool) {
	for i, n := range m.Pattern.phs {
		if n.Name() == name {
			return m.Inputs[i], true
		}
	}
	for i, s := range m.Pattern.literals {
		if s == name {
			return m.Literals[i], true
		}
	}
	return nil, false
}

// Node returns the graph node matched to the pattern node called name
// ("add", "relu"), or nil.
func (m *Match) Node(name string) *node.Node {
	for i, n := range m.Pattern.nodes {
		if n.Name() == name {
			return m.Nodes[i]
		}
	}
	return nil
}

// String returns the match as "pattern NAME at %anchor: add=%add_3, relu=%relu_3; x=%lin".
func (m *Match) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pattern %s at %%%s:", m.Pattern.name, m.Anchor.Name())
	for i, n := range m.Pattern.nodes {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s=%%%s", n.Name(), m.Nodes[i].Name())
	}
	for i, n := range m.Pattern.phs {
		if i == 0 {
			b.WriteString(";")
		} else {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s=%s", n.Name(), fmtArg(m.Inputs[i]))
	}
	for i, s := range m.Pattern.literals {
		fmt.Fprintf(&b, ", %s=%s", s, fmtArg(m.Literals[i]))
	}
	return b.String()
}

// Find returns the non-overlapping matches of pattern in target (a
// *graph.Graph or a *fx.GraphModule), in graph order of their anchors (a
// GraphModule's own graph first, then the graphs of its higher-order
// operators, each matched apart: see eachSubgraph).
// pattern is a *Pattern or anything Compile accepts (compiled with opts).
func Find(target any, pattern any, opts ...Option) ([]*Match, error) {
	c := newConfig(opts)
	p, err := compile(pattern, c)
	if err != nil {
		return nil, err
	}
	m, err := newMatcher(target, p, extraFilters(pattern, c))
	if err != nil {
		return nil, fmt.Errorf("pattern.Find: %w", err)
	}
	out := m.all()
	gm, ok := target.(*fx.GraphModule)
	if !ok {
		return out, nil
	}
	err = eachSubgraph(gm, func(sub *fx.GraphModule) error {
		m, err := newMatcher(sub, p, extraFilters(pattern, c))
		if err != nil {
			return err
		}
		out = append(out, m.all()...)
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("pattern.Find: %w", err)
	}
	return out, nil
}

// Explain reports why pattern does or does not match in target with the
// graph node n as its anchor: the match, or one reason per alternative tried
// (operand orders of commutative operators, candidates for further outputs),
// each naming the pattern node and the graph node. Earlier matches are not
// taken into account (Find would refuse a candidate that overlaps one).
func Explain(target any, pattern any, n *node.Node, opts ...Option) (string, error) {
	c := newConfig(opts)
	p, err := compile(pattern, c)
	if err != nil {
		return "", err
	}
	m, err := newMatcher(target, p, extraFilters(pattern, c))
	if err != nil {
		return "", fmt.Errorf("pattern.Explain: %w", err)
	}
	if n == nil || !m.g.Contains(n) {
		return "", fmt.Errorf("pattern.Explain: pattern %s: node %v is not a live node of the graph", p.name, n)
	}
	m.explain = true
	if got := m.try(n); got != nil {
		return "match: " + got.String(), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "no match of pattern %s at %%%s:", p.name, n.Name())
	for _, r := range dedup(m.reasons) {
		b.WriteString("\n- ")
		b.WriteString(r)
	}
	return b.String(), nil
}

func dedup(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// targetGraph returns the graph and module tree of a match target.
func targetGraph(target any) (*graph.Graph, nn.Module, error) {
	switch t := target.(type) {
	case *graph.Graph:
		if t == nil {
			return nil, nil, errors.New("nil *graph.Graph")
		}
		return t, nil, nil
	case *fx.GraphModule:
		if t == nil || t.Graph == nil {
			return nil, nil, errors.New("nil *fx.GraphModule")
		}
		return t.Graph, t, nil
	}
	return nil, nil, fmt.Errorf("cannot match in %T: expected a *graph.Graph or a *fx.GraphModule", target)
}

type goal struct {
	p int
	g *node.Node
}

const (
	choiceSwap = iota // retry goal (p, g) with the operands swapped
	choiceCand        // bind p to the next of cands
)

type choice struct {
	kind  int
	trail int
	goals []goal
	p     int
	g     *node.Node
	cands []*node.Node
	next  int
}

// matcher is the backtracking search for one pattern in one graph. Its
// state is a binding per pattern node, undone through a trail; the work
// left is a stack of goals (pattern node, graph node) and the alternatives
// are choice points: no recursion over the graph.
type matcher struct {
	p       *Pattern
	g       *graph.Graph
	root    nn.Module
	filters []func(*Match) bool
	claimed map[*node.Node]bool
	mods    map[string]modInfo

	explain bool
	reasons []string

	bound    []bool
	val      []any // *node.Node for compute nodes; node.Arg for placeholders
	litBound []bool
	lit      []any
	trail    []int // pattern node i, or -(w+1) for literal wildcard w
	goals    []goal
	choices  []choice
	nph      int
}

// extraFilters returns the filters of c that the compiled pattern does not
// already hold: all of them when src was compiled before, none when c
// compiled it.
func extraFilters(src any, c *config) []func(*Match) bool {
	if _, ok := src.(*Pattern); ok {
		return c.filters
	}
	return nil
}

func newMatcher(target any, p *Pattern, extra []func(*Match) bool) (*matcher, error) {
	g, root, err := targetGraph(target)
	if err != nil {
		return nil, err
	}
	m := &matcher{
		p:        p,
		g:        g,
		root:     root,
		filters:  append(append([]func(*Match) bool(nil), p.cfg.filters...), extra...),
		bound:    make([]bool, len(p.all)),
		val:      make([]any, len(p.all)),
		litBound: make([]bool, len(p.literals)),
		lit:      make([]any, len(p.literals)),
		nph:      len(p.phs),
	}
	return m, nil
}

// candidates returns the graph nodes that may match pattern node i, from the
// graph's index.
func (m *matcher) candidates(i int) []*node.Node {
	pn := m.p.all[i]
	switch {
	case pn.key.op == node.CallModule && pn.modType != nil && m.root != nil:
		return m.g.FindNodes(node.CallModule, nil)
	case pn.key.op == node.GetAttr && pn.attrT && m.root != nil:
		return m.g.FindNodes(node.GetAttr, nil)
	case pn.fam != "":
		return m.familyCandidates(pn)
	}
	return m.g.FindNodes(pn.key.op, node.Path(pn.key.target))
}

// familyCandidates returns the graph nodes that call an operator of pn's
// family in a spelling and overload the pattern's options allow.
func (m *matcher) familyCandidates(pn *pnode) []*node.Node {
	cfg := &m.p.cfg
	lists := [][]*node.Node{m.g.FindNodes(pn.key.op, node.Path(pn.key.target))}
	if pn.key.op == node.CallFunction || !cfg.strictSpelling {
		if cfg.strictOverloads {
			if pn.key.op == node.CallMethod {
				lists = append(lists, m.g.FindNodes(node.CallFunction, pn.op))
			}
		} else {
			for _, o := range overloads(pn.fam) {
				if pn.key.op != node.CallFunction || o != pn.op {
					lists = append(lists, m.g.FindNodes(node.CallFunction, o))
				}
			}
		}
	}
	if pn.key.op == node.CallFunction && !cfg.strictSpelling {
		_, name, _ := strings.Cut(pn.fam, "::")
		lists = append(lists, m.g.FindNodes(node.CallMethod, node.Path(name)))
	}
	return mergeOrdered(m.g.Before, lists...)
}

// all finds every non-overlapping match, in graph order of the anchors.
func (m *matcher) all() []*Match {
	cands := m.candidates(m.p.anchor)
	m.claimed = make(map[*node.Node]bool, len(cands)*len(m.p.nodes))
	var out []*Match
	for _, c := range cands {
		if m.claimed[c] {
			continue
		}
		if r := m.try(c); r != nil {
			for _, n := range r.Nodes {
				m.claimed[n] = true
			}
			out = append(out, r)
		}
	}
	return out
}

func (m *matcher) fail(format string, args ...any) bool {
	if m.explain {
		m.reasons = append(m.reasons, fmt.Sprintf(format, args...))
	}
	return false
}

func (m *matcher) bind(i int, v any) {
	m.bound[i], m.val[i] = true, v
	m.trail = append(m.trail, i)
}

func (m *matcher) undo(to int) {
	for len(m.trail) > to {
		i := m.trail[len(m.trail)-1]
		m.trail = m.trail[:len(m.trail)-1]
		if i >= 0 {
			m.bound[i], m.val[i] = false, nil
		} else {
			m.litBound[-i-1], m.lit[-i-1] = false, nil
		}
	}
}

// try matches the pattern with its anchor at graph node c, and returns the
// match or nil.
func (m *matcher) try(c *node.Node) *Match {
	defer func() {
		m.undo(0)
		m.goals = m.goals[:0]
		m.choices = m.choices[:0]
	}()
	m.goals = append(m.goals[:0], goal{m.p.anchor, c})
	for {
		if m.run() {
			if r := m.finish(); r != nil {
				return r
			}
		}
		if !m.backtrack() {
			return nil
		}
	}
}

// backtrack resumes the most recent choice point with its next alternative.
func (m *matcher) backtrack() bool {
	for len(m.choices) > 0 {
		ch := &m.choices[len(m.choices)-1]
		m.undo(ch.trail)
		m.goals = append(m.goals[:0], ch.goals...)
		switch ch.kind {
		case choiceSwap:
			p, g := ch.p, ch.g
			m.choices = m.choices[:len(m.choices)-1]
			if m.step(p, g, true) {
				return true
			}
		case choiceCand:
			if ch.next >= len(ch.cands) {
				m.choices = m.choices[:len(m.choices)-1]
				continue
			}
			g := ch.cands[ch.next]
			ch.next++
			m.goals = append(m.goals, goal{ch.p, g})
			return true
		}
	}
	return false
}

// run works through the goals; it reports false at the first failure.
func (m *matcher) run() bool {
	for {
		for len(m.goals) > 0 {
			gl := m.goals[len(m.goals)-1]
			m.goals = m.goals[:len(m.goals)-1]
			if !m.step(gl.p, gl.g, false) {
				return false
			}
		}
		// Every pattern node reached from the bound ones is bound; extend to
		// the others (outputs not upstream of the anchor).
		if !m.extend() {
			return true
		}
	}
}

// extend picks an unbound pattern node and pushes a choice over its
// candidates: the users of a bound input, or the index for a pattern part
// that shares nothing with the bound part. It reports false when every
// pattern node is bound.
func (m *matcher) extend() bool {
	p := m.p
	pick, from := -1, -1
	for i := m.nph; i < len(p.all) && pick < 0; i++ {
		if m.bound[i] {
			continue
		}
		for _, j := range p.all[i].inputs {
			if m.bound[j] {
				if _, ok := m.val[j].(*node.Node); ok {
					pick, from = i, j
					break
				}
			}
		}
	}
	var cands []*node.Node
	if pick >= 0 {
		cands = m.val[from].(*node.Node).Users()
	} else {
		for i := m.nph; i < len(p.all); i++ {
			if !m.bound[i] && p.all[i].isOut {
				pick = i
				break
			}
		}
		if pick < 0 {
			for i := m.nph; i < len(p.all); i++ {
				if !m.bound[i] {
					pick = i
					break
				}
			}
		}
		if pick < 0 {
			return false
		}
		cands = m.candidates(pick)
	}
	m.choices = append(m.choices, choice{kind: choiceCand, trail: len(m.trail), p: pick, cands: cands})
	// Fail here so that backtrack takes the first candidate.
	m.goals = append(m.goals, goal{pick, nil})
	return true
}

// step matches pattern node i with graph node g.
func (m *matcher) step(i int, g *node.Node, swapped bool) bool {
	pn := m.p.all[i]
	if g == nil {
		return false
	}
	if m.bound[i] {
		if m.val[i] == any(g) {
			return true
		}
		return m.fail("pattern node %%%s is already matched to %%%s, not %%%s", pn.n.Name(), m.val[i].(*node.Node).Name(), g.Name())
	}
	for j := m.nph; j < len(m.val); j++ {
		if m.bound[j] && m.val[j] == any(g) {
			return m.fail("graph node %%%s is already matched to pattern node %%%s, so it cannot match %%%s", g.Name(), m.p.all[j].n.Name(), pn.n.Name())
		}
	}
	if m.claimed[g] {
		return m.fail("graph node %%%s belongs to an earlier match", g.Name())
	}
	f, gop, ok := m.sameKind(pn, g)
	if !ok {
		return false
	}
	var gargs []any
	var gnames []string
	var err error
	if gop != nil {
		gargs, gnames, err = placeWith(gop, g)
	} else {
		gargs, gnames, err = normalize(g)
	}
	if err != nil {
		return m.fail("graph node %%%s: its arguments do not fit the schema: %v", g.Name(), err)
	}
	if len(gargs) != len(f.args) {
		return m.fail("pattern node %%%s has %d arguments %v, graph node %%%s has %d %v", pn.n.Name(), len(f.args), f.names, g.Name(), len(gargs), gnames)
	}
	if !equalNames(f.names, gnames) {
		gargs = reorder(f.names, gnames, gargs)
		if gargs == nil {
			return m.fail("pattern node %%%s has arguments %v, graph node %%%s has %v", pn.n.Name(), f.names, g.Name(), gnames)
		}
	}
	if f.swap && !swapped {
		m.choices = append(m.choices, choice{kind: choiceSwap, trail: len(m.trail), goals: append([]goal(nil), m.goals...), p: i, g: g})
	}
	m.bind(i, g)
	for k, pa := range f.args {
		ga := gargs[k]
		if swapped && k < 2 {
			ga = gargs[1-k]
		}
		if !m.unify(pn, f, k, pa, ga, g) {
			return false
		}
	}
	return true
}

func equalNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// reorder returns gargs in the order of want, or nil if the names differ.
func reorder(want, have []string, gargs []any) []any {
	out := make([]any, len(want))
	for i, w := range want {
		k := -1
		for j, h := range have {
			if h == w {
				k = j
				break
			}
		}
		if k < 0 {
			return nil
		}
		out[i] = gargs[k]
	}
	return out
}

// sameKind reports whether g calls what pattern node pn calls: the same
// opcode and target (module type and configuration for call_module nodes of
// a pattern traced from modules, any tensor attribute for get_attr nodes
// reading one), or another spelling or overload of pn's operator family. It
// returns the pattern's argument form to compare, and the overload g calls
// when g is compared in that overload's schema (nil: as written).
func (m *matcher) sameKind(pn *pnode, g *node.Node) (*form, *ops.Operator, bool) {
	t := g.Target().String()
	if g.Op() == pn.key.op {
		switch {
		case pn.key.op == node.CallModule && pn.modType != nil && m.root != nil:
			return &pn.raw, nil, m.sameModule(pn, g)
		case pn.key.op == node.GetAttr && pn.attrT && m.root != nil:
			if !isTensorAttr(m.root, t) {
				return nil, nil, m.fail("pattern node %%%s reads a tensor attribute, graph node %%%s reads %s, which is not a parameter or buffer", pn.n.Name(), g.Name(), t)
			}
			return &pn.raw, nil, true
		case t == pn.key.target:
			return &pn.raw, nil, true
		}
	}
	cfg := &m.p.cfg
	if pn.fam != "" && (g.Op() == node.CallFunction || g.Op() == node.CallMethod) && family(g) == pn.fam {
		if g.Op() != pn.key.op && cfg.strictSpelling {
			return nil, nil, m.fail("pattern node %%%s is %s %s, graph node %%%s is %s %s (StrictSpelling: no other spelling)", pn.n.Name(), pn.key.op, pn.key.target, g.Name(), g.Op(), t)
		}
		gop := operatorOf(g)
		if gop == nil {
			return nil, nil, m.fail("graph node %%%s (%s %s): no overload of %s accepts its arguments", g.Name(), g.Op(), t, pn.fam)
		}
		if gop != pn.op && cfg.strictOverloads {
			return nil, nil, m.fail("pattern node %%%s calls %s, graph node %%%s calls %s (StrictOverloads: no other overload)", pn.n.Name(), pn.op, g.Name(), gop)
		}
		return &pn.res, gop, true
	}
	if g.Op() != pn.key.op {
		return nil, nil, m.fail("pattern node %%%s is %s, graph node %%%s is %s", pn.n.Name(), pn.key.op, g.Name(), g.Op())
	}
	return nil, nil, m.fail("pattern node %%%s is %s %s, graph node %%%s is %s %s", pn.n.Name(), pn.key.op, pn.key.target, g.Name(), g.Op(), t)
}

// sameModule reports whether call_module node g calls a module of pn's Go
// type and configuration.
func (m *matcher) sameModule(pn *pnode, g *node.Node) bool {
	t := g.Target().String()
	mi, ok := m.mods[t]
	if !ok {
		if mod, err := nn.Submodule(m.root, t); err == nil {
			mi.typ = reflect.TypeOf(mod)
			if pn.modCfg != "" {
				mi.config = moduleConfig(mod)
			}
		}
		if m.mods == nil {
			m.mods = map[string]modInfo{}
		}
		m.mods[t] = mi
	}
	if mi.typ != pn.modType {
		return m.fail("pattern node %%%s calls a %v, graph node %%%s calls %s, a %v", pn.n.Name(), pn.modType, g.Name(), t, mi.typ)
	}
	if pn.modCfg != "" && mi.config != pn.modCfg {
		return m.fail("pattern node %%%s calls %s, graph node %%%s calls %s, configured %s (ModulesByType ignores the configuration)", pn.n.Name(), pn.modCfg, g.Name(), t, mi.config)
	}
	return true
}

// unify matches argument k of pattern node pn (pa) with the graph's (ga).
func (m *matcher) unify(pn *pnode, f *form, k int, pa, ga any, g *node.Node) bool {
	if w := f.wild[k]; w >= 0 {
		if hasNode(ga) {
			return m.fail("argument %s of pattern node %%%s is a literal wildcard, graph node %%%s passes %s", f.names[k], pn.n.Name(), g.Name(), fmtArg(ga))
		}
		if m.litBound[w] {
			return equalLiteral(m.lit[w], ga)
		}
		m.litBound[w], m.lit[w] = true, ga
		m.trail = append(m.trail, -(w + 1))
		return true
	}
	if !m.unifyArg(pa, ga) {
		return m.fail("argument %s of pattern node %%%s is %s, graph node %%%s has %s", f.names[k], pn.n.Name(), fmtArg(pa), g.Name(), fmtArg(ga))
	}
	return true
}

func (m *matcher) unifyArg(pa, ga any) bool {
	switch p := pa.(type) {
	case *node.Node:
		j := m.p.idx[p]
		if m.p.all[j].ph >= 0 {
			if m.bound[j] {
				if !sameValue(m.val[j], ga) {
					return m.fail("placeholder %%%s is bound to %s and to %s", p.Name(), fmtArg(m.val[j]), fmtArg(ga))
				}
				return true
			}
			if gn, ok := ga.(*node.Node); ok && !m.p.cfg.sharedPlaceholders {
				for o := 0; o < m.nph; o++ {
					if o != j && m.bound[o] && m.val[o] == any(gn) {
						return m.fail("placeholders %%%s and %%%s would both bind %%%s (distinct placeholders bind distinct nodes; AllowSharedPlaceholders allows it)", m.p.all[o].n.Name(), p.Name(), gn.Name())
					}
				}
			}
			m.bind(j, ga)
			return true
		}
		gn, ok := ga.(*node.Node)
		if !ok {
			return false
		}
		m.goals = append(m.goals, goal{j, gn})
		return true
	case node.List:
		gl, ok := ga.(node.List)
		if !ok || len(gl) != len(p) {
			return false
		}
		for i := range p {
			if !m.unifyArg(p[i], gl[i]) {
				return false
			}
		}
		return true
	case node.Tuple:
		gl, ok := ga.(node.Tuple)
		if !ok || len(gl) != len(p) {
			return false
		}
		for i := range p {
			if !m.unifyArg(p[i], gl[i]) {
				return false
			}
		}
		return true
	case node.Dict:
		gd, ok := ga.(node.Dict)
		if !ok || len(gd) != len(p) {
			return false
		}
		for _, f := range p {
			v, ok := gd.Get(f.Name)
			if !ok || !m.unifyArg(f.Value, v) {
				return false
			}
		}
		return true
	}
	if _, ok := ga.(*node.Node); ok {
		return false
	}
	return equalLiteral(pa, ga)
}

func sameValue(a, b any) bool {
	an, aok := a.(*node.Node)
	bn, bok := b.(*node.Node)
	if aok || bok {
		return aok && bok && an == bn
	}
	return equalLiteral(a, b)
}

func equalLiteral(a, b any) bool {
	aa, aok := a.(node.Arg)
	ba, bok := b.(node.Arg)
	if aok && bok {
		return node.EqualArgs(aa, ba)
	}
	return reflect.DeepEqual(a, b)
}

// inMatch reports whether g is matched to one of the pattern's compute nodes.
func (m *matcher) inMatch(g *node.Node) bool {
	for j := m.nph; j < len(m.val); j++ {
		if m.val[j] == any(g) {
			return true
		}
	}
	return false
}

// finish checks a complete structural match (containment, inputs, cycles,
// filters) and builds it.
func (m *matcher) finish() *Match {
	p := m.p
	for j := 0; j < m.nph; j++ {
		if n, ok := m.val[j].(*node.Node); ok && m.inMatch(n) {
			m.fail("placeholder %%%s is bound to %%%s, which the match computes", p.all[j].n.Name(), n.Name())
			return nil
		}
	}
	for j := m.nph; j < len(p.all); j++ {
		if p.all[j].isOut {
			continue
		}
		g := m.val[j].(*node.Node)
		for _, u := range g.Users() {
			if !m.inMatch(u) {
				m.fail("graph node %%%s (pattern node %%%s, not an output of the pattern) is also used by %%%s outside the match", g.Name(), p.all[j].n.Name(), u.Name())
				return nil
			}
		}
	}
	if path := m.cycle(); path != "" {
		m.fail("replacing the match would make a cycle: %s", path)
		return nil
	}
	r := &Match{
		Pattern:  p,
		Anchor:   m.val[p.anchor].(*node.Node),
		Outputs:  make([]*node.Node, len(p.outs)),
		Inputs:   make([]node.Arg, m.nph),
		Nodes:    make([]*node.Node, len(p.nodes)),
		Literals: make([]node.Arg, len(p.literals)),
	}
	for i, o := range p.outs {
		r.Outputs[i] = m.val[p.idx[o]].(*node.Node)
	}
	for i := 0; i < m.nph; i++ {
		r.Inputs[i] = asArg(m.val[i])
	}
	for i := range p.nodes {
		r.Nodes[i] = m.val[m.nph+i].(*node.Node)
	}
	for i := range p.literals {
		r.Literals[i] = asArg(m.lit[i])
	}
	for k, f := range m.filters {
		if !f(r) {
			m.fail("filter %d rejected %s", k, r)
			return nil
		}
	}
	return r
}

func asArg(v any) node.Arg {
	if a, ok := v.(node.Arg); ok {
		return a
	}
	return node.Str(fmt.Sprint(v))
}

// cycle returns a description of a path from an output of the match through
// nodes outside it to one of its inputs, or "". Such a path can only run
// through nodes before the last input in graph order, so only those are
// visited.
func (m *matcher) cycle() string {
	nodes, last := m.inputNodes()
	if last == nil {
		return ""
	}
	_, path := m.laterUsers(nodes, last)
	return path
}

// inputNodes returns the nodes bound to placeholders and the last of them in
// graph order.
func (m *matcher) inputNodes() (map[*node.Node]bool, *node.Node) {
	var last *node.Node
	var set map[*node.Node]bool
	for j := 0; j < m.nph; j++ {
		n, ok := m.val[j].(*node.Node)
		if !ok {
			continue
		}
		if set == nil {
			set = map[*node.Node]bool{}
		}
		set[n] = true
		if last == nil || m.g.Before(last, n) {
			last = n
		}
	}
	return set, last
}

// laterUsers returns the nodes outside the match, up to last in graph order,
// that depend on an output of the match (in graph order), and a path to an
// input if one of them is an input.
func (m *matcher) laterUsers(inputs map[*node.Node]bool, last *node.Node) ([]*node.Node, string) {
	var stack []*node.Node
	var seen map[*node.Node]*node.Node // node -> the node it was reached from
	visit := func(u, from *node.Node) {
		if m.inMatch(u) || (u != last && !m.g.Before(u, last)) {
			return
		}
		if seen == nil {
			seen = map[*node.Node]*node.Node{}
		}
		if _, ok := seen[u]; ok {
			return
		}
		seen[u] = from
		stack = append(stack, u)
	}
	for _, o := range m.p.outs {
		r := m.val[m.p.idx[o]].(*node.Node)
		if r == last || m.g.Before(r, last) {
			for _, u := range r.Users() {
				visit(u, r)
			}
		}
	}
	var out []*node.Node
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if inputs[v] {
			path := []string{"%" + v.Name()}
			for f := seen[v]; f != nil; f = seen[f] {
				path = append([]string{"%" + f.Name()}, path...)
				if m.inMatch(f) {
					break
				}
			}
			return nil, strings.Join(path, " -> ") + " (an input of the match)"
		}
		out = append(out, v)
		for _, u := range v.Users() {
			visit(u, v)
		}
	}
	return out, ""
}
