package fx_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
)

// condModel is ../shared/pt2's CondParams in Go: a cond whose branches
// read parameters and a buffer.
type condModel struct {
	nn.Base
	Lin1, Lin2 *nn.Linear
}

func newCondModel() *condModel {
	m := &condModel{}
	m.Init(m, "CondModel")
	m.Lin1 = nn.RegisterModule(&m.Base, "lin1", nn.NewLinear(8, 8, true))
	m.Lin2 = nn.RegisterModule(&m.Base, "lin2", nn.NewLinear(8, 8, true))
	return m
}

func (m *condModel) Forward(x nn.Value) nn.Value {
	return F.Cond(x.Sum().Gt(0),
		func(o ...nn.Value) nn.Value { return F.Linear(o[0], m.Lin1.Weight.Value(), m.Lin1.Bias.Value()).Relu() },
		func(o ...nn.Value) nn.Value {
			return F.Linear(o[0], m.Lin2.Weight.Value(), m.Lin2.Bias.Value()).Sigmoid()
		},
		x)
}

// TestSymbolicTraceCond traces a cond: the branches become GraphModules
// true_graph_0 and false_graph_0 of the traced module, the parameters
// they read are get_attr nodes of the program lifted into the operands in
// torch.export 2.6's order (cond_params.ep.txt: the explicit operands,
// then each branch's lifted values sorted by name), and the call is
// torch.export's cond(pred, true_graph_0, false_graph_0, [operands]);
// tensor methods stay call_method nodes, as fx records them.
func TestSymbolicTraceCond(t *testing.T) {
	gm, err := fx.SymbolicTrace(newCondModel())
	require.NoError(t, err)
	assert.Equal(t, `def forward(self, x):
    sum_1 = x.sum()
    gt = torch.ops.aten.gt.Scalar(sum_1, 0);  sum_1 = None
    lin1_weight = self.lin1.weight
    lin1_bias = self.lin1.bias
    lin2_weight = self.lin2.weight
    lin2_bias = self.lin2.bias
    true_graph_0 = self.true_graph_0
    false_graph_0 = self.false_graph_0
    cond = torch.ops.higher_order.cond(gt, true_graph_0, false_graph_0, [x, lin1_bias, lin1_weight, lin2_bias, lin2_weight]);  gt = true_graph_0 = false_graph_0 = x = lin1_bias = lin1_weight = lin2_bias = lin2_weight = None
    getitem = cond[0];  cond = None
    return getitem
`, gm.Code())
	tg, ok := gm.Child("true_graph_0")
	require.True(t, ok)
	assert.Equal(t, `def forward(self, x, lin1_bias, lin1_weight, lin2_bias, lin2_weight):
    linear = torch.ops.aten.linear.default(x, lin1_weight, lin1_bias);  x = lin1_weight = lin1_bias = None
    relu = linear.relu();  linear = None
    return (relu,)
`, tg.(*fx.GraphModule).Code())
	require.NoError(t, gm.Lint())
}

// loopModel halves x until its sum is at most 1, then maps each row r to
// r*w + 1.
type loopModel struct {
	nn.Base
	W *nn.Parameter
}

func (m *loopModel) Forward(x nn.Value) nn.Value {
	y := F.WhileLoop(func(v ...nn.Value) nn.Value { return v[0].Sum().Gt(1) },
		func(v ...nn.Value) []nn.Value { return []nn.Value{v[0].Mul(0.5)} },
		[]nn.Value{x}, nil)[0]
	return F.Map(func(r nn.Value, _ ...nn.Value) nn.Value { return r.Mul(m.W.Value()).Add(1) }, y)
}

// TestSymbolicTraceWhileLoopMap traces a while_loop and a map: the loop's
// graphs are while_loop_cond_graph_0 (returning the predicate itself) and
// while_loop_body_graph_0 (placeholders arg0_1, ... as torch.export names
// them), the map's body body_graph_0 with the parameter it reads lifted
// into map_impl's extra args; the traced module computes what the model
// computes eagerly, its trip count decided by each input.
func TestSymbolicTraceWhileLoopMap(t *testing.T) {
	m := &loopModel{}
	m.Init(m, "LoopModel")
	m.W = m.RegisterParameter("w", tensor.Must(tensor.FromSlice([]float32{1, -1}, 2)))
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	code := gm.Code()
	assert.Contains(t, code, "while_loop = torch.ops.higher_order.while_loop(while_loop_cond_graph_0, while_loop_body_graph_0, (x,), ())")
	assert.Contains(t, code, "map_impl = torch.ops.higher_order.map_impl(body_graph_0, [getitem], [w])")
	cg, ok := gm.Child("while_loop_cond_graph_0")
	require.True(t, ok)
	assert.Equal(t, `def forward(self, arg0_1):
    sum_1 = arg0_1.sum();  arg0_1 = None
    gt = torch.ops.aten.gt.Scalar(sum_1, 1);  sum_1 = None
    return gt
`, cg.(*fx.GraphModule).Code())
	for _, xs := range [][]float32{{1, 2, 3, 4}, {0.1, 0.2, 0.3, 0.1}, {8, 8, 8, 8}} {
		x := tensor.Must(tensor.FromSlice(xs, 2, 2))
		want, err := nn.Run(m, nn.Of(x))
		require.NoError(t, err)
		got, err := gm.Run(nn.Of(x))
		require.NoError(t, err)
		assert.Equal(t, want.MustTensor().Float64s(), got.MustTensor().Float64s(), "x = %v", xs)
	}
}

// pairMap maps over a tuple of tensors (torch's map over a pytree of xs).
type pairMap struct{ nn.Base }

func (m *pairMap) ArgNames() []string { return []string{"a", "b", "y"} }

func (m *pairMap) Forward(a, b, y nn.Value) nn.Value {
	return F.Map(func(xs nn.Value, args ...nn.Value) nn.Value {
		pq := xs.Tuple()
		return pq[0].Mul(pq[1]).Add(args[0])
	}, nn.Tuple(a, b), y)
}

// TestSymbolicTraceMapPytree: a map over (a, b) is one map_impl mapping
// over [a, b] whose body takes a row of each, then y, as torch.export
// 2.6 records torch's map over a tuple
// (export/testdata/unbackedhop/map_tuple.ep.json); the traced module
// computes what the model computes eagerly.
func TestSymbolicTraceMapPytree(t *testing.T) {
	m := &pairMap{}
	m.Init(m, "PairMap")
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	assert.Contains(t, gm.Code(), "map_impl = torch.ops.higher_order.map_impl(body_graph_0, [a, b], [y])")
	body, ok := gm.Child("body_graph_0")
	require.True(t, ok)
	var phs []string
	for _, p := range body.(*fx.GraphModule).Graph.Placeholders() {
		phs = append(phs, p.Name())
	}
	assert.Equal(t, []string{"a", "b", "y"}, phs)
	a := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 3, 2))
	b := tensor.Must(tensor.FromSlice([]float32{2, 2, 1, 1, 0, -1}, 3, 2))
	y := tensor.Must(tensor.FromSlice([]float32{10, 20}, 2))
	want, err := nn.Run(m, nn.Of(a), nn.Of(b), nn.Of(y))
	require.NoError(t, err)
	got, err := gm.Run(nn.Of(a), nn.Of(b), nn.Of(y))
	require.NoError(t, err)
	assert.Equal(t, []float64{12, 24, 13, 24, 10, 14}, want.MustTensor().Float64s(), "eager: a*b + y")
	assert.Equal(t, want.MustTensor().Float64s(), got.MustTensor().Float64s())
}

// constCond branches on a Go bool: a constant predicate.
type constCond struct {
	nn.Base
	flip bool
}

func (m *constCond) Forward(x nn.Value) nn.Value {
	return F.Cond(nn.Of(m.flip),
		func(o ...nn.Value) nn.Value { return o[0].Method("sin") },
		func(o ...nn.Value) nn.Value { return o[0].Method("cos") }, x)
}

// TestSymbolicTraceConstantPredicate: a Go bool predicate is specialized
// (only its branch is traced, no cond node) and Specialized reports the
// Go line, as export's Specialized does.
func TestSymbolicTraceConstantPredicate(t *testing.T) {
	m := &constCond{flip: true}
	m.Init(m, "ConstCond")
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	code := gm.Code()
	assert.Contains(t, code, "sin")
	assert.NotContains(t, code, "cos")
	assert.NotContains(t, code, "higher_order.cond")
	require.Len(t, gm.Specialized(), 1)
	assert.Regexp(t, `controlflow_test\.go:\d+: cond with a constant predicate: only the taken branch is recorded$`, gm.Specialized()[0])
}

// itemSlice slices by a value read from data: x[:k.item()].sum(0).
type itemSlice struct{ nn.Base }

func (m *itemSlice) ArgNames() []string { return []string{"x", "k"} }

func (m *itemSlice) Forward(x, k nn.Value) nn.Value {
	return x.Index(nn.Slice(nil, k.Item())).Sum(0)
}

// TestSymbolicTraceItemSlice: x[:n] with n from Item traces as torch.fx
// traces x[:k.item()] (item = k.item(); x[slice(None, item, None)]), and
// the traced module slices by each input's k.
func TestSymbolicTraceItemSlice(t *testing.T) {
	m := &itemSlice{}
	m.Init(m, "ItemSlice")
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	code := gm.Code()
	assert.Contains(t, code, "item = k.item();  k = None")
	assert.Contains(t, code, "getitem = x[slice(None, item, None)];  x = item = None")
	x := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 3, 2))
	for k, want := range map[int64][]float64{1: {1, 2}, 2: {4, 6}, 3: {9, 12}} {
		got, err := gm.Run(nn.Of(x), nn.Of(tensor.Scalar(k)))
		require.NoError(t, err, "k = %d", k)
		assert.Equal(t, want, got.MustTensor().Float64s(), "k = %d", k)
	}
}
