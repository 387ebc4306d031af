package nn_test

import (
	"archive/zip"
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// scaledSoftplus is the custom operator of ../shared/pt2/custom_op.pt2.
const scaledSoftplus = "gofxtest::scaled_softplus(Tensor x, float beta) -> Tensor"

// defineScaledSoftplus registers the custom operator once.
func defineScaledSoftplus(t *testing.T) {
	t.Helper()
	if _, ok := ops.Global().Lookup("gofxtest::scaled_softplus"); ok {
		return
	}
	_, err := ops.Define(scaledSoftplus, nil, nil, 0)
	require.NoError(t, err)
}

func TestLookupTarget(t *testing.T) {
	op := func(name string) node.Function {
		o, ok := ops.Global().Lookup(name)
		require.True(t, ok, name)
		return o
	}
	tests := []struct {
		name  string
		want  node.Function
		short string
	}{
		{"torch.ops.aten.conv2d.default", op("aten::conv2d"), "conv2d"},
		{"torch.ops.aten.add.Tensor", op("aten::add.Tensor"), "add"},
		{"torch.ops.aten._assert_scalar.default", op("aten::_assert_scalar"), "_assert_scalar"},
		{"torch.ops.aten.scaled_dot_product_attention.default", op("aten::scaled_dot_product_attention"), "scaled_dot_product_attention"},
		{"torch.ops.quantized_decomposed.quantize_per_tensor.default", op("quantized_decomposed::quantize_per_tensor"), "quantize_per_tensor"},
		{"torch.ops.higher_order.cond", nn.CondOp, "cond"},
		{"torch.ops.higher_order.while_loop", nn.WhileLoopOp, "while_loop"},
		{"torch.ops.higher_order.map_impl", nn.MapImplOp, "map_impl"},
		{"_operator.mul", nn.OperatorMul, "mul"},
		{"_operator.floordiv", nn.OperatorFloorDiv, "floordiv"},
		{"_operator.getitem", nn.GetItem, "getitem"},
		{"operator.getitem", nn.GetItem, "getitem"},
		{"_operator.and_", nn.OperatorAnd, "and_"},
		{"torch.sym_max", nn.SymMax, "sym_max"},
		{"torch.sym_not", nn.SymNot, "sym_not"},
		{"torch.sym_float", nn.SymFloat, "sym_float"},
		{"torch._sym_sqrt", nn.SymSqrt, "sym_sqrt"},
		{"math.trunc", nn.MathTrunc, "trunc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := node.LookupTarget(tt.name)
			require.NoError(t, err)
			assert.Same(t, tt.want, got)
			assert.Equal(t, tt.short, got.ShortName())
			if tt.name != "torch._sym_sqrt" && tt.name != "operator.getitem" {
				assert.Equal(t, tt.name, node.TorchName(got), "TorchName is the inverse")
			}
		})
	}
}

func TestLookupTargetErrors(t *testing.T) {
	for _, name := range []string{
		"torch.ops.aten.no_such_op.default",
		"torch.ops.aten.add.NoSuchOverload",
		"torch.ops.mylib.missing.default",
		"torch.ops.higher_order.no_such_hop",
		"_operator.lshift",
		"torch.sym_nothing",
		"",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := node.LookupTarget(name)
			require.Error(t, err)
			assert.ErrorContains(t, err, name)
		})
	}
	_, err := node.LookupTarget("torch.ops.mylib.missing.default")
	assert.ErrorContains(t, err, "ops.Define")
}

func TestLookupTargetCustomOp(t *testing.T) {
	name := "torch.ops.gofxtest.scaled_softplus.default"
	if _, ok := ops.Global().Lookup("gofxtest::scaled_softplus"); !ok {
		_, err := node.LookupTarget(name)
		require.Error(t, err)
		assert.ErrorContains(t, err, name)
		assert.ErrorContains(t, err, "ops.Define")
	}
	defineScaledSoftplus(t)
	f, err := node.LookupTarget(name)
	require.NoError(t, err)
	assert.Equal(t, "gofxtest.scaled_softplus.default", f.String())
	assert.Equal(t, name, node.TorchName(f))
}

// TestHigherOrderNames: the higher-order operators print as torch does.
func TestHigherOrderNames(t *testing.T) {
	for _, f := range []*node.Func{nn.CondOp, nn.WhileLoopOp, nn.MapImplOp} {
		assert.Equal(t, "torch.ops."+f.String(), f.PythonName())
		_, ok := nn.LookupFunctionImpl(f)
		assert.True(t, ok)
	}
}

func TestSymFunctions(t *testing.T) {
	tests := []struct {
		fn   *node.Func
		args []any
		want any
	}{
		{nn.SymMax, []any{3, 5}, int64(5)},
		{nn.SymMax, []any{3, 2.5}, 3.0},
		{nn.SymMin, []any{3, 5}, int64(3)},
		{nn.SymMin, []any{-1.5, 5}, -1.5},
		{nn.SymNot, []any{true}, false},
		{nn.SymNot, []any{0}, true},
		{nn.SymFloat, []any{7}, 7.0},
		{nn.SymInt, []any{-2.7}, int64(-2)},
		{nn.SymSqrt, []any{16}, 4.0},
		{nn.SymIte, []any{true, 1, 2}, int64(1)},
		{nn.SymIte, []any{false, 1, 2}, int64(2)},
		{nn.MathTrunc, []any{2.9}, int64(2)},
		{nn.OperatorPos, []any{-4}, int64(-4)},
		{nn.OperatorAnd, []any{6, 3}, int64(2)},
		{nn.OperatorAnd, []any{true, false}, false},
		{nn.OperatorOr, []any{4, 1}, int64(5)},
	}
	for _, tt := range tests {
		impl, ok := nn.LookupFunctionImpl(tt.fn)
		require.True(t, ok, tt.fn.String())
		var args []nn.Value
		for _, a := range tt.args {
			args = append(args, nn.Of(a))
		}
		got, err := impl(args, nil)
		require.NoError(t, err, tt.fn.String())
		assert.Equal(t, tt.want, got.Raw(), "%s%v", tt.fn, tt.args)
	}
	impl, _ := nn.LookupFunctionImpl(nn.SymMax)
	_, err := impl([]nn.Value{nn.Of(1)}, nil)
	assert.ErrorContains(t, err, "torch.sym_max takes 2 arguments")
}

// TestLookupTargetPT2: every call_function target of the programs PyTorch
// 2.6 and 2.14 saved resolves: those listed in testdata, and those of the
// files themselves when ../shared is beside the repository.
func TestLookupTargetPT2(t *testing.T) {
	defineScaledSoftplus(t)
	f, err := os.Open("testdata/pt2_targets.txt")
	require.NoError(t, err)
	defer f.Close()
	var listed []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			listed = append(listed, line)
		}
	}
	require.NotEmpty(t, listed)
	for _, name := range listed {
		_, err := node.LookupTarget(name)
		assert.NoError(t, err, name)
	}
	var files []string
	for _, dir := range []string{"../../shared/pt2", "../../../shared/pt2"} {
		files, _ = filepath.Glob(filepath.Join(dir, "*.pt2"))
		more, _ := filepath.Glob(filepath.Join(dir, "torch-2.14", "*.pt2"))
		files = append(files, more...)
		if len(files) > 0 {
			break
		}
	}
	if len(files) == 0 {
		t.Skip("../shared/pt2/*.pt2 is absent: checked the targets of testdata/pt2_targets.txt only")
	}
	found := map[string]bool{}
	for _, file := range files {
		for _, name := range pt2Targets(t, file) {
			found[name] = true
			_, err := node.LookupTarget(name)
			assert.NoError(t, err, "%s in %s", name, file)
		}
	}
	var names []string
	for n := range found {
		names = append(names, n)
	}
	sort.Strings(names)
	assert.Equal(t, listed, names, "testdata/pt2_targets.txt lists the files' targets")
}

// pt2Targets returns the node targets of the serialized programs in a .pt2
// file of either container (serialized_exported_program.json, or
// models/*.json of the PT2 archive).
func pt2Targets(t *testing.T, file string) []string {
	zr, err := zip.OpenReader(file)
	require.NoError(t, err, file)
	defer zr.Close()
	var out []string
	for _, zf := range zr.File {
		if !strings.HasSuffix(zf.Name, "serialized_exported_program.json") &&
			!(strings.Contains(zf.Name, "/models/") && strings.HasSuffix(zf.Name, ".json")) {
			continue
		}
		rc, err := zf.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(rc)
		rc.Close()
		require.NoError(t, err)
		var doc any
		require.NoError(t, json.Unmarshal(b, &doc), "%s: %s", file, zf.Name)
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case map[string]any:
				if target, ok := x["target"].(string); ok {
					if _, isNode := x["inputs"]; isNode {
						out = append(out, target)
					}
				}
				for _, e := range x {
					walk(e)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		walk(doc)
	}
	return out
}

// FuzzLookupTarget: any name resolves or fails with an error naming it;
// nothing panics, and a resolved operator's TorchName resolves to it again.
func FuzzLookupTarget(f *testing.F) {
	b, err := os.ReadFile("testdata/pt2_targets.txt")
	require.NoError(f, err)
	for _, line := range strings.Split(string(b), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			f.Add(line)
		}
	}
	f.Add("torch.ops.aten.add")
	f.Add("torch.ops.")
	f.Add("torch.ops.a.b.c.d")
	f.Add("_operator.")
	f.Fuzz(func(t *testing.T, name string) {
		fn, err := node.LookupTarget(name)
		if err != nil {
			if !strings.Contains(err.Error(), name) && !strings.Contains(err.Error(), strconv.Quote(name)) {
				t.Fatalf("error %q does not name %q", err, name)
			}
			return
		}
		back, err := node.LookupTarget(node.TorchName(fn))
		if err != nil || back != fn {
			t.Fatalf("%q resolves to %s, whose TorchName %q resolves to %v, %v", name, fn, node.TorchName(fn), back, err)
		}
	})
}

// TestModuleValue: a Value holds a module (what get_attr of a submodule
// gives), and gives it back.
func TestModuleValue(t *testing.T) {
	lin := nn.NewLinear(2, 2, false)
	v := nn.ModuleValue(lin)
	assert.Equal(t, "Module", v.Kind())
	assert.Same(t, nn.Module(lin), v.Module())
	assert.Equal(t, "<module Linear>", v.String())
	assert.Nil(t, nn.Tensor(nil).Module())
	assert.True(t, nn.ModuleValue(nil).IsNone())
	var nilLin *nn.Linear
	assert.True(t, nn.ModuleValue(nilLin).IsNone())
}
