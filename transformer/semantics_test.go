package transformer_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/transformer"
)

// funcSteps overrides CallFunction with a Go function of the node's
// target, for tests.
type funcSteps struct {
	*transformer.Transformer
	call func(t *transformer.Transformer, n *node.Node, fn node.Function, args []nn.Value) (nn.Value, error)
}

func (s *funcSteps) CallFunction(n *node.Node, fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if s.call != nil {
		if v, err := s.call(s.Transformer, n, fn, args); err != nil || !v.IsNone() {
			return v, err
		}
	}
	return s.Transformer.CallFunction(n, fn, args, kwargs)
}

func transformWith(gm *fx.GraphModule, call func(t *transformer.Transformer, n *node.Node, fn node.Function, args []nn.Value) (nn.Value, error)) (*fx.GraphModule, error) {
	s := &funcSteps{Transformer: transformer.New(gm), call: call}
	s.Steps = s
	return s.Transform()
}

// TestConstants: the source's constants stay get_attr of the same names
// (buffers of the new GraphModule); a tensor an override uses becomes a
// new constant numbered past them; a parameter's tensor is read with
// get_attr of its name.
func TestConstants(t *testing.T) {
	c := tensorOf(t, []float64{10, 20, 30}, 3)
	gm, err := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value { return F.ReLU(x.Add(nn.Tensor(c))) })
	require.NoError(t, err)
	require.Len(t, gm.Graph.FindNodes(node.GetAttr, node.Path("_tensor_constant0")), 1)

	same, err := transformer.New(gm).Transform()
	require.NoError(t, err)
	require.NoError(t, graph.Equal(gm.Graph, same.Graph))
	b, err := nn.Attr(same, "_tensor_constant0")
	require.NoError(t, err)
	assert.Same(t, c, b.(*nn.Buffer).Tensor())
	assert.False(t, b.(*nn.Buffer).Persistent())

	k := tensorOf(t, []float64{2, 3, 4}, 3)
	got, err := transformWith(gm, func(_ *transformer.Transformer, n *node.Node, fn node.Function, args []nn.Value) (nn.Value, error) {
		if fn == aten.Relu {
			return args[0].Mul(nn.Tensor(k)).Relu(), nil
		}
		return nn.None, nil
	})
	require.NoError(t, err)
	require.NoError(t, got.Lint())
	k2, err := nn.Attr(got, "_tensor_constant1")
	require.NoError(t, err)
	assert.Same(t, k, k2.(*nn.Buffer).Tensor())
	_, err = nn.Attr(gm, "_tensor_constant1")
	assert.Error(t, err, "the source GraphModule is unchanged")

	x := tensorOf(t, []float64{-11, 1, -100}, 3)
	out, err := got.Run(nn.Tensor(x))
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 63, 0}, floats(t, out)) // relu((x + c) * k)
}

// TestParameterInOverride: an override that calls model code reading a
// parameter's tensor records get_attr of the parameter, not a constant.
func TestParameterInOverride(t *testing.T) {
	m, err := models.New("mlp")
	require.NoError(t, err)
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	s := &linearAsFunction{Transformer: transformer.New(gm)}
	s.Steps = s
	got, err := s.Transform()
	require.NoError(t, err)
	require.NoError(t, got.Lint())
	for _, path := range []string{"0.weight", "0.bias", "2.weight", "2.bias"} {
		assert.Len(t, got.Graph.FindNodes(node.GetAttr, node.Path(path)), 1, path)
	}
	assert.Len(t, got.Graph.FindNodes(node.CallFunction, aten.Linear), 2)
	for n := range got.Graph.Nodes() {
		assert.NotContains(t, n.Target().String(), "_tensor_constant")
	}
	nn.ManualSeed(3)
	x, err := nn.Normal(4, 16)
	require.NoError(t, err)
	want, err := gm.Run(nn.Tensor(x))
	require.NoError(t, err)
	have, err := got.Run(nn.Tensor(x))
	require.NoError(t, err)
	assert.True(t, tensor.AllClose(have.Tensor(), want.Tensor(), 1e-6, 1e-6, false))
}

// linearAsFunction replaces call_module of every nn.Linear by F.Linear on
// the module's weight and bias.
type linearAsFunction struct{ *transformer.Transformer }

func (s *linearAsFunction) CallModule(n *node.Node, path string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	m, err := nn.Submodule(s.Root(), path)
	if err != nil {
		return nn.None, err
	}
	if l, ok := m.(*nn.Linear); ok {
		return F.Linear(args[0], l.Weight.Value(), l.Bias.Value()), nil
	}
	return s.Transformer.CallModule(n, path, args, kwargs)
}

// TestTuples: operators with several results give lazy tuples; getitem
// nodes of the source are re-recorded, and an override that returns
// another tuple is indexed in Go.
func TestTuples(t *testing.T) {
	gm, err := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value {
		vi := F.TopK(x, 2, -1, true, true)
		return nn.Tuple(vi.Index(0).Add(1), vi.Index(1))
	})
	require.NoError(t, err)
	require.Len(t, gm.Graph.FindNodes(node.CallFunction, nn.GetItem), 2)
	same, err := transformer.New(gm).Transform()
	require.NoError(t, err)
	require.NoError(t, graph.Equal(gm.Graph, same.Graph))

	// Swap the results of topk: the graph returns (indices + 1, values).
	got, err := transformWith(gm, func(tr *transformer.Transformer, n *node.Node, fn node.Function, args []nn.Value) (nn.Value, error) {
		if fn != aten.Topk {
			return nn.None, nil
		}
		vi, err := tr.CallFunction(n, fn, args, nil)
		if err != nil {
			return nn.None, err
		}
		if vi.Len() != 2 {
			return nn.None, fmt.Errorf("topk gave %d values", vi.Len())
		}
		return nn.Tuple(vi.Index(1), vi.Index(0)), nil
	})
	require.NoError(t, err)
	require.NoError(t, got.Lint())
	x := tensorOf(t, []float64{0.5, 3, -1, 2}, 4)
	out, err := got.Run(nn.Tensor(x))
	require.NoError(t, err)
	require.Equal(t, 2, out.Len())
	assert.Equal(t, []float64{2, 4}, floats(t, out.Index(0))) // indices [1, 3] + 1
	assert.Equal(t, tensor.Int64, out.Index(0).Tensor().DType())
	assert.Equal(t, []float64{3, 2}, floats(t, out.Index(1)))

	// The whole tuple output of the documentation's module survives.
	m, err := models.New("fx_doc_mymodule")
	require.NoError(t, err)
	gm2, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	same2, err := transformer.New(gm2).Transform()
	require.NoError(t, err)
	require.NoError(t, graph.Equal(gm2.Graph, same2.Graph))
}

// TestArgumentForms: lists, tuples, devices, dtypes, keyword arguments and
// placeholder defaults are written back as the source has them.
func TestArgumentForms(t *testing.T) {
	text := `%x = placeholder "x"()
%k = placeholder "k"(2)
%sum_1 = call_function aten.sum.dim_IntList(%x, [1], True, dtype=torch.float64)
%view = call_method "view"(%sum_1, [-1])
%ones = call_function aten.full.default([3], 1, layout=torch.strided, device=device("cpu"))
%add = call_function aten.add.Tensor(%view, %ones)
%topk = call_function aten.topk.default(%add, %k)
%getitem = call_function operator.getitem(%topk, 0)
%output = output "output"((%getitem, [%add, 1.5], None, "s"))
`
	g, err := graph.Parse(text)
	require.NoError(t, err)
	gm, err := fx.NewGraphModule(nil, g)
	require.NoError(t, err)
	got, err := transformer.New(gm).Transform()
	require.NoError(t, err)
	assert.Equal(t, text, got.Graph.Text())
	x := tensorOf(t, []float64{1, 2, 3, 4, 5, 6}, 3, 2)
	out, err := got.Run(nn.Tensor(x))
	require.NoError(t, err)
	assert.Equal(t, []float64{12, 8}, floats(t, out.Index(0))) // x.sum(1) + 1, sorted
	assert.Equal(t, tensor.Float64, out.Index(0).Tensor().DType())
}

// TestOutputOverride: the Output step's value is what the new graph
// returns.
func TestOutputOverride(t *testing.T) {
	gm, err := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value { return x.Neg() })
	require.NoError(t, err)
	s := &negOutput{Transformer: transformer.New(gm)}
	s.Steps = s
	got, err := s.Transform()
	require.NoError(t, err)
	out, err := got.Run(nn.Tensor(tensorOf(t, []float64{1, -2}, 2)))
	require.NoError(t, err)
	assert.Equal(t, []float64{1, -2}, floats(t, out))
	on := got.Graph.OutputNode()
	require.NotNil(t, on)
	assert.Equal(t, "output", on.Name())
}

type negOutput struct{ *transformer.Transformer }

func (s *negOutput) Output(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	v, err := s.Transformer.Output(n, target, args, kwargs)
	return v.Neg(), err
}

// TestErrors: a failing override, a panic, control flow on a proxy and an
// unrecordable output stop Transform with a *interp.NodeError naming the
// source node; nothing panics.
func TestErrors(t *testing.T) {
	gm, err := fx.SymbolicTrace(newTwoRelus())
	require.NoError(t, err)
	relu := gm.Graph.FindNodes(node.CallFunction, aten.Relu)[0]
	boom := errors.New("boom")
	cases := []struct {
		name   string
		call   func(t *transformer.Transformer, n *node.Node, fn node.Function, args []nn.Value) (nn.Value, error)
		target error // errors.Is / As target, nil for none
		msg    string
	}{
		{"error", func(_ *transformer.Transformer, _ *node.Node, fn node.Function, _ []nn.Value) (nn.Value, error) {
			if fn == aten.Relu {
				return nn.None, boom
			}
			return nn.None, nil
		}, boom, "boom"},
		{"panic", func(_ *transformer.Transformer, _ *node.Node, fn node.Function, _ []nn.Value) (nn.Value, error) {
			if fn == aten.Relu {
				panic("kaboom")
			}
			return nn.None, nil
		}, nil, "kaboom"},
		{"control flow on a proxy", func(_ *transformer.Transformer, _ *node.Node, fn node.Function, args []nn.Value) (nn.Value, error) {
			if fn == aten.Relu && args[0].Sum().Gt(0).Bool() {
				return args[0], nil
			}
			return nn.None, nil
		}, nil, "control flow on tensor data"},
		{"bad value", func(_ *transformer.Transformer, _ *node.Node, fn node.Function, args []nn.Value) (nn.Value, error) {
			if fn == aten.Relu {
				return args[0].Add(nn.Of(struct{}{})), nil
			}
			return nn.None, nil
		}, nil, "cannot make a Value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got *fx.GraphModule
			var err error
			require.NotPanics(t, func() { got, err = transformWith(gm, c.call) })
			require.Error(t, err)
			assert.Nil(t, got)
			var ne *interp.NodeError
			require.ErrorAs(t, err, &ne)
			assert.Same(t, relu, ne.Node)
			assert.Contains(t, err.Error(), "%"+relu.Name())
			assert.Contains(t, err.Error(), c.msg)
			if c.target != nil {
				assert.ErrorIs(t, err, c.target)
			}
		})
	}

	t.Run("output of another recorder", func(t *testing.T) {
		other := fx.NewRecorder(nil)
		n, err := other.Create(node.Placeholder, node.Path("z"), nil, nil, "")
		require.NoError(t, err)
		s := &foreignOutput{Transformer: transformer.New(gm), v: other.Proxy(n)}
		s.Steps = s
		_, err = s.Transform()
		var ne *interp.NodeError
		require.ErrorAs(t, err, &ne)
		assert.Equal(t, node.Output, ne.Node.Op())
		assert.Contains(t, err.Error(), "another trace")
	})

	t.Run("nil module", func(t *testing.T) {
		_, err := transformer.New(nil).Transform()
		require.Error(t, err)
		assert.Contains(t, err.Error(), "nil GraphModule")
	})
}

type foreignOutput struct {
	*transformer.Transformer
	v nn.Value
}

func (s *foreignOutput) Output(*node.Node, string, []nn.Value, map[string]nn.Value) (nn.Value, error) {
	return s.v, nil
}

// TestReuse: a Transformer can transform again, and holds no state
// between transforms.
func TestReuse(t *testing.T) {
	m, err := models.New("convnet")
	require.NoError(t, err)
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	tr := transformer.New(gm)
	a, err := tr.Transform()
	require.NoError(t, err)
	b, err := tr.Transform()
	require.NoError(t, err)
	require.NoError(t, graph.Equal(a.Graph, b.Graph))
	assert.Nil(t, tr.Recorder())
	assert.Nil(t, tr.Current())
	assert.Same(t, gm, tr.Module())
	// Transforming the result again is the identity too.
	c, err := transformer.New(a).Transform()
	require.NoError(t, err)
	require.NoError(t, graph.Equal(gm.Graph, c.Graph))
	assert.True(t, strings.HasPrefix(c.Graph.Text(), "%x = placeholder"))
}
