package export_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// Pair is a registered struct input: its nn.Value fields are children.
type Pair struct {
	A     nn.Value `pytree:"a"`
	B     nn.Value `pytree:"b"`
	Scale float64  `pytree:"scale"`
}

// Unregistered is a struct never registered.
type Unregistered struct{ A nn.Value }

func init() {
	if err := export.Register[Pair]("gofx_test.Pair"); err != nil {
		panic(err)
	}
}

// sumAll adds up every tensor leaf of its input, walking tuples, dicts
// and Pairs, times the Pair's scale.
type sumAll struct{ nn.Base }

func (m *sumAll) ArgNames() []string { return []string{"x"} }

func (m *sumAll) Forward(x nn.Value) nn.Value {
	var total nn.Value
	var walk func(v nn.Value)
	add := func(v nn.Value) {
		s := v.Sum()
		if total.IsNone() {
			total = s
		} else {
			total = total.Add(s)
		}
	}
	walk = func(v nn.Value) {
		switch {
		case v.IsNone():
		case v.IsTuple():
			for _, e := range v.Tuple() {
				walk(e)
			}
		case v.IsDict():
			for _, k := range v.Keys() {
				walk(v.Get(k))
			}
		default:
			if p, ok := v.Any().(*Pair); ok {
				walk(p.A)
				walk(p.B)
				total = total.Mul(p.Scale)
				return
			}
			if p, ok := v.Any().(Pair); ok {
				walk(p.A)
				walk(p.B)
				return
			}
			if v.Kind() == "Proxy" || v.IsTensor() {
				add(v)
			}
		}
	}
	walk(x)
	return total
}

func onesF(shape ...int) *tensor.Tensor { return tensor.Must(tensor.Ones(tensor.Float32, shape...)) }

// TestExportPytreeInputs exports one nested input of each kind and checks
// the in spec, the placeholders' names (torch.export's), the constant
// inputs, and that Call with the same structure runs.
func TestExportPytreeInputs(t *testing.T) {
	a, b, c := onesF(2), onesF(3), onesF(4)
	for _, tc := range []struct {
		name   string
		in     any
		spec   string
		inputs []string // user inputs, constants as name=value
		sum    float64
	}{
		{"tuple", nn.Tuple(nn.Tensor(a), nn.Tensor(b)), "TreeSpec(tuple, None, [TreeSpec(tuple, None, [TreeSpec(tuple, None, [*, *])]), TreeSpec(dict, [], [])])", []string{"x_0", "x_1"}, 5},
		{"list", []*tensor.Tensor{a, b, c}, "TreeSpec(tuple, None, [TreeSpec(tuple, None, [TreeSpec(list, None, [*, *, *])]), TreeSpec(dict, [], [])])", []string{"x_0", "x_1", "x_2"}, 9},
		{"dict sorted", map[string]any{"b-2": b, "A": a}, "TreeSpec(tuple, None, [TreeSpec(tuple, None, [TreeSpec(dict, ['A', 'b-2'], [*, *])]), TreeSpec(dict, [], [])])", []string{"x_a", "x_b_2"}, 5},
		{"nn.Dict order", nn.Dict([]string{"z", "a"}, nn.Tensor(b), nn.Tensor(a)), "TreeSpec(tuple, None, [TreeSpec(tuple, None, [TreeSpec(dict, ['z', 'a'], [*, *])]), TreeSpec(dict, [], [])])", []string{"x_z", "x_a"}, 5},
		{"nn values", nn.Tuple(nn.Tensor(a), nn.Of(2), nn.Of("s")), "TreeSpec(tuple, None, [TreeSpec(tuple, None, [TreeSpec(tuple, None, [*, *, *])]), TreeSpec(dict, [], [])])", []string{"x_0", "x_1=2", "x_2=s"}, 2},
		{"nested with None and int", []any{map[string]any{"t": []any{a, nil}}, 7}, "TreeSpec(tuple, None, [TreeSpec(tuple, None, [TreeSpec(list, None, [TreeSpec(dict, ['t'], [TreeSpec(list, None, [*, *])]), *])]), TreeSpec(dict, [], [])])", []string{"x_0_t_0", "x_0_t_1=None", "x_1=7"}, 2},
		{"struct", &Pair{A: nn.Tensor(a), B: nn.Tensor(b), Scale: 2}, "TreeSpec(Pair, [['a', 'b', 'scale'], []], [*, *, *])", []string{"x_a", "x_b", "x_scale=2"}, 10},
		{"struct with None", Pair{A: nn.Tensor(c)}, "TreeSpec(Pair, [['a', 'scale'], ['b']], [*, *])", []string{"x_a", "x_scale=0"}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &sumAll{}
			m.Init(m, "SumAll")
			ep, err := export.Export(m, []any{tc.in}, nil)
			require.NoError(t, err)
			spec := ep.InSpec().String()
			if tc.name == "struct" || tc.name == "struct with None" {
				spec = ep.InSpec().Children[0].Children[0].String()
			}
			assert.Equal(t, tc.spec, spec)
			assert.Equal(t, tc.inputs, userInputs(ep.Signature))
			out, err := ep.Call([]any{tc.in}, nil)
			require.NoError(t, err)
			assert.Equal(t, []float64{tc.sum}, out.(*tensor.Tensor).Float64s())
			res, err := ep.Run(tc.in)
			require.NoError(t, err)
			assert.Equal(t, []float64{tc.sum}, res.MustTensor().Float64s())
			// The spec survives its serialized form.
			js, err := ep.InSpec().MarshalPyTorch()
			require.NoError(t, err)
			back, err := export.ParseTreeSpec(js)
			require.NoError(t, err)
			assert.Equal(t, ep.InSpec().String(), back.String())
		})
	}
}

// TestExportPytreeMismatch: a call whose structure differs from the
// exported one fails naming the path and what was expected.
func TestExportPytreeMismatch(t *testing.T) {
	a, b := onesF(2), onesF(3)
	m := &sumAll{}
	m.Init(m, "SumAll")
	ep, err := export.Export(m, []any{[]any{a, map[string]any{"k": b}, &Pair{A: nn.Tensor(a), B: nn.Tensor(b)}}}, nil)
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		in   any
		want string
	}{
		{"short list", []any{a}, "export: inputs[0][0]: expected a list of 3 elements, got 1"},
		{"not a list", a, "export: inputs[0][0]: expected a list of 3 elements, got a tensor float32[2]"},
		{"missing key", []any{a, map[string]any{}, &Pair{}}, `export: inputs[0][0][1]: missing key "k" (expected ["k"])`},
		{"extra key", []any{a, map[string]any{"k": b, "j": b}, &Pair{}}, `export: inputs[0][0][1]: unexpected key "j" (expected ["k"])`},
		{"other struct", []any{a, map[string]any{"k": b}, &Unregistered{}}, "export: inputs[0][0][2]: expected a export_test.Pair, got a *export_test.Unregistered"},
		{"field not None", []any{a, map[string]any{"k": b}, &Pair{A: nn.Tensor(a), B: nn.Tensor(b), Scale: 1}}, "export: input x_2_scale: the program was exported with the value 0.0, which was specialized into the graph; got 1.0"},
		{"wrong shape", []any{b, map[string]any{"k": b}, &Pair{A: nn.Tensor(a), B: nn.Tensor(b)}}, "export: input x_0 dim 0: expected size 2 (static), got 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ep.Call([]any{tc.in}, nil)
			assert.EqualError(t, err, tc.want)
		})
	}
	// A None field must stay None.
	ep2, err := export.Export(m, []any{Pair{A: nn.Tensor(a)}}, nil)
	require.NoError(t, err)
	_, err = ep2.Call([]any{Pair{A: nn.Tensor(a), B: nn.Tensor(b)}}, nil)
	assert.EqualError(t, err, "export: inputs[0][0].b: expected None (the field was None when the program was exported), got a Tensor")
}

// TestExportPytreeErrors: inputs that are no pytree fail naming the path.
func TestExportPytreeErrors(t *testing.T) {
	a := onesF(2)
	m := &sumAll{}
	m.Init(m, "SumAll")
	for _, tc := range []struct {
		name string
		in   any
		want string
	}{
		{"unregistered struct", map[string]any{"s": &Unregistered{A: nn.Tensor(a)}}, `export: input x['s']: a *export_test.Unregistered is not a pytree: register its type with export.Register`},
		{"int keys", []any{map[int]*tensor.Tensor{1: a}}, "export: input x[0]: a map[int]*tensor.Tensor is not a pytree: a dict's keys must be strings"},
		{"channel", []any{a, make(chan int)}, "export: input x[1]: a chan int is neither a tensor nor a value export can specialize (an int, float, bool, string or dtype) nor a pytree (a slice, a map with string keys, a registered struct)"},
		{"meta tensor", map[string]any{"m": tensor.Must(tensor.NewMeta(tensor.Float32, 2))}, "export: input x['m']: a meta tensor has no data to export with"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := export.Export(m, []any{tc.in}, nil)
			assert.EqualError(t, err, tc.want)
		})
	}
	_, err := export.Export(m, []any{map[string]any{"a": a}}, export.Dims{"x": {0: export.Dim("n", 2, 8)}})
	assert.EqualError(t, err, `export: dynamic dims: input "x": no such input (inputs: x_a)`)
	_, err = export.Export(m, []any{map[string]any{"a": a}}, export.Dims{"x['a']": {0: export.Dim("n", 2, 8)}, "x_a": {0: export.Dim("n", 2, 8)}})
	assert.EqualError(t, err, `export: dynamic dims: input "x['a']": the input is named twice, by its path and as x_a`)
}

// TestExportDimsByPath: a nested leaf's dynamic dims are declared by its
// placeholder name (xs_1) or by its path as PyTorch writes it (xs[1],
// batch['ids']), which name the same symbol.
func TestExportDimsByPath(t *testing.T) {
	m := &sumAll{}
	m.Init(m, "SumAll")
	in := map[string]any{"ids": onesF(4, 3), "mask": onesF(4, 3)}
	n := export.Dim("n", 2, 16)
	for _, dims := range []export.Dims{
		{"x_ids": {0: n}, "x_mask": {0: n}},
		{"x['ids']": {0: n}, "x['mask']": {0: n}},
		{"x['ids']": {0: n}, "x_mask": {0: n}},
	} {
		ep, err := export.Export(m, []any{in}, dims)
		require.NoError(t, err, "%#v", dims)
		assert.Contains(t, ep.String(), `x_ids: "f32[s0, 3]", x_mask: "f32[s0, 3]"`, "%#v", dims)
	}
}

// TestRegisterErrors: Register refuses what cannot be a pytree node.
func TestRegisterErrors(t *testing.T) {
	type tensorField struct{ T *tensor.Tensor }
	type dup struct {
		A nn.Value `pytree:"a"`
		B nn.Value `pytree:"a"`
	}
	assert.EqualError(t, export.Register[int]("x.Int"), "export: Register: int is not a struct type")
	assert.EqualError(t, export.Register[tensorField]("x.T"), "export: Register: export_test.tensorField.T has type *tensor.Tensor, which cannot hold a traced value: use nn.Value (or a bool, int, float or string constant)")
	assert.EqualError(t, export.Register[dup]("x.Dup"), `export: Register: export_test.dup: two fields are named "a"`)
	assert.EqualError(t, export.Register[Unregistered]("gofx_test.Pair"), "export: Register: export_test.Unregistered: the name gofx_test.Pair is taken by export_test.Pair")
	assert.EqualError(t, export.Register[Pair]("other.Pair"), "export: Register: export_test.Pair is registered as gofx_test.Pair")
	assert.EqualError(t, export.Register[Unregistered]("builtins.dict"), "export: Register: export_test.Unregistered: builtins.dict is a builtin pytree type")
	assert.NoError(t, export.Register[Pair]("gofx_test.Pair"), "registering again under the same name is a no-op")
}

// TestExportPytreeDims: a nested leaf's dynamic dims are declared by its
// placeholder name, Auto included.
func TestExportPytreeDims(t *testing.T) {
	m := &sumAll{}
	m.Init(m, "SumAll")
	in := map[string]any{"a": onesF(3, 2), "b": []any{onesF(5)}}
	n := export.Dim("n", 2, 16)
	ep, err := export.Export(m, []any{in}, export.Dims{"x_a": {0: n}, "x_b_0": {0: export.Auto}})
	require.NoError(t, err)
	assert.Equal(t, 2, len(ep.RangeConstraints), "%v", ep.RangeConstraints)
	out, err := ep.Call([]any{map[string]any{"a": onesF(7, 2), "b": []any{onesF(9)}}}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{23}, out.(*tensor.Tensor).Float64s())
	_, err = ep.Call([]any{map[string]any{"a": onesF(17, 2), "b": []any{onesF(9)}}}, nil)
	assert.ErrorContains(t, err, "export: input x_a dim 0: size 17 is outside the range [2, 16]")
}

// TestExportPytreeOutputs: dict and struct outputs come back in their
// structure from Run and Call.
func TestExportPytreeOutputs(t *testing.T) {
	m := &structOut{}
	m.Init(m, "StructOut")
	ep, err := export.Export(m, []any{onesF(2)}, nil)
	require.NoError(t, err)
	assert.Equal(t, "TreeSpec(dict, ['p', 'none'], [TreeSpec(Pair, [['a', 'scale'], ['b']], [*, *]), *])", ep.OutSpec().String())
	res, err := ep.Run(onesF(2))
	require.NoError(t, err)
	p := res.Get("p").Any().(*Pair)
	assert.Equal(t, []float64{2, 2}, p.A.MustTensor().Float64s())
	assert.True(t, p.B.IsNone())
	assert.Equal(t, 3.0, p.Scale)
	out, err := ep.Call([]any{onesF(2)}, nil)
	require.NoError(t, err)
	assert.Nil(t, out.(map[string]any)["none"])
	p = out.(map[string]any)["p"].(*Pair)
	assert.Equal(t, []float64{2, 2}, p.A.MustTensor().Float64s())
}

type structOut struct{ nn.Base }

func (m *structOut) Forward(x nn.Value) nn.Value {
	return nn.Dict([]string{"p", "none"}, nn.Object(&Pair{A: x.Mul(2.0), Scale: 3}), nn.None)
}
