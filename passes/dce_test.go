package passes_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
)

func TestDCE(t *testing.T) {
	tests := []struct {
		name, src, want string
		changed         bool
	}{{
		name: "dead chain and unused get_attr",
		src: `%x = placeholder "x"()
%w = get_attr "w"()
%add = call_function aten.add.Tensor(%x, %w)
%neg = call_function aten.neg.default(%add)
%relu = call_function aten.relu.default(%x)
%output = output "output"(%relu)`,
		want: `%x = placeholder "x"()
%relu = call_function aten.relu.default(%x)
%output = output "output"(%relu)`,
		changed: true,
	}, {
		name: "impure nodes stay",
		src: `%x = placeholder "x"()
%y = placeholder "y"()
%w = get_attr "w"()
%copy_ = call_function aten.copy_.default(%w, %x)
%add_ = call_method "add_"(%x, 1.0)
%relu = call_function aten.relu.default(%x)
%output = output "output"(%relu)`,
		want: `%x = placeholder "x"()
%y = placeholder "y"()
%w = get_attr "w"()
%copy_ = call_function aten.copy_.default(%w, %x)
%add_ = call_method "add_"(%x, 1.0)
%relu = call_function aten.relu.default(%x)
%output = output "output"(%relu)`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gm := newGM(t, tt.src, map[string]*tensor.Tensor{"w": ramp(t, 4)}, nil)
			changed, err := passes.DCE.Apply(gm)
			require.NoError(t, err)
			assert.Equal(t, tt.changed, changed)
			requireGraph(t, gm, tt.want)
		})
	}
}

// twoHeads uses only its first head; the second is dead code, and its
// module unused once DCE removed its call.
type twoHeads struct {
	nn.Base
	Body  *nn.Sequential
	Head1 *nn.Linear
	Head2 *nn.Linear
}

func newTwoHeads() *twoHeads {
	m := &twoHeads{}
	m.Init(m, "TwoHeads")
	m.Body = nn.RegisterModule(&m.Base, "body", nn.NewSequential(nn.NewLinear(4, 4, true), nn.NewReLU(), nn.NewLinear(4, 4, true)))
	m.Head1 = nn.RegisterModule(&m.Base, "head1", nn.NewLinear(4, 2, true))
	m.Head2 = nn.RegisterModule(&m.Base, "head2", nn.NewLinear(4, 2, true))
	return m
}

func (m *twoHeads) Forward(x nn.Value) nn.Value {
	h := m.Body.Call(x)
	_ = m.Head2.Call(h)
	return m.Head1.Call(h)
}

func TestDeleteUnusedSubmodules(t *testing.T) {
	m := nn.Eval(newTwoHeads())
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	x := nn.Tensor(ramp(t, 2, 4))

	// Nothing is unused yet: the head2 call is dead but still there.
	changed, err := passes.DeleteUnusedSubmodules.Apply(gm)
	require.NoError(t, err)
	assert.False(t, changed)

	// Remove the dead call of head2, and the call of body.1 (the ReLU) by
	// hand, as a rewrite that fused it into the linear would.
	_, err = passes.DCE.Apply(gm)
	require.NoError(t, err)
	relu := gm.Graph.FindNodes(node.CallModule, node.Path("body.1"))
	require.Len(t, relu, 1, gm.Graph.String())
	_, err = relu[0].ReplaceAllUsesWith(relu[0].Arg(0).(*node.Node), nil, false)
	require.NoError(t, err)
	require.NoError(t, gm.Graph.EraseNode(relu[0]))
	before, err := gm.Run(x)
	require.NoError(t, err)

	training := gm.Training()
	changed, err = passes.DeleteUnusedSubmodules.Apply(gm)
	require.NoError(t, err)
	assert.True(t, changed)
	require.NoError(t, gm.Lint())
	assert.Equal(t, []string{"body.0.weight", "body.0.bias", "body.2.weight", "body.2.bias", "head1.weight", "head1.bias"},
		nn.StateDict(gm).Names())
	_, err = nn.Submodule(gm, "body.1")
	assert.Error(t, err)
	_, err = nn.Submodule(gm, "head2")
	assert.Error(t, err)
	assert.Equal(t, training, gm.Training(), "the GraphModule keeps its mode")
	body, err := nn.Submodule(gm, "body")
	require.NoError(t, err)
	assert.Equal(t, "Sequential", body.ModuleBase().TypeName())
	assert.NotSame(t, m.Body, body, "a pruned module is a new container")
	assert.False(t, body.ModuleBase().Training(), "and keeps its mode")

	// The user's model is untouched.
	assert.Equal(t, 8, nn.StateDict(m).Len())
	_, err = nn.Submodule(m, "body.1")
	assert.NoError(t, err)

	after, err := gm.Run(x)
	require.NoError(t, err)
	requireSameValues(t, before, after)

	changed, err = passes.DeleteUnusedSubmodules.Apply(gm)
	require.NoError(t, err)
	assert.False(t, changed, "a second run finds nothing")
}
