package sym

import "fmt"

// pyFloorDiv is Python's // on int64 (rounds toward negative infinity). b must not be 0.
func pyFloorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// pyMod is Python's % on int64 (the result has the sign of b). b must not be 0.
func pyMod(a, b int64) int64 {
	r := a % b
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return r
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// content returns the gcd of the coefficients and the constant of e (0 for the constant 0).
func (e Expr) content() int64 {
	g := gcd(e.k, 0)
	for _, t := range e.terms {
		g = gcd(g, t.c)
		if g == 1 {
			return 1
		}
	}
	return g
}

// divExact divides every coefficient and the constant by d, which divides them all.
func (e Expr) divExact(d int64) Expr {
	if d == 1 {
		return e
	}
	out := Expr{k: e.k / d}
	if len(e.terms) > 0 {
		out.terms = make([]term, len(e.terms))
		for i, t := range e.terms {
			out.terms[i] = term{c: t.c / d, m: t.m}
		}
	}
	return out
}

// leadingNegative reports whether the first term (or the constant of a constant) of e is
// negative; divisors are normalized to a positive leading coefficient.
func (e Expr) leadingNegative() bool {
	if len(e.terms) == 0 {
		return e.k < 0
	}
	return e.terms[0].c < 0
}

// FloorDiv returns e // o with Python's semantics (rounding toward negative infinity). It
// panics if o is the constant 0: library code should call FloorDivErr, which returns an
// error instead.
func (e Expr) FloorDiv(o Expr) Expr {
	r, err := FloorDivErr(e, o)
	if err != nil {
		panic(fmt.Sprintf("sym: FloorDiv(%v, %v): %v (use FloorDivErr)", e, o, err))
	}
	return r
}

// Mod returns e % o with Python's semantics (the result has the sign of o). It panics if o
// is the constant 0: library code should call ModErr, which returns an error instead.
func (e Expr) Mod(o Expr) Expr {
	r, err := ModErr(e, o)
	if err != nil {
		panic(fmt.Sprintf("sym: Mod(%v, %v): %v (use ModErr)", e, o, err))
	}
	return r
}

// FloorDivErr returns a // b (Python semantics) simplified, or an error when b is the
// constant 0.
//
// Simplifications: constant folding; x // 1 = x; x // -1 = -x; a negative divisor is
// normalized (a // -b = -a // b); terms that are exact multiples of the divisor leave the
// division ((k*a + b) // k = a + b // k, also for a one-term symbolic divisor); a common
// integer factor cancels ((2*a + 2) // 4 = (a + 1) // 2); (a // k1) // k2 = a // (k1*k2) for
// positive constants; a // a = 1 and 0 // a = 0 (assuming, like PyTorch, the divisor is not 0).
// As in PyTorch, a constant term stays inside the division unless the divisor divides it:
// (s0 + 5) // 4 stays as it is.
func FloorDivErr(a, b Expr) (Expr, error) {
	if bk, ok := b.Const(); ok {
		if bk == 0 {
			return Expr{}, fmt.Errorf("sym: floor division %v // 0: %w", a, errDivZero)
		}
		if ak, ok := a.Const(); ok {
			return Const(pyFloorDiv(ak, bk)), nil
		}
		switch bk {
		case 1:
			return a, nil
		case -1:
			return a.Neg(), nil
		}
		if bk < 0 {
			a, bk = a.Neg(), -bk
		}
		return floorDivConst(a, bk), nil
	}
	if a.IsConst() && a.k == 0 {
		return Expr{}, nil
	}
	if b.leadingNegative() {
		a, b = a.Neg(), b.Neg()
	}
	if a.Equal(b) {
		return Const(1), nil
	}
	if b.k == 0 && len(b.terms) == 1 {
		q, r := splitMultiples(a, b.terms[0])
		if len(q.terms) > 0 || q.k != 0 {
			rest, err := FloorDivErr(r, b)
			return q.Add(rest), err
		}
	}
	if g := gcd(a.content(), b.content()); g > 1 {
		a, b = a.divExact(g), b.divExact(g)
	}
	return atomExpr(newAtom(opFloorDiv, a, b)), nil
}

// splitMultiples splits a into q*t + r where r holds the terms (and the constant) of a that
// are not multiples of the term t.
func splitMultiples(a Expr, t term) (q, r Expr) {
	var qs, rs []term
	for _, at := range a.terms {
		if at.c%t.c == 0 {
			if m, ok := divMono(at.m, t.m); ok {
				qs = append(qs, term{c: at.c / t.c, m: m})
				continue
			}
		}
		rs = append(rs, at)
	}
	q = Expr{}
	for _, x := range qs {
		q = q.Add(fromTerm(x.c, x.m))
	}
	return q, Expr{k: a.k, terms: rs}
}

// floorDivConst returns a // k for a non-constant a and a constant k > 1.
func floorDivConst(a Expr, k int64) Expr {
	var q Expr
	var rs []term
	for _, t := range a.terms {
		if t.c%k == 0 {
			q = q.Add(fromTerm(t.c/k, t.m))
		} else {
			rs = append(rs, t)
		}
	}
	r := Expr{terms: rs, k: a.k}
	if a.k%k == 0 {
		q.k += a.k / k
		r.k = 0
	}
	if len(rs) == 0 {
		// Only a constant remains; it is below k in magnitude or 0.
		return q.Add(Const(pyFloorDiv(r.k, k)))
	}
	if g := gcd(r.content(), k); g > 1 {
		r, k = r.divExact(g), k/g
		if k == 1 {
			return q.Add(r)
		}
	}
	if x, ok := r.singleAtom(); ok && x.op == opFloorDiv {
		if k1, ok := x.y.Const(); ok && k1 > 0 {
			return q.Add(floorDivConst(x.x, k1*k))
		}
	}
	return q.Add(atomExpr(newAtom(opFloorDiv, r, Const(k))))
}

// ModErr returns a % b (Python semantics: the result has the sign of b) simplified, or an
// error when b is the constant 0.
//
// Simplifications: constant folding; x % 1 = 0; terms that are multiples of the divisor drop
// ((k*a + b) % k = b % k, also for a one-term symbolic divisor) and the constant is reduced
// modulo a constant divisor; a common integer factor moves out (Mod(2*a, 4) = 2*Mod(a, 2));
// Mod(Mod(a, k1), k2) = Mod(a, k2) when k2 divides k1; a negative divisor is normalized
// (a % -b = -((-a) % b)); a % a = 0.
func ModErr(a, b Expr) (Expr, error) {
	if bk, ok := b.Const(); ok && bk == 0 {
		return Expr{}, fmt.Errorf("sym: modulo %v %% 0: %w", a, errDivZero)
	}
	if bk, ok := b.Const(); ok {
		if ak, ok := a.Const(); ok {
			return Const(pyMod(ak, bk)), nil
		}
	}
	if b.leadingNegative() {
		if nb := b.Neg(); !nb.leadingNegative() {
			r, err := ModErr(a.Neg(), nb)
			return r.Neg(), err
		}
		// -b overflows (a coefficient of -2**63): kept as it is.
		return atomExpr(newAtom(opMod, a, b)), nil
	}
	if bk, ok := b.Const(); ok {
		if ak, ok := a.Const(); ok {
			return Const(pyMod(ak, bk)), nil
		}
		if bk == 1 {
			return Expr{}, nil
		}
		return modConst(a, bk), nil
	}
	if a.IsConst() && a.k == 0 {
		return Expr{}, nil
	}
	if a.Equal(b) || a.Equal(b.Neg()) {
		return Expr{}, nil
	}
	if b.k == 0 && len(b.terms) == 1 {
		_, r := splitMultiples(a, b.terms[0])
		if len(r.terms) != len(a.terms) {
			return ModErr(r, b)
		}
	}
	if g := gcd(a.content(), b.content()); g > 1 {
		r, err := ModErr(a.divExact(g), b.divExact(g))
		return r.scale(g), err
	}
	return atomExpr(newAtom(opMod, a, b)), nil
}

// modConst returns a % k for a non-constant a and a constant k > 1.
func modConst(a Expr, k int64) Expr {
	var rs []term
	for _, t := range a.terms {
		if t.c%k != 0 {
			rs = append(rs, t)
		}
	}
	r := Expr{terms: rs, k: pyMod(a.k, k)}
	if len(rs) == 0 {
		return Const(r.k)
	}
	if g := gcd(r.content(), k); g > 1 {
		return modConst2(r.divExact(g), k/g).scale(g)
	}
	return modConst2(r, k)
}

func modConst2(r Expr, k int64) Expr {
	if k == 1 {
		return Expr{}
	}
	if x, ok := r.singleAtom(); ok && x.op == opMod {
		if k1, ok := x.y.Const(); ok && k1%k == 0 {
			return modConst(x.x, k)
		}
	}
	return atomExpr(newAtom(opMod, r, Const(k)))
}

// Min returns the smaller of a and b. It folds when a - b is a constant (so Min of constants,
// Min(a, a) = a and Min(s0, s0 + 1) = s0); otherwise it is a term with its arguments in
// canonical order. Env.Simplify also decides it from value ranges.
func Min(a, b Expr) Expr { return minMax(opMin, a, b) }

// Max returns the larger of a and b, simplified like Min.
func Max(a, b Expr) Expr { return minMax(opMax, a, b) }

func minMax(op atomOp, a, b Expr) Expr {
	if d, ok := a.Sub(b).Const(); ok {
		if (d <= 0) == (op == opMin) {
			return a
		}
		return b
	}
	if compareExpr(a, b) > 0 {
		a, b = b, a
	}
	return atomExpr(newAtom(op, a, b))
}
