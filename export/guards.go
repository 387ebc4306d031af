package export

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/sym"
)

// GuardError is the error for a model whose export relied on conditions
// on dynamic dimensions that the spec does not imply: a dimension
// specialized to its example size, two dimensions that must be equal, a
// bound the model needs. Suggested is the spec with every fix applied that
// can be derived (nil when none can).
type GuardError struct {
	Violations []Violation
	Suggested  Dims

	dimOf map[string]*Dimension // each symbol's Dimension (for Auto)
}

// Violation is one guard the spec does not imply.
type Violation struct {
	Guard sym.Guard
	// Msg explains it in terms of the declared dimensions.
	Msg string
}

func (e *GuardError) Error() string {
	var b strings.Builder
	b.WriteString("export: the model's behaviour depends on its dynamic dimensions in ways the spec does not allow:")
	for _, v := range e.Violations {
		fmt.Fprintf(&b, "\n  - %s (guard %s at %s)", v.Msg, v.Guard.Cond, v.Guard.Where)
	}
	if e.Suggested != nil {
		b.WriteString("\nSuggested spec:\n")
		for _, l := range strings.Split(e.Suggested.GoString(), "\n") {
			b.WriteString("    " + l + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// checkGuards turns the guards the trace recorded into an error: every
// guard is a condition the declared ranges did not settle.
func checkGuards(env *sym.Env, dims Dims, dimOf map[string]*Dimension) error {
	guards := env.Guards()
	if len(guards) == 0 {
		return nil
	}
	fixed := dims.clone()
	// the clone's Dimension for each original one, by name
	cloneOf := map[string]*Dimension{}
	for _, m := range fixed {
		for _, d := range m {
			cloneOf[d.Name] = d
		}
	}
	fixable := true
	var vs []Violation
	for _, g := range guards {
		msg, ok := explain(g.Cond, dimOf, fixed, cloneOf)
		fixable = fixable && ok
		vs = append(vs, Violation{Guard: g, Msg: msg})
	}
	e := &GuardError{Violations: vs, dimOf: dimOf}
	if fixable {
		e.Suggested = fixed
	}
	return e
}

// lone returns the symbol e is, if it is one symbol alone.
func lone(e sym.Expr) (*sym.Symbol, bool) {
	ss := e.Symbols()
	if len(ss) != 1 || !ss[0].Expr().Equal(e) {
		return nil, false
	}
	return ss[0], true
}

// normalize moves a constant offset of a lone symbol to the other side
// of a comparison with a constant: s + 2 >= 9 is s >= 7 (a convolution's
// padded input holding its kernel), so that explain can fix it as a range.
func normalize(c sym.Cond) sym.Cond {
	shift := func(e sym.Expr) (*sym.Symbol, int64, bool) {
		ss := e.Symbols()
		if len(ss) != 1 {
			return nil, 0, false
		}
		k, ok := e.Sub(ss[0].Expr()).Const()
		return ss[0], k, ok
	}
	if rc, ok := c.R.Const(); ok {
		if s, k, ok := shift(c.L); ok {
			return sym.Cond{Rel: c.Rel, L: s.Expr(), R: sym.Const(rc - k)}
		}
	}
	if lc, ok := c.L.Const(); ok {
		if s, k, ok := shift(c.R); ok {
			return sym.Cond{Rel: c.Rel, L: sym.Const(lc - k), R: s.Expr()}
		}
	}
	return lowerBound(c)
}

// lowerBound reads an inequality over one symbol that is false up to
// some size and true from it on ((s//3) >= 1, an average pool's output
// of at least one) as that bound (s >= 3); any other condition is
// returned as it is. The sizes 0 to 4096 are tried, and larger ones
// spot-checked.
func lowerBound(c sym.Cond) sym.Cond {
	if c.Rel == sym.EQ || c.Rel == sym.NE {
		return c
	}
	ss := append(c.L.Symbols(), c.R.Symbols()...)
	if len(ss) == 0 {
		return c
	}
	s := ss[0]
	for _, o := range ss[1:] {
		if o != s {
			return c
		}
	}
	holds := func(v int64) bool {
		ok, err := c.Eval(map[*sym.Symbol]int64{s: v})
		return err == nil && ok
	}
	const top = 4096
	lo := int64(-1)
	for v := int64(top); v >= 0; v-- {
		if !holds(v) {
			lo = v + 1
			break
		}
	}
	if lo <= 0 || lo > top {
		return c
	}
	for _, v := range []int64{1 << 13, 1 << 20, 1 << 40} {
		if !holds(v) {
			return c
		}
	}
	return sym.Ge(s.Expr(), sym.Const(lo))
}

// explain describes a guard in terms of the dimensions and applies the
// fix to the spec fixed; ok is false when no fix can be derived.
func explain(c sym.Cond, dimOf map[string]*Dimension, fixed Dims, cloneOf map[string]*Dimension) (string, bool) {
	l, lok := lone(c.L)
	r, rok := lone(c.R)
	lc, lconst := c.L.Const()
	rc, rconst := c.R.Const()
	if !lok && rok && lconst {
		// put the symbol on the left: k < s is s > k
		l, lok, rc, rconst = r, true, lc, true
		r, rok = nil, false
		c = flip(c)
	}
	name := func(s *sym.Symbol) string {
		if d, ok := dimOf[s.Name()]; ok {
			return fmt.Sprintf("dimension %s (%s)", d.Name, s.Name())
		}
		return s.Name()
	}
	switch {
	case lok && rok && c.Rel == sym.EQ:
		a, b := dimOf[l.Name()], dimOf[r.Name()]
		if a == nil || b == nil {
			return fmt.Sprintf("%s and %s must be equal", name(l), name(r)), false
		}
		ca, cb := cloneOf[a.Name], cloneOf[b.Name]
		merged := ca
		merged.Min, merged.Max = max(ca.Min, cb.Min), min(ca.Max, cb.Max)
		for _, m := range fixed {
			for i, d := range m {
				if d == cb {
					m[i] = merged
				}
			}
		}
		cloneOf[b.Name] = merged
		return fmt.Sprintf("%s and %s must be equal: declare one Dimension for both", name(l), name(r)), true
	case lok && rconst:
		d := dimOf[l.Name()]
		if d == nil {
			return fmt.Sprintf("%s must satisfy %s", name(l), c), false
		}
		cd := cloneOf[d.Name]
		switch c.Rel {
		case sym.EQ:
			for in, m := range fixed {
				for i, x := range m {
					if x == cd {
						delete(m, i)
					}
				}
				if len(m) == 0 {
					delete(fixed, in)
				}
			}
			return fmt.Sprintf("%s was specialized to %d: the model only works for that size, so it cannot be dynamic (remove it from the spec)", name(l), rc), true
		case sym.GE:
			cd.Min = max(cd.Min, rc)
			return fmt.Sprintf("%s must be >= %d", name(l), rc), true
		case sym.GT:
			cd.Min = max(cd.Min, rc+1)
			return fmt.Sprintf("%s must be > %d", name(l), rc), true
		case sym.LE:
			cd.Max = min(cd.Max, rc)
			return fmt.Sprintf("%s must be <= %d", name(l), rc), true
		case sym.LT:
			cd.Max = min(cd.Max, rc-1)
			return fmt.Sprintf("%s must be < %d", name(l), rc), true
		case sym.NE:
			switch rc {
			case cd.Min:
				cd.Min++
			case cd.Max:
				cd.Max--
			default:
				return fmt.Sprintf("%s must not be %d", name(l), rc), false
			}
			return fmt.Sprintf("%s must not be %d", name(l), rc), true
		}
	}
	return fmt.Sprintf("the model relies on %s", c), false
}

// flip swaps the sides of a comparison.
func flip(c sym.Cond) sym.Cond {
	rel := c.Rel
	switch rel {
	case sym.LT:
		rel = sym.GT
	case sym.LE:
		rel = sym.GE
	case sym.GT:
		rel = sym.LT
	case sym.GE:
		rel = sym.LE
	}
	return sym.Cond{Rel: rel, L: c.R, R: c.L}
}
