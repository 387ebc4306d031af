package syntax

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sexpr writes an expression as a fully parenthesized prefix form, so that
// tests state the tree they expect by hand.
func sexpr(e Expr) string {
	switch e := e.(type) {
	case *Name:
		return e.Name
	case *IntLit:
		return fmt.Sprintf("%d", e.Value)
	case *FloatLit:
		return fmt.Sprintf("%gf", e.Value)
	case *ImagLit:
		return fmt.Sprintf("%gj", e.Value)
	case *StringLit:
		return fmt.Sprintf("%q", e.Value)
	case *NoneLit:
		return "None"
	case *BoolLit:
		return fmt.Sprint(e.Value)
	case *Ellipsis:
		return "..."
	case *Attribute:
		return "(. " + sexpr(e.X) + " " + e.Name + ")"
	case *Call:
		parts := []string{"call", sexpr(e.Fun)}
		for _, a := range e.Args {
			parts = append(parts, sexpr(a))
		}
		for _, k := range e.Keywords {
			parts = append(parts, k.Name+"="+sexpr(k.Value))
		}
		return "(" + strings.Join(parts, " ") + ")"
	case *Subscript:
		parts := []string{"index", sexpr(e.X)}
		for _, a := range e.Index {
			parts = append(parts, sexpr(a))
		}
		return "(" + strings.Join(parts, " ") + ")"
	case *Slice:
		f := func(x Expr) string {
			if x == nil {
				return "_"
			}
			return sexpr(x)
		}
		return "(slice " + f(e.Lo) + " " + f(e.Hi) + " " + f(e.Step) + ")"
	case *TupleExpr:
		return "(tuple" + list(e.Elts) + ")"
	case *ListExpr:
		return "(list" + list(e.Elts) + ")"
	case *DictExpr:
		s := "(dict"
		for i := range e.Keys {
			s += " " + sexpr(e.Keys[i]) + ":" + sexpr(e.Values[i])
		}
		return s + ")"
	case *ListComp:
		return "(listcomp " + sexpr(e.Elt) + " " + sexpr(e.Target) + " " + sexpr(e.Iter) + ")"
	case *DictComp:
		return "(dictcomp " + sexpr(e.Key) + " " + sexpr(e.Value) + " " + sexpr(e.Target) + " " + sexpr(e.Iter) + ")"
	case *UnaryExpr:
		return "(" + e.Op + " " + sexpr(e.X) + ")"
	case *BinaryExpr:
		return "(" + e.Op + " " + sexpr(e.X) + " " + sexpr(e.Y) + ")"
	case *CondExpr:
		return "(if " + sexpr(e.Cond) + " " + sexpr(e.Then) + " " + sexpr(e.Else) + ")"
	case *ParenExpr:
		return "(paren " + sexpr(e.X) + ")"
	case *Starred:
		return "(* " + sexpr(e.X) + ")"
	}
	return fmt.Sprintf("<%T>", e)
}

func list(es []Expr) string {
	s := ""
	for _, e := range es {
		s += " " + sexpr(e)
	}
	return s
}

// TestParseExpr checks the trees of expressions: TorchScript's precedence
// table (torch/csrc/jit/frontend/lexer.cpp: and/or at one level, `not` and
// `~` at 3, comparisons at 4 without chaining, unary minus at 10, ** right
// associative) and the forms PyTorch's printer writes.
func TestParseExpr(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a + b * c", "(+ a (* b c))"},
		{"a - b - c", "(- (- a b) c)"},
		{"a ** b ** c", "(** a (** b c))"},
		{"-x ** 2", "(- (** x 2))"},
		{"-a * b", "(* (- a) b)"},
		{"a * -b", "(* a (- b))"},
		{"a or b and c", "(and (or a b) c)"},
		{"a and b or c", "(or (and a b) c)"},
		{"not a == b", "(not (== a b))"},
		{"~a + b", "(~ (+ a b))"},
		{"a < b < c", "(< (< a b) c)"},
		{"a is not None", "(is not a None)"},
		{"a not in b", "(not in a b)"},
		{"a is b", "(is a b)"},
		{"a in b", "(in a b)"},
		{"a | b ^ c & d << e + f", "(| a (^ b (& c (<< d (+ e f)))))"},
		{"a // b % c @ d / e", "(/ (@ (% (// a b) c) d) e)"},
		{"a if c else b", "(if c a b)"},
		{"a if c else b if d else e", "(if c a (if d b e))"},
		{"x[0:2:1]", "(index x (slice 0 2 1))"},
		{"x[..., None]", "(index x ... None)"},
		{"x[:, 1]", "(index x (slice _ _ _) 1)"},
		{"x[::2]", "(index x (slice _ _ 2))"},
		{"x[1:]", "(index x (slice 1 _ _))"},
		{"Tuple[()]", "(index Tuple (tuple))"},
		{"Dict[str, List[Tensor]]", "(index Dict str (index List Tensor))"},
		{"Optional[__torch__.foo.Bar]", "(index Optional (. (. __torch__ foo) Bar))"},
		{"(lin).forward(x, )", "(call (. (paren lin) forward) x)"},
		{"torch.ones([2, 3], dtype=7, layout=None)", "(call (. torch ones) (list 2 3) dtype=7 layout=None)"},
		{"ops.prim.unchecked_cast(x)", "(call (. (. ops prim) unchecked_cast) x)"},
		{"annotate(List[Tensor], [])", "(call annotate (index List Tensor) (list))"},
		{"(inp)[0]", "(index (paren inp) 0)"},
		{"(torch.mul(x, 2),)", "(tuple (call (. torch mul) x 2))"},
		{"(a, (b, c))", "(tuple a (tuple b c))"},
		{"{\"a\": 1, \"b\": -inf}", "(dict \"a\":1 \"b\":(- inf))"},
		{"[1.5-2.j, 0.+2.5j]", "(list (- 1.5f 2j) (+ 0f 2.5j))"},
		{"[j * j for j in range(n)]", "(listcomp (* j j) j (call range n))"},
		{"{k: v for k in d}", "(dictcomp k v k d)"},
		{"9223372036854775807", "9223372036854775807"},
		{"-9223372036854775808", "(- 9223372036854775808)"},
		{"0x10", "16"},
		{"1e-05", "1e-05f"},
		{"1.", "1f"},
		{".5", "0.5f"},
		{"1.0000000000000001e-05", "1e-05f"},
		{"\"a\" 'b'", "\"ab\""},
		{"*args", "(* args)"},
		{"a, b", "(tuple a b)"},
		{"Ellipsis", "..."},
		{"NoneType", "NoneType"},
		{"f(\n  x,\n  y)", "(call f x y)"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e, err := ParseExpr("e.py", []byte(tt.src))
			require.NoError(t, err)
			assert.Equal(t, tt.want, sexpr(e))
		})
	}
}

// TestUnquote checks every escape of PyTorch's printer (c10's
// printQuotedString) and the ones Python adds.
func TestUnquote(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`"plain"`, "plain"},
		{`'single'`, "single"},
		{`"tab\there\nnew \'single\' \"double\" back\\slash \a\b\f\v\r \001\177"`,
			"tab\there\nnew 'single' \"double\" back\\slash \a\b\f\v\r \x01\x7f"},
		{`"\0"`, "\x00"},
		{`"\12x"`, "\nx"},
		{`"\x41\u00e9\U0001F600"`, "Aé😀"},
		{`"""multi
line"""`, "multi\nline"},
		{`'''it's'''`, "it's"},
		{"\"a\\\nb\"", "a\nb"},
	}
	for _, tt := range tests {
		got, err := Unquote(tt.raw)
		require.NoError(t, err, tt.raw)
		assert.Equal(t, tt.want, got, tt.raw)
	}
	for _, bad := range []string{`"\q"`, `"\x4"`, `"\400"`, `"\u12"`, `"abc`, `x`, `"\`, `"\udfff"`} {
		_, err := Unquote(bad)
		assert.Error(t, err, bad)
	}
}

// TestQuote checks Quote against strings PyTorch printed (the Strings model
// of testdata/make_corpus.py, printed by PyTorch 2.6 into
// testdata/torch-2.6/strings/__torch__.py).
func TestQuote(t *testing.T) {
	got := Quote("tab\there\nnew 'single' \"double\" back\\slash \a\b\f\v\r \x01\x7f")
	assert.Equal(t, `"tab\there\nnew \'single\' \"double\" back\\slash \a\b\f\v\r \001\177"`, got)
	for _, s := range []string{"", "a", "\x00\xff", "é", "\\'\""} {
		back, err := Unquote(Quote(s))
		require.NoError(t, err)
		assert.Equal(t, s, back)
	}
}

// TestFloatString checks FloatString against constants PyTorch printed
// (testdata/torch-2.6/control: 1e-05, 1e20, inf, 2.0, 0.25; and IValue's
// repr rules for -0.0 and 1e10).
func TestFloatString(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{1e-05, "1.0000000000000001e-05"},
		{1e20, "1e+20"},
		{2, "2."},
		{0.25, "0.25"},
		{-0.5, "-0.5"},
		{0.1, "0.10000000000000001"},
		{1e10, "10000000000"},
		{-3, "-3."},
		{1.5, "1.5"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, FloatString(tt.f), "%v", tt.f)
	}
}

// TestParseStatements checks the statement forms and their fields on a
// hand-written file that uses each.
func TestParseStatements(t *testing.T) {
	src := `op_version_set = 1
import __torch__.torch.nn
class M(Module):
  __parameters__ = ["weight", ]
  __annotations__ = []
  __annotations__["0"] = __torch__.L
  training : bool
  k : Final[int] = 3
  def forward(self: __torch__.M,
    x: Tensor,
    n: int=2) -> Tuple[Tensor, int]:
    _3, _4 = False, n
    q, k, v, = _8
    self.x = x
    y: Optional[int] = None
    a = b = 1
    n += 1
    if c:
      pass
    elif d:
      return x
    else:
      raise Exception("boom")
    while w:
      break
    for i in range(n):
      continue
    for a, b in xs, ys:
      del a, b
    with g as h:
      assert h, "msg"
    global z
    return (x, n)
class I(Interface):
  def f(self, x: Tensor, *, k: int) -> Tensor:
    pass
`
	f, err := Parse("m.py", []byte(src))
	require.NoError(t, err)
	require.Len(t, f.Stmts, 4)
	assert.Equal(t, "(= op_version_set 1)", stmtS(f.Stmts[0]))
	assert.Equal(t, "import __torch__.torch.nn", stmtS(f.Stmts[1]))
	c := f.Stmts[2].(*ClassDef)
	assert.Equal(t, "M", c.Name)
	assert.Equal(t, "Module", sexpr(c.Bases[0]))
	var got []string
	for _, s := range c.Body {
		got = append(got, stmtS(s))
	}
	assert.Equal(t, []string{
		`(= __parameters__ (list "weight"))`,
		`(= __annotations__ (list))`,
		`(= (index __annotations__ "0") (. __torch__ L))`,
		`(: training bool)`,
		`(: k (index Final int) 3)`,
		`def forward`,
	}, got)
	fn := c.Body[5].(*FuncDef)
	assert.True(t, fn.ParamsOnLines)
	require.Len(t, fn.Params, 3)
	assert.Equal(t, "self", fn.Params[0].Name)
	assert.Equal(t, "(. __torch__ M)", sexpr(fn.Params[0].Type))
	assert.Equal(t, "2", sexpr(fn.Params[2].Default))
	assert.Equal(t, Pos{11, 5}, fn.Params[2].Pos())
	assert.Equal(t, "(index Tuple Tensor int)", sexpr(fn.Returns))
	got = nil
	for _, s := range fn.Body {
		got = append(got, stmtS(s))
	}
	assert.Equal(t, []string{
		"(= (tuple _3 _4) (tuple false n))",
		"(= (tuple q k v) _8)",
		"(= (. self x) x)",
		"(: y (index Optional int) None)",
		"(= a b 1)",
		"(+= n 1)",
		"if c [pass] elif d [(return x)] else [(raise (call Exception \"boom\"))]",
		"while w [break]",
		"for i (call range n) [continue]",
		"for (tuple a b) (tuple xs ys) [(del a b)]",
		"with g h [(assert h \"msg\")]",
		"global z",
		"(return (tuple x n))",
	}, got)
	ifs := fn.Body[6].(*If)
	assert.True(t, ifs.Else[0].(*If).Elif)
	assert.Equal(t, Pos{18, 5}, ifs.Pos())
	assert.Equal(t, Pos{20, 5}, ifs.Else[0].Pos())
	assert.True(t, c.Body[3].(*Assign).Spaced)
	assert.False(t, fn.Body[3].(*Assign).Spaced)
	iface := f.Stmts[3].(*ClassDef)
	m := iface.Body[0].(*FuncDef)
	assert.False(t, m.ParamsOnLines)
	assert.Nil(t, m.Params[0].Type)
	assert.False(t, m.Params[1].KwargOnly)
	assert.True(t, m.Params[2].KwargOnly)
	out, err := Format(f)
	require.NoError(t, err)
	assert.Equal(t, src, string(out))
}

// stmtS is a short prefix form of a statement for TestParseStatements.
func stmtS(s Stmt) string {
	block := func(b []Stmt) string {
		var p []string
		for _, s := range b {
			p = append(p, stmtS(s))
		}
		return "[" + strings.Join(p, " ") + "]"
	}
	switch s := s.(type) {
	case *Assign:
		if s.Type != nil {
			if s.Value == nil {
				return "(: " + sexpr(s.Target) + " " + sexpr(s.Type) + ")"
			}
			return "(: " + sexpr(s.Target) + " " + sexpr(s.Type) + " " + sexpr(s.Value) + ")"
		}
		r := "(= " + sexpr(s.Target)
		for _, m := range s.More {
			r += " " + sexpr(m)
		}
		return r + " " + sexpr(s.Value) + ")"
	case *AugAssign:
		return "(" + s.Op + "= " + sexpr(s.Target) + " " + sexpr(s.Value) + ")"
	case *Import:
		return "import " + s.Name
	case *Global:
		return "global " + strings.Join(s.Names, " ")
	case *FuncDef:
		return "def " + s.Name
	case *If:
		r := "if " + sexpr(s.Cond) + " " + block(s.Body)
		if len(s.Else) == 1 {
			if e, ok := s.Else[0].(*If); ok && e.Elif {
				return r + " el" + stmtS(e)
			}
		}
		if s.Else != nil {
			r += " else " + block(s.Else)
		}
		return r
	case *While:
		return "while " + sexpr(s.Cond) + " " + block(s.Body)
	case *For:
		return "for " + sexpr(s.Target) + " " + sexpr(s.Iter) + " " + block(s.Body)
	case *With:
		return "with " + sexpr(s.Items[0].X) + " " + sexpr(s.Items[0].Var) + " " + block(s.Body)
	case *Return:
		return "(return " + sexpr(s.Value) + ")"
	case *Raise:
		return "(raise " + sexpr(s.Exc) + ")"
	case *Assert:
		return "(assert " + sexpr(s.Test) + " " + sexpr(s.Msg) + ")"
	case *Delete:
		return "(del" + list(s.Targets) + ")"
	case *Pass:
		return "pass"
	case *Break:
		return "break"
	case *Continue:
		return "continue"
	case *ExprStmt:
		return sexpr(s.X)
	}
	return fmt.Sprintf("<%T>", s)
}

// TestParseErrors checks that bad input gives an error naming
// file:line:col and what was expected or wrong.
func TestParseErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"x = 1 +\n", `bad.py:1:8: expected an expression, found newline`},
		{"def f(x):\n  return (x\n", `bad.py:2:10: '(' is never closed`},
		{"class A:\n  x : int\n y : int\n", `bad.py:3:2: unindent to column 2 matches no enclosing block's indentation`},
		{"if x:\nreturn 1\n", `bad.py:2:1: expected an indented block, found keyword "return"`},
		{"x = \"abc\n", `bad.py:1:5: string literal not terminated before the end of the line`},
		{"x = '''abc", `bad.py:1:5: string literal not terminated`},
		{"x = \"\\q\"\n", `bad.py:1:5: unknown escape \q`},
		{"x = 18446744073709551616\n", `bad.py:1:5: integer literal 18446744073709551616 does not fit in 64 bits`},
		{"a, b += 1\n", `bad.py:1:1: an augmented assignment takes one target, not a tuple`},
		{"def f(x: int = ) -> int:\n  pass\n", `bad.py:1:16: expected an expression, found ')'`},
		{"x = $\n", `bad.py:1:5: unexpected character '$'`},
		{"x = é\n", `bad.py:1:5: unexpected character 'é'`},
		{"x = a b\n", `bad.py:1:7: expected the end of the line, found identifier "b"`},
		{"a b\n", `bad.py:1:3: expected '=', an augmented assignment or the end of the line, found identifier "b"`},
		{"x = f(a,\n  b\n", `bad.py:1:6: '(' is never closed`},
		{"  x = 1\ny = 2\n", `bad.py:2:1: unindent to column 1 matches no enclosing block's indentation`},
		{"x = 1\n  y = 2\n", `bad.py:2:3: unexpected indent`},
		{"def f(:\n", `bad.py:1:7: expected an identifier, found ':'`},
		{"x = f(a=1, 2)\n", `bad.py:1:12: positional argument follows keyword argument`},
		{"x = y[]\n", `bad.py:1:7: expected an index, found ']'`},
		{"class A(B:\n", `bad.py:1:10: expected ')', found ':'`},
		{"for x y in z:\n  pass\n", `bad.py:1:7: expected 'in', found identifier "y"`},
		{"x = (1, 2]\n", `bad.py:1:10: expected ')', found ']'`},
		{"x = 1 if y\n", `bad.py:1:11: expected 'else', found newline`},
		{"a = b : int = 1\n", `bad.py:1:7: expected the end of the line, found ':'`},
		{"x = \\ y\n", `bad.py:1:5: unexpected '\' (a backslash continues a line only right before the newline)`},
		{"x = " + strings.Repeat("(", 600) + "\n", `bad.py:1:505: brackets nested more than 500 deep`},
		{"x = " + strings.Repeat("-", 600) + "1\n", `bad.py:1:504: expression or block nested more than 500 deep`},
		{"else:\n  pass\n", `bad.py:1:1: expected an expression, found keyword "else"`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			f, err := Parse("bad.py", []byte(tt.src))
			require.Error(t, err)
			assert.Nil(t, f)
			var se *Error
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

// TestParseExprErrors checks ParseExpr's errors.
func TestParseExprErrors(t *testing.T) {
	_, err := ParseExpr("t", []byte("List[int] x"))
	assert.EqualError(t, err, `t:1:11: expected the end of the expression, found identifier "x"`)
	_, err = ParseExpr("", []byte(""))
	assert.EqualError(t, err, `<input>:1:1: expected an expression, found end of file`)
}

// TestPrintBuilt prints trees built by code: parentheses where precedence
// needs them, literals as PyTorch prints them, nils as errors.
func TestPrintBuilt(t *testing.T) {
	n := func(s string) Expr { return &Name{Name: s} }
	tests := []struct {
		e    Expr
		want string
	}{
		{&BinaryExpr{Op: "*", X: &BinaryExpr{Op: "+", X: n("a"), Y: n("b")}, Y: n("c")}, "(a + b) * c"},
		{&BinaryExpr{Op: "-", X: n("a"), Y: &BinaryExpr{Op: "-", X: n("b"), Y: n("c")}}, "a - (b - c)"},
		{&BinaryExpr{Op: "**", X: &BinaryExpr{Op: "**", X: n("a"), Y: n("b")}, Y: n("c")}, "(a ** b) ** c"},
		{&Attribute{X: &UnaryExpr{Op: "-", X: n("a")}, Name: "b"}, "(-a).b"},
		{&UnaryExpr{Op: "not", X: &BinaryExpr{Op: "or", X: n("a"), Y: n("b")}}, "not (a or b)"},
		{&Call{Fun: n("f"), Args: []Expr{&TupleExpr{Elts: []Expr{n("a"), n("b")}}}}, "f((a, b))"},
		{&TupleExpr{Elts: []Expr{n("a")}}, "a,"},
		{&FloatLit{Value: 3}, "3."},
		{&FloatLit{Value: 1e-5}, "1.0000000000000001e-05"},
		{&StringLit{Value: "a\"b\n"}, `"a\"b\n"`},
		{&IntLit{Value: 7}, "7"},
		{&Subscript{X: n("x"), Index: []Expr{&Slice{Lo: &IntLit{Value: 1}}, &Ellipsis{}}}, "x[1:, ...]"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, ExprString(tt.e))
	}
	var b strings.Builder
	assert.Error(t, Fprint(&b, &Assign{Target: n("x")}))
	assert.Error(t, Fprint(&b, &Call{Fun: nil}))
	assert.Error(t, Fprint(&b, nil))
	assert.Error(t, Fprint(&b, (*File)(nil)))
	assert.Error(t, Fprint(&b, &If{Cond: n("c"), Body: []Stmt{nil}}))
	assert.Error(t, Fprint(&b, &BinaryExpr{Op: "$", X: n("a"), Y: n("b")}))
	var out strings.Builder
	require.NoError(t, Fprint(&out, &If{Cond: n("c")}))
	assert.Equal(t, "if c:\n  pass\n", out.String())
}

// TestPosOffset checks Pos.Offset against the byte offsets of tokens in a
// source, counted by hand.
func TestPosOffset(t *testing.T) {
	src := []byte("class A(Module):\n  def f(self) -> int:\n    return 1\n")
	f, err := Parse("a.py", src)
	require.NoError(t, err)
	fn := f.Stmts[0].(*ClassDef).Body[0].(*FuncDef)
	ret := fn.Body[0].(*Return)
	assert.Equal(t, 0, f.Stmts[0].Pos().Offset(src))
	assert.Equal(t, 19, fn.Pos().Offset(src))
	assert.Equal(t, 43, ret.Pos().Offset(src)) // 17 + 22 bytes of lines before, 4 of indent
	assert.Equal(t, 50, ret.Value.Pos().Offset(src))
	assert.Equal(t, -1, Pos{}.Offset(src))
	assert.Equal(t, -1, Pos{Line: 9, Col: 1}.Offset(src))
	assert.Equal(t, -1, Pos{Line: 1, Col: 40}.Offset(src))
}
