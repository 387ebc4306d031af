package syntax

import (
	"bytes"
	"fmt"
)

// Pos is a position in a source file: Line and Col count from 1, Col in
// bytes. The zero Pos means "no position" (a node built by code).
type Pos struct {
	Line, Col int
}

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Offset returns the byte offset of p in src, the source it was parsed
// from (the offsets the source ranges of an archive's debug_pkl records
// use), or -1 when p is not a position in src.
func (p Pos) Offset(src []byte) int {
	if p.Line < 1 || p.Col < 1 {
		return -1
	}
	off := 0
	for line := 1; line < p.Line; line++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	end := bytes.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src) - off
	}
	if p.Col-1 > end {
		return -1
	}
	return off + p.Col - 1
}

// String formats p as line:col.
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Node is any node of the tree; Pos is where its first token starts.
type Node interface {
	Pos() Pos
}

// Expr is an expression node. Type annotations are expressions too
// (Optional[Tensor] is a Subscript of the Name Optional).
type Expr interface {
	Node
	exprNode()
}

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// File is one parsed source file: a code/ file of an archive (classes,
// functions, op_version_set and import lines) or a method's `.code`.
type File struct {
	Name  string // the file name given to Parse
	Stmts []Stmt
}

// ---- statements

// ClassDef is `class Name(Bases):` with its body: attribute annotations
// (`name : Type`, `k : Final[int] = 3`), `__parameters__ = [...]`,
// `__annotations__["x"] = T`, methods, enum members.
type ClassDef struct {
	ClassPos Pos
	Name     string
	Bases    []Expr // Module, Interface, Enum, NamedTuple, ...; nil without parentheses
	Parens   bool   // `class X():` or `class X(B):` (as opposed to `class X:`)
	Body     []Stmt
}

// FuncDef is `def Name(Params) -> Returns:` with its body.
type FuncDef struct {
	DefPos  Pos
	Name    string
	Params  []*Param
	Returns Expr // nil when there is no `->`
	Body    []Stmt
	// ParamsOnLines: every parameter after the first starts a line of its
	// own, indented four spaces (",\n    x: Tensor"), as python_print
	// writes functions and methods; interface methods are on one line.
	ParamsOnLines bool
}

// Param is one parameter of a def: `name`, `name: Type`, `name: Type=default`.
type Param struct {
	NamePos Pos
	Name    string
	Type    Expr // nil when unannotated (a method's self in `.code`)
	Default Expr // nil when none
	// KwargOnly: the parameter follows a bare `*` (the `*` itself is not a
	// Param).
	KwargOnly bool
}

// Assign is an assignment `Target = Value`, an annotated assignment
// `Target: Type = Value`, or a bare annotation `Target : Type` (Value nil).
// A tuple-unpacking target is a TupleExpr without parentheses
// (`_3, _4 = a, b`). A chained assignment `a = b = v` has Target a and
// More [b].
type Assign struct {
	Target Expr
	More   []Expr // further targets of a chained assignment, in source order
	Type   Expr   // nil unless annotated
	Value  Expr   // nil for a bare annotation
	// Spaced: the annotation's colon has a space before it (`name : T`, as
	// class attributes are written) rather than not (`x: T = v`).
	Spaced bool
}

// AugAssign is `Target Op= Value`; Op is the operator without `=` ("+", "//", ...).
type AugAssign struct {
	Target Expr
	OpPos  Pos
	Op     string
	Value  Expr
}

// ExprStmt is an expression used as a statement.
type ExprStmt struct {
	X Expr
}

// If is `if Cond: Body` with an optional else part. An `elif` is an If
// alone in its parent's Else with Elif set.
type If struct {
	IfPos Pos
	Elif  bool // spelled `elif` (this If is the sole statement of the outer Else)
	Cond  Expr
	Body  []Stmt
	Else  []Stmt // nil when there is no else part
}

// While is `while Cond: Body`.
type While struct {
	WhilePos Pos
	Cond     Expr
	Body     []Stmt
}

// For is `for Target in Iter: Body`; Target is a Name or an unparenthesized
// TupleExpr.
type For struct {
	ForPos Pos
	Target Expr
	Iter   Expr
	Body   []Stmt
}

// With is `with Items: Body`.
type With struct {
	WithPos Pos
	Items   []*WithItem
	Body    []Stmt
}

// WithItem is `X` or `X as Var` of a with statement.
type WithItem struct {
	X   Expr
	Var Expr // nil without `as`
}

// Return is `return` or `return Value`.
type Return struct {
	ReturnPos Pos
	Value     Expr // nil for a bare return
}

// Raise is `raise` or `raise Exc`.
type Raise struct {
	RaisePos Pos
	Exc      Expr // nil for a bare raise
}

// Assert is `assert Test` or `assert Test, Msg`.
type Assert struct {
	AssertPos Pos
	Test      Expr
	Msg       Expr // nil when absent
}

// Delete is `del Targets`.
type Delete struct {
	DelPos  Pos
	Targets []Expr
}

// Pass, Break and Continue are the one-word statements.
type (
	Pass     struct{ At Pos }
	Break    struct{ At Pos }
	Continue struct{ At Pos }
)

// Import is an `import a.b.c` line (older archives start with them).
type Import struct {
	ImportPos Pos
	Name      string // the dotted name
}

// Global is `global a, b`.
type Global struct {
	GlobalPos Pos
	Names     []string
}

// ---- expressions

// Name is an identifier, including the special names PyTorch's code uses
// (self, torch, ops, CONSTANTS, annotate, ...).
type Name struct {
	NamePos Pos
	Name    string
}

// IntLit is an integer literal; Raw is its source text (what the printer
// writes), Value its value (a literal larger than 2**64-1 is an error).
// A negative number is a UnaryExpr "-" of an IntLit.
type IntLit struct {
	ValuePos Pos
	Raw      string
	Value    uint64
}

// FloatLit is a floating-point literal (`1.`, `1e-05`, `0.10000000000000001`).
type FloatLit struct {
	ValuePos Pos
	Raw      string
	Value    float64
}

// StringLit is a string literal, or several adjacent ones (concatenated).
// Raws are the source spellings of the parts, quotes included; Value is the
// decoded, concatenated text.
type StringLit struct {
	ValuePos Pos
	Raws     []string
	Value    string
}

// ImagLit is an imaginary literal (`2.j`, `1j`); Value is its imaginary part.
type ImagLit struct {
	ValuePos Pos
	Raw      string
	Value    float64
}

// NoneLit is `None`.
type NoneLit struct{ At Pos }

// BoolLit is `True` or `False`.
type BoolLit struct {
	At    Pos
	Value bool
}

// Ellipsis is `...`, or the keyword `Ellipsis` (Word set).
type Ellipsis struct {
	At   Pos
	Word bool
}

// Attribute is `X.Name`.
type Attribute struct {
	X       Expr
	Name    string
	NamePos Pos
}

// Call is `Fun(Args, Keywords)`. Trailing records a comma after the last
// argument, which PyTorch writes for method calls: `(lin).forward(x, )`.
type Call struct {
	Fun      Expr
	Lparen   Pos
	Args     []Expr
	Keywords []*Keyword
	Trailing bool
}

// Keyword is a keyword argument `Name=Value`.
type Keyword struct {
	NamePos Pos
	Name    string
	Value   Expr
}

// Subscript is `X[Index...]`: indexing, slicing (Slice elements) and type
// applications (`List[int]`, `Dict[str, Tensor]`, `Tuple[()]`).
type Subscript struct {
	X        Expr
	Lbrack   Pos
	Index    []Expr
	Trailing bool
}

// Slice is `Lo:Hi` or `Lo:Hi:Step` inside a Subscript; absent parts are nil.
type Slice struct {
	At        Pos // the first colon when Lo is nil, else Lo's position
	Lo, Hi    Expr
	Step      Expr
	StepColon bool // the second colon is written (even with Step nil)
}

// TupleExpr is `(a, b)`, `()`, `(a,)` or, without Parens, `a, b` (the
// target or value of an assignment, a return value, a for target).
type TupleExpr struct {
	Lparen   Pos // or the first element's position without Parens
	Elts     []Expr
	Parens   bool
	Trailing bool // a comma after the last element
}

// ListExpr is `[a, b]`.
type ListExpr struct {
	Lbrack   Pos
	Elts     []Expr
	Trailing bool
}

// DictExpr is `{k: v, ...}`.
type DictExpr struct {
	Lbrace   Pos
	Keys     []Expr
	Values   []Expr
	Trailing bool
}

// ListComp is `[Elt for Target in Iter]`.
type ListComp struct {
	Lbrack Pos
	Elt    Expr
	Target Expr
	Iter   Expr
}

// DictComp is `{Key: Value for Target in Iter}`.
type DictComp struct {
	Lbrace     Pos
	Key, Value Expr
	Target     Expr
	Iter       Expr
}

// UnaryExpr is `Op X` with Op one of "-", "~", "not". A negative number is
// a UnaryExpr "-" of its literal.
type UnaryExpr struct {
	OpPos Pos
	Op    string
	X     Expr
}

// BinaryExpr is `X Op Y`: arithmetic ("+", "-", "*", "/", "//", "%", "**",
// "@", "&", "|", "^", "<<", ">>"), comparisons ("==", "!=", "<", "<=", ">",
// ">=", "is", "is not", "in", "not in") and boolean ("and", "or").
// Precedence and associativity are TorchScript's (lexer.cpp), which differ
// from Python's in two places: `and` and `or` bind equally (left to right),
// and `~` binds as loosely as `not`. Comparisons do not chain: `a < b < c`
// is (a < b) < c.
type BinaryExpr struct {
	X     Expr
	OpPos Pos
	Op    string
	Y     Expr
	// Compact: written without spaces around the operator, as PyTorch
	// prints a complex constant (`1.5-2.j` is 1.5 - 2.j).
	Compact bool
}

// CondExpr is `Then if Cond else Else`.
type CondExpr struct {
	Then Expr
	Cond Expr
	Else Expr
}

// ParenExpr is a parenthesized expression `(X)`, kept so that the printer
// writes the source back as it was (`(self).forward(x, )`).
type ParenExpr struct {
	Lparen Pos
	X      Expr
}

// Starred is `*X` (in a call's arguments or an unpacking target).
type Starred struct {
	StarPos Pos
	X       Expr
}

func (s *ClassDef) Pos() Pos  { return s.ClassPos }
func (s *FuncDef) Pos() Pos   { return s.DefPos }
func (s *Assign) Pos() Pos    { return s.Target.Pos() }
func (s *AugAssign) Pos() Pos { return s.Target.Pos() }
func (s *ExprStmt) Pos() Pos  { return s.X.Pos() }
func (s *If) Pos() Pos        { return s.IfPos }
func (s *While) Pos() Pos     { return s.WhilePos }
func (s *For) Pos() Pos       { return s.ForPos }
func (s *With) Pos() Pos      { return s.WithPos }
func (s *Return) Pos() Pos    { return s.ReturnPos }
func (s *Raise) Pos() Pos     { return s.RaisePos }
func (s *Assert) Pos() Pos    { return s.AssertPos }
func (s *Delete) Pos() Pos    { return s.DelPos }
func (s *Pass) Pos() Pos      { return s.At }
func (s *Break) Pos() Pos     { return s.At }
func (s *Continue) Pos() Pos  { return s.At }
func (s *Import) Pos() Pos    { return s.ImportPos }
func (s *Global) Pos() Pos    { return s.GlobalPos }

// Pos of a Param is its name's position.
func (p *Param) Pos() Pos { return p.NamePos }

// Pos of a Keyword is its name's position.
func (k *Keyword) Pos() Pos { return k.NamePos }

// Pos of a WithItem is its expression's position.
func (w *WithItem) Pos() Pos { return w.X.Pos() }

func (e *Name) Pos() Pos       { return e.NamePos }
func (e *IntLit) Pos() Pos     { return e.ValuePos }
func (e *FloatLit) Pos() Pos   { return e.ValuePos }
func (e *ImagLit) Pos() Pos    { return e.ValuePos }
func (e *StringLit) Pos() Pos  { return e.ValuePos }
func (e *NoneLit) Pos() Pos    { return e.At }
func (e *BoolLit) Pos() Pos    { return e.At }
func (e *Ellipsis) Pos() Pos   { return e.At }
func (e *Attribute) Pos() Pos  { return e.X.Pos() }
func (e *Call) Pos() Pos       { return e.Fun.Pos() }
func (e *Subscript) Pos() Pos  { return e.X.Pos() }
func (e *Slice) Pos() Pos      { return e.At }
func (e *TupleExpr) Pos() Pos  { return e.Lparen }
func (e *ListExpr) Pos() Pos   { return e.Lbrack }
func (e *DictExpr) Pos() Pos   { return e.Lbrace }
func (e *ListComp) Pos() Pos   { return e.Lbrack }
func (e *DictComp) Pos() Pos   { return e.Lbrace }
func (e *UnaryExpr) Pos() Pos  { return e.OpPos }
func (e *BinaryExpr) Pos() Pos { return e.X.Pos() }
func (e *CondExpr) Pos() Pos   { return e.Then.Pos() }
func (e *ParenExpr) Pos() Pos  { return e.Lparen }
func (e *Starred) Pos() Pos    { return e.StarPos }

func (*ClassDef) stmtNode()  {}
func (*FuncDef) stmtNode()   {}
func (*Assign) stmtNode()    {}
func (*AugAssign) stmtNode() {}
func (*ExprStmt) stmtNode()  {}
func (*If) stmtNode()        {}
func (*While) stmtNode()     {}
func (*For) stmtNode()       {}
func (*With) stmtNode()      {}
func (*Return) stmtNode()    {}
func (*Raise) stmtNode()     {}
func (*Assert) stmtNode()    {}
func (*Delete) stmtNode()    {}
func (*Pass) stmtNode()      {}
func (*Break) stmtNode()     {}
func (*Continue) stmtNode()  {}
func (*Import) stmtNode()    {}
func (*Global) stmtNode()    {}

func (*Name) exprNode()       {}
func (*IntLit) exprNode()     {}
func (*FloatLit) exprNode()   {}
func (*ImagLit) exprNode()    {}
func (*StringLit) exprNode()  {}
func (*NoneLit) exprNode()    {}
func (*BoolLit) exprNode()    {}
func (*Ellipsis) exprNode()   {}
func (*Attribute) exprNode()  {}
func (*Call) exprNode()       {}
func (*Subscript) exprNode()  {}
func (*Slice) exprNode()      {}
func (*TupleExpr) exprNode()  {}
func (*ListExpr) exprNode()   {}
func (*DictExpr) exprNode()   {}
func (*ListComp) exprNode()   {}
func (*DictComp) exprNode()   {}
func (*UnaryExpr) exprNode()  {}
func (*BinaryExpr) exprNode() {}
func (*CondExpr) exprNode()   {}
func (*ParenExpr) exprNode()  {}
func (*Starred) exprNode()    {}

// Unparen returns e with any enclosing ParenExprs removed.
func Unparen(e Expr) Expr {
	for {
		p, ok := e.(*ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// Pos of a File is its start, 1:1.
func (f *File) Pos() Pos { return Pos{1, 1} }
