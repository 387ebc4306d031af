package ops

import (
	"fmt"
	"strconv"
	"strings"
)

// Schema is a parsed ATen operator schema.
type Schema struct {
	// Namespace is the part before "::" ("aten").
	Namespace string
	// Name is the operator name ("add", "add_", "__and__").
	Name string
	// Overload is the overload name ("Tensor", "out"), empty for the
	// default overload.
	Overload string
	// Args are the arguments in order. Those after the "*" marker are
	// keyword-only (Argument.KwargOnly).
	Args []Argument
	// Returns are the returned values.
	Returns []Argument
	// VarArgs and VarRets report a trailing "..." among the arguments or
	// returns.
	VarArgs, VarRets bool
}

// Argument is one argument or return value of a schema.
type Argument struct {
	Type *Type
	// Name is empty for unnamed return values.
	Name string
	// Default is the default value, or nil when there is none.
	Default *Default
	// KwargOnly marks arguments after the "*" marker.
	KwargOnly bool
}

// TypeKind says what a Type is.
type TypeKind uint8

// The kinds of types.
const (
	// Named is a named type such as Tensor, int, Scalar, t or
	// Dict(str, Tensor) (with Params).
	Named TypeKind = iota + 1
	// ListOf is Elem[] or, with a Size, Elem[Size].
	ListOf
	// OptionalOf is Elem?.
	OptionalOf
	// TupleOf is (Params[0], Params[1], ...).
	TupleOf
)

// Type is the type of an argument or return value.
type Type struct {
	Kind TypeKind
	// Name is the type name for Named types ("Tensor", "SymInt", "t").
	Name string
	// Params are the type parameters of a Named type (Dict(K, V)) or the
	// elements of a TupleOf type.
	Params []*Type
	// Elem is the element type of ListOf and OptionalOf.
	Elem *Type
	// Size is the fixed length of a ListOf type (int[2]); 0 when none is
	// given.
	Size int
	// Alias is the alias annotation written after the type, or nil.
	Alias *Alias
}

// Alias is an alias annotation such as (a), (a!), (a -> *) or (*).
type Alias struct {
	// Before are the alias sets the value belongs to on entry ("a", "*").
	Before []string
	// After are the alias sets after the call, when written with "->".
	After []string
	// Write is true when the value is written to ("!").
	Write bool
}

// Default is the default value of an argument, kept as written in the
// schema so that printing reproduces it exactly.
type Default struct {
	// Text is the value as written: "1", "None", "[-2, -1]", "\"mean\"",
	// "1.0000000000000001e-05".
	Text string
}

// parametric lists the type names whose parentheses hold type parameters
// rather than an alias annotation.
var parametric = map[string]bool{
	"Dict": true, "Future": true, "RRef": true, "Union": true, "Optional": true,
	"List": true, "Tuple": true, "Await": true,
}

// QualifiedName returns "namespace::name.overload" ("aten::add.Tensor"), or
// "namespace::name" for the default overload.
func (s *Schema) QualifiedName() string {
	if s.Overload == "" {
		return s.Namespace + "::" + s.Name
	}
	return s.Namespace + "::" + s.Name + "." + s.Overload
}

// IsMutable reports whether the operator writes to any argument, as its
// alias annotations declare ("Tensor(a!) self").
func (s *Schema) IsMutable() bool {
	for _, a := range s.Args {
		if a.Type.writes() {
			return true
		}
	}
	return false
}

func (t *Type) writes() bool {
	if t == nil {
		return false
	}
	if t.Alias != nil && t.Alias.Write {
		return true
	}
	if t.Elem != nil && t.Elem.writes() {
		return true
	}
	for _, p := range t.Params {
		if p.writes() {
			return true
		}
	}
	return false
}

// String prints the schema as PyTorch does.
func (s *Schema) String() string {
	var b strings.Builder
	b.WriteString(s.QualifiedName())
	b.WriteByte('(')
	kwargs := false
	for i, a := range s.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		if a.KwargOnly && !kwargs {
			b.WriteString("*, ")
			kwargs = true
		}
		writeArgument(&b, a)
	}
	if s.VarArgs {
		if len(s.Args) > 0 {
			b.WriteString(", ")
		}
		b.WriteString("...")
	}
	b.WriteString(") -> ")
	// As PyTorch's FunctionSchema printer: one return goes bare, named or
	// not, unless its type starts with '(' (a tuple type), which would read
	// back as a list of returns.
	if len(s.Returns) == 1 && !s.VarRets && s.Returns[0].Type.Kind != TupleOf && !startsWithTuple(s.Returns[0].Type) {
		writeArgument(&b, s.Returns[0])
		return b.String()
	}
	if s.VarRets && len(s.Returns) == 0 {
		b.WriteString("...")
		return b.String()
	}
	b.WriteByte('(')
	for i, r := range s.Returns {
		if i > 0 {
			b.WriteString(", ")
		}
		writeArgument(&b, r)
	}
	if s.VarRets {
		b.WriteString(", ...")
	}
	b.WriteByte(')')
	return b.String()
}

// startsWithTuple reports whether t prints starting with '('.
func startsWithTuple(t *Type) bool {
	for t.Kind == ListOf || t.Kind == OptionalOf {
		t = t.Elem
	}
	return t.Kind == TupleOf
}

func writeArgument(b *strings.Builder, a Argument) {
	b.WriteString(a.Type.String())
	if a.Name != "" {
		b.WriteByte(' ')
		b.WriteString(a.Name)
	}
	if a.Default != nil {
		b.WriteByte('=')
		b.WriteString(a.Default.Text)
	}
}

// String prints the type as PyTorch does ("Tensor(a!)[]", "int[2]",
// "Dict(str, Tensor)", "(Tensor, tVal)[]").
func (t *Type) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t *Type) write(b *strings.Builder) {
	switch t.Kind {
	case Named:
		b.WriteString(t.Name)
		if len(t.Params) > 0 {
			b.WriteByte('(')
			writeTypes(b, t.Params)
			b.WriteByte(')')
		}
	case TupleOf:
		b.WriteByte('(')
		writeTypes(b, t.Params)
		b.WriteByte(')')
	case ListOf:
		t.Elem.write(b)
		b.WriteByte('[')
		if t.Size > 0 {
			b.WriteString(strconv.Itoa(t.Size))
		}
		b.WriteByte(']')
	case OptionalOf:
		t.Elem.write(b)
		b.WriteByte('?')
	}
	if t.Alias != nil {
		b.WriteString(t.Alias.String())
	}
}

func writeTypes(b *strings.Builder, ts []*Type) {
	for i, p := range ts {
		if i > 0 {
			b.WriteString(", ")
		}
		p.write(b)
	}
}

// String prints the annotation with its parentheses: "(a!)", "(a -> *)".
func (a *Alias) String() string {
	s := "(" + strings.Join(a.Before, "|")
	if a.Write {
		s += "!"
	}
	if len(a.After) > 0 {
		s += " -> " + strings.Join(a.After, "|")
	}
	return s + ")"
}

// SchemaError is a syntax error in a schema string, with the byte offset
// (0-based) where it was found.
type SchemaError struct {
	Schema string
	Offset int
	Msg    string
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("schema %q: at offset %d: %s", e.Schema, e.Offset, e.Msg)
}

// maxTypeDepth bounds the nesting of types in a parsed schema.
const maxTypeDepth = 32

// ParseSchema parses one schema string.
func ParseSchema(src string) (*Schema, error) {
	p := &schemaParser{src: src}
	s, err := p.schema()
	if err != nil {
		return nil, err
	}
	return s, nil
}

// MustParseSchema is ParseSchema for schemas known to be valid at compile
// time; it panics on a malformed one.
func MustParseSchema(src string) *Schema {
	s, err := ParseSchema(src)
	if err != nil {
		panic(err)
	}
	return s
}

type schemaParser struct {
	src   string
	pos   int
	depth int
}

func (p *schemaParser) errf(format string, args ...any) error {
	return &SchemaError{Schema: p.src, Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *schemaParser) skipSpace() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
}

func (p *schemaParser) peek() byte {
	p.skipSpace()
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *schemaParser) accept(s string) bool {
	p.skipSpace()
	if strings.HasPrefix(p.src[p.pos:], s) {
		p.pos += len(s)
		return true
	}
	return false
}

func (p *schemaParser) expect(s, what string) error {
	if !p.accept(s) {
		return p.errf("expected %q %s", s, what)
	}
	return nil
}

func isIdentByte(c byte, first bool) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || !first && '0' <= c && c <= '9'
}

// ident reads an identifier; dotted allows dots inside it (type names such
// as __torch__.torch.classes.rnn.CellParamsBase).
func (p *schemaParser) ident(dotted bool) (string, bool) {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if isIdentByte(c, p.pos == start) || dotted && c == '.' && p.pos > start && p.pos+1 < len(p.src) && isIdentByte(p.src[p.pos+1], true) {
			p.pos++
			continue
		}
		break
	}
	return p.src[start:p.pos], p.pos > start
}

func (p *schemaParser) schema() (*Schema, error) {
	s := &Schema{}
	ns, ok := p.ident(false)
	if !ok {
		return nil, p.errf("expected a namespace")
	}
	if err := p.expect("::", "after the namespace"); err != nil {
		return nil, err
	}
	s.Namespace = ns
	if s.Name, ok = p.ident(false); !ok {
		return nil, p.errf("expected an operator name")
	}
	if p.src[p.pos:] != "" && p.src[p.pos] == '.' {
		p.pos++
		if s.Overload, ok = p.ident(false); !ok {
			return nil, p.errf("expected an overload name after '.'")
		}
	}
	if err := p.expect("(", "to open the arguments"); err != nil {
		return nil, err
	}
	kwargOnly := false
	for p.peek() != ')' {
		if len(s.Args) > 0 || kwargOnly {
			if err := p.expect(",", "between arguments"); err != nil {
				return nil, err
			}
		}
		if p.accept("...") {
			s.VarArgs = true
			break
		}
		if p.accept("*") {
			if kwargOnly {
				return nil, p.errf("a second '*' marker")
			}
			kwargOnly = true
			continue
		}
		a, err := p.argument(false)
		if err != nil {
			return nil, err
		}
		a.KwargOnly = kwargOnly
		s.Args = append(s.Args, a)
	}
	if err := p.expect(")", "to close the arguments"); err != nil {
		return nil, err
	}
	if err := p.expect("->", "before the returns"); err != nil {
		return nil, err
	}
	if err := p.returns(s); err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.src) {
		return nil, p.errf("unexpected text after the schema")
	}
	return s, nil
}

func (p *schemaParser) returns(s *Schema) error {
	if p.accept("...") {
		s.VarRets = true
		return nil
	}
	if p.peek() != '(' {
		r, err := p.argument(true)
		if err != nil {
			return err
		}
		s.Returns = []Argument{r}
		return nil
	}
	// A parenthesized list of returns; a single return whose type is a
	// tuple is written inside its own parentheses: "-> ((Tensor, t)[])".
	p.pos++
	for p.peek() != ')' {
		if len(s.Returns) > 0 || s.VarRets {
			if err := p.expect(",", "between returns"); err != nil {
				return err
			}
		}
		if s.VarRets {
			return p.errf("returns after '...'")
		}
		if p.accept("...") {
			s.VarRets = true
			continue
		}
		r, err := p.argument(true)
		if err != nil {
			return err
		}
		s.Returns = append(s.Returns, r)
	}
	return p.expect(")", "to close the returns")
}

// argument parses "Type [name] [=default]"; returns have no defaults.
func (p *schemaParser) argument(isReturn bool) (Argument, error) {
	t, err := p.typ()
	if err != nil {
		return Argument{}, err
	}
	a := Argument{Type: t}
	if c := p.peek(); isIdentByte(c, true) {
		a.Name, _ = p.ident(false)
	}
	if !isReturn && p.accept("=") {
		d, err := p.defaultValue()
		if err != nil {
			return Argument{}, err
		}
		a.Default = d
	}
	if !isReturn && a.Name == "" {
		return Argument{}, p.errf("argument of type %s has no name", t)
	}
	return a, nil
}

func (p *schemaParser) typ() (*Type, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxTypeDepth {
		return nil, p.errf("types nested more than %d deep", maxTypeDepth)
	}
	var t *Type
	if p.peek() == '(' {
		params, err := p.typeList("tuple elements")
		if err != nil {
			return nil, err
		}
		t = &Type{Kind: TupleOf, Params: params}
	} else {
		name, ok := p.ident(true)
		if !ok {
			return nil, p.errf("expected a type")
		}
		t = &Type{Kind: Named, Name: name}
		if parametric[name] && p.pos < len(p.src) && p.src[p.pos] == '(' {
			params, err := p.typeList("type parameters")
			if err != nil {
				return nil, err
			}
			t.Params = params
		}
	}
	// Suffixes bind to the left, in any order: alias, list, optional.
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case '(':
			if t.Alias != nil {
				return nil, p.errf("a second alias annotation")
			}
			a, err := p.alias()
			if err != nil {
				return nil, err
			}
			t.Alias = a
		case '[':
			p.pos++
			start := p.pos
			for p.pos < len(p.src) && '0' <= p.src[p.pos] && p.src[p.pos] <= '9' {
				p.pos++
			}
			size := 0
			if p.pos > start {
				n, err := strconv.Atoi(p.src[start:p.pos])
				if err != nil || n == 0 || p.src[start] == '0' {
					return nil, p.errf("malformed list size %q", p.src[start:p.pos])
				}
				size = n
			}
			if p.pos >= len(p.src) || p.src[p.pos] != ']' {
				return nil, p.errf("expected ']' to close the list type")
			}
			p.pos++
			t = &Type{Kind: ListOf, Elem: t, Size: size}
		case '?':
			p.pos++
			t = &Type{Kind: OptionalOf, Elem: t}
		default:
			return t, nil
		}
	}
	return t, nil
}

// typeList parses "(T1, T2, ...)" starting at the opening parenthesis;
// what names the list in errors.
func (p *schemaParser) typeList(what string) ([]*Type, error) {
	p.pos++ // '('
	var out []*Type
	for p.peek() != ')' {
		if len(out) > 0 {
			if err := p.expect(",", "between "+what); err != nil {
				return nil, err
			}
		}
		e, err := p.typ()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	p.pos++ // ')'
	return out, nil
}

// alias parses "(a)", "(a!)", "(a|b)", "(*)", "(a -> *)".
func (p *schemaParser) alias() (*Alias, error) {
	p.pos++ // '('
	a := &Alias{}
	sets := func() ([]string, error) {
		var out []string
		for {
			p.skipSpace()
			if p.accept("*") {
				out = append(out, "*")
			} else if id, ok := p.ident(false); ok {
				out = append(out, id)
			} else {
				return nil, p.errf("expected an alias set name or '*'")
			}
			if !p.accept("|") {
				return out, nil
			}
		}
	}
	var err error
	if a.Before, err = sets(); err != nil {
		return nil, err
	}
	if p.pos < len(p.src) && p.src[p.pos] == '!' {
		p.pos++
		a.Write = true
	}
	if p.accept("->") {
		if a.After, err = sets(); err != nil {
			return nil, err
		}
	}
	if err := p.expect(")", "to close the alias annotation"); err != nil {
		return nil, err
	}
	return a, nil
}

// defaultValue reads the text of a default value up to the ',' or ')' that
// ends it, honouring strings and brackets.
func (p *schemaParser) defaultValue() (*Default, error) {
	start := p.pos
	depth := 0
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '"' || c == '\'':
			end, err := scanString(p.src, p.pos)
			if err != nil {
				p.pos = len(p.src)
				return nil, p.errf("%v", err)
			}
			p.pos = end
			continue
		case c == '[' || c == '(':
			depth++
		case c == ']' || c == ')':
			if depth == 0 {
				return p.finishDefault(start)
			}
			depth--
		case c == ',' && depth == 0:
			return p.finishDefault(start)
		}
		p.pos++
	}
	return nil, p.errf("unterminated default value")
}

func (p *schemaParser) finishDefault(start int) (*Default, error) {
	text := p.src[start:p.pos]
	if text == "" || strings.TrimSpace(text) != text {
		return nil, p.errf("malformed default value %q", text)
	}
	return &Default{Text: text}, nil
}

// scanString returns the offset just past the quoted string starting at i.
func scanString(s string, i int) (int, error) {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j + 1, nil
		}
	}
	return 0, fmt.Errorf("unterminated string")
}
