package export_test

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
)

// unbackedModel is gen_pt2.py's Unbacked, written in Go:
//
//	n = k.item()
//	torch._check_is_size(n)
//	torch._check(n <= x.shape[0])
//	head = x[:n].sum(0)
//	idx = torch.nonzero(x[:, 0] > 0)
//	return head, idx
type unbackedModel struct{ nn.Base }

func (m *unbackedModel) ArgNames() []string { return []string{"x", "k"} }

func (m *unbackedModel) Forward(x, k nn.Value) nn.Value {
	n := k.Item()
	functional.CheckIsSize(n)
	functional.Check(n.Le(x.Size(0)))
	head := x.Index(nn.Slice(nil, n)).Sum(0)
	idx := functional.Nonzero(x.Index(nn.Slice(), 0).Gt(0))
	return nn.Tuple(head, idx)
}

func newUnbacked() *unbackedModel {
	m := &unbackedModel{}
	m.Init(m, "Unbacked")
	return m
}

// unbackedEPStructure is what ../shared/pt2's NAME.ep.json records of a program.
type unbackedEPStructure struct {
	Nodes      int            `json:"nodes"`
	OpCounts   map[string]int `json:"op_counts"`
	InputSpecs []struct {
		Kind string `json:"kind"`
		Name string `json:"name"`
	} `json:"input_specs"`
	OutputSpecs []struct {
		Kind string `json:"kind"`
		Name string `json:"name"`
	} `json:"output_specs"`
	RangeConstraints map[string][2]any `json:"range_constraints"`
}

func readEPJSON(t *testing.T, path string) (program, core unbackedEPStructure) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var ej struct {
		Program unbackedEPStructure `json:"program"`
		Core    unbackedEPStructure `json:"core"`
	}
	require.NoError(t, json.Unmarshal(data, &ej))
	return ej.Program, ej.Core
}

// structureOf is ep's structure in ep.json's terms.
func structureOf(ep *export.ExportedProgram) (nodes int, ops map[string]int, ins, outs []string) {
	ops = map[string]int{}
	for n := range ep.Graph.Nodes() {
		nodes++
		if n.Op() != node.CallFunction {
			continue
		}
		name := n.Target().String()
		if op, ok := strings.CutPrefix(name, "operator."); ok {
			name = "<built-in function " + op + ">"
		}
		ops[name]++
	}
	for _, in := range ep.Signature.Inputs {
		ins = append(ins, in.Kind.String()+" "+in.Name)
	}
	for _, out := range ep.Signature.Outputs {
		outs = append(outs, out.Kind.String()+" "+out.Name)
	}
	return nodes, ops, ins, outs
}

// TestUnbackedMatchesPyTorch: the Go-written unbacked program exports to
// the structure of PyTorch 2.6's core program (unbacked.ep.json, copied
// from ../shared/pt2): node count, op counts (_local_scalar_dense giving
// u0, the size's sym_constrain_range_for_size and _assert_scalar of
// u0 >= 0 and u0 <= 6 right after it, nonzero's u1 with the same),
// signature and the ranges of u0 and u1; RunDecompositions keeps it; the
// program runs to PyTorch's outputs (unbacked.io.json).
func TestUnbackedMatchesPyTorch(t *testing.T) {
	_, want := readEPJSON(t, "testdata/unbacked.ep.json")
	io, err := models.ReadIO("testdata/unbacked.io.json")
	require.NoError(t, err)
	c0 := io.Cases[0]
	ep, err := export.Export(newUnbacked(), []any{c0.Inputs[0].MustTensor(), c0.Inputs[1].MustTensor()}, nil)
	require.NoError(t, err)
	dec, err := ep.RunDecompositions(decomp.Core())
	require.NoError(t, err)
	for _, p := range []*export.ExportedProgram{ep, dec} {
		nodes, ops, ins, outs := structureOf(p)
		assert.Equal(t, want.Nodes, nodes, "node count\n%s", p)
		assert.Equal(t, want.OpCounts, ops, "op counts\n%s", p)
		var wantIns, wantOuts []string
		for _, in := range want.InputSpecs {
			wantIns = append(wantIns, in.Kind+" "+in.Name)
		}
		for _, out := range want.OutputSpecs {
			wantOuts = append(wantOuts, out.Kind+" "+out.Name)
		}
		assert.Equal(t, wantIns, ins)
		assert.Equal(t, wantOuts, outs)
		// PyTorch 2.6 lists the unbacked symbols of its own retraces
		// too (u2, u3, ... that no node uses); the graph's own u0 and u1
		// have PyTorch's ranges.
		var syms []string
		for name, r := range p.RangeConstraints {
			syms = append(syms, name)
			w, ok := want.RangeConstraints[name]
			if assert.True(t, ok, "symbol %s is not in PyTorch's range constraints", name) {
				assert.Equal(t, w[0], float64(r.Lo), name)
				assert.Equal(t, w[1], float64(r.Hi), name)
			}
		}
		sort.Strings(syms)
		assert.Equal(t, []string{"u0", "u1"}, syms)
		for _, c := range io.Cases {
			got, err := p.Run(c.Inputs[0].MustTensor(), c.Inputs[1].MustTensor())
			require.NoError(t, err)
			outs := got.Tuple()
			require.Len(t, outs, 2)
			assert.True(t, tensor.AllClose(outs[0].MustTensor(), c.Outputs[0].MustTensor(), 1e-5, 1e-6, false))
			assert.Equal(t, c.Outputs[1].MustTensor().Shape(), outs[1].MustTensor().Shape())
			assert.Equal(t, c.Outputs[1].MustTensor().Float64s(), outs[1].MustTensor().Float64s())
		}
	}
}

// TestUnbackedEager: run eagerly, the Go model gives PyTorch's outputs,
// and the checks fail with PyTorch's messages.
func TestUnbackedEager(t *testing.T) {
	io, err := models.ReadIO("testdata/unbacked.io.json")
	require.NoError(t, err)
	for _, c := range io.Cases {
		out, err := nn.Run(newUnbacked(), c.Inputs...)
		require.NoError(t, err)
		outs := out.Tuple()
		assert.True(t, tensor.AllClose(outs[0].MustTensor(), c.Outputs[0].MustTensor(), 1e-5, 1e-6, false))
		assert.Equal(t, c.Outputs[1].MustTensor().Float64s(), outs[1].MustTensor().Float64s())
	}
	x := io.Cases[0].Inputs[0]
	for _, tc := range []struct {
		k    int64
		want string
	}{
		{-1, "Expected cond to be True, but got False. (Could this error message be improved? If so, please report an enhancement request to PyTorch.)"},
		{7, "Expected cond to be True, but got False."},
	} {
		k, _ := tensor.FromInt64s(tensor.Int64, []int64{tc.k})
		_, err := nn.Run(newUnbacked(), x, nn.Tensor(k))
		require.Error(t, err, "k=%d", tc.k)
		assert.Contains(t, err.Error(), tc.want)
		assert.Contains(t, err.Error(), "unbacked_test.go", "the error names the model's Go line")
	}
}

// TestUnbackedRuntimeAssertions: the exported program checks the range
// of u0 when it runs, with the message PyTorch's program gives.
func TestUnbackedRuntimeAssertions(t *testing.T) {
	io, err := models.ReadIO("testdata/unbacked.io.json")
	require.NoError(t, err)
	x := io.Cases[0].Inputs[0].MustTensor()
	k2, _ := tensor.FromInt64s(tensor.Int64, []int64{2})
	exported, err := export.Export(newUnbacked(), []any{x, k2}, nil)
	require.NoError(t, err)
	// The default passes (DCE, CSE, constant folding, ...) keep the
	// assertions.
	optimized, err := exported.Transform(passes.NewManager(passes.Default()...))
	require.NoError(t, err)
	for _, ep := range []*export.ExportedProgram{exported, optimized} {
		for _, tc := range []struct {
			k    int64
			want string
		}{
			{7, "Runtime assertion failed for expression u0 <= 6 on node 'le'"},
			// The size's sym_constrain_range_for_size runs first, as in
			// PyTorch's program.
			{-1, "Invalid value range for -1 between [0, 9223372036854775807]."},
		} {
			k, _ := tensor.FromInt64s(tensor.Int64, []int64{tc.k})
			_, err := ep.Run(x, k)
			require.Error(t, err, "k=%d", tc.k)
			assert.Contains(t, err.Error(), tc.want)
		}
		for _, k := range []int64{0, 6} {
			kt, _ := tensor.FromInt64s(tensor.Int64, []int64{k})
			out, err := ep.Run(x, kt)
			require.NoError(t, err)
			assert.Equal(t, []int{3}, out.Tuple()[0].MustTensor().Shape())
		}
	}
}

// definePositiveRows defines gofxtest::positive_rows(Tensor x) -> Tensor,
// the rows of x whose first element is positive: a custom operator whose
// meta function gives the data-dependent row count with
// Call.NewDynamicSize (torch.library's ctx.new_dynamic_size).
var definePositiveRows = sync.OnceValues(func() (*ops.Operator, error) {
	kernel := func(c *ops.Call) ([]any, error) {
		x := c.Tensor("x")
		var keep []int64
		for i := 0; i < x.Shape()[0]; i++ {
			row := tensor.Must(x.Select(0, i))
			if v := tensor.Must(row.Select(0, 0)).Float64s()[0]; v > 0 {
				keep = append(keep, int64(i))
			}
		}
		idx, err := tensor.FromInt64s(tensor.Int64, keep, len(keep))
		if err != nil {
			return nil, err
		}
		sel, err := nn.Op("aten::index_select").Call1(x, int64(0), idx)
		return []any{sel}, err
	}
	meta := func(c *ops.Call) ([]any, error) {
		x := c.Tensor("x")
		n, err := c.NewDynamicSize(0, int64(x.Shape()[0]))
		if err != nil {
			return nil, err
		}
		m, err := tensor.NewMeta(x.DType(), int(n), x.Shape()[1])
		return []any{m}, err
	}
	return ops.Define("gofxtest::positive_rows(Tensor x) -> Tensor", kernel, meta, 0)
})

type positiveRows struct {
	nn.Base
	op *ops.Operator
}

func (m *positiveRows) Forward(x nn.Value) nn.Value {
	rows := nn.CallOp(m.op, x)
	return rows.Sum(0)
}

// TestCustomOpDynamicSize: a custom operator's meta function gives a
// data-dependent size; exported, it is an unbacked symbol of the result,
// size-like, asserted in [0, 6] right after the node (as nonzero's), and
// the program runs with any count.
func TestCustomOpDynamicSize(t *testing.T) {
	op, err := definePositiveRows()
	require.NoError(t, err)
	m := &positiveRows{op: op}
	m.Init(m, "PositiveRows")
	x, err := tensor.FromFloat64s(tensor.Float32, []float64{1, 2, -1, 3, 4, 5, -2, 0, 6, 7, 0, 1}, 6, 2)
	require.NoError(t, err)
	for _, dims := range []export.Dims{nil, {"x": {0: export.Dim("rows", 2, 64)}}} {
		ep, err := export.Export(m, []any{x}, dims)
		require.NoError(t, err)
		text := ep.String()
		assert.Contains(t, text, `positive_rows: "f32[u0, 2]" = torch.ops.gofxtest.positive_rows.default(x)`)
		assert.Contains(t, text, "aten.sym_constrain_range_for_size.default(sym_size")
		assert.Contains(t, text, "Runtime assertion failed for expression u0 >= 0")
		_, ops, _, _ := structureOf(ep)
		assert.Equal(t, 2, ops["aten._assert_scalar.default"])
		if dims == nil {
			assert.Equal(t, "[0, 6]", ep.RangeConstraints["u0"].String())
		}
		out, err := ep.Run(x)
		require.NoError(t, err)
		// rows 0, 2, 4: 1+4+6, 2+5+7
		assert.Equal(t, []float64{11, 14}, out.MustTensor().Float64s())
	}
	// Outside export, the meta function cannot size its result.
	meta, _ := tensor.NewMeta(tensor.Float32, 6, 2)
	_, err = op.Call([]any{meta}, nil)
	require.ErrorIs(t, err, ops.ErrDataDependent)
}

// xkModel runs f on its two inputs.
type xkModel struct {
	nn.Base
	f func(x, k nn.Value) nn.Value
}

func (m *xkModel) ArgNames() []string { return []string{"x", "k"} }

func (m *xkModel) Forward(x, k nn.Value) nn.Value { return m.f(x, k) }

// TestUnbackedExport: an unbacked size flows into later shapes (zeros(n),
// cat along it); checks narrow it and are asserted; what cannot be
// exported is an error naming the Go line.
func TestUnbackedExport(t *testing.T) {
	x, _ := tensor.New(tensor.Float32, 6, 3)
	k, _ := tensor.FromInt64s(tensor.Int64, []int64{2})
	kf, _ := tensor.FromFloat64s(tensor.Float32, []float64{2})
	for _, tc := range []struct {
		name  string
		k     *tensor.Tensor
		f     func(x, k nn.Value) nn.Value
		want  []string // in the program's text
		error string
	}{
		{"zeros", k, func(x, k nn.Value) nn.Value {
			n := k.Item()
			functional.ConstrainAsSize(n, 1, 10)
			return nn.CallOp(nn.Op("aten::full"), []any{n, 3}, 0.0)
		}, []string{`full: "f32[u0, 3]"`, "u0 >= 1", "u0 <= 10", "sym_constrain_range_for_size"}, ""},
		{"value range", k, func(x, k nn.Value) nn.Value {
			n := k.Item()
			functional.ConstrainAsValue(n, -3, 3)
			return x // the assertions keep the item
		}, []string{"u0 >= -3", "u0 <= 3"}, ""},
		{"check false for every value", k, func(x, k nn.Value) nn.Value {
			n := k.Item()
			functional.CheckIsSize(n)
			functional.Check(n.Lt(0))
			return x
		}, nil, "false for every allowed value"},
		{"branch on unbacked", k, func(x, k nn.Value) nn.Value {
			if k.Item().Gt(3).Bool() {
				return x
			}
			return x.Neg()
		}, nil, "u0"},
		{"float item", kf, func(x, k nn.Value) nn.Value {
			return x.Mul(k.Item())
		}, []string{`_local_scalar_dense: "Sym(zuf0)"`, "zuf0: VR[-oo, oo]"}, ""},
		{"float item arithmetic", kf, func(x, k nn.Value) nn.Value {
			return x.Mul(k.Item().Mul(2))
		}, nil, "float zuf0 read from tensor data"},
		{"float item as a size", kf, func(x, k nn.Value) nn.Value {
			functional.CheckIsSize(k.Item())
			return x
		}, nil, "the value must be an int"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &xkModel{f: tc.f}
			m.Init(m, "Fn")
			ep, err := export.Export(m, []any{x, tc.k}, nil)
			if tc.error != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.error)
				assert.Contains(t, err.Error(), "unbacked_test.go")
				return
			}
			require.NoError(t, err)
			for _, w := range tc.want {
				assert.Contains(t, ep.String(), w)
			}
			_, err = ep.Run(x, tc.k)
			require.NoError(t, err)
		})
	}
}

// TestUnbackedLoadedDecomposition: PyTorch 2.6's own unbacked program
// (unbacked.pt2, copied from ../shared/pt2) decomposes to its core
// structure keeping the file's unbacked symbols: item's u0 and nonzero's
// u1, not fresh ones.
func TestUnbackedLoadedDecomposition(t *testing.T) {
	_, want := readEPJSON(t, "testdata/unbacked.ep.json")
	ep, err := pt2.Load("testdata/unbacked.pt2")
	require.NoError(t, err)
	dec, err := ep.RunDecompositions(decomp.Core())
	require.NoError(t, err)
	nodes, ops, _, _ := structureOf(dec)
	assert.Equal(t, want.Nodes, nodes)
	assert.Equal(t, want.OpCounts, ops)
	text := dec.String()
	assert.Contains(t, text, `_local_scalar_dense: "Sym(u0)"`)
	assert.Contains(t, text, `slice_1: "f32[u0, 3]"`)
	assert.Contains(t, text, `nonzero: "i64[u1, 1]"`)
}

// TestUnbackedCheckAgainstDynamicDim: Check(n <= x.size(0)) with a
// dynamic x is not a range of n: the program asserts the comparison of
// the two nodes at run time, after both.
func TestUnbackedCheckAgainstDynamicDim(t *testing.T) {
	m := &xkModel{f: func(x, k nn.Value) nn.Value {
		n := k.Item()
		functional.CheckIsSize(n)
		functional.Check(n.Le(x.Size(0)))
		return x.Index(nn.Slice(nil, n))
	}}
	m.Init(m, "Head")
	x, _ := tensor.New(tensor.Float32, 6, 3)
	k, _ := tensor.FromInt64s(tensor.Int64, []int64{2})
	ep, err := export.Export(m, []any{x, k}, export.Dims{"x": {0: export.Dim("rows", 2, 64)}})
	require.NoError(t, err)
	text := ep.String()
	assert.Contains(t, text, "Runtime assertion failed for expression u0 <= s0")
	x9, _ := tensor.New(tensor.Float32, 9, 3)
	k7, _ := tensor.FromInt64s(tensor.Int64, []int64{7})
	out, err := ep.Run(x9, k7)
	require.NoError(t, err)
	assert.Equal(t, []int{7, 3}, out.MustTensor().Shape())
	_, err = ep.Run(x, k7)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Runtime assertion failed for expression u0 <= s0")
}
