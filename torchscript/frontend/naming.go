package frontend

import (
	"math"

	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/syntax"
	"github.com/gofx/gofx/torchscript/types"
)

// PyTorch's value names and numbers.
//
// print(m.graph) shows a value by its debug name or else by its number,
// and both come from how ir_emitter.cpp builds the graph: every value it
// creates takes the graph's next number, including those it erases later
// (the prim::Load of each variable read, the constant 0 of each
// condition's bool() cast, the placeholder return), and a value named
// "x" renames the value that had the name to "x.1", "x.2", ...
// (Value::setDebugName). A variable read is a prim::Load named after the
// variable until ConvertToSSA replaces it by the variable's value, so the
// first value named x is x.1 once x is read. The emitter here builds the
// graph directly in SSA form and replays those temporaries as phantom
// values (ir.Graph.Phantom) where PyTorch creates them; the outputs of if
// statements and loops, which PyTorch adds only after the whole function
// is emitted, are numbered and named then (convertToSSA).

// load replays the prim::Load ir_emitter's Environment emits when it reads
// variable name (findInThisFrame's insertLoad).
func (e *emitter) load(name string) *ir.Value {
	if !meaningfulName(name) {
		name = ""
	}
	return e.g.Phantom(name)
}

// inThisBlock reports whether v is defined in the current block (a node's
// output or a param of the block), where setSugaredVar names it.
func (e *emitter) inThisBlock(v *ir.Value) bool {
	if n := v.Node(); n != nil {
		return n.Block() == e.env.block
	}
	return v.Param() == e.env.block
}

// ifLoads replays the loads emitIfElseBlocks makes after emitting both
// branches of an if: a variable one branch defines is looked up in the
// other (a load there when found, in the branch or before the if), and
// each variable of the if's outputs (names) is read in both branches.
func (e *emitter) ifLoads(tf, ff *scope, names []string) {
	isVal := func(s *scope, name string) bool {
		v, ok := s.vars[name]
		_, val := v.(*ir.Value)
		return ok && val
	}
	found := func(s *scope, name string) bool {
		v, ok := s.lookup(name)
		_, val := v.(*ir.Value)
		return ok && val
	}
	for _, v := range tf.order {
		if isVal(tf, v) && found(ff, v) {
			e.load(v)
		}
	}
	for _, v := range ff.order {
		if isVal(ff, v) && found(tf, v) {
			e.load(v)
		}
	}
	for _, name := range names {
		e.load(name)
		e.load(name)
		if found(e.env, name) {
			e.load(name) // the lookup of the variable's type before the if
		}
	}
}

// toBool reports whether emitCondExpr casts condition x with bool() (its
// default case): not for and, or, not, is, is not, isinstance and hasattr.
func toBool(x syntax.Expr) bool {
	switch t := syntax.Unparen(x).(type) {
	case *syntax.BinaryExpr:
		switch t.Op {
		case "and", "or", "is", "is not":
			return false
		}
	case *syntax.UnaryExpr:
		return t.Op != "not"
	case *syntax.Call:
		switch dottedName(t.Fun) {
		case "isinstance", "hasattr":
			return false
		}
	}
	return true
}

// literal returns the constant of an int, float or complex literal: one
// per value and function, inserted at the top of the graph with the
// literal's source range (materializeConstant).
func (e *emitter) literal(at syntax.Node, v any, t types.Type) *ir.Value {
	key := v
	if f, ok := v.(float64); ok {
		key = math.Float64bits(f) // -0. is not 0.; NaN is one key
	}
	if c, ok := e.literals[key]; ok {
		return c
	}
	b, before := e.g.InsertPoint()
	top := e.g.Block()
	if len(top.Nodes) > 0 {
		e.g.SetInsertBefore(top.Nodes[0])
	} else {
		e.g.SetInsertPoint(top)
	}
	c := e.constantAt(at, v, t)
	if before != nil {
		e.g.SetInsertBefore(before)
	} else {
		e.g.SetInsertPoint(b)
	}
	e.literals[key] = c
	return c
}

// constantAt is constant with the source range of at.
func (e *emitter) constantAt(at syntax.Node, v any, t types.Type) *ir.Value {
	c := e.constant(v, t)
	e.setSource(c.Node(), at)
	return c
}

// convertToSSA numbers and names what PyTorch creates after emitting a
// function: the placeholder return (emitOutput), then, as ConvertToSSA's
// ControlFlowLoadStores visits the if statements and loops (their blocks
// first), for each output of an if the loads ending both branches and the
// output named after its variable, and for each loop-carried variable the
// load before the loop, the body's param (named), the load ending the body
// and the loop's output (named); then the false constant of
// LoopContinuations. The loads' names are released at the end
// (EraseLoadStores).
func (e *emitter) convertToSSA() {
	e.g.Phantom("") // emitOutput's placeholder return
	e.ssaBlock(e.g.Block())
	e.g.Phantom("") // LoopContinuations' false constant
	e.g.ReleasePhantoms()
}

func (e *emitter) ssaBlock(b *ir.Block) {
	for _, n := range b.Nodes {
		for _, blk := range n.Blocks {
			e.ssaBlock(blk)
		}
		names := e.ssa[n]
		switch n.Kind {
		case "prim::If":
			for i, name := range names {
				if i >= len(n.Outputs) {
					break
				}
				e.g.Phantom("")
				e.g.Phantom("")
				e.nameSSA(n.Outputs[i], name)
			}
		case "prim::Loop":
			body := n.Blocks[0]
			for i, name := range names {
				if i >= len(n.Outputs) || i+1 >= len(body.Params) {
					break
				}
				e.g.Phantom("")
				p := body.Params[i+1]
				p.Renumber()
				if ir.ValidName(name) {
					_ = p.SetDebugName(name)
				}
				e.g.Phantom("")
				e.nameSSA(n.Outputs[i], name)
			}
		}
	}
}

// nameSSA numbers v and names it after its variable when the name is
// meaningful (addNodeOutput).
func (e *emitter) nameSSA(v *ir.Value, name string) {
	v.Renumber()
	if meaningfulName(name) && ir.ValidName(name) {
		_ = v.SetDebugName(name)
	}
}
