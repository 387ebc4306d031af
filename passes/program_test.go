package passes_test

import (
	"testing"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// convBNs is a convolution followed by batch norms, in the forms that
// exercise Transform's bookkeeping:
//   - y = bn1(conv(x)) repeated n times (an int input, specialized) with a
//     lifted constant c added each time;
//   - with Twice, conv is called a second time, on x, into bn2, and the
//     two results are added: conv's weight and bias have two readers;
//   - with ConstWeight, x also goes through F.Conv2d with a constant
//     weight (a tensor made in Forward, lifted as a constant) into bn2.
type convBNs struct {
	nn.Base
	Conv        *nn.Conv2d
	BN1, BN2    *nn.BatchNorm2d
	Twice       bool
	ConstWeight bool
	c, w        *tensor.Tensor
}

func newConvBNs(t *testing.T, bias, twice, constWeight bool) *convBNs {
	t.Helper()
	nn.ManualSeed(1)
	m := &convBNs{Twice: twice, ConstWeight: constWeight}
	m.Init(m, "ConvBNs")
	m.Conv = nn.RegisterModule(&m.Base, "conv", nn.NewConv2d(3, 3, 3, nn.Padding(1), nn.Bias(bias)))
	m.BN1 = nn.RegisterModule(&m.Base, "bn1", nn.NewBatchNorm2d(3))
	m.BN2 = nn.RegisterModule(&m.Base, "bn2", nn.NewBatchNorm2d(3))
	randomStats(t, &m.BN1.BatchNormNd)
	randomStats(t, &m.BN2.BatchNormNd)
	var err error
	m.c, err = nn.Uniform(1, 3, 1, 1)
	require.NoError(t, err)
	m.w, err = nn.Uniform(0.5, 3, 3, 1, 1)
	require.NoError(t, err)
	return nn.Eval(m)
}

func (m *convBNs) ArgNames() []string { return []string{"x", "n"} }

func (m *convBNs) Forward(x, n nn.Value) nn.Value {
	y := x
	for i := int64(0); i < n.Int(); i++ {
		y = nn.Call(m.BN1, nn.Call(m.Conv, y)).Add(nn.Tensor(m.c))
	}
	switch {
	case m.Twice:
		y = y.Add(nn.Call(m.BN2, nn.Call(m.Conv, x)))
	case m.ConstWeight:
		y = y.Add(nn.Call(m.BN2, F.Conv2d(x, nn.Tensor(m.w), nn.None, F.ConvOptions{})))
	}
	return y
}

// foldProgram runs the fold p on ep with Transform; changed reports
// whether it returned a new program.
func foldProgram(ep *export.ExportedProgram, p passes.Pass) (out *export.ExportedProgram, changed bool, err error) {
	out, err = ep.Transform(p)
	return out, err == nil && out != ep, err
}

// TestFoldConvBNProgramEdits checks the state and signature of folded
// programs with a specialized int input, a lifted constant, a dynamic
// batch, a convolution without bias, a weight read twice and a constant
// weight: the result runs as ep runs, on another batch size and with the
// specialized value, and refuses another value.
func TestFoldConvBNProgramEdits(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		bias, twice, constWeight bool
		n                        int
		// inputs is the folded signature's inputs, as "name kind target".
		inputs []string
	}{
		// bn2 is not called: its state stays, as export leaves it.
		{"conv with bias", true, false, false, 1, []string{
			"p_conv_weight PARAMETER conv.weight", "p_conv_bias PARAMETER conv.bias",
			"p_bn2_weight PARAMETER bn2.weight", "p_bn2_bias PARAMETER bn2.bias",
			"b_bn2_running_mean BUFFER bn2.running_mean", "b_bn2_running_var BUFFER bn2.running_var",
			"b_bn2_num_batches_tracked BUFFER bn2.num_batches_tracked",
			"c_lifted_tensor_0 CONSTANT_TENSOR lifted_tensor_0", "x USER_INPUT ", "n USER_INPUT "}},
		// The first fold leaves conv.weight to the second convolution
		// and takes new names; the second reuses conv.weight (in place),
		// the new biases come last among the parameters.
		{"conv without bias, applied twice", false, false, false, 2, []string{
			"p_conv_weight PARAMETER conv.weight",
			"p_bn2_weight PARAMETER bn2.weight", "p_bn2_bias PARAMETER bn2.bias",
			"p_conv_weight_folded PARAMETER conv.weight_folded", "p_conv_bias PARAMETER conv.bias",
			"p_conv_bias_1 PARAMETER conv.bias_1",
			"b_bn2_running_mean BUFFER bn2.running_mean", "b_bn2_running_var BUFFER bn2.running_var",
			"b_bn2_num_batches_tracked BUFFER bn2.num_batches_tracked",
			"c_lifted_tensor_0 CONSTANT_TENSOR lifted_tensor_0", "x USER_INPUT ", "n USER_INPUT "}},
		{"conv read by two calls", true, true, false, 1, []string{
			"p_conv_weight PARAMETER conv.weight", "p_conv_bias PARAMETER conv.bias",
			"p_conv_weight_folded PARAMETER conv.weight_folded", "p_conv_bias_folded PARAMETER conv.bias_folded",
			"c_lifted_tensor_0 CONSTANT_TENSOR lifted_tensor_0", "x USER_INPUT ", "n USER_INPUT "}},
		// The constant weight, read only by its convolution, becomes a
		// parameter under its name; the new bias is "bias" (at the root).
		{"constant weight", true, false, true, 1, []string{
			"p_conv_weight PARAMETER conv.weight", "p_conv_bias PARAMETER conv.bias",
			"p_lifted_tensor_1 PARAMETER lifted_tensor_1", "p_bias PARAMETER bias",
			"c_lifted_tensor_0 CONSTANT_TENSOR lifted_tensor_0", "x USER_INPUT ", "n USER_INPUT "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newConvBNs(t, tc.bias, tc.twice, tc.constWeight)
			x, err := nn.Uniform(1, 4, 3, 5, 5)
			require.NoError(t, err)
			ep, err := export.Export(m, []any{x.Clone(), tc.n}, export.Dims{"x": {0: export.Dim("batch", 2, 16)}})
			require.NoError(t, err)
			text := ep.String()

			out, changed, err := foldProgram(ep, passes.FoldConvBN)
			require.NoError(t, err)
			require.True(t, changed)
			assert.Equal(t, text, ep.String(), "ep changed")
			assert.Zero(t, batchNormOps(out.Graph), "%s", out)
			var got []string
			for _, in := range out.Signature.Inputs {
				got = append(got, in.Name+" "+in.Kind.String()+" "+in.Target)
			}
			assert.Equal(t, tc.inputs, got, "%s", out)
			assert.Equal(t, ep.RangeConstraints, out.RangeConstraints)
			requireEdited(t, ep, out, len(out.Signature.Inputs)-len(ep.Signature.Inputs)+countDropped(ep, out))
			require.Len(t, out.ModuleCallGraph, len(ep.ModuleCallGraph))
			for i, c := range out.ModuleCallGraph {
				for _, name := range append(c.Inputs, c.Outputs...) {
					_, ok := out.Graph.Node(name)
					assert.True(t, ok, "module call %s names %s, which is no node of the program", c.FQN, name)
				}
				if c.FQN == "bn1" {
					assert.Equal(t, c.Inputs, c.Outputs, "the folded bn1 returns its input")
				}
				assert.Equal(t, ep.ModuleCallGraph[i].FQN, c.FQN)
			}
			for name, c := range out.Constants() {
				assert.Same(t, ep.Constants()[name], c, "constant %s", name)
			}

			for _, b := range []int{4, 3} {
				in, err := nn.Uniform(1, b, 3, 5, 5)
				require.NoError(t, err)
				want, err := nn.Run(m, nn.Tensor(in.Clone()), nn.Of(int64(tc.n)))
				require.NoError(t, err)
				res, err := out.Run(in, tc.n)
				require.NoError(t, err)
				requireClose(t, res, []nn.Value{want}, 1e-4, "folded program vs eager")
			}
			_, err = out.Run(x, tc.n+1)
			assert.ErrorContains(t, err, "input n: the program was exported with the value")

			again, changed, err := foldProgram(out, passes.FoldConvBN)
			require.NoError(t, err)
			assert.False(t, changed)
			assert.Same(t, out, again)
		})
	}
}

// countDropped returns the number of ep's placeholders not in out.
func countDropped(ep, out *export.ExportedProgram) int {
	k := 0
	for _, ph := range ep.Graph.Placeholders() {
		if _, ok := out.Graph.Node(ph.Name()); !ok {
			k++
		}
	}
	return k
}

// TestFoldConvBNProgramUnchanged: a convolution whose output has another
// user is not folded, and the program is returned as it is.
func TestFoldConvBNProgramUnchanged(t *testing.T) {
	p := newPair(t, nn.NewConv2d(3, 4, 3, nn.Padding(1)), nn.NewBatchNorm2d(4), true)
	x, err := nn.Uniform(1, 2, 3, 5, 5)
	require.NoError(t, err)
	ep, err := export.Export(p, []any{x}, nil)
	require.NoError(t, err)
	out, changed, err := foldProgram(ep, passes.FoldConvBN)
	require.NoError(t, err)
	assert.False(t, changed)
	assert.Same(t, ep, out)
}
