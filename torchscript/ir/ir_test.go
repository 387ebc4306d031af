package ir

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/torchscript/types"
)

// buildLoopIf builds loop_if's forward as PyTorch 2.6 compiled it
// (../shared/torchscript/loop_if.script.code.txt).
func buildLoopIf(t *testing.T) *Graph {
	t.Helper()
	g := NewGraph()
	_, err := g.AddInput("self", &types.Class{Name: "__torch__.LoopIf", Module: true})
	require.NoError(t, err)
	n, err := g.AddInput("len.1", types.Int)
	require.NoError(t, err)
	one, _ := g.Constant(int64(1))
	tru, _ := g.Constant(true)
	none, _ := g.Constant(nil)
	c3, _ := g.Constant(int64(3))
	c4, _ := g.Constant(int64(4))
	c10, _ := g.Constant(int64(10))
	f1, _ := g.Constant(1.0)
	lst, err := g.InsertNode("prim::ListConstruct", []*Value{c3, c4}, &types.List{Elem: types.Int})
	require.NoError(t, err)
	z, _ := g.InsertNode("aten::zeros", []*Value{lst.Output(), none, none, none, none}, types.Tensor)
	require.NoError(t, z.Output().SetDebugName("rv.1"))
	loop, _ := g.InsertNode("prim::Loop", []*Value{n, tru, z.Output()}, types.Tensor)
	require.NoError(t, loop.Output().SetDebugName("rv0"))
	body := loop.AddBlock()
	i := body.AddParam(types.Int)
	require.NoError(t, i.SetDebugName("i.1"))
	rv := body.AddParam(types.Tensor)
	require.NoError(t, rv.SetDebugName("rv0.9"))
	g.SetInsertPoint(body)
	lt, _ := g.InsertNode("aten::lt", []*Value{i, c10}, types.Bool)
	iff, _ := g.InsertNode("prim::If", []*Value{lt.Output()}, types.Tensor)
	for _, kind := range []string{"aten::sub", "aten::add"} {
		b := iff.AddBlock()
		g.SetInsertPoint(b)
		op, _ := g.InsertNode(kind, []*Value{rv, f1, one}, types.Tensor)
		b.AddOutput(op.Output())
	}
	body.AddOutput(tru)
	body.AddOutput(iff.Output())
	g.RegisterOutput(loop.Output())
	return g
}

func TestBuilderLint(t *testing.T) {
	g := buildLoopIf(t)
	require.NoError(t, g.Lint())
	assert.Len(t, g.Nodes(), 10)
	loop := g.Nodes()[9]
	assert.Equal(t, "prim::Loop", loop.Kind)
	assert.Equal(t, "rv0", loop.Output().Name())
	assert.Equal(t, "9", g.Nodes()[7].Output().Name(), "unnamed values print their number")
}

func TestSetDebugNameRenames(t *testing.T) {
	g := NewGraph()
	a, _ := g.AddInput("x", types.Int)
	b, _ := g.AddInput("x", types.Int)
	assert.Equal(t, "x.1", a.Name())
	assert.Equal(t, "x", b.Name())
	c, _ := g.AddInput("x", types.Int)
	assert.Equal(t, "x.3", b.Name(), "PyTorch continues from the suffix it stored: x.3, not x.2")
	assert.Equal(t, "x", c.Name())
	assert.Error(t, c.SetDebugName("12"))
	require.NoError(t, g.Lint())
}

func TestReplaceAndDestroy(t *testing.T) {
	g := buildLoopIf(t)
	nodes := g.Nodes()
	c3, c4 := nodes[3].Output(), nodes[4].Output()
	c3.ReplaceAllUsesWith(c4)
	assert.Empty(t, c3.Uses())
	require.NoError(t, nodes[3].Destroy())
	require.NoError(t, g.Lint())
	assert.Error(t, nodes[4].Destroy(), "its output is used")

	loop := g.Nodes()[len(g.Nodes())-1]
	require.NoError(t, loop.Output().SetDebugName(""))
	g.Outputs()[0].ReplaceAllUsesWith(g.Inputs()[1])
	require.NoError(t, loop.Destroy())
	require.NoError(t, g.Lint())
}

func TestLintFindsProblems(t *testing.T) {
	g := buildLoopIf(t)
	loop := g.Nodes()[9]
	// a use before the definition
	lst := g.Nodes()[7]
	require.NoError(t, lst.MoveBefore(g.Nodes()[0]))
	err := g.Lint()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "prim::ListConstruct uses %5")
	require.NoError(t, lst.MoveAfter(g.Nodes()[7]))
	require.NoError(t, g.Lint())
	// a loop body yielding too little
	loop.Blocks[0].RemoveOutput(1)
	err = g.Lint()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "prim::Loop's body yields 1 values, want 2")
}

func TestReplaceAllUsesAfterWith(t *testing.T) {
	g := buildLoopIf(t)
	tru := g.Nodes()[1].Output() // used by the loop and as the body's condition
	lt := g.Nodes()[9].Blocks[0].Nodes[0]
	fls, err := g.Constant(false)
	require.NoError(t, err)
	tru.ReplaceAllUsesAfterWith(lt, fls)
	assert.Same(t, tru, g.Nodes()[9].Inputs[1])
	assert.Same(t, fls, g.Nodes()[9].Blocks[0].Outputs[0])
}

func TestMoveAndOpChecks(t *testing.T) {
	g := buildLoopIf(t)
	loop := g.Nodes()[9]
	inner := loop.Blocks[0].Nodes[0]
	assert.Error(t, loop.MoveBefore(inner), "into its own block")
	assert.Error(t, loop.MoveAfter(inner), "into its own block")
	require.NoError(t, g.Lint())
	add := loop.Blocks[0].Nodes[1].Blocks[1].Nodes[0]
	add.Op = ResolveOp(add)
	require.NotNil(t, add.Op)
	assert.Equal(t, "aten::add.Scalar", add.Op.Schema().QualifiedName())
	require.NoError(t, g.Lint())
	add.Kind = "aten::mul"
	assert.ErrorContains(t, g.Lint(), "aten::mul resolved to aten::add.Scalar")
}

// TestPhantom checks the numbering and renaming of phantom values against
// what PyTorch 2.6 prints for
//
//	def f(x: Tensor, c: bool) -> Tensor:
//	  if c: y = torch.sub(x, 1.)
//	  else: y = torch.add(x, 1.)
//	  return y
//
// (the branches' values are y.1 and y.3: a load of y renamed the second).
func TestPhantom(t *testing.T) {
	g := NewGraph()
	x, err := g.AddInput("x", types.Tensor)
	require.NoError(t, err)
	p := g.Phantom("x") // a load of x
	assert.Equal(t, "x.1", x.Name())
	assert.Equal(t, 1, p.Unique())
	t1 := g.Phantom("")
	t1.Type = types.Tensor
	require.NoError(t, t1.SetDebugName("y"))
	t2 := g.Phantom("")
	require.NoError(t, t2.SetDebugName("y")) // the second branch's y
	g.Phantom("y")                           // a load of y
	assert.Equal(t, "y.1", t1.Name())
	assert.Equal(t, "y.3", t2.Name())
	g.ReleasePhantoms() // the loads and both y are temporaries here
	assert.Equal(t, "1", p.Name())
	assert.Equal(t, "2", t1.Name())
	assert.Equal(t, "x.1", x.Name())
	n := g.NextUnique()
	v := g.Phantom("")
	assert.Equal(t, n, v.Unique())
	g.SetNextUnique(n)
	v.Renumber()
	assert.Equal(t, n, v.Unique())
	assert.Equal(t, n+1, g.NextUnique())
}
