package sym

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Hash returns a structural hash of e: equal expressions have equal hashes. Expr holds a
// slice and is not comparable with ==; use Hash with Equal to key a map by expressions.
func (e Expr) Hash() uint64 { return e.hash() }

// Parse reads an expression in the form String prints (and Python's integer syntax): integer
// constants, names of env's symbols, + - * // % and ** with a constant exponent, parentheses,
// and Mod(a, b), Min(a, b), Max(a, b) (Min and Max also with more arguments). It is the
// inverse of String: env.Parse(e.String()) is e.
func (env *Env) Parse(s string) (Expr, error) {
	p := &parser{env: env, src: s}
	p.next()
	e, err := p.expr()
	if err == nil && p.tok != "" {
		err = p.errorf("unexpected %q", p.tok)
	}
	if err != nil {
		return Expr{}, err
	}
	return e, nil
}

type parser struct {
	env      *Env
	src      string
	pos, at  int    // next byte; start of tok
	tok      string // current token; "" at the end
	isNumber bool
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("sym: parsing %q at offset %d: %s", p.src, p.at, fmt.Sprintf(format, args...))
}

func (p *parser) next() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
	p.at = p.pos
	p.isNumber = false
	if p.pos >= len(p.src) {
		p.tok = ""
		return
	}
	c := rune(p.src[p.pos])
	switch {
	case unicode.IsDigit(c):
		for p.pos < len(p.src) && unicode.IsDigit(rune(p.src[p.pos])) {
			p.pos++
		}
		p.isNumber = true
	case unicode.IsLetter(c) || c == '_':
		for p.pos < len(p.src) && (unicode.IsLetter(rune(p.src[p.pos])) || unicode.IsDigit(rune(p.src[p.pos])) || p.src[p.pos] == '_') {
			p.pos++
		}
	case strings.HasPrefix(p.src[p.pos:], "//"), strings.HasPrefix(p.src[p.pos:], "**"):
		p.pos += 2
	default:
		p.pos++
	}
	p.tok = p.src[p.at:p.pos]
}

func (p *parser) expect(tok string) error {
	if p.tok != tok {
		if p.tok == "" {
			return p.errorf("expected %q, found the end", tok)
		}
		return p.errorf("expected %q, found %q", tok, p.tok)
	}
	p.next()
	return nil
}

// expr := term (("+" | "-") term)*
func (p *parser) expr() (Expr, error) {
	e, err := p.term()
	for err == nil && (p.tok == "+" || p.tok == "-") {
		op := p.tok
		p.next()
		var t Expr
		if t, err = p.term(); err == nil {
			if op == "+" {
				e = e.Add(t)
			} else {
				e = e.Sub(t)
			}
		}
	}
	return e, err
}

// term := unary (("*" | "//" | "%") unary)*
func (p *parser) term() (Expr, error) {
	e, err := p.unary()
	for err == nil && (p.tok == "*" || p.tok == "//" || p.tok == "%") {
		op := p.tok
		p.next()
		var t Expr
		if t, err = p.unary(); err != nil {
			break
		}
		switch op {
		case "*":
			e = e.Mul(t)
		case "//":
			e, err = FloorDivErr(e, t)
		default:
			e, err = ModErr(e, t)
		}
	}
	return e, err
}

// unary := "-" unary | power
func (p *parser) unary() (Expr, error) {
	if p.tok == "-" {
		p.next()
		e, err := p.unary()
		return e.Neg(), err
	}
	return p.power()
}

// power := primary ("**" integer)?
func (p *parser) power() (Expr, error) {
	e, err := p.primary()
	if err != nil || p.tok != "**" {
		return e, err
	}
	p.next()
	if !p.isNumber {
		return Expr{}, p.errorf("expected a constant exponent, found %q", p.tok)
	}
	n, err := strconv.ParseInt(p.tok, 10, 64)
	if err != nil || n < 1 || n > 64 {
		return Expr{}, p.errorf("exponent %q out of range [1, 64]", p.tok)
	}
	p.next()
	out := Const(1)
	for range n {
		out = out.Mul(e)
	}
	return out, nil
}

func (p *parser) primary() (Expr, error) {
	switch {
	case p.tok == "":
		return Expr{}, p.errorf("unexpected end")
	case p.isNumber:
		v, err := strconv.ParseInt(p.tok, 10, 64)
		if err != nil {
			return Expr{}, p.errorf("constant %q out of the int64 range", p.tok)
		}
		p.next()
		return Const(v), nil
	case p.tok == "(":
		p.next()
		e, err := p.expr()
		if err != nil {
			return Expr{}, err
		}
		// "(a//b)" is how String prints a floor division; // also binds inside the parentheses
		// through term, so nothing special is needed here.
		return e, p.expect(")")
	case p.tok == "Mod" || p.tok == "Min" || p.tok == "Max":
		fn := p.tok
		p.next()
		if err := p.expect("("); err != nil {
			return Expr{}, err
		}
		var args []Expr
		for {
			a, err := p.expr()
			if err != nil {
				return Expr{}, err
			}
			args = append(args, a)
			if p.tok != "," {
				break
			}
			p.next()
		}
		if err := p.expect(")"); err != nil {
			return Expr{}, err
		}
		if fn == "Mod" {
			if len(args) != 2 {
				return Expr{}, p.errorf("Mod takes 2 arguments, got %d", len(args))
			}
			return ModErr(args[0], args[1])
		}
		if len(args) < 2 {
			return Expr{}, p.errorf("%s takes at least 2 arguments, got %d", fn, len(args))
		}
		e := args[0]
		for _, a := range args[1:] {
			if fn == "Min" {
				e = Min(e, a)
			} else {
				e = Max(e, a)
			}
		}
		return e, nil
	case unicode.IsLetter(rune(p.tok[0])) || p.tok[0] == '_':
		s, ok := p.env.Lookup(p.tok)
		if !ok {
			return Expr{}, p.errorf("unknown symbol %q", p.tok)
		}
		p.next()
		return s.Expr(), nil
	}
	return Expr{}, p.errorf("unexpected %q", p.tok)
}
