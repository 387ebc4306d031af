package passes_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/internal/passtest"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/passes"
)

func TestRemoveDropout(t *testing.T) {
	tests := []struct {
		name, src, want string
		training        bool // the drop module's mode
	}{{
		name: "functional dropout in evaluation form",
		src: `%x = placeholder "x"()
%dropout = call_function aten.dropout.default(%x, 0.5, False)
%feature_dropout = call_function aten.feature_dropout.default(%dropout, 0.5, False)
%alpha_dropout = call_function aten.alpha_dropout.default(%feature_dropout, 0.0, True)
%relu = call_function aten.relu.default(%alpha_dropout)
%output = output "output"(%relu)`,
		want: `%x = placeholder "x"()
%relu = call_function aten.relu.default(%x)
%output = output "output"(%relu)`,
	}, {
		name: "training dropout stays",
		src: `%x = placeholder "x"()
%dropout = call_function aten.dropout.default(%x, 0.5, True)
%native_dropout = call_function aten.native_dropout.default(%x, 0.5, None)
%getitem = call_function operator.getitem(%native_dropout, 0)
%output = output "output"((%dropout, %getitem))`,
	}, {
		name: "native_dropout in evaluation form",
		src: `%x = placeholder "x"()
%native_dropout = call_function aten.native_dropout.default(%x, 0.5, False)
%getitem = call_function operator.getitem(%native_dropout, 0)
%native_dropout_1 = call_function aten.native_dropout.default(%x, 0.5, False)
%getitem_1 = call_function operator.getitem(%native_dropout_1, 0)
%getitem_2 = call_function operator.getitem(%native_dropout_1, 1)
%output = output "output"((%getitem, %getitem_1, %getitem_2))`,
		want: `%x = placeholder "x"()
%native_dropout_1 = call_function aten.native_dropout.default(%x, 0.5, False)
%getitem_2 = call_function operator.getitem(%native_dropout_1, 1)
%output = output "output"((%x, %x, %getitem_2))`,
	}, {
		name: "nn.Dropout in evaluation mode",
		src: `%x = placeholder "x"()
%drop = call_module "drop"(%x)
%neg = call_function aten.neg.default(%drop)
%output = output "output"(%neg)`,
		want: `%x = placeholder "x"()
%neg = call_function aten.neg.default(%x)
%output = output "output"(%neg)`,
	}, {
		name: "nn.Dropout in training mode stays",
		src: `%x = placeholder "x"()
%drop = call_module "drop"(%x)
%output = output "output"(%drop)`,
		training: true,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			drop := nn.Train(nn.NewDropout(0.5), tt.training)
			gm := newGM(t, tt.src, nil, map[string]nn.Module{"drop": drop})
			x := ramp(t, 2, 3)
			changed, err := passes.RemoveDropout.Apply(gm)
			require.NoError(t, err)
			want := tt.want
			if want == "" {
				want = tt.src
			}
			assert.Equal(t, tt.want != "", changed)
			requireGraph(t, gm, want)
			if tt.want != "" {
				// The reference is the expected graph itself (feature and
				// alpha dropout have no kernel to run the original with).
				ref, err := newGM(t, tt.want, nil, nil).Run(nn.Tensor(x))
				require.NoError(t, err)
				after, err := gm.Run(nn.Tensor(x))
				require.NoError(t, err)
				requireSameValues(t, ref, after)
			}
		})
	}
}

// dropped is a model with F.dropout(training=false) and an nn.Dropout.
type dropped struct {
	nn.Base
	Lin  *nn.Linear
	Drop *nn.Dropout
}

func (m *dropped) Forward(x nn.Value) nn.Value {
	return m.Drop.Call(F.Dropout(m.Lin.Call(x), 0.25, false)).Relu()
}

func TestRemoveDropoutTraced(t *testing.T) {
	m := &dropped{}
	m.Init(m, "Dropped")
	m.Lin = nn.RegisterModule(&m.Base, "lin", nn.NewLinear(3, 3, true))
	m.Drop = nn.RegisterModule(&m.Base, "drop", nn.NewDropout(0.1))
	nn.Eval(m)
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	x := nn.Tensor(ramp(t, 2, 3))
	before, err := gm.Run(x)
	require.NoError(t, err)
	rep, err := passes.Run(gm, passes.RemoveDropout, passes.DCE)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"call_function aten.dropout.default 1→0",
		"call_module drop 1→0",
	}, rep.OpsBefore.Delta(rep.OpsAfter))
	after, err := gm.Run(x)
	require.NoError(t, err)
	requireSameValues(t, before, after)
}

// TestRemoveDropoutCases runs RemoveDropout over the graph-text cases of
// testdata/dropout (internal/passtest: input graph, output graph).
func TestRemoveDropoutCases(t *testing.T) {
	passtest.Run(t, filepath.Join("testdata", "dropout", "*.txtar"), func(testing.TB, *passtest.Case) passtest.Pass {
		return passes.RemoveDropout.Apply
	})
}
