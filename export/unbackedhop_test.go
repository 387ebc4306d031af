package export_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// Data-dependent sizes inside branches and bodies, and cond results whose
// sizes differ between the branches, against PyTorch's exports of the
// same programs (testdata/unbackedhop/gen.py: NAME.ep.json by 2.6,
// NAME.2.14.ep.json by 2.14).

// unbackedHopRef is what gen.py records of one export.
type unbackedHopRef struct {
	Nodes            int                 `json:"nodes"`
	Graphs           map[string][]string `json:"graphs"`
	RangeConstraints map[string][2]any   `json:"range_constraints"`
	Outputs          [][]string          `json:"outputs"`
}

// readEagerShapes is the shapes of the outputs PyTorch's eager run of the
// module gives on the example inputs: 2.6's, or 2.14's where 2.6's eager
// run fails (map_item fails its own _check there).
func readEagerShapes(t *testing.T, file string) [][]int {
	t.Helper()
	for _, f := range []string{file, strings.Replace(file, ".ep.json", ".2.14.ep.json", 1)} {
		raw, err := os.ReadFile(filepath.Join("testdata", "unbackedhop", f))
		require.NoError(t, err)
		var doc struct {
			Eager [][]int `json:"outputs_eager"`
		}
		require.NoError(t, json.Unmarshal(raw, &doc))
		if doc.Eager != nil {
			return doc.Eager
		}
	}
	t.Fatalf("no eager run of %s", file)
	return nil
}

func readUnbackedHopRef(t *testing.T, file, part string) unbackedHopRef {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "unbackedhop", file))
	require.NoError(t, err)
	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.Contains(t, doc, part, "%s has no %q export (PyTorch refused it: %s)", file, part, doc["error"])
	var ref unbackedHopRef
	require.NoError(t, json.Unmarshal(doc[part], &ref))
	return ref
}

// graphTargets lists g's call_function targets in order, spelled as
// ep.json spells them.
func graphTargets(g *graph.Graph) []string {
	var out []string
	for n := range g.Nodes() {
		if n.Op() != node.CallFunction {
			continue
		}
		name := n.Target().String()
		if op, ok := strings.CutPrefix(name, "operator."); ok {
			name = "<built-in function " + op + ">"
		} else if op, ok := strings.CutPrefix(name, "higher_order."); ok {
			name = op
		} else if _, ok := n.Function().(*ops.Operator); !ok {
			name = "?" + name
		}
		out = append(out, name)
	}
	return out
}

func TestExportUnbackedInsideBodiesLikePyTorch(t *testing.T) {
	ones := func(shape ...int) *tensor.Tensor { return tensor.Must(tensor.Ones(tensor.Float32, shape...)) }
	sumKeep := func(v nn.Value) nn.Value { return v.Method("sum", []any{0}, true) }
	cases := []struct {
		name  string
		file  string // the reference
		part  string // "program" or "core"
		names []string
		args  []any
		dims  export.Dims
		fn    func(in []nn.Value) nn.Value
		// rename maps PyTorch's target names to gofx's where gofx's
		// Export (core ATen) records the core op of an op 2.6's program
		// keeps (item: _local_scalar_dense).
		rename map[string]string
		// drop lists targets gofx records that the reference lacks: the
		// sym_constrain_range_for_size of a size, which 2.6 records
		// (../shared/pt2/unbacked.ep.txt) and 2.14 no longer does.
		drop []string
	}{
		{
			// nonzero in both branches of a data-dependent cond: 2.6
			// records u0 and u1 in the branches, no assertion there.
			name: "cond_nonzero", file: "cond_nonzero.ep.json", part: "core",
			names: []string{"x"}, args: []any{tensor.Must(tensor.FromSlice([]float32{1, 0, 2}, 3))},
			fn: func(in []nn.Value) nn.Value {
				return F.Cond(in[0].Sum().Gt(0),
					func(o ...nn.Value) nn.Value { return sumKeep(F.Nonzero(o[0])).To(tensor.Float32) },
					func(o ...nn.Value) nn.Value { return sumKeep(F.Nonzero(o[0].Add(1))).To(tensor.Float32) }, in[0])
			},
		},
		{
			// item, checks and x[:k] in a map body (2.6's
			// run_decompositions fails on it; its export is the reference).
			name: "map_item", file: "map_item.ep.json", part: "program",
			names: []string{"xs", "n"}, args: []any{ones(2, 3), tensor.Scalar(int64(2))},
			fn: func(in []nn.Value) nn.Value {
				return F.Map(func(x nn.Value, o ...nn.Value) nn.Value {
					k := o[0].Item()
					F.CheckIsSize(k)
					F.Check(k.Le(3))
					return sumKeep(x.Index(nn.Slice(nil, k)))
				}, in[0], in[1])
			},
			rename: map[string]string{"aten.item.default": "aten._local_scalar_dense.default"},
		},
		{
			// branches of different sizes (2.6 refuses the program, 2.14
			// merges the sizes into u0 in [2, 3], asserted after getitem).
			name: "cond_diff", file: "cond_diff.2.14.ep.json", part: "core",
			names: []string{"x"}, args: []any{ones(4, 3)},
			fn: func(in []nn.Value) nn.Value {
				return F.Cond(in[0].Sum().Gt(0),
					func(o ...nn.Value) nn.Value { return o[0].Index(nn.Slice(nil, 2)).Method("clone") },
					func(o ...nn.Value) nn.Value { return o[0].Index(nn.Slice(nil, 3)).Method("clone") }, in[0])
			},
			drop: []string{"aten.sym_constrain_range_for_size.default"},
		},
		{
			// the same under a symbolic predicate: s0 vs s0 - 1 is u0 in
			// [0, int_oo].
			name: "cond_diff_sym", file: "cond_diff_sym.2.14.ep.json", part: "core",
			names: []string{"x"}, args: []any{ones(6, 3)}, dims: export.Dims{"x": {0: export.Dim("d", 4, 100)}},
			fn: func(in []nn.Value) nn.Value {
				return F.Cond(in[0].Size(0).Gt(4),
					func(o ...nn.Value) nn.Value { return o[0].Method("sin") },
					func(o ...nn.Value) nn.Value { return o[0].Index(nn.Slice(1, nil)).Method("cos") }, in[0])
			},
			drop: []string{"aten.sym_constrain_range_for_size.default"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ref := readUnbackedHopRef(t, c.file, c.part)
			ep, err := export.Export(newFnModel(c.names, c.fn), c.args, c.dims)
			require.NoError(t, err)
			t.Log(ep)
			got := map[string][]string{"<root>": graphTargets(ep.Graph)}
			for _, s := range ep.Subgraphs() {
				got[s.Name] = graphTargets(s.Graph)
			}
			want := map[string][]string{}
			for g, ts := range ref.Graphs {
				for _, tg := range ts {
					if r, ok := c.rename[tg]; ok {
						tg = r
					}
					want[g] = append(want[g], tg)
				}
			}
			for g, ts := range got {
				var kept []string
				for _, tg := range ts {
					if !strings.Contains(strings.Join(c.drop, " "), tg) {
						kept = append(kept, tg)
					}
				}
				got[g] = kept
			}
			assert.Equal(t, want, got, "call_function targets of each graph")
			// Each unbacked symbol gofx keeps has PyTorch's range
			// (PyTorch's retracing may add more symbols of the same range).
			gotU := 0
			for k, r := range ep.RangeConstraints {
				if !strings.HasPrefix(k, "u") {
					continue
				}
				gotU++
				w, ok := ref.RangeConstraints[k]
				if assert.True(t, ok, "PyTorch has no %s", k) {
					assert.Equal(t, jsonString(w[0])+".."+jsonString(w[1]), bound(r.Lo)+".."+bound(r.Hi), k)
				}
			}
			assert.NotZero(t, gotU, "unbacked symbols")
			// The outputs' shapes.
			out := ep.Graph.OutputNode().Arg(0)
			var shapes [][]string
			for _, a := range out.(node.Tuple) {
				v, _ := node.Val.Get(&a.(*node.Node).Meta)
				m := v.(interface{ Meta() node.TensorMeta }).Meta()
				var s []string
				for _, d := range m.Shape {
					s = append(s, d.String())
				}
				shapes = append(shapes, s)
			}
			assert.Equal(t, ref.Outputs, shapes, "output shapes")
			// The program runs (its runtime assertions pass) and gives
			// the shapes PyTorch's eager run gives.
			outs, err := ep.RunFlat(c.args...)
			require.NoError(t, err)
			var ran [][]int
			for _, o := range outs {
				ran = append(ran, o.Tensor().Shape())
			}
			assert.Equal(t, readEagerShapes(t, c.file), ran, "shapes of a run")
		})
	}
}

func bound(v int64) string {
	switch v {
	case sym.NegInf:
		return "null"
	case sym.Inf:
		return "null"
	}
	return jsonString(v)
}

// TestExportSumAllLikePyTorch: x.sum() (sum.default) is recorded as core
// ATen's sum.dim_IntList(x, []), as PyTorch 2.6's run_decompositions
// records it (testdata/controlflow/cond_data.ep.txt, the core program).
func TestExportSumAllLikePyTorch(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "controlflow", "cond_data.ep.txt"))
	require.NoError(t, err)
	_, core, ok := strings.Cut(string(raw), "run_decompositions")
	require.True(t, ok, "cond_data.ep.txt has no core program")
	var want string
	for _, l := range strings.Split(core, "\n") {
		if strings.Contains(l, "torch.ops.aten.sum.") {
			want = strings.TrimSpace(l)
			break
		}
	}
	require.NotEmpty(t, want)
	_, args := exampleArgs(t, "cond_data")
	ep, err := export.Export(init0(&condData{}, "CondData"), args, nil)
	require.NoError(t, err)
	assert.Contains(t, ep.String(), want)
}

// TestExportMapPytreeLikePyTorch: map over a tuple of tensors, as torch's
// map takes a pytree of xs: one map_impl whose mapped inputs are the
// leaves ([a, b]) and whose body takes a row of each, then the args, as
// PyTorch 2.6 records it (testdata/unbackedhop/map_tuple.ep.json); the
// eager run, the exported program's run and PyTorch's eager outputs agree.
func TestExportMapPytreeLikePyTorch(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "unbackedhop", "map_tuple.ep.json"))
	require.NoError(t, err)
	var doc struct {
		Program struct {
			unbackedHopRef
			Placeholders map[string][]string `json:"placeholders"`
		} `json:"program"`
		Values [][]float64 `json:"outputs_eager_values"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	a := tensor.Must(tensor.Ones(tensor.Float32, 3, 4))
	b := tensor.Must(tensor.Arange(tensor.Float32, 0, 12, 1))
	b = tensor.Must(b.Reshape(3, 4))
	y := tensor.Must(tensor.Ones(tensor.Float32, 4))
	m := newFnModel([]string{"a", "b", "y"}, func(in []nn.Value) nn.Value {
		return F.Map(func(xs nn.Value, args ...nn.Value) nn.Value {
			pq := xs.Tuple()
			return pq[0].Mul(pq[1]).Add(args[0])
		}, nn.Tuple(in[0], in[1]), in[2])
	})
	eager, err := nn.Run(m, nn.Tensor(a), nn.Tensor(b), nn.Tensor(y))
	require.NoError(t, err)
	assert.Equal(t, doc.Values[0], eager.Tensor().Float64s(), "eager")

	ep, err := export.Export(m, []any{a, b, y}, nil)
	require.NoError(t, err)
	t.Log(ep)
	got := map[string][]string{"<root>": graphTargets(ep.Graph)}
	phs := map[string][]string{"<root>": placeholderNames(ep.Graph)}
	for _, s := range ep.Subgraphs() {
		got[s.Name] = graphTargets(s.Graph)
		phs[s.Name] = placeholderNames(s.Graph)
	}
	assert.Equal(t, doc.Program.Graphs, got, "call_function targets of each graph")
	assert.Equal(t, doc.Program.Placeholders, phs, "placeholders of each graph")
	outs, err := ep.RunFlat(a, b, y)
	require.NoError(t, err)
	require.Len(t, outs, 1)
	assert.Equal(t, doc.Values[0], outs[0].Tensor().Float64s(), "the program's run")
}

// TestMapPytreeBadInput: the leaves of a mapped pytree must have one
// leading size, eagerly and when exported; the error names map and the
// sizes.
func TestMapPytreeBadInput(t *testing.T) {
	a := tensor.Must(tensor.Ones(tensor.Float32, 3, 4))
	b := tensor.Must(tensor.Ones(tensor.Float32, 2, 4))
	m := newFnModel([]string{"a", "b"}, func(in []nn.Value) nn.Value {
		return F.Map(func(xs nn.Value, _ ...nn.Value) nn.Value {
			pq := xs.Tuple()
			return pq[0].Add(pq[1])
		}, nn.Tuple(in[0], in[1]))
	})
	_, err := nn.Run(m, nn.Tensor(a), nn.Tensor(b))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "map: the mapped tensors' leading sizes differ: xs[0] has 3, xs[1] has 2")
	_, err = export.Export(m, []any{a, b}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "map: the mapped tensors' leading sizes differ: xs[0] (a) has 3, xs[1] (b) has 2")
}

// TestExportCheckExpressionLikePyTorch: Check(n + 1 <= x.Size(0)) with
// an unbacked n and a dynamic size becomes a runtime assertion of
// "u0 + 1 <= s0", and narrows n's range (s0 <= 64: u0 <= 63), as PyTorch
// 2.6 records it (testdata/unbackedhop/check_expr.ep.json, its core
// program: the same operators; 2.6 reads s0 first, gofx where model code
// reads it).
func TestExportCheckExpressionLikePyTorch(t *testing.T) {
	ref := readUnbackedHopRef(t, "check_expr.ep.json", "core")
	m := newFnModel([]string{"x", "k"}, func(in []nn.Value) nn.Value {
		n := in[1].Item()
		F.CheckIsSize(n)
		F.Check(n.Add(1).Le(in[0].Size(0)))
		return in[0].Index(nn.Slice(nil, n.Add(1))).Sum(0)
	})
	x := tensor.Must(tensor.Ones(tensor.Float32, 6, 3))
	ep, err := export.Export(m, []any{x, tensor.Scalar(int64(2))}, export.Dims{"x": {0: export.Dim("b", 2, 64)}})
	require.NoError(t, err)
	t.Log(ep)
	count := func(ts []string) map[string]int {
		out := map[string]int{}
		for _, s := range ts {
			out[s]++
		}
		return out
	}
	assert.Equal(t, count(ref.Graphs["<root>"]), count(graphTargets(ep.Graph)), "operators")
	assert.Contains(t, ep.String(), `"Runtime assertion failed for expression u0 + 1 <= s0 on node 'le_1'"`)
	r := ep.RangeConstraints["u0"]
	assert.Equal(t, jsonString(ref.RangeConstraints["u0"][0])+".."+jsonString(ref.RangeConstraints["u0"][1]), bound(r.Lo)+".."+bound(r.Hi))
	// It runs: k = 5 passes (6 rows), k = 6 fails the assertion.
	_, err = ep.RunFlat(x, tensor.Scalar(int64(5)))
	require.NoError(t, err)
	_, err = ep.RunFlat(x, tensor.Scalar(int64(6)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "u0 + 1 <= s0")
}
