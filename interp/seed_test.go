package interp_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// docNegSigmSwap is the NegSigmSwapInterpreter of torch.fx's Interpreter
// documentation, ported as written: only call_function sigmoid and
// call_method neg are swapped.
//
//	class NegSigmSwapInterpreter(Interpreter):
//	    def call_function(self, target, args, kwargs):
//	        if target == torch.sigmoid:
//	            return torch.neg(*args, **kwargs)
//	        return super().call_function(n)
//	    def call_method(self, target, args, kwargs):
//	        if target == 'neg':
//	            call_self, *args_tail = args
//	            return call_self.sigmoid(*args_tail, **kwargs)
//	        return super().call_method(n)
type docNegSigmSwap struct{ *interp.Interpreter }

func (s *docNegSigmSwap) CallFunction(n *node.Node, fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if fn == aten.Sigmoid {
		return nn.ApplyFunction(aten.Neg, args, kwargs)
	}
	return s.Interpreter.CallFunction(n, fn, args, kwargs)
}

func (s *docNegSigmSwap) CallMethod(n *node.Node, name string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if name == "neg" {
		return nn.ApplyMethod("sigmoid", args, kwargs)
	}
	return s.Interpreter.CallMethod(n, name, args, kwargs)
}

// TestSeedNegSigmSwap: the document traces fn(x) = torch.sigmoid(x).neg()
// and checks the swapping interpreter computes torch.neg(x).sigmoid().
// Value.Neg is the method spelling x.neg(), recorded as call_method neg
// as torch.fx records it (it used to be a call_function, which the
// interpreter left alone: the result was -sigmoid(-x) = sigmoid(x) - 1).
func TestSeedNegSigmSwap(t *testing.T) {
	fn := func(x nn.Value) nn.Value { return F.Sigmoid(x).Neg() }
	gm, err := fx.SymbolicTraceFunc(fn)
	require.NoError(t, err)
	assert.Equal(t, `graph():
    %x : [num_users=1] = placeholder[target=x]
    %sigmoid : [num_users=1] = call_function[target=aten.sigmoid.default](args = (%x,), kwargs = {})
    %neg : [num_users=1] = call_method[target=neg](args = (%sigmoid,), kwargs = {})
    return neg`, gm.Graph.String())

	xs := []float64{-2, -0.5, 0, 0.5, 2, 3}
	x := tensor.Must(tensor.FromFloat64s(tensor.Float64, xs, 2, 3))
	s := &docNegSigmSwap{Interpreter: interp.New(gm.Graph, gm)}
	s.Steps = s
	got, err := s.Run(nn.Tensor(x))
	require.NoError(t, err)
	want := make([]float64, len(xs))
	for i, v := range xs {
		want[i] = 1 / (1 + math.Exp(v)) // sigmoid(-x)
	}
	assert.InDeltaSlice(t, want, got.Tensor().Float64s(), 1e-12)

	// The plain run computes fn itself: -sigmoid(x).
	plain, err := gm.Run(nn.Tensor(x))
	require.NoError(t, err)
	for i, v := range xs {
		want[i] = -1 / (1 + math.Exp(-v))
	}
	assert.InDeltaSlice(t, want, plain.Tensor().Float64s(), 1e-12)
}
