package sym

import (
	"strconv"
	"strings"
)

// String prints e in PyTorch's (sympy's) spelling: "s0", "2*s0", "s0*s1", "s0**2",
// "s0 + 1", "2*s0 - 3", "3 - s0", "(s0//2)", "((s0 + 1)//2)", "Mod(s0, 4)", "Max(1, s0)". Terms are
// in canonical order (highest degree first, then by symbol creation order) with the constant
// last, so the output is deterministic.
func (e Expr) String() string {
	var b strings.Builder
	e.write(&b)
	return b.String()
}

func (e Expr) write(b *strings.Builder) {
	if len(e.terms) == 0 {
		b.WriteString(strconv.FormatInt(e.k, 10))
		return
	}
	if len(e.terms) == 1 && e.k > 0 && e.terms[0].c < 0 && len(e.terms[0].m) == 1 {
		// sympy prints a positive constant minus one atom as "3 - s0".
		b.WriteString(strconv.FormatInt(e.k, 10))
		b.WriteString(" - ")
		if c := e.terms[0].c; c != -1 {
			b.WriteString(strconv.FormatUint(uint64(-c), 10))
			b.WriteByte('*')
		}
		writeMono(b, e.terms[0].m)
		return
	}
	for i, t := range e.terms {
		c := t.c
		switch {
		case i == 0 && c < 0:
			b.WriteByte('-')
			c = -c
		case i > 0 && c < 0:
			b.WriteString(" - ")
			c = -c
		case i > 0:
			b.WriteString(" + ")
		}
		if c != 1 {
			b.WriteString(strconv.FormatUint(uint64(c), 10))
			b.WriteByte('*')
		}
		writeMono(b, t.m)
	}
	switch {
	case e.k > 0:
		b.WriteString(" + ")
		b.WriteString(strconv.FormatInt(e.k, 10))
	case e.k < 0:
		b.WriteString(" - ")
		b.WriteString(strconv.FormatUint(uint64(-e.k), 10))
	}
}

func writeMono(b *strings.Builder, m mono) {
	for i, f := range m {
		if i > 0 {
			b.WriteByte('*')
		}
		f.a.write(b)
		if f.p != 1 {
			b.WriteString("**")
			b.WriteString(strconv.FormatInt(f.p, 10))
		}
	}
}

func (a *atom) write(b *strings.Builder) {
	switch a.op {
	case opSym:
		b.WriteString(a.sym.name)
	case opFloorDiv:
		b.WriteByte('(')
		writeOperand(b, a.x)
		b.WriteString("//")
		writeOperand(b, a.y)
		b.WriteByte(')')
	default:
		b.WriteString([...]string{opMod: "Mod", opMin: "Min", opMax: "Max"}[a.op])
		b.WriteByte('(')
		a.x.write(b)
		b.WriteString(", ")
		a.y.write(b)
		b.WriteByte(')')
	}
}

// writeOperand writes an operand of //, parenthesized unless it is a single atom or a
// constant.
func writeOperand(b *strings.Builder, e Expr) {
	if _, ok := e.singleAtom(); ok || e.IsConst() && e.k >= 0 {
		e.write(b)
		return
	}
	b.WriteByte('(')
	e.write(b)
	b.WriteByte(')')
}
