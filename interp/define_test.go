package interp_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// TestDefine: an operator whose body is a graph computes what the graph
// computes (softplus(x * beta) / beta, ../shared/pt2's custom_op, against
// softplus's own beta argument, which is the same function), and its meta
// function gives the dtype and shape.
func TestDefine(t *testing.T) {
	text, err := os.ReadFile("testdata/scaled_softplus.txt")
	require.NoError(t, err)
	g, err := graph.Parse(string(text))
	require.NoError(t, err)
	op, err := interp.Define("interptest::scaled_softplus(Tensor x, float beta) -> Tensor", g)
	require.NoError(t, err)

	x := optest.Floats(t, tensor.Float32, []float64{-3, -1, 0, 0.5, 2, 40}, 2, 3)
	res, err := op.Call1(x, 2.0)
	require.NoError(t, err)
	got := res.(*tensor.Tensor)
	softplus, ok := ops.Global().Lookup("aten::softplus")
	require.True(t, ok)
	wres, err := softplus.Call1(x, 2.0)
	require.NoError(t, err)
	want := wres.(*tensor.Tensor)
	assert.True(t, tensor.AllClose(got, want, 1e-6, 1e-6, false), "got %v, want %v", got, want)

	m, err := tensor.NewMeta(tensor.Float32, 4, 5)
	require.NoError(t, err)
	mres, err := op.Call1(m, 0.5)
	require.NoError(t, err)
	mo := mres.(*tensor.Tensor)
	assert.True(t, mo.IsMeta())
	assert.Equal(t, []int{4, 5}, mo.Shape())
}

// TestDefineErrors: a body that does not fit its schema is refused,
// naming the operator and what differs.
func TestDefineErrors(t *testing.T) {
	text, err := os.ReadFile("testdata/scaled_softplus.txt")
	require.NoError(t, err)
	g, err := graph.Parse(string(text))
	require.NoError(t, err)
	for _, tc := range []struct {
		name, schema, want string
		g                  *graph.Graph
	}{
		{"bad schema", "interptest::f(Tensor x", "interp: Define: ", g},
		{"count", "interptest::f(Tensor x) -> Tensor", "interp: Define interptest::f: the body has 2 placeholders, the schema 1 arguments", g},
		{"names", "interptest::f(Tensor x, float scale) -> Tensor", `interp: Define interptest::f: placeholder 1 is "beta", the schema's argument 1 is "scale"`, g},
		{"mutable", "interptest::f_(Tensor(a!) x, float beta) -> Tensor(a!)", "interp: Define interptest::f_: the schema writes an argument, which a graph body cannot do", g},
		{"no returns", "interptest::f(Tensor x, float beta) -> ()", "interp: Define interptest::f: the schema returns nothing, so its body's work would be lost", g},
		{"nil", "interptest::f(Tensor x, float beta) -> Tensor", "interp: Define interptest::f: nil graph", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := interp.Define(tc.schema, tc.g)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// Two results where the schema has one: the call fails, naming both.
	op, err := interp.Define("interptest::two(Tensor x, float beta) -> (Tensor, Tensor)", g)
	require.NoError(t, err)
	_, err = op.Call([]any{optest.Floats(t, tensor.Float32, []float64{1}, 1), 1.0}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the body returned 1 values, the schema 2")
}
