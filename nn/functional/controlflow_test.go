package functional_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
)

// fnModule runs a Go function as a module's Forward.
type fnModule struct {
	nn.Base
	fn func(x nn.Value) nn.Value
}

func (m *fnModule) Forward(x nn.Value) nn.Value { return m.fn(x) }

func runFn(fn func(x nn.Value) nn.Value, x *tensor.Tensor) (nn.Value, error) {
	m := &fnModule{fn: fn}
	m.Init(m, "Fn")
	return nn.Run(m, nn.Of(x))
}

// TestControlFlowEagerErrors: eager runs refuse what torch.cond,
// while_loop and map refuse, naming the op and what differs.
func TestControlFlowEagerErrors(t *testing.T) {
	x := tensor.Must(tensor.Ones(tensor.Float32, 3, 2))
	id := func(o ...nn.Value) nn.Value { return o[0] }
	cases := []struct {
		name string
		fn   func(x nn.Value) nn.Value
		want string
	}{
		{"float predicate", func(x nn.Value) nn.Value { return F.Cond(x.Sum(), id, id, x) },
			"cond: the predicate must be a bool tensor, got dtype float32"},
		{"vector predicate", func(x nn.Value) nn.Value { return F.Cond(x.Gt(0), id, id, x) },
			"cond: the predicate must be a one-element bool tensor, got shape [3 2]"},
		{"string predicate", func(x nn.Value) nn.Value { return F.Cond(nn.Of("yes"), id, id, x) },
			"cond: the predicate must be a bool or a one-element bool tensor, got str"},
		{"carried shape", func(x nn.Value) nn.Value {
			return F.WhileLoop(func(v ...nn.Value) nn.Value { return v[0].Sum().Gt(0) },
				func(v ...nn.Value) []nn.Value { return []nn.Value{v[0].Sum(0)} }, []nn.Value{x}, nil)[0]
		}, "while_loop: body_fn: carried input 0 changed shape from [3 2] to [2]"},
		{"carried count", func(x nn.Value) nn.Value {
			return F.WhileLoop(func(v ...nn.Value) nn.Value { return v[0].Sum().Gt(0) },
				func(v ...nn.Value) []nn.Value { return []nn.Value{v[0], v[0]} }, []nn.Value{x}, nil)[0]
		}, "while_loop: body_fn: returned 2 values for 1 carried inputs"},
		{"map 0-d", func(x nn.Value) nn.Value {
			return F.Map(func(r nn.Value, _ ...nn.Value) nn.Value { return r }, x.Sum())
		},
			"map: xs must have a non-empty leading dimension, got shape []"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := runFn(c.fn, x)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Contains(t, err.Error(), "controlflow_test.go:")
		})
	}
}

// TestControlFlowEager checks the eager results against the same
// computation written out: while_count's loop (it < 5: five steps of
// x*0.5 + sin(x)) and map's stacking of rows.
func TestControlFlowEager(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float32{0.5, -1, 2, 3}, 2, 2))
	out, err := runFn(func(x nn.Value) nn.Value {
		res := F.WhileLoop(func(v ...nn.Value) nn.Value { return v[0].Lt(5) },
			func(v ...nn.Value) []nn.Value { return []nn.Value{v[0].Add(1), v[1].Mul(0.5).Add(v[1].Method("sin"))} },
			[]nn.Value{nn.Of(tensor.Scalar(int64(0))), x}, nil)
		want := x
		for range 5 {
			want = want.Mul(0.5).Add(want.Method("sin"))
		}
		return nn.Tuple(res[0], res[1], want)
	}, x)
	require.NoError(t, err)
	assert.Equal(t, int64(5), out.Tuple()[0].Int())
	assert.True(t, tensor.AllClose(out.Tuple()[1].MustTensor(), out.Tuple()[2].MustTensor(), 0, 0, false))

	out, err = runFn(func(x nn.Value) nn.Value {
		return F.Map(func(r nn.Value, a ...nn.Value) nn.Value { return nn.Tuple(r.Mul(a[0]), r.Sum()) }, x, nn.Of(2.0))
	}, x)
	require.NoError(t, err)
	assert.Equal(t, []float64{1, -2, 4, 6}, out.Tuple()[0].MustTensor().Float64s())
	assert.Equal(t, []float64{-0.5, 5}, out.Tuple()[1].MustTensor().Float64s())
}
