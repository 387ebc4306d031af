package fx_test

import (
	"testing"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func input(t *testing.T, shape ...int) nn.Value {
	x, err := tensor.NewGenerator(7).Randn(tensor.Float32, shape...)
	require.NoError(t, err)
	return nn.Tensor(x)
}

func sameValue(t *testing.T, want, got nn.Value) {
	t.Helper()
	if want.IsTuple() {
		require.True(t, got.IsTuple(), "got %s", got.Kind())
		require.Equal(t, want.Len(), got.Len())
		for i := range want.Tuple() {
			sameValue(t, want.Index(i), got.Index(i))
		}
		return
	}
	require.NotNil(t, got.Tensor(), "got %s", got.Kind())
	assert.True(t, tensor.Equal(want.Tensor(), got.Tensor()), "want %v\ngot %v", want, got)
}

func TestGraphModuleRunsLikeEager(t *testing.T) {
	m := newMyModule()
	x := input(t, 5, 4)
	want, err := nn.Run(m, x)
	require.NoError(t, err)
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	got, err := gm.Run(x)
	require.NoError(t, err)
	sameValue(t, want, got)
	// The GraphModule shares the root's state, under the same names.
	assert.Equal(t, nn.StateDict(m).Names(), nn.StateDict(gm).Names())
	// It is a Module: nn.Run works, and it can be traced again.
	got, err = nn.Run(gm, x)
	require.NoError(t, err)
	sameValue(t, want, got)
	gm2, err := fx.SymbolicTrace(gm)
	require.NoError(t, err)
	assert.Equal(t, gm.Graph.String(), gm2.Graph.String())
	got, err = gm2.Run(x)
	require.NoError(t, err)
	sameValue(t, want, got)
}

// outer nests a GraphModule inside an ordinary module.
type outer struct {
	nn.Base
	Inner *fx.GraphModule
}

func (o *outer) Forward(x nn.Value) nn.Value { return o.Inner.Call(x.Mul(2)).Index(0) }

func TestGraphModuleNested(t *testing.T) {
	gm, err := fx.SymbolicTrace(newMyModule())
	require.NoError(t, err)
	o := &outer{}
	o.Inner = nn.RegisterModule(&o.Base, "inner", gm)
	x := input(t, 5, 4)
	want, err := nn.Run(o, x)
	require.NoError(t, err)
	// A GraphModule is not a standard leaf: tracing goes through it.
	og, err := fx.SymbolicTrace(o)
	require.NoError(t, err)
	require.NoError(t, og.Lint())
	s := og.Graph.String()
	assert.Contains(t, s, "call_module[target=inner.linear]")
	assert.Contains(t, s, "get_attr[target=inner.linear.weight]")
	got, err := og.Run(x)
	require.NoError(t, err)
	sameValue(t, want, got)
}

func TestTraceConstantsAndConcreteArgs(t *testing.T) {
	c := tensor.Must(tensor.FromSlice([]float32{1, 2, 3}, 3))
	gm, err := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value { return x.Add(nn.Tensor(c)) })
	require.NoError(t, err)
	assert.Contains(t, gm.Graph.String(), "get_attr[target=_tensor_constant0]")
	require.NoError(t, gm.Lint())
	got, err := gm.Run(nn.Tensor(tensor.Must(tensor.FromSlice([]float32{1, 1, 1}, 3))))
	require.NoError(t, err)
	assert.Equal(t, []float64{2, 3, 4}, got.Tensor().Float64s())
	assert.Empty(t, nn.StateDict(gm).Names(), "constants are not state")

	m := &scaled{}
	tr := fx.Tracer{ConcreteArgs: map[string]nn.Value{"double": nn.Of(true)}}
	gm, err = tr.Trace(m)
	require.NoError(t, err)
	assert.Equal(t, []string{"x"}, gm.ArgNames())
	assert.Contains(t, gm.Graph.String(), "aten.mul.Tensor")
	_, err = fx.SymbolicTrace(m)
	var te *fx.TraceError
	require.ErrorAs(t, err, &te)

	_, err = (&fx.Tracer{ConcreteArgs: map[string]nn.Value{"nope": nn.Of(1)}}).Trace(m)
	assert.ErrorContains(t, err, `concrete argument "nope" is not an input`)
}

type scaled struct{ nn.Base }

func (s *scaled) ArgNames() []string { return []string{"x", "double"} }

func (s *scaled) Forward(x, double nn.Value) nn.Value {
	if double.Bool() {
		return x.Mul(2)
	}
	return x
}

func TestLintAndDCE(t *testing.T) {
	m := newMyModule()
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	lin, _ := gm.Graph.Node("linear")
	require.NoError(t, lin.SetTarget(node.Path("nolinear")))
	assert.ErrorContains(t, gm.Lint(), `node linear: call_module target "nolinear" does not resolve`)

	mut := &mutating{}
	mut.Buf = mut.RegisterBuffer("buf", tensor.Scalar[float32](0), true)
	gm, err = fx.SymbolicTrace(mut)
	require.NoError(t, err)
	assert.False(t, gm.EliminateDeadCode(), "add_ on a buffer is impure")
	assert.Contains(t, gm.Graph.String(), "call_method[target=add_]")
	_, err = gm.Run(input(t, 2))
	require.NoError(t, err)
	assert.Equal(t, []float64{1}, mut.Buf.Tensor().Float64s())
}

type mutating struct {
	nn.Base
	Buf *nn.Buffer
}

func (m *mutating) Forward(x nn.Value) nn.Value {
	m.Buf.Value().Add_(1.0)
	return x.Relu()
}
