package graph

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gofx/gofx/node"
)

// Text returns the canonical text form of g, which Parse reads back into an
// identical graph. Each node is one line:
//
//	%x = placeholder "x"()
//	%w = get_attr "linear.weight"()
//	%add = call_function aten.add.Tensor(%x, %w, alpha=2) {stack_trace: "model.go:12", val: f32[2, 3]}
//	%relu = call_method "relu"(%add)
//	%fc = call_module "fc"(%relu)
//	%output = output "output"((%fc,))
//
// Arguments are written as in Python (None, True, 1.0, inf, (a,), [a, b],
// {"k": v}, slice(0, 2, None), Ellipsis, torch.float32, torch.strided,
// torch.channels_last) except that
// strings are double-quoted with Go's escapes and devices are written
// device("cuda:0"). Metadata follows in braces: the entries val (a
// node.TensorMeta, a value with a Meta() node.TensorMeta method such as
// shapeprop's fake tensors, or a node.ValueTuple of them: "f32[2, s0]"),
// nn_module_stack
// ([("layer1", "torch.nn.Sequential")]) and free-form entries whose values
// are a string, int64, float64 or bool. Entries of other types have no text
// form and are left out.
func (g *Graph) Text() string {
	var b strings.Builder
	b.Grow(g.Len() * 64)
	for n := range g.Nodes() {
		writeNodeText(&b, n)
		b.WriteByte('\n')
	}
	return b.String()
}

func writeNodeText(b *strings.Builder, n *node.Node) {
	b.WriteByte('%')
	b.WriteString(n.Name())
	b.WriteString(" = ")
	b.WriteString(n.Op().String())
	b.WriteByte(' ')
	t := n.Target().String()
	if n.Op() == node.CallFunction && isDottedIdent(t) {
		b.WriteString(t)
	} else {
		b.WriteString(strconv.Quote(t))
	}
	b.WriteByte('(')
	for i, a := range n.Args() {
		if i > 0 {
			b.WriteString(", ")
		}
		writeArg(b, a, textStyle)
	}
	for i, f := range n.Kwargs() {
		if i > 0 || n.NumArgs() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Name)
		b.WriteByte('=')
		writeArg(b, f.Value, textStyle)
	}
	b.WriteByte(')')
	if m := metaText(&n.Meta); m != "" {
		b.WriteString(" {")
		b.WriteString(m)
		b.WriteByte('}')
	}
}

func isDottedIdent(s string) bool {
	for _, p := range strings.Split(s, ".") {
		if !node.IsIdentifier(p) {
			return false
		}
	}
	return true
}

// metaText formats the metadata entries that have a text form.
func metaText(m *node.Meta) string {
	var b strings.Builder
	for _, k := range m.Keys() {
		v, _ := m.Get(k)
		s, ok := metaValueText(k, v)
		if !ok {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		if node.IsIdentifier(k) {
			b.WriteString(k)
		} else {
			b.WriteString(strconv.Quote(k))
		}
		b.WriteString(": ")
		b.WriteString(s)
	}
	return b.String()
}

func metaValueText(key string, v any) (string, bool) {
	switch key {
	case node.Val.Name():
		if val, ok := v.(node.Value); ok {
			return valueText(val)
		}
		return "", false
	case node.ModuleStack.Name():
		frames, ok := v.([]node.ModuleFrame)
		if !ok {
			return "", false
		}
		parts := make([]string, len(frames))
		for i, f := range frames {
			parts[i] = "(" + strconv.Quote(f.Path) + ", " + strconv.Quote(f.Type) + ")"
		}
		return "[" + strings.Join(parts, ", ") + "]", true
	}
	switch x := v.(type) {
	case string:
		return strconv.Quote(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return pyFloat(x), true
	case bool:
		if x {
			return "True", true
		}
		return "False", true
	}
	return "", false
}

// valueText formats a node.Value that has a text form: a TensorMeta, a
// value with a Meta() node.TensorMeta method (shapeprop's fake tensors,
// written as their TensorMeta), or a ValueTuple of them.
func valueText(v node.Value) (string, bool) {
	if m, ok := v.(interface{ Meta() node.TensorMeta }); ok {
		if isNilPointer(m) {
			return "", false
		}
		v = m.Meta()
	}
	switch x := v.(type) {
	case node.TensorMeta:
		if !x.DType.Valid() {
			return "", false
		}
		var b strings.Builder
		b.WriteString(x.DType.Short())
		b.WriteByte('[')
		for i, d := range x.Shape {
			if i > 0 {
				b.WriteString(", ")
			}
			switch {
			case d.Sym == "":
				b.WriteString(strconv.FormatInt(d.Size, 10))
			case node.IsIdentifier(d.Sym):
				b.WriteString(d.Sym)
			default:
				b.WriteString(strconv.Quote(d.Sym))
			}
		}
		b.WriteByte(']')
		return b.String(), true
	case node.ValueTuple:
		parts := make([]string, len(x))
		for i, e := range x {
			s, ok := valueText(e)
			if !ok {
				return "", false
			}
			parts[i] = s
		}
		if len(parts) == 1 {
			return "(" + parts[0] + ",)", true
		}
		return "(" + strings.Join(parts, ", ") + ")", true
	}
	return "", false
}

// ParseError is a syntax or semantic error in graph text, with the 1-based
// line and byte column where it was found.
type ParseError struct {
	Line, Col int
	Msg       string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("line %d, col %d: %s", e.Line, e.Col, e.Msg)
}

// ParseOption configures Parse.
type ParseOption func(*parseConfig)

type parseConfig struct {
	resolve func(name string) (node.Function, error)
}

// WithResolver makes Parse turn call_function target names into Functions
// with resolve instead of node.LookupFunction.
func WithResolver(resolve func(name string) (node.Function, error)) ParseOption {
	return func(c *parseConfig) { c.resolve = resolve }
}

// maxDepth bounds the nesting of containers in parsed text.
const maxDepth = 200

// Parse reads a graph in the text form that Text writes. Function targets
// are resolved with node.LookupFunction unless WithResolver says otherwise.
// Blank lines and comments (from # to the end of the line, outside strings)
// are ignored. Text with subgraph sections (TextWithSubgraphs) is an
// error: ParseWithSubgraphs reads it. Errors are *ParseError values with
// the line and column.
func Parse(text string, opts ...ParseOption) (g *Graph, err error) {
	cfg := defaultParseConfig()
	for _, o := range opts {
		o(&cfg)
	}
	g, _, err = parseText(text, cfg, false)
	if err != nil {
		return nil, err
	}
	return g, nil
}

func defaultParseConfig() parseConfig {
	return parseConfig{resolve: func(name string) (node.Function, error) {
		if f, ok := node.LookupFunction(name); ok {
			return f, nil
		}
		return nil, fmt.Errorf("unknown function %q (register it with node.Register, or parse with graph.WithResolver)", name)
	}}
}

// parseText parses graph text; with nested, subgraph sections are read
// into the returned subgraphs, without, they are an error.
func parseText(text string, cfg parseConfig, nested bool) (*Graph, []Subgraph, error) {
	p := &parser{g: New(), cfg: cfg, nested: nested}
	for i, line := range strings.Split(text, "\n") {
		p.lx = lexer{src: strings.TrimSuffix(line, "\r"), line: i + 1}
		if err := p.parseLine(); err != nil {
			return nil, nil, err
		}
	}
	if len(p.stack) > 0 {
		f := p.stack[len(p.stack)-1]
		return nil, nil, &ParseError{Line: f.line, Col: f.col, Msg: fmt.Sprintf("subgraph %s is not closed (a line holding only } ends it)", f.name)}
	}
	return p.g, p.subs, nil
}

type tokKind uint8

const (
	tEOL    tokKind = iota
	tRef            // %name
	tIdent          // dotted identifier
	tInt            // integer literal
	tFloat          // float literal
	tString         // double-quoted string
	tPunct          // one of ( ) [ ] { } , = :
)

type token struct {
	kind tokKind
	text string // identifier, name, punctuation, or the literal's source
	str  string // decoded string literal
	i    int64
	f    float64
	col  int
}

type lexer struct {
	src  string
	pos  int
	line int
}

func (lx *lexer) errAt(col int, format string, args ...any) *ParseError {
	return &ParseError{Line: lx.line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func isIdentStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || '0' <= c && c <= '9' }
func isDigit(c byte) bool      { return '0' <= c && c <= '9' }

func (lx *lexer) next() (token, error) {
	s := lx.src
	for lx.pos < len(s) && (s[lx.pos] == ' ' || s[lx.pos] == '\t') {
		lx.pos++
	}
	col := lx.pos + 1
	if lx.pos >= len(s) || s[lx.pos] == '#' {
		return token{kind: tEOL, col: col}, nil
	}
	c := s[lx.pos]
	switch {
	case c == '%':
		start := lx.pos + 1
		end := start
		for end < len(s) && isIdentChar(s[end]) {
			end++
		}
		if end == start || !isIdentStart(s[start]) {
			return token{}, lx.errAt(col, "expected a node name after %%")
		}
		lx.pos = end
		return token{kind: tRef, text: s[start:end], col: col}, nil
	case isIdentStart(c):
		end := lx.pos
		for {
			for end < len(s) && isIdentChar(s[end]) {
				end++
			}
			if end+1 < len(s) && s[end] == '.' && isIdentStart(s[end+1]) {
				end++
				continue
			}
			break
		}
		text := s[lx.pos:end]
		lx.pos = end
		return token{kind: tIdent, text: text, col: col}, nil
	case isDigit(c) || (c == '-' || c == '+') && lx.pos+1 < len(s) && (isDigit(s[lx.pos+1]) || strings.HasPrefix(s[lx.pos+1:], "inf")):
		return lx.number(col)
	case c == '"':
		q, err := strconv.QuotedPrefix(s[lx.pos:])
		if err != nil {
			return token{}, lx.errAt(col, "malformed or unterminated string")
		}
		v, err := strconv.Unquote(q)
		if err != nil {
			return token{}, lx.errAt(col, "malformed string: %v", err)
		}
		lx.pos += len(q)
		return token{kind: tString, text: q, str: v, col: col}, nil
	case strings.IndexByte("()[]{},=:", c) >= 0:
		lx.pos++
		return token{kind: tPunct, text: string(c), col: col}, nil
	}
	return token{}, lx.errAt(col, "unexpected character %q", c)
}

func (lx *lexer) number(col int) (token, error) {
	s := lx.src
	start := lx.pos
	end := start
	if s[end] == '-' || s[end] == '+' {
		end++
	}
	if strings.HasPrefix(s[end:], "inf") {
		end += 3
		if end < len(s) && isIdentChar(s[end]) {
			return token{}, lx.errAt(col, "malformed number %q", s[start:end+1])
		}
		lx.pos = end
		f, _ := strconv.ParseFloat(s[start:end], 64)
		return token{kind: tFloat, text: s[start:end], f: f, col: col}, nil
	}
	isFloat := false
	for end < len(s) && isDigit(s[end]) {
		end++
	}
	if end < len(s) && s[end] == '.' {
		isFloat = true
		end++
		for end < len(s) && isDigit(s[end]) {
			end++
		}
	}
	if end < len(s) && (s[end] == 'e' || s[end] == 'E') {
		isFloat = true
		end++
		if end < len(s) && (s[end] == '+' || s[end] == '-') {
			end++
		}
		d := end
		for end < len(s) && isDigit(s[end]) {
			end++
		}
		if d == end {
			return token{}, lx.errAt(col, "malformed number %q: exponent has no digits", s[start:end])
		}
	}
	if end < len(s) && (isIdentChar(s[end]) || s[end] == '.') {
		return token{}, lx.errAt(col, "malformed number %q", s[start:end+1])
	}
	text := s[start:end]
	lx.pos = end
	if isFloat {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return token{}, lx.errAt(col, "malformed float %q", text)
		}
		return token{kind: tFloat, text: text, f: f, col: col}, nil
	}
	i, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return token{}, lx.errAt(col, "integer %s does not fit in 64 bits", text)
	}
	return token{kind: tInt, text: text, i: i, col: col}, nil
}

type parser struct {
	lx      lexer
	tok     token // current token
	g       *Graph
	cfg     parseConfig
	sawOut  bool
	depth   int
	peeked  bool
	peekTok token

	nested bool            // subgraph sections allowed (ParseWithSubgraphs)
	subs   []Subgraph      // the subgraphs of g read so far
	sawSub bool            // a subgraph section of g was closed: no more nodes
	stack  []frame         // the enclosing graphs of the subgraph being read
	names  map[string]bool // the subgraph names of g
}

// frame is the state of a graph whose subgraph section is being read.
type frame struct {
	g         *Graph
	subs      []Subgraph
	sawOut    bool
	sawSub    bool
	names     map[string]bool
	name      string // the section being read
	line, col int    // where its header is
}

func (p *parser) advance() error {
	if p.peeked {
		p.tok, p.peeked = p.peekTok, false
		return nil
	}
	t, err := p.lx.next()
	if err != nil {
		return err
	}
	p.tok = t
	return nil
}

func (p *parser) peek() (token, error) {
	if !p.peeked {
		t, err := p.lx.next()
		if err != nil {
			return token{}, err
		}
		p.peekTok, p.peeked = t, true
	}
	return p.peekTok, nil
}

func (p *parser) errf(format string, args ...any) *ParseError {
	return p.lx.errAt(p.tok.col, format, args...)
}

func describe(t token) string {
	switch t.kind {
	case tEOL:
		return "end of line"
	case tRef:
		return "%" + t.text
	case tString:
		return "string " + t.text
	}
	return strconv.Quote(t.text)
}

func (p *parser) isPunct(s string) bool { return p.tok.kind == tPunct && p.tok.text == s }

func (p *parser) expectPunct(s, what string) error {
	if !p.isPunct(s) {
		return p.errf("expected %q %s, found %s", s, what, describe(p.tok))
	}
	return p.advance()
}

func (p *parser) parseLine() error {
	if err := p.advance(); err != nil {
		return err
	}
	if p.tok.kind == tEOL {
		return nil
	}
	lineCol := p.tok.col
	if p.tok.kind == tIdent && p.tok.text == "subgraph" {
		return p.openSubgraph()
	}
	if p.isPunct("}") {
		return p.closeSubgraph()
	}
	if p.tok.kind != tRef {
		return p.errf("expected a node definition %%name = ..., found %s", describe(p.tok))
	}
	if p.sawOut {
		return p.errf("node %%%s after the output node", p.tok.text)
	}
	if p.sawSub {
		return p.errf("node %%%s after a subgraph section (a graph's subgraphs follow its nodes)", p.tok.text)
	}
	nameTok := p.tok
	if err := p.advance(); err != nil {
		return err
	}
	if err := p.expectPunct("=", "after the node name"); err != nil {
		return err
	}
	if p.tok.kind != tIdent {
		return p.errf("expected an opcode, found %s", describe(p.tok))
	}
	op, err := node.ParseOpcode(p.tok.text)
	if err != nil {
		return p.errf("%v", err)
	}
	if err := p.advance(); err != nil {
		return err
	}
	target, err := p.parseTarget(op)
	if err != nil {
		return err
	}
	if err := p.expectPunct("(", "to open the arguments"); err != nil {
		return err
	}
	args, kwargs, err := p.parseCallArgs()
	if err != nil {
		return err
	}
	var meta node.Meta
	if p.isPunct("{") {
		if meta, err = p.parseMeta(); err != nil {
			return err
		}
	}
	if p.tok.kind != tEOL {
		return p.errf("expected end of line, found %s", describe(p.tok))
	}
	n, err := p.g.create(op, target, args, kwargs, nameTok.text, true)
	if err != nil {
		return &ParseError{Line: p.lx.line, Col: lineCol, Msg: err.Error()}
	}
	n.Meta = meta
	if op == node.Output {
		p.sawOut = true
	}
	return nil
}

func (p *parser) parseTarget(op node.Opcode) (node.Target, error) {
	t := p.tok
	var name string
	switch t.kind {
	case tString:
		name = t.str
	case tIdent:
		name = t.text
	default:
		return nil, p.errf("expected the %s target, found %s", op, describe(t))
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if op != node.CallFunction {
		return node.Path(name), nil
	}
	f, err := p.cfg.resolve(name)
	if err != nil {
		return nil, p.lx.errAt(t.col, "%v", err)
	}
	if f == nil {
		return nil, p.lx.errAt(t.col, "function %q resolved to nil", name)
	}
	return f, nil
}

// parseCallArgs parses positional and keyword arguments up to and
// including the closing parenthesis.
func (p *parser) parseCallArgs() ([]node.Arg, node.Kwargs, error) {
	var args []node.Arg
	var kwargs node.Kwargs
	seen := map[string]bool{}
	for !p.isPunct(")") {
		if len(args)+len(kwargs) > 0 {
			if err := p.expectPunct(",", "between arguments"); err != nil {
				return nil, nil, err
			}
			if p.isPunct(")") {
				break
			}
		}
		if p.tok.kind == tIdent {
			nx, err := p.peek()
			if err != nil {
				return nil, nil, err
			}
			if nx.kind == tPunct && nx.text == "=" {
				name := p.tok.text
				if !node.IsIdentifier(name) {
					return nil, nil, p.errf("keyword %q is not an identifier", name)
				}
				if seen[name] {
					return nil, nil, p.errf("keyword argument %q given twice", name)
				}
				seen[name] = true
				if err := p.advance(); err != nil {
					return nil, nil, err
				}
				if err := p.advance(); err != nil {
					return nil, nil, err
				}
				v, err := p.parseValue()
				if err != nil {
					return nil, nil, err
				}
				kwargs = append(kwargs, node.Field{Name: name, Value: v})
				continue
			}
		}
		if len(kwargs) > 0 {
			return nil, nil, p.errf("positional argument after keyword arguments")
		}
		v, err := p.parseValue()
		if err != nil {
			return nil, nil, err
		}
		args = append(args, v)
	}
	return args, kwargs, p.advance()
}

func (p *parser) parseValue() (node.Arg, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, p.errf("values nested more than %d deep", maxDepth)
	}
	t := p.tok
	switch t.kind {
	case tRef:
		n, ok := p.g.Node(t.text)
		if !ok {
			return nil, p.errf("undefined node %%%s (a node must be defined before it is used)", t.text)
		}
		return n, p.advance()
	case tInt:
		return node.Int(t.i), p.advance()
	case tFloat:
		return node.Float(t.f), p.advance()
	case tString:
		return node.Str(t.str), p.advance()
	case tIdent:
		return p.parseNamedValue()
	case tPunct:
		switch t.text {
		case "[":
			items, err := p.parseSeq("]")
			return node.List(items), err
		case "(":
			items, err := p.parseSeq(")")
			return node.Tuple(items), err
		case "{":
			return p.parseDict()
		}
	}
	return nil, p.errf("expected a value, found %s", describe(t))
}

func (p *parser) parseNamedValue() (node.Arg, error) {
	t := p.tok
	var v node.Arg
	switch t.text {
	case "True":
		v = node.Bool(true)
	case "False":
		v = node.Bool(false)
	case "None":
		v = node.None
	case "inf", "nan":
		f, _ := strconv.ParseFloat(t.text, 64)
		v = node.Float(f)
	case "Ellipsis":
		v = node.Ellipsis
	case "slice":
		return p.parseSlice()
	case "device":
		if err := p.advance(); err != nil {
			return nil, err
		}
		if err := p.expectPunct("(", "after device"); err != nil {
			return nil, err
		}
		if p.tok.kind != tString {
			return nil, p.errf("expected a device string such as \"cpu\", found %s", describe(p.tok))
		}
		d := node.Device(p.tok.str)
		if !d.Valid() {
			return nil, p.errf("malformed device %q", p.tok.str)
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		return d, p.expectPunct(")", "to close device(...)")
	default:
		name, ok := strings.CutPrefix(t.text, "torch.")
		switch {
		case !ok:
		case node.DType(name).Valid():
			v = node.DType(name)
		case node.Layout(name).Valid():
			v = node.Layout(name)
		case node.MemoryFormat(name).Valid():
			v = node.MemoryFormat(name)
		}
		if v == nil {
			return nil, p.errf("unknown name %q (values are None, True, False, inf, nan, Ellipsis, numbers, strings, %%nodes, torch.<dtype|layout|memory_format>, device(...), slice(...), and [..], (..), {..})", t.text)
		}
	}
	return v, p.advance()
}

// parseSlice parses slice(stop), slice(start, stop) or slice(start, stop,
// step), as Python's slice takes them; each part is an int, None or a
// %node.
func (p *parser) parseSlice() (node.Arg, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	if !p.isPunct("(") {
		return nil, p.errf("expected ( after slice, found %s", describe(p.tok))
	}
	col := p.tok.col
	items, err := p.parseSeq(")")
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		switch it.(type) {
		case node.Int, node.NoneType, *node.Node:
		default:
			return nil, p.lx.errAt(col, "a slice part is an int, None or a %%node, not %s", pyRepr(it))
		}
	}
	switch len(items) {
	case 1:
		return node.Slice{Start: node.None, Stop: items[0], Step: node.None}, nil
	case 2:
		return node.Slice{Start: items[0], Stop: items[1], Step: node.None}, nil
	case 3:
		return node.Slice{Start: items[0], Stop: items[1], Step: items[2]}, nil
	}
	return nil, p.lx.errAt(col, "slice takes 1 to 3 parts, got %d", len(items))
}

// parseSeq parses comma-separated values after an opening bracket up to
// and including close; a trailing comma is allowed.
func (p *parser) parseSeq(close string) ([]node.Arg, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	items := []node.Arg{}
	for !p.isPunct(close) {
		if len(items) > 0 {
			if err := p.expectPunct(",", "between items"); err != nil {
				return nil, err
			}
			if p.isPunct(close) {
				break
			}
		}
		v, err := p.parseValue()
		if err != nil {
			return nil, err
		}
		items = append(items, v)
	}
	return items, p.advance()
}

func (p *parser) parseDict() (node.Arg, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	d := node.Dict{}
	seen := map[string]bool{}
	for !p.isPunct("}") {
		if len(d) > 0 {
			if err := p.expectPunct(",", "between entries"); err != nil {
				return nil, err
			}
			if p.isPunct("}") {
				break
			}
		}
		if p.tok.kind != tString {
			return nil, p.errf("expected a string key, found %s", describe(p.tok))
		}
		key := p.tok.str
		if seen[key] {
			return nil, p.errf("duplicate key %q", key)
		}
		seen[key] = true
		if err := p.advance(); err != nil {
			return nil, err
		}
		if err := p.expectPunct(":", "after the key"); err != nil {
			return nil, err
		}
		v, err := p.parseValue()
		if err != nil {
			return nil, err
		}
		d = append(d, node.Field{Name: key, Value: v})
	}
	return d, p.advance()
}

func (p *parser) parseMeta() (node.Meta, error) {
	var m node.Meta
	if err := p.advance(); err != nil {
		return m, err
	}
	for !p.isPunct("}") {
		if m.Len() > 0 {
			if err := p.expectPunct(",", "between metadata entries"); err != nil {
				return m, err
			}
		}
		var key string
		switch p.tok.kind {
		case tIdent, tString:
			key = p.tok.text
			if p.tok.kind == tString {
				key = p.tok.str
			}
		default:
			return m, p.errf("expected a metadata key, found %s", describe(p.tok))
		}
		if _, dup := m.Get(key); dup {
			return m, p.errf("duplicate metadata key %q", key)
		}
		if err := p.advance(); err != nil {
			return m, err
		}
		if err := p.expectPunct(":", "after the metadata key"); err != nil {
			return m, err
		}
		var v any
		var err error
		switch key {
		case node.Val.Name():
			v, err = p.parseVal()
		case node.ModuleStack.Name():
			v, err = p.parseModuleStack()
		default:
			v, err = p.parseMetaScalar()
		}
		if err != nil {
			return m, err
		}
		m.Set(key, v)
	}
	return m, p.advance()
}

// parseVal parses a node.Value: "f32[2, s0]" or a tuple of them.
func (p *parser) parseVal() (node.Value, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, p.errf("values nested more than %d deep", maxDepth)
	}
	if p.isPunct("(") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		tup := node.ValueTuple{}
		for !p.isPunct(")") {
			if len(tup) > 0 {
				if err := p.expectPunct(",", "between values"); err != nil {
					return nil, err
				}
				if p.isPunct(")") {
					break
				}
			}
			v, err := p.parseVal()
			if err != nil {
				return nil, err
			}
			tup = append(tup, v)
		}
		return tup, p.advance()
	}
	if p.tok.kind != tIdent {
		return nil, p.errf("expected a tensor value such as f32[2, 3], found %s", describe(p.tok))
	}
	dt, ok := node.DTypeFromShort(p.tok.text)
	if !ok {
		return nil, p.errf("unknown dtype abbreviation %q (want f32, f64, f16, bf16, i64, i32, i16, i8, u8, b8, c64 or c128)", p.tok.text)
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if err := p.expectPunct("[", "to open the shape"); err != nil {
		return nil, err
	}
	tm := node.TensorMeta{DType: dt, Shape: []node.Dim{}}
	for !p.isPunct("]") {
		if len(tm.Shape) > 0 {
			if err := p.expectPunct(",", "between dimensions"); err != nil {
				return nil, err
			}
		}
		switch p.tok.kind {
		case tInt:
			tm.Shape = append(tm.Shape, node.Dim{Size: p.tok.i})
		case tIdent:
			tm.Shape = append(tm.Shape, node.Dim{Sym: p.tok.text})
		case tString:
			if p.tok.str == "" {
				return nil, p.errf("empty symbolic dimension")
			}
			tm.Shape = append(tm.Shape, node.Dim{Sym: p.tok.str})
		default:
			return nil, p.errf("expected a dimension, found %s", describe(p.tok))
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	return tm, p.advance()
}

func (p *parser) parseModuleStack() ([]node.ModuleFrame, error) {
	if err := p.expectPunct("[", "to open nn_module_stack"); err != nil {
		return nil, err
	}
	frames := []node.ModuleFrame{}
	for !p.isPunct("]") {
		if len(frames) > 0 {
			if err := p.expectPunct(",", "between module frames"); err != nil {
				return nil, err
			}
		}
		if err := p.expectPunct("(", "to open a (path, type) frame"); err != nil {
			return nil, err
		}
		var parts [2]string
		for i := range parts {
			if i == 1 {
				if err := p.expectPunct(",", "inside a frame"); err != nil {
					return nil, err
				}
			}
			if p.tok.kind != tString {
				return nil, p.errf("expected a string in a module frame, found %s", describe(p.tok))
			}
			parts[i] = p.tok.str
			if err := p.advance(); err != nil {
				return nil, err
			}
		}
		if err := p.expectPunct(")", "to close a frame"); err != nil {
			return nil, err
		}
		frames = append(frames, node.ModuleFrame{Path: parts[0], Type: parts[1]})
	}
	return frames, p.advance()
}

func (p *parser) parseMetaScalar() (any, error) {
	t := p.tok
	var v any
	switch {
	case t.kind == tString:
		v = t.str
	case t.kind == tInt:
		v = t.i
	case t.kind == tFloat:
		v = t.f
	case t.kind == tIdent && t.text == "True":
		v = true
	case t.kind == tIdent && t.text == "False":
		v = false
	case t.kind == tIdent && (t.text == "inf" || t.text == "nan"):
		f, _ := strconv.ParseFloat(t.text, 64)
		v = f
	default:
		return nil, p.errf("expected a string, number or boolean metadata value, found %s", describe(t))
	}
	return v, p.advance()
}
