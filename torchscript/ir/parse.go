package ir

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/types"
)

// ParseError is an error of Parse: the line and column (1-based) in the
// text and what was wrong there.
type ParseError struct {
	Line, Col int
	Msg       string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("ir: %d:%d: %s", e.Line, e.Col, e.Msg)
}

// ParseOptions configure ParseWith.
type ParseOptions struct {
	// Lookup resolves the qualified names of types (__torch__.Foo) to their
	// types; nil: each is a types.Class with only its name.
	Lookup types.Lookup
	// Resolve chooses the operator overload of a node once its inputs and
	// outputs are typed (Node.Op); nil: ResolveOp. It may return nil.
	Resolve func(n *Node) *ops.Operator
}

// Parse reads a graph in the text form print(m.graph) writes (and String
// prints) into a Graph: value names, types, attributes, source comments
// and scopes are kept, so String prints the text back byte for byte.
// Numbered values (%5) keep their numbers. Node.Op is set by ResolveOp.
// Errors name the line and column; the parsed graph passes Lint.
func Parse(text string) (*Graph, error) { return ParseWith(text, ParseOptions{}) }

// ParseWith is Parse with options.
func ParseWith(text string, opts ParseOptions) (g *Graph, err error) {
	p := &parser{s: text, opts: opts}
	if opts.Resolve == nil {
		p.opts.Resolve = ResolveOp
	}
	classes := map[string]types.Type{}
	p.lookup = func(name string) (types.Type, bool) {
		if opts.Lookup != nil {
			if t, ok := opts.Lookup(name); ok {
				return t, true
			}
		}
		if t, ok := classes[name]; ok {
			return t, true
		}
		t := &types.Class{Name: name}
		classes[name] = t
		return t, true
	}
	g, err = p.graph(0)
	if err != nil {
		return nil, err
	}
	p.skipWS()
	if p.i < len(p.s) {
		return nil, p.errf("unexpected text after the graph")
	}
	return g, nil
}

type parser struct {
	s      string
	i      int
	opts   ParseOptions
	lookup types.Lookup
}

// per-graph state
type graphState struct {
	g      *Graph
	scopes []map[string]*Value
	named  map[string]*Value
	nums   map[int]*Value
	vals   []*Value
	groups []*Node
}

const maxParseDepth = 256

func (p *parser) pos(i int) (line, col int) {
	line, col = 1, 1
	for j := 0; j < i && j < len(p.s); j++ {
		if p.s[j] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return
}

func (p *parser) errAt(i int, format string, a ...any) error {
	l, c := p.pos(i)
	return &ParseError{Line: l, Col: c, Msg: fmt.Sprintf(format, a...)}
}

func (p *parser) errf(format string, a ...any) error { return p.errAt(p.i, format, a...) }

func (p *parser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *parser) skipSpace() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *parser) skipWS() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *parser) accept(lit string) bool {
	if strings.HasPrefix(p.s[p.i:], lit) {
		p.i += len(lit)
		return true
	}
	return false
}

func (p *parser) expect(lit string) error {
	p.skipSpace()
	if !p.accept(lit) {
		return p.errf("expected %q, found %s", lit, p.found())
	}
	return nil
}

func (p *parser) found() string {
	if p.i >= len(p.s) {
		return "the end of the text"
	}
	end := p.i + 12
	if end > len(p.s) {
		end = len(p.s)
	}
	if nl := strings.IndexByte(p.s[p.i:end], '\n'); nl >= 0 {
		end = p.i + nl
	}
	if end == p.i {
		return "the end of the line"
	}
	return strconv.Quote(p.s[p.i:end])
}

// endLine expects the rest of the line to be empty.
func (p *parser) endLine() error {
	p.skipSpace()
	if p.i >= len(p.s) {
		return nil
	}
	if p.accept("\r\n") || p.accept("\n") {
		return nil
	}
	return p.errf("expected the end of the line, found %s", p.found())
}

func nameByte(c byte) bool {
	return c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (p *parser) graph(depth int) (*Graph, error) {
	if depth > 8 {
		return nil, p.errf("subgraphs nested too deeply")
	}
	st := &graphState{g: NewGraph(), named: map[string]*Value{}, nums: map[int]*Value{}}
	st.scopes = []map[string]*Value{{}}
	p.skipWS()
	if err := p.expect("graph("); err != nil {
		return nil, err
	}
	p.skipWS()
	if !p.accept(")") {
		for {
			p.skipWS()
			start := p.i
			name, t, err := p.typedDef()
			if err != nil {
				return nil, err
			}
			v := st.g.top.AddParam(t)
			if err := p.define(st, v, name, start); err != nil {
				return nil, err
			}
			p.skipWS()
			if p.accept(")") {
				break
			}
			if !p.accept(",") {
				return nil, p.errf("expected ',' or ')' after a graph input, found %s", p.found())
			}
		}
	}
	if err := p.expect(":"); err != nil {
		return nil, err
	}
	if err := p.endLine(); err != nil {
		return nil, err
	}
	if err := p.nodes(st, st.g.top, depth, "return"); err != nil {
		return nil, err
	}
	p.skipWS()
	if err := p.expect("return"); err != nil {
		return nil, err
	}
	outs, err := p.refList(st)
	if err != nil {
		return nil, err
	}
	for _, v := range outs {
		st.g.top.AddOutput(v)
	}
	if err := p.endLine(); err != nil {
		return nil, err
	}
	// subgraphs of fusion groups
	for i, fg := range st.groups {
		p.skipWS()
		start := p.i
		suffix := "_" + strconv.Itoa(i)
		if err := p.expect("with " + fg.Kind + " = "); err != nil {
			return nil, err
		}
		sub, err := p.graph(depth + 1)
		if err != nil {
			return nil, err
		}
		kind, ok := strings.CutSuffix(fg.Kind, suffix)
		if !ok {
			return nil, p.errAt(start, "subgraph %s does not match its node", fg.Kind)
		}
		fg.Kind = kind
		fg.Attrs = append([]Attr{{Name: "Subgraph", Kind: AttrGraph, Value: sub}}, fg.Attrs...)
	}
	if err := p.finish(st); err != nil {
		return nil, err
	}
	return st.g, nil
}

// finish numbers the named values after the numbered ones, resolves the
// operators and lints the graph.
func (p *parser) finish(st *graphState) error {
	next := 0
	for n := range st.nums {
		if n+1 > next {
			next = n + 1
		}
	}
	for _, v := range st.vals {
		if v.name != "" {
			v.unique = next
			next++
		}
	}
	st.g.nextUnique = next
	st.g.insBlock, st.g.insBefore = st.g.top, nil
	if err := st.g.Lint(); err != nil {
		return p.errAt(len(p.s), "the graph is malformed: %v", err)
	}
	return nil
}

func (p *parser) valueName() (string, error) {
	if !p.accept("%") {
		return "", p.errf("expected a value (%%name), found %s", p.found())
	}
	start := p.i
	for p.i < len(p.s) && nameByte(p.s[p.i]) {
		p.i++
	}
	if p.i == start {
		return "", p.errf("expected a value name after '%%'")
	}
	return p.s[start:p.i], nil
}

// typedDef reads "%name : TYPE".
func (p *parser) typedDef() (string, types.Type, error) {
	name, err := p.valueName()
	if err != nil {
		return "", nil, err
	}
	if err := p.expect(":"); err != nil {
		return "", nil, err
	}
	p.skipSpace()
	t, n, err := types.ParseIRPrefix(p.s[p.i:], p.lookup)
	if err != nil {
		if pe, ok := err.(*types.ParseError); ok {
			return "", nil, p.errAt(p.i+pe.Offset, "bad type of %%%s: %s", name, pe.Msg)
		}
		return "", nil, p.errf("bad type of %%%s: %v", name, err)
	}
	if hasVar(t) {
		return "", nil, p.errf("bad type of %%%s: unknown type %s", name, strconv.Quote(p.s[p.i:p.i+n]))
	}
	p.i += n
	return name, t, nil
}

// define names v (a number or a debug name) and makes it visible in the
// innermost scope.
func (p *parser) define(st *graphState, v *Value, name string, at int) error {
	if strings.Trim(name, "0123456789") == "" {
		n, err := strconv.Atoi(name)
		if err != nil || n > math.MaxInt32 {
			return p.errAt(at, "value number %%%s is too large", name)
		}
		if _, dup := st.nums[n]; dup {
			return p.errAt(at, "value %%%s is defined twice", name)
		}
		st.nums[n] = v
		v.unique = n
	} else {
		if _, dup := st.named[name]; dup {
			return p.errAt(at, "value %%%s is defined twice", name)
		}
		st.named[name] = v
		v.setNameExact(name)
	}
	st.vals = append(st.vals, v)
	st.scopes[len(st.scopes)-1][name] = v
	return nil
}

func (p *parser) use(st *graphState) (*Value, error) {
	at := p.i
	name, err := p.valueName()
	if err != nil {
		return nil, err
	}
	for i := len(st.scopes) - 1; i >= 0; i-- {
		if v, ok := st.scopes[i][name]; ok {
			return v, nil
		}
	}
	if _, ok := st.named[name]; ok {
		return nil, p.errAt(at, "value %%%s is not visible here (defined in another block)", name)
	}
	return nil, p.errAt(at, "value %%%s is used before it is defined", name)
}

// refList reads "(%a, %b)".
func (p *parser) refList(st *graphState) ([]*Value, error) {
	if err := p.expect("("); err != nil {
		return nil, err
	}
	var vs []*Value
	p.skipSpace()
	if p.accept(")") {
		return vs, nil
	}
	for {
		p.skipSpace()
		v, err := p.use(st)
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
		p.skipSpace()
		if p.accept(")") {
			return vs, nil
		}
		if !p.accept(",") {
			return nil, p.errf("expected ',' or ')' in a value list, found %s", p.found())
		}
	}
}

// nodes reads node lines into b until the line starting with end ("return"
// or "->").
func (p *parser) nodes(st *graphState, b *Block, depth int, end string) error {
	for {
		p.skipWS()
		if p.i >= len(p.s) {
			return p.errf("expected %q, found the end of the text", end)
		}
		if strings.HasPrefix(p.s[p.i:], end) {
			return nil
		}
		if err := p.node(st, b, depth); err != nil {
			return err
		}
	}
}

type pendingOut struct {
	name string
	t    types.Type
	at   int
}

func (p *parser) node(st *graphState, b *Block, depth int) error {
	if depth > maxParseDepth {
		return p.errf("blocks nested too deeply")
	}
	var outs []pendingOut
	if p.peek() == '%' {
		for {
			at := p.i
			name, t, err := p.typedDef()
			if err != nil {
				return err
			}
			outs = append(outs, pendingOut{name, t, at})
			p.skipSpace()
			if !p.accept(",") {
				break
			}
			p.skipSpace()
		}
	}
	if err := p.expect("="); err != nil {
		return err
	}
	p.skipSpace()
	kindAt := p.i
	for p.i < len(p.s) && (nameByte(p.s[p.i]) || p.s[p.i] == ':') {
		p.i++
	}
	kind := p.s[kindAt:p.i]
	if !strings.Contains(kind, "::") || strings.HasPrefix(kind, "::") || strings.HasSuffix(kind, ":") {
		return p.errAt(kindAt, "expected a node kind (namespace::name), found %s", strconv.Quote(kind))
	}
	n := &Node{Kind: kind, graph: st.g}
	if p.peek() == '[' {
		attrs, err := p.attrs(kind, outs)
		if err != nil {
			return err
		}
		n.Attrs = attrs
	}
	ins, err := p.refList(st)
	if err != nil {
		return err
	}
	for _, v := range ins {
		n.AddInput(v)
	}
	// the rest of the line: ", scope: S" and " # file:line:col"
	eol := strings.IndexByte(p.s[p.i:], '\n')
	if eol < 0 {
		eol = len(p.s) - p.i
	}
	rest := strings.TrimRight(p.s[p.i:p.i+eol], " \r")
	restAt := p.i
	p.i += eol
	if rest != "" {
		comment := ""
		if j := strings.LastIndex(rest, " # "); j >= 0 {
			rest, comment = rest[:j], rest[j+3:]
		} else if strings.HasPrefix(rest, "# ") {
			rest, comment = "", rest[2:]
		}
		if rest != "" {
			scope, ok := strings.CutPrefix(rest, ", scope: ")
			if !ok || scope == "" {
				return p.errAt(restAt, "unexpected text after the node: %s", strconv.Quote(rest))
			}
			n.Scope = scope
		}
		if comment != "" {
			sr, ok := parseSourceRange(comment)
			if !ok {
				return p.errAt(restAt, "bad source comment %s (want # file:line:col)", strconv.Quote(comment))
			}
			n.Source = sr
		}
	}
	if err := p.endLine(); err != nil {
		return err
	}
	// nested blocks
	st.scopes = append(st.scopes, nil)
	for k := 0; ; k++ {
		p.skipWS()
		hdr := "block" + strconv.Itoa(k) + "("
		if !strings.HasPrefix(p.s[p.i:], "block") {
			break
		}
		if !p.accept(hdr) {
			return p.errf("expected %q, found %s", hdr, p.found())
		}
		blk := n.AddBlock()
		st.scopes[len(st.scopes)-1] = map[string]*Value{}
		p.skipSpace()
		if !p.accept(")") {
			for {
				p.skipSpace()
				at := p.i
				name, t, err := p.typedDef()
				if err != nil {
					return err
				}
				if err := p.define(st, blk.AddParam(t), name, at); err != nil {
					return err
				}
				p.skipSpace()
				if p.accept(")") {
					break
				}
				if !p.accept(",") {
					return p.errf("expected ',' or ')' after a block param, found %s", p.found())
				}
			}
		}
		if err := p.expect(":"); err != nil {
			return err
		}
		if err := p.endLine(); err != nil {
			return err
		}
		if err := p.nodes(st, blk, depth+1, "->"); err != nil {
			return err
		}
		p.accept("->")
		bo, err := p.refList(st)
		if err != nil {
			return err
		}
		for _, v := range bo {
			blk.AddOutput(v)
		}
		if err := p.endLine(); err != nil {
			return err
		}
	}
	st.scopes = st.scopes[:len(st.scopes)-1]
	for _, o := range outs {
		if err := p.define(st, n.AddOutput(o.t), o.name, o.at); err != nil {
			return err
		}
	}
	n.block = b
	b.Nodes = append(b.Nodes, n)
	if _, sub := n.Attr("Subgraph"); !sub && isGroupKind(kind) {
		st.groups = append(st.groups, n)
	}
	if op := p.opts.Resolve(n); op != nil {
		n.Op = op
	}
	return nil
}

// isGroupKind reports whether kind is printed as a fusion group's
// "KIND_N" (prim::FusionGroup_0), whose subgraph follows the return.
func isGroupKind(kind string) bool {
	j := strings.LastIndexByte(kind, '_')
	if j < 0 || j+1 == len(kind) || strings.Trim(kind[j+1:], "0123456789") != "" {
		return false
	}
	switch kind[:j] {
	case "prim::FusionGroup", "prim::DifferentiableGraph", "prim::CudaFusionGroup", "prim::TensorExprGroup",
		"prim::StaticSubgraph", "prim::FallbackGraph", "prim::TensorExprDynamicGroup", "prim::LlgaFusionGroup",
		"prim::MKLDNNGroup", "prim::oneDNNFusionGroup", "prim::CudaFusionGuard":
		return true
	}
	return false
}

func parseSourceRange(s string) (*SourceRange, bool) {
	j := strings.LastIndexByte(s, ':')
	if j < 0 {
		return nil, false
	}
	col, err := strconv.Atoi(s[j+1:])
	if err != nil || col < 0 {
		return nil, false
	}
	k := strings.LastIndexByte(s[:j], ':')
	if k < 0 {
		return nil, false
	}
	line, err := strconv.Atoi(s[k+1 : j])
	if err != nil || line < 0 {
		return nil, false
	}
	sr := &SourceRange{File: s[:k], Line: line, Col: col}
	if sr.String() != s {
		return nil, false // "+1" or "01": not as PyTorch prints
	}
	return sr, true
}

// attrs reads "[name=value, ...]".
func (p *parser) attrs(kind string, outs []pendingOut) ([]Attr, error) {
	p.accept("[")
	var as []Attr
	for {
		p.skipSpace()
		at := p.i
		for p.i < len(p.s) && nameByte(p.s[p.i]) && p.s[p.i] != '.' {
			p.i++
		}
		name := p.s[at:p.i]
		if name == "" {
			return nil, p.errf("expected an attribute name, found %s", p.found())
		}
		if !p.accept("=") {
			return nil, p.errf("expected '=' after attribute %s, found %s", name, p.found())
		}
		for _, a := range as {
			if a.Name == name {
				return nil, p.errAt(at, "attribute %s is given twice", name)
			}
		}
		vat := p.i
		a, err := p.attrValue(kind, outs, 0)
		if err != nil {
			return nil, err
		}
		a.Name, a.Text = name, p.s[vat:p.i]
		as = append(as, a)
		p.skipSpace()
		if p.accept("]") {
			return as, nil
		}
		if !p.accept(",") {
			return nil, p.errf("expected ',' or ']' after attribute %s, found %s", name, p.found())
		}
	}
}

// attrValue reads one attribute value and gives its kind: a constant's
// lists and tuples are IValues (as insertConstant makes them), other
// nodes' lists are int/float/string lists.
func (p *parser) attrValue(kind string, outs []pendingOut, depth int) (Attr, error) {
	if depth > 64 {
		return Attr{}, p.errf("attribute value nested too deeply")
	}
	constant := kind == "prim::Constant"
	switch c := p.peek(); {
	case c == '"' || c == '\'':
		s, err := p.stringLit()
		if err != nil {
			return Attr{}, err
		}
		return Attr{Kind: AttrString, Value: s}, nil
	case p.accept("[<Tensors>]"):
		return Attr{Kind: AttrTensors}, nil
	case p.accept("[<Graphs>]"):
		return Attr{Kind: AttrGraphs}, nil
	case p.accept("<Tensor>"):
		return Attr{Kind: AttrTensor}, nil
	case p.accept("<Graph>"):
		return Attr{Kind: AttrGraph}, nil
	case c == '{':
		return p.tensorLit(outs)
	case c == ' ' || c == '(' && strings.Contains(p.lineRest(), "Type{"):
		return p.tensorPrinted()
	case c == '[':
		p.i++
		var elems []Attr
		for {
			p.skipSpace()
			if p.accept("]") {
				break
			}
			if len(elems) > 0 {
				if !p.accept(",") {
					return Attr{}, p.errf("expected ',' or ']' in a list, found %s", p.found())
				}
				p.skipSpace()
			}
			e, err := p.attrValue(kind, outs, depth+1)
			if err != nil {
				return Attr{}, err
			}
			elems = append(elems, e)
		}
		return listAttr(elems, constant || depth > 0), nil
	case c == '(':
		p.i++
		var items Tuple = Tuple{}
		for {
			p.skipSpace()
			if p.accept(")") {
				break
			}
			if len(items) > 0 {
				if !p.accept(",") {
					return Attr{}, p.errf("expected ',' or ')' in a tuple, found %s", p.found())
				}
				p.skipSpace()
				if p.accept(")") {
					break
				}
			}
			e, err := p.attrValue(kind, outs, depth+1)
			if err != nil {
				return Attr{}, err
			}
			items = append(items, ivalueOf(e))
		}
		return Attr{Kind: AttrIValue, Value: items}, nil
	case c == '-' || c >= '0' && c <= '9' || strings.HasPrefix(p.s[p.i:], "inf") || strings.HasPrefix(p.s[p.i:], "nan"):
		return p.number()
	}
	at := p.i
	for p.i < len(p.s) && nameByte(p.s[p.i]) {
		p.i++
	}
	switch p.s[at:p.i] {
	case "True":
		return Attr{Kind: AttrIValue, Value: true}, nil
	case "False":
		return Attr{Kind: AttrIValue, Value: false}, nil
	case "None":
		return Attr{Kind: AttrIValue, Value: nil}, nil
	}
	p.i = at
	t, n, err := types.ParseIRPrefix(p.s[p.i:], p.lookup)
	if err != nil || n == 0 {
		return Attr{}, p.errf("expected an attribute value, found %s", p.found())
	}
	p.i += n
	return Attr{Kind: AttrType, Value: t}, nil
}

func ivalueOf(a Attr) any {
	if a.Kind == AttrTensor {
		if t, ok := a.Value.(*tensor.Tensor); ok {
			return t
		}
		return nil
	}
	return a.Value
}

// listAttr types a list: an IValue list for constants (and nested lists),
// an is/fs/ss/tys list otherwise when the elements agree.
func listAttr(elems []Attr, ival bool) Attr {
	all := func(k AttrKind) bool {
		for _, e := range elems {
			if e.Kind != k {
				return false
			}
		}
		return len(elems) > 0
	}
	switch {
	case all(AttrInt):
		v := make([]int64, len(elems))
		for i, e := range elems {
			v[i], _ = e.Value.(int64)
		}
		if ival {
			return Attr{Kind: AttrIValue, Value: v}
		}
		return Attr{Kind: AttrInts, Value: v}
	case all(AttrFloat):
		v := make([]float64, len(elems))
		for i, e := range elems {
			v[i], _ = e.Value.(float64)
		}
		if ival {
			return Attr{Kind: AttrIValue, Value: v}
		}
		return Attr{Kind: AttrFloats, Value: v}
	case all(AttrString):
		v := make([]string, len(elems))
		for i, e := range elems {
			v[i], _ = e.Value.(string)
		}
		if ival {
			return Attr{Kind: AttrIValue, Value: v}
		}
		return Attr{Kind: AttrStrings, Value: v}
	case all(AttrType) && !ival:
		v := make([]types.Type, len(elems))
		for i, e := range elems {
			v[i], _ = e.Value.(types.Type)
		}
		return Attr{Kind: AttrTypes, Value: v}
	}
	bools := len(elems) > 0
	for _, e := range elems {
		if _, ok := e.Value.(bool); !ok {
			bools = false
		}
	}
	if bools {
		v := make([]bool, len(elems))
		for i, e := range elems {
			v[i] = e.Value.(bool)
		}
		return Attr{Kind: AttrIValue, Value: v}
	}
	v := make([]any, len(elems))
	for i, e := range elems {
		v[i] = ivalueOf(e)
	}
	return Attr{Kind: AttrIValue, Value: v}
}

func (p *parser) number() (Attr, error) {
	at := p.i
	p.accept("-")
	if p.accept("inf") {
		v := math.Inf(1)
		if p.s[at] == '-' {
			v = math.Inf(-1)
		}
		return Attr{Kind: AttrFloat, Value: v}, nil
	}
	if p.accept("nan") {
		return Attr{Kind: AttrFloat, Value: math.NaN()}, nil
	}
	isFloat := false
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c >= '0' && c <= '9':
		case c == '.' || c == 'e' || c == 'E':
			isFloat = true
		case (c == '-' || c == '+') && (p.s[p.i-1] == 'e' || p.s[p.i-1] == 'E'):
		default:
			goto done
		}
		p.i++
	}
done:
	text := p.s[at:p.i]
	if !isFloat {
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return Attr{}, p.errAt(at, "bad integer %s", strconv.Quote(text))
		}
		return Attr{Kind: AttrInt, Value: v}, nil
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return Attr{}, p.errAt(at, "bad number %s", strconv.Quote(text))
	}
	return Attr{Kind: AttrFloat, Value: v}, nil
}

// stringLit reads a string as c10::printQuotedString writes it.
func (p *parser) stringLit() (string, error) {
	at := p.i
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for {
		if p.i >= len(p.s) || p.s[p.i] == '\n' {
			return "", p.errAt(at, "unterminated string")
		}
		c := p.s[p.i]
		p.i++
		if c == q {
			return b.String(), nil
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if p.i >= len(p.s) {
			return "", p.errAt(at, "unterminated string")
		}
		e := p.s[p.i]
		p.i++
		switch e {
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		default:
			// three digits as octalEscape writes them: '0'+d with d in
			// -7..7 ('(' to '7')
			if isEscDigit(e) && p.i+1 < len(p.s) && isEscDigit(p.s[p.i]) && isEscDigit(p.s[p.i+1]) {
				v := int(e) - '0'
				v = v*64 + (int(p.s[p.i])-'0')*8 + int(p.s[p.i+1]) - '0'
				if v >= -128 && v <= 255 && octalEscape(byte(v)) == p.s[p.i-2:p.i+2] {
					b.WriteByte(byte(v))
					p.i += 2
					continue
				}
			}
			return "", p.errAt(p.i-2, "bad escape \\%c in a string", e)
		}
	}
}

func isEscDigit(c byte) bool { return c >= '0'-7 && c <= '7' }

func (p *parser) lineRest() string {
	rest := p.s[p.i:]
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[:nl]
	}
	return rest
}

// tensorPrinted reads a tensor PyTorch printed in full, its newlines made
// spaces (" 1  2 [ CPUFloatType{2} ]"): only its text is kept.
func (p *parser) tensorPrinted() (Attr, error) {
	rest := p.lineRest()
	j := strings.Index(rest, "Type{")
	if j < 0 {
		return Attr{}, p.errf("expected an attribute value, found %s", p.found())
	}
	k := strings.Index(rest[j:], "} ]")
	if k < 0 {
		return Attr{}, p.errf("unterminated tensor value")
	}
	p.i += j + k + len("} ]")
	return Attr{Kind: AttrTensor}, nil
}

// tensorLit reads a tensor printed "{v}" (a one-element tensor) and makes
// a 0-dim tensor of it: of the dtype of the constant's refined type when
// it has one, else float32 for a float and int64 for an integer. A form it
// cannot read ("{ 1  2 [ CPULongType{2} ]}") keeps only its text.
func (p *parser) tensorLit(outs []pendingOut) (Attr, error) {
	at := p.i
	depth := 0
	for p.i < len(p.s) && p.s[p.i] != '\n' {
		c := p.s[p.i]
		p.i++
		if c == '{' {
			depth++
		} else if c == '}' {
			depth--
			if depth == 0 {
				break
			}
		}
	}
	if depth != 0 {
		return Attr{}, p.errAt(at, "unterminated tensor value")
	}
	inner := p.s[at+1 : p.i-1]
	dt := tensor.Invalid
	if len(outs) == 1 {
		if tt, ok := outs[0].t.(*types.TensorType); ok {
			dt = dtypeOf(tt.DType)
		}
	}
	if iv, err := strconv.ParseInt(inner, 10, 64); err == nil {
		if dt == tensor.Invalid {
			dt = tensor.Int64
		}
		if t, err := tensor.FullInt(dt, iv); err == nil {
			return Attr{Kind: AttrTensor, Value: t}, nil
		}
	} else if fv, err := strconv.ParseFloat(inner, 64); err == nil {
		if dt == tensor.Invalid {
			dt = tensor.Float32
		}
		if t, err := tensor.Full(dt, fv); err == nil {
			return Attr{Kind: AttrTensor, Value: t}, nil
		}
	}
	return Attr{Kind: AttrTensor}, nil
}

func dtypeOf(name string) tensor.DType {
	switch name {
	case "Float":
		return tensor.Float32
	case "Double":
		return tensor.Float64
	case "Half":
		return tensor.Float16
	case "BFloat16":
		return tensor.BFloat16
	case "Long":
		return tensor.Int64
	case "Int":
		return tensor.Int32
	case "Short":
		return tensor.Int16
	case "Char":
		return tensor.Int8
	case "Byte":
		return tensor.Uint8
	case "Bool":
		return tensor.Bool
	}
	return tensor.Invalid
}
