package ir

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/torchscript/types"
)

// Graph is a TorchScript graph: a top block whose params are the graph's
// inputs and whose outputs are what it returns. It owns the names of its
// values and the insert point of its builder.
type Graph struct {
	top        *Block
	nextUnique int
	names      map[string]*Value
	suffixes   map[string]int
	// phantoms are the temporaries Phantom made since ReleasePhantoms.
	phantoms []*Value
	// insert point: the block new nodes go into, and the node they go
	// before (nil: the block's end).
	insBlock  *Block
	insBefore *Node
}

// Block is a list of nodes with params (values defined on entry: a loop
// body's counter and carried values) and outputs (what it yields: a graph's
// return, an If branch's results, a loop body's condition and carried
// values). The top block of a graph has no owning node.
type Block struct {
	// Params are the values the block defines on entry.
	Params []*Value
	// Nodes are the nodes in order. Change them with the Node and Block
	// methods (Append, InsertBefore, Destroy, ...), which keep owners right.
	Nodes []*Node
	// Outputs are the values the block yields (its "-> (...)", or the
	// graph's return). Change them with AddOutput/SetOutput/RemoveOutput.
	Outputs []*Value
	owner   *Node
	graph   *Graph
}

// Node is one operation.
type Node struct {
	// Kind is the kind exactly as PyTorch prints it: "aten::add",
	// "prim::If", "prim::Loop", "prim::Constant", "prim::GetAttr".
	Kind string
	// Inputs are the operands. Change them with AddInput, SetInput,
	// RemoveInput (they keep the uses of values right).
	Inputs []*Value
	// Outputs are the results, created by AddOutput or the builder.
	Outputs []*Value
	// Blocks are the nested blocks: prim::If's two branches, prim::Loop's
	// body.
	Blocks []*Block
	// Attrs are the attributes in order (value=, name=, ...).
	Attrs []Attr
	// Op is the operator overload an aten/prim node resolved to, nil when
	// none was resolved; the printed kind stays Kind.
	Op *ops.Operator
	// Source is where the node comes from (printed "# file:line:col"),
	// nil when unknown.
	Source *SourceRange
	// Scope is the tracer's module scope (printed ", scope: ..."), empty
	// when none.
	Scope string
	block *Block
	graph *Graph
}

// SourceRange is the file, line and column PyTorch prints after a node
// ("# gen_pt2.py:684:8"; the file may be empty: "# :0:0").
type SourceRange struct {
	File      string
	Line, Col int
}

func (r SourceRange) String() string {
	return r.File + ":" + strconv.Itoa(r.Line) + ":" + strconv.Itoa(r.Col)
}

// Value is a value of a graph: a node's output or a block's param.
type Value struct {
	// Type is the value's type.
	Type   types.Type
	unique int
	name   string
	node   *Node
	block  *Block
	offset int
	uses   []Use
	graph  *Graph
}

// Use is one use of a value: input Index of node User, or, when User is
// nil, output Index of Block (a block's "-> (...)" or the graph's return).
type Use struct {
	User  *Node
	Block *Block
	Index int
}

// NewGraph returns an empty graph.
func NewGraph() *Graph {
	g := &Graph{names: map[string]*Value{}, suffixes: map[string]int{}}
	g.top = &Block{graph: g}
	g.insBlock = g.top
	return g
}

// Block returns the graph's top block.
func (g *Graph) Block() *Block { return g.top }

// Inputs returns the graph's inputs (the top block's params).
func (g *Graph) Inputs() []*Value { return g.top.Params }

// Outputs returns the values the graph returns (the top block's outputs).
func (g *Graph) Outputs() []*Value { return g.top.Outputs }

// Nodes returns the top block's nodes.
func (g *Graph) Nodes() []*Node { return g.top.Nodes }

// AddInput adds a graph input of type t named name ("" for none).
func (g *Graph) AddInput(name string, t types.Type) (*Value, error) {
	v := g.top.AddParam(t)
	if name != "" {
		if err := v.SetDebugName(name); err != nil {
			g.top.Params = g.top.Params[:len(g.top.Params)-1]
			return nil, err
		}
	}
	return v, nil
}

// RegisterOutput adds v to the values the graph returns.
func (g *Graph) RegisterOutput(v *Value) { g.top.AddOutput(v) }

func (g *Graph) newValue(t types.Type) *Value {
	v := &Value{Type: t, unique: g.nextUnique, graph: g}
	g.nextUnique++
	return v
}

// Graph returns the graph the block belongs to.
func (b *Block) Graph() *Graph { return b.graph }

// Owner returns the node the block belongs to, nil for a graph's top block.
func (b *Block) Owner() *Node { return b.owner }

// AddParam adds a param of type t to the block.
func (b *Block) AddParam(t types.Type) *Value {
	v := b.graph.newValue(t)
	v.block, v.offset = b, len(b.Params)
	b.Params = append(b.Params, v)
	return v
}

// AddOutput adds v to the block's outputs.
func (b *Block) AddOutput(v *Value) {
	v.uses = append(v.uses, Use{Block: b, Index: len(b.Outputs)})
	b.Outputs = append(b.Outputs, v)
}

// SetOutput replaces the block's output i with v.
func (b *Block) SetOutput(i int, v *Value) {
	b.Outputs[i].dropUse(Use{Block: b, Index: i})
	b.Outputs[i] = v
	v.uses = append(v.uses, Use{Block: b, Index: i})
}

// RemoveOutput removes the block's output i.
func (b *Block) RemoveOutput(i int) {
	b.Outputs[i].dropUse(Use{Block: b, Index: i})
	for j := i + 1; j < len(b.Outputs); j++ {
		b.Outputs[j].renumberUse(Use{Block: b, Index: j}, j-1)
	}
	b.Outputs = slices.Delete(b.Outputs, i, i+1)
}

// RemoveParam removes the block's param i, which must be unused.
func (b *Block) RemoveParam(i int) error {
	if len(b.Params[i].uses) > 0 {
		return fmt.Errorf("ir: removing param %%%s, which is still used", b.Params[i].Name())
	}
	b.Params[i].release()
	b.Params = slices.Delete(b.Params, i, i+1)
	for j := i; j < len(b.Params); j++ {
		b.Params[j].offset = j
	}
	return nil
}

// Append adds n (a node not in any block) at the block's end.
func (b *Block) Append(n *Node) error { return b.insertAt(n, len(b.Nodes)) }

// Prepend adds n (a node not in any block) at the block's start.
func (b *Block) Prepend(n *Node) error { return b.insertAt(n, 0) }

func (b *Block) insertAt(n *Node, i int) error {
	if n.block != nil {
		return fmt.Errorf("ir: inserting %s, which is already in a block", n.Kind)
	}
	if n.graph != b.graph {
		return fmt.Errorf("ir: inserting %s into another graph's block", n.Kind)
	}
	n.block = b
	b.Nodes = slices.Insert(b.Nodes, i, n)
	return nil
}

func (b *Block) index(n *Node) int {
	for i, m := range b.Nodes {
		if m == n {
			return i
		}
	}
	return -1
}

// Create returns a new node of kind kind with the given inputs and one
// output per type in outs, not yet in any block (see Insert, Append,
// InsertBefore).
func (g *Graph) Create(kind string, inputs []*Value, outs ...types.Type) *Node {
	n := &Node{Kind: kind, graph: g}
	for _, v := range inputs {
		n.AddInput(v)
	}
	for _, t := range outs {
		n.AddOutput(t)
	}
	return n
}

// SetInsertPoint makes the builder append new nodes at the end of b.
func (g *Graph) SetInsertPoint(b *Block) { g.insBlock, g.insBefore = b, nil }

// SetInsertBefore makes the builder insert new nodes just before n (and so
// in n's block).
func (g *Graph) SetInsertBefore(n *Node) { g.insBlock, g.insBefore = n.block, n }

// InsertPoint returns the block new nodes go into and the node they go
// before (nil: the block's end).
func (g *Graph) InsertPoint() (*Block, *Node) { return g.insBlock, g.insBefore }

// Insert puts n (created by Create, not in any block) at the insert point.
func (g *Graph) Insert(n *Node) error {
	b := g.insBlock
	if b == nil {
		return fmt.Errorf("ir: inserting %s: no insert point", n.Kind)
	}
	if g.insBefore != nil {
		i := b.index(g.insBefore)
		if i < 0 {
			return fmt.Errorf("ir: inserting %s: the insert point's node is no longer in its block", n.Kind)
		}
		return b.insertAt(n, i)
	}
	return b.Append(n)
}

// InsertNode creates a node (Create) and inserts it at the insert point.
func (g *Graph) InsertNode(kind string, inputs []*Value, outs ...types.Type) (*Node, error) {
	n := g.Create(kind, inputs, outs...)
	if err := g.Insert(n); err != nil {
		n.detach()
		return nil, err
	}
	return n, nil
}

// Graph returns the graph the node belongs to.
func (n *Node) Graph() *Graph { return n.graph }

// Block returns the block the node is in, nil when it is in none.
func (n *Node) Block() *Block { return n.block }

// Output returns the node's only output, nil when it has not exactly one.
func (n *Node) Output() *Value {
	if len(n.Outputs) != 1 {
		return nil
	}
	return n.Outputs[0]
}

// AddInput appends v to the node's inputs.
func (n *Node) AddInput(v *Value) {
	v.uses = append(v.uses, Use{User: n, Index: len(n.Inputs)})
	n.Inputs = append(n.Inputs, v)
}

// SetInput replaces the node's input i with v.
func (n *Node) SetInput(i int, v *Value) {
	n.Inputs[i].dropUse(Use{User: n, Index: i})
	n.Inputs[i] = v
	v.uses = append(v.uses, Use{User: n, Index: i})
}

// InsertInput inserts v as the node's input i.
func (n *Node) InsertInput(i int, v *Value) {
	for j := len(n.Inputs) - 1; j >= i; j-- {
		n.Inputs[j].renumberUse(Use{User: n, Index: j}, j+1)
	}
	n.Inputs = slices.Insert(n.Inputs, i, v)
	v.uses = append(v.uses, Use{User: n, Index: i})
}

// RemoveInput removes the node's input i.
func (n *Node) RemoveInput(i int) {
	n.Inputs[i].dropUse(Use{User: n, Index: i})
	for j := i + 1; j < len(n.Inputs); j++ {
		n.Inputs[j].renumberUse(Use{User: n, Index: j}, j-1)
	}
	n.Inputs = slices.Delete(n.Inputs, i, i+1)
}

// AddOutput adds an output of type t to the node.
func (n *Node) AddOutput(t types.Type) *Value {
	v := n.graph.newValue(t)
	v.node, v.offset = n, len(n.Outputs)
	n.Outputs = append(n.Outputs, v)
	return v
}

// RemoveOutput removes the node's output i, which must be unused.
func (n *Node) RemoveOutput(i int) error {
	if len(n.Outputs[i].uses) > 0 {
		return fmt.Errorf("ir: removing output %%%s of %s, which is still used", n.Outputs[i].Name(), n.Kind)
	}
	n.Outputs[i].release()
	n.Outputs = slices.Delete(n.Outputs, i, i+1)
	for j := i; j < len(n.Outputs); j++ {
		n.Outputs[j].offset = j
	}
	return nil
}

// AddBlock adds a nested block to the node.
func (n *Node) AddBlock() *Block {
	b := &Block{owner: n, graph: n.graph}
	n.Blocks = append(n.Blocks, b)
	return b
}

// InsertBefore puts n (not in any block) just before ref.
func (n *Node) InsertBefore(ref *Node) error {
	if ref.block == nil {
		return fmt.Errorf("ir: inserting %s before %s, which is in no block", n.Kind, ref.Kind)
	}
	return ref.block.insertAt(n, ref.block.index(ref))
}

// InsertAfter puts n (not in any block) just after ref.
func (n *Node) InsertAfter(ref *Node) error {
	if ref.block == nil {
		return fmt.Errorf("ir: inserting %s after %s, which is in no block", n.Kind, ref.Kind)
	}
	return ref.block.insertAt(n, ref.block.index(ref)+1)
}

// MoveBefore takes n out of its block and puts it just before ref.
func (n *Node) MoveBefore(ref *Node) error {
	if n == ref {
		return nil
	}
	if err := n.checkMove(ref); err != nil {
		return err
	}
	n.unlink()
	return n.InsertBefore(ref)
}

// MoveAfter takes n out of its block and puts it just after ref.
func (n *Node) MoveAfter(ref *Node) error {
	if n == ref {
		return nil
	}
	if err := n.checkMove(ref); err != nil {
		return err
	}
	n.unlink()
	return n.InsertAfter(ref)
}

// checkMove refuses to move n next to a node in no block or inside n's
// own blocks.
func (n *Node) checkMove(ref *Node) error {
	if ref.block == nil {
		return fmt.Errorf("ir: moving %s next to %s, which is in no block", n.Kind, ref.Kind)
	}
	for b := ref.block; b != nil && b.owner != nil; b = b.owner.block {
		if b.owner == n {
			return fmt.Errorf("ir: moving %s into one of its own blocks", n.Kind)
		}
	}
	return nil
}

func (n *Node) unlink() {
	if n.block == nil {
		return
	}
	if i := n.block.index(n); i >= 0 {
		n.block.Nodes = slices.Delete(n.block.Nodes, i, i+1)
	}
	if n.graph.insBefore == n {
		n.graph.insBefore = nil
	}
	n.block = nil
}

// Destroy removes n from its block and drops its uses of its inputs (and
// those of the nodes in its blocks). Its outputs must be unused.
func (n *Node) Destroy() error {
	for _, o := range n.Outputs {
		if len(o.uses) > 0 {
			return fmt.Errorf("ir: destroying %s whose output %%%s is still used", n.Kind, o.Name())
		}
	}
	for _, b := range n.Blocks {
		if err := b.destroyAll(); err != nil {
			return err
		}
	}
	n.detach()
	n.unlink()
	return nil
}

// destroyAll destroys the block's nodes from last to first and drops its
// outputs.
func (b *Block) destroyAll() error {
	for i := len(b.Outputs) - 1; i >= 0; i-- {
		b.RemoveOutput(i)
	}
	for i := len(b.Nodes) - 1; i >= 0; i-- {
		if err := b.Nodes[i].Destroy(); err != nil {
			return err
		}
	}
	for _, p := range b.Params {
		p.release()
	}
	return nil
}

// detach drops the node's uses of its inputs and releases its outputs'
// names.
func (n *Node) detach() {
	for i := len(n.Inputs) - 1; i >= 0; i-- {
		n.Inputs[i].dropUse(Use{User: n, Index: i})
	}
	n.Inputs = nil
	for _, o := range n.Outputs {
		o.release()
	}
}

// Name returns the name the value prints with (without the "%"): its debug
// name ("x.1") or else its number ("5").
func (v *Value) Name() string {
	if v.name != "" {
		return v.name
	}
	return strconv.Itoa(v.unique)
}

// DebugName returns the value's debug name, "" when it has none.
func (v *Value) DebugName() string { return v.name }

// Unique returns the value's number in its graph.
func (v *Value) Unique() int { return v.unique }

// Node returns the node the value is an output of, nil for a block param.
func (v *Value) Node() *Node { return v.node }

// Param returns the block the value is a param of, nil for a node output.
func (v *Value) Param() *Block { return v.block }

// Offset returns the value's position among its node's outputs or its
// block's params.
func (v *Value) Offset() int { return v.offset }

// Uses returns the value's uses (the slice is the value's own: do not
// modify it).
func (v *Value) Uses() []Use { return v.uses }

// Graph returns the graph the value belongs to.
func (v *Value) Graph() *Graph { return v.graph }

// ValidName reports whether s can be a debug name: not empty, not all
// digits (those are the numbers of unnamed values), made of letters,
// digits, '_' and '.'.
func ValidName(s string) bool {
	if s == "" || strings.Trim(s, "0123456789") == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// SetDebugName names the value, as Value::setDebugName: when another value
// of the graph has the name, that one is renamed to name's base with the
// next free suffix ("x" taken: the old "x" becomes "x.1", then "x.2"...).
// "" clears the name.
func (v *Value) SetDebugName(name string) error {
	if name != "" && !ValidName(name) {
		return fmt.Errorf("ir: %q is not a valid value name", name)
	}
	g := v.graph
	if v.name != "" {
		delete(g.names, v.name)
		v.name = ""
	}
	if name == "" {
		return nil
	}
	if old, ok := g.names[name]; ok {
		base, suffix := name, 1
		if dot := strings.LastIndexByte(name, '.'); dot >= 0 && dot+1 < len(name) &&
			strings.Trim(name[dot+1:], "0123456789") == "" {
			if n, err := strconv.Atoi(name[dot+1:]); err == nil {
				base, suffix = name[:dot], n
			}
		}
		if s, ok := g.suffixes[base]; ok && s+1 > suffix {
			suffix = s + 1
		}
		var repl string
		for {
			repl = base + "." + strconv.Itoa(suffix)
			suffix++
			if _, taken := g.names[repl]; !taken {
				break
			}
		}
		g.suffixes[base] = suffix
		delete(g.names, name)
		old.name = repl
		g.names[repl] = old
	}
	g.names[name] = v
	v.name = name
	return nil
}

// Phantom takes the graph's next value number for a temporary that is in
// no block and named name ("" for none; an invalid name is ignored): the
// values a compiler creates and later erases (PyTorch's prim::Load
// outputs, the constants of an overload tried and dropped) still number
// and rename the graph's values, since PyTorch numbers every value it
// creates and Value::setDebugName renames the name's owner. A frontend
// replaying PyTorch's numbering calls it where PyTorch creates such a
// value; the phantom keeps its name (and is renamed "x.1" when a later
// value takes "x") until ReleasePhantoms.
func (g *Graph) Phantom(name string) *Value {
	v := g.newValue(nil)
	if name != "" && ValidName(name) {
		_ = v.SetDebugName(name)
	}
	g.phantoms = append(g.phantoms, v) // it may be named later
	return v
}

// ReleasePhantoms frees the names the graph's phantoms hold (as PyTorch's
// EraseLoadStores destroys the loads).
func (g *Graph) ReleasePhantoms() {
	for _, v := range g.phantoms {
		v.release()
		v.name = ""
	}
	g.phantoms = nil
}

// NextUnique returns the number the next value created will take.
func (g *Graph) NextUnique() int { return g.nextUnique }

// SetNextUnique sets the number the next value created will take. A
// frontend that creates values earlier than PyTorch does (a prim::If's
// outputs, which PyTorch adds after compiling the whole function) gives
// their numbers back with it and numbers them later with Renumber; values
// share a number in between.
func (g *Graph) SetNextUnique(n int) { g.nextUnique = max(n, 0) }

// Renumber gives v the graph's next value number.
func (v *Value) Renumber() {
	v.unique = v.graph.nextUnique
	v.graph.nextUnique++
}

// setNameExact gives v a name the parser read, with no renaming.
func (v *Value) setNameExact(name string) {
	v.graph.names[name] = v
	v.name = name
}

func (v *Value) release() {
	if v.name != "" && v.graph.names[v.name] == v {
		delete(v.graph.names, v.name)
	}
}

func (v *Value) dropUse(u Use) {
	for i, w := range v.uses {
		if w == u {
			v.uses = slices.Delete(v.uses, i, i+1)
			return
		}
	}
}

func (v *Value) renumberUse(u Use, to int) {
	for i, w := range v.uses {
		if w == u {
			v.uses[i].Index = to
			return
		}
	}
}

// ReplaceAllUsesWith makes every use of v (node inputs and block outputs)
// use w instead.
func (v *Value) ReplaceAllUsesWith(w *Value) {
	if v == w {
		return
	}
	for _, u := range slices.Clone(v.uses) {
		if u.User != nil {
			u.User.SetInput(u.Index, w)
		} else {
			u.Block.SetOutput(u.Index, w)
		}
	}
}

// ReplaceAllUsesAfterWith makes the uses of v that come after node after
// in program order use w instead (replaceAllUsesAfterNodeWith): node
// inputs and block outputs; a use nested inside after's own blocks is not
// after it.
func (v *Value) ReplaceAllUsesAfterWith(after *Node, w *Value) {
	for _, u := range slices.Clone(v.uses) {
		if u.User != nil {
			if u.User.block != nil && isAfter(u.User.block, u.User.block.index(u.User), after) {
				u.User.SetInput(u.Index, w)
			}
		} else if isAfter(u.Block, len(u.Block.Nodes), after) {
			u.Block.SetOutput(u.Index, w)
		}
	}
}

// isAfter reports whether position idx of block blk comes after ref (a
// position inside ref's blocks does not).
func isAfter(blk *Block, idx int, ref *Node) bool {
	for blk != nil {
		for r := ref; r != nil && r.block != nil; r = r.block.owner {
			if r.block == blk {
				return idx > blk.index(r)
			}
		}
		o := blk.owner
		if o == nil || o.block == nil {
			return false
		}
		blk, idx = o.block, o.block.index(o)
	}
	return false
}

// Attr returns the node's attribute called name.
func (n *Node) Attr(name string) (Attr, bool) {
	for _, a := range n.Attrs {
		if a.Name == name {
			return a, true
		}
	}
	return Attr{}, false
}

// SetAttr sets the attribute a.Name (replacing one of that name in place, or
// appending).
func (n *Node) SetAttr(a Attr) {
	for i := range n.Attrs {
		if n.Attrs[i].Name == a.Name {
			n.Attrs[i] = a
			return
		}
	}
	n.Attrs = append(n.Attrs, a)
}

// Int returns the int attribute name (kind i).
func (n *Node) Int(name string) (int64, bool) {
	a, ok := n.Attr(name)
	v, ok2 := a.Value.(int64)
	return v, ok && ok2 && a.Kind == AttrInt
}

// Str returns the string attribute name (kind s), such as prim::GetAttr's
// and prim::CallMethod's name.
func (n *Node) Str(name string) (string, bool) {
	a, ok := n.Attr(name)
	v, ok2 := a.Value.(string)
	return v, ok && ok2 && a.Kind == AttrString
}

// Float returns the float attribute name (kind f).
func (n *Node) Float(name string) (float64, bool) {
	a, ok := n.Attr(name)
	v, ok2 := a.Value.(float64)
	return v, ok && ok2 && a.Kind == AttrFloat
}

// Walk calls f on every node of the graph in program order, the nodes of a
// node's blocks right after it.
func (g *Graph) Walk(f func(n *Node)) { g.top.Walk(f) }

// Walk calls f on every node of the block in order, the nodes of a node's
// blocks right after it.
func (b *Block) Walk(f func(n *Node)) {
	for _, n := range b.Nodes {
		f(n)
		for _, blk := range n.Blocks {
			blk.Walk(f)
		}
	}
}
