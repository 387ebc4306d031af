package transformer_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	_ "github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/gofx/gofx/transformer"
)

// modelFiles returns the paths of a zoo model's state dict and io.json
// (PyTorch 1.13's weights and outputs): the copies in ../testdata/models,
// or ../../shared/models for resnet18.
func modelFiles(t *testing.T, name string) (weights, io string) {
	t.Helper()
	dir := "../testdata/models"
	if name == "resnet18" {
		dir = "../../shared/models" // the shared zoo beside the repository
		if _, err := os.Stat(dir); err != nil {
			dir = "../../../shared/models" // beside a worktree's parent
		}
	}
	weights, io = filepath.Join(dir, name+".state_dict.pt"), filepath.Join(dir, name+".io.json")
	if _, err := os.Stat(io); err != nil {
		t.Skipf("reference files of %s not found: %v", name, err)
	}
	return weights, io
}

// trace returns the zoo model name, with PyTorch's weights, traced.
func traceZoo(t *testing.T, name string, weights string) *fx.GraphModule {
	t.Helper()
	spec, err := models.Lookup(name)
	require.NoError(t, err)
	sd, err := torchio.Load(weights)
	require.NoError(t, err)
	m, err := models.Fresh(spec, sd)
	require.NoError(t, err)
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	return gm
}

// maxDiff is the largest absolute difference between the tensors of the
// flattened outputs got and want (an error if their structure differs).
func maxDiff(got nn.Value, want []nn.Value) (float64, error) {
	flat := models.Flatten(got)
	if len(flat) != len(want) {
		return 0, fmt.Errorf("%d outputs, want %d", len(flat), len(want))
	}
	worst := 0.0
	for i := range flat {
		g, w := flat[i].Tensor(), want[i].Tensor()
		if g == nil || w == nil {
			return 0, fmt.Errorf("output %d: %s, want %s", i, flat[i].Kind(), want[i].Kind())
		}
		d, err := absDiff(g, w)
		if err != nil {
			return 0, fmt.Errorf("output %d: %w", i, err)
		}
		worst = max(worst, d)
	}
	return worst, nil
}

func absDiff(a, b *tensor.Tensor) (float64, error) {
	if !slicesEqual(a.Shape(), b.Shape()) {
		return 0, fmt.Errorf("shape %v, want %v", a.Shape(), b.Shape())
	}
	x, y := a.Float64s(), b.Float64s()
	worst := 0.0
	for i := range x {
		d := x[i] - y[i]
		if d < 0 {
			d = -d
		}
		if d != d { // NaN
			return 0, fmt.Errorf("element %d: %v vs %v", i, x[i], y[i])
		}
		worst = max(worst, d)
	}
	return worst, nil
}

func slicesEqual(a, b []int) bool { return cmp.Equal(a, b) }

// TestIdentity: a Transformer without overrides returns the source graph
// (same text, same names, same metadata) over the same module tree, and
// the new GraphModule computes PyTorch's outputs on every io.json case.
func TestIdentity(t *testing.T) {
	for _, name := range models.Names() {
		t.Run(name, func(t *testing.T) {
			weights, ioPath := modelFiles(t, name)
			gm := traceZoo(t, name, weights)
			got, err := transformer.New(gm).Transform()
			require.NoError(t, err)
			require.NoError(t, graph.Equal(gm.Graph, got.Graph))
			assert.Equal(t, gm.Graph.Text(), got.Graph.Text())
			require.NoError(t, got.Lint())
			assert.Equal(t, nn.StateDict(gm).Names(), nn.StateDict(got).Names())
			for path, m := range nn.NamedModules(gm) {
				if path == "" {
					continue
				}
				m2, err := nn.Submodule(got, path)
				require.NoError(t, err)
				assert.Same(t, m, m2, "submodule %s is shared", path)
			}
			if name == "resnet18" && testing.Short() {
				return
			}
			io, err := models.ReadIO(ioPath)
			require.NoError(t, err)
			spec, _ := models.Lookup(name)
			for i, c := range io.Cases {
				// A fresh model per case: export_doc_mutation updates a buffer.
				got, err := transformer.New(traceZoo(t, name, weights)).Transform()
				require.NoError(t, err)
				out, err := got.Run(c.Inputs...)
				require.NoError(t, err, "case %d", i)
				d, err := maxDiff(out, c.Outputs)
				require.NoError(t, err, "case %d", i)
				assert.LessOrEqual(t, d, spec.Tol, "case %d", i)
			}
		})
	}
}

// addToMul is torch.fx's documentation example: every aten add.Tensor
// becomes mul.Tensor.
type addToMul struct{ *transformer.Transformer }

func (s addToMul) CallFunction(n *node.Node, fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if fn == aten.AddTensor {
		fn = aten.MulTensor
	}
	return s.Transformer.CallFunction(n, fn, args, kwargs)
}

func newAddToMul(gm *fx.GraphModule) addToMul {
	s := addToMul{transformer.New(gm)}
	s.Steps = s
	return s
}

func tensorOf(t *testing.T, vals []float64, shape ...int) *tensor.Tensor {
	t.Helper()
	x, err := tensor.FromFloat64s(tensor.Float32, vals, shape...)
	require.NoError(t, err)
	return x
}

func TestAddToMul(t *testing.T) {
	gm, err := fx.SymbolicTraceFunc(func(x, y nn.Value) nn.Value {
		return x.Add(y).Add(x).Relu()
	}, "x", "y")
	require.NoError(t, err)
	got, err := newAddToMul(gm).Transform()
	require.NoError(t, err)
	require.NoError(t, got.Lint())
	assert.Empty(t, got.Graph.FindNodes(node.CallFunction, aten.AddTensor))
	muls := got.Graph.FindNodes(node.CallFunction, aten.MulTensor)
	require.Len(t, muls, 2)
	// Named after the new target; metadata copied from the add nodes.
	assert.Equal(t, []string{"mul", "mul_1"}, []string{muls[0].Name(), muls[1].Name()})
	adds := gm.Graph.FindNodes(node.CallFunction, aten.AddTensor)
	for i := range adds {
		st, _ := node.StackTrace.Get(&adds[i].Meta)
		st2, _ := node.StackTrace.Get(&muls[i].Meta)
		assert.NotEmpty(t, st)
		assert.Equal(t, st, st2)
	}
	// The relu method call and the placeholders are unchanged.
	assert.Equal(t, []string{"x", "y"}, got.ArgNames())
	assert.Len(t, got.Graph.FindNodes(node.CallMethod, node.Path("relu")), 1)

	x := tensorOf(t, []float64{1, -2, 3, 0.5}, 4)
	y := tensorOf(t, []float64{4, 5, -6, 2}, 4)
	before, err := gm.Run(nn.Tensor(x), nn.Tensor(y))
	require.NoError(t, err)
	after, err := got.Run(nn.Tensor(x), nn.Tensor(y))
	require.NoError(t, err)
	// relu((x + y) + x) and relu((x * y) * x), by hand.
	assert.Equal(t, []float64{6, 1, 0, 3}, floats(t, before))
	assert.Equal(t, []float64{4, 20, 0, 0.5}, floats(t, after))
}

func floats(t *testing.T, v nn.Value) []float64 {
	t.Helper()
	require.True(t, v.IsTensor(), "%s", v.Kind())
	return v.Tensor().Float64s()
}

// reluDecomposition is torch.fx's relu_decomposition: (x > 0) * x, as Go
// code over values.
func reluDecomposition(x nn.Value) nn.Value { return x.Gt(0).Mul(x) }

// decomposeRelu applies reluDecomposition to every relu: call_function
// aten relu, call_method relu and call_module of an nn.ReLU.
type decomposeRelu struct{ *transformer.Transformer }

func (s decomposeRelu) CallFunction(n *node.Node, fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if fn == aten.Relu && len(args) == 1 {
		return reluDecomposition(args[0]), nil
	}
	return s.Transformer.CallFunction(n, fn, args, kwargs)
}

func (s decomposeRelu) CallMethod(n *node.Node, name string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if name == "relu" && len(args) == 1 {
		return reluDecomposition(args[0]), nil
	}
	return s.Transformer.CallMethod(n, name, args, kwargs)
}

func (s decomposeRelu) CallModule(n *node.Node, path string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	m, err := nn.Submodule(s.Root(), path)
	if err != nil {
		return nn.None, err
	}
	if _, ok := m.(*nn.ReLU); ok && len(args) == 1 {
		return reluDecomposition(args[0]), nil
	}
	return s.Transformer.CallModule(n, path, args, kwargs)
}

func decompose(gm *fx.GraphModule) (*fx.GraphModule, error) {
	s := decomposeRelu{transformer.New(gm)}
	s.Steps = s
	return s.Transform()
}

// reluFree reports the relu nodes left in g.
func reluNodes(g *graph.Graph, root nn.Module) []string {
	var left []string
	for n := range g.Nodes() {
		switch n.Op() {
		case node.CallFunction:
			if n.Function() == aten.Relu {
				left = append(left, n.Name())
			}
		case node.CallMethod:
			if n.Target().String() == "relu" {
				left = append(left, n.Name())
			}
		case node.CallModule:
			if m, err := nn.Submodule(root, n.Target().String()); err == nil {
				if _, ok := m.(*nn.ReLU); ok {
					left = append(left, n.Name())
				}
			}
		}
	}
	return left
}

// twoRelus uses relu as a function and as a method, inside a submodule
// (for nn_module_stack).
type twoRelus struct {
	nn.Base
	Inner *innerRelu
}

type innerRelu struct{ nn.Base }

func (m *innerRelu) Forward(x nn.Value) nn.Value { return F.ReLU(x).Sub(0.25) }

func (m *twoRelus) Forward(x nn.Value) nn.Value { return m.Inner.Call(x).Relu() }

func (m *innerRelu) Call(x nn.Value) nn.Value { return nn.Call(m, x) }

func newTwoRelus() *twoRelus {
	m := &twoRelus{}
	m.Init(m, "TwoRelus")
	in := &innerRelu{}
	in.Init(in, "InnerRelu")
	m.Inner = nn.RegisterModule(&m.Base, "inner", in)
	return m
}

func TestReluDecomposition(t *testing.T) {
	mlp, err := models.New("mlp")
	require.NoError(t, err)
	cases := []struct {
		name  string
		m     nn.Module
		shape []int
	}{
		{"mlp (call_module nn.ReLU)", mlp, []int{5, 16}},
		{"call_function and call_method", newTwoRelus(), []int{3, 7}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gm, err := fx.SymbolicTrace(c.m)
			require.NoError(t, err)
			require.NotEmpty(t, reluNodes(gm.Graph, gm))
			got, err := decompose(gm)
			require.NoError(t, err)
			require.NoError(t, got.Lint())
			assert.Empty(t, reluNodes(got.Graph, got))
			assert.Len(t, got.Graph.FindNodes(node.CallFunction, aten.GtScalar), len(reluNodes(gm.Graph, gm)))

			nn.ManualSeed(7)
			for range 3 {
				x, err := nn.Normal(c.shape...)
				require.NoError(t, err)
				want, err := gm.Run(nn.Tensor(x))
				require.NoError(t, err)
				have, err := got.Run(nn.Tensor(x))
				require.NoError(t, err)
				assert.True(t, tensor.AllClose(have.Tensor(), want.Tensor(), 0, 0, false),
					"decomposed %v\noriginal %v", have, want)
			}
		})
	}
}

// TestDecompositionMetadata: the nodes an override records get the source
// node's stack_trace and nn_module_stack, not its val; an override can set
// its own.
func TestDecompositionMetadata(t *testing.T) {
	gm, err := fx.SymbolicTrace(newTwoRelus())
	require.NoError(t, err)
	relu := gm.Graph.FindNodes(node.CallFunction, aten.Relu)
	require.Len(t, relu, 1)
	st, ok := node.StackTrace.Get(&relu[0].Meta)
	require.True(t, ok)
	ms, ok := node.ModuleStack.Get(&relu[0].Meta)
	require.True(t, ok)
	require.Equal(t, "inner", ms[0].Path)
	node.Val.Set(&relu[0].Meta, node.TensorMeta{DType: "torch.float32", Shape: node.Dims(3, 7)})
	relu[0].Meta.Set("custom", "kept")

	got, err := decompose(gm)
	require.NoError(t, err)
	gt := got.Graph.FindNodes(node.CallFunction, aten.GtScalar)
	require.Len(t, gt, 2)
	for _, n := range []*node.Node{gt[0], gt[0].Users()[0]} {
		st2, _ := node.StackTrace.Get(&n.Meta)
		ms2, _ := node.ModuleStack.Get(&n.Meta)
		assert.Equal(t, st, st2, "%s", n.Name())
		assert.Equal(t, ms, ms2, "%s", n.Name())
		_, hasVal := node.Val.Get(&n.Meta)
		assert.False(t, hasVal, "%s", n.Name())
	}
	// The method relu was called outside the submodule.
	_, inMod := node.ModuleStack.Get(&gt[1].Meta)
	assert.False(t, inMod)

	// An override that sets its own metadata keeps it.
	s := &ownMeta{Transformer: transformer.New(gm)}
	s.Steps = s
	got, err = s.Transform()
	require.NoError(t, err)
	gt = got.Graph.FindNodes(node.CallFunction, aten.GtScalar)
	require.Len(t, gt, 1)
	st3, _ := node.StackTrace.Get(&gt[0].Meta)
	assert.Equal(t, "decomposed", st3)
	ms3, _ := node.ModuleStack.Get(&gt[0].Meta)
	assert.Equal(t, ms, ms3)
}

type ownMeta struct{ *transformer.Transformer }

func (s *ownMeta) CallFunction(n *node.Node, fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if fn != aten.Relu {
		return s.Transformer.CallFunction(n, fn, args, kwargs)
	}
	gt := args[0].Gt(0)
	p, ok := gt.Any().(*fx.Proxy)
	if !ok {
		return nn.None, errors.New("not a proxy")
	}
	node.StackTrace.Set(&p.Node().Meta, "decomposed")
	return gt.Mul(args[0]), nil
}

// TestMetadataCopied: default steps copy every metadata entry.
func TestMetadataCopied(t *testing.T) {
	gm, err := fx.SymbolicTrace(newTwoRelus())
	require.NoError(t, err)
	i := int64(0)
	for n := range gm.Graph.Nodes() {
		node.Val.Set(&n.Meta, node.TensorMeta{DType: "torch.float32", Shape: node.Dims(3, i)})
		n.Meta.Set("order", i)
		i++
	}
	got, err := transformer.New(gm).Transform()
	require.NoError(t, err)
	require.NoError(t, graph.Equal(gm.Graph, got.Graph))
	a, b := gm.Graph.NodeList(), got.Graph.NodeList()
	for i := range a {
		assert.Equal(t, a[i].Meta.Keys(), b[i].Meta.Keys(), "%s", a[i].Name())
		for _, k := range a[i].Meta.Keys() {
			x, _ := a[i].Meta.Get(k)
			y, _ := b[i].Meta.Get(k)
			assert.Equal(t, x, y, "%s %s", a[i].Name(), k)
		}
	}
}

// TestNames: placeholders keep their names; a node an override recorded
// first pushes the source's node of the same name to a suffix.
func TestNames(t *testing.T) {
	gm, err := fx.SymbolicTraceFunc(func(a, b nn.Value) nn.Value {
		return a.Mul(b).Add(b)
	}, "input_a", "b")
	require.NoError(t, err)
	s := &extraAdd{Transformer: transformer.New(gm)}
	s.Steps = s
	got, err := s.Transform()
	require.NoError(t, err)
	want := "%input_a = placeholder \"input_a\"()\n" +
		"%b = placeholder \"b\"()\n" +
		"%add = call_function aten.add.Tensor(%input_a, %b)\n" +
		"%mul = call_function aten.mul.Tensor(%add, %b)\n" +
		"%add_1 = call_function aten.add.Tensor(%mul, %b)\n" +
		"%output = output \"output\"(%add_1)\n"
	assert.Equal(t, want, stripMeta(got.Graph.Text()))
}

// extraAdd adds a to b before the mul: mul(a + b, b).
type extraAdd struct{ *transformer.Transformer }

func (s *extraAdd) CallFunction(n *node.Node, fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if fn == aten.MulTensor {
		args = []nn.Value{args[0].Add(args[1]), args[1]}
	}
	return s.Transformer.CallFunction(n, fn, args, kwargs)
}

// stripMeta removes the metadata braces of graph text.
func stripMeta(text string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		if i := strings.Index(line, ") {"); i >= 0 {
			line = line[:i+1] + "\n"
		}
		b.WriteString(line)
	}
	return b.String()
}
