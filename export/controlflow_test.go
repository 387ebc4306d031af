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
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
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
			if p.name == "map_rows" {
				// decomp's matmul rule squeezes a vector-matrix product's
				// result with squeeze.dim (PyTorch 1.13's decomposition,
				// which the zoo's op counts are checked against); PyTorch
				// 2.6's uses squeeze.dims. The one known difference.
				assert.Equal(t, want.OpCounts["aten.squeeze.dims"], got["aten.squeeze.dim"], "squeeze")
				delete(want.OpCounts, "aten.squeeze.dims")
				delete(got, "aten.squeeze.dim")
			}
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
