package export_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/internal/golden"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

// zooModel returns a zoo model loaded with PyTorch's weights and its
// recorded cases, from testdata or ../shared/models (resnet18).
func zooModel(t *testing.T, name string) (nn.Module, *models.IO) {
	t.Helper()
	dir := "../testdata/models"
	if _, err := os.Stat(filepath.Join(dir, name+".io.json")); err != nil {
		dir = "../../shared/models"
		if _, err := os.Stat(filepath.Join(dir, name+".io.json")); err != nil {
			t.Skipf("%s: reference files absent (looked in testdata/models and ../shared/models)", name)
		}
	}
	sd, err := torchio.Load(filepath.Join(dir, name+".state_dict.pt"))
	require.NoError(t, err)
	io, err := models.ReadIO(filepath.Join(dir, name+".io.json"))
	require.NoError(t, err)
	spec, err := models.Lookup(name)
	require.NoError(t, err)
	m, err := models.Fresh(spec, sd)
	require.NoError(t, err)
	return m, io
}

func args(vs []nn.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = nn.Tensor(v.MustTensor().Clone())
	}
	return out
}

// TestSeedExamplesPrint checks the printed programs of the torch.export
// documentation's examples against golden files.
func TestSeedExamplesPrint(t *testing.T) {
	for _, tc := range []struct {
		model string
		dims  func() export.Dims
		kw    bool
	}{
		{model: "export_doc_f"},
		{model: "export_doc_conv", kw: true},
		{model: "export_doc_branches", dims: func() export.Dims {
			batch := export.Dim("batch", 2, export.Inf)
			return export.Dims{"x1": {0: batch}, "x2": {0: batch}}
		}},
		{model: "export_doc_mutation"},
	} {
		t.Run(tc.model, func(t *testing.T) {
			m, io := zooModel(t, tc.model)
			var dims export.Dims
			if tc.dims != nil {
				dims = tc.dims()
			}
			in := args(io.Cases[0].Inputs)
			var opts []export.Option
			if tc.kw {
				// export_doc_conv's forward(x, constant=None): pass constant by name.
				opts = append(opts, export.Kwargs(map[string]any{"constant": in[1]}))
				in = in[:1]
			}
			ep, err := export.Export(m, in, dims, opts...)
			require.NoError(t, err)
			golden.Check(t, filepath.Join("testdata", tc.model+".txt"), stripPaths(ep.String()))
		})
	}
}

// stripPaths removes machine-dependent absolute paths.
func stripPaths(s string) string {
	wd, _ := os.Getwd()
	return strings.ReplaceAll(s, filepath.Dir(wd)+"/", "")
}

// TestZooCases runs every zoo model's recorded cases through Export (with
// the model's dynamic dims) and RunDecompositions, comparing with
// PyTorch's outputs.
func TestZooCases(t *testing.T) {
	for _, name := range models.Names() {
		t.Run(name, func(t *testing.T) {
			m, io := zooModel(t, name)
			spec, _ := models.Lookup(name)
			ep, err := models.Export(spec, m, io.Cases[0].Inputs)
			require.NoError(t, err)
			require.NoError(t, decomp.Verify(ep.Graph), "the verifier must pass on every exported program")
			dec, err := ep.RunDecompositions(decomp.Extra())
			require.NoError(t, err)
			require.NoError(t, decomp.Verify(dec.Graph))
			require.NoError(t, dec.Graph.Lint())
			for _, p := range []*export.ExportedProgram{ep, dec} {
				for i, c := range io.Cases {
					if name == "resnet18" && testing.Short() && i > 0 {
						break
					}
					// Buffers mutate: start each case from the recorded state.
					fresh, _ := zooModel(t, name)
					p2, err := models.Export(spec, fresh, io.Cases[0].Inputs)
					require.NoError(t, err)
					if p == dec {
						p2, err = p2.RunDecompositions(decomp.Extra())
						require.NoError(t, err)
					}
					out, err := p2.Run(args(c.Inputs)...)
					require.NoError(t, err, "case %d", i)
					got := models.Flatten(out)
					require.Len(t, got, len(c.Outputs))
					for j := range got {
						assert.True(t, tensor.AllClose(got[j].MustTensor(), c.Outputs[j].MustTensor(), 0, spec.Tol, false), "case %d output %d", i, j)
					}
				}
			}
		})
	}
}

// TestMutationWritesBack checks export_doc_mutation: my_buffer2 is a
// buffer mutation and is updated after every call as PyTorch does (4 then
// 5, 6, ...; io.json records 5 after one call).
func TestMutationWritesBack(t *testing.T) {
	m, io := zooModel(t, "export_doc_mutation")
	ep, err := export.Export(m, args(io.Cases[0].Inputs), nil)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{ep.Signature.Outputs[0].Name: "my_buffer2"}, ep.Signature.BuffersToMutate())
	var kinds []string
	for _, in := range ep.Signature.Inputs {
		kinds = append(kinds, in.Kind.String()+" "+in.Name+" "+in.Target)
	}
	assert.Equal(t, []string{
		"PARAMETER p_my_parameter my_parameter", "BUFFER b_my_buffer1 my_buffer1",
		"BUFFER b_my_buffer2 my_buffer2", "USER_INPUT x1 ", "USER_INPUT x2 ",
	}, kinds)
	want := []float64{5, 6, 7}
	for i, w := range want {
		_, err := ep.Run(args(io.Cases[0].Inputs)...)
		require.NoError(t, err)
		assert.Equal(t, []float64{w}, ep.StateDict()["my_buffer2"].Float64s(), "after call %d", i+1)
	}
	// The first call's output used the buffer's value before the update.
	m2, io2 := zooModel(t, "export_doc_mutation")
	ep2, err := export.Export(m2, args(io2.Cases[0].Inputs), nil)
	require.NoError(t, err)
	out, err := ep2.Run(args(io2.Cases[0].Inputs)...)
	require.NoError(t, err)
	assert.True(t, tensor.AllClose(out.MustTensor(), io2.Cases[0].Outputs[0].MustTensor(), 0, 1e-6, false))

	// Module() writes the buffer back with copy_ too.
	m3, io3 := zooModel(t, "export_doc_mutation")
	ep3, err := export.Export(m3, args(io3.Cases[0].Inputs), nil)
	require.NoError(t, err)
	gm, err := ep3.Module()
	require.NoError(t, err)
	assert.Len(t, gm.Graph.FindNodes(node.CallFunction, nn.Op("aten::copy_")), 1)
	out, err = gm.Run(io3.Cases[0].Inputs...)
	require.NoError(t, err)
	assert.True(t, tensor.AllClose(out.MustTensor(), io3.Cases[0].Outputs[0].MustTensor(), 0, 1e-6, false))
	assert.Equal(t, []float64{5}, ep3.StateDict()["my_buffer2"].Float64s())
}

// TestBranchesSharedBatch checks export_doc_branches with one dynamic
// batch shared by both inputs: batch 32 and 7 run, different batches for
// x1 and x2 are refused, as are sizes outside the range.
func TestBranchesSharedBatch(t *testing.T) {
	m, io := zooModel(t, "export_doc_branches")
	batch := export.Dim("batch", 2, 64)
	ep, err := export.Export(m, args(io.Cases[0].Inputs), export.Dims{"x1": {0: batch}, "x2": {0: batch}})
	require.NoError(t, err)
	assert.Equal(t, [][]export.InputDim{{{Input: "x1", Dim: 0}, {Input: "x2", Dim: 0}}}, ep.EqualityConstraints)
	assert.Equal(t, "[2, 64]", ep.RangeConstraints["s0"].String())
	for _, c := range io.Cases {
		_, err := ep.Run(args(c.Inputs)...)
		require.NoError(t, err)
	}
	x1, _ := tensor.New(tensor.Float32, 7, 64)
	x2, _ := tensor.New(tensor.Float32, 8, 128)
	_, err = ep.Run(x1, x2)
	var ie *export.InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "x2", ie.Input)
	assert.EqualError(t, err, "export: input x2 dim 0: size 8 differs from x1.shape[0] = 7, which shares dimension batch (s0)")
	big1, _ := tensor.New(tensor.Float32, 65, 64)
	big2, _ := tensor.New(tensor.Float32, 65, 128)
	_, err = ep.Run(big1, big2)
	assert.EqualError(t, err, "export: input x1 dim 0: size 65 is outside the range [2, 64] of dimension batch (s0)")
	bad, _ := tensor.New(tensor.Float32, 7, 63)
	_, err = ep.Run(bad, x2)
	assert.EqualError(t, err, "export: input x1 dim 1: expected size 64 (static), got 63")
	f64, _ := tensor.New(tensor.Float64, 7, 64)
	_, err = ep.Run(f64, x2)
	assert.EqualError(t, err, "export: input x1: expected dtype float32, got float64")
	_, err = ep.Run(x1)
	assert.ErrorContains(t, err, "takes 2 inputs (x1, x2), got 1")

	// Separate dimensions for x1 and x2 are fine for this model (the
	// branches never meet), and then different batches run.
	m2, _ := zooModel(t, "export_doc_branches")
	ep2, err := export.Export(m2, args(io.Cases[0].Inputs), export.Dims{"x1": {0: export.Dim("b1", 2, 64)}, "x2": {0: export.Dim("b2", 2, 64)}})
	require.NoError(t, err)
	_, err = ep2.Run(x1, x2)
	require.NoError(t, err)
}

// shapeBranch has a Go branch on the batch size.
type shapeBranch struct{ nn.Base }

func newShapeBranch() *shapeBranch {
	m := &shapeBranch{}
	m.Init(m, "ShapeBranch")
	return m
}

func (m *shapeBranch) Forward(x nn.Value) nn.Value {
	if x.Shape().Index(0).Gt(4).Bool() { // the line the guard names
		return x.Mul(2)
	}
	return x.Add(1)
}

// TestShapeDependentBranch checks that a branch on a static size
// specializes silently, and that the same branch on a dynamic dimension
// makes Export fail with the guard, the Go line and a corrected spec.
func TestShapeDependentBranch(t *testing.T) {
	x, _ := tensor.New(tensor.Float32, 8, 3)
	ep, err := export.Export(newShapeBranch(), []any{x}, nil)
	require.NoError(t, err)
	assert.Len(t, ep.Graph.FindNodes(node.CallFunction, nn.Op("aten::mul.Tensor")), 1)
	assert.Empty(t, ep.Graph.FindNodes(node.CallFunction, nn.Op("aten::add.Tensor")))

	_, err = export.Export(newShapeBranch(), []any{x}, export.Dims{"x": {0: export.Dim("batch", 2, 64)}})
	var ge *export.GuardError
	require.ErrorAs(t, err, &ge)
	require.Len(t, ge.Violations, 1)
	assert.Equal(t, "s0 > 4", ge.Violations[0].Guard.Cond.String())
	assert.Contains(t, ge.Violations[0].Guard.Where, "export_test.go:")
	assert.Contains(t, err.Error(), "dimension batch (s0) must be > 4")
	assert.Contains(t, err.Error(), `export.Dims{"x": {0: export.Dim("batch", 5, 64)}}`)

	// The corrected spec exports.
	_, err = export.Export(newShapeBranch(), []any{x}, ge.Suggested)
	require.NoError(t, err)
}

// loop adds x to itself n times: n is an int input, burned in.
type loop struct{ nn.Base }

func newLoop() *loop {
	m := &loop{}
	m.Init(m, "Loop")
	return m
}

func (m *loop) ArgNames() []string { return []string{"x", "n"} }

func (m *loop) Forward(x, n nn.Value) nn.Value {
	y := x
	for i := int64(0); i < n.Int(); i++ {
		y = y.Add(x)
	}
	return y
}

// TestIntInputBurnedIn checks that a non-tensor input is specialized: the
// loop over it is unrolled and a call with another value is refused.
func TestIntInputBurnedIn(t *testing.T) {
	x, _ := tensor.FromFloat64s(tensor.Float32, []float64{1, 2}, 2)
	ep, err := export.Export(newLoop(), []any{x, 3}, nil)
	require.NoError(t, err)
	assert.Len(t, ep.Graph.FindNodes(node.CallFunction, nn.Op("aten::add.Tensor")), 3)
	// As torch.export (kwargs_scalars.ep.txt: "steps" is a USER_INPUT
	// ConstantArgument of value 3), the int keeps a placeholder, which
	// the graph does not use.
	assert.Equal(t, []string{"x", "n"}, ep.Signature.UserInputs())
	assert.Equal(t, int64(3), ep.Signature.Inputs[len(ep.Signature.Inputs)-1].Value)
	out, err := ep.Run(x, 3)
	require.NoError(t, err)
	assert.Equal(t, []float64{4, 8}, out.MustTensor().Float64s())
	_, err = ep.Run(x, 4)
	assert.EqualError(t, err, "export: input n: the program was exported with the value 3, which was specialized into the graph; got 4")
}

// TestBadSpecs checks that invalid dynamic specs name the input, the dim
// and what is wrong.
func TestBadSpecs(t *testing.T) {
	m, io := zooModel(t, "export_doc_branches")
	in := args(io.Cases[0].Inputs)
	b := export.Dim("batch", 2, 64)
	for _, tc := range []struct {
		name string
		dims export.Dims
		want string
	}{
		{"unknown input", export.Dims{"y": {0: b}}, `export: dynamic dims: input "y": no such input (inputs: x1, x2)`},
		{"dim out of range", export.Dims{"x1": {2: b}}, `export: dynamic dims: input "x1" dim 2: dimension out of range: the input has 2 dims (shape [32 64])`},
		{"min > max", export.Dims{"x1": {0: export.Dim("batch", 10, 3)}}, `export: dynamic dims: input "x1" dim 0: dimension batch has min 10 > max 3`},
		{"example outside range", export.Dims{"x1": {0: export.Dim("batch", 2, 16)}}, `export: dynamic dims: input "x1" dim 0: the example size 32 is outside dimension batch's range [2, 16]`},
		{"conflicting equalities", export.Dims{"x1": {0: b, 1: b}}, `export: dynamic dims: input "x1" dim 1: the example has size 64, but input "x1" dim 0, which shares dimension batch, has size 32`},
		{"conflicting names", export.Dims{"x1": {0: b}, "x2": {0: export.Dim("batch", 2, 32)}}, `export: dynamic dims: input "x2" dim 0: conflicting Dimensions named batch: [2, 64] and [2, 32]; share one *Dimension to make sizes equal`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := export.Export(m, in, tc.dims)
			var se *export.SpecError
			require.ErrorAs(t, err, &se)
			assert.EqualError(t, err, tc.want)
		})
	}
	one, _ := tensor.New(tensor.Float32, 1, 64)
	x2, _ := tensor.New(tensor.Float32, 1, 128)
	_, err := export.Export(m, []any{one, x2}, export.Dims{"x1": {0: export.Dim("batch", 1, 64)}})
	assert.ErrorContains(t, err, "sizes 0 and 1 are specialized")
	_, err = export.Export(nil, nil, nil)
	assert.EqualError(t, err, "export: nil module")
}

// dataDependent branches on tensor data.
type dataDependent struct{ nn.Base }

func (m *dataDependent) Forward(x nn.Value) nn.Value {
	if x.Sum().Gt(0).Bool() {
		return x
	}
	return x.Neg()
}

func TestDataDependentControlFlow(t *testing.T) {
	m := &dataDependent{}
	m.Init(m, "DataDependent")
	x, _ := tensor.New(tensor.Float32, 2)
	_, err := export.Export(m, []any{x}, nil)
	var de *fx.TraceError
	require.ErrorAs(t, err, &de)
	assert.Contains(t, err.Error(), "export_test.go:")
	assert.Contains(t, err.Error(), "F.Where")
}

// viewMutation writes into a view.
type viewMutation struct{ nn.Base }

func (m *viewMutation) Forward(x nn.Value) nn.Value {
	v := x.View(-1)
	v.Add_(1)
	return x
}

// TestMutationThroughView: a write through a view is functionalized as
// torch.export does (it was refused before issue 14): x.view(-1).add_(1)
// writes x, a user input mutation, and the output x sees it.
func TestMutationThroughView(t *testing.T) {
	m := &viewMutation{}
	m.Init(m, "ViewMutation")
	x, _ := tensor.New(tensor.Float32, 2, 2)
	ep, err := export.Export(m, []any{x}, nil)
	require.NoError(t, err)
	assert.Equal(t, export.UserInputMutation, ep.Signature.Outputs[0].Kind)
	y, _ := tensor.New(tensor.Float32, 2, 2)
	out, err := ep.Run(y)
	require.NoError(t, err)
	assert.Equal(t, []float64{1, 1, 1, 1}, out.MustTensor().Float64s())
	assert.Equal(t, []float64{1, 1, 1, 1}, y.Float64s())
}

// inputMutation mutates its input in place.
type inputMutation struct{ nn.Base }

func (m *inputMutation) Forward(x nn.Value) nn.Value {
	x.Mul_(2)
	return F.ReLU(x)
}

func TestUserInputMutation(t *testing.T) {
	m := &inputMutation{}
	m.Init(m, "InputMutation")
	x, _ := tensor.FromFloat64s(tensor.Float32, []float64{-1, 3}, 2)
	ep, err := export.Export(m, []any{x.Clone()}, nil)
	require.NoError(t, err)
	require.Len(t, ep.Signature.Outputs, 2)
	assert.Equal(t, export.UserInputMutation, ep.Signature.Outputs[0].Kind)
	assert.Equal(t, "x", ep.Signature.Outputs[0].Target)
	out, err := ep.Run(x)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 6}, out.MustTensor().Float64s())
	assert.Equal(t, []float64{-2, 6}, x.Float64s(), "the input is written back")
}

// TestOpCountsAgainstPyTorch compares each zoo model's exported operator
// counts (statically shaped, as PyTorch 1.13's make_fx traced them) with
// ../shared/models/*.aten.json, undecomposed against Export and decomposed
// against RunDecompositions(decomp.Extra()). Every difference is listed in
// testdata/op_counts/NAME.golden and explained in README.md ("Export").
func TestOpCountsAgainstPyTorch(t *testing.T) {
	for _, name := range models.Names() {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("../testdata/models", name+".aten.json")
			if _, err := os.Stat(path); err != nil {
				path = filepath.Join("../../shared/models", name+".aten.json")
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Skipf("%s.aten.json absent (looked in testdata/models and ../shared/models): %v", name, err)
			}
			var ref struct {
				OpCounts     map[string]int `json:"op_counts"`
				Undecomposed struct {
					OpCounts map[string]int `json:"op_counts"`
				} `json:"undecomposed"`
			}
			require.NoError(t, json.Unmarshal(raw, &ref))
			m, io := zooModel(t, name)
			ep, err := export.Export(m, args(io.Cases[0].Inputs), nil)
			require.NoError(t, err)
			dec, err := ep.RunDecompositions(decomp.Extra())
			require.NoError(t, err)
			var b strings.Builder
			fmt.Fprintf(&b, "%s\n", name)
			diff(&b, "  export vs undecomposed", counts(ep), ref.Undecomposed.OpCounts)
			diff(&b, "  decomposed vs decomposed", counts(dec), ref.OpCounts)
			golden.Check(t, filepath.Join("testdata", "op_counts", name+".golden"), b.String())
		})
	}
}

func counts(ep *export.ExportedProgram) map[string]int {
	out := map[string]int{}
	for n := range ep.Graph.Nodes() {
		if n.Op() != node.CallFunction {
			continue
		}
		out[n.Function().String()]++
	}
	return out
}

func diff(b *strings.Builder, title string, got, want map[string]int) {
	keys := map[string]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	var ks []string
	for k := range keys {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var lines []string
	for _, k := range ks {
		if got[k] != want[k] {
			lines = append(lines, fmt.Sprintf("    %-45s gofx %3d  pytorch %3d", k, got[k], want[k]))
		}
	}
	if len(lines) == 0 {
		fmt.Fprintf(b, "%s: equal\n", title)
		return
	}
	fmt.Fprintf(b, "%s:\n%s\n", title, strings.Join(lines, "\n"))
}

// slicer indexes its input as Python does: x[0:2, ..., None] then [:, 1].
type slicer struct{ nn.Base }

func (m *slicer) Forward(x nn.Value) nn.Value {
	y := x.Index(nn.Slice(0, 2), nn.Ellipsis, nn.None)
	return y.Index(nn.Slice(), 1).Add(x.Index(0).Index(1, nn.None))
}

// TestSlicing exports Python-style indexing (slices, Ellipsis, None, ints)
// to core ATen slice/select/unsqueeze nodes and runs the program with the
// eager result (the eager indexing is checked against PyTorch's semantics
// in nn's tests).
func TestSlicing(t *testing.T) {
	m := &slicer{}
	m.Init(m, "Slicer")
	vals := make([]float64, 24)
	for i := range vals {
		vals[i] = float64(i)
	}
	x := tensor.Must(tensor.FromFloat64s(tensor.Float32, vals, 3, 2, 4))
	want, err := nn.Run(m, nn.Tensor(x))
	require.NoError(t, err)
	ep, err := export.Export(m, []any{x}, nil)
	require.NoError(t, err)
	ops := map[string]int{}
	for n := range ep.Graph.Nodes() {
		if n.Op() == node.CallFunction {
			ops[n.Function().String()]++
		}
	}
	assert.Positive(t, ops["aten.slice.Tensor"], "slices: %v", ops)
	assert.Positive(t, ops["aten.select.int"], "selects: %v", ops)
	assert.Positive(t, ops["aten.unsqueeze.default"], "None: %v", ops)
	got, err := ep.Run(x)
	require.NoError(t, err)
	assert.Equal(t, want.MustTensor().Shape(), got.MustTensor().Shape())
	assert.Equal(t, want.MustTensor().Float64s(), got.MustTensor().Float64s())
}
