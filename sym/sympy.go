package sym

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ParseSympy reads a sympy expression as torch.export's serializer writes it (the expr_str
// of a .pt2 file): sympy's srepr form, "Mul(Integer(2), Symbol('s0', positive=True,
// integer=True))", or its str form, "2*s0", "-s0 + 4", "Mod(s0, 2)", "(s0//2)". symbol
// returns the Symbol of a name (Symbol('s0', ...) or a bare s0); its error is returned
// as the parse error.
//
// Besides + - * // % and ** (a constant, non-negative exponent), it knows sympy's Integer,
// Symbol, Add, Mul, Pow and PyTorch's integer functions of torch/utils/_sympy/functions.py:
// FloorDiv, CleanDiv, CeilDiv, Mod, PythonMod, ModularIndexing, PowByNatural, Max, Min and
// Identity. Anything else (a float, a rational, a boolean function) is an error naming it.
// A relation is an error: read it with ParseSympyCond.
func ParseSympy(s string, symbol func(name string) (*Symbol, error)) (Expr, error) {
	v, err := parseSympy(s, symbol)
	if err != nil {
		return Expr{}, err
	}
	if v.kind != svExpr {
		return Expr{}, fmt.Errorf("sym: sympy expression %q is a %s, not an integer expression", trunc(s), v.kind)
	}
	return v.e, nil
}

// ParseSympyCond reads a sympy relation as ParseSympy reads expressions: srepr's
// Equality, Unequality, LessThan, StrictLessThan, GreaterThan and StrictGreaterThan, the
// str forms Eq(a, b), Ne(a, b), a < b, a <= b, a > b, a >= b, and the constants True and
// False (true is 0 == 0, false 0 != 0).
func ParseSympyCond(s string, symbol func(name string) (*Symbol, error)) (Cond, error) {
	v, err := parseSympy(s, symbol)
	if err != nil {
		return Cond{}, err
	}
	switch v.kind {
	case svCond:
		return v.c, nil
	case svBool:
		if v.b {
			return Eq(Const(0), Const(0)), nil
		}
		return Ne(Const(0), Const(0)), nil
	}
	return Cond{}, fmt.Errorf("sym: sympy expression %q is a %s, not a relation", trunc(s), v.kind)
}

// ParseSympy is the package function ParseSympy with env's symbols: a name env does not
// know is an error.
func (env *Env) ParseSympy(s string) (Expr, error) { return ParseSympy(s, env.lookupErr) }

func (env *Env) lookupErr(name string) (*Symbol, error) {
	if s, ok := env.byName[name]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("unknown symbol %s", name)
}

// NewUnbackedNamed creates an unbacked symbol with a given name (u0, u3, as a file names
// it) and the value range r. It returns an error for an empty name or a name already taken.
func (env *Env) NewUnbackedNamed(name string, r Range) (*Symbol, error) {
	switch {
	case name == "":
		return nil, errors.New("sym: NewUnbackedNamed: empty symbol name")
	case env.byName[name] != nil:
		return nil, fmt.Errorf("sym: NewUnbackedNamed(%q): a symbol of that name already exists", name)
	}
	return env.add(name, 0, false, r), nil
}

func trunc(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

type svKind int

const (
	svExpr svKind = iota
	svCond
	svBool
	svString
)

func (k svKind) String() string {
	return [...]string{"integer expression", "relation", "boolean", "string"}[k]
}

// sval is a parsed value: an expression, a relation, a boolean or a string literal.
type sval struct {
	kind svKind
	e    Expr
	c    Cond
	b    bool
	s    string
}

// maxSympyDepth bounds the nesting of a parsed expression.
const maxSympyDepth = 200

type sympyParser struct {
	src    string
	pos    int
	at     int
	tok    string
	kind   byte // 'n' number, 'i' identifier, 's' string, 'p' punctuation, 0 end
	depth  int
	symbol func(string) (*Symbol, error)
}

func parseSympy(s string, symbol func(string) (*Symbol, error)) (sval, error) {
	if symbol == nil {
		return sval{}, errors.New("sym: ParseSympy: nil symbol function")
	}
	p := &sympyParser{src: s, symbol: symbol}
	if err := p.next(); err != nil {
		return sval{}, err
	}
	v, err := p.rel()
	if err == nil && p.kind != 0 {
		err = p.errorf("unexpected %q", p.tok)
	}
	return v, err
}

func (p *sympyParser) errorf(format string, args ...any) error {
	return fmt.Errorf("sym: sympy expression %q at offset %d: %s", trunc(p.src), p.at, fmt.Sprintf(format, args...))
}

func isIdentByte(c byte, first bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || !first && c >= '0' && c <= '9'
}

func (p *sympyParser) next() error {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\n' || p.src[p.pos] == '\t') {
		p.pos++
	}
	p.at = p.pos
	if p.pos >= len(p.src) {
		p.tok, p.kind = "", 0
		return nil
	}
	c := p.src[p.pos]
	switch {
	case c >= '0' && c <= '9':
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
		}
		p.kind = 'n'
	case isIdentByte(c, true):
		for p.pos < len(p.src) && isIdentByte(p.src[p.pos], false) {
			p.pos++
		}
		p.kind = 'i'
	case c == '\'' || c == '"':
		end := strings.IndexByte(p.src[p.pos+1:], c)
		if end < 0 {
			return p.errorf("unterminated string")
		}
		p.pos += end + 2
		p.kind = 's'
		p.tok = p.src[p.at+1 : p.pos-1]
		return nil
	default:
		p.kind = 'p'
		for _, op := range []string{"//", "**", "<=", ">=", "==", "!="} {
			if strings.HasPrefix(p.src[p.pos:], op) {
				p.pos += 2
				p.tok = op
				return nil
			}
		}
		if !strings.ContainsRune("+-*/%()<>,=", rune(c)) {
			return p.errorf("unexpected character %q", c)
		}
		p.pos++
	}
	p.tok = p.src[p.at:p.pos]
	return nil
}

func (p *sympyParser) is(tok string) bool { return p.kind == 'p' && p.tok == tok }

func (p *sympyParser) expect(tok string) error {
	if !p.is(tok) {
		if p.kind == 0 {
			return p.errorf("expected %q, found the end", tok)
		}
		return p.errorf("expected %q, found %q", tok, p.tok)
	}
	return p.next()
}

func (p *sympyParser) expr(v sval, what string) (Expr, error) {
	if v.kind != svExpr {
		return Expr{}, p.errorf("%s is a %s, not an integer expression", what, v.kind)
	}
	return v.e, nil
}

var relOps = map[string]Rel{"<": LT, "<=": LE, ">": GT, ">=": GE, "==": EQ, "!=": NE}

// rel := sum (relop sum)?
func (p *sympyParser) rel() (sval, error) {
	l, err := p.sum()
	if err != nil {
		return l, err
	}
	r, ok := relOps[p.tok]
	if p.kind != 'p' || !ok {
		return l, nil
	}
	if err := p.next(); err != nil {
		return sval{}, err
	}
	rv, err := p.sum()
	if err != nil {
		return rv, err
	}
	a, err := p.expr(l, "the left side of "+r.String())
	if err != nil {
		return sval{}, err
	}
	b, err := p.expr(rv, "the right side of "+r.String())
	if err != nil {
		return sval{}, err
	}
	return sval{kind: svCond, c: Cond{r, a, b}}, nil
}

// sumOps and termOps compute the binary operators of sum and term; a nil
// one is refused ("/", true division).
var (
	sumOps = map[string]func(a, b Expr) (Expr, error){
		"+": func(a, b Expr) (Expr, error) { return a.Add(b), nil },
		"-": func(a, b Expr) (Expr, error) { return a.Sub(b), nil },
	}
	termOps = map[string]func(a, b Expr) (Expr, error){
		"*": mulBounded, "//": FloorDivErr, "%": ModErr, "/": nil,
	}
)

// sum := term (("+" | "-") term)*
func (p *sympyParser) sum() (sval, error) { return p.leftAssoc(p.term, sumOps) }

// term := unary (("*" | "//" | "%" | "/") unary)*
func (p *sympyParser) term() (sval, error) { return p.leftAssoc(p.unary, termOps) }

// leftAssoc parses operand (op operand)* for the operators of ops, left
// to right.
func (p *sympyParser) leftAssoc(operand func() (sval, error), ops map[string]func(a, b Expr) (Expr, error)) (sval, error) {
	v, err := operand()
	for err == nil && p.kind == 'p' {
		op := p.tok
		f, ok := ops[op]
		if !ok {
			break
		}
		if f == nil {
			return sval{}, p.errorf("true division is not an integer operation")
		}
		if err = p.next(); err != nil {
			break
		}
		var t sval
		if t, err = operand(); err != nil {
			break
		}
		var a, b, e Expr
		if a, err = p.expr(v, "an operand of "+op); err != nil {
			break
		}
		if b, err = p.expr(t, "an operand of "+op); err != nil {
			break
		}
		e, err = f(a, b)
		v = sval{e: e}
	}
	return v, err
}

// unary := "-" unary | power
func (p *sympyParser) unary() (sval, error) {
	if p.is("-") || p.is("+") {
		neg := p.tok == "-"
		if err := p.next(); err != nil {
			return sval{}, err
		}
		if err := p.enter(); err != nil {
			return sval{}, err
		}
		v, err := p.unary()
		p.depth--
		if err != nil {
			return v, err
		}
		e, err := p.expr(v, "the operand of unary minus")
		if err != nil {
			return v, err
		}
		if neg {
			e = e.Neg()
		}
		return sval{e: e}, nil
	}
	return p.power()
}

func (p *sympyParser) enter() error {
	p.depth++
	if p.depth > maxSympyDepth {
		return p.errorf("nested deeper than %d", maxSympyDepth)
	}
	return nil
}

// power := primary ("**" unary)?
func (p *sympyParser) power() (sval, error) {
	v, err := p.primary()
	if err != nil || !p.is("**") {
		return v, err
	}
	if err := p.next(); err != nil {
		return sval{}, err
	}
	if err := p.enter(); err != nil {
		return sval{}, err
	}
	x, err := p.unary()
	p.depth--
	if err != nil {
		return x, err
	}
	base, err := p.expr(v, "the base of **")
	if err != nil {
		return sval{}, err
	}
	exp, err := p.expr(x, "the exponent of **")
	if err != nil {
		return sval{}, err
	}
	e, err := pow(base, exp)
	if err != nil {
		return sval{}, p.errorf("%v", err)
	}
	return sval{e: e}, nil
}

func pow(base, exp Expr) (Expr, error) {
	n, ok := exp.Const()
	if !ok || n < 0 || n > 64 {
		return Expr{}, fmt.Errorf("exponent %v is not a constant in [0, 64]", exp)
	}
	out := Const(1)
	for range n {
		var err error
		if out, err = mulBounded(out, base); err != nil {
			return Expr{}, err
		}
	}
	return out, nil
}

// maxSympyTerms bounds the terms of a parsed expression: products of sums
// expand, and a hostile string would otherwise expand without bound.
const maxSympyTerms = 1000

// mulBounded is a.Mul(b), refused when the expansion would exceed
// maxSympyTerms terms.
func mulBounded(a, b Expr) (Expr, error) {
	if (len(a.terms)+1)*(len(b.terms)+1) > maxSympyTerms {
		return Expr{}, fmt.Errorf("the product of expressions of %d and %d terms expands to too many terms", len(a.terms)+1, len(b.terms)+1)
	}
	return a.Mul(b), nil
}

// arg is one argument of a call: positional (name "") or keyword.
type arg struct {
	name string
	v    sval
}

func (p *sympyParser) primary() (sval, error) {
	switch p.kind {
	case 0:
		return sval{}, p.errorf("unexpected end")
	case 'n':
		n, err := strconv.ParseInt(p.tok, 10, 64)
		if err != nil {
			return sval{}, p.errorf("constant %s out of the int64 range", p.tok)
		}
		return sval{e: Const(n)}, p.next()
	case 's':
		s := p.tok
		return sval{kind: svString, s: s}, p.next()
	case 'p':
		if !p.is("(") {
			return sval{}, p.errorf("unexpected %q", p.tok)
		}
		if err := p.next(); err != nil {
			return sval{}, err
		}
		if err := p.enter(); err != nil {
			return sval{}, err
		}
		v, err := p.rel()
		p.depth--
		if err != nil {
			return v, err
		}
		return v, p.expect(")")
	}
	name := p.tok
	if err := p.next(); err != nil {
		return sval{}, err
	}
	if !p.is("(") {
		switch name {
		case "True", "true":
			return sval{kind: svBool, b: true}, nil
		case "False", "false":
			return sval{kind: svBool}, nil
		}
		s, err := p.symbol(name)
		if err != nil {
			return sval{}, p.errorf("%v", err)
		}
		if s == nil {
			return sval{}, p.errorf("unknown symbol %s", name)
		}
		return sval{e: s.Expr()}, nil
	}
	if err := p.next(); err != nil {
		return sval{}, err
	}
	if err := p.enter(); err != nil {
		return sval{}, err
	}
	defer func() { p.depth-- }()
	var args []arg
	for !p.is(")") {
		if len(args) > 0 {
			if err := p.expect(","); err != nil {
				return sval{}, err
			}
		}
		var a arg
		if p.kind == 'i' {
			// A keyword argument (positive=True) or an expression starting with a name.
			save := *p
			kw := p.tok
			if err := p.next(); err != nil {
				return sval{}, err
			}
			if p.is("=") {
				if err := p.next(); err != nil {
					return sval{}, err
				}
				a.name = kw
			} else {
				*p = save
			}
		}
		v, err := p.rel()
		if err != nil {
			return v, err
		}
		a.v = v
		args = append(args, a)
	}
	if err := p.next(); err != nil {
		return sval{}, err
	}
	return p.call(name, args)
}

func (p *sympyParser) call(fn string, args []arg) (sval, error) {
	var pos []sval
	for _, a := range args {
		if a.name == "" {
			pos = append(pos, a.v)
		} else if fn != "Symbol" {
			return sval{}, p.errorf("%s takes no keyword argument %s", fn, a.name)
		}
	}
	want := func(n int) error {
		if len(pos) != n {
			return p.errorf("%s takes %d arguments, got %d", fn, n, len(pos))
		}
		return nil
	}
	exprs := func() ([]Expr, error) {
		out := make([]Expr, len(pos))
		for i, v := range pos {
			e, err := p.expr(v, fmt.Sprintf("argument %d of %s", i+1, fn))
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	}
	rel := func(r Rel) (sval, error) {
		if err := want(2); err != nil {
			return sval{}, err
		}
		es, err := exprs()
		if err != nil {
			return sval{}, err
		}
		return sval{kind: svCond, c: Cond{r, es[0], es[1]}}, nil
	}
	switch fn {
	case "Symbol":
		if err := want(1); err != nil {
			return sval{}, err
		}
		if pos[0].kind != svString {
			return sval{}, p.errorf("Symbol takes a name string")
		}
		s, err := p.symbol(pos[0].s)
		if err != nil {
			return sval{}, p.errorf("%v", err)
		}
		if s == nil {
			return sval{}, p.errorf("unknown symbol %s", pos[0].s)
		}
		return sval{e: s.Expr()}, nil
	case "Equality", "Eq":
		return rel(EQ)
	case "Unequality", "Ne":
		return rel(NE)
	case "LessThan", "Le":
		return rel(LE)
	case "StrictLessThan", "Lt":
		return rel(LT)
	case "GreaterThan", "Ge":
		return rel(GE)
	case "StrictGreaterThan", "Gt":
		return rel(GT)
	}
	es, err := exprs()
	if err != nil {
		return sval{}, err
	}
	var e Expr
	switch fn {
	case "Integer":
		if err := want(1); err != nil {
			return sval{}, err
		}
		if !es[0].IsConst() {
			return sval{}, p.errorf("Integer takes a constant, got %v", es[0])
		}
		e = es[0]
	case "Add":
		for _, x := range es {
			e = e.Add(x)
		}
	case "Mul":
		e = Const(1)
		for _, x := range es {
			if e, err = mulBounded(e, x); err != nil {
				return sval{}, p.errorf("Mul: %v", err)
			}
		}
	case "Pow", "PowByNatural":
		if err := want(2); err != nil {
			return sval{}, err
		}
		if e, err = pow(es[0], es[1]); err != nil {
			return sval{}, p.errorf("%s: %v", fn, err)
		}
	case "FloorDiv", "CleanDiv":
		if err := want(2); err != nil {
			return sval{}, err
		}
		e, err = FloorDivErr(es[0], es[1])
	case "CeilDiv":
		if err := want(2); err != nil {
			return sval{}, err
		}
		e, err = FloorDivErr(es[0].Neg(), es[1])
		e = e.Neg()
	case "Mod", "PythonMod":
		if err := want(2); err != nil {
			return sval{}, err
		}
		e, err = ModErr(es[0], es[1])
	case "ModularIndexing":
		if err := want(3); err != nil {
			return sval{}, err
		}
		if e, err = FloorDivErr(es[0], es[1]); err == nil {
			e, err = ModErr(e, es[2])
		}
	case "Max", "Min":
		if len(es) == 0 {
			return sval{}, p.errorf("%s takes at least 1 argument", fn)
		}
		e = es[0]
		for _, x := range es[1:] {
			if fn == "Max" {
				e = Max(e, x)
			} else {
				e = Min(e, x)
			}
		}
	case "Identity":
		if err := want(1); err != nil {
			return sval{}, err
		}
		e = es[0]
	default:
		return sval{}, p.errorf("unsupported sympy function %s", fn)
	}
	if err != nil {
		return sval{}, p.errorf("%s: %v", fn, err)
	}
	return sval{e: e}, nil
}
