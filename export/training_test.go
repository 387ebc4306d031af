package export_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// bnDropout is BatchNorm2d(3) then Dropout(0.5), left in training mode.
type bnDropout struct {
	nn.Base
	BN *nn.BatchNorm2d
	Do *nn.Dropout
}

func (m *bnDropout) Forward(x nn.Value) nn.Value { return m.Do.Call(m.BN.Call(x)) }

func newBNDropout(p float64) *bnDropout {
	m := &bnDropout{}
	m.Init(m, "M")
	m.BN = nn.RegisterModule(&m.Base, "bn", nn.NewBatchNorm2d(3))
	m.Do = nn.RegisterModule(&m.Base, "do", nn.NewDropout(p))
	return m
}

// TestTrainingModeBatchNorm: a batch norm in training mode exports as
// torch.export 2.6 does (ep.run_decompositions() of BatchNorm2d(3) +
// Dropout(0.5) in train mode): num_batches_tracked + 1 and
// _native_batch_norm_legit_functional, whose new running statistics are
// buffer mutations, then native_dropout. Run updates the buffers as the
// eager module does.
func TestTrainingModeBatchNorm(t *testing.T) {
	m := newBNDropout(0.5)
	x, err := tensor.NewGenerator(3).Randn(tensor.Float32, 2, 3, 4, 4)
	require.NoError(t, err)
	ep, err := export.Export(m, []any{x}, nil)
	require.NoError(t, err)
	got := ep.String()
	// The lines of PyTorch 2.6's program (ep.run_decompositions()): a
	// getitem is printed x[i], a node with several results has no
	// annotation.
	for _, line := range []string{
		`add: "i64[]" = torch.ops.aten.add.Tensor(b_bn_num_batches_tracked, 1);  b_bn_num_batches_tracked = None`,
		`_native_batch_norm_legit_functional = torch.ops.aten._native_batch_norm_legit_functional.default(x, p_bn_weight, p_bn_bias, b_bn_running_mean, b_bn_running_var, True, 0.1, 1e-05);  x = p_bn_weight = p_bn_bias = b_bn_running_mean = b_bn_running_var = None`,
		`getitem: "f32[2, 3, 4, 4]" = _native_batch_norm_legit_functional[0]`,
		`getitem_3: "f32[3]" = _native_batch_norm_legit_functional[3]`,
		`getitem_4: "f32[3]" = _native_batch_norm_legit_functional[4];  _native_batch_norm_legit_functional = None`,
		`= torch.ops.aten.native_dropout.default(getitem, 0.5, True);  getitem = None`,
		`getitem_5: "f32[2, 3, 4, 4]" = native_dropout[0];  native_dropout = None`,
		`return (getitem_3, getitem_4, add, getitem_5)`,
	} {
		assert.Contains(t, got, line)
	}
	var outs []string
	for _, o := range ep.Signature.Outputs {
		outs = append(outs, o.Kind.String()+" "+o.Name+" "+o.Target)
	}
	assert.Equal(t, []string{
		"BUFFER_MUTATION getitem_3 bn.running_mean", "BUFFER_MUTATION getitem_4 bn.running_var",
		"BUFFER_MUTATION add bn.num_batches_tracked", "USER_OUTPUT getitem_5 ",
	}, outs)

	// Run updates the running statistics as the eager module in training
	// mode does (without dropout, whose mask is random).
	eager, prog := newBNDropout(0), newBNDropout(0)
	ep, err = export.Export(prog, []any{x}, nil)
	require.NoError(t, err)
	for i := 0; i < 2; i++ {
		want, err := nn.Run(eager, nn.Tensor(x))
		require.NoError(t, err)
		out, err := ep.Run(x)
		require.NoError(t, err)
		assert.True(t, tensor.AllClose(out.MustTensor(), want.MustTensor(), 1e-5, 1e-5, false), "call %d: output", i)
		for _, name := range []string{"bn.running_mean", "bn.running_var", "bn.num_batches_tracked"} {
			w, _ := nn.StateDict(eager).Get(name)
			g := ep.StateDict()[name]
			assert.True(t, tensor.AllClose(g, w, 1e-6, 1e-6, false), "call %d: %s = %v, eager %v", i, name, g.Float64s(), w.Float64s())
		}
	}
	assert.Equal(t, []float64{2}, ep.StateDict()["bn.num_batches_tracked"].Float64s())
}
