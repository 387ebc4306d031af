package graph_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/graph/flow"
	"gonum.org/v1/gonum/graph/topo"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/demo"
	"github.com/gofx/gofx/internal/golden"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

func fn(t testing.TB, name string) node.Function {
	t.Helper()
	f, err := demo.Fn(name)
	require.NoError(t, err)
	return f
}

func must(t testing.TB) func(*node.Node, error) *node.Node {
	return func(n *node.Node, err error) *node.Node {
		t.Helper()
		require.NoError(t, err)
		return n
	}
}

func names(ns []*node.Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.Name()
	}
	return out
}

// tricky builds a graph exercising every kind of argument value and the
// corner cases of each printed form.
func tricky(t testing.TB) *graph.Graph {
	m := must(t)
	g := graph.New()
	x := m(g.Placeholder("x"))
	y := m(g.PlaceholderWithDefault("myInput", node.Str("it's")))
	w := m(g.GetAttr("layer1.0.conv1.weight"))
	to := m(g.CallFunction(fn(t, "aten._to_copy.default"), []node.Arg{x}, node.Kwargs{
		{Name: "dtype", Value: node.Float16}, {Name: "layout", Value: node.Layout("strided")},
		{Name: "device", Value: node.Device("cuda:0")}, {Name: "pin_memory", Value: node.Bool(false)},
		{Name: "memory_format", Value: node.MemoryFormat("channels_last")},
	}))
	conv := m(g.CallModule("layer1.0.conv1", []node.Arg{to}, nil))
	c := m(g.CallFunction(fn(t, "aten.clamp.default"), []node.Arg{conv, node.Float(math.Inf(-1)), node.Float(1e-05)}, nil))
	k := m(g.CallFunction(fn(t, "mylib.custom.default"), []node.Arg{
		node.Tuple{c}, node.List{}, node.Tuple{}, node.Dict{{Name: "a b", Value: node.List{w, node.None}}},
		node.Str("tab\t\"q\" é\n"), node.Float(math.NaN()), node.Float(math.Copysign(0, -1)), node.Int(-9223372036854775808),
		node.Float(1e16), node.Device("cpu"),
	}, nil))
	sz := m(g.CallMethod("size", []node.Arg{k, node.Int(0)}, nil))
	o := m(g.CallFunction(fn(t, "operator.getitem"), []node.Arg{k, sz}, nil))
	unused := m(g.CallFunction(fn(t, "aten.relu.default"), []node.Arg{y}, nil))
	_ = unused
	m(g.Output(node.Tuple{o, node.List{x, c}}))
	node.Val.Set(&o.Meta, node.TensorMeta{DType: node.BFloat16, Shape: []node.Dim{{Sym: "s0"}, {Sym: "2*s0 + 1"}, {Size: 0}}})
	node.ModuleStack.Set(&conv.Meta, []node.ModuleFrame{{Path: "layer1", Type: "torch.nn.Sequential"}, {Path: "layer1.0.conv1", Type: "torch.nn.Conv2d"}})
	c.Meta.Set("weird key", "v")
	c.Meta.Set("count", int64(3))
	c.Meta.Set("scale", 0.5)
	c.Meta.Set("flag", true)
	c.Meta.Set("no text form", struct{}{})
	require.NoError(t, g.Lint())
	return g
}

func TestForms(t *testing.T) {
	d, err := demo.Graph()
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		g    *graph.Graph
	}{{"demo", d}, {"tricky", tricky(t)}} {
		t.Run(tc.name, func(t *testing.T) {
			golden.Check(t, filepath.Join("testdata", tc.name+".string.golden"), tc.g.String()+"\n")
			golden.Check(t, filepath.Join("testdata", tc.name+".tabular.golden"), tc.g.Tabular())
			golden.Check(t, filepath.Join("testdata", tc.name+".code.golden"), tc.g.Code())
			golden.Check(t, filepath.Join("testdata", tc.name+".text.golden"), tc.g.Text())

			p, err := graph.Parse(tc.g.Text())
			require.NoError(t, err)
			require.NoError(t, p.Lint())
			require.NoError(t, graph.Equal(tc.g, p))
			assert.Equal(t, tc.g.Text(), p.Text())
			assert.Equal(t, tc.g.String(), p.String())
			assert.Equal(t, tc.g.Code(), p.Code())
		})
	}
}

// The attention model's torch.fx trace (../shared/models/attention.fx.txt)
// prints these lines; the same nodes built in gofx print the same, apart
// from FX 1.13's [#users=N] that later versions spell [num_users=N]. Its
// code writes Python's operators as expressions ("getitem_2 = split[0]",
// "truediv = matmul / 2.8284271247461903").
func TestStringMatchesTorchFX(t *testing.T) {
	m := must(t)
	g := graph.New()
	x := m(g.Placeholder("x"))
	qkv := m(g.CallModule("qkv", []node.Arg{x}, nil))
	split := m(g.CallMethod("split", []node.Arg{qkv, node.Int(32)}, node.Kwargs{{Name: "dim", Value: node.Int(-1)}}))
	gi := m(g.CallFunction(fn(t, "operator.getitem"), []node.Arg{split, node.Int(0)}, nil))
	td := m(g.CallFunction(fn(t, "operator.truediv"), []node.Arg{gi, node.Float(2.8284271247461903)}, nil))
	m(g.Output(td))
	want := `graph():
    %x : [num_users=1] = placeholder[target=x]
    %qkv : [num_users=1] = call_module[target=qkv](args = (%x,), kwargs = {})
    %split : [num_users=1] = call_method[target=split](args = (%qkv, 32), kwargs = {dim: -1})
    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%split, 0), kwargs = {})
    %truediv : [num_users=1] = call_function[target=operator.truediv](args = (%getitem, 2.8284271247461903), kwargs = {})
    return truediv`
	assert.Equal(t, want, g.String())
	wantCode := `def forward(self, x):
    qkv = self.qkv(x);  x = None
    split = qkv.split(32, dim = -1);  qkv = None
    getitem = split[0];  split = None
    truediv = getitem / 2.8284271247461903;  getitem = None
    return truediv
`
	assert.Equal(t, wantCode, g.Code())
}

func TestCreateNodeErrors(t *testing.T) {
	m := must(t)
	g := graph.New()
	x := m(g.Placeholder("x"))
	other := graph.New()
	ox := m(other.Placeholder("x"))
	relu := fn(t, "aten.relu.default")
	tests := []struct {
		name string
		do   func() (*node.Node, error)
		want string
	}{
		{"foreign arg", func() (*node.Node, error) { return g.CallFunction(relu, []node.Arg{ox}, nil) }, "arg 0 refers to node %x of another graph"},
		{"nil function", func() (*node.Node, error) { return g.CallFunction(nil, nil, nil) }, "nil function"},
		{"bad path", func() (*node.Node, error) { return g.GetAttr("a.") }, "not a dotted path"},
		{"bad arg", func() (*node.Node, error) { return g.CallFunction(relu, []node.Arg{x, nil}, nil) }, "arg 1 is nil"},
	}
	for _, tt := range tests {
		_, err := tt.do()
		assert.ErrorContains(t, err, tt.want, tt.name)
	}
	m(g.Output(x))
	_, err := g.Output(x)
	assert.ErrorContains(t, err, "already has an output node %output")
	require.NoError(t, g.Lint())
	assert.Equal(t, 2, g.Len())
}

func TestInsertionPoint(t *testing.T) {
	m := must(t)
	relu := fn(t, "aten.relu.default")
	g := graph.New()
	x := m(g.Placeholder("x"))
	a := m(g.CallFunction(relu, []node.Arg{x}, nil))
	m(g.Output(a))
	// Default: before the output.
	b := m(g.CallFunction(relu, []node.Arg{a}, nil))
	assert.Equal(t, []string{"x", "relu", "relu_1", "output"}, names(g.NodeList()))
	// After a node: consecutive nodes keep their order (unlike torch.fx).
	restore := g.InsertingAfter(x)
	m(g.Placeholder("y"))
	m(g.Placeholder("z"))
	restore()
	assert.Equal(t, []string{"x", "y", "z", "relu", "relu_1", "output"}, names(g.NodeList()))
	// Before a node, nested and restored in turn.
	func() {
		defer g.InsertingBefore(b)()
		m(g.CallFunction(relu, []node.Arg{a}, nil))
		func() {
			defer g.InsertingBefore(nil)()
			m(g.Placeholder("first"))
			m(g.Placeholder("second"))
		}()
		m(g.CallFunction(relu, []node.Arg{a}, nil))
	}()
	m(g.CallFunction(relu, []node.Arg{b}, nil))
	assert.Equal(t, []string{"first", "second", "x", "y", "z", "relu", "relu_2", "relu_3", "relu_1", "relu_4", "output"}, names(g.NodeList()))
	require.NoError(t, g.Lint())
	// The anchor erased: creation fails with an error naming it.
	restore = g.InsertingBefore(b)
	n := m(g.CallFunction(relu, []node.Arg{a}, nil))
	require.NoError(t, g.EraseNode(n))
	for _, u := range b.Users() {
		require.NoError(t, u.ReplaceInputWith(b, a))
	}
	_, err := b.ReplaceAllUsesWith(a, nil, false)
	require.NoError(t, err)
	require.NoError(t, g.EraseNode(b))
	_, err = g.CallFunction(relu, []node.Arg{a}, nil)
	assert.ErrorContains(t, err, "insertion point %relu_1 was erased")
	restore()
	// The end means before the output node; nothing goes after it.
	restore = g.InsertingAfter(nil)
	late := m(g.CallFunction(relu, []node.Arg{a}, nil))
	restore()
	assert.Equal(t, late, g.OutputNode().Prev())
	restore = g.InsertingAfter(g.OutputNode())
	_, err = g.CallFunction(relu, []node.Arg{a}, nil)
	assert.ErrorContains(t, err, "cannot insert after the output node %output")
	restore()
	require.NoError(t, g.EraseNode(late))
	require.NoError(t, g.Lint())
	_, ok := g.Node("relu_1")
	assert.False(t, ok, "erased names are not found")
}

func TestEraseAndMove(t *testing.T) {
	m := must(t)
	relu := fn(t, "aten.relu.default")
	g := graph.New()
	x := m(g.Placeholder("x"))
	a := m(g.CallFunction(relu, []node.Arg{x}, nil))
	b := m(g.CallFunction(relu, []node.Arg{x}, nil))
	out := m(g.Output(node.Tuple{a, b}))
	assert.ErrorContains(t, g.EraseNode(a), "erase %relu: node still has 1 user(s), first %output")
	assert.ErrorContains(t, g.EraseNode(nil), "nil node")
	other := graph.New()
	ox := m(other.Placeholder("x"))
	assert.ErrorContains(t, g.EraseNode(ox), "another graph")
	assert.ErrorContains(t, g.MoveBefore(out, a), "output node stays last")
	assert.ErrorContains(t, g.MoveAfter(a, out), "nothing may follow the output node")
	require.NoError(t, g.MoveBefore(b, a))
	assert.Equal(t, []string{"x", "relu_1", "relu", "output"}, names(g.NodeList()))
	assert.True(t, g.Before(b, a))
	require.NoError(t, g.Lint())
	require.NoError(t, out.SetArgs([]node.Arg{b}))
	require.NoError(t, g.EraseNode(a))
	assert.ErrorContains(t, g.EraseNode(a), "already erased")
	assert.Equal(t, 3, g.Len())
	require.NoError(t, g.Lint())
}

func TestLintFindsOrderViolations(t *testing.T) {
	m := must(t)
	relu := fn(t, "aten.relu.default")
	g := graph.New()
	x := m(g.Placeholder("x"))
	a := m(g.CallFunction(relu, []node.Arg{x}, nil))
	b := m(g.CallFunction(relu, []node.Arg{a}, nil))
	// The node API allows a forward reference; Lint names it.
	require.NoError(t, a.SetArgs([]node.Arg{b}))
	err := g.Lint()
	var lintErr *graph.LintError
	require.ErrorAs(t, err, &lintErr)
	assert.Contains(t, err.Error(), "node %relu: uses %relu_1, which does not come before it")
}

func TestRename(t *testing.T) {
	m := must(t)
	g := graph.New()
	x := m(g.Placeholder("x"))
	a := m(g.CallFunction(fn(t, "aten.relu.default"), []node.Arg{x}, nil))
	name, err := g.Rename(a, "act")
	require.NoError(t, err)
	assert.Equal(t, "act", name)
	name, err = g.Rename(a, "x")
	require.NoError(t, err)
	assert.Equal(t, "x_1", name)
	got, ok := g.Node("x_1")
	assert.True(t, ok && got == a)
	_, ok = g.Node("act")
	assert.False(t, ok)
	require.NoError(t, lintBody(g))
	// A node named after a Python builtin gets a suffix, as in torch.fx.
	s := m(g.CallFunction(fn(t, "aten.sum.default"), []node.Arg{x}, nil))
	assert.Equal(t, "sum_1", s.Name())
	mod := m(g.CallModule("layer1.0.BatchNorm", []node.Arg{x}, nil))
	assert.Equal(t, "layer1_0_batch_norm", mod.Name())
}

func TestCopies(t *testing.T) {
	src := tricky(t)
	// Clone keeps everything.
	c, m, err := src.Clone()
	require.NoError(t, err)
	require.NoError(t, c.Lint())
	require.NoError(t, graph.Equal(src, c))
	assert.Len(t, m, src.Len())
	// GraphCopy into a graph that already has names in use, with x bound to
	// an existing node: names get suffixes, x is not copied.
	g := graph.New()
	x := must(t)(g.Placeholder("x"))
	vm := map[*node.Node]node.Arg{src.First(): x}
	out, err := g.GraphCopy(src, vm)
	require.NoError(t, err)
	_, err = g.Output(out)
	require.NoError(t, err)
	require.NoError(t, g.Lint())
	assert.Equal(t, src.Len(), g.Len())
	assert.Equal(t, []string{"x", "my_input", "layer1_0_conv1_weight"}, names(g.NodeList()[:3]))
	_, err = g.GraphCopy(g, vm)
	assert.ErrorContains(t, err, "same graph")
	_, err = g.NodeCopy(src.First(), func(*node.Node) node.Arg { return nil })
	require.NoError(t, err, "a placeholder has no node arguments to remap")
	_, err = g.NodeCopy(src.NodeList()[3], func(*node.Node) node.Arg { return nil })
	assert.ErrorContains(t, err, "remap returned nil for argument %x")
}

func TestFindNodes(t *testing.T) {
	g := tricky(t)
	assert.Equal(t, []string{"x", "my_input"}, names(g.FindNodes(node.Placeholder, nil)))
	assert.Equal(t, []string{"getitem"}, names(g.FindNodes(node.CallFunction, fn(t, "operator.getitem"))))
	assert.Equal(t, []string{"layer1_0_conv1"}, names(g.FindNodes(node.CallModule, node.Path("layer1.0.conv1"))))
	assert.Len(t, g.FindNodes(node.CallFunction, nil), 5)
	assert.Equal(t, "output", g.OutputNode().Name())
}

func TestEliminateDeadCode(t *testing.T) {
	m := must(t)
	relu := fn(t, "aten.relu.default")
	impure, err := node.NewFunc("dce.print.default", true)
	require.NoError(t, err)
	g := graph.New()
	x := m(g.Placeholder("x"))
	unusedInput := m(g.Placeholder("y"))
	_ = unusedInput
	a := m(g.CallFunction(relu, []node.Arg{x}, nil))
	dead1 := m(g.CallFunction(relu, []node.Arg{a}, nil))
	m(g.CallFunction(relu, []node.Arg{dead1}, nil))
	m(g.CallFunction(impure, []node.Arg{a}, nil))
	m(g.Output(a))
	assert.True(t, g.EliminateDeadCode())
	assert.Equal(t, []string{"x", "y", "relu", "print_1", "output"}, names(g.NodeList()))
	assert.False(t, g.EliminateDeadCode(), "nothing left to remove")
	assert.True(t, g.EliminateDeadCodeFunc(func(n *node.Node) bool { return n.Op() == node.Output }))
	assert.Equal(t, []string{"x", "relu", "output"}, names(g.NodeList()))
	require.NoError(t, g.Lint())
}

func TestView(t *testing.T) {
	g, err := demo.Graph()
	require.NoError(t, err)
	v := g.View()
	order, err := topo.Sort(v)
	require.NoError(t, err)
	pos := map[*node.Node]int{}
	for i, gn := range order {
		pos[v.Lookup(gn.ID())] = i
	}
	for n := range g.Nodes() {
		for _, in := range n.AllInputNodes() {
			assert.Less(t, pos[in], pos[n], "%s before %s", in.Name(), n.Name())
		}
	}
	// In the demo every path from x to the output passes through add.
	x, _ := g.Node("x")
	add, _ := g.Node("add")
	out := g.OutputNode()
	dom := flow.Dominators(v.Node(v.ID(x)), v)
	found := false
	for d := dom.DominatorOf(v.ID(out)); d != nil && !found; d = dom.DominatorOf(d.ID()) {
		found = d.ID() == v.ID(add)
	}
	assert.True(t, found, "add dominates the output")
	assert.True(t, v.HasEdgeFromTo(v.ID(x), v.ID(add)))
	assert.False(t, v.HasEdgeFromTo(v.ID(add), v.ID(x)))
	assert.NotNil(t, v.Edge(v.ID(x), v.ID(add)))
	assert.Nil(t, v.Edge(v.ID(add), v.ID(x)))
	assert.Equal(t, g.Len(), v.Nodes().Len())
	assert.Nil(t, v.Node(99))
}

// Parse resolves every aten operator through package ops, and dead-code
// elimination keeps an unused in-place operator because its schema says it
// writes its argument.
func TestParseResolvesATenOperators(t *testing.T) {
	g, err := graph.Parse(`%x = placeholder "x"()
%mul = call_function aten.mul.Tensor(%x, %x)
%add_ = call_function aten.add_.Tensor(%x, 1.0)
%neg = call_function aten.neg.default(%mul)
%output = output "output"(%x)
`)
	require.NoError(t, err)
	mul, _ := g.Node("mul")
	o, ok := mul.Function().(*ops.Operator)
	require.True(t, ok, "target is the registry operator, %T", mul.Function())
	assert.Equal(t, "aten::mul.Tensor(Tensor self, Tensor other) -> Tensor", o.Schema().String())
	assert.True(t, g.EliminateDeadCode())
	assert.Equal(t, []string{"x", "add_", "output"}, names(g.NodeList()))
	assert.Contains(t, g.Code(), "add_ = torch.ops.aten.add_.Tensor(x, 1.0);  add_ = None")
}
