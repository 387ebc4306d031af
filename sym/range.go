package sym

import (
	"math"
	"strconv"
)

// Inf and NegInf stand for unbounded ends of a Range (PyTorch's int_oo and -int_oo). Range
// arithmetic treats them as infinities and saturates at them, so a bound that would overflow
// becomes unbounded, which stays sound.
const (
	Inf    = math.MaxInt64
	NegInf = math.MinInt64
)

// Range is an inclusive integer interval [Lo, Hi]; Lo may be NegInf and Hi may be Inf. A
// Range with Lo > Hi, Lo == Inf or Hi == NegInf is empty.
type Range struct{ Lo, Hi int64 }

// Full is the unbounded range [-int_oo, int_oo].
var Full = Range{NegInf, Inf}

// String prints r as PyTorch 2.x does: "[2, 64]", "[2, int_oo]", "[-int_oo, 5]".
func (r Range) String() string {
	return "[" + bound(r.Lo) + ", " + bound(r.Hi) + "]"
}

func bound(v int64) string {
	switch v {
	case Inf:
		return "int_oo"
	case NegInf:
		return "-int_oo"
	}
	return strconv.FormatInt(v, 10)
}

// Contains reports whether v lies in r.
func (r Range) Contains(v int64) bool { return r.Lo <= v && v <= r.Hi && !r.Empty() }

// Empty reports whether r holds no integer.
func (r Range) Empty() bool { return r.Lo > r.Hi || r.Lo == Inf || r.Hi == NegInf }

// Intersect returns the values in both r and o (possibly empty).
func (r Range) Intersect(o Range) Range { return Range{max(r.Lo, o.Lo), min(r.Hi, o.Hi)} }

// Union returns the smallest range holding both r and o.
func (r Range) Union(o Range) Range {
	if r.Empty() {
		return o
	}
	if o.Empty() {
		return r
	}
	return Range{min(r.Lo, o.Lo), max(r.Hi, o.Hi)}
}

// IsPoint returns the value of a range holding a single finite integer.
func (r Range) IsPoint() (int64, bool) {
	if r.Lo == r.Hi && r.Lo != Inf && r.Lo != NegInf {
		return r.Lo, true
	}
	return 0, false
}

// Extended arithmetic on int64 where Inf and NegInf are infinities.

func isInf(v int64) bool { return v == Inf || v == NegInf }

func xneg(a int64) int64 {
	switch a {
	case Inf:
		return NegInf
	case NegInf:
		return Inf
	}
	return -a
}

// xadd adds; an infinite operand wins (callers never add opposite infinities: a range's Lo
// is never Inf and its Hi never NegInf), finite overflow saturates.
func xadd(a, b int64) int64 {
	switch {
	case isInf(a):
		return a
	case isInf(b):
		return b
	}
	s, ok := addChecked(a, b)
	if ok {
		return s
	}
	if a > 0 {
		return Inf
	}
	return NegInf
}

// xmul multiplies with 0*inf = 0 (the values are finite integers) and saturation.
func xmul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	neg := (a < 0) != (b < 0)
	if !isInf(a) && !isInf(b) {
		if p, ok := mulChecked(a, b); ok && !isInf(p) {
			return p
		}
	}
	if neg {
		return NegInf
	}
	return Inf
}

// norm keeps a computed bound a well-formed range: a lower end saturated at Inf (a value past
// the int64 range, which Eval reports as an overflow) becomes the largest finite value, and
// likewise for the upper end.
func norm(r Range) Range {
	if r.Lo == Inf {
		r.Lo = Inf - 1
	}
	if r.Hi == NegInf {
		r.Hi = NegInf + 1
	}
	return r
}

func rAdd(a, b Range) Range { return norm(Range{xadd(a.Lo, b.Lo), xadd(a.Hi, b.Hi)}) }

func rScale(c int64, a Range) Range {
	x, y := xmul(c, a.Lo), xmul(c, a.Hi)
	return norm(Range{min(x, y), max(x, y)})
}

func rMul(a, b Range) Range {
	p := [4]int64{xmul(a.Lo, b.Lo), xmul(a.Lo, b.Hi), xmul(a.Hi, b.Lo), xmul(a.Hi, b.Hi)}
	return norm(Range{min(p[0], p[1], p[2], p[3]), max(p[0], p[1], p[2], p[3])})
}

// rPow bounds x**p for p >= 1.
func rPow(a Range, p int64) Range { return norm(rPow1(a, p)) }

func rPow1(a Range, p int64) Range {
	pw := func(v int64) int64 {
		r := int64(1)
		for range p {
			r = xmul(r, v)
		}
		return r
	}
	even := p%2 == 0
	switch {
	case p == 1:
		return a
	case a.Lo >= 0 || !even:
		return Range{pw(a.Lo), pw(a.Hi)}
	case a.Hi <= 0:
		return Range{pw(a.Hi), pw(a.Lo)}
	default:
		return Range{0, max(pw(a.Lo), pw(a.Hi))}
	}
}

// xfloordiv is floor(a / b) for b >= 1 (b may be Inf), a possibly infinite.
func xfloordiv(a, b int64) int64 {
	switch {
	case isInf(a):
		return a
	case b == Inf:
		if a >= 0 {
			return 0
		}
		return -1
	}
	return pyFloorDiv(a, b)
}

// rFloorDivPos bounds a // b for b within [bl, bh] with bl >= 1: a // b grows with a, and
// for a fixed a moves toward 0 (or -1) as b grows.
func rFloorDivPos(a Range, bl, bh int64) Range {
	var lo, hi int64
	if a.Lo >= 0 {
		lo = xfloordiv(a.Lo, bh)
	} else {
		lo = xfloordiv(a.Lo, bl)
	}
	if a.Hi >= 0 {
		hi = xfloordiv(a.Hi, bl)
	} else {
		hi = xfloordiv(a.Hi, bh)
	}
	return Range{lo, hi}
}

// rFloorDiv bounds a // b; the value b = 0 is left out (the division would fail).
func rFloorDiv(a, b Range) Range {
	out := Range{Inf, NegInf} // empty
	if b.Hi >= 1 {
		out = out.Union(rFloorDivPos(a, max(b.Lo, 1), b.Hi))
	}
	if b.Lo <= -1 {
		// a // b = (-a) // (-b)
		na := Range{xneg(a.Hi), xneg(a.Lo)}
		out = out.Union(rFloorDivPos(na, xneg(min(b.Hi, -1)), xneg(b.Lo)))
	}
	if out.Empty() {
		return Full
	}
	return out
}

// rMod bounds a % b (Python: the sign of b); the value b = 0 is left out.
func rMod(a, b Range) Range {
	out := Range{Inf, NegInf}
	if b.Hi >= 1 {
		bl := max(b.Lo, 1)
		if a.Lo >= 0 && a.Hi < bl {
			out = out.Union(a)
		} else {
			hi := b.Hi
			if hi != Inf {
				hi--
			}
			if a.Lo >= 0 {
				hi = min(hi, a.Hi)
			}
			out = out.Union(Range{0, hi})
		}
	}
	if b.Lo <= -1 {
		bh := min(b.Hi, -1)
		if a.Hi <= 0 && a.Lo > bh {
			out = out.Union(a)
		} else {
			lo := b.Lo
			if lo != NegInf {
				lo++
			}
			if a.Hi <= 0 {
				lo = max(lo, a.Lo)
			}
			out = out.Union(Range{lo, 0})
		}
	}
	if out.Empty() {
		return Full
	}
	return out
}

// rangeOf bounds e given a bound for every symbol.
func rangeOf(e Expr, sym func(*Symbol) Range) Range {
	r := Range{e.k, e.k}
	for _, t := range e.terms {
		p := Range{1, 1}
		for _, f := range t.m {
			p = rMul(p, rPow(rangeOfAtom(f.a, sym), f.p))
		}
		r = rAdd(r, rScale(t.c, p))
	}
	return r
}

func rangeOfAtom(a *atom, sym func(*Symbol) Range) Range {
	if a.op == opSym {
		return sym(a.sym)
	}
	x, y := rangeOf(a.x, sym), rangeOf(a.y, sym)
	switch a.op {
	case opFloorDiv:
		return rFloorDiv(x, y)
	case opMod:
		return rMod(x, y)
	case opMin:
		return Range{min(x.Lo, y.Lo), min(x.Hi, y.Hi)}
	default:
		return Range{max(x.Lo, y.Lo), max(x.Hi, y.Hi)}
	}
}
