package sym

import (
	"strconv"
	"strings"
)

// Srepr prints e as sympy's srepr does, the form torch.export writes in a
// .pt2 file's expr_str: "Integer(3)", "Symbol('s0', positive=True,
// integer=True)", "Mul(Integer(2), Symbol('s0', positive=True,
// integer=True))", "Add(...)", "Pow(x, Integer(2))", and torch's sympy
// functions "FloorDiv(x, y)", "PythonMod(x, y)", "Min(x, y)", "Max(x, y)".
// A backed symbol is positive and integer (a size), an unbacked one integer
// only, a float one (zuf0) none, as PyTorch creates them. sympy.sympify of the result is e.
func (e Expr) Srepr() string {
	var b strings.Builder
	e.srepr(&b)
	return b.String()
}

// Srepr prints c as sympy's srepr does: "StrictGreaterThan(a, b)",
// "GreaterThan(a, b)", "StrictLessThan(a, b)", "LessThan(a, b)",
// "Equality(a, b)", "Unequality(a, b)", with Expr.Srepr operands.
func (c Cond) Srepr() string {
	name := [...]string{EQ: "Equality", NE: "Unequality", LT: "StrictLessThan", LE: "LessThan", GT: "StrictGreaterThan", GE: "GreaterThan"}
	var b strings.Builder
	if c.Rel < EQ || c.Rel > GE {
		b.WriteString("Rel" + strconv.Itoa(int(c.Rel)))
	} else {
		b.WriteString(name[c.Rel])
	}
	b.WriteByte('(')
	c.L.srepr(&b)
	b.WriteString(", ")
	c.R.srepr(&b)
	b.WriteByte(')')
	return b.String()
}

func writeInteger(b *strings.Builder, k int64) {
	b.WriteString("Integer(")
	b.WriteString(strconv.FormatInt(k, 10))
	b.WriteByte(')')
}

func (e Expr) srepr(b *strings.Builder) {
	n := len(e.terms)
	if e.k != 0 {
		n++
	}
	switch {
	case len(e.terms) == 0:
		writeInteger(b, e.k)
		return
	case n == 1:
		e.terms[0].srepr(b)
		return
	}
	b.WriteString("Add(")
	first := true
	if e.k != 0 {
		writeInteger(b, e.k)
		first = false
	}
	for _, t := range e.terms {
		if !first {
			b.WriteString(", ")
		}
		first = false
		t.srepr(b)
	}
	b.WriteByte(')')
}

func (t term) srepr(b *strings.Builder) {
	n := len(t.m)
	if t.c != 1 {
		n++
	}
	if n == 1 {
		t.m[0].srepr(b)
		return
	}
	b.WriteString("Mul(")
	if t.c != 1 {
		writeInteger(b, t.c)
		b.WriteString(", ")
	}
	for i, f := range t.m {
		if i > 0 {
			b.WriteString(", ")
		}
		f.srepr(b)
	}
	b.WriteByte(')')
}

func (f factor) srepr(b *strings.Builder) {
	if f.p == 1 {
		f.a.srepr(b)
		return
	}
	b.WriteString("Pow(")
	f.a.srepr(b)
	b.WriteString(", ")
	writeInteger(b, f.p)
	b.WriteByte(')')
}

func (a *atom) srepr(b *strings.Builder) {
	if a.op == opSym {
		b.WriteString("Symbol(")
		b.WriteString("'" + a.sym.name + "'")
		switch {
		case a.sym.float:
			b.WriteString(")") // PyTorch's float symbols carry no assumption
		case a.sym.backed:
			b.WriteString(", positive=True, integer=True)")
		default:
			b.WriteString(", integer=True)")
		}
		return
	}
	b.WriteString([...]string{opFloorDiv: "FloorDiv", opMod: "PythonMod", opMin: "Min", opMax: "Max"}[a.op])
	b.WriteByte('(')
	a.x.srepr(b)
	b.WriteString(", ")
	a.y.srepr(b)
	b.WriteByte(')')
}
