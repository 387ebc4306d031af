package pyprint

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/types"
)

// Param is one parameter of the printed function's signature.
type Param struct {
	// Name is the parameter's name as the schema has it ("x").
	Name string
	// Type is its type; nil takes the graph input's type.
	Type types.Type
	// Default is the default value (an IValue as ir attributes hold
	// them) when HasDefault.
	Default    any
	HasDefault bool
}

// Signature is what the header of a printed function needs beyond its
// graph.
type Signature struct {
	// Name is the function's name ("forward").
	Name string
	// Params are the parameters in order, one per graph input; nil takes
	// them from the graph inputs' debug names with their ".N" suffixes
	// removed ("x.1" is x).
	Params []Param
	// Method omits the first parameter's type (self), as printMethod.
	Method bool
}

// Code is a printed function.
type Code struct {
	// Text is the code, ending in a newline.
	Text string
	// Constants are the values CONSTANTS.c0, CONSTANTS.c1, ... name
	// (tensors, and strings that are not ASCII).
	Constants []any
}

// Method prints the method name whose graph is g (input 0 is self) as
// PyTorch's m.code (or m.name.code) does.
func Method(name string, g *ir.Graph) (*Code, error) {
	return Print(Signature{Name: name, Method: true}, g)
}

// Print prints the function of graph g as python_print's printFunction.
func Print(sig Signature, g *ir.Graph) (code *Code, err error) {
	if g == nil {
		return nil, fmt.Errorf("pyprint: %s: no graph", sig.Name)
	}
	if sig.Params != nil && len(sig.Params) != len(g.Inputs()) {
		return nil, fmt.Errorf("pyprint: %s: the signature has %d parameters, the graph %d inputs", sig.Name, len(sig.Params), len(g.Inputs()))
	}
	p := newPrinter()
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprintf("malformed graph (%v)", r)
			if pe, ok := r.(printError); ok {
				msg = pe.msg
			}
			code, err = nil, fmt.Errorf("pyprint: %s: %s", sig.Name, msg)
		}
	}()
	p.function(sig, g)
	return &Code{Text: p.body.String(), Constants: p.constants}, nil
}

// printError carries a failure out of the recursive printer.
type printError struct{ msg string }

func fail(format string, args ...any) { panic(printError{fmt.Sprintf(format, args...)}) }

// BaseName is a debug name without a ".N" suffix of digits ("x.1" is x,
// "x.y" stays), as Value::debugNameBase.
func BaseName(name string) string {
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 || dot+1 == len(name) {
		return name
	}
	for _, c := range name[dot+1:] {
		if c < '0' || c > '9' {
			return name
		}
	}
	return name[:dot]
}

// reserved are the names python_print never gives a value.
var reserved = map[string]bool{}

func init() {
	for _, s := range strings.Fields(`_ as aten attribute CONSTANTS fork getattr inf nan infj nanj ops __torch__
		and as assert async await break class continue def del elif else except False finally for from global
		if import in is lambda None nonlocal not or pass raise return True try with while yield
		uninitialized unchecked_cast`) {
		reserved[s] = true
	}
}

// returnKey stands for a block's return node (Use.User is nil for a
// block output).
type returnKey struct{ b *ir.Block }

type printer struct {
	body      strings.Builder
	level     int
	used      map[string]bool
	nextID    map[string]int
	exprs     map[*ir.Value]string
	idents    map[*ir.Value]string
	inline    map[*ir.Node]bool
	seenConst map[*ir.Node]bool
	visited   map[any]int
	index     map[*ir.Node]int
	constants []any
}

func newPrinter() *printer {
	return &printer{
		used: map[string]bool{}, nextID: map[string]int{},
		exprs: map[*ir.Value]string{}, idents: map[*ir.Value]string{},
		inline: map[*ir.Node]bool{}, seenConst: map[*ir.Node]bool{},
		visited: map[any]int{}, index: map[*ir.Node]int{},
	}
}

func (p *printer) function(sig Signature, g *ir.Graph) {
	p.indent()
	p.body.WriteString("def " + sig.Name + "(")
	for i, in := range g.Inputs() {
		var prm Param
		if sig.Params != nil {
			prm = sig.Params[i]
		} else {
			prm.Name = BaseName(in.DebugName())
			if prm.Name == "" {
				prm.Name = "argument_" + strconv.Itoa(i)
			}
		}
		t := prm.Type
		if t == nil {
			t = in.Type
		}
		name := p.genName(prm.Name)
		if i == 0 {
			p.body.WriteString(name)
			if !sig.Method {
				p.body.WriteString(": " + annotation(t))
			}
		} else {
			p.body.WriteString(",\n    " + name + ": " + annotation(t))
		}
		if prm.HasDefault {
			p.body.WriteString("=" + p.constant(prm.Default, t))
		}
		p.idents[in] = name
	}
	ret := types.Type(types.None)
	if outs := g.Outputs(); len(outs) == 1 {
		ret = outs[0].Type
	} else if len(outs) > 1 {
		elems := make([]types.Type, len(outs))
		for i, o := range outs {
			elems[i] = o.Type
		}
		ret = &types.Tuple{Elems: elems}
	}
	p.body.WriteString(") -> " + annotation(ret) + ":\n")
	p.printBody(g.Block())
}

func annotation(t types.Type) string {
	if t == nil {
		fail("a value has no type")
	}
	return t.Annotation()
}

// genName returns candidate, or candidate with a number when it is taken
// or reserved (genNameImpl, quirks included).
func (p *printer) genName(candidate string) string {
	name := candidate
	for p.used[name] || reserved[name] {
		id := p.nextID[name]
		p.nextID[name] = id + 1
		name = candidate + strconv.Itoa(id)
	}
	p.used[name] = true
	return name
}

func validIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func makeValidIdent(s string) string {
	var b strings.Builder
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		b.WriteByte('_')
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func (p *printer) uniqueNameFor(v *ir.Value) string {
	if v.DebugName() != "" {
		return p.genName(makeValidIdent(BaseName(v.DebugName())))
	}
	return p.genName("_")
}

func (p *printer) assignUnique(vs []*ir.Value) {
	for _, v := range vs {
		p.idents[v] = p.uniqueNameFor(v)
	}
}

func (p *printer) useOf(v *ir.Value) string {
	if s, ok := p.idents[v]; ok {
		return s
	}
	if s, ok := p.exprs[v]; ok {
		return s
	}
	fail("value %%%s is used before it is printed", v.Name())
	return ""
}

func (p *printer) valueList(vs []*ir.Value, begin, end string) string {
	var b strings.Builder
	b.WriteString(begin)
	for i, v := range vs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.useOf(v))
	}
	b.WriteString(end)
	return b.String()
}

func (p *printer) indent() {
	for i := 0; i < p.level; i++ {
		p.body.WriteString("  ")
	}
}

// position of n in its block.
func (p *printer) pos(n *ir.Node) int {
	if i, ok := p.index[n]; ok {
		return i
	}
	for i, m := range n.Block().Nodes {
		p.index[m] = i
	}
	return p.index[n]
}

// prevNonConstant is the closest node before n that is not a constant;
// nil is the block's param node.
func (p *printer) prevNonConstant(b *ir.Block, i int) *ir.Node {
	for i--; i >= 0; i-- {
		if b.Nodes[i].Kind != "prim::Constant" {
			return b.Nodes[i]
		}
	}
	return nil
}

// canInline reports whether v may be printed where it is used
// (PythonPrintImpl::canInline).
func (p *printer) canInline(v *ir.Value) bool {
	n := v.Node()
	if len(n.Outputs) != 1 || len(v.Uses()) != 1 {
		return false
	}
	u := v.Uses()[0]
	if v.DebugName() != "" && u.User != nil {
		return false
	}
	if len(n.Blocks) != 0 {
		return false
	}
	if u.User != nil {
		switch u.User.Kind {
		case "prim::Loop":
			if u.Index >= 2 {
				return false
			}
		case "prim::fork", "prim::rpc_async", "prim::rpc_sync", "prim::rpc_remote":
			return false
		}
	}
	return n.Kind != "prim::isinstance"
}

func (p *printer) scanValue(point *ir.Node, v *ir.Value) *ir.Node {
	n := v.Node()
	if n == nil {
		return point
	}
	if n == point && p.canInline(v) {
		point = p.scanNode(n)
		p.inline[n] = true
	} else if n.Kind == "prim::Constant" {
		p.inline[n] = true
	}
	return point
}

func (p *printer) scanNode(n *ir.Node) *ir.Node {
	if p.inline[n] {
		return n
	}
	for _, b := range n.Blocks {
		p.scanBlock(b)
	}
	point := p.prevNonConstant(n.Block(), p.pos(n))
	for i := len(n.Inputs) - 1; i >= 0; i-- {
		point = p.scanValue(point, n.Inputs[i])
	}
	return point
}

func (p *printer) scanBlock(b *ir.Block) {
	point := p.prevNonConstant(b, len(b.Nodes))
	for i := len(b.Outputs) - 1; i >= 0; i-- {
		point = p.scanValue(point, b.Outputs[i])
	}
	for i := len(b.Nodes) - 1; i >= 0; i-- {
		p.scanNode(b.Nodes[i])
	}
}

func (p *printer) constantList(b *ir.Block, out []*ir.Node) []*ir.Node {
	add := func(vs []*ir.Value) {
		for _, v := range vs {
			if n := v.Node(); n != nil && n.Kind == "prim::Constant" && !p.seenConst[n] {
				p.seenConst[n] = true
				out = append(out, n)
			}
		}
	}
	for _, n := range b.Nodes {
		add(n.Inputs)
		for _, sb := range n.Blocks {
			out = p.constantList(sb, out)
		}
	}
	add(b.Outputs)
	return out
}

func (p *printer) printBody(b *ir.Block) {
	consts := p.constantList(b, nil)
	p.scanBlock(b)
	p.level++
	for _, n := range consts {
		p.printNode(n, true)
	}
	p.printBlock(b, len(b.Outputs) > 0)
	if len(b.Outputs) > 0 {
		p.indent()
		p.body.WriteString("return " + p.valueList(b.Outputs, "", "") + "\n")
	}
	p.level--
}

func (p *printer) printBlock(b *ir.Block, others bool) {
	if !others && len(b.Nodes) == 0 {
		p.indent()
		p.body.WriteString("pass\n")
	}
	for _, n := range b.Nodes {
		p.printNode(n, false)
	}
}

func (p *printer) printAssignment(lhs, rhs []*ir.Value) {
	if len(lhs) == 0 {
		return
	}
	p.indent()
	p.body.WriteString(p.valueList(lhs, "", "") + " = " + p.valueList(rhs, "", "") + "\n")
}

func (p *printer) printIf(n *ir.Node) {
	if len(n.Blocks) != 2 || len(n.Inputs) != 1 {
		fail("prim::If needs one condition and two blocks")
	}
	p.assignUnique(n.Outputs)
	p.indent()
	p.body.WriteString("if " + p.useOf(n.Inputs[0]) + ":\n")
	for i, b := range n.Blocks {
		if i == 1 {
			p.indent()
			p.body.WriteString("else:\n")
		}
		if len(b.Outputs) != len(n.Outputs) {
			fail("prim::If block %d yields %d values for %d outputs", i, len(b.Outputs), len(n.Outputs))
		}
		p.level++
		p.printBlock(b, len(n.Outputs) > 0)
		p.printAssignment(n.Outputs, b.Outputs)
		p.level--
	}
}

func (p *printer) constInput(v *ir.Value) (any, bool) {
	if n := v.Node(); n != nil && n.Kind == "prim::Constant" {
		if v.Type != nil && v.Type.Kind() == types.FunctionKind {
			return nil, false
		}
		return n.ConstantValue()
	}
	return nil, false
}

func (p *printer) printLoop(n *ir.Node) {
	if len(n.Blocks) != 1 || len(n.Inputs) < 2 {
		fail("prim::Loop needs a trip count, a condition and a body")
	}
	body := n.Blocks[0]
	carried := n.Outputs
	if len(body.Params) != len(carried)+1 || len(body.Outputs) != len(carried)+1 || len(n.Inputs) != len(carried)+2 {
		fail("prim::Loop's body does not match its %d carried values", len(carried))
	}
	// LoopView::loopType
	trip, tripConst := p.constInput(n.Inputs[0])
	cin, cinConst := p.constInput(n.Inputs[1])
	cnext, cnextConst := p.constInput(body.Outputs[0])
	always := cinConst && cin == true && cnextConst && cnext == true
	tripSpecified := !tripConst || trip != int64(1<<63-1) || len(body.Params[0].Uses()) > 0
	var isFor bool
	switch {
	case always:
		isFor = tripSpecified
	case tripSpecified:
		fail("loop cannot be printed as python because it has gone through an optimization that combined while and for loops")
	}
	p.assignUnique(carried)
	for i, v := range body.Params[1:] {
		p.exprs[v] = p.useOf(carried[i])
	}
	for i, lhs := range carried {
		rhs := n.Inputs[2+i]
		p.indent()
		p.body.WriteString(p.useOf(lhs))
		if !types.Equal(lhs.Type, rhs.Type) {
			p.body.WriteString(": " + annotation(lhs.Type))
		}
		p.body.WriteString(" = " + p.useOf(rhs) + "\n")
	}
	counter := body.Params[0]
	p.assignUnique([]*ir.Value{counter})
	offset := 0
	if isFor {
		offset = 1
		p.indent()
		p.body.WriteString("for " + p.useOf(counter) + " in range(" + p.useOf(n.Inputs[0]) + "):\n")
	} else {
		p.printAssignment([]*ir.Value{counter}, n.Inputs[1:2])
		p.indent()
		p.body.WriteString("while " + p.useOf(counter) + ":\n")
	}
	p.level++
	p.printBlock(body, len(body.Params[offset:]) > 0)
	p.printAssignment(body.Params[offset:], body.Outputs[offset:])
	p.level--
}

func (p *printer) isLongLine(s string) bool { return len(s)+p.level*2 >= 40 }

func (p *printer) isNonConstantInline(v *ir.Value) bool {
	n := v.Node()
	return n != nil && n.Kind != "prim::Constant" && p.inline[n]
}

// useInput is input i of a user: a node, or a block's return.
func useInput(user any, i int) *ir.Value {
	switch u := user.(type) {
	case *ir.Node:
		return u.Inputs[i]
	case returnKey:
		return u.b.Outputs[i]
	}
	return nil
}

func userOf(u ir.Use) any {
	if u.User != nil {
		return u.User
	}
	return returnKey{u.Block}
}

func (p *printer) splitLongInlines(v *ir.Value) {
	var rev []*ir.Value
	u := v.Uses()[0]
	p.scanLongInlines(userOf(u), u.Index, &rev)
	for i := len(rev) - 1; i >= 0; i-- {
		w := rev[i]
		p.printOutputDefinition(w.Node(), p.useOf(w))
	}
}

func (p *printer) scanLongInlines(user any, offset int, rev *[]*ir.Value) {
	last, present := p.visited[user]
	stop := 0
	if present {
		stop = last + 1
	}
	for i := offset; i >= stop; i-- {
		if arg := useInput(user, i); p.isNonConstantInline(arg) {
			*rev = append(*rev, arg)
		}
	}
	p.visited[user] = offset
	if n, ok := user.(*ir.Node); ok && !present && p.inline[n] {
		u := n.Outputs[0].Uses()[0]
		p.scanLongInlines(userOf(u), u.Index-1, rev)
	}
}

func (p *printer) printOutputDefinition(n *ir.Node, expr string) {
	p.assignUnique(n.Outputs)
	p.indent()
	if len(n.Outputs) > 0 {
		p.body.WriteString(p.valueList(n.Outputs, "", "") + " = ")
	}
	p.body.WriteString(expr + "\n")
}

func (p *printer) printNode(n *ir.Node, printConst bool) {
	if !printConst && n.Kind == "prim::Constant" {
		return
	}
	switch n.Kind {
	case "prim::Loop":
		p.printLoop(n)
	case "prim::If":
		p.printIf(n)
	case "prim::TupleUnpack", "prim::ListUnpack":
		p.assignUnique(n.Outputs)
		p.indent()
		if len(n.Outputs) > 0 {
			p.body.WriteString(p.valueList(n.Outputs, "", ", = "))
		}
		p.body.WriteString(p.useOf(p.input(n, 0)) + "\n")
	case "prim::SetAttr":
		p.indent()
		p.body.WriteString(p.useOf(p.input(n, 0)) + "." + p.str(n, "name") + " = " + p.useOf(p.input(n, 1)) + "\n")
	case "prim::Enter":
		out := n.Output()
		p.indent()
		p.body.WriteString("with " + p.useOf(p.input(n, 0)))
		if out != nil && len(out.Uses()) > 0 {
			p.idents[out] = p.uniqueNameFor(out)
			p.body.WriteString(" as " + p.useOf(out))
		}
		p.body.WriteString(":\n")
		p.level++
	case "prim::Exit":
		if i := p.pos(n); i > 0 && n.Block().Nodes[i-1].Kind == "prim::Enter" {
			p.indent()
			p.body.WriteString("pass\n")
		}
		p.level--
	case "prim::fork":
		p.printFork(n) // fork.go
	case "prim::Closure", "prim::ModuleContainerIndex", "prim::PythonOp":
		fail("%s is not printed", n.Kind)
	default:
		rhs := p.rhs(n)
		if !p.inline[n] || (n.Kind == "prim::Constant" && p.isLongLine(rhs)) {
			p.printOutputDefinition(n, rhs)
		} else {
			p.exprs[n.Outputs[0]] = rhs
			if p.isLongLine(rhs) {
				p.splitLongInlines(n.Outputs[0])
			}
		}
	}
}

func (p *printer) input(n *ir.Node, i int) *ir.Value {
	if i >= len(n.Inputs) {
		fail("%s needs %d inputs, has %d", n.Kind, i+1, len(n.Inputs))
	}
	return n.Inputs[i]
}

func (p *printer) output(n *ir.Node) *ir.Value {
	if len(n.Outputs) != 1 {
		fail("%s needs one output, has %d", n.Kind, len(n.Outputs))
	}
	return n.Outputs[0]
}

// canInfer is elementTypeCanBeInferredFromMembers.
func canInfer(t types.Type) bool {
	switch t.Kind() {
	case types.UnionKind, types.OptionalKind, types.NumberKind, types.InterfaceKind, types.AnyKind:
		return false
	}
	return true
}

func (p *printer) rhs(n *ir.Node) string {
	switch n.Kind {
	case "prim::Uninitialized":
		return "uninitialized(" + annotation(p.output(n).Type) + ")"
	case "prim::Constant":
		out := p.output(n)
		if out.Type != nil && out.Type.Kind() == types.FunctionKind {
			return p.str(n, "name")
		}
		if out.Type != nil && out.Type.Kind() == types.NoneKind {
			return "None"
		}
		v, ok := n.ConstantValue()
		if !ok {
			fail("prim::Constant %%%s has no value", out.Name())
		}
		return p.constant(v, out.Type)
	case "aten::ScalarImplicit", "aten::FloatImplicit", "aten::IntImplicit":
		return "annotate(" + annotation(p.output(n).Type) + ", " + p.useOf(p.input(n, 0)) + ")"
	case "aten::Int":
		return p.valueList(n.Inputs, "int(", ")")
	case "aten::Float":
		return p.valueList(n.Inputs, "float(", ")")
	case "aten::Bool":
		return p.valueList(n.Inputs, "bool(", ")")
	case "aten::str":
		return p.valueList(n.Inputs, "str(", ")")
	case "aten::__getitem__":
		x := p.useOf(p.input(n, 0))
		if !validIdent(x) {
			x = "(" + x + ")"
		}
		return x + "[" + p.useOf(p.input(n, 1)) + "]"
	case "prim::Print":
		return p.valueList(n.Inputs, "print(", ")")
	case "aten::sorted":
		return p.valueList(n.Inputs, "sorted(", ")")
	case "prim::TupleConstruct":
		prefix := ""
		if t, ok := p.output(n).Type.(*types.Tuple); ok && t.Name != "" {
			prefix = t.Annotation()
		}
		end := ")"
		if len(n.Inputs) == 1 {
			end = ",)"
		}
		return prefix + p.valueList(n.Inputs, "(", end)
	case "prim::TupleIndex":
		return "(" + p.useOf(p.input(n, 0)) + ")[" + p.useOf(p.input(n, 1)) + "]"
	case "prim::TupleSlice":
		return "(" + p.useOf(p.input(n, 0)) + ")[" + strconv.FormatInt(p.int(n, "beg"), 10) + ":" + strconv.FormatInt(p.int(n, "end"), 10) + "]"
	case "prim::ListConstruct":
		t := p.output(n).Type
		lt, ok := t.(*types.List)
		if !ok {
			fail("prim::ListConstruct makes a %s, not a list", t)
		}
		if len(n.Inputs) == 0 {
			return "annotate(" + annotation(t) + ", [])"
		}
		if !canInfer(lt.Elem) {
			return "annotate(" + annotation(t) + ", " + p.valueList(n.Inputs, "[", "]") + ")"
		}
		return p.valueList(n.Inputs, "[", "]")
	case "prim::DictConstruct":
		t := p.output(n).Type
		dt, ok := t.(*types.Dict)
		if !ok {
			fail("prim::DictConstruct makes a %s, not a dict", t)
		}
		if len(n.Inputs)%2 != 0 {
			fail("prim::DictConstruct has an odd number of inputs")
		}
		var b strings.Builder
		b.WriteString("{")
		for i := 0; i < len(n.Inputs); i += 2 {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(p.useOf(n.Inputs[i]) + ": " + p.useOf(n.Inputs[i+1]))
		}
		b.WriteString("}")
		if len(n.Inputs) == 0 || !canInfer(dt.Key) || !canInfer(dt.Value) {
			return "annotate(" + annotation(t) + ", " + b.String() + ")"
		}
		return b.String()
	case "prim::CreateObject":
		a := annotation(p.output(n).Type)
		return a + ".__new__(" + a + ")"
	case "prim::GetAttr":
		obj := p.useOf(p.input(n, 0))
		field := p.str(n, "name")
		if validIdent(field) {
			return obj + "." + field
		}
		return "getattr(" + obj + ", " + ir.QuoteString(field) + ")"
	case "prim::CallFunction":
		var b strings.Builder
		b.WriteString(p.useOf(p.input(n, 0)) + "(")
		for _, v := range n.Inputs[1:] {
			b.WriteString(p.useOf(v) + ", ")
		}
		return b.String() + ")"
	case "prim::CallMethod":
		var b strings.Builder
		b.WriteString("(" + p.useOf(p.input(n, 0)) + ")." + p.str(n, "name") + "(")
		for _, v := range n.Inputs[1:] {
			b.WriteString(p.useOf(v) + ", ")
		}
		return b.String() + ")"
	case "aten::_unwrap_optional":
		in := p.input(n, 0)
		x := p.useOf(in)
		if in.Type != nil && in.Type.Kind() == types.NoneKind {
			x = "annotate(" + (&types.Optional{Elem: p.output(n).Type}).Annotation() + ", " + x + ")"
		}
		return "torch._unwrap_optional(" + x + ")"
	case "prim::unchecked_unwrap_optional", "prim::unchecked_cast":
		return "unchecked_cast(" + annotation(p.output(n).Type) + ", " + p.useOf(p.input(n, 0)) + ")"
	case "prim::isinstance":
		a, ok := n.Attr("types")
		if !ok {
			fail("prim::isinstance has no types")
		}
		ts, _ := a.Value.([]types.Type)
		var b strings.Builder
		b.WriteString("isinstance(" + p.useOf(p.input(n, 0)) + ", ")
		if len(ts) == 1 {
			b.WriteString(annotation(ts[0]))
		} else {
			b.WriteString("(")
			for i, t := range ts {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(annotation(t))
			}
			b.WriteString(")")
		}
		return b.String() + ")"
	case "prim::tolist":
		return "annotate(" + annotation(p.output(n).Type) + ", " + p.useOf(p.input(n, 0)) + ".tolist())"
	case "prim::EnumValue":
		return "(" + p.useOf(p.input(n, 0)) + ").value"
	case "prim::EnumName":
		return "(" + p.useOf(p.input(n, 0)) + ").name"
	}
	return p.call(n)
}

// opName is printOpName: aten::add is torch.add, prim::X ops.prim.X.
func opName(kind string) string {
	switch kind {
	case "aten::backward":
		return "torch.autograd.backward"
	case "aten::grad":
		return "torch.autograd.grad"
	}
	ns, name, ok := strings.Cut(kind, "::")
	if !ok {
		fail("node kind %q has no namespace", kind)
	}
	if ns == "aten" {
		return "torch." + name
	}
	return "ops." + ns + "." + name
}

// call prints an operator call with the arguments python_print keeps:
// trailing arguments equal to their schema defaults are left out
// (CalculateNecessaryArgs), keyword-only ones are named, out= arguments
// come last by name.
func (p *printer) call(n *ir.Node) string {
	var b strings.Builder
	b.WriteString(opName(n.Kind) + "(")
	var args []ops.Argument
	if n.Op != nil {
		args = n.Op.Schema().Args
	}
	if len(args) == 0 {
		for i, v := range n.Inputs {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(p.useOf(v))
		}
		return b.String() + ")"
	}
	need, nout := p.necessaryArgs(args, n.Inputs)
	for i := 0; i < need; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		v := p.useOf(p.input(n, i))
		if i < len(args) && args[i].KwargOnly {
			b.WriteString(args[i].Name + "=")
		}
		b.WriteString(v)
	}
	for i := len(args) - nout; i < len(args); i++ {
		b.WriteString(", " + args[i].Name + "=" + p.useOf(p.input(n, i)))
	}
	return b.String() + ")"
}

func isOut(a ops.Argument) bool {
	return a.KwargOnly && a.Type != nil && a.Type.Alias != nil && a.Type.Alias.Write
}

// necessaryArgs is CalculateNecessaryArgs(schema, inputs, true).
func (p *printer) necessaryArgs(args []ops.Argument, inputs []*ir.Value) (int, int) {
	idx := len(args) - 1
	for idx >= 0 && isOut(args[idx]) {
		idx--
	}
	nout := len(args) - idx - 1
	if len(args) < len(inputs) {
		return len(inputs), nout
	}
	for ; idx >= 0; idx-- {
		a := args[idx]
		if a.Default == nil || idx >= len(inputs) {
			return idx + 1, nout
		}
		actual, ok := p.constInput(inputs[idx])
		if !ok && !(inputs[idx].Node() != nil && inputs[idx].Node().Kind == "prim::Constant" && inputs[idx].Type != nil && inputs[idx].Type.Kind() == types.NoneKind) {
			return idx + 1, nout
		}
		if !defaultEquals(a, actual) {
			return idx + 1, nout
		}
	}
	return 0, nout
}

// defaultEquals reports whether a constant IValue equals an argument's
// schema default as IValue::operator== does (an int is not a float).
func defaultEquals(a ops.Argument, v any) bool {
	d := a.Default
	if d.IsNone() {
		return v == nil
	}
	t := a.Type
	if t.Kind == ops.OptionalOf {
		t = t.Elem
	}
	switch t.Kind {
	case ops.ListOf:
		switch t.Elem.Name {
		case "int", "SymInt":
			want, err := d.Ints(t.Size)
			got, ok := v.([]int64)
			if err != nil || !ok || len(got) != len(want) {
				return false
			}
			for i := range got {
				if got[i] != want[i] {
					return false
				}
			}
			return true
		case "bool":
			got, ok := v.([]bool)
			if !ok {
				return false
			}
			want := strings.Trim(d.Text, "[]")
			var parts []string
			for _, b := range got {
				if b {
					parts = append(parts, "True")
				} else {
					parts = append(parts, "False")
				}
			}
			return strings.Join(parts, ", ") == strings.TrimSpace(want)
		case "float":
			got, ok := v.([]float64)
			if !ok {
				return false
			}
			body := strings.TrimSpace(strings.Trim(d.Text, "[]"))
			var want []string
			if body != "" {
				want = strings.Split(body, ",")
			}
			if len(want) != len(got) {
				return false
			}
			for i, w := range want {
				f, err := strconv.ParseFloat(strings.TrimSpace(w), 64)
				if err != nil || f != got[i] {
					return false
				}
			}
			return true
		}
		return false
	}
	switch t.Name {
	case "int", "SymInt", "ScalarType", "Layout", "MemoryFormat":
		got, ok := v.(int64)
		if !ok {
			return false
		}
		if want, err := d.Int(); err == nil {
			return got == want
		}
		if want, ok := namedInts[d.Text]; ok {
			return got == want
		}
		return false
	case "float":
		got, ok := v.(float64)
		want, err := d.Float()
		return ok && err == nil && got == want
	case "bool":
		got, ok := v.(bool)
		want, err := d.Bool()
		return ok && err == nil && got == want
	case "str":
		got, ok := v.(string)
		want, err := d.Str()
		return ok && err == nil && got == want
	case "Scalar":
		if strings.ContainsAny(d.Text, ".e") || d.Text == "inf" || d.Text == "-inf" || d.Text == "nan" {
			got, ok := v.(float64)
			want, err := d.Float()
			return ok && err == nil && got == want
		}
		got, ok := v.(int64)
		want, err := d.Int()
		return ok && err == nil && got == want
	}
	return false
}

// namedInts are the enum defaults of schemas as their IValues.
var namedInts = map[string]int64{
	"contiguous_format": 0, "preserve_format": 1, "channels_last": 2, "channels_last_3d": 3,
	"strided": 0, "Mean": 1, "Sum": 2, "long": 4, "float": 6,
}

// constant is IValue::repr with python_print's formatter: tensors (and
// strings that are not ASCII) become CONSTANTS.cN.
func (p *printer) constant(v any, t types.Type) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return ir.FormatFloat(x)
	case complex128:
		return formatComplex(x)
	case string:
		if t != nil && t.Kind() == types.DeviceKind {
			return "torch.device(" + ir.QuoteString(x) + ")"
		}
		for i := 0; i < len(x); i++ {
			if x[i] > 0x7f {
				return p.constantRef(x)
			}
		}
		return ir.QuoteString(x)
	case *tensor.Tensor:
		return p.constantRef(x)
	case []int64:
		return p.list(t, len(x), func(i int) string { return strconv.FormatInt(x[i], 10) })
	case []float64:
		return p.list(t, len(x), func(i int) string { return ir.FormatFloat(x[i]) })
	case []bool:
		return p.list(t, len(x), func(i int) string { return p.constant(x[i], types.Bool) })
	case []string:
		return p.list(t, len(x), func(i int) string { return p.constant(x[i], types.Str) })
	case []any:
		var et types.Type
		if lt, ok := t.(*types.List); ok {
			et = lt.Elem
		}
		return p.list(t, len(x), func(i int) string { return p.constant(x[i], et) })
	case ir.Tuple:
		tt, _ := t.(*types.Tuple)
		var b strings.Builder
		if tt != nil && tt.Name != "" {
			b.WriteString(tt.Annotation())
		}
		b.WriteString("(")
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			var et types.Type
			if tt != nil && i < len(tt.Elems) {
				et = tt.Elems[i]
			}
			b.WriteString(p.constant(e, et))
		}
		if len(x) == 1 {
			b.WriteString(",")
		}
		b.WriteString(")")
		return b.String()
	}
	if q, name, ok := enumMember(v); ok {
		return q + "." + name
	}
	fail("a constant %T cannot be printed", v)
	return ""
}

// enumMember recognizes an enum constant (torchscript/frontend's
// EnumValue: a struct with Type *types.Enum and Name string) without
// importing its package; it prints as the class's qualified name and the
// member's (IValue::repr: __torch__.Color.RED).
func enumMember(v any) (qualified, name string, ok bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return "", "", false
	}
	t, n := rv.FieldByName("Type"), rv.FieldByName("Name")
	if !t.IsValid() || !n.IsValid() || n.Kind() != reflect.String || !t.CanInterface() {
		return "", "", false
	}
	et, isEnum := t.Interface().(*types.Enum)
	if !isEnum || et == nil {
		return "", "", false
	}
	return et.Name, n.String(), true
}

func (p *printer) list(t types.Type, n int, elem func(int) string) string {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(elem(i))
	}
	b.WriteString("]")
	lt, ok := t.(*types.List)
	if n == 0 || ok && !canInfer(lt.Elem) {
		if !ok {
			fail("an empty list constant has no list type")
		}
		return "annotate(" + lt.Annotation() + ", " + b.String() + ")"
	}
	return b.String()
}

// constantRef is CONSTANTS.cN for v, reusing the entry of an equal tensor
// (getOrAddConstant).
func (p *printer) constantRef(v any) string {
	if t, ok := v.(*tensor.Tensor); ok {
		for i, c := range p.constants {
			if u, ok := c.(*tensor.Tensor); ok && sameTensor(t, u) {
				return "CONSTANTS.c" + strconv.Itoa(i)
			}
		}
	}
	p.constants = append(p.constants, v)
	return "CONSTANTS.c" + strconv.Itoa(len(p.constants)-1)
}

func formatComplex(c complex128) string {
	re, im := real(c), imag(c)
	s := ir.FormatFloat(im) + "j"
	if re == 0 {
		return s
	}
	sign := "+"
	if im < 0 || im == 0 && strings.HasPrefix(ir.FormatFloat(im), "-") {
		sign = ""
	}
	return ir.FormatFloat(re) + sign + s
}

// sameTensor is getOrAddConstant's test: the same dtype and shape, equal
// elements.
func sameTensor(a, b *tensor.Tensor) bool {
	if a == b {
		return true
	}
	if a.DType() != b.DType() {
		return false
	}
	as, bs := a.Shape(), b.Shape()
	if len(as) != len(bs) {
		return false
	}
	for i := range as {
		if as[i] != bs[i] {
			return false
		}
	}
	x, y := a.Float64s(), b.Float64s()
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

func (p *printer) str(n *ir.Node, name string) string {
	s, ok := n.Str(name)
	if !ok {
		fail("%s has no string attribute %s", n.Kind, name)
	}
	return s
}

func (p *printer) int(n *ir.Node, name string) int64 {
	i, ok := n.Int(name)
	if !ok {
		fail("%s has no int attribute %s", n.Kind, name)
	}
	return i
}
