package sym

import (
	"errors"
	"slices"
)

// Expr is an immutable integer expression in canonical form: a polynomial with int64
// coefficients over atoms, where an atom is a Symbol or an irreducible FloorDiv, Mod, Min or
// Max term whose arguments are themselves canonical. The zero Expr is the constant 0.
//
// Expr is a value type: copying it is cheap (it shares its immutable term slice) and it is
// safe to use from several goroutines. Two expressions are the same polynomial exactly when
// Equal reports true.
//
// Coefficient arithmetic is int64 and wraps on overflow; sizes and strides never come near
// that. Eval, which computes values, reports an overflow as an error.
type Expr struct {
	k     int64  // constant term
	terms []term // non-constant terms, sorted by compareMono, coefficients non-zero
}

// term is c times a monomial (a non-empty product of atom powers).
type term struct {
	c int64
	m mono
}

// mono is a product of atom powers, sorted by compareAtom, each power >= 1.
type mono []factor

type factor struct {
	a *atom
	p int64
}

type atomOp uint8

const (
	opSym atomOp = iota
	opFloorDiv
	opMod
	opMin
	opMax
)

// atom is a symbol or an irreducible FloorDiv/Mod/Min/Max term. Atoms are immutable.
type atom struct {
	op   atomOp
	sym  *Symbol
	x, y Expr
	h    uint64 // structural hash, for the fact index and quick inequality
}

// errDivZero is the error of a division or modulo by the constant 0.
var errDivZero = errors.New("division by zero")

// Const returns the constant expression c.
func Const(c int64) Expr { return Expr{k: c} }

// Const returns the value of e and true when e is a constant.
func (e Expr) Const() (int64, bool) {
	if len(e.terms) == 0 {
		return e.k, true
	}
	return 0, false
}

// IsConst reports whether e is a constant.
func (e Expr) IsConst() bool { return len(e.terms) == 0 }

// atomExpr returns the expression 1*a.
func atomExpr(a *atom) Expr {
	return Expr{terms: []term{{c: 1, m: mono{{a: a, p: 1}}}}}
}

// singleAtom returns a when e is exactly the atom a (coefficient 1, power 1, no constant).
func (e Expr) singleAtom() (*atom, bool) {
	if e.k != 0 || len(e.terms) != 1 {
		return nil, false
	}
	t := e.terms[0]
	if t.c != 1 || len(t.m) != 1 || t.m[0].p != 1 {
		return nil, false
	}
	return t.m[0].a, true
}

// Add returns e + o.
func (e Expr) Add(o Expr) Expr {
	if len(o.terms) == 0 {
		return Expr{k: e.k + o.k, terms: e.terms}
	}
	if len(e.terms) == 0 {
		return Expr{k: e.k + o.k, terms: o.terms}
	}
	return Expr{k: e.k + o.k, terms: mergeTerms(e.terms, o.terms, 1)}
}

// Sub returns e - o.
func (e Expr) Sub(o Expr) Expr {
	if len(o.terms) == 0 {
		return Expr{k: e.k - o.k, terms: e.terms}
	}
	return Expr{k: e.k - o.k, terms: mergeTerms(e.terms, o.terms, -1)}
}

// mergeTerms returns a + s*b for sorted term lists.
func mergeTerms(a, b []term, s int64) []term {
	out := make([]term, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := compareMono(a[i].m, b[j].m); {
		case c < 0:
			out = append(out, a[i])
			i++
		case c > 0:
			out = append(out, term{c: s * b[j].c, m: b[j].m})
			j++
		default:
			if v := a[i].c + s*b[j].c; v != 0 {
				out = append(out, term{c: v, m: a[i].m})
			}
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	for ; j < len(b); j++ {
		out = append(out, term{c: s * b[j].c, m: b[j].m})
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Neg returns -e.
func (e Expr) Neg() Expr { return e.scale(-1) }

// scale returns c*e.
func (e Expr) scale(c int64) Expr {
	if c == 0 {
		return Expr{}
	}
	if c == 1 {
		return e
	}
	out := Expr{k: c * e.k}
	if len(e.terms) > 0 {
		out.terms = make([]term, len(e.terms))
		for i, t := range e.terms {
			out.terms[i] = term{c: c * t.c, m: t.m}
		}
	}
	return out
}

// Mul returns e * o, expanded (products of sums distribute).
func (e Expr) Mul(o Expr) Expr {
	if len(o.terms) == 0 {
		return e.scale(o.k)
	}
	if len(e.terms) == 0 {
		return o.scale(e.k)
	}
	ts := make([]term, 0, len(e.terms)*len(o.terms)+len(e.terms)+len(o.terms))
	for _, a := range e.terms {
		for _, b := range o.terms {
			ts = append(ts, term{c: a.c * b.c, m: mulMono(a.m, b.m)})
		}
	}
	if o.k != 0 {
		for _, a := range e.terms {
			ts = append(ts, term{c: a.c * o.k, m: a.m})
		}
	}
	if e.k != 0 {
		for _, b := range o.terms {
			ts = append(ts, term{c: b.c * e.k, m: b.m})
		}
	}
	return Expr{k: e.k * o.k, terms: collect(ts)}
}

// collect sorts terms and merges equal monomials, dropping zero coefficients.
func collect(ts []term) []term {
	slices.SortFunc(ts, func(a, b term) int { return compareMono(a.m, b.m) })
	out := ts[:0]
	for _, t := range ts {
		if n := len(out); n > 0 && compareMono(out[n-1].m, t.m) == 0 {
			out[n-1].c += t.c
			continue
		}
		out = append(out, t)
	}
	res := out[:0]
	for _, t := range out {
		if t.c != 0 {
			res = append(res, t)
		}
	}
	if len(res) == 0 {
		return nil
	}
	return res
}

// mulMono returns the product of two monomials.
func mulMono(a, b mono) mono {
	out := make(mono, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := compareAtom(a[i].a, b[j].a); {
		case c < 0:
			out = append(out, a[i])
			i++
		case c > 0:
			out = append(out, b[j])
			j++
		default:
			out = append(out, factor{a: a[i].a, p: a[i].p + b[j].p})
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// divMono returns a / b when b divides a (every factor of b is in a with at least its power).
func divMono(a, b mono) (mono, bool) {
	out := make(mono, 0, len(a))
	j := 0
	for _, f := range a {
		if j < len(b) && compareAtom(f.a, b[j].a) == 0 {
			if f.p < b[j].p {
				return nil, false
			}
			if f.p > b[j].p {
				out = append(out, factor{a: f.a, p: f.p - b[j].p})
			}
			j++
			continue
		}
		out = append(out, f)
	}
	if j < len(b) {
		return nil, false
	}
	return out, true
}

// fromTerm builds the expression c*m where m may be empty (a constant).
func fromTerm(c int64, m mono) Expr {
	if c == 0 {
		return Expr{}
	}
	if len(m) == 0 {
		return Expr{k: c}
	}
	return Expr{terms: []term{{c: c, m: m}}}
}

// Equal reports whether e and o have the same canonical form.
func (e Expr) Equal(o Expr) bool { return compareExpr(e, o) == 0 }

// Symbols returns the symbols e mentions (also inside FloorDiv, Mod, Min and Max), each once,
// in creation order.
func (e Expr) Symbols() []*Symbol {
	var out []*Symbol
	e.walkSymbols(func(s *Symbol) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	})
	slices.SortFunc(out, func(a, b *Symbol) int { return cmpInt(a.id, b.id) })
	return out
}

// IsFloat reports whether e mentions a float symbol (NewUnbackedFloat): its value is a float,
// not an integer.
func (e Expr) IsFloat() bool {
	float := false
	e.walkSymbols(func(s *Symbol) { float = float || s.float })
	return float
}

// walkSymbols calls f for every symbol occurrence in e.
func (e Expr) walkSymbols(f func(*Symbol)) {
	for _, t := range e.terms {
		for _, fa := range t.m {
			fa.a.walkSymbols(f)
		}
	}
}

func (a *atom) walkSymbols(f func(*Symbol)) {
	if a.op == opSym {
		f(a.sym)
		return
	}
	a.x.walkSymbols(f)
	a.y.walkSymbols(f)
}

// mapAtoms rebuilds e with every atom replaced by f(atom) (f sees atoms whose arguments are
// already rebuilt when bottomUp is used by the caller).
func (e Expr) mapAtoms(f func(*atom) Expr) Expr {
	out := Const(e.k)
	for _, t := range e.terms {
		p := Const(t.c)
		for _, fa := range t.m {
			v := f(fa.a)
			for range fa.p {
				p = p.Mul(v)
			}
		}
		out = out.Add(p)
	}
	return out
}

// Subst returns e with every symbol in m replaced by its expression, simplified again. Other
// symbols stay. A division or modulo whose divisor becomes the constant 0 stays an
// unevaluated term, which Eval reports as a division by zero.
func (e Expr) Subst(m map[*Symbol]Expr) Expr {
	if len(m) == 0 || len(e.terms) == 0 {
		return e
	}
	return e.subst(func(s *Symbol) (Expr, bool) {
		v, ok := m[s]
		return v, ok
	})
}

func (e Expr) subst(f func(*Symbol) (Expr, bool)) Expr {
	return e.mapAtoms(func(a *atom) Expr {
		if a.op == opSym {
			if v, ok := f(a.sym); ok {
				return v
			}
			return atomExpr(a)
		}
		return rebuild(a.op, a.x.subst(f), a.y.subst(f))
	})
}

// rebuild applies op to already canonical arguments; a division by the constant 0 stays an
// atom.
func rebuild(op atomOp, x, y Expr) Expr {
	switch op {
	case opFloorDiv:
		if r, err := FloorDivErr(x, y); err == nil {
			return r
		}
		return atomExpr(newAtom(opFloorDiv, x, y))
	case opMod:
		if r, err := ModErr(x, y); err == nil {
			return r
		}
		return atomExpr(newAtom(opMod, x, y))
	case opMin:
		return Min(x, y)
	default:
		return Max(x, y)
	}
}
