package decomp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/golden"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// checkGolden compares got with testdata/name (go test -update rewrites
// it).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

func parse(t testing.TB, text string) *graph.Graph {
	t.Helper()
	g, err := graph.Parse(text)
	require.NoError(t, err)
	return g
}

// TestVerify checks that the verifier lists every offending node, with and
// without the lifted-program option.
func TestVerify(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "verify.graph"))
	require.NoError(t, err)
	g := parse(t, string(src))
	var out strings.Builder
	for _, tc := range []struct {
		name string
		opts VerifyOptions
		bad  []string
	}{
		{"module graph", VerifyOptions{}, []string{"lin", "m", "fc", "copy", "sh"}},
		{"lifted program", VerifyOptions{Lifted: true}, []string{"w", "lin", "m", "fc", "copy", "sh"}},
	} {
		err := VerifyWith(g, tc.opts)
		var ve *VerifyError
		require.True(t, errors.As(err, &ve), tc.name)
		var names []string
		for _, b := range ve.Nodes {
			names = append(names, b.Name)
		}
		assert.Equal(t, tc.bad, names, tc.name)
		out.WriteString("== " + tc.name + "\n" + err.Error() + "\n")
	}
	checkGolden(t, "verify.golden", out.String())
	require.NoError(t, Verify(parse(t, "%x = placeholder \"x\"()\n%r = call_function aten.relu.default(%x)\n%output = output \"output\"(%r)\n")))
	require.Error(t, Verify(nil))
}

// TestDecomposeMetadata decomposes a small model graph whose inner nodes
// have no val: vals are computed forward from the placeholders', every new
// node keeps the stack_trace and nn_module_stack of the node it replaces,
// the graph lints and verifies, and it computes what the original did.
func TestDecomposeMetadata(t *testing.T) {
	text := `%x = placeholder "x"() {val: f32[2, 5, 8]}
%w = placeholder "w"() {val: f32[6, 8]}
%b = placeholder "b"() {val: f32[6]}
%lin = call_function aten.linear.default(%x, %w, %b) {stack_trace: "model.go:10 in Model.Forward\n", nn_module_stack: [("fc", "Linear")]}
%act = call_function aten.relu6.default(%lin) {stack_trace: "model.go:11 in Model.Forward\n"}
%flat = call_function aten.flatten.using_ints(%act, 1)
%sm = call_function aten.softmax.int(%flat, -1)
%output = output "output"(%sm)
`
	g := parse(t, text)
	orig := parse(t, text)
	gm, err := fx.NewGraphModule(nil, g)
	require.NoError(t, err)
	changed, err := Decompose(gm, Core())
	require.NoError(t, err)
	require.True(t, changed)
	require.NoError(t, g.Lint())
	require.NoError(t, Verify(g))
	want := map[string]struct {
		trace string
		stack []node.ModuleFrame
	}{
		"permute":  {"model.go:10 in Model.Forward\n", []node.ModuleFrame{{Path: "fc", Type: "Linear"}}},
		"view":     {"model.go:10 in Model.Forward\n", []node.ModuleFrame{{Path: "fc", Type: "Linear"}}},
		"addmm":    {"model.go:10 in Model.Forward\n", []node.ModuleFrame{{Path: "fc", Type: "Linear"}}},
		"view_1":   {"model.go:10 in Model.Forward\n", []node.ModuleFrame{{Path: "fc", Type: "Linear"}}},
		"hardtanh": {"model.go:11 in Model.Forward\n", nil},
		"view_2":   {"", nil},
		"_softmax": {"", nil},
	}
	var names []string
	for n := range g.Nodes() {
		if n.Op() != node.CallFunction {
			continue
		}
		names = append(names, n.Name())
		w, ok := want[n.Name()]
		require.True(t, ok, "unexpected node %s in\n%s", n.Name(), g)
		st, _ := node.StackTrace.Get(&n.Meta)
		ms, _ := node.ModuleStack.Get(&n.Meta)
		assert.Equal(t, w.trace, st, n.Name())
		assert.Equal(t, w.stack, ms, n.Name())
		_, hasVal := node.Val.Get(&n.Meta)
		assert.True(t, hasVal, n.Name())
	}
	assert.Equal(t, []string{"permute", "view", "addmm", "view_1", "hardtanh", "view_2", "_softmax"}, names)
	v, _ := node.Val.Get(&g.OutputNode().Arg(0).(*node.Node).Meta)
	assert.Equal(t, "f32[2, 30]", v.String())

	gen := tensor.NewGenerator(1)
	x := tensor.Must(gen.Randn(tensor.Float32, 2, 5, 8))
	w := tensor.Must(gen.Randn(tensor.Float32, 6, 8))
	b := tensor.Must(gen.Randn(tensor.Float32, 6))
	in := []nn.Value{nn.Tensor(x), nn.Tensor(w), nn.Tensor(b)}
	got, err := interp.New(g, gm).Run(in...)
	require.NoError(t, err)
	exp, err := interp.New(orig, gm).Run(in...)
	require.NoError(t, err)
	require.True(t, tensor.AllClose(exp.Tensor(), got.Tensor(), 1e-6, 1e-6, false), "%v\n%v", exp, got)
}

// TestTable checks the table operations and Call's placement and errors.
func TestTable(t *testing.T) {
	core, extra := Core(), Extra()
	both := core.With(extra)
	assert.Len(t, both, len(core)+len(extra)-5, "native_batch_norm, t, transpose.int, _unsafe_view and _reshape_alias are in both")
	r, ok := both.Lookup(aten.Hardtanh)
	require.True(t, ok)
	require.NotNil(t, r)
	_, ok = core.Lookup(aten.Hardtanh)
	assert.False(t, ok, "hardtanh is core: Core has no rule for it")
	delete(core, aten.Linear)
	_, ok = Core().Lookup(aten.Linear)
	assert.True(t, ok, "Core returns a fresh table")
	for _, op := range Core().Operators() {
		assert.False(t, op.Has(ops.Core), "%s is core: Core must not decompose it", op)
	}

	x := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	out, ok, err := Call(Core(), aten.Relu, []any{x}, nil)
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Nil(t, out)

	for _, tc := range []struct {
		name   string
		op     *ops.Operator
		args   []any
		kwargs map[string]any
		want   string
	}{
		{"missing argument", aten.Linear, []any{x}, nil, "weight"},
		{"unknown keyword", aten.Reshape, []any{x, []int64{6}}, map[string]any{"bogus": 1}, "bogus"},
		{"0-d matmul", aten.Matmul, []any{tensor.Must(tensor.NewMeta(tensor.Float32)), x}, nil, "at least 1D"},
		{"bad reshape", aten.Reshape, []any{x, []int64{4, -1}}, nil, "aten.reshape.default"},
		{"eval batch norm without stats", aten.BatchNorm, []any{x, nil, nil, nil, nil, false, 0.1, 1e-5, false}, nil, "running_mean"},
		{"flatten dims", aten.FlattenUsingInts, []any{x, int64(1), int64(0)}, nil, "start_dim cannot come after end_dim"},
		{"split size", aten.SplitTensor, []any{x, int64(-1)}, nil, "non-negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ok, err := Call(Core(), tc.op, tc.args, tc.kwargs)
			assert.True(t, ok)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	_, _, err = Call(Core(), nil, nil, nil)
	require.Error(t, err)
}

// TestDecomposeRecursive checks that an operator a rule calls is decomposed
// when the table has a rule for it, and that a rule calling its own
// operator records it.
func TestDecomposeRecursive(t *testing.T) {
	text := `%x = placeholder "x"() {val: f32[3, 4]}
%r = call_function aten.relu6.default(%x)
%output = output "output"(%r)
`
	g := parse(t, text)
	gm, err := fx.NewGraphModule(nil, g)
	require.NoError(t, err)
	_, err = Decompose(gm, Core().With(Extra()))
	require.NoError(t, err)
	assert.Equal(t, []string{"clamp"}, callNames(g), "relu6 -> hardtanh -> clamp")

	self := Table{aten.Relu: func(a []nn.Value) (nn.Value, error) {
		return nn.Apply(aten.Relu, []nn.Value{nn.CallOp(aten.Neg, nn.CallOp(aten.Neg, a[0]))}, nil)
	}}
	g = parse(t, strings.ReplaceAll(text, "relu6", "relu"))
	gm, err = fx.NewGraphModule(nil, g)
	require.NoError(t, err)
	changed, err := Decompose(gm, self)
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, []string{"neg", "neg_1", "relu"}, callNames(g))
	require.NoError(t, g.Lint())
}

func callNames(g *graph.Graph) []string {
	var out []string
	for n := range g.Nodes() {
		if n.Op() == node.CallFunction {
			out = append(out, n.Name())
		}
	}
	return out
}

// TestDecomposeStrides checks that rules see the strides of the values
// they decompose: a matmul of a transposed 3-d tensor with a matrix is not
// folded into mm (1.13's should_fold) but runs as bmm, and its result is
// what the matmul kernel computes.
func TestDecomposeStrides(t *testing.T) {
	text := `%x = placeholder "x"() {val: f32[2, 3, 4]}
%w = placeholder "w"() {val: f32[3, 5]}
%p = call_function aten.permute.default(%x, [0, 2, 1])
%m = call_function aten.matmul.default(%p, %w)
%output = output "output"(%m)
`
	g := parse(t, text)
	orig := parse(t, text)
	gm, err := fx.NewGraphModule(nil, g)
	require.NoError(t, err)
	_, err = Decompose(gm, Core())
	require.NoError(t, err)
	require.NoError(t, Verify(g))
	assert.Len(t, g.FindNodes(node.CallFunction, aten.Bmm), 1, "%s", g)
	assert.Empty(t, g.FindNodes(node.CallFunction, aten.Mm), "%s", g)
	gen := tensor.NewGenerator(2)
	in := []nn.Value{nn.Tensor(tensor.Must(gen.Randn(tensor.Float32, 2, 3, 4))), nn.Tensor(tensor.Must(gen.Randn(tensor.Float32, 3, 5)))}
	got, err := interp.New(g, gm).Run(in...)
	require.NoError(t, err)
	exp, err := interp.New(orig, gm).Run(in...)
	require.NoError(t, err)
	require.True(t, tensor.AllClose(exp.Tensor(), got.Tensor(), 1e-6, 1e-6, false))
}

// TestDecomposeErrors checks the errors of bad graphs: each names the node.
func TestDecomposeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"placeholder without val", `%x = placeholder "x"()
%f = call_function aten.flatten.using_ints(%x)
%output = output "output"(%f)
`, "placeholder x has no val"},
		{"input of an input without val", `%x = placeholder "x"()
%r = call_function aten.relu.default(%x)
%f = call_function aten.flatten.using_ints(%r)
%output = output "output"(%f)
`, "placeholder x has no val"},
		{"symbolic dims", `%x = placeholder "x"() {val: f32[s0, 4]}
%f = call_function aten.flatten.using_ints(%x)
%output = output "output"(%f)
`, "symbolic dim s0"},
		{"rule error", `%x = placeholder "x"() {val: f32[]}
%m = call_function aten.matmul.default(%x, %x)
%output = output "output"(%m)
`, "node m (aten.matmul.default)"},
		{"val disagrees", `%x = placeholder "x"() {val: f32[2, 3]}
%f = call_function aten.flatten.using_ints(%x) {val: f32[5]}
%output = output "output"(%f)
`, "the node's val is f32[5]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gm, err := fx.NewGraphModule(nil, parse(t, tc.text))
			require.NoError(t, err)
			_, err = Decompose(gm, Core())
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	_, err := Decompose(nil, Core())
	require.Error(t, err)
	gm, err := fx.NewGraphModule(nil, parse(t, "%x = placeholder \"x\"()\n%output = output \"output\"(%x)\n"))
	require.NoError(t, err)
	changed, err := Decompose(gm, Core())
	require.NoError(t, err)
	assert.False(t, changed, "nothing to decompose, no val needed")
}
