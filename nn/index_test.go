package nn_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// iota24 is torch.arange(24.).reshape(2, 3, 4): element [i, j, k] is
// 12i + 4j + k.
func iota24(t *testing.T) nn.Value {
	t.Helper()
	vals := make([]float64, 24)
	for i := range vals {
		vals[i] = float64(i)
	}
	return nn.Tensor(tensor.Must(tensor.FromFloat64s(tensor.Float32, vals, 2, 3, 4)))
}

// elems lists 12i + 4j + k over the given index ranges.
func elems(is, js, ks []int) []float64 {
	var out []float64
	for _, i := range is {
		for _, j := range js {
			for _, k := range ks {
				out = append(out, float64(12*i+4*j+k))
			}
		}
	}
	return out
}

// TestIndexTensor: Python's indexing of tensors, x[0:2], x[:, 1],
// x[..., None] and their mixtures, with PyTorch's shapes and values (the
// expected elements are computed from the formula of iota24).
func TestIndexTensor(t *testing.T) {
	x := iota24(t)
	all3, all4 := []int{0, 1, 2}, []int{0, 1, 2, 3}
	tests := []struct {
		name  string
		idx   []any
		shape []int
		want  []float64
	}{
		{"x[1:]", []any{nn.Slice(1, nil)}, []int{1, 3, 4}, elems([]int{1}, all3, all4)},
		{"x[0:2]", []any{nn.Slice(0, 2)}, []int{2, 3, 4}, elems([]int{0, 1}, all3, all4)},
		{"x[:, 1]", []any{nn.Slice(), 1}, []int{2, 4}, elems([]int{0, 1}, []int{1}, all4)},
		{"x[..., None]", []any{nn.Ellipsis, nn.None}, []int{2, 3, 4, 1}, elems([]int{0, 1}, all3, all4)},
		{"x[..., 0]", []any{nn.Ellipsis, 0}, []int{2, 3}, elems([]int{0, 1}, all3, []int{0})},
		{"x[0, ::2]", []any{0, nn.Slice(nil, nil, 2)}, []int{2, 4}, elems([]int{0}, []int{0, 2}, all4)},
		{"x[None, 1, -1]", []any{nn.None, 1, -1}, []int{1, 4}, elems([]int{1}, []int{2}, all4)},
		{"x[-1, 1:-1, 1:3]", []any{-1, nn.Slice(1, -1), nn.Slice(1, 3)}, []int{1, 2}, elems([]int{1}, []int{1}, []int{1, 2})},
		{"x[1]", []any{1}, []int{3, 4}, elems([]int{1}, all3, all4)},
		{"x[...]", []any{nn.Ellipsis}, []int{2, 3, 4}, elems([]int{0, 1}, all3, all4)},
		{"x[5:]", []any{nn.Slice(5, nil)}, []int{0, 3, 4}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got nn.Value
			require.NotPanics(t, func() { got = x.Index(tt.idx...) })
			require.NotNil(t, got.Tensor(), "got %s", got.Kind())
			assert.Equal(t, tt.shape, got.Tensor().Shape())
			if tt.want == nil {
				tt.want = []float64{}
			}
			assert.Equal(t, tt.want, got.Tensor().Contiguous().Float64s())
		})
	}
	for _, bad := range []struct {
		idx []any
		msg string
	}{
		{[]any{0, 0, 0, 0}, "too many indices for tensor of dimension 3"},
		{[]any{nn.Ellipsis, 0, nn.Ellipsis}, "an index can only have a single ellipsis"},
		{[]any{nn.Slice(0, 2, -1)}, "slice step must be positive"},
		{[]any{nn.Slice(0, 2, 0)}, "slice step cannot be zero"},
		{[]any{2.5}, "only ints, slices, Ellipsis and None are valid tensor indices, got float"},
		{[]any{5}, "operator.getitem: aten::select.int"},
	} {
		_, err := nn.Run(funcModule(func(v nn.Value) nn.Value { return v.Index(bad.idx...) }), x)
		assert.ErrorContains(t, err, bad.msg, "%v", bad.idx)
	}
}

// TestIndexTuple: tuples take ints and slices, as in Python.
func TestIndexTuple(t *testing.T) {
	tp := nn.Tuple(nn.Of(0), nn.Of(1), nn.Of(2), nn.Of(3))
	ints := func(v nn.Value) []int64 {
		var out []int64
		for _, e := range v.Tuple() {
			out = append(out, e.Int())
		}
		return out
	}
	assert.Equal(t, int64(3), tp.Index(-1).Int())
	assert.Equal(t, []int64{1, 2, 3}, ints(tp.Index(nn.Slice(1, nil))))
	assert.Equal(t, []int64{3, 2, 1, 0}, ints(tp.Index(nn.Slice(nil, nil, -1))))
	assert.Equal(t, []int64{3, 1}, ints(tp.Index(nn.Slice(-1, nil, -2))))
	assert.Equal(t, []int64{0, 1}, ints(tp.Index(nn.Slice(-10, 2))))
	assert.Nil(t, ints(tp.Index(nn.Slice(3, 1))))
	assert.Equal(t, "slice(None, 2, None)", nn.Slice(2).String())
	assert.Equal(t, "slice(1, None, -1)", nn.Slice(1, nil, -1).String())
	assert.Equal(t, "Ellipsis", nn.Ellipsis.String())
}

// TestIndexTraced: traced, x[0:2, 1] is torch.fx's
// operator.getitem(x, (slice(0, 2, None), 1)); its text parses back, the
// interpreter runs it, and fake propagation infers its shape.
func TestIndexTraced(t *testing.T) {
	fn := func(x nn.Value) nn.Value {
		return x.Index(nn.Slice(0, 2), 1).Add(x.Index(nn.Ellipsis, nn.None).Index(0, 2, nn.Slice(nil, nil, 3)))
	}
	gm, err := fx.SymbolicTraceFunc(fn)
	require.NoError(t, err)
	assert.Equal(t, `graph():
    %x : [num_users=2] = placeholder[target=x]
    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%x, (slice(0, 2, None), 1)), kwargs = {})
    %getitem_1 : [num_users=1] = call_function[target=operator.getitem](args = (%x, (Ellipsis, None)), kwargs = {})
    %getitem_2 : [num_users=1] = call_function[target=operator.getitem](args = (%getitem_1, (0, 2, slice(None, None, 3))), kwargs = {})
    %add : [num_users=1] = call_function[target=aten.add.Tensor](args = (%getitem, %getitem_2), kwargs = {})
    return add`, gm.Graph.String())

	back, err := graph.Parse(gm.Graph.Text())
	require.NoError(t, err)
	require.NoError(t, graph.Equal(gm.Graph, back))

	x := iota24(t)
	eager, err := nn.Run(funcModule(fn), x)
	require.NoError(t, err)
	got, err := gm.Run(x)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 4}, got.Tensor().Shape())
	assert.Equal(t, eager.Tensor().Float64s(), got.Tensor().Float64s())
	// x[0:2, 1] is 12i + 4 + k, of shape [2, 4]; x[..., None][0, 2, ::3]
	// is x[0, 2, k] = 8 + k for k in 0, 3, of shape [2, 1]: row i adds
	// 8 (i = 0) or 11 (i = 1).
	assert.Equal(t, []float64{12, 13, 14, 15, 27, 28, 29, 30}, got.Tensor().Float64s())

	env := sym.NewEnv()
	s0, err := env.NewSymbol("s0", 2, sym.Range{Lo: 2, Hi: 8})
	require.NoError(t, err)
	out, err := shapeprop.FakeProp(gm, env, shapeprop.NewFake(tensor.Float32, s0, 3, 4))
	require.NoError(t, err)
	assert.Equal(t, "f32[2, 4]", out[0].(*shapeprop.Fake).String())
}

// TestIndexDynamicSlice: a slice whose bound is a node runs in the
// interpreter (graph text written by hand, as torch.fx records x[:n]).
func TestIndexDynamicSlice(t *testing.T) {
	g, err := graph.Parse(`
%x = placeholder "x"()
%n = placeholder "n"()
%getitem = call_function operator.getitem(%x, (slice(None, %n, None), Ellipsis, 0))
%output = output "output"(%getitem)`)
	require.NoError(t, err)
	require.NoError(t, g.Lint())
	got, err := interp.New(g, nil).Run(iota24(t), nn.Of(1))
	require.NoError(t, err)
	assert.Equal(t, []int{1, 3}, got.Tensor().Shape())
	assert.Equal(t, elems([]int{0}, []int{0, 1, 2}, []int{0}), got.Tensor().Float64s())
}
