package export_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

// convState is a 3×3 convolution by the parameter weight; with scale, the
// forward first multiplies the buffer scale by 2 in place (a buffer the
// program mutates) and scales the result by it.
type convState struct {
	nn.Base
	W     *nn.Parameter
	S     *nn.Buffer
	scale bool
}

func (m *convState) Forward(x nn.Value) nn.Value {
	y := F.Conv2d(x, m.W.Value(), nn.None, F.ConvOptions{Padding: []int{1}})
	if m.scale {
		s := nn.CallOp(nn.Op("aten::mul_.Scalar"), m.S.Value(), 2.0)
		y = nn.CallOp(nn.Op("aten::mul.Tensor"), y, s)
	}
	return y
}

func newConvState(t *testing.T, seed uint64, scale bool) *convState {
	w, err := tensor.NewGenerator(seed).Randn(tensor.Float32, 8, 4, 3, 3)
	require.NoError(t, err)
	m := &convState{scale: scale}
	m.Init(m, "M")
	m.W = m.RegisterParameter("weight", w)
	one, err := tensor.Ones(tensor.Float32, 1)
	require.NoError(t, err)
	m.S = m.RegisterBuffer("scale", one, true)
	return m
}

// convWant is the convolution of x by w (scaled by s) computed eagerly
// by a fresh module on copies, whose weights nothing marks.
func convWant(t *testing.T, x, w *tensor.Tensor, s float64) *tensor.Tensor {
	t.Helper()
	out, err := nn.Run(nn.Eval(func() *convState {
		m := newConvState(t, 0, false)
		m.W.Set(w.Clone())
		return m
	}()), nn.Tensor(x))
	require.NoError(t, err)
	got := out.MustTensor()
	if s != 1 {
		got = nn.CallOp(nn.Op("aten::mul.Scalar"), got, s).MustTensor()
	}
	return got
}

func requireOut(t *testing.T, want *tensor.Tensor, got nn.Value, msg string) {
	t.Helper()
	require.True(t, tensor.AllClose(got.MustTensor(), want, 1e-5, 1e-5, false), msg)
}

// TestConstantWeightsFollowState: a program's read-only weight is marked
// constant on its first run (a convolution packs it once), its results
// equal the eager module's, and they follow every change of the weight:
// nn.LoadState, an in-place operator on the state tensor, and a CopyFrom
// announced with kernels.Changed; and a GraphModule run by the
// interpreter, whose get_attr weight is marked the same way.
func TestConstantWeightsFollowState(t *testing.T) {
	x, err := tensor.NewGenerator(1).Randn(tensor.Float32, 1, 4, 9, 7)
	require.NoError(t, err)
	m := newConvState(t, 2, false)
	ep, err := export.Export(m, []any{x}, nil)
	require.NoError(t, err)
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	w := m.W.Tensor()
	run := map[string]func() (nn.Value, error){
		"exported": func() (nn.Value, error) { return ep.Run(x) },
		"traced":   func() (nn.Value, error) { return gm.Run(nn.Tensor(x)) },
	}
	check := func(msg string) {
		t.Helper()
		want := convWant(t, x, w, 1)
		for name, f := range run {
			for i := range 2 {
				got, err := f()
				require.NoError(t, err)
				requireOut(t, want, got, name+" "+msg)
				require.True(t, kernels.Marked(w), "%s %s run %d: the weight is marked", name, msg, i)
			}
		}
	}
	check("first runs")

	sd := torchio.NewStateDict()
	w2, err := tensor.NewGenerator(3).Randn(tensor.Float32, 8, 4, 3, 3)
	require.NoError(t, err)
	sd.Set("weight", w2)
	one, err := tensor.Ones(tensor.Float32, 1)
	require.NoError(t, err)
	sd.Set("scale", one)
	_, err = nn.LoadState(m, sd, nn.LoadOptions{})
	require.NoError(t, err)
	check("after nn.LoadState")

	nn.CallOp(nn.Op("aten::mul_.Scalar"), w, -0.5)
	check("after an in-place mul_")

	w3, err := tensor.NewGenerator(4).Randn(tensor.Float32, 8, 4, 3, 3)
	require.NoError(t, err)
	require.NoError(t, w.CopyFrom(w3))
	kernels.Changed(w)
	check("after CopyFrom and Changed")

	// Two goroutines running the same program at once.
	want := convWant(t, x, w, 1)
	var wg sync.WaitGroup
	outs := make([]nn.Value, 4)
	errs := make([]error, 4)
	for i := range outs {
		wg.Go(func() { outs[i], errs[i] = ep.Run(x) })
	}
	wg.Wait()
	for i := range outs {
		require.NoError(t, errs[i])
		requireOut(t, want, outs[i], "concurrent run")
	}
}

// TestMutatedBufferNotConstant: a buffer the program mutates (a buffer
// mutation of its signature, mul_ in the traced graph) is never marked,
// and every run sees its new value.
func TestMutatedBufferNotConstant(t *testing.T) {
	x, err := tensor.NewGenerator(1).Randn(tensor.Float32, 1, 4, 9, 7)
	require.NoError(t, err)
	m := newConvState(t, 2, true)
	ep, err := export.Export(m, []any{x}, nil)
	require.NoError(t, err)
	for i, s := range []float64{2, 4, 8} {
		got, err := ep.Run(x)
		require.NoError(t, err)
		requireOut(t, convWant(t, x, m.W.Tensor(), s), got, "exported run")
		require.False(t, kernels.Marked(m.S.Tensor()), "run %d: the mutated buffer is marked", i)
		require.True(t, kernels.Marked(m.W.Tensor()), "run %d: the read-only weight is not marked", i)
	}
	gm, err := fx.SymbolicTrace(newConvState(t, 2, true))
	require.NoError(t, err)
	for i, scale := range []float64{2, 4, 8} {
		got, err := gm.Run(nn.Tensor(x))
		require.NoError(t, err)
		requireOut(t, convWant(t, x, m.W.Tensor(), scale), got, "traced run")
		sv, err := nn.AttrValue(gm, "scale")
		require.NoError(t, err)
		wv, err := nn.AttrValue(gm, "weight")
		require.NoError(t, err)
		require.False(t, kernels.Marked(sv.MustTensor()), "traced run %d: the mutated buffer is marked", i)
		require.True(t, kernels.Marked(wv.MustTensor()), "traced run %d: the read-only weight is not marked", i)
	}
}

// TestConstantMarksFollowGraphChanges: which state inputs Run marks is
// computed once and kept while the graph stays as it is; a pass that
// changes the graph after a run is noticed (graph.Graph.Version): when an
// in-place mul_ of the weight is inserted the next run withdraws the
// weight's mark, and when it is erased again the next run marks the
// weight again. Every run's result equals the eager module's.
func TestConstantMarksFollowGraphChanges(t *testing.T) {
	x, err := tensor.NewGenerator(1).Randn(tensor.Float32, 1, 4, 9, 7)
	require.NoError(t, err)
	m := newConvState(t, 2, false)
	ep, err := export.Export(m, []any{x}, nil)
	require.NoError(t, err)
	w := m.W.Tensor()
	runs := func(msg string, marked bool) {
		t.Helper()
		for i := range 2 {
			got, err := ep.Run(x)
			require.NoError(t, err)
			requireOut(t, convWant(t, x, w, 1), got, msg)
			require.Equal(t, marked, kernels.Marked(w), "%s, run %d: whether the weight is marked", msg, i)
		}
	}
	runs("the exported program", true)

	var ph *node.Node
	for _, s := range ep.Signature.Inputs {
		if s.Kind == export.Parameter && s.Target == "weight" {
			ph, _ = ep.Graph.Node(s.Name)
		}
	}
	require.NotNil(t, ph, "the weight's placeholder")
	restore := ep.Graph.InsertingBefore(ep.Graph.OutputNode())
	mul, err := ep.Graph.CallFunction(nn.Op("aten::mul_.Scalar"), []node.Arg{ph, node.Float(1)}, nil)
	restore()
	require.NoError(t, err)
	runs("after inserting a mul_ of the weight", false)

	require.NoError(t, ep.Graph.EraseNode(mul))
	runs("after erasing the mul_", true)
}
