package passes_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/passtest"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// batchNormOps counts the call_function nodes of batch-norm operators.
func batchNormOps(g *graph.Graph) int {
	k := 0
	for n := range g.Nodes() {
		if n.Op() == node.CallFunction && strings.Contains(n.Function().String(), "batch_norm") {
			k++
		}
	}
	return k
}

// exported exports a zoo model with PyTorch's weights and its example
// inputs.
func exported(t *testing.T, name string) (nn.Module, *torchio.StateDict, *models.IO, *export.ExportedProgram) {
	t.Helper()
	m, sd, io := loadModel(t, name)
	spec, err := models.Lookup(name)
	require.NoError(t, err)
	ep, err := models.Export(spec, m, io.Cases[0].Inputs)
	require.NoError(t, err)
	return m, sd, io, ep
}

func argsOf(vs []nn.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v.MustTensor()
	}
	return out
}

// TestFoldConvBN folds the batch norms of exported zoo models at the
// core-ATen level, on ep.Module(): no batch-norm operator is left, and the
// outputs match the eager model's (PyTorch's recorded outputs) and the
// program's before folding.
func TestFoldConvBN(t *testing.T) {
	for _, tc := range []struct {
		name   string
		folds  int
		noBias int // convolutions without bias, which get a new get_attr node
	}{{"convnet", 2, 0}, {"resnet18", 20, 20}} {
		t.Run(tc.name, func(t *testing.T) {
			m, sd, io, ep := exported(t, tc.name)
			require.Equal(t, tc.folds, batchNormOps(ep.Graph))
			gm, err := ep.Module()
			require.NoError(t, err)
			before := gm.Graph.Len()
			changed, err := passes.FoldConvBN.Apply(gm)
			require.NoError(t, err)
			require.True(t, changed)
			require.NoError(t, gm.Lint())
			assert.Zero(t, batchNormOps(gm.Graph), "batch-norm operators left:\n%s", gm.Code())
			// Each fold erases the batch norm, its getitem and the get_attr
			// nodes of gamma, beta, mean, var and num_batches_tracked.
			assert.Equal(t, before-7*tc.folds+tc.noBias, gm.Graph.Len())
			for name := range nn.NamedParameters(gm) {
				assert.NotContains(t, name, "bn", "parameter %s left", name)
			}
			for name := range nn.NamedBuffers(gm) {
				t.Errorf("buffer %s left", name)
			}
			worst, worstEP := 0.0, 0.0
			for _, c := range io.Cases {
				out, err := gm.Run(c.Inputs...)
				require.NoError(t, err)
				worst = max(worst, requireClose(t, out, c.Outputs, 1e-4, "folded vs eager, case "+c.Note))
				ref, err := ep.Run(argsOf(c.Inputs)...)
				require.NoError(t, err)
				worstEP = max(worstEP, requireClose(t, out, models.Flatten(ref), 1e-4, "folded vs ep.Run, case "+c.Note))
			}
			t.Logf("max |folded - eager| %g, |folded - ep.Run| %g over %d cases", worst, worstEP, len(io.Cases))
			requireUnchanged(t, m, sd)
			// The program's state is the model's, untouched.
			for name, x := range ep.StateDict() {
				want, ok := sd.Get(name)
				require.True(t, ok, name)
				assert.True(t, tensor.Equal(want, x), "program state %s changed", name)
			}
		})
	}
}

// TestFoldConvBNProgram folds at the level of the exported program: the
// folded weights are PARAMETER inputs of the signature, the batch norms'
// state is gone, and Run gives the same outputs. The program is edited,
// not re-exported: the user inputs, the nodes left (names and metadata)
// and the range constraints are ep's, and a dynamic batch still runs.
func TestFoldConvBNProgram(t *testing.T) {
	for _, tc := range []struct {
		name     string
		newNodes int // bias placeholders for convolutions without bias
	}{{"convnet", 0}, {"resnet18", 20}} {
		t.Run(tc.name, func(t *testing.T) {
			m, sd, io, ep := exported(t, tc.name)
			text := ep.String()
			out, changed, err := foldProgram(ep, passes.FoldConvBN)
			require.NoError(t, err)
			require.True(t, changed)
			assert.Zero(t, batchNormOps(out.Graph))
			assert.Equal(t, text, ep.String(), "ep changed")
			require.NoError(t, out.Graph.Lint())
			state := out.StateDict()
			for _, in := range out.Signature.Inputs {
				switch in.Kind {
				case export.Parameter, export.Buffer:
					assert.NotContains(t, in.Target, "bn", "state %s left", in.Target)
					_, ok := state[in.Target]
					assert.True(t, ok, "no state for %s", in.Target)
				}
			}
			assert.Empty(t, out.Constants())
			assert.Contains(t, out.String(), "p_conv1_weight: PARAMETER target='conv1.weight'")
			assert.Equal(t, ep.Signature.UserInputs(), out.Signature.UserInputs())
			assert.Equal(t, ep.RangeConstraints, out.RangeConstraints)
			assert.Equal(t, ep.EqualityConstraints, out.EqualityConstraints)
			requireEdited(t, ep, out, tc.newNodes)

			for _, c := range io.Cases {
				res, err := out.Run(argsOf(c.Inputs)...)
				require.NoError(t, err)
				requireClose(t, res, c.Outputs, 1e-4, "folded program vs eager, case "+c.Note)
			}
			if len(out.RangeConstraints) == 0 {
				t.Logf("%s: exported with a static batch; no run at another batch size", tc.name)
			} else {
				shape := io.Cases[0].Inputs[0].MustTensor().Shape()
				x, err := nn.Uniform(1, append([]int{3}, shape[1:]...)...)
				require.NoError(t, err)
				want, err := ep.Run(x.Clone())
				require.NoError(t, err)
				got, err := out.Run(x)
				require.NoError(t, err)
				requireClose(t, got, models.Flatten(want), 1e-4, "folded program vs ep at batch 3")
			}
			requireUnchanged(t, m, sd)
			for name, x := range ep.StateDict() {
				want, ok := sd.Get(name)
				require.True(t, ok, name)
				assert.True(t, tensor.Equal(want, x), "program state %s changed", name)
			}
			again, changed, err := foldProgram(out, passes.FoldConvBN)
			require.NoError(t, err)
			assert.False(t, changed)
			assert.Same(t, out, again)
		})
	}
}

// requireEdited checks that out is ep edited by a fold, not re-traced:
// every node of ep is in out under its name with its metadata, except the
// batch norms, their getitems and placeholders whose every user was a
// batch norm or a convolution (whose folded weights replace them); out's
// other nodes are newNodes PARAMETER placeholders with a val.
func requireEdited(t *testing.T, ep, out *export.ExportedProgram, newNodes int) {
	t.Helper()
	isBN := func(n *node.Node) bool {
		return n.Op() == node.CallFunction && strings.Contains(n.Function().String(), "batch_norm")
	}
	kept := 0
	for n := range ep.Graph.Nodes() {
		o, ok := out.Graph.Node(n.Name())
		switch {
		case isBN(n):
			assert.False(t, ok, "batch norm %s left", n.Name())
			continue
		case n.Op() == node.CallFunction && n.NumArgs() > 0 && isNodeArg(n.Arg(0), isBN):
			assert.False(t, ok, "getitem %s of a batch norm left", n.Name())
			continue
		case !ok && n.Op() == node.Placeholder:
			for _, u := range n.Users() {
				conv := u.Op() == node.CallFunction && u.Function().String() == "aten.convolution.default"
				assert.True(t, isBN(u) || conv, "placeholder %s dropped, but %s read it", n.Name(), u.Name())
			}
			continue
		}
		if !assert.True(t, ok, "node %s lost", n.Name()) {
			continue
		}
		kept++
		assert.Equal(t, n.Op(), o.Op(), n.Name())
		assert.Equal(t, n.Target(), o.Target(), n.Name())
		assert.Equal(t, n.Meta.Keys(), o.Meta.Keys(), "metadata of %s", n.Name())
		for _, k := range n.Meta.Keys() {
			want, _ := n.Meta.Get(k)
			got, _ := o.Meta.Get(k)
			assert.Equal(t, want, got, "metadata %s of %s", k, n.Name())
		}
	}
	assert.Equal(t, newNodes, out.Graph.Len()-kept, "new nodes")
	params := map[string]bool{}
	for _, in := range out.Signature.Inputs {
		if in.Kind == export.Parameter {
			params[in.Name] = true
		}
	}
	for n := range out.Graph.Nodes() {
		if _, ok := ep.Graph.Node(n.Name()); ok {
			continue
		}
		assert.Equal(t, node.Placeholder, n.Op(), "new node %s", n.Name())
		assert.True(t, params[n.Name()], "new node %s is not a PARAMETER input", n.Name())
		_, ok := node.Val.Get(&n.Meta)
		assert.True(t, ok, "new placeholder %s has no val", n.Name())
	}
}

func isNodeArg(a node.Arg, pred func(*node.Node) bool) bool {
	n, ok := a.(*node.Node)
	return ok && pred(n)
}

// TestFoldConvBNCases runs FoldConvBN over the graph-text cases of
// testdata/fold (internal/passtest), each with a "state" file listing the
// root's buffers: a dotted name and its shape (none: a scalar int64).
func TestFoldConvBNCases(t *testing.T) {
	passtest.Run(t, filepath.Join("testdata", "fold", "*.txtar"), func(testing.TB, *passtest.Case) passtest.Pass {
		return passes.FoldConvBN.Apply
	}, passtest.WithRoot(foldRoot))
}

// TestFoldLinearBNCases runs FoldLinearBN over the cases of
// testdata/fold_linear, as TestFoldConvBNCases.
func TestFoldLinearBNCases(t *testing.T) {
	passtest.Run(t, filepath.Join("testdata", "fold_linear", "*.txtar"), func(testing.TB, *passtest.Case) passtest.Pass {
		return passes.FoldLinearBN.Apply
	}, passtest.WithRoot(foldRoot))
}

// foldRoot builds the root module of a fold case from its "state" file.
func foldRoot(t testing.TB, c *passtest.Case) nn.Module {
	{
		data, ok := c.File("state")
		require.True(t, ok, "no state file")
		r := &holder{}
		r.Init(r, "Holder")
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			f := strings.Fields(line)
			var shape []int
			for _, s := range f[1:] {
				d, err := strconv.Atoi(s)
				require.NoError(t, err, line)
				shape = append(shape, d)
			}
			var x *tensor.Tensor
			var err error
			if len(shape) == 0 {
				x, err = tensor.Full(tensor.Int64, 0)
			} else {
				x, err = tensor.Full(tensor.Float32, 0.5, shape...)
			}
			require.NoError(t, err)
			owner, name := "", f[0]
			if i := strings.LastIndexByte(f[0], '.'); i >= 0 {
				owner, name = f[0][:i], f[0][i+1:]
			}
			var m nn.Module = r
			if owner != "" {
				sub, err := nn.Submodule(r, owner)
				if err != nil {
					h := &holder{}
					h.Init(h, "Holder")
					r.AddModule(owner, h)
					sub = h
				}
				m = sub
			}
			m.ModuleBase().RegisterBuffer(name, x, true)
		}
		return r
	}
}
