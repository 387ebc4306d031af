package rewrite

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/txtar"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pattern"
)

// ParseRules reads rules written as text: a txtar archive (a comment, then
// files introduced by "-- NAME --" lines) with, per rule called R,
//
//	-- rule R --          optional header, one setting a line:
//	benefit 2             the rule's Benefit (default 0)
//	doc x * 1 is x        the rule's Doc
//	literal mul.other     pattern.Literal("mul", "other")
//	any-literals          pattern.AnyLiterals()
//	no-commutativity      pattern.NoCommutativity()
//	modules-by-path       pattern.ModulesByPath()
//	-- pattern R --
//	graph text (graph.Parse's form)
//	-- replacement R --
//	graph text
//
// in any order; the rules come out in the order their first file appears.
// Blank lines and lines starting with # in a header are ignored, as are
// comments in graph text. The archive's comment describes the rules and is
// ignored. Every rule needs a pattern and a replacement; the pattern is
// compiled (the Rule's Pattern is the *pattern.Pattern, its Options are
// nil), and the replacement must take as many placeholders as the pattern
// has placeholders and literal wildcards and return as many values as the
// pattern. Errors name the rule and file (and the line, for syntax).
func ParseRules(data []byte) ([]Rule, error) {
	a := txtar.Parse(data)
	type parts struct {
		header, pat, rep []byte
		hasHeader        bool
	}
	var order []string
	byName := map[string]*parts{}
	for _, f := range a.Files {
		kind, name, ok := strings.Cut(f.Name, " ")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("rewrite: ParseRules: file %q: want \"rule NAME\", \"pattern NAME\" or \"replacement NAME\"", f.Name)
		}
		p := byName[name]
		if p == nil {
			p = &parts{}
			byName[name] = p
			order = append(order, name)
		}
		var slot *[]byte
		switch kind {
		case "rule":
			if p.hasHeader {
				slot = &p.header
				break
			}
			p.hasHeader, p.header = true, f.Data
			continue
		case "pattern":
			slot = &p.pat
		case "replacement":
			slot = &p.rep
		default:
			return nil, fmt.Errorf("rewrite: ParseRules: file %q: unknown kind %q (want rule, pattern or replacement)", f.Name, kind)
		}
		if *slot != nil {
			return nil, fmt.Errorf("rewrite: ParseRules: file %q appears twice", f.Name)
		}
		*slot = append([]byte{}, f.Data...)
	}
	rules := make([]Rule, 0, len(order))
	for _, name := range order {
		p := byName[name]
		r, err := parseRule(name, p.header, p.pat, p.rep)
		if err != nil {
			return nil, fmt.Errorf("rewrite: ParseRules: rule %s: %w", name, err)
		}
		rules = append(rules, r)
	}
	return rules, nil
}

func parseRule(name string, header, pat, rep []byte) (Rule, error) {
	r := Rule{Name: name}
	opts := []pattern.Option{pattern.Name(name)}
	for i, line := range strings.Split(string(header), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		key, val, _ := strings.Cut(line, " ")
		val = strings.TrimSpace(val)
		bad := func(format string, args ...any) error {
			return fmt.Errorf("file \"rule %s\", line %d: %s", name, i+1, fmt.Sprintf(format, args...))
		}
		switch key {
		case "benefit":
			b, err := strconv.Atoi(val)
			if err != nil {
				return r, bad("benefit %q is not an integer", val)
			}
			r.Benefit = b
		case "doc":
			r.Doc = val
		case "literal":
			n, arg, ok := strings.Cut(val, ".")
			if !ok || n == "" || arg == "" || strings.ContainsAny(val, " \t") {
				return r, bad("literal %q: want NODE.ARG", val)
			}
			opts = append(opts, pattern.Literal(n, arg))
		case "any-literals", "no-commutativity", "modules-by-path":
			if val != "" {
				return r, bad("%s takes no value", key)
			}
			opts = append(opts, map[string]pattern.Option{
				"any-literals":     pattern.AnyLiterals(),
				"no-commutativity": pattern.NoCommutativity(),
				"modules-by-path":  pattern.ModulesByPath(),
			}[key])
		default:
			return r, bad("unknown setting %q (want benefit, doc, literal, any-literals, no-commutativity or modules-by-path)", key)
		}
	}
	if pat == nil {
		return r, fmt.Errorf("no file \"pattern %s\"", name)
	}
	if rep == nil {
		return r, fmt.Errorf("no file \"replacement %s\"", name)
	}
	pg, err := graph.Parse(string(pat))
	if err != nil {
		return r, fmt.Errorf("file \"pattern %s\": %w", name, err)
	}
	p, err := pattern.Compile(pg, opts...)
	if err != nil {
		return r, fmt.Errorf("file \"pattern %s\": %w", name, err)
	}
	rg, err := graph.Parse(string(rep))
	if err != nil {
		return r, fmt.Errorf("file \"replacement %s\": %w", name, err)
	}
	if err := rg.Lint(); err != nil {
		return r, fmt.Errorf("file \"replacement %s\": %w", name, err)
	}
	if want, got := len(p.Placeholders())+len(p.Literals()), len(rg.Placeholders()); want != got {
		return r, fmt.Errorf("file \"replacement %s\": %d placeholders, want %d (the pattern's %d placeholders and %d literal wildcards)", name, got, want, len(p.Placeholders()), len(p.Literals()))
	}
	if got := outputs(rg); got != p.NumOutputs() {
		return r, fmt.Errorf("file \"replacement %s\": returns %d values, the pattern %d", name, got, p.NumOutputs())
	}
	r.Pattern, r.Replacement = p, rg
	return r, nil
}

// outputs returns the number of values g returns (-1 without an output).
func outputs(g *graph.Graph) int {
	out := g.OutputNode()
	if out == nil || out.NumArgs() == 0 {
		return -1
	}
	switch r := out.Arg(0).(type) {
	case node.Tuple:
		return len(r)
	case node.List:
		return len(r)
	}
	return 1
}

// textGraph returns the graph of a rule's pattern or replacement.
func textGraph(src any) (*graph.Graph, error) {
	switch s := src.(type) {
	case *pattern.Pattern:
		if s != nil {
			return s.Graph(), nil
		}
	case *graph.Graph:
		if s != nil {
			return s, nil
		}
	case *fx.GraphModule:
		if s != nil && s.Graph != nil {
			return s.Graph, nil
		}
	}
	return nil, fmt.Errorf("a %T has no text form here (want a *pattern.Pattern, *graph.Graph or *fx.GraphModule)", src)
}

// FormatRules writes rules whose pattern and replacement are graphs (as
// ParseRules returns them, or *graph.Graph and *fx.GraphModule values) in
// ParseRules's text form. Options other than those the header can say are
// not written; a rule with a Constraint, Rewrite or Edit (Go code) is an
// error.
func FormatRules(comment string, rules ...Rule) ([]byte, error) {
	a := &txtar.Archive{Comment: []byte(comment)}
	for _, r := range rules {
		if r.Constraint != nil || r.Rewrite != nil || r.Edit != nil {
			return nil, fmt.Errorf("rewrite: FormatRules: rule %s has Go code (Constraint, Rewrite or Edit), which has no text form", r.Name)
		}
		if r.Name == "" || strings.ContainsAny(r.Name, " \t\n") {
			return nil, fmt.Errorf("rewrite: FormatRules: rule name %q: want a name without spaces", r.Name)
		}
		pg, err := textGraph(r.Pattern)
		if err != nil {
			return nil, fmt.Errorf("rewrite: FormatRules: rule %s: pattern: %w", r.Name, err)
		}
		rg, err := textGraph(r.Replacement)
		if err != nil {
			return nil, fmt.Errorf("rewrite: FormatRules: rule %s: replacement: %w", r.Name, err)
		}
		var h bytes.Buffer
		if r.Benefit != 0 {
			fmt.Fprintf(&h, "benefit %d\n", r.Benefit)
		}
		if r.Doc != "" {
			fmt.Fprintf(&h, "doc %s\n", strings.ReplaceAll(r.Doc, "\n", " "))
		}
		if p, ok := r.Pattern.(*pattern.Pattern); ok {
			for _, l := range p.Literals() {
				fmt.Fprintf(&h, "literal %s\n", l)
			}
		}
		if h.Len() > 0 {
			a.Files = append(a.Files, txtar.File{Name: "rule " + r.Name, Data: h.Bytes()})
		}
		a.Files = append(a.Files,
			txtar.File{Name: "pattern " + r.Name, Data: []byte(pg.Text())},
			txtar.File{Name: "replacement " + r.Name, Data: []byte(rg.Text())})
	}
	return txtar.Format(a), nil
}
