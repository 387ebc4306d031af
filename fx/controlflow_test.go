package fx_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
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
