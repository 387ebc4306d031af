package pt2_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
)

// xformPrograms lists the control-flow programs of ../shared/pt2 (2.6) and
// ../shared/pt2/torch-2.14, as testdata/hop holds copies of them, by a
// short name.
func xformPrograms(t *testing.T) map[string]string {
	out := map[string]string{}
	for _, dir := range []string{"", "torch-2.14"} {
		files, _ := filepath.Glob(filepath.Join("testdata", "hop", dir, "*.pt2"))
		for _, f := range files {
			out[filepath.Join(dir, strings.TrimSuffix(filepath.Base(f), ".pt2"))] = f
		}
	}
	require.NotEmpty(t, out, "testdata/hop holds the control-flow programs")
	return out
}

// checkCases runs the io.json cases beside path (PyTorch's outputs) on
// ep.
func checkCases(t *testing.T, what, path string, ep *export.ExportedProgram) {
	t.Helper()
	cases, err := pt2.ReadIO(strings.TrimSuffix(path, ".pt2") + ".io.json")
	require.NoError(t, err)
	require.NotEmpty(t, cases.Cases)
	for i := range cases.Cases {
		r := pt2.CheckCase(ep, &cases.Cases[i], pt2.Tolerance(ep))
		assert.NoError(t, r.Err, "%s: case %d", what, i)
	}
}

// roundTrip saves ep in both layouts, loads it back and checks the
// program text (subgraphs included), signature and state are the same.
func roundTrip(t *testing.T, what string, ep *export.ExportedProgram) {
	t.Helper()
	for _, f := range []pt2.Format{pt2.Legacy, pt2.Archive} {
		var buf bytes.Buffer
		require.NoError(t, pt2.Save(&buf, ep, pt2.SaveOptions{Format: f}), "%s %s", what, f)
		back, err := pt2.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		require.NoError(t, err, "%s %s", what, f)
		want, got := ep.String(), back.String()
		if f == pt2.Legacy {
			want, got = unnameSinks(ep, want), unnameSinks(back, got)
		}
		assert.Equal(t, want, got, "%s %s: program text", what, f)
		assert.Equal(t, ep.Signature, back.Signature, "%s %s: signature", what, f)
		assert.Equal(t, len(ep.Subgraphs()), len(back.Subgraphs()), "%s %s: subgraphs", what, f)
		sameState(t, what+" "+f.String()+" state", ep.StateDict(), back.StateDict())
		sameState(t, what+" "+f.String()+" constants", ep.Constants(), back.Constants())
	}
}

// TestTransformHigherOrder decomposes and optimizes every control-flow
// program, runs the results on the io.json cases (PyTorch's outputs) and
// round-trips them through both .pt2 layouts.
func TestTransformHigherOrder(t *testing.T) {
	for name, path := range xformPrograms(t) {
		t.Run(name, func(t *testing.T) {
			ep, err := pt2.Load(path)
			require.NoError(t, err)
			core, err := ep.RunDecompositions(decomp.Core())
			require.NoError(t, err)
			checkCases(t, "decomposed", path, core)
			roundTrip(t, "decomposed", core)
			opt, err := core.Transform(passes.NewManager(passes.Default()...))
			require.NoError(t, err)
			checkCases(t, "optimized", path, opt)
			roundTrip(t, "optimized", opt)
			direct, err := ep.Transform(passes.NewManager(passes.Default()...))
			require.NoError(t, err)
			checkCases(t, "optimized without decomposition", path, direct)
			roundTrip(t, "optimized without decomposition", direct)
		})
	}
}

// programOpCounts counts the call_function targets of ep's graph and
// subgraphs as ep.json counts them.
func programOpCounts(ep *export.ExportedProgram) map[string]int {
	got := opCounts(ep.Graph)
	addSubgraphCounts(got, ep.Subgraphs())
	return got
}

// TestTorchLoadsTransformedHigherOrder writes every control-flow program,
// decomposed and optimized by gofx, in the ≤ 2.7 zip for PyTorch 2.6 and
// in the PT2 archive for 2.14, and has PyTorch load them: the graph it
// loads has gofx's op counts (subgraphs included), and it runs the
// io.json cases to PyTorch's outputs. PyTorch 2.6 cannot run the
// while_loop programs it saves itself (io.json's program_error): there
// the test logs PyTorch's error and checks the graph only.
func TestTorchLoadsTransformedHigherOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PyTorch")
	}
	for _, tc := range []struct {
		format pt2.Format
		suite  string
		dir    string
	}{{pt2.Legacy, "", shared}, {pt2.Archive, "sid", filepath.Join(shared, "torch-2.14")}} {
		t.Run(tc.format.String(), func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join(tc.dir, "*.io.json"))
			var names []string
			for _, f := range files {
				base := strings.TrimSuffix(filepath.Base(f), ".io.json")
				for _, p := range []string{"cond_", "while_", "map_"} {
					if strings.HasPrefix(base, p) {
						names = append(names, base)
					}
				}
			}
			if len(names) == 0 {
				t.Skipf("no control-flow programs in %s", tc.dir)
			}
			cmd := torch2(t, tc.suite)
			out := t.TempDir()
			var pairs []string
			want := map[string]map[string]int{}
			cannotRun := map[string]string{}
			for _, base := range names {
				data, err := os.ReadFile(filepath.Join(tc.dir, base+".io.json"))
				require.NoError(t, err)
				io := filepath.Join(out, base+".io.json")
				require.NoError(t, os.WriteFile(io, data, 0o644))
				if strings.Contains(string(data), `"program_error"`) {
					cannotRun[base] = "PyTorch cannot run its own file (io.json's program_error)"
				}
				ep, err := pt2.Load(filepath.Join(tc.dir, base+".pt2"))
				require.NoError(t, err, base)
				core, err := ep.RunDecompositions(decomp.Core())
				require.NoError(t, err, base)
				opt, err := core.Transform(passes.NewManager(passes.Default()...))
				require.NoError(t, err, base)
				for suffix, p := range map[string]*export.ExportedProgram{".decomposed": core, ".optimized": opt} {
					path := filepath.Join(out, base+suffix+".pt2")
					require.NoError(t, pt2.Write(path, p, pt2.SaveOptions{Format: tc.format, ForPyTorch: true}), base+suffix)
					pairs = append(pairs, path, io)
					// gofx's fused operators (FuseEpilogues) are written
					// decomposed for PyTorch.
					forTorch, err := p.RunDecompositions(decomp.FusedOps())
					require.NoError(t, err, base+suffix)
					want[path] = programOpCounts(forTorch)
				}
			}
			res := runTorchCheck(t, cmd, pairs)
			for i := 0; i < len(pairs); i += 2 {
				path := pairs[i]
				key := strings.TrimSuffix(filepath.Base(path), ".pt2")
				base := key[:strings.IndexByte(key, '.')]
				r, ok := res[path]
				if !assert.True(t, ok, "%s: no result", key) {
					continue
				}
				if r.OpCounts == nil {
					t.Errorf("%s: PyTorch %s could not load it: %v\n%s", key, r.Torch, r.Error, r.Trace)
					continue
				}
				assert.Equal(t, want[path], r.OpCounts, "%s: the graph PyTorch %s loaded", key, r.Torch)
				switch {
				case r.Error != nil && cannotRun[base] != "":
					t.Logf("%s: %s; the graph PyTorch loaded was checked: %s", key, cannotRun[base], *r.Error)
				case r.Error != nil:
					t.Errorf("%s: PyTorch %s: %s\n%s", key, r.Torch, *r.Error, r.Trace)
				default:
					t.Logf("%s: PyTorch %s ran %d cases, max abs diff %.3g", key, r.Torch, r.Cases, r.MaxAbsDiff)
					assert.LessOrEqual(t, r.MaxAbsDiff, 1e-4, key)
					assert.Greater(t, r.Cases, 0, key)
				}
			}
		})
	}
}

// TestTransformHoistsSubgraphState: while the passes run, the state a
// cond passes to its branches is read there as state; a tensor that a pass
// leaves inside a branch (constant folding's result) then becomes an
// operand of the cond, a placeholder of both branches and a lifted
// constant of the program, as torch.export passes state into branches,
// and the parameters and buffers operands again (under their input
// names); the program still saves and loads back the same, and runs.
func TestTransformHoistsSubgraphState(t *testing.T) {
	ep, err := pt2.Load(filepath.Join("testdata", "hop", "cond_params.pt2"))
	require.NoError(t, err)
	addConst := passes.Pass{Name: "add_const", Run: func(gm *fx.GraphModule) (bool, error) {
		// Only on the true branch: x + neg(k), k a buffer of the branch.
		if gm.Graph.OutputNode() == nil || !strings.Contains(gm.Graph.Text(), "aten.relu") {
			return false, nil
		}
		gm.RegisterBuffer("k", tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8}, 8)), false)
		out := gm.Graph.OutputNode()
		res := out.Arg(0).(node.Tuple)
		restore := gm.Graph.InsertingBefore(out)
		defer restore()
		k, err := gm.Graph.GetAttr("k")
		if err != nil {
			return false, err
		}
		neg, err := gm.Graph.CallFunction(aten.Neg, []node.Arg{k}, nil)
		if err != nil {
			return false, err
		}
		add, err := gm.Graph.CallFunction(aten.AddTensor, []node.Arg{res[0], neg}, nil)
		if err != nil {
			return false, err
		}
		add.Meta = res[0].(*node.Node).Meta.Clone() // the same val: f32[s0, 8]
		return true, out.SetArgs([]node.Arg{node.Tuple{add}})
	}}
	got, err := ep.Transform(addConst, passes.FoldConstants)
	require.NoError(t, err)
	text := got.String()
	// The state goes back to operands in PyTorch's order (the file's:
	// x, p_lin1_bias, p_lin1_weight, b_scale, p_lin2_bias, p_lin2_weight),
	// the folded tensor, which the file does not have, last.
	assert.Contains(t, text, "torch.ops.higher_order.cond(flag, true_graph_0, false_graph_0, [x, p_lin1_bias, p_lin1_weight, b_scale, p_lin2_bias, p_lin2_weight, c__folded_constant_0])")
	assert.Contains(t, text, "c__folded_constant_0: CONSTANT_TENSOR target='_folded_constant_0'")
	for _, sg := range got.Subgraphs() {
		phs := sg.Graph.Placeholders()
		require.Len(t, phs, 7, sg.Name)
		assert.Equal(t, "c__folded_constant_0", phs[6].Name(), sg.Name)
		for n := range sg.Graph.Nodes() {
			assert.NotEqual(t, node.GetAttr, n.Op(), "%s: no state is read inside a subgraph", sg.Name)
		}
	}
	k := got.Constants()["_folded_constant_0"]
	require.NotNil(t, k)
	assert.Equal(t, []float64{-1, -2, -3, -4, -5, -6, -7, -8}, k.Float64s())
	roundTrip(t, "hoisted", got)

	// It runs: PyTorch's outputs (io.json) less k where the true branch
	// is taken, as they are where the false one is.
	cases, err := pt2.ReadIO(filepath.Join("testdata", "hop", "cond_params.io.json"))
	require.NoError(t, err)
	taken := 0
	for i, c := range cases.Cases {
		flag, err := c.Inputs[1].MustTensor().Item()
		require.NoError(t, err)
		if flag == true {
			taken++
			want := c.Outputs[0].MustTensor()
			vals := want.Float64s()
			out := make([]float32, len(vals))
			for j, v := range vals {
				out[j] = float32(v - float64(j%8+1))
			}
			c.Outputs = []nn.Value{nn.Tensor(tensor.Must(tensor.FromSlice(out, want.Shape()...)))}
		}
		r := pt2.CheckCase(got, &c, pt2.Tolerance(got))
		assert.NoError(t, r.Err, "case %d (flag %v)", i, flag)
	}
	assert.Positive(t, taken, "a case takes the true branch")
}

// TestTransformFoldsInsideBranches: Transform lets the passes see the
// state a cond passes to its branches as state, so constant folding
// computes the branches' permute of each linear weight once, as it does
// in a program's own graph: PyTorch's decomposed cond_params has two
// permute.default (core.op_counts), the folded one none, the weights
// become lifted constants and the biases stay parameters; it still runs
// to PyTorch's outputs.
func TestTransformFoldsInsideBranches(t *testing.T) {
	path := filepath.Join("testdata", "hop", "cond_params.pt2")
	ep, err := pt2.Load(path)
	require.NoError(t, err)
	core, err := ep.RunDecompositions(decomp.Core())
	require.NoError(t, err)
	require.Equal(t, 2, programOpCounts(core)["aten.permute.default"])
	folded, err := core.Transform(passes.FoldConstants, passes.DCE)
	require.NoError(t, err)
	counts := programOpCounts(folded)
	assert.Zero(t, counts["aten.permute.default"], "the permutes are folded")
	assert.Equal(t, 2, counts["aten.addmm.default"])
	kinds := map[string]export.InputKind{}
	for _, in := range folded.Signature.Inputs {
		kinds[in.Name] = in.Kind
	}
	assert.Equal(t, map[string]export.InputKind{
		"p_lin1_bias": export.Parameter, "p_lin2_bias": export.Parameter, "b_scale": export.Buffer,
		"c__folded_constant_0": export.ConstantTensor, "c__folded_constant_0_1": export.ConstantTensor,
		"x": export.UserInput, "flag": export.UserInput,
	}, kinds)
	checkCases(t, "folded", path, folded)
	roundTrip(t, "folded", folded)
}
