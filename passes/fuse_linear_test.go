package passes_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countOps counts the call_function nodes calling the operator named
// name (aten.addmm.default).
func countOps(g *graph.Graph, name string) int {
	k := 0
	for n := range g.Nodes() {
		if n.Op() == node.CallFunction && n.Function().String() == name {
			k++
		}
	}
	return k
}

// linearBN exports Linear(4, 6) → BatchNorm1d(6) in eval mode with random
// running statistics, with a dynamic batch.
func linearBN(t *testing.T, bias, twoUsers bool) (*pair, *export.ExportedProgram) {
	t.Helper()
	nn.ManualSeed(3)
	p := newPair(t, nn.NewLinear(4, 6, bias), nn.NewBatchNorm1d(6), twoUsers)
	x, err := nn.Uniform(1, 3, 4)
	require.NoError(t, err)
	ep, err := export.Export(p, []any{x}, export.Dims{"x": {0: export.Dim("batch", 2, 16)}})
	require.NoError(t, err)
	return p, ep
}

// requireEager checks that run gives the eager model's outputs within
// 1e-5 at several batch sizes.
func requireEager(t *testing.T, p nn.Module, run func(x *tensor.Tensor) (nn.Value, error)) {
	t.Helper()
	for _, b := range []int{2, 3, 7} {
		x, err := nn.Uniform(2, b, 4)
		require.NoError(t, err)
		want, err := nn.Run(p, nn.Tensor(x.Clone()))
		require.NoError(t, err)
		got, err := run(x)
		require.NoError(t, err)
		requireClose(t, got, []nn.Value{want}, 1e-5, fmt.Sprintf("folded vs eager at batch %d", b))
	}
}

// TestFoldLinearBN folds Linear → BatchNorm1d at the core-ATen level, on
// ep.Module() and on the program: no batch norm is left, the permute
// stays and an mm becomes an addmm, the outputs are the eager model's at
// several batch sizes, the model and the program are unchanged, and a
// second run changes nothing.
func TestFoldLinearBN(t *testing.T) {
	for _, tc := range []struct {
		name string
		bias bool
		// inputs is the folded program's signature inputs.
		inputs []string
	}{
		{"addmm", true, []string{
			"p_layer_weight PARAMETER layer.weight", "p_layer_bias PARAMETER layer.bias", "x USER_INPUT "}},
		{"mm, no bias", false, []string{
			"p_layer_weight PARAMETER layer.weight", "p_layer_bias PARAMETER layer.bias", "x USER_INPUT "}},
	} {
		t.Run(tc.name+"/module", func(t *testing.T) {
			p, ep := linearBN(t, tc.bias, false)
			state := nn.CloneState(p)
			text := ep.String()
			gm, err := ep.Module()
			require.NoError(t, err)
			require.Equal(t, 1, batchNormOps(gm.Graph))

			changed, err := passes.FoldLinearBN.Apply(gm)
			require.NoError(t, err)
			require.True(t, changed)
			require.NoError(t, gm.Lint())
			assert.Zero(t, batchNormOps(gm.Graph), "%s", gm.Code())
			assert.Equal(t, 1, countOps(gm.Graph, "aten.addmm.default"), "%s", gm.Code())
			assert.Zero(t, countOps(gm.Graph, "aten.mm.default"))
			assert.Equal(t, 1, countOps(gm.Graph, "aten.permute.default"))
			var names []string
			for name := range nn.NamedParameters(gm) {
				names = append(names, name)
			}
			assert.ElementsMatch(t, []string{"layer.weight", "layer.bias"}, names)
			for name := range nn.NamedBuffers(gm) {
				t.Errorf("buffer %s left", name)
			}
			requireEager(t, p, func(x *tensor.Tensor) (nn.Value, error) { return gm.Run(nn.Tensor(x)) })

			for name, w := range state.All() {
				x, _ := nn.StateDict(p).Get(name)
				assert.True(t, tensor.Equal(w, x), "model state %s changed", name)
			}
			assert.Equal(t, text, ep.String(), "ep changed")
			before := gm.String()
			changed, err = passes.FoldLinearBN.Apply(gm)
			require.NoError(t, err)
			assert.False(t, changed)
			assert.Equal(t, before, gm.String())
		})
		t.Run(tc.name+"/program", func(t *testing.T) {
			p, ep := linearBN(t, tc.bias, false)
			state := nn.CloneState(p)
			text := ep.String()

			out, changed, err := foldProgram(ep, passes.FoldLinearBN)
			require.NoError(t, err)
			require.True(t, changed)
			require.NoError(t, out.Graph.Lint())
			assert.Equal(t, text, ep.String(), "ep changed")
			assert.Zero(t, batchNormOps(out.Graph), "%s", out)
			assert.Equal(t, 1, countOps(out.Graph, "aten.addmm.default"), "%s", out)
			var got []string
			for _, in := range out.Signature.Inputs {
				got = append(got, in.Name+" "+in.Kind.String()+" "+in.Target)
			}
			assert.Equal(t, tc.inputs, got, "%s", out)
			assert.Equal(t, ep.RangeConstraints, out.RangeConstraints)
			if tc.bias {
				requireEdited(t, ep, out, len(out.Signature.Inputs)-len(ep.Signature.Inputs)+countDropped(ep, out))
			} else {
				// The mm is now an addmm, under its name and with its
				// metadata, reading the new bias.
				mm, ok := out.Graph.Node("mm")
				require.True(t, ok, "%s", out)
				assert.Equal(t, "aten.addmm.default", mm.Function().String())
				b, ok := mm.Arg(0).(*node.Node)
				require.True(t, ok)
				assert.Equal(t, "p_layer_bias", b.Name())
				old, _ := ep.Graph.Node("mm")
				assert.Equal(t, old.Meta.Keys(), mm.Meta.Keys())
			}
			requireEager(t, p, func(x *tensor.Tensor) (nn.Value, error) { return out.Run(x) })
			// The program runs as ep does.
			x, err := nn.Uniform(1, 5, 4)
			require.NoError(t, err)
			want, err := ep.Run(x.Clone())
			require.NoError(t, err)
			res, err := out.Run(x)
			require.NoError(t, err)
			requireClose(t, res, []nn.Value{want}, 1e-5, "folded program vs ep")

			for name, w := range state.All() {
				x, _ := nn.StateDict(p).Get(name)
				assert.True(t, tensor.Equal(w, x), "model state %s changed", name)
			}
			for name, x := range ep.StateDict() {
				w, ok := state.Get(name)
				require.True(t, ok, name)
				assert.True(t, tensor.Equal(w, x), "program state %s changed", name)
			}
			again, changed, err := foldProgram(out, passes.FoldLinearBN)
			require.NoError(t, err)
			assert.False(t, changed)
			assert.Same(t, out, again)
		})
	}
}

// TestFoldLinearBNUnchanged: what does not fold is left as it is, by the
// pass and by the program version: a linear output with two users. (A
// batch norm in training mode does not export: export refuses
// _native_batch_norm_legit's buffer writes; TestFoldLinearBNGraphs covers
// native_batch_norm with training=True.)
func TestFoldLinearBNUnchanged(t *testing.T) {
	for _, tc := range []struct {
		name     string
		twoUsers bool
	}{
		{"linear output with two users", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nn.ManualSeed(3)
			p := newPair(t, nn.NewLinear(4, 6, true), nn.NewBatchNorm1d(6), tc.twoUsers)
			x, err := nn.Uniform(1, 3, 4)
			require.NoError(t, err)
			ep, err := export.Export(p, []any{x}, nil)
			require.NoError(t, err)
			require.Equal(t, 1, batchNormOps(ep.Graph))

			out, changed, err := foldProgram(ep, passes.FoldLinearBN)
			require.NoError(t, err)
			assert.False(t, changed)
			assert.Same(t, ep, out)

			gm, err := ep.Module()
			require.NoError(t, err)
			before := gm.String()
			changed, err = passes.FoldLinearBN.Apply(gm)
			require.NoError(t, err)
			assert.False(t, changed)
			assert.Equal(t, before, gm.String())
		})
	}
}

// linearBNGraph is the core-ATen form of Linear then eval BatchNorm1d that
// FoldLinearBN folds (permute + addmm, then the batch norm and its getitem),
// with its state read by get_attr; tests derive variants by replacing text.
const linearBNGraph = `
%w = get_attr "w"()
%b = get_attr "b"()
%g = get_attr "g"()
%be = get_attr "be"()
%m = get_attr "m"()
%v = get_attr "v"()
%x = placeholder "x"()
%t = call_function aten.permute.default(%w, [1, 0])
%lin = call_function aten.addmm.default(%b, %x, %t)
%bn = call_function aten._native_batch_norm_legit_no_training.default(%lin, %g, %be, %m, %v, 0.1, 1e-05)
%y = call_function operator.getitem(%bn, 0)
%output = output "output"(%y)
`

// TestFoldLinearBNGraphs covers the matcher's conditions on hand-built
// graphs: the plain pattern folds, each variant of it does not.
func TestFoldLinearBNGraphs(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new string // replaced in linearBNGraph
		bias     []int  // the shape of b
		folds    bool
	}{
		{"plain", "", "", []int{6}, true},
		{"permute [0, 1]", "[1, 0]", "[0, 1]", []int{6}, false},
		{"addmm with beta 2", "%x, %t)", "%x, %t, beta=2)", []int{6}, false},
		{"addmm with alpha 1", "%x, %t)", "%x, %t, alpha=1)", []int{6}, true},
		{"bias broadcast from [1, 6]", "", "", []int{1, 6}, false},
		{"bias not state", "(%b, %x, %t)", "(%x, %x, %t)", []int{6}, false},
		{"permute of a computed weight", "permute.default(%w,", "permute.default(%x,", []int{6}, false},
		{"permute with another user", "%output = output \"output\"(%y)",
			"%s = call_function aten.add.Tensor(%y, %t)\n%output = output \"output\"(%s)", []int{6}, false},
		{"weight read twice", "%output = output \"output\"(%y)",
			"%s = call_function aten.add.Tensor(%y, %w)\n%output = output \"output\"(%s)", []int{6}, true},
		{"batch norm in training", "_native_batch_norm_legit_no_training.default(%lin, %g, %be, %m, %v, 0.1, 1e-05)",
			"native_batch_norm.default(%lin, %g, %be, %m, %v, True, 0.1, 1e-05)", []int{6}, false},
		{"batch norm in eval (native_batch_norm)", "_native_batch_norm_legit_no_training.default(%lin, %g, %be, %m, %v, 0.1, 1e-05)",
			"native_batch_norm.default(%lin, %g, %be, %m, %v, False, 0.1, 1e-05)", []int{6}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := linearBNGraph
			if tc.old != "" {
				require.Contains(t, text, tc.old)
				text = strings.Replace(text, tc.old, tc.new, 1)
			}
			nn.ManualSeed(5)
			attrs := map[string]*tensor.Tensor{}
			for name, shape := range map[string][]int{"w": {6, 6}, "b": tc.bias, "g": {6}, "be": {6}, "m": {6}} {
				a, err := nn.Uniform(1, shape...)
				require.NoError(t, err)
				attrs[name] = a
			}
			v, err := nn.Uniform(0.5, 6)
			require.NoError(t, err)
			attrs["v"] = nn.Tensor(v).Add(1.0).MustTensor()
			orig := map[string]*tensor.Tensor{}
			for name, a := range attrs {
				orig[name] = a.Clone()
			}
			gm := newGM(t, text, attrs, nil)
			x, err := nn.Uniform(2, 6, 6)
			require.NoError(t, err)
			want, err := gm.Run(nn.Tensor(x.Clone()))
			require.NoError(t, err)
			before := gm.String()

			changed, err := passes.FoldLinearBN.Apply(gm)
			require.NoError(t, err)
			require.Equal(t, tc.folds, changed, "%s", gm.Code())
			require.NoError(t, gm.Lint())
			if !tc.folds {
				assert.Equal(t, before, gm.String())
				return
			}
			assert.Zero(t, batchNormOps(gm.Graph), "%s", gm.Code())
			got, err := gm.Run(nn.Tensor(x))
			require.NoError(t, err)
			requireClose(t, got, []nn.Value{want}, 1e-5, "folded vs unfolded")
			for name, a := range attrs {
				assert.True(t, tensor.Equal(orig[name], a), "the tensor of %s changed", name)
			}
			// A weight read elsewhere is copied: that reader still sees it.
			if tc.name == "weight read twice" {
				require.Len(t, gm.Graph.FindNodes(node.GetAttr, node.Path("w_folded")), 1, "%s", gm.Code())
				w, err := nn.Attr(gm, "w")
				require.NoError(t, err)
				b, ok := w.(*nn.Buffer)
				require.True(t, ok, "w is a %T", w)
				assert.True(t, tensor.Equal(orig["w"], b.Tensor()), "w changed")
			}
		})
	}
}

// TestFoldLinearBNConvIsNot: FoldLinearBN leaves convolutions to
// FoldConvBN and FoldConvBN leaves linear layers to FoldLinearBN.
func TestFoldLinearBNConvIsNot(t *testing.T) {
	_, ep := linearBN(t, true, false)
	out, changed, err := foldProgram(ep, passes.FoldConvBN)
	require.NoError(t, err)
	assert.False(t, changed)
	assert.Same(t, ep, out)

	p := newPair(t, nn.NewConv2d(3, 4, 3, nn.Padding(1)), nn.NewBatchNorm2d(4), false)
	x, err := nn.Uniform(1, 2, 3, 5, 5)
	require.NoError(t, err)
	ep, err = export.Export(p, []any{x}, nil)
	require.NoError(t, err)
	out, changed, err = foldProgram(ep, passes.FoldLinearBN)
	require.NoError(t, err)
	assert.False(t, changed)
	assert.Same(t, ep, out)

	_, err = passes.FoldLinearBN.Apply(nil)
	assert.ErrorContains(t, err, "fold_linear_bn")
	_, _, err = foldProgram(nil, passes.FoldLinearBN)
	assert.ErrorContains(t, err, "Transform")
}

// TestFoldLinearBNInDefault: the default pipeline folds Linear →
// BatchNorm1d in an exported module, before constant folding takes the
// permute away, and the result still computes the eager model's outputs.
func TestFoldLinearBNInDefault(t *testing.T) {
	p, ep := linearBN(t, true, false)
	gm, err := ep.Module()
	require.NoError(t, err)
	report, err := passes.Optimize(gm)
	require.NoError(t, err)
	assert.Contains(t, report.String(), "fold_linear_bn")
	assert.Zero(t, batchNormOps(gm.Graph), "%s", gm.Code())
	requireEager(t, p, func(x *tensor.Tensor) (nn.Value, error) { return gm.Run(nn.Tensor(x)) })
}
