package sym

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
)

// symSeq numbers symbols across all environments; the canonical order of symbols is their
// creation order.
var symSeq atomic.Int64

// Symbol is a named integer unknown created by an Env: a backed symbol has an example value
// (its hint), an unbacked one (u0, u1, ...) stands for a data-dependent size and has none.
type Symbol struct {
	id     int64
	idx    int // index in env.syms
	name   string
	env    *Env
	atom   *atom
	hint   int64
	backed bool
	float  bool
}

// Name returns the symbol's name ("s0", "batch", "u0").
func (s *Symbol) Name() string { return s.name }

// String returns the symbol's name.
func (s *Symbol) String() string { return s.name }

// Expr returns the expression made of the symbol alone.
func (s *Symbol) Expr() Expr { return atomExpr(s.atom) }

// Backed reports whether the symbol has an example value (a hint).
func (s *Symbol) Backed() bool { return s.backed }

// IsFloat reports whether the symbol stands for a float (an unbacked float, zuf0, zuf1, ...,
// the item() of a floating tensor) rather than an integer.
func (s *Symbol) IsFloat() bool { return s.float }

// Hint returns the example value of a backed symbol; false for an unbacked one.
func (s *Symbol) Hint() (int64, bool) { return s.hint, s.backed }

// fact is what is known about a non-constant expression p in normal form (content 1,
// positive leading coefficient) beyond interval arithmetic: a range and excluded values.
type fact struct {
	p    Expr
	r    Range
	excl []int64
}

// Env is the shape environment (PyTorch's ShapeEnv): it creates symbols, keeps a value range
// per symbol, the equalities learned (as replacements of a symbol by an expression), other
// facts, and the guards taken. See the package documentation for the model.
//
// An Env is for one goroutine at a time: its methods must not be called concurrently. The
// expressions it returns are immutable and may be shared freely.
type Env struct {
	syms         []*Symbol
	byName       map[string]*Symbol
	ranges       []Range // by Symbol.idx
	sizeLike     []bool  // by Symbol.idx
	repl         map[*Symbol]Expr
	facts        map[uint64][]*fact
	guards       []Guard
	checks       []Guard
	nextUnbacked int
	nextFloat    int
	oblivious    bool // size-oblivious reasoning in progress
}

// NewEnv returns an empty environment.
func NewEnv() *Env {
	return &Env{
		byName: map[string]*Symbol{},
		repl:   map[*Symbol]Expr{},
		facts:  map[uint64][]*fact{},
	}
}

func (env *Env) add(name string, hint int64, backed bool, r Range) *Symbol {
	s := &Symbol{id: symSeq.Add(1), idx: len(env.syms), name: name, env: env, hint: hint, backed: backed}
	s.atom = &atom{op: opSym, sym: s, h: mix(hashOffset, uint64(s.id))}
	env.syms = append(env.syms, s)
	env.byName[name] = s
	env.ranges = append(env.ranges, r)
	env.sizeLike = append(env.sizeLike, false)
	return s
}

// NewSymbol creates a backed symbol with an example value (hint) and a value range. It
// returns an error for an empty name, a name already taken, an empty range, or a hint
// outside the range.
func (env *Env) NewSymbol(name string, hint int64, r Range) (*Symbol, error) {
	switch {
	case name == "":
		return nil, errors.New("sym: NewSymbol: empty symbol name")
	case env.byName[name] != nil:
		return nil, fmt.Errorf("sym: NewSymbol(%q): a symbol of that name already exists", name)
	case r.Empty():
		return nil, fmt.Errorf("sym: NewSymbol(%q): empty range %v", name, r)
	case !r.Contains(hint):
		return nil, fmt.Errorf("sym: NewSymbol(%q): hint %d outside the range %v", name, hint, r)
	}
	return env.add(name, hint, true, r), nil
}

// NewUnbacked creates an unbacked symbol, named u0, u1, ... (skipping names already taken),
// for a data-dependent size with the value range r. An empty r is kept: every later
// decision involving the symbol reports it as an error.
func (env *Env) NewUnbacked(r Range) *Symbol {
	for {
		name := "u" + strconv.Itoa(env.nextUnbacked)
		env.nextUnbacked++
		if env.byName[name] == nil {
			return env.add(name, 0, false, r)
		}
	}
}

// NewUnbackedFloat creates an unbacked float symbol, named zuf0, zuf1, ... (skipping names
// already taken), as PyTorch's ShapeEnv names the value of a floating tensor's item(). Its
// range is Full (PyTorch's VR[-oo, oo]) and never narrowed: gofx keeps no facts about floats.
// Such a symbol is an opaque atom: a program passes it to operators as a Scalar (a fill
// value, a wrapped number), and an exporter refuses arithmetic and comparisons on it.
func (env *Env) NewUnbackedFloat() *Symbol {
	for {
		name := "zuf" + strconv.Itoa(env.nextFloat)
		env.nextFloat++
		if env.byName[name] == nil {
			s := env.add(name, 0, false, Full)
			s.float = true
			return s
		}
	}
}

// NewUnbackedFloatNamed creates an unbacked float symbol with a given name (zuf0, as a .pt2
// file names it). It returns an error for an empty name or a name already taken.
func (env *Env) NewUnbackedFloatNamed(name string) (*Symbol, error) {
	s, err := env.NewUnbackedNamed(name, Full)
	if err != nil {
		return nil, err
	}
	s.float = true
	return s, nil
}

// Symbols returns the symbols of env in creation order.
func (env *Env) Symbols() []*Symbol { return slices.Clone(env.syms) }

// Lookup returns the symbol of that name.
func (env *Env) Lookup(name string) (*Symbol, bool) {
	s, ok := env.byName[name]
	return s, ok
}

// RangeOf returns the current range of s (the full range for a symbol of another Env).
func (env *Env) RangeOf(s *Symbol) Range {
	if s == nil || s.env != env {
		return Full
	}
	return env.ranges[s.idx]
}

func (env *Env) ownSym(s *Symbol, what string) error {
	if s == nil {
		return fmt.Errorf("sym: %s: nil symbol", what)
	}
	if s.env != env {
		return fmt.Errorf("sym: %s: symbol %s belongs to another Env", what, s.name)
	}
	return nil
}

// Constrain narrows the range of s to its intersection with r. It returns an error, and
// changes nothing, when the intersection is empty.
func (env *Env) Constrain(s *Symbol, r Range) error {
	if err := env.ownSym(s, "Constrain"); err != nil {
		return err
	}
	cur := env.ranges[s.idx]
	nr := cur.Intersect(r)
	if nr.Empty() {
		return fmt.Errorf("sym: Constrain(%s, %v): the symbol's range %v does not meet it", s.name, r, cur)
	}
	if s.backed && !nr.Contains(s.hint) {
		return fmt.Errorf("sym: Constrain(%s, %v): the example value %d of %s lies outside", s.name, r, s.hint, s.name)
	}
	if e, ok := env.repl[s]; ok {
		if err := env.learnExpr(e, nr, nil); err != nil {
			return fmt.Errorf("sym: Constrain(%s, %v): %w", s.name, r, err)
		}
	}
	env.ranges[s.idx] = nr
	return nil
}

// symRange is the range of s used by interval arithmetic.
func (env *Env) symRange(s *Symbol) Range {
	if s.env != env {
		return Full
	}
	r := env.ranges[s.idx]
	if env.oblivious && env.sizeLike[s.idx] && !s.backed {
		r = r.Intersect(Range{2, Inf})
	}
	return r
}

// Range bounds e: it applies the recorded equalities, then interval arithmetic over the
// symbols' ranges, narrowed by facts learned about e itself. The bound is sound: every value
// e can take under the recorded ranges and facts lies in it (values that do not fit int64
// aside).
func (env *Env) Range(e Expr) Range {
	e = env.Simplify(e)
	if c, ok := e.Const(); ok {
		return Range{c, c}
	}
	p, g, k := split(e)
	i, _ := env.bound(p)
	return rAdd(rScale(g, i), Range{k, k})
}

// split writes a non-constant d as g*p + k with p in normal form: no constant, content 1,
// positive leading coefficient.
func split(d Expr) (p Expr, g, k int64) {
	n := Expr{terms: d.terms}
	g = n.content()
	if n.leadingNegative() {
		g = -g
	}
	return n.divExact(g), g, d.k
}

func (env *Env) lookupFact(p Expr) *fact {
	for _, f := range env.facts[p.hash()] {
		if f.p.Equal(p) {
			return f
		}
	}
	return nil
}

// bound returns the range and excluded values known for p (in normal form).
func (env *Env) bound(p Expr) (Range, []int64) {
	r := rangeOf(p, env.symRange)
	f := env.lookupFact(p)
	if f == nil {
		return r, nil
	}
	return shrink(r.Intersect(f.r), f.excl), f.excl
}

// shrink moves the ends of r past excluded values.
func shrink(r Range, excl []int64) Range {
	for changed := true; changed && !r.Empty(); {
		changed = false
		if slices.Contains(excl, r.Lo) {
			r.Lo++
			changed = true
		}
		if !r.Empty() && slices.Contains(excl, r.Hi) {
			r.Hi--
			changed = true
		}
	}
	return r
}

// Simplify applies the recorded replacements (s1 -> s0, s0 -> 32) and then range-based
// simplifications: a symbol whose range is a single value becomes that value, Min and Max
// that the ranges decide fold, Mod(a, b) is a when 0 <= a < b, and any FloorDiv or Mod
// whose range is a single value becomes it.
func (env *Env) Simplify(e Expr) Expr {
	if len(e.terms) == 0 {
		return e
	}
	return env.simplify(e.Subst(env.repl))
}

func (env *Env) simplify(e Expr) Expr {
	return e.mapAtoms(func(a *atom) Expr {
		if a.op == opSym {
			if v, ok := env.symRange(a.sym).IsPoint(); ok {
				return Const(v)
			}
			return atomExpr(a)
		}
		x, y := env.simplify(a.x), env.simplify(a.y)
		r := rebuild(a.op, x, y)
		b, ok := r.singleAtom()
		if !ok || b.op != a.op {
			return r
		}
		switch b.op {
		case opMin, opMax:
			d := env.rangeRaw(b.x.Sub(b.y))
			if d.Hi <= 0 {
				return [...]Expr{opMin: b.x, opMax: b.y}[b.op]
			}
			if d.Lo >= 0 {
				return [...]Expr{opMin: b.y, opMax: b.x}[b.op]
			}
		case opMod:
			rx, ry := env.rangeRaw(b.x), env.rangeRaw(b.y)
			if ry.Lo >= 1 && rx.Lo >= 0 && rx.Hi < ry.Lo || ry.Hi <= -1 && rx.Hi <= 0 && rx.Lo > ry.Hi {
				return b.x
			}
		}
		if v, ok := rangeOfAtom(b, env.symRange).IsPoint(); ok {
			return Const(v)
		}
		return r
	})
}

// rangeRaw bounds an already simplified expression.
func (env *Env) rangeRaw(e Expr) Range {
	if c, ok := e.Const(); ok {
		return Range{c, c}
	}
	p, g, k := split(e)
	i, _ := env.bound(p)
	return rAdd(rScale(g, i), Range{k, k})
}

// Hint returns the value of e at the example values, after the recorded replacements; false
// when an unbacked symbol remains (or the evaluation fails).
func (env *Env) Hint(e Expr) (int64, bool) {
	v, err := env.Simplify(e).eval(env.hintOf)
	return v, err == nil
}

var errNoHint = errors.New("unbacked symbol")

func (env *Env) hintOf(s *Symbol) (int64, error) {
	if !s.backed {
		return 0, errNoHint
	}
	return s.hint, nil
}

// checkCond validates c for env: a known relation and symbols of this Env with non-empty
// ranges.
func (env *Env) checkCond(c Cond, what, where string) error {
	if c.Rel < EQ || c.Rel > GE {
		return fmt.Errorf("sym: %s(%v) at %s: invalid relation %d", what, c, where, int(c.Rel))
	}
	for _, e := range [2]Expr{c.L, c.R} {
		for _, s := range e.Symbols() {
			if s.env != env {
				return fmt.Errorf("sym: %s(%v) at %s: symbol %s belongs to another Env", what, c, where, s.name)
			}
			if r := env.ranges[s.idx]; r.Empty() {
				return fmt.Errorf("sym: %s(%v) at %s: symbol %s has the empty range %v", what, c, where, s.name, r)
			}
		}
	}
	return nil
}

// relInterval returns the values of p for which g*p + k rel 0 holds, for an ordering rel.
func relInterval(g, k int64, rel Rel) Range {
	switch rel { // bring to g*p + k >= 0
	case GT:
		k--
	case LE:
		g, k = -g, -k
	case LT:
		g, k = -g, -k-1
	}
	if g > 0 {
		return Range{-pyFloorDiv(k, g), Inf} // ceil(-k/g)
	}
	return Range{NegInf, pyFloorDiv(-k, g)}
}

// static decides d rel 0 from ranges and facts alone.
func (env *Env) static(d Expr, rel Rel) (value, known bool) {
	if v, ok := d.Const(); ok {
		return rel.holds(v), true
	}
	p, g, k := split(d)
	i, excl := env.bound(p)
	if i.Empty() {
		return false, false
	}
	switch rel {
	case EQ, NE:
		eq, ok := false, true
		if k%g == 0 {
			v := -k / g
			switch {
			case i.Lo == v && i.Hi == v:
				eq = true
			case i.Contains(v) && !slices.Contains(excl, v):
				ok = false
			}
		}
		return eq == (rel == EQ), ok
	}
	s := relInterval(g, k, rel)
	switch {
	case s.Lo <= i.Lo && i.Hi <= s.Hi:
		return true, true
	case i.Intersect(s).Empty():
		return false, true
	}
	return false, false
}

// Decide returns the truth of c. If the ranges, equalities and facts settle it (the same
// answer for every allowed value), no guard is recorded. Otherwise, if every symbol left in
// c is backed, c is evaluated at the hints, the outcome taken (c or c.Not()) is recorded as a
// Guard with where, and facts are learned from it: an equality that can be solved for a
// symbol records a replacement (s1 := s0, s0 := 32; unbacked symbols are eliminated first,
// then the most recently created, so the symbol created first stays as representative); an
// inequality narrows the range of a lone symbol (s0 >= 3 makes its range [3, ...]) or is
// kept as a fact about its expression (s0 < s1). Otherwise it returns a *DataDependentError.
func (env *Env) Decide(c Cond, where string) (bool, error) {
	if err := env.checkCond(c, "Decide", where); err != nil {
		return false, err
	}
	l, r := env.Simplify(c.L), env.Simplify(c.R)
	d := env.simplify(l.Sub(r))
	if v, ok := env.static(d, c.Rel); ok {
		return v, nil
	}
	var unbacked []string
	for _, s := range d.Symbols() {
		if !s.backed {
			unbacked = append(unbacked, s.name+" in "+env.ranges[s.idx].String())
		}
	}
	if len(unbacked) > 0 {
		return false, &DataDependentError{Cond: Cond{c.Rel, l, r}, Where: where, Unbacked: unbacked}
	}
	v, err := d.eval(env.hintOf)
	if err != nil {
		return false, fmt.Errorf("sym: Decide(%v) at %s: %w", c, where, err)
	}
	outcome := c.Rel.holds(v)
	taken := Cond{c.Rel, l, r}
	if !outcome {
		taken = taken.Not()
	}
	env.guards = append(env.guards, Guard{Cond: taken, Where: where})
	if err := env.learn(d, taken.Rel); err != nil {
		return outcome, fmt.Errorf("sym: Decide(%v) at %s: %w", c, where, err)
	}
	return outcome, nil
}

// DecideSizeOblivious is Decide with PyTorch's size-oblivious reasoning: unbacked symbols
// marked by ConstrainAsSize are taken to be at least 2 while deciding statically, so a
// size-like u0 is neither 0 nor 1 (the question "is this dim 1, so it broadcasts?" gets
// the general answer). The symbols' recorded ranges do not change.
func (env *Env) DecideSizeOblivious(c Cond, where string) (bool, error) {
	if err := env.checkCond(c, "DecideSizeOblivious", where); err != nil {
		return false, err
	}
	env.oblivious = true
	d := env.simplify(env.Simplify(c.L).Sub(env.Simplify(c.R)))
	v, ok := env.static(d, c.Rel)
	env.oblivious = false
	if ok {
		return v, nil
	}
	return env.Decide(c, where)
}

// Guards returns the guards taken, in order.
func (env *Env) Guards() []Guard { return slices.Clone(env.guards) }

// Checks returns the facts stated with Check that were not already implied, in order (the
// runtime assertions of an exported program).
func (env *Env) Checks() []Guard { return slices.Clone(env.checks) }

// Check records a fact the user states (torch._check): it is learned like the outcome of a
// guard, without deciding anything and without recording a guard. It returns an error when
// the ranges and facts show c is false, or when c is false at the example values of its
// symbols (all backed).
func (env *Env) Check(c Cond, where string) error {
	if err := env.checkCond(c, "Check", where); err != nil {
		return err
	}
	l, r := env.Simplify(c.L), env.Simplify(c.R)
	d := env.simplify(l.Sub(r))
	if v, ok := env.static(d, c.Rel); ok {
		if !v {
			return fmt.Errorf("sym: Check(%v) at %s: the condition is false for every allowed value", c, where)
		}
		return nil
	}
	if v, err := d.eval(env.hintOf); err == nil && !c.Rel.holds(v) {
		return fmt.Errorf("sym: Check(%v) at %s: the condition is false at the example values", c, where)
	}
	if err := env.learn(d, c.Rel); err != nil {
		return fmt.Errorf("sym: Check(%v) at %s: %w", c, where, err)
	}
	env.checks = append(env.checks, Guard{Cond: Cond{c.Rel, l, r}, Where: where})
	return nil
}

// ConstrainAsSize marks s as a size (torch._constrain_as_size): its range is narrowed to
// [0, int_oo], and s becomes size-like, which DecideSizeOblivious uses to assume s >= 2, as
// PyTorch's size-oblivious reasoning does for broadcasting and contiguity checks. Decide
// itself only uses the range [0, int_oo].
func (env *Env) ConstrainAsSize(s *Symbol) error {
	if err := env.Constrain(s, Range{0, Inf}); err != nil {
		return fmt.Errorf("sym: ConstrainAsSize(%v): %w", s, err)
	}
	env.sizeLike[s.idx] = true
	return nil
}

// IsSizeLike reports whether s was marked by ConstrainAsSize.
func (env *Env) IsSizeLike(s *Symbol) bool {
	return s != nil && s.env == env && env.sizeLike[s.idx]
}

// Replacements returns the learned equalities: each replaced symbol with its expression in
// terms of the remaining symbols.
func (env *Env) Replacements() map[*Symbol]Expr {
	m := make(map[*Symbol]Expr, len(env.repl))
	for s, e := range env.repl {
		m[s] = e
	}
	return m
}

// Equalities returns the classes of (two or more) symbols known to be equal, each sorted in
// creation order, the classes ordered by their first symbol.
func (env *Env) Equalities() [][]*Symbol {
	type class struct {
		v    Expr
		syms []*Symbol
	}
	var classes []*class
	byHash := map[uint64][]*class{}
	for _, s := range env.syms {
		v := env.Simplify(s.Expr())
		h := v.hash()
		var c *class
		for _, x := range byHash[h] {
			if x.v.Equal(v) {
				c = x
				break
			}
		}
		if c == nil {
			c = &class{v: v}
			byHash[h] = append(byHash[h], c)
			classes = append(classes, c)
		}
		c.syms = append(c.syms, s)
	}
	var out [][]*Symbol
	for _, c := range classes {
		if len(c.syms) > 1 {
			out = append(out, c.syms)
		}
	}
	return out
}

// learn records that d rel 0 holds.
func (env *Env) learn(d Expr, rel Rel) error {
	if v, ok := d.Const(); ok {
		if !rel.holds(v) {
			return fmt.Errorf("contradiction: %d %v 0", v, rel)
		}
		return nil
	}
	if rel == EQ {
		if s, e, ok := env.solve(d); ok {
			return env.replace(s, e)
		}
	}
	p, g, k := split(d)
	switch rel {
	case EQ:
		if k%g != 0 {
			return fmt.Errorf("contradiction: %v == 0 has no integer solution", d)
		}
		v := -k / g
		return env.learnP(p, Range{v, v}, nil)
	case NE:
		if k%g != 0 {
			return nil
		}
		return env.learnP(p, Full, []int64{-k / g})
	}
	return env.learnP(p, relInterval(g, k, rel), nil)
}

// learnExpr records that e lies in r and avoids excl.
func (env *Env) learnExpr(e Expr, r Range, excl []int64) error {
	if c, ok := e.Const(); ok {
		if !r.Contains(c) || slices.Contains(excl, c) {
			return fmt.Errorf("contradiction: %d is not in %v", c, r)
		}
		return nil
	}
	p, g, k := split(e)
	// g*p + k in r  <=>  p in (r - k) / g
	lo, hi := xadd(r.Lo, -k), xadd(r.Hi, -k)
	if g < 0 {
		g, lo, hi = -g, xneg(hi), xneg(lo)
		k = -k
		for i, v := range excl {
			excl[i] = -v
		}
	}
	pr := Range{NegInf, Inf}
	if lo != NegInf {
		pr.Lo = -xfloordiv(xneg(lo), g)
	}
	if hi != Inf {
		pr.Hi = xfloordiv(hi, g)
	}
	var pe []int64
	for _, v := range excl {
		if (v-k)%g == 0 {
			pe = append(pe, (v-k)/g)
		}
	}
	return env.learnP(p, pr, pe)
}

// learnP records that p (in normal form) lies in r and avoids excl.
func (env *Env) learnP(p Expr, r Range, excl []int64) error {
	if a, ok := p.singleAtom(); ok && a.op == opSym && a.sym.env == env {
		s := a.sym
		nr := shrink(env.ranges[s.idx].Intersect(r), excl)
		if nr.Empty() {
			return fmt.Errorf("contradiction: the range %v of %s does not meet %v", env.ranges[s.idx], s.name, r)
		}
		env.ranges[s.idx] = nr
		var inner []int64
		for _, v := range excl {
			if nr.Contains(v) {
				inner = append(inner, v)
			}
		}
		if len(inner) == 0 {
			return nil
		}
		r, excl = Full, inner
	}
	f := env.lookupFact(p)
	if f == nil {
		f = &fact{p: p, r: Full}
		h := p.hash()
		env.facts[h] = append(env.facts[h], f)
	}
	for _, v := range excl {
		if !slices.Contains(f.excl, v) {
			f.excl = append(f.excl, v)
		}
	}
	f.r = shrink(f.r.Intersect(r), f.excl)
	if i, _ := env.bound(p); i.Empty() {
		return fmt.Errorf("contradiction: %v has no allowed value", p)
	}
	return nil
}

// solve finds a symbol that d == 0 determines: one with a coefficient dividing every other
// coefficient, appearing in no other term. Unbacked symbols are preferred, then the most
// recently created.
func (env *Env) solve(d Expr) (*Symbol, Expr, bool) {
	best, bi := (*Symbol)(nil), -1
	for i, t := range d.terms {
		if len(t.m) != 1 || t.m[0].p != 1 || t.m[0].a.op != opSym {
			continue
		}
		s := t.m[0].a.sym
		if s.env != env || d.k%t.c != 0 {
			continue
		}
		ok := true
		for j, u := range d.terms {
			if j == i {
				continue
			}
			if u.c%t.c != 0 {
				ok = false
				break
			}
			for _, f := range u.m {
				f.a.walkSymbols(func(x *Symbol) {
					if x == s {
						ok = false
					}
				})
			}
		}
		if !ok {
			continue
		}
		if best == nil || !s.backed && best.backed || s.backed == best.backed && s.id > best.id {
			best, bi = s, i
		}
	}
	if best == nil {
		return nil, Expr{}, false
	}
	c := d.terms[bi].c
	rest := Expr{k: d.k, terms: slices.Delete(slices.Clone(d.terms), bi, bi+1)}
	if len(rest.terms) == 0 {
		rest.terms = nil
	}
	return best, rest.divExact(-c), true
}

// replace records s := e (e free of s, simplified) and rewrites the other replacements and
// the facts.
func (env *Env) replace(s *Symbol, e Expr) error {
	rs := env.ranges[s.idx]
	if err := env.learnExpr(e, rs, nil); err != nil {
		return err
	}
	if c, ok := e.Const(); ok {
		env.ranges[s.idx] = Range{c, c}
	} else {
		env.ranges[s.idx] = rs.Intersect(env.rangeRaw(e))
		if t, ok := e.singleAtom(); ok && t.op == opSym && env.sizeLike[s.idx] {
			env.sizeLike[t.sym.idx] = true
		}
	}
	sub := map[*Symbol]Expr{s: e}
	for x, r := range env.repl {
		env.repl[x] = r.Subst(sub)
	}
	env.repl[s] = e
	old := env.facts
	env.facts = map[uint64][]*fact{}
	for _, fs := range old {
		for _, f := range fs {
			if err := env.learnExpr(f.p.Subst(sub), f.r, slices.Clone(f.excl)); err != nil {
				return err
			}
		}
	}
	return nil
}

// String describes env: each symbol with its hint and range, the replacements and the
// guards.
func (env *Env) String() string {
	var b strings.Builder
	for _, s := range env.syms {
		fmt.Fprintf(&b, "%s: ", s.name)
		if s.backed {
			fmt.Fprintf(&b, "hint %d, ", s.hint)
		} else {
			b.WriteString("unbacked, ")
		}
		fmt.Fprintf(&b, "range %v", env.ranges[s.idx])
		if e, ok := env.repl[s]; ok {
			fmt.Fprintf(&b, ", = %v", e)
		}
		b.WriteByte('\n')
	}
	for _, g := range env.guards {
		fmt.Fprintf(&b, "guard %v\n", g)
	}
	return b.String()
}
