package syntax

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Fprint writes node in the serializer's form: a *File, a statement (at
// indentation level 0) or an expression. Blocks are indented two spaces per
// level; literals are written as spelled in the source (Raw), or as
// PyTorch prints them when built by code (Quote, FloatString); parentheses
// are written where the tree has a ParenExpr and where precedence needs
// them. A file that PyTorch wrote prints back byte for byte (comments are
// not kept). A nil node, or a nil where the tree needs a node, is an error.
func Fprint(w io.Writer, node Node) error {
	pr := &printer{}
	switch n := node.(type) {
	case *File:
		if n == nil {
			return fmt.Errorf("syntax.Fprint: nil *File")
		}
		pr.stmts(n.Stmts, 0)
	case Stmt:
		pr.stmt(n, 0)
	case Expr:
		pr.expr(n, true)
	case nil:
		return fmt.Errorf("syntax.Fprint: nil node")
	default:
		return fmt.Errorf("syntax.Fprint: cannot print a %T on its own", node)
	}
	if pr.err != nil {
		return pr.err
	}
	_, err := w.Write(pr.buf.Bytes())
	return err
}

// Format returns the source of f in the serializer's form (see Fprint).
func Format(f *File) ([]byte, error) {
	var b bytes.Buffer
	if err := Fprint(&b, f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ExprString returns the source of e (see Fprint), or a placeholder naming
// the problem for a tree with nils in it. It suits error messages and type
// annotations: ExprString of a parsed `Dict[str, Tensor]` is that text.
func ExprString(e Expr) string {
	pr := &printer{}
	pr.expr(e, true)
	return pr.buf.String()
}

type printer struct {
	buf bytes.Buffer
	err error
}

func (pr *printer) ws(s string) { pr.buf.WriteString(s) }

func (pr *printer) fail(what string) {
	if pr.err == nil {
		pr.err = fmt.Errorf("syntax.Fprint: %s", what)
	}
	pr.ws("<nil>")
}

func (pr *printer) indent(level int) {
	for range level {
		pr.ws("  ")
	}
}

func (pr *printer) stmts(list []Stmt, level int) {
	for _, s := range list {
		pr.stmt(s, level)
	}
}

// block writes the statements of a block one level deeper; an empty block
// is `pass`.
func (pr *printer) block(list []Stmt, level int) {
	if len(list) == 0 {
		pr.indent(level + 1)
		pr.ws("pass\n")
		return
	}
	pr.stmts(list, level+1)
}

func (pr *printer) stmt(s Stmt, level int) {
	if isNilNode(s) {
		pr.indent(level)
		pr.fail("nil statement")
		pr.ws("\n")
		return
	}
	pr.indent(level)
	switch s := s.(type) {
	case *ClassDef:
		pr.ws("class ")
		pr.ws(s.Name)
		if s.Parens || len(s.Bases) > 0 {
			pr.ws("(")
			pr.exprs(s.Bases)
			pr.ws(")")
		}
		pr.ws(":\n")
		pr.block(s.Body, level)
	case *FuncDef:
		pr.ws("def ")
		pr.ws(s.Name)
		pr.ws("(")
		star := false
		for i, prm := range s.Params {
			if prm == nil {
				pr.fail("nil parameter")
				continue
			}
			sep := ", "
			if s.ParamsOnLines {
				sep = ",\n    "
			}
			if prm.KwargOnly && !star {
				if i > 0 {
					pr.ws(sep)
				}
				pr.ws("*")
				star = true
				pr.ws(sep)
			} else if i > 0 {
				pr.ws(sep)
			}
			pr.ws(prm.Name)
			if prm.Type != nil {
				pr.ws(": ")
				pr.expr(prm.Type, false)
			}
			if prm.Default != nil {
				pr.ws("=")
				pr.expr(prm.Default, false)
			}
		}
		pr.ws(")")
		if s.Returns != nil {
			pr.ws(" -> ")
			pr.expr(s.Returns, false)
		}
		pr.ws(":\n")
		pr.block(s.Body, level)
	case *Assign:
		pr.expr(s.Target, true)
		for _, t := range s.More {
			pr.ws(" = ")
			pr.expr(t, true)
		}
		if s.Type != nil {
			if s.Spaced {
				pr.ws(" : ")
			} else {
				pr.ws(": ")
			}
			pr.expr(s.Type, false)
		}
		if s.Value != nil {
			pr.ws(" = ")
			pr.expr(s.Value, true)
		} else if s.Type == nil {
			pr.fail("assignment with neither a value nor a type")
		}
		pr.ws("\n")
	case *AugAssign:
		pr.expr(s.Target, false)
		pr.ws(" ")
		pr.ws(s.Op)
		pr.ws("= ")
		pr.expr(s.Value, true)
		pr.ws("\n")
	case *ExprStmt:
		pr.expr(s.X, true)
		pr.ws("\n")
	case *If:
		pr.ifStmt(s, level)
	case *While:
		pr.ws("while ")
		pr.expr(s.Cond, false)
		pr.ws(":\n")
		pr.block(s.Body, level)
	case *For:
		pr.ws("for ")
		pr.expr(s.Target, true)
		pr.ws(" in ")
		pr.expr(s.Iter, true)
		pr.ws(":\n")
		pr.block(s.Body, level)
	case *With:
		pr.ws("with ")
		for i, it := range s.Items {
			if i > 0 {
				pr.ws(", ")
			}
			if it == nil {
				pr.fail("nil with item")
				continue
			}
			pr.expr(it.X, false)
			if it.Var != nil {
				pr.ws(" as ")
				pr.expr(it.Var, false)
			}
		}
		pr.ws(":\n")
		pr.block(s.Body, level)
	case *Return:
		pr.ws("return")
		if s.Value != nil {
			pr.ws(" ")
			pr.expr(s.Value, true)
		}
		pr.ws("\n")
	case *Raise:
		pr.ws("raise")
		if s.Exc != nil {
			pr.ws(" ")
			pr.expr(s.Exc, false)
		}
		pr.ws("\n")
	case *Assert:
		pr.ws("assert ")
		pr.expr(s.Test, false)
		if s.Msg != nil {
			pr.ws(", ")
			pr.expr(s.Msg, false)
		}
		pr.ws("\n")
	case *Delete:
		pr.ws("del ")
		pr.exprs(s.Targets)
		pr.ws("\n")
	case *Pass:
		pr.ws("pass\n")
	case *Break:
		pr.ws("break\n")
	case *Continue:
		pr.ws("continue\n")
	case *Import:
		pr.ws("import ")
		pr.ws(s.Name)
		pr.ws("\n")
	case *Global:
		pr.ws("global ")
		pr.ws(strings.Join(s.Names, ", "))
		pr.ws("\n")
	default:
		pr.fail(fmt.Sprintf("unknown statement %T", s))
		pr.ws("\n")
	}
}

func (pr *printer) ifStmt(s *If, level int) {
	if s.Elif {
		pr.ws("elif ")
	} else {
		pr.ws("if ")
	}
	pr.expr(s.Cond, false)
	pr.ws(":\n")
	pr.block(s.Body, level)
	if s.Else == nil {
		return
	}
	if len(s.Else) == 1 {
		if e, ok := s.Else[0].(*If); ok && e != nil && e.Elif {
			pr.indent(level)
			pr.ifStmt(e, level)
			return
		}
	}
	pr.indent(level)
	pr.ws("else:\n")
	pr.block(s.Else, level)
}

func (pr *printer) exprs(list []Expr) {
	for i, e := range list {
		if i > 0 {
			pr.ws(", ")
		}
		pr.expr(e, false)
	}
}

// isNilNode reports whether n is nil or a typed nil pointer.
func isNilNode(n Node) bool {
	if n == nil {
		return true
	}
	switch n := n.(type) {
	case *ClassDef:
		return n == nil
	case *FuncDef:
		return n == nil
	case *Assign:
		return n == nil
	case *AugAssign:
		return n == nil
	case *ExprStmt:
		return n == nil
	case *If:
		return n == nil
	case *While:
		return n == nil
	case *For:
		return n == nil
	case *With:
		return n == nil
	case *Return:
		return n == nil
	case *Raise:
		return n == nil
	case *Assert:
		return n == nil
	case *Delete:
		return n == nil
	case *Pass:
		return n == nil
	case *Break:
		return n == nil
	case *Continue:
		return n == nil
	case *Import:
		return n == nil
	case *Global:
		return n == nil
	case *Name:
		return n == nil
	case *IntLit:
		return n == nil
	case *FloatLit:
		return n == nil
	case *ImagLit:
		return n == nil
	case *StringLit:
		return n == nil
	case *NoneLit:
		return n == nil
	case *BoolLit:
		return n == nil
	case *Ellipsis:
		return n == nil
	case *Attribute:
		return n == nil
	case *Call:
		return n == nil
	case *Subscript:
		return n == nil
	case *Slice:
		return n == nil
	case *TupleExpr:
		return n == nil
	case *ListExpr:
		return n == nil
	case *DictExpr:
		return n == nil
	case *ListComp:
		return n == nil
	case *DictComp:
		return n == nil
	case *UnaryExpr:
		return n == nil
	case *BinaryExpr:
		return n == nil
	case *CondExpr:
		return n == nil
	case *ParenExpr:
		return n == nil
	case *Starred:
		return n == nil
	}
	return false
}

// precedence of an expression as an operand: atoms bind tightest.
const atomPrec = 100

func exprPrec(e Expr) int {
	switch e := e.(type) {
	case *CondExpr:
		return 1
	case *BinaryExpr:
		if p, ok := binaryPrec[e.Op]; ok {
			return p
		}
		return 0
	case *UnaryExpr:
		if p, ok := unaryPrec[e.Op]; ok {
			return p
		}
		return 0
	case *Starred:
		return unaryPrec["*"]
	case *TupleExpr:
		if !e.Parens {
			return 0
		}
	}
	return atomPrec
}

// operand writes e, parenthesized when its precedence is below min.
func (pr *printer) operand(e Expr, min int) {
	if !isNilNode(e) && exprPrec(e) < min {
		pr.ws("(")
		pr.expr(e, false)
		pr.ws(")")
		return
	}
	pr.expr(e, false)
}

// expr writes e; top allows an unparenthesized tuple (statement level).
func (pr *printer) expr(e Expr, top bool) {
	if isNilNode(e) {
		pr.fail("nil expression")
		return
	}
	switch e := e.(type) {
	case *Name:
		pr.ws(e.Name)
	case *IntLit:
		if e.Raw != "" {
			pr.ws(e.Raw)
		} else {
			pr.ws(strconv.FormatUint(e.Value, 10))
		}
	case *FloatLit:
		if e.Raw != "" {
			pr.ws(e.Raw)
		} else {
			pr.ws(FloatString(e.Value))
		}
	case *ImagLit:
		if e.Raw != "" {
			pr.ws(e.Raw)
		} else {
			pr.ws(FloatString(e.Value) + "j")
		}
	case *StringLit:
		if len(e.Raws) > 0 {
			pr.ws(strings.Join(e.Raws, " "))
		} else {
			pr.ws(Quote(e.Value))
		}
	case *NoneLit:
		pr.ws("None")
	case *BoolLit:
		if e.Value {
			pr.ws("True")
		} else {
			pr.ws("False")
		}
	case *Ellipsis:
		if e.Word {
			pr.ws("Ellipsis")
		} else {
			pr.ws("...")
		}
	case *Attribute:
		if _, ok := e.X.(*IntLit); ok {
			// 4.name would lex as the float 4. and a name: (4).name,
			// as Python prints it
			pr.ws("(")
			pr.expr(e.X, false)
			pr.ws(")")
		} else {
			pr.operand(e.X, atomPrec)
		}
		pr.ws(".")
		pr.ws(e.Name)
	case *Call:
		pr.operand(e.Fun, atomPrec)
		pr.ws("(")
		pr.exprs(e.Args)
		for i, k := range e.Keywords {
			if i > 0 || len(e.Args) > 0 {
				pr.ws(", ")
			}
			if k == nil {
				pr.fail("nil keyword argument")
				continue
			}
			pr.ws(k.Name)
			pr.ws("=")
			pr.expr(k.Value, false)
		}
		if e.Trailing && len(e.Args)+len(e.Keywords) > 0 {
			pr.ws(", ")
		}
		pr.ws(")")
	case *Subscript:
		pr.operand(e.X, atomPrec)
		pr.ws("[")
		pr.exprs(e.Index)
		if e.Trailing && len(e.Index) > 0 {
			pr.ws(", ")
		}
		pr.ws("]")
	case *Slice:
		if e.Lo != nil {
			pr.expr(e.Lo, false)
		}
		pr.ws(":")
		if e.Hi != nil {
			pr.expr(e.Hi, false)
		}
		if e.StepColon || e.Step != nil {
			pr.ws(":")
			if e.Step != nil {
				pr.expr(e.Step, false)
			}
		}
	case *TupleExpr:
		parens := e.Parens || !top || len(e.Elts) == 0
		if parens {
			pr.ws("(")
		}
		pr.exprs(e.Elts)
		switch {
		case len(e.Elts) == 1:
			pr.ws(",")
		case e.Trailing && len(e.Elts) > 1:
			if parens {
				pr.ws(", ")
			} else {
				pr.ws(",")
			}
		}
		if parens {
			pr.ws(")")
		}
	case *ListExpr:
		pr.ws("[")
		pr.exprs(e.Elts)
		if e.Trailing && len(e.Elts) > 0 {
			pr.ws(", ")
		}
		pr.ws("]")
	case *DictExpr:
		if len(e.Keys) != len(e.Values) {
			pr.fail("dict with unequal numbers of keys and values")
			return
		}
		pr.ws("{")
		for i := range e.Keys {
			if i > 0 {
				pr.ws(", ")
			}
			pr.expr(e.Keys[i], false)
			pr.ws(": ")
			pr.expr(e.Values[i], false)
		}
		if e.Trailing && len(e.Keys) > 0 {
			pr.ws(", ")
		}
		pr.ws("}")
	case *ListComp:
		pr.ws("[")
		pr.operand(e.Elt, 1)
		pr.ws(" for ")
		pr.operand(e.Target, 5)
		pr.ws(" in ")
		pr.operand(e.Iter, 1)
		pr.ws("]")
	case *DictComp:
		pr.ws("{")
		pr.expr(e.Key, false)
		pr.ws(": ")
		pr.operand(e.Value, 1)
		pr.ws(" for ")
		pr.operand(e.Target, 5)
		pr.ws(" in ")
		pr.operand(e.Iter, 1)
		pr.ws("}")
	case *UnaryExpr:
		pr.ws(e.Op)
		if e.Op == "not" {
			pr.ws(" ")
		}
		pr.operand(e.X, unaryPrec[e.Op])
	case *BinaryExpr:
		bp, ok := binaryPrec[e.Op]
		if !ok || e.Op == "if" {
			pr.fail(fmt.Sprintf("unknown binary operator %q", e.Op))
			return
		}
		left, right := bp, bp+1
		if e.Op == "**" {
			left, right = bp+1, bp
		}
		// a prefix operator on the right needs no parentheses when it binds
		// at least as tightly as this operator (`a * -b`)
		if u, ok := e.Y.(*UnaryExpr); ok && u != nil && unaryPrec[u.Op] >= bp {
			right = 0
		}
		if st, ok := e.Y.(*Starred); ok && st != nil && unaryPrec["*"] >= bp {
			right = 0
		}
		pr.operand(e.X, left)
		if e.Compact {
			pr.ws(e.Op)
		} else {
			pr.ws(" ")
			pr.ws(e.Op)
			pr.ws(" ")
		}
		pr.operand(e.Y, right)
	case *CondExpr:
		pr.operand(e.Then, 2)
		pr.ws(" if ")
		pr.operand(e.Cond, 1)
		pr.ws(" else ")
		pr.operand(e.Else, 1)
	case *ParenExpr:
		pr.ws("(")
		pr.expr(e.X, true)
		pr.ws(")")
	case *Starred:
		pr.ws("*")
		pr.operand(e.X, unaryPrec["*"])
	default:
		pr.fail(fmt.Sprintf("unknown expression %T", e))
	}
}
