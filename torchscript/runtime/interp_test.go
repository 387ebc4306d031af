package runtime

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/types"
)

// builder wraps the IR builder for tests: every step must succeed.
type builder struct {
	t *testing.T
	g *ir.Graph
}

func (b builder) c(v any) *ir.Value {
	out, err := b.g.Constant(v)
	require.NoError(b.t, err)
	return out
}

func (b builder) n(kind string, in []*ir.Value, outs ...types.Type) *ir.Node {
	n, err := b.g.InsertNode(kind, in, outs...)
	require.NoError(b.t, err)
	return n
}

func vals(vs ...*ir.Value) []*ir.Value { return vs }

// loopIfGraph is the graph PyTorch 2.6 prints for the TorchScript
// documentation's foo(len) (../shared/torchscript/loop_if.script.code.txt),
// built with the IR builder.
func loopIfGraph(t *testing.T) *ir.Graph {
	g := ir.NewGraph()
	b := builder{t, g}
	self, err := g.AddInput("self", &types.Class{Name: "__torch__.LoopIf", Module: true})
	require.NoError(t, err)
	_ = self
	n, err := g.AddInput("len.1", types.Int)
	require.NoError(t, err)
	one, tru, none := b.c(int64(1)), b.c(true), b.c(nil)
	three, four, ten, onef := b.c(int64(3)), b.c(int64(4)), b.c(int64(10)), b.c(1.0)
	size := b.n("prim::ListConstruct", vals(three, four), &types.List{Elem: types.Int}).Output()
	rv := b.n("aten::zeros", vals(size, none, none, none, none), types.Tensor).Output()
	loop := b.n("prim::Loop", vals(n, tru, rv), types.Tensor)
	body := loop.AddBlock()
	i := body.AddParam(types.Int)
	rv9 := body.AddParam(types.Tensor)
	g.SetInsertPoint(body)
	lt := b.n("aten::lt", vals(i, ten), types.Bool).Output()
	ifn := b.n("prim::If", vals(lt), types.Tensor)
	then, els := ifn.AddBlock(), ifn.AddBlock()
	g.SetInsertPoint(then)
	then.AddOutput(b.n("aten::sub", vals(rv9, onef, one), types.Tensor).Output())
	g.SetInsertPoint(els)
	els.AddOutput(b.n("aten::add", vals(rv9, onef, one), types.Tensor).Output())
	body.AddOutput(tru)
	body.AddOutput(ifn.Output())
	g.RegisterOutput(loop.Output())
	require.NoError(t, g.Lint())
	return g
}

type ioFile struct {
	Inputs  []json.RawMessage `json:"inputs"`
	Outputs []json.RawMessage `json:"outputs"`
	Cases   []struct {
		Inputs  []json.RawMessage `json:"inputs"`
		Outputs []json.RawMessage `json:"outputs"`
	} `json:"cases"`
}

func decodeAll(t *testing.T, raws []json.RawMessage) []any {
	out := make([]any, len(raws))
	for i, r := range raws {
		v, err := conformance.DecodeArg(r)
		require.NoError(t, err)
		out[i] = v
	}
	return out
}

// TestLoopIfMatchesPyTorch runs the loop_if graph on every case of
// PyTorch's io.json (testdata/loop_if.io.json, a copy of
// ../shared/torchscript/loop_if.io.json).
func TestLoopIfMatchesPyTorch(t *testing.T) {
	data, err := os.ReadFile("testdata/loop_if.io.json")
	require.NoError(t, err)
	var f ioFile
	require.NoError(t, json.Unmarshal(data, &f))
	cases := append([]struct {
		Inputs  []json.RawMessage `json:"inputs"`
		Outputs []json.RawMessage `json:"outputs"`
	}{{f.Inputs, f.Outputs}}, f.Cases...)
	fn := &Function{Name: "__torch__.LoopIf.forward", Graph: loopIfGraph(t)}
	in := NewInterpreter(nil)
	self := NewObject(&types.Class{Name: "__torch__.LoopIf", Module: true})
	for _, c := range cases {
		args := decodeAll(t, c.Inputs)
		want := decodeAll(t, c.Outputs)
		out, err := in.Run(fn, append([]any{self}, args...)...)
		require.NoError(t, err)
		require.Len(t, out, 1)
		got, ok := out[0].(*tensor.Tensor)
		require.True(t, ok)
		assert.True(t, tensor.AllClose(got, want[0].(*tensor.Tensor), 1e-4, 1e-4, false), "len=%v: %v", args[0], got)
	}
}

func TestRunErrorsNameTheNode(t *testing.T) {
	g := ir.NewGraph()
	b := builder{t, g}
	x, err := g.AddInput("x", types.Tensor)
	require.NoError(t, err)
	msg := b.c("boom")
	ifn := b.n("prim::If", vals(b.n("aten::Bool", vals(x), types.Bool).Output()))
	then, els := ifn.AddBlock(), ifn.AddBlock()
	g.SetInsertPoint(then)
	r := b.n("prim::RaiseException", vals(msg, b.c(nil)))
	r.Source = &ir.SourceRange{File: "code/__torch__.py", Line: 7, Col: 4}
	g.SetInsertPoint(els)
	g.SetInsertPoint(g.Block())
	g.RegisterOutput(x)
	fn := &Function{Name: "f", Graph: g}
	in := NewInterpreter(nil)

	_, err = in.Run(fn, tensor.Scalar[float32](1))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "prim::RaiseException at code/__torch__.py:7:4")
	assert.Contains(t, err.Error(), "boom")
	var ex *Exception
	assert.ErrorAs(t, err, &ex)

	out, err := in.Run(fn, tensor.Scalar[float32](0))
	require.NoError(t, err)
	assert.Len(t, out, 1)

	_, err = in.Run(fn, int64(3))
	assert.ErrorContains(t, err, "expected Tensor, got int")
	_, err = in.Run(fn)
	assert.ErrorContains(t, err, "expected 1 arguments")
	_, err = in.Run(fn, tensor.Must(tensor.FromSlice([]float32{1, 2}, 2)))
	assert.ErrorContains(t, err, "aten::Bool")
	assert.ErrorContains(t, err, "ambiguous")
}

// TestObjectsAndMethods: GetAttr, SetAttr, CallMethod, a list attribute
// appended to through an alias, a dict attribute read with get.
func TestObjectsAndMethods(t *testing.T) {
	ct := &types.Class{Name: "__torch__.M", Module: true, Attrs: []types.Attr{
		{Name: "training", Type: types.Bool},
		{Name: "count", Type: types.Int},
		{Name: "log", Type: &types.List{Elem: types.Int}},
	}}
	in := NewInterpreter(nil)

	// def bump(self, k: int) -> int: self.count = self.count + k; self.log.append(k); return self.count
	bump := ir.NewGraph()
	b := builder{t, bump}
	self, _ := bump.AddInput("self", ct)
	k, _ := bump.AddInput("k", types.Int)
	cnt := b.n("prim::GetAttr", vals(self), types.Int)
	cnt.SetAttr(ir.Attr{Name: "name", Kind: ir.AttrString, Value: "count"})
	sum := b.n("aten::add", vals(cnt.Output(), k), types.Int).Output()
	set := b.n("prim::SetAttr", vals(self, sum))
	set.SetAttr(ir.Attr{Name: "name", Kind: ir.AttrString, Value: "count"})
	lg := b.n("prim::GetAttr", vals(self), &types.List{Elem: types.Int})
	lg.SetAttr(ir.Attr{Name: "name", Kind: ir.AttrString, Value: "log"})
	b.n("aten::append", vals(lg.Output(), k), &types.List{Elem: types.Int})
	bump.RegisterOutput(sum)
	in.Define("__torch__.M.bump", &Function{Name: "__torch__.M.bump", Graph: bump})

	// def forward(self) -> int: return self.bump(2) + self.bump(3)
	fwd := ir.NewGraph()
	b = builder{t, fwd}
	self, _ = fwd.AddInput("self", ct)
	c1 := b.n("prim::CallMethod", vals(self, b.c(int64(2))), types.Int)
	c1.SetAttr(ir.Attr{Name: "name", Kind: ir.AttrString, Value: "bump"})
	c2 := b.n("prim::CallMethod", vals(self, b.c(int64(3))), types.Int)
	c2.SetAttr(ir.Attr{Name: "name", Kind: ir.AttrString, Value: "bump"})
	fwd.RegisterOutput(b.n("aten::add", vals(c1.Output(), c2.Output()), types.Int).Output())
	in.Define("__torch__.M.forward", &Function{Name: "__torch__.M.forward", Graph: fwd})

	o := NewObject(ct)
	require.NoError(t, o.SetAttr("training", false))
	require.NoError(t, o.SetAttr("count", int64(10)))
	log := NewList(types.Int)
	require.NoError(t, o.SetAttr("log", log))
	out, err := in.CallMethod(o, "forward")
	require.NoError(t, err)
	assert.Equal(t, []any{int64(27)}, out) // 12 + 15
	assert.Equal(t, []any{int64(2), int64(3)}, log.Items)
	_, err = in.CallMethod(o, "nope")
	assert.ErrorContains(t, err, "class __torch__.M has no method 'nope'")
}

// TestLoopWithCondition: a while loop (trip count max int, condition
// carried) summing until a bound, with a tuple return.
func TestLoopWithCondition(t *testing.T) {
	g := ir.NewGraph()
	b := builder{t, g}
	lim, _ := g.AddInput("lim", types.Int)
	zero, one := b.c(int64(0)), b.c(int64(1))
	cond0 := b.n("aten::lt", vals(zero, lim), types.Bool).Output()
	loop := b.n("prim::Loop", vals(b.c(int64(9223372036854775807)), cond0, zero, zero), types.Int, types.Int)
	body := loop.AddBlock()
	body.AddParam(types.Int)
	s := body.AddParam(types.Int)
	i := body.AddParam(types.Int)
	g.SetInsertPoint(body)
	s2 := b.n("aten::add", vals(s, i), types.Int).Output()
	i2 := b.n("aten::add", vals(i, one), types.Int).Output()
	c := b.n("aten::lt", vals(i2, lim), types.Bool).Output()
	body.AddOutput(c)
	body.AddOutput(s2)
	body.AddOutput(i2)
	g.SetInsertPoint(g.Block())
	tup := b.n("prim::TupleConstruct", vals(loop.Outputs[0], loop.Outputs[1]), &types.Tuple{Elems: []types.Type{types.Int, types.Int}})
	g.RegisterOutput(tup.Output())
	in := NewInterpreter(nil)
	out, err := in.Run(&Function{Name: "f", Graph: g}, int64(5))
	require.NoError(t, err)
	require.Len(t, out, 1)
	assert.Equal(t, "(10, 5)", Str(out[0]))
	out, err = in.Run(&Function{Name: "f", Graph: g}, int64(0))
	require.NoError(t, err)
	assert.Equal(t, "(0, 0)", Str(out[0]))
}

// TestCreateObject: prim::CreateObject makes an object of its output's
// class with every attribute None; __init__ (a CallMethod) sets them.
func TestCreateObject(t *testing.T) {
	ct := &types.Class{Name: "__torch__.P", Attrs: []types.Attr{{Name: "x", Type: types.Int}}}
	g := ir.NewGraph()
	b := builder{t, g}
	obj := b.n("prim::CreateObject", nil, ct).Output()
	set := b.n("prim::SetAttr", vals(obj, b.c(int64(5))))
	set.SetAttr(ir.Attr{Name: "name", Kind: ir.AttrString, Value: "x"})
	get := b.n("prim::GetAttr", vals(obj), types.Int)
	get.SetAttr(ir.Attr{Name: "name", Kind: ir.AttrString, Value: "x"})
	g.RegisterOutput(get.Output())
	out, err := NewInterpreter(nil).Run(&Function{Name: "f", Graph: g})
	require.NoError(t, err)
	assert.Equal(t, []any{int64(5)}, out)
}

// TestWithErrors: prim::Exit with no entered object, prim::Enter of a
// class without __enter__, and .name of a value that is not an enum fail
// with errors naming the node.
func TestWithErrors(t *testing.T) {
	ct := &types.Class{Name: "__torch__.Ctx"}
	for _, c := range []struct {
		kind, want string
	}{
		{"prim::Exit", "no with statement was entered"},
		{"prim::Enter", "class __torch__.Ctx has no method '__enter__'"},
		{"prim::EnumName", "expected an enum, got __torch__.Ctx"},
	} {
		g := ir.NewGraph()
		b := builder{t, g}
		o, err := g.AddInput("o", ct)
		require.NoError(t, err)
		n := b.n(c.kind, vals(o), types.Any)
		g.RegisterOutput(n.Output())
		_, err = NewInterpreter(nil).Run(&Function{Name: "f", Graph: g}, NewObject(ct))
		require.Error(t, err, c.kind)
		assert.ErrorContains(t, err, c.kind, c.kind)
		assert.ErrorContains(t, err, c.want, c.kind)
	}
}
