package fx_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gofx/gofx/fx"
	_ "github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	opSum  = nn.Op("aten::sum.dim_IntList")
	opTopK = nn.Op("aten::topk")
)

// myModule is torch.fx's documentation example (print_tabular).
type myModule struct {
	nn.Base
	Param  *nn.Parameter
	Linear *nn.Linear
}

func newMyModule() *myModule {
	m := &myModule{}
	m.Init(m, "MyModule")
	p, _ := nn.Uniform(1, 3, 4)
	m.Param = m.RegisterParameter("param", p)
	m.Linear = nn.RegisterModule(&m.Base, "linear", nn.NewLinear(4, 5, true))
	return m
}

func (m *myModule) Forward(x nn.Value) nn.Value {
	s := nn.CallOp(opSum, m.Linear.Call(x.Add(m.Linear.Weight.Value())).Relu(), []int{-1})
	return nn.CallOp(opTopK, s, 3)
}

func counts(gm *fx.GraphModule) map[node.Opcode]int {
	c := map[node.Opcode]int{}
	for n := range gm.Graph.Nodes() {
		c[n.Op()]++
	}
	return c
}

func TestTraceMyModule(t *testing.T) {
	gm, err := fx.SymbolicTrace(newMyModule())
	require.NoError(t, err)
	require.NoError(t, gm.Lint())
	want := `graph():
    %x : [num_users=1] = placeholder[target=x]
    %linear_weight : [num_users=1] = get_attr[target=linear.weight]
    %add : [num_users=1] = call_function[target=aten.add.Tensor](args = (%x, %linear_weight), kwargs = {})
    %linear : [num_users=1] = call_module[target=linear](args = (%add,), kwargs = {})
    %relu : [num_users=1] = call_method[target=relu](args = (%linear,), kwargs = {})
    %sum_1 : [num_users=1] = call_function[target=aten.sum.dim_IntList](args = (%relu, [-1]), kwargs = {})
    %topk : [num_users=1] = call_function[target=aten.topk.default](args = (%sum_1, 3), kwargs = {})
    return topk`
	assert.Equal(t, want, strings.TrimSpace(gm.Graph.String()))
	c := counts(gm)
	assert.Equal(t, map[node.Opcode]int{node.Placeholder: 1, node.GetAttr: 1, node.CallFunction: 3, node.CallMethod: 1, node.CallModule: 1, node.Output: 1}, c)
	// Metadata: every non-placeholder node knows where it was made.
	for n := range gm.Graph.Nodes() {
		if n.Op() == node.Placeholder || n.Op() == node.Output {
			continue
		}
		st, ok := node.StackTrace.Get(&n.Meta)
		require.True(t, ok, n.Name())
		assert.Contains(t, st, "trace_test.go", n.Name())
	}
	lin, _ := gm.Graph.Node("linear")
	ms, ok := node.ModuleStack.Get(&lin.Meta)
	require.True(t, ok)
	assert.Equal(t, []node.ModuleFrame{{Path: "linear", Type: "Linear"}}, ms)
	// Parameters are restored after tracing.
	m := newMyModule()
	_, err = fx.SymbolicTrace(m)
	require.NoError(t, err)
	assert.True(t, m.Param.Value().IsTensor())
}

type branchy struct{ nn.Base }

func (b *branchy) Forward(x nn.Value) nn.Value {
	if x.Sum().Gt(0).Bool() { // data-dependent: cannot be traced
		return x.Relu()
	}
	return x
}

func TestTraceControlFlowError(t *testing.T) {
	_, err := fx.SymbolicTrace(&branchy{})
	require.Error(t, err)
	var te *fx.TraceError
	require.True(t, errors.As(err, &te), "%v", err)
	assert.Contains(t, te.Location, "trace_test.go:")
	assert.Contains(t, err.Error(), "a bool")
	assert.Contains(t, err.Error(), "where")
}

type nested struct {
	nn.Base
	Seq *nn.Sequential
}

func (n *nested) Forward(x nn.Value) nn.Value { return n.Seq.Call(x) }

func TestTraceLeafPolicy(t *testing.T) {
	m := &nested{}
	m.Seq = nn.RegisterModule(&m.Base, "seq", nn.NewSequential(nn.NewLinear(2, 3, true), nn.NewReLU()))
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	assert.Contains(t, gm.Graph.String(), "call_module[target=seq.0]")
	lin, _ := gm.Graph.Node("seq_0")
	ms, _ := node.ModuleStack.Get(&lin.Meta)
	assert.Equal(t, []node.ModuleFrame{{Path: "seq", Type: "Sequential"}, {Path: "seq.0", Type: "Linear"}}, ms)

	tr := fx.Tracer{IsLeaf: func(m nn.Module, path string) bool { return path == "seq" }}
	gm, err = tr.Trace(m)
	require.NoError(t, err)
	assert.Contains(t, gm.Graph.String(), "call_module[target=seq]")
	assert.Equal(t, 3, gm.Graph.Len())

	tr = fx.Tracer{IsLeaf: func(nn.Module, string) bool { return false }}
	gm, err = tr.Trace(m)
	require.NoError(t, err)
	s := gm.Graph.String()
	assert.Contains(t, s, "get_attr[target=seq.0.weight]")
	assert.Contains(t, s, "aten.linear.default")
	assert.Contains(t, s, "aten.relu.default")
}

func TestWrap(t *testing.T) {
	w, err := fx.Wrap("fxtest.clip_if_big", func(args ...nn.Value) nn.Value {
		if args[0].Sum().Float() > 10 {
			return args[0].Relu()
		}
		return args[0]
	})
	require.NoError(t, err)
	gm, err := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value { return w.Call(x.Mul(2)) })
	require.NoError(t, err)
	assert.Contains(t, gm.Graph.String(), "call_function[target=fxtest.clip_if_big](args = (%mul,)")
}

func TestTraceShapeAndSplit(t *testing.T) {
	gm, err := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value {
		b, tt := x.Shape().Index(0), x.Shape().Index(1)
		qkv := x.Split(4, -1)
		return qkv.Index(0).Reshape(b, tt, 2, 2).Transpose(1, 2)
	})
	require.NoError(t, err)
	c := counts(gm)
	assert.Equal(t, 5, c[node.CallFunction], gm.Graph.String()) // 2 getattr, 3 getitem
	assert.Equal(t, 3, c[node.CallMethod], gm.Graph.String())
}

// branchless is branchy written with F.Where, as the trace error suggests.
type branchless struct{ nn.Base }

func (b *branchless) Forward(x nn.Value) nn.Value {
	return F.Where(x.Sum().Gt(0), x.Relu(), x)
}

func TestWhereInsteadOfIf(t *testing.T) {
	gm, err := fx.SymbolicTrace(&branchless{})
	require.NoError(t, err)
	assert.Contains(t, gm.Graph.String(), "aten.where.self")
	for _, v := range [][]float32{{-3, 1}, {3, -1}} {
		x := nn.Tensor(tensor.Must(tensor.FromSlice(v, 2)))
		want, err := nn.Run(&branchy{}, x)
		require.NoError(t, err)
		got, err := gm.Run(x)
		require.NoError(t, err)
		assert.Equal(t, want.Tensor().Float64s(), got.Tensor().Float64s())
	}
}
