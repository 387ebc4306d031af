package nn_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// nilBlock has a submodule field its constructor forgot to set.
type nilBlock struct {
	nn.Base
	Conv *nn.Linear
	Proj *nn.Linear
}

func (m *nilBlock) Forward(x nn.Value) nn.Value { return m.Proj.Call(m.Conv.Call(x)) }

type nilNet struct {
	nn.Base
	Layers *nn.Sequential
}

func (m *nilNet) Forward(x nn.Value) nn.Value { return m.Layers.Call(x) }

func newNilNet() *nilNet {
	b := &nilBlock{}
	b.Init(b, "Block")
	b.Conv = nn.RegisterModule(&b.Base, "conv", nn.NewLinear(2, 2, true))
	m := &nilNet{}
	m.Init(m, "Net")
	m.Layers = nn.RegisterModule(&m.Base, "layers", nn.NewSequential(nn.NewIdentity(), b))
	return m
}

// TestNilSubmodule: calling a submodule field that was never set names the
// module path, the field and its type, eagerly and while tracing (it used
// to be a bare "invalid memory address or nil pointer dereference").
func TestNilSubmodule(t *testing.T) {
	const want = "module layers.1 (Block): field Proj is a nil *nn.Linear module: set it (registering it with nn.RegisterModule) before calling it"
	x := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{1, 2}, 1, 2))
	_, err := nn.Run(newNilNet(), nn.Tensor(x))
	require.Error(t, err)
	assert.Contains(t, err.Error(), want)
	assert.Contains(t, err.Error(), "traps_test.go:21", "the error names the Go line calling the nil module")

	_, err = fx.SymbolicTrace(newNilNet())
	require.Error(t, err)
	assert.Contains(t, err.Error(), want)

	// The root's own field.
	root := &nilBlock{}
	root.Init(root, "Block")
	root.Proj = nn.RegisterModule(&root.Base, "proj", nn.NewLinear(2, 2, true))
	_, err = nn.Run(root, nn.Tensor(x))
	assert.ErrorContains(t, err, "the root module (Block): field Conv is a nil *nn.Linear module")

	// A nil module handed to Call directly.
	var lin *nn.Linear
	_, err = nn.Run(nn.NewSequential(lin), nn.Tensor(x))
	assert.ErrorContains(t, err, `module "0" is nil`, "registering a nil module is a construction error")
	assert.NotPanics(t, func() {
		_, err = fx.SymbolicTraceFunc(func(x nn.Value) nn.Value { return nn.Call(lin, x) })
	})
	assert.ErrorContains(t, err, "a nil *nn.Linear module was called")
}

type twoArgs struct{ nn.Base }

func (m *twoArgs) Forward(x, y nn.Value) nn.Value { return x.Add(y) }

type threeArgs struct{ nn.Base }

func (m *threeArgs) Forward(x, y, z nn.Value) nn.Value { return x.Add(y).Add(z) }

type restArgs struct{ nn.Base }

func (m *restArgs) Forward(x, y nn.Value, rest ...nn.Value) nn.Value { return x.Add(y) }

// TestForwardArity: a call with too few or too many arguments is an error
// naming the module's Forward and both counts (missing arguments used to
// become None).
func TestForwardArity(t *testing.T) {
	x := nn.Tensor(tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{1, 2}, 2)))
	two := &twoArgs{}
	two.Init(two, "Two")
	three := &threeArgs{}
	three.Init(three, "Three")
	rest := &restArgs{}
	rest.Init(rest, "Rest")
	tests := []struct {
		name   string
		m      nn.Module
		args   []nn.Value
		errMsg string
	}{
		{"two ok", two, []nn.Value{x, x}, ""},
		{"two missing", two, []nn.Value{x}, "Two.Forward takes 2 arguments, got 1"},
		{"two extra", two, []nn.Value{x, x, x}, "Two.Forward takes 2 arguments, got 3"},
		{"three missing", three, []nn.Value{x, x}, "Three.Forward takes 3 arguments, got 2"},
		{"three given", three, []nn.Value{x, x, nn.Of(1)}, ""},
		{"variadic ok", rest, []nn.Value{x, x}, ""},
		{"variadic more", rest, []nn.Value{x, x, x, x}, ""},
		{"variadic missing", rest, []nn.Value{x}, "Rest.Forward takes at least 2 arguments, got 1"},
		{"linear missing", nn.NewLinear(2, 2, true), nil, "Linear.Forward takes 1 argument, got 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := nn.Run(tt.m, tt.args...)
			if tt.errMsg == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tt.errMsg)
		})
	}
}
