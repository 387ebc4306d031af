package export_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

// The Go equivalents of gen_pt2.py's control-flow programs (../shared/pt2
// cond_data, cond_shape, cond_params, cond_nested, map_rows, while_count,
// while_converge), written with functional.Cond, WhileLoop and Map.

// condData is CondData: torch.cond(x.sum() > 0, sin, cos, (x,)).
type condData struct{ nn.Base }

func (m *condData) Forward(x nn.Value) nn.Value {
	return F.Cond(x.Sum().Gt(0),
		func(o ...nn.Value) nn.Value { return o[0].Method("sin") },
		func(o ...nn.Value) nn.Value { return o[0].Method("cos") },
		x)
}

// condShape is CondShape: a branch on a dynamic size.
type condShape struct{ nn.Base }

func (m *condShape) Forward(x nn.Value) nn.Value {
	return F.Cond(x.Size(0).Gt(4),
		func(o ...nn.Value) nn.Value { return o[0].Method("cos").Add(1) },
		func(o ...nn.Value) nn.Value { return o[0].Method("sin").Sub(1) },
		x)
}

// condParams is CondParams: branches reading parameters and a buffer.
type condParams struct {
	nn.Base
	Lin1, Lin2 *nn.Linear
	Scale      *nn.Buffer
}

func newCondParams() *condParams {
	m := &condParams{}
	m.Init(m, "CondParams")
	m.Lin1 = nn.RegisterModule(&m.Base, "lin1", nn.NewLinear(8, 8, true))
	m.Lin2 = nn.RegisterModule(&m.Base, "lin2", nn.NewLinear(8, 8, true))
	m.Scale = m.RegisterBuffer("scale", tensor.Scalar(float32(2)), true)
	return m
}

func (m *condParams) ArgNames() []string { return []string{"x", "flag"} }

func (m *condParams) Forward(x, flag nn.Value) nn.Value {
	return F.Cond(flag,
		func(o ...nn.Value) nn.Value { return nn.Call(m.Lin1, o[0]).Relu().Mul(m.Scale.Value()) },
		func(o ...nn.Value) nn.Value { return nn.Call(m.Lin2, o[0]).Sigmoid() },
		x)
}

// condNested is CondNested: cond inside cond, two outputs.
type condNested struct{ nn.Base }

func (m *condNested) ArgNames() []string { return []string{"x", "y"} }

func (m *condNested) Forward(x, y nn.Value) nn.Value {
	innerT := func(o ...nn.Value) nn.Value { return nn.Tuple(o[0].Add(o[1]), o[0].Mul(o[1])) }
	innerF := func(o ...nn.Value) nn.Value {
		return nn.Tuple(o[0].Sub(o[1]), o[0].Div(o[1].Method("abs").Add(1)))
	}
	outerT := func(o ...nn.Value) nn.Value { return F.Cond(o[1].Mean().Gt(0), innerT, innerF, o[0], o[1]) }
	outerF := func(o ...nn.Value) nn.Value { return nn.Tuple(o[0].Relu(), o[1].Relu()) }
	return F.Cond(x.Mean().Gt(0), outerT, outerF, x, y)
}

// mapRows is MapRows: map over the leading dim with extra operands.
type mapRows struct {
	nn.Base
	W *nn.Parameter
}

func newMapRows() *mapRows {
	m := &mapRows{}
	m.Init(m, "MapRows")
	w, err := nn.Uniform(1, 4, 4)
	if err != nil {
		panic(err)
	}
	m.W = m.RegisterParameter("w", w)
	return m
}

func (m *mapRows) ArgNames() []string { return []string{"xs", "y"} }

func (m *mapRows) Forward(xs, y nn.Value) nn.Value {
	return F.Map(func(x nn.Value, a ...nn.Value) nn.Value { return x.Matmul(a[1]).Add(a[0]).Tanh() }, xs, y, m.W.Value())
}

// whileCount is WhileCount: a counter and a carried tensor.
type whileCount struct{ nn.Base }

func (m *whileCount) ArgNames() []string { return []string{"it", "x"} }

func (m *whileCount) Forward(it, x nn.Value) nn.Value {
	out := F.WhileLoop(
		func(v ...nn.Value) nn.Value { return v[0].Lt(5) },
		func(v ...nn.Value) []nn.Value { return []nn.Value{v[0].Add(1), v[1].Mul(0.5).Add(v[1].Method("sin"))} },
		[]nn.Value{it, x}, nil)
	return nn.Tuple(out...)
}

// whileConverge is WhileConverge: Newton iterations for sqrt, a trip
// count the data decides.
type whileConverge struct{ nn.Base }

func (m *whileConverge) ArgNames() []string { return []string{"x", "y"} }

func (m *whileConverge) Forward(x, y nn.Value) nn.Value {
	out := F.WhileLoop(
		func(v ...nn.Value) nn.Value { return nn.CallOp(opMax, v[1].Mul(v[1]).Sub(v[0]).Method("abs")).Gt(1e-4) },
		func(v ...nn.Value) []nn.Value {
			return []nn.Value{v[0].Clone(), v[1].Add(v[0].Div(v[1])).Mul(0.5)}
		},
		[]nn.Value{x, y}, nil)
	return nn.Tuple(out...)
}

var opMax = nn.Op("aten::max")

// controlFlowProgram is one program: its Go model and how to export it.
type controlFlowProgram struct {
	name  string
	model func() nn.Module
	dims  func() export.Dims
}

func init0[M interface {
	nn.Module
	Init(self nn.Module, typeName string)
}](m M, typ string) nn.Module {
	m.Init(m, typ)
	return m
}

var controlFlowPrograms = []controlFlowProgram{
	{name: "cond_data", model: func() nn.Module { return init0(&condData{}, "CondData") }},
	{name: "cond_shape", model: func() nn.Module { return init0(&condShape{}, "CondShape") },
		dims: func() export.Dims { return export.Dims{"x": {0: export.Dim("n", 2, 16)}} }},
	{name: "cond_params", model: func() nn.Module { return newCondParams() },
		dims: func() export.Dims { return export.Dims{"x": {0: export.Dim("batch", 1, 64)}} }},
	{name: "cond_nested", model: func() nn.Module { return init0(&condNested{}, "CondNested") }},
	{name: "map_rows", model: func() nn.Module { return newMapRows() }},
	{name: "while_count", model: func() nn.Module { return init0(&whileCount{}, "WhileCount") }},
	{name: "while_converge", model: func() nn.Module { return init0(&whileConverge{}, "WhileConverge") }},
}

// epStructure is what NAME.ep.json says of a program (its "core" part:
// gofx's Export gives core ATen, as PyTorch's run_decompositions).
type epStructure struct {
	Nodes      int            `json:"nodes"`
	OpCounts   map[string]int `json:"op_counts"`
	InputSpecs []struct {
		Kind       string `json:"kind"`
		Name       string `json:"name"`
		Target     any    `json:"target"`
		Persistent any    `json:"persistent"`
	} `json:"input_specs"`
	OutputSpecs []struct {
		Kind   string `json:"kind"`
		Name   string `json:"name"`
		Target any    `json:"target"`
	} `json:"output_specs"`
	RangeConstraints map[string][2]any `json:"range_constraints"`
	Subgraphs        []string          `json:"subgraphs"`
	ModuleCallGraph  []string          `json:"module_call_graph"`
}

func readEPStructure(t *testing.T, name string) epStructure {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "controlflow", name+".ep.json"))
	require.NoError(t, err)
	var doc struct {
		Core epStructure `json:"core"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	return doc.Core
}

// hopOpCounts counts the call_function nodes of g and of its subgraphs,
// spelled as ep.json spells them: "aten.sin.default", Python's operators
// as "<built-in function getitem>", higher-order operators by name.
func hopOpCounts(g *graph.Graph, subs []export.Subgraph, out map[string]int) {
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
		out[name]++
	}
	for _, s := range subs {
		hopOpCounts(s.Graph, s.Subgraphs, out)
	}
}

func subgraphNames(subs []export.Subgraph, prefix string) []string {
	var out []string
	for _, s := range subs {
		out = append(out, prefix+s.Name)
		out = append(out, subgraphNames(s.Subgraphs, prefix+s.Name+".")...)
	}
	return out
}

func countNodes(g *graph.Graph) int {
	k := 0
	for range g.Nodes() {
		k++
	}
	return k
}

// exampleArgs returns an io.json's example inputs as Export's args.
func exampleArgs(t *testing.T, name string) (*pt2.IO, []any) {
	t.Helper()
	io, err := pt2.ReadIO(filepath.Join("testdata", "controlflow", name+".io.json"))
	require.NoError(t, err)
	var args []any
	for _, v := range io.Cases[0].Inputs {
		args = append(args, v.Tensor())
	}
	return io, args
}

// TestExportControlFlowLikePyTorch exports the Go equivalents of the
// control-flow programs and compares their structure with PyTorch 2.6's
// (NAME.ep.json, after run_decompositions: gofx exports core ATen): node
// count of the program's graph, operator counts over every graph, the
// signature, the subgraphs' names and the range constraints.
func TestExportControlFlowLikePyTorch(t *testing.T) {
	for _, p := range controlFlowPrograms {
		t.Run(p.name, func(t *testing.T) {
			want := readEPStructure(t, p.name)
			_, args := exampleArgs(t, p.name)
			var dims export.Dims
			if p.dims != nil {
				dims = p.dims()
			}
			ep, err := export.Export(p.model(), args, dims)
			require.NoError(t, err)
			t.Log(ep)
			assert.Equal(t, want.Nodes, countNodes(ep.Graph), "nodes of the program's graph")
			got := map[string]int{}
			hopOpCounts(ep.Graph, ep.Subgraphs(), got)
			assert.Equal(t, want.OpCounts, got, "op counts")
			var wantIn, gotIn []string
			for _, s := range want.InputSpecs {
				wantIn = append(wantIn, s.Kind+" "+s.Name+" "+jsonString(s.Target))
			}
			for _, s := range ep.Signature.Inputs {
				target := "null"
				if s.Target != "" {
					target = s.Target
				}
				gotIn = append(gotIn, s.Kind.String()+" "+s.Name+" "+target)
			}
			assert.Equal(t, wantIn, gotIn, "input specs")
			var wantOut, gotOut []string
			for _, s := range want.OutputSpecs {
				wantOut = append(wantOut, s.Kind+" "+s.Name)
			}
			for _, s := range ep.Signature.Outputs {
				gotOut = append(gotOut, s.Kind.String()+" "+s.Name)
			}
			assert.Equal(t, wantOut, gotOut, "output specs")
			assert.Equal(t, want.Subgraphs, subgraphNames(ep.Subgraphs(), ""), "subgraphs")
			var calls []string
			for _, c := range ep.ModuleCallGraph {
				calls = append(calls, c.FQN)
			}
			assert.Equal(t, want.ModuleCallGraph, calls, "module call graph")
			var wantRC, gotRC []string
			for k, r := range want.RangeConstraints {
				wantRC = append(wantRC, k+jsonString(r[0])+".."+jsonString(r[1]))
			}
			for k, r := range ep.RangeConstraints {
				gotRC = append(gotRC, k+jsonString(r.Lo)+".."+jsonString(r.Hi))
			}
			sort.Strings(wantRC)
			sort.Strings(gotRC)
			assert.Equal(t, wantRC, gotRC, "range constraints")
		})
	}
}

func jsonString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// fnModel is a module whose Forward is a Go function of its inputs.
type fnModel struct {
	nn.Base
	names []string
	fn    func(in []nn.Value) nn.Value
}

func newFnModel(names []string, fn func(in []nn.Value) nn.Value) *fnModel {
	m := &fnModel{names: names, fn: fn}
	m.Init(m, "FnModel")
	return m
}

func (m *fnModel) ArgNames() []string              { return m.names }
func (m *fnModel) Forward(in ...nn.Value) nn.Value { return m.fn(in) }

// TestExportControlFlowErrors checks the seed's rules on branches and
// bodies: each violation is an error naming the op, the branch and what
// differs, with the Go line.
func TestExportControlFlowErrors(t *testing.T) {
	x := tensor.Must(tensor.Ones(tensor.Float32, 3, 4))
	id := func(o ...nn.Value) nn.Value { return o[0] }
	cases := []struct {
		name string
		fn   func(in []nn.Value) nn.Value
		want []string
	}{
		{"count", func(in []nn.Value) nn.Value {
			return F.Cond(in[0].Sum().Gt(0), func(o ...nn.Value) nn.Value { return nn.Tuple(o[0].Method("sin"), o[0]) },
				func(o ...nn.Value) nn.Value { return o[0].Method("cos") }, in[0])
		}, []string{"controlflow_test.go:", ": cond: the true branch (true_graph_0) returns 2 values, the false branch (false_graph_0) 1"}},
		{"dtype", func(in []nn.Value) nn.Value {
			return F.Cond(in[0].Sum().Gt(0), func(o ...nn.Value) nn.Value { return o[0].Method("sin") },
				func(o ...nn.Value) nn.Value { return o[0].To(tensor.Int64) }, in[0])
		}, []string{"output 0 differs between the true branch (true_graph_0) and the false branch (false_graph_0): dtype float32 (sin) vs int64"}},
		{"shape", func(in []nn.Value) nn.Value {
			return F.Cond(in[0].Sum().Gt(0), func(o ...nn.Value) nn.Value { return o[0].Sum(0) }, id, in[0])
		}, []string{"controlflow_test.go:", ": cond: output 0 differs", "shape [4] (sum_1) vs [3, 4] (x)"}},
		{"mutation", func(in []nn.Value) nn.Value {
			return F.Cond(in[0].Sum().Gt(0), func(o ...nn.Value) nn.Value { return o[0].Relu_() }, id, in[0])
		}, []string{"cond: the true branch (true_graph_0) mutates its input x in place (aten.relu_.default) at ", "controlflow_test.go:"}},
		{"closure", func(in []nn.Value) nn.Value {
			return F.Cond(in[0].Sum().Gt(0), func(o ...nn.Value) nn.Value { return o[0].Add(in[1]) }, id, in[0])
		}, []string{"cond: the true branch (true_graph_0) uses y at ", "controlflow_test.go:", "not an operand"}},
		{"float predicate", func(in []nn.Value) nn.Value {
			return F.Cond(in[0].Sum(), id, id, in[0])
		}, []string{"cond: predicate: the predicate must be a bool tensor, got dtype float32"}},
		{"vector predicate", func(in []nn.Value) nn.Value {
			return F.Cond(in[0].Gt(0), id, id, in[0])
		}, []string{"the predicate must be a one-element bool tensor, got shape [3, 4]"}},
		{"while shape", func(in []nn.Value) nn.Value {
			return nn.Tuple(F.WhileLoop(func(v ...nn.Value) nn.Value { return v[0].Sum().Gt(0) },
				func(v ...nn.Value) []nn.Value { return []nn.Value{v[0].Sum(0)} }, []nn.Value{in[0]}, nil)...)
		}, []string{"controlflow_test.go:", ": while_loop: body_fn (while_loop_body_graph_0) changes carried input 0: shape [3, 4] (x) vs [4] (sum_1)"}},
		{"go if", func(in []nn.Value) nn.Value {
			if in[0].Sum().Gt(0).Bool() {
				return in[0]
			}
			return in[1]
		}, []string{"controlflow_test.go:", "functional.Cond"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := export.Export(newFnModel([]string{"x", "y"}, c.fn), []any{x, x}, nil)
			require.Error(t, err)
			for _, w := range c.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

// TestExportCondConstantPredicate: a Go bool predicate is a constant, as
// a Python bool is to torch.cond: only its branch is recorded, and
// Specialized reports the line.
func TestExportCondConstantPredicate(t *testing.T) {
	x := tensor.Must(tensor.Ones(tensor.Float32, 3, 4))
	m := newFnModel([]string{"x"}, func(in []nn.Value) nn.Value {
		return F.Cond(nn.Of(in[0].Shape().Tuple()[0].Int() > 2),
			func(o ...nn.Value) nn.Value { return o[0].Method("sin") },
			func(o ...nn.Value) nn.Value { return o[0].Method("cos") }, in[0])
	})
	ep, err := export.Export(m, []any{x}, nil)
	require.NoError(t, err)
	got := map[string]int{}
	hopOpCounts(ep.Graph, ep.Subgraphs(), got)
	assert.Equal(t, map[string]int{"aten.sin.default": 1}, got)
	assert.Empty(t, ep.Subgraphs())
	require.Len(t, ep.Specialized(), 1)
	assert.Regexp(t, `^.*controlflow_test\.go:\d+: cond with a constant predicate: only the taken branch is recorded$`, ep.Specialized()[0])
}

// withPyTorchState loads into m the parameters and buffers of PyTorch's
// program NAME.pt2 (testdata/controlflow), for the programs with weights.
func withPyTorchState(t *testing.T, name string, m nn.Module) nn.Module {
	t.Helper()
	path := filepath.Join("testdata", "controlflow", name+".pt2")
	if _, err := os.Stat(path); err != nil {
		return m // no state: the program has none
	}
	ep, err := pt2.Load(path)
	require.NoError(t, err)
	sd := torchio.NewStateDict()
	for k, v := range ep.StateDict() {
		sd.Set(k, v)
	}
	_, err = nn.LoadState(m, sd, nn.LoadOptions{})
	require.NoError(t, err)
	return m
}

// TestControlFlowEagerLikePyTorch runs the Go equivalents of the
// control-flow programs eagerly (Cond runs the taken branch, WhileLoop
// loops, Map maps) on every case of NAME.io.json and compares with
// PyTorch's outputs.
func TestControlFlowEagerLikePyTorch(t *testing.T) {
	for _, p := range controlFlowPrograms {
		t.Run(p.name, func(t *testing.T) {
			io, _ := exampleArgs(t, p.name)
			m := withPyTorchState(t, p.name, p.model())
			for i, c := range io.Cases {
				out, err := nn.Run(m, c.Inputs...)
				require.NoError(t, err, "case %d", i)
				got := []nn.Value{out}
				if out.IsTuple() {
					got = out.Tuple()
				}
				require.Len(t, got, len(c.Outputs), "case %d", i)
				for j := range got {
					assert.True(t, tensor.AllClose(got[j].MustTensor(), c.Outputs[j].Tensor(), 1e-5, 1e-5, false),
						"case %d (%s) output %d: got %v, want %v", i, c.Note, j, got[j], c.Outputs[j])
				}
			}
		})
	}
}

// TestExportedControlFlowRunsLikePyTorch runs the exported Go
// equivalents (each graph's higher-order nodes run their subgraphs) and
// their fx traces on every case of NAME.io.json: the outputs are
// PyTorch's, the trip counts and taken branches decided by each case's
// data (and, for cond_shape and cond_params, by its dynamic size).
func TestExportedControlFlowRunsLikePyTorch(t *testing.T) {
	for _, p := range controlFlowPrograms {
		t.Run(p.name, func(t *testing.T) {
			io, args := exampleArgs(t, p.name)
			m := withPyTorchState(t, p.name, p.model())
			var dims export.Dims
			if p.dims != nil {
				dims = p.dims()
			}
			ep, err := export.Export(m, args, dims)
			require.NoError(t, err)
			gm, err := fx.SymbolicTrace(m)
			require.NoError(t, err)
			for i, c := range io.Cases {
				in := make([]any, len(c.Inputs))
				for k, v := range c.Inputs {
					in[k] = v.Tensor()
				}
				out, err := ep.Run(in...)
				require.NoError(t, err, "case %d (%s)", i, c.Note)
				traced, err := gm.Run(c.Inputs...)
				require.NoError(t, err, "traced: case %d (%s)", i, c.Note)
				for name, res := range map[string]nn.Value{"exported": out, "traced": traced} {
					got := []nn.Value{res}
					if res.IsTuple() {
						got = res.Tuple()
					}
					require.Len(t, got, len(c.Outputs), "%s: case %d", name, i)
					for j := range got {
						assert.True(t, tensor.AllClose(got[j].MustTensor(), c.Outputs[j].Tensor(), 1e-5, 1e-5, false),
							"%s: case %d (%s) output %d: got %v, want %v", name, i, c.Note, j, got[j], c.Outputs[j])
					}
				}
			}
		})
	}
}

// nestedParams reads a parameter inside a cond inside a cond, and a
// buffer inside a while_loop body: both are lifted through every level
// (the inner branch's operand is the outer branch's lifted placeholder).
type nestedParams struct {
	nn.Base
	W     *nn.Parameter
	Decay *nn.Buffer
}

func (m *nestedParams) ArgNames() []string { return []string{"x"} }

func (m *nestedParams) Forward(x nn.Value) nn.Value {
	inner := func(o ...nn.Value) nn.Value { return o[0].Mul(m.W.Value()) }
	outer := func(o ...nn.Value) nn.Value {
		return F.Cond(o[0].Mean().Gt(0), inner, func(o ...nn.Value) nn.Value { return o[0].Neg() }, o[0])
	}
	y := F.Cond(x.Sum().Gt(0), outer, func(o ...nn.Value) nn.Value { return o[0].Relu() }, x)
	out := F.WhileLoop(func(v ...nn.Value) nn.Value { return v[0].Method("abs").Sum().Gt(1) },
		func(v ...nn.Value) []nn.Value { return []nn.Value{v[0].Mul(m.Decay.Value())} },
		[]nn.Value{y}, nil)
	return out[0]
}

// TestExportNestedLifting exports nestedParams: the parameter read two
// conds deep is an operand of both, the buffer an additional input of the
// while_loop, and the program computes what the model computes eagerly.
func TestExportNestedLifting(t *testing.T) {
	m := &nestedParams{}
	m.Init(m, "NestedParams")
	m.W = m.RegisterParameter("w", tensor.Must(tensor.FromSlice([]float32{2, 3, 4}, 3)))
	m.Decay = m.RegisterBuffer("decay", tensor.Scalar(float32(0.5)), true)
	x := tensor.Must(tensor.FromSlice([]float32{1, 2, 3}, 3))
	ep, err := export.Export(m, []any{x}, nil)
	require.NoError(t, err)
	text := ep.String()
	assert.Contains(t, text, "torch.ops.higher_order.cond(gt, true_graph_0, false_graph_0, [x, p_w])")
	assert.Contains(t, text, "torch.ops.higher_order.while_loop(while_loop_cond_graph_0, while_loop_body_graph_0, (getitem,), (b_decay,))")
	require.Len(t, ep.Subgraphs(), 4)
	assert.Equal(t, []string{"true_graph_0", "true_graph_0.true_graph_0", "true_graph_0.false_graph_0", "false_graph_0", "while_loop_cond_graph_0", "while_loop_body_graph_0"}, subgraphNames(ep.Subgraphs(), ""))
	inner := ep.Subgraphs()[0]
	assert.Equal(t, []string{"x", "p_w"}, placeholderNames(inner.Graph))
	assert.Equal(t, []string{"x", "p_w"}, placeholderNames(inner.Subgraphs[0].Graph))
	assert.Equal(t, []string{"x", "p_w"}, placeholderNames(ep.Subgraphs()[1].Graph), "the false branch takes the lifted parameter too")
	assert.Equal(t, []string{"arg0_1", "arg1_1"}, placeholderNames(ep.Subgraphs()[3].Graph), "while_loop's graphs name every input by position")
	assert.Contains(t, ep.Subgraphs()[3].Graph.Code(), "def forward(self, arg0_1, arg1_1):")
	for _, in := range []*tensor.Tensor{x, tensor.Must(tensor.FromSlice([]float32{-1, -2, 1}, 3)), tensor.Must(tensor.FromSlice([]float32{-1, 0.5, 0.25}, 3))} {
		want, err := nn.Run(m, nn.Of(in))
		require.NoError(t, err)
		got, err := ep.Run(in)
		require.NoError(t, err)
		assert.Equal(t, want.MustTensor().Float64s(), got.MustTensor().Float64s(), "input %v", in.Float64s())
	}
}

func placeholderNames(g *graph.Graph) []string {
	var out []string
	for _, p := range g.Placeholders() {
		out = append(out, p.Name())
	}
	return out
}
