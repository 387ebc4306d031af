package syntax

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Parse parses a source file of the serialized dialect: a code/ file of a
// TorchScript archive or a method's `.code`. filename is used in error
// messages only. The error, if any, is an *Error naming file:line:col and
// what was expected.
func Parse(filename string, src []byte) (*File, error) {
	toks, unclosed, err := tokenize(filename, src)
	if err != nil {
		return nil, err
	}
	p := &parser{filename: filename, toks: toks, unclosed: unclosed}
	f := &File{Name: filename}
	for p.err == nil && p.tok().kind != tEOF {
		if s := p.stmt(); s != nil {
			f.Stmts = append(f.Stmts, s)
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	return f, nil
}

// ParseExpr parses a single expression, such as a type annotation
// (`Dict[str, List[Tensor]]`); a comma-separated list is an unparenthesized
// TupleExpr. filename is used in error messages only.
func ParseExpr(filename string, src []byte) (Expr, error) {
	toks, unclosed, err := tokenize(filename, src)
	if err != nil {
		return nil, err
	}
	p := &parser{filename: filename, toks: toks, unclosed: unclosed}
	e := p.exprOrTuple()
	if p.err == nil && p.tok().kind == tNewline {
		p.next()
	}
	if p.err == nil && p.tok().kind != tEOF {
		p.errorExpected("the end of the expression")
	}
	if p.err != nil {
		return nil, p.err
	}
	return e, nil
}

type parser struct {
	filename string
	toks     []token
	i        int
	depth    int
	unclosed *token // a bracket the source never closes
	err      *Error
}

// tok is the current token; after an error it is always EOF, so that every
// loop of the parser ends.
func (p *parser) tok() token {
	if p.err != nil {
		return token{kind: tEOF}
	}
	return p.toks[p.i]
}

func (p *parser) peek() token {
	if p.err != nil || p.i+1 >= len(p.toks) {
		return token{kind: tEOF}
	}
	return p.toks[p.i+1]
}

func (p *parser) next() token {
	t := p.tok()
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) errorf(pos Pos, format string, args ...any) {
	if p.err == nil {
		p.err = &Error{Filename: p.filename, Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
}

func (p *parser) errorExpected(what string) {
	t := p.tok()
	if t.kind == tEOF && p.unclosed != nil {
		p.errorf(p.unclosed.pos, "'%s' is never closed", p.unclosed.text)
		return
	}
	p.errorf(t.pos, "expected %s, found %s", what, t)
}

// is reports whether the current token is the operator or keyword s.
func (p *parser) is(s string) bool {
	t := p.tok()
	return (t.kind == tOp || t.kind == tKeyword) && t.text == s
}

// got consumes the operator or keyword s if it is the current token.
func (p *parser) got(s string) bool {
	if p.is(s) {
		p.next()
		return true
	}
	return false
}

// want consumes the operator or keyword s, or reports what was found.
func (p *parser) want(s string) Pos {
	t := p.tok()
	if !p.is(s) {
		p.errorExpected("'" + s + "'")
		return t.pos
	}
	p.next()
	return t.pos
}

func (p *parser) wantKind(k tokKind, what string) token {
	t := p.tok()
	if t.kind != k {
		p.errorExpected(what)
		return t
	}
	p.next()
	return t
}

func (p *parser) ident() (string, Pos) {
	t := p.wantKind(tIdent, "an identifier")
	return t.text, t.pos
}

// enter and leave bound the recursion depth.
func (p *parser) enter() bool {
	p.depth++
	if p.depth > maxNesting {
		p.errorf(p.tok().pos, "expression or block nested more than %d deep", maxNesting)
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

// ---- statements

func (p *parser) stmt() Stmt {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	t := p.tok()
	if t.kind == tKeyword {
		switch t.text {
		case "class":
			return p.classDef()
		case "def":
			return p.funcDef()
		case "if":
			p.next()
			return p.ifStmt(t.pos, false)
		case "while":
			p.next()
			cond := p.expr()
			p.want(":")
			return &While{WhilePos: t.pos, Cond: cond, Body: p.block()}
		case "for":
			return p.forStmt()
		case "with":
			return p.withStmt()
		case "return":
			p.next()
			s := &Return{ReturnPos: t.pos}
			if p.tok().kind != tNewline {
				s.Value = p.exprOrTuple()
			}
			p.endLine()
			return s
		case "raise":
			p.next()
			s := &Raise{RaisePos: t.pos, Exc: p.expr()}
			p.endLine()
			return s
		case "assert":
			p.next()
			s := &Assert{AssertPos: t.pos, Test: p.expr()}
			if p.got(",") {
				s.Msg = p.expr()
			}
			p.endLine()
			return s
		case "del":
			p.next()
			s := &Delete{DelPos: t.pos}
			for {
				s.Targets = append(s.Targets, p.expr())
				if !p.got(",") || p.tok().kind == tNewline {
					break
				}
			}
			p.endLine()
			return s
		case "global":
			p.next()
			s := &Global{GlobalPos: t.pos}
			for {
				name, _ := p.ident()
				s.Names = append(s.Names, name)
				if !p.got(",") {
					break
				}
			}
			p.endLine()
			return s
		case "import":
			p.next()
			var b strings.Builder
			name, _ := p.ident()
			b.WriteString(name)
			for p.got(".") {
				name, _ := p.ident()
				b.WriteString(".")
				b.WriteString(name)
			}
			p.endLine()
			return &Import{ImportPos: t.pos, Name: b.String()}
		case "pass":
			p.next()
			p.endLine()
			return &Pass{At: t.pos}
		case "break":
			p.next()
			p.endLine()
			return &Break{At: t.pos}
		case "continue":
			p.next()
			p.endLine()
			return &Continue{At: t.pos}
		}
	}
	switch t.kind {
	case tIndent:
		p.errorf(t.pos, "unexpected indent")
		return nil
	case tDedent, tNewline, tEOF:
		p.errorExpected("a statement")
		return nil
	}
	lhs := p.exprOrTuple()
	if p.tok().kind == tNewline {
		p.next()
		return &ExprStmt{X: lhs}
	}
	return p.assign(lhs)
}

// endLine consumes the NEWLINE that ends a simple statement.
func (p *parser) endLine() {
	if p.tok().kind != tNewline {
		p.errorExpected("the end of the line")
		return
	}
	p.next()
}

var augOps = map[string]bool{
	"+=": true, "-=": true, "*=": true, "/=": true, "//=": true, "%=": true,
	"**=": true, "|=": true, "&=": true, "^=": true, "<<=": true, ">>=": true, "@=": true,
}

// assign parses the rest of a statement that began with the expression lhs.
func (p *parser) assign(lhs Expr) Stmt {
	t := p.tok()
	if t.kind == tOp && augOps[t.text] {
		p.next()
		if tup, ok := lhs.(*TupleExpr); ok && !tup.Parens {
			p.errorf(lhs.Pos(), "an augmented assignment takes one target, not a tuple")
			return nil
		}
		s := &AugAssign{Target: lhs, OpPos: t.pos, Op: strings.TrimSuffix(t.text, "="), Value: p.exprOrTuple()}
		p.endLine()
		return s
	}
	s := &Assign{Target: lhs}
	if p.is(":") {
		colon := p.next()
		// the annotation's colon is spaced (`name : T`) when a blank
		// separates it from the target's last token
		prev := p.toks[p.i-2]
		s.Spaced = colon.pos.Line == prev.pos.Line && colon.pos.Col > prev.pos.Col+tokenWidth(prev)
		s.Type = p.expr()
	}
	if !p.is("=") {
		if s.Type == nil {
			p.errorExpected("'=', an augmented assignment or the end of the line")
			return nil
		}
		p.endLine()
		return s
	}
	p.next()
	s.Value = p.exprOrTuple()
	for p.is("=") {
		p.next()
		s.More = append(s.More, s.Value)
		s.Value = p.exprOrTuple()
	}
	if s.Type != nil && len(s.More) > 0 {
		p.errorf(lhs.Pos(), "an annotated assignment takes one target")
		return nil
	}
	p.endLine()
	return s
}

// adjacent reports whether token b starts right where token a ends.
func adjacent(a, b token) bool {
	return a.pos.Line == b.pos.Line && a.pos.Col+tokenWidth(a) == b.pos.Col
}

// tokenWidth is the width in bytes of a token on its line.
func tokenWidth(t token) int {
	switch t.kind {
	case tNewline, tIndent, tDedent, tEOF:
		return 0
	}
	if strings.IndexByte(t.text, '\n') >= 0 {
		return 1 << 30 // a token spanning lines: never "spaced"
	}
	return len(t.text)
}

// block parses `NEWLINE INDENT stmts DEDENT`, or a single simple statement
// on the same line as the colon.
func (p *parser) block() []Stmt {
	if p.tok().kind != tNewline {
		if p.tok().kind == tEOF {
			p.errorExpected("a block")
			return nil
		}
		s := p.stmt()
		if s == nil {
			return nil
		}
		return []Stmt{s}
	}
	p.next()
	if p.tok().kind != tIndent {
		p.errorExpected("an indented block")
		return nil
	}
	p.next()
	var stmts []Stmt
	for p.err == nil {
		if p.tok().kind == tDedent {
			p.next()
			break
		}
		if s := p.stmt(); s != nil {
			stmts = append(stmts, s)
		}
	}
	return stmts
}

func (p *parser) classDef() Stmt {
	pos := p.next().pos
	s := &ClassDef{ClassPos: pos}
	s.Name, _ = p.ident()
	if p.got("(") {
		s.Parens = true
		for !p.is(")") && p.err == nil {
			s.Bases = append(s.Bases, p.expr())
			if !p.got(",") {
				break
			}
		}
		p.want(")")
	}
	p.want(":")
	s.Body = p.block()
	return s
}

func (p *parser) funcDef() Stmt {
	pos := p.next().pos
	s := &FuncDef{DefPos: pos}
	s.Name, _ = p.ident()
	p.want("(")
	kwargOnly := false
	sawStar := false
	for !p.is(")") && p.err == nil {
		if p.is("*") && !sawStar {
			p.next()
			sawStar, kwargOnly = true, true
		} else {
			prm := &Param{KwargOnly: kwargOnly}
			prm.Name, prm.NamePos = p.ident()
			if p.got(":") {
				prm.Type = p.expr()
			}
			if p.got("=") {
				prm.Default = p.expr()
			}
			if n := len(s.Params); n > 0 && prm.NamePos.Line > s.Params[n-1].NamePos.Line {
				s.ParamsOnLines = true
			}
			s.Params = append(s.Params, prm)
		}
		if !p.got(",") {
			break
		}
	}
	p.want(")")
	if p.got("->") {
		s.Returns = p.expr()
	}
	p.want(":")
	s.Body = p.block()
	return s
}

// ifStmt parses the rest of an if or elif statement (its keyword consumed).
func (p *parser) ifStmt(pos Pos, elif bool) Stmt {
	s := &If{IfPos: pos, Elif: elif}
	s.Cond = p.expr()
	p.want(":")
	s.Body = p.block()
	if t := p.tok(); t.kind == tKeyword {
		switch t.text {
		case "else":
			p.next()
			p.want(":")
			s.Else = p.block()
			if s.Else == nil {
				s.Else = []Stmt{}
			}
		case "elif":
			p.next()
			if !p.enter() {
				return s
			}
			e := p.ifStmt(t.pos, true)
			p.leave()
			s.Else = []Stmt{e}
		}
	}
	return s
}

func (p *parser) forStmt() Stmt {
	pos := p.next().pos
	s := &For{ForPos: pos}
	s.Target = p.exprList(func() Expr { return p.binary(4) }, "in")
	p.want("in")
	s.Iter = p.exprList(p.expr, ":")
	p.want(":")
	s.Body = p.block()
	return s
}

// exprList parses `e, e, ...` up to the operator or keyword stop; more than
// one element (or a trailing comma) makes an unparenthesized TupleExpr.
func (p *parser) exprList(elem func() Expr, stop string) Expr {
	first := elem()
	if !p.is(",") {
		return first
	}
	tup := &TupleExpr{Lparen: first.Pos(), Elts: []Expr{first}}
	for p.got(",") {
		if p.is(stop) {
			tup.Trailing = true
			break
		}
		tup.Elts = append(tup.Elts, elem())
	}
	return tup
}

func (p *parser) withStmt() Stmt {
	pos := p.next().pos
	s := &With{WithPos: pos}
	for p.err == nil {
		item := &WithItem{X: p.expr()}
		if p.got("as") {
			name, npos := p.ident()
			item.Var = &Name{NamePos: npos, Name: name}
		}
		s.Items = append(s.Items, item)
		if !p.got(",") {
			break
		}
	}
	p.want(":")
	s.Body = p.block()
	return s
}

// ---- expressions

// binary operator precedences of TorchScript's lexer.cpp; unary ones below.
var binaryPrec = map[string]int{
	"if":  1,
	"and": 2, "or": 2,
	"in": 4, "not in": 4, "<": 4, ">": 4, "is": 4, "is not": 4, "==": 4, "<=": 4, ">=": 4, "!=": 4,
	"|": 5, "^": 6, "&": 7, "<<": 8, ">>": 8, "+": 9, "-": 9,
	"*": 10, "/": 10, "//": 10, "%": 10, "@": 10, "**": 11,
}

var unaryPrec = map[string]int{"not": 3, "~": 3, "-": 10, "*": 10}

// followsTuple: tokens after which a trailing comma ends a tuple.
func (p *parser) followsTuple() bool {
	t := p.tok()
	switch t.kind {
	case tNewline, tEOF:
		return true
	case tOp:
		return t.text == "=" || t.text == ")" || t.text == ":" || augOps[t.text]
	}
	return false
}

// exprOrTuple parses `e` or `e, e, ...` (an unparenthesized TupleExpr).
func (p *parser) exprOrTuple() Expr {
	first := p.expr()
	if !p.is(",") {
		return first
	}
	tup := &TupleExpr{Lparen: first.Pos(), Elts: []Expr{first}}
	for p.got(",") {
		if p.followsTuple() {
			tup.Trailing = true
			break
		}
		tup.Elts = append(tup.Elts, p.expr())
	}
	return tup
}

func (p *parser) expr() Expr { return p.binary(0) }

// binary parses the longest expression whose binary operators bind tighter
// than prec (top-down precedence parsing, as PyTorch's parser).
func (p *parser) binary(prec int) Expr {
	if !p.enter() {
		return &Name{NamePos: p.tok().pos}
	}
	defer p.leave()
	var x Expr
	t := p.tok()
	if up, ok := unaryPrec[t.text]; ok && (t.kind == tOp || t.kind == tKeyword) {
		p.next()
		sub := p.binary(up)
		if t.text == "*" {
			x = &Starred{StarPos: t.pos, X: sub}
		} else {
			x = &UnaryExpr{OpPos: t.pos, Op: t.text, X: sub}
		}
	} else {
		x = p.primary()
	}
	for p.err == nil {
		t := p.tok()
		if t.kind != tOp && t.kind != tKeyword {
			break
		}
		bp, ok := binaryPrec[t.text]
		if !ok || bp <= prec {
			break
		}
		compact := p.i > 0 && adjacent(p.toks[p.i-1], t) && p.i+1 < len(p.toks) && adjacent(t, p.toks[p.i+1])
		p.next()
		if t.text == "**" || t.text == "if" { // right associative
			bp--
		}
		if t.text == "if" {
			cond := p.expr()
			p.want("else")
			x = &CondExpr{Then: x, Cond: cond, Else: p.binary(bp)}
			continue
		}
		x = &BinaryExpr{X: x, OpPos: t.pos, Op: t.text, Y: p.binary(bp), Compact: compact}
	}
	return x
}

// primary parses an atom and its trailers (attributes, calls, subscripts).
func (p *parser) primary() Expr {
	x := p.atom()
	for p.err == nil {
		switch {
		case p.is("."):
			p.next()
			name, pos := p.ident()
			x = &Attribute{X: x, Name: name, NamePos: pos}
		case p.is("("):
			x = p.call(x)
		case p.is("["):
			x = p.subscript(x)
		default:
			return x
		}
	}
	return x
}

func (p *parser) atom() Expr {
	t := p.tok()
	switch t.kind {
	case tIdent:
		p.next()
		return &Name{NamePos: t.pos, Name: t.text}
	case tInt:
		p.next()
		return p.intLit(t)
	case tFloat:
		p.next()
		v, err := strconv.ParseFloat(t.text, 64)
		if err != nil && !isRangeErr(err) {
			p.errorf(t.pos, "bad float literal %s: %v", t.text, err)
		}
		return &FloatLit{ValuePos: t.pos, Raw: t.text, Value: v}
	case tImag:
		p.next()
		v, err := strconv.ParseFloat(strings.TrimSuffix(t.text, "j"), 64)
		if err != nil && !isRangeErr(err) {
			p.errorf(t.pos, "bad imaginary literal %s: %v", t.text, err)
		}
		return &ImagLit{ValuePos: t.pos, Raw: t.text, Value: v}
	case tString:
		s := &StringLit{ValuePos: t.pos}
		var b strings.Builder
		for p.tok().kind == tString {
			st := p.next()
			v, err := Unquote(st.text)
			if err != nil {
				p.errorf(st.pos, "%v", err)
				return s
			}
			s.Raws = append(s.Raws, st.text)
			b.WriteString(v)
		}
		s.Value = b.String()
		return s
	case tKeyword:
		switch t.text {
		case "True", "False":
			p.next()
			return &BoolLit{At: t.pos, Value: t.text == "True"}
		case "None":
			p.next()
			return &NoneLit{At: t.pos}
		case "NoneType":
			p.next()
			return &Name{NamePos: t.pos, Name: t.text}
		case "Ellipsis":
			p.next()
			return &Ellipsis{At: t.pos, Word: true}
		}
	case tOp:
		switch t.text {
		case "...":
			p.next()
			return &Ellipsis{At: t.pos}
		case "(":
			p.next()
			if p.is(")") {
				p.next()
				return &TupleExpr{Lparen: t.pos, Parens: true}
			}
			inner := p.exprOrTuple()
			p.want(")")
			if tup, ok := inner.(*TupleExpr); ok && !tup.Parens {
				tup.Parens = true
				tup.Lparen = t.pos
				return tup
			}
			return &ParenExpr{Lparen: t.pos, X: inner}
		case "[":
			return p.listExpr()
		case "{":
			return p.dictExpr()
		}
	}
	p.errorExpected("an expression")
	return &Name{NamePos: t.pos}
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func (p *parser) intLit(t token) Expr {
	text := t.text
	base := 10
	digits := text
	if len(text) > 2 && (text[1] == 'x' || text[1] == 'X') {
		base, digits = 16, text[2:]
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		p.errorf(t.pos, "integer literal %s does not fit in 64 bits", text)
	}
	return &IntLit{ValuePos: t.pos, Raw: text, Value: v}
}

// call parses the argument list of a call of fun.
func (p *parser) call(fun Expr) Expr {
	c := &Call{Fun: fun, Lparen: p.want("(")}
	for !p.is(")") && p.err == nil {
		if p.tok().kind == tIdent && p.peek().kind == tOp && p.peek().text == "=" {
			k := &Keyword{}
			k.Name, k.NamePos = p.ident()
			p.next()
			k.Value = p.expr()
			c.Keywords = append(c.Keywords, k)
		} else {
			if len(c.Keywords) > 0 {
				p.errorf(p.tok().pos, "positional argument follows keyword argument")
				return c
			}
			c.Args = append(c.Args, p.expr())
		}
		if !p.got(",") {
			break
		}
		if p.is(")") {
			c.Trailing = true
		}
	}
	p.want(")")
	return c
}

func (p *parser) subscript(x Expr) Expr {
	s := &Subscript{X: x, Lbrack: p.want("[")}
	for !p.is("]") && p.err == nil {
		s.Index = append(s.Index, p.sliceOrExpr())
		if !p.got(",") {
			break
		}
		if p.is("]") {
			s.Trailing = true
		}
	}
	if len(s.Index) == 0 && p.err == nil {
		p.errorExpected("an index")
	}
	p.want("]")
	return s
}

// sliceOrExpr parses an index: an expression or a slice lo:hi[:step].
func (p *parser) sliceOrExpr() Expr {
	at := p.tok().pos
	var lo Expr
	if !p.is(":") {
		lo = p.expr()
		at = lo.Pos()
	}
	if !p.got(":") {
		return lo
	}
	s := &Slice{At: at, Lo: lo}
	if !p.is(",") && !p.is("]") && !p.is(":") {
		s.Hi = p.expr()
	}
	if p.got(":") {
		s.StepColon = true
		if !p.is(",") && !p.is("]") {
			s.Step = p.expr()
		}
	}
	return s
}

func (p *parser) listExpr() Expr {
	l := &ListExpr{Lbrack: p.want("[")}
	for !p.is("]") && p.err == nil {
		e := p.expr()
		if p.is("for") && len(l.Elts) == 0 {
			p.next()
			c := &ListComp{Lbrack: l.Lbrack, Elt: e}
			c.Target = p.binary(4)
			p.want("in")
			c.Iter = p.expr()
			p.want("]")
			return c
		}
		l.Elts = append(l.Elts, e)
		if !p.got(",") {
			break
		}
		if p.is("]") {
			l.Trailing = true
		}
	}
	p.want("]")
	return l
}

func (p *parser) dictExpr() Expr {
	d := &DictExpr{Lbrace: p.want("{")}
	for !p.is("}") && p.err == nil {
		k := p.expr()
		p.want(":")
		v := p.expr()
		if p.is("for") && len(d.Keys) == 0 {
			p.next()
			c := &DictComp{Lbrace: d.Lbrace, Key: k, Value: v}
			c.Target = p.binary(4)
			p.want("in")
			c.Iter = p.expr()
			p.want("}")
			return c
		}
		d.Keys = append(d.Keys, k)
		d.Values = append(d.Values, v)
		if !p.got(",") {
			break
		}
		if p.is("}") {
			d.Trailing = true
		}
	}
	p.want("}")
	return d
}

// FloatString formats f as PyTorch prints a float constant (IValue's
// repr): an integral value below 1e10 as `3.` (`-0.` for negative zero),
// infinities and NaN as the names inf, -inf and nan that PyTorch's
// environment defines, anything else with 17 significant digits as C++'s
// stream writes it (`1.0000000000000001e-05`).
func FloatString(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	if math.Abs(f) < 1e10 && f == math.Trunc(f) {
		if f == 0 && math.Signbit(f) {
			return "-0."
		}
		return strconv.FormatInt(int64(f), 10) + "."
	}
	// C++'s %g with precision 17: exponent form when exp < -4 or >= 17
	s := strconv.FormatFloat(f, 'g', 17, 64)
	if i := strings.IndexAny(s, "e"); i >= 0 {
		mant, exp := s[:i], s[i+1:]
		if strings.Contains(mant, ".") {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		sign := exp[0]
		digits := strings.TrimLeft(exp[1:], "0")
		for len(digits) < 2 {
			digits = "0" + digits
		}
		return mant + "e" + string(sign) + digits
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
