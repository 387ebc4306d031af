package export_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// loopInTraced is the seed's loop_in_traced_fn: a Go loop over
// x.size(0), which a trace unrolls.
type loopInTraced struct{ nn.Base }

func newLoopInTraced() *loopInTraced {
	m := &loopInTraced{}
	m.Init(m, "LoopInTraced")
	return m
}

func (m *loopInTraced) Forward(x nn.Value) nn.Value {
	result := x.Index(0)
	for i := range x.Size(0).Int() {
		result = result.Mul(x.Index(i))
	}
	return result
}

// goConstant adds a tensor that Go code makes from the input's size: the
// trace lifts it as a constant, whose value depends on the input.
type goConstant struct{ nn.Base }

func (m *goConstant) Forward(x nn.Value) nn.Value {
	c, err := tensor.FromFloat64s(tensor.Float32, []float64{float64(x.Size(0).Int())}, 1)
	if err != nil {
		panic(err)
	}
	return x.Add(nn.Tensor(c))
}

// dropped is dropout, left in training mode.
type dropped struct {
	nn.Base
	Drop *nn.Dropout
}

func (m *dropped) Forward(x nn.Value) nn.Value { return nn.Call(m.Drop, x).Relu() }

// counting updates a buffer on every call.
type counting struct {
	nn.Base
	Calls *nn.Buffer
}

func (m *counting) Forward(x nn.Value) nn.Value {
	m.Calls.Value().Add_(1.0)
	return x.Mul(2)
}

// randT is a float32 tensor of the given shape with values in [0, 1) from
// a fixed generator.
func randT(seed uint64, shape ...int) *tensor.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float64, n)
	s := seed
	for i := range v {
		s = s*6364136223846793005 + 1442695040888963407
		v[i] = 0.5 + float64(s>>40)/float64(1<<24)
	}
	t, err := tensor.FromFloat64s(tensor.Float32, v, shape...)
	if err != nil {
		panic(err)
	}
	return t
}

func TestCheckInputs(t *testing.T) {
	gc := &goConstant{}
	gc.Init(gc, "GoConstant")
	dr := &dropped{}
	dr.Init(dr, "Dropped")
	dr.Drop = nn.RegisterModule(&dr.Base, "drop", nn.NewDropout(0.5))
	tests := []struct {
		name    string
		m       nn.Module
		example []any
		checks  [][]any
		// want: nil for a check that passes; otherwise what the error holds.
		kind      export.TraceCheckKind
		check     int
		diff      []string // lines GraphDiff has
		trace     string   // the first diverging node of the trace
		output    int      // the first differing output, -1 for none
		ran       string
		nondeterm string // a random node the error names
	}{
		{name: "loop/same size passes", m: newLoopInTraced(), example: []any{randT(1, 3, 4, 5)},
			checks: [][]any{{randT(2, 3, 6, 7)}, {randT(3, 3, 1, 1)}}},
		{name: "loop/larger size", m: newLoopInTraced(), example: []any{randT(1, 3, 4, 5)},
			checks: [][]any{{randT(4, 3, 2, 2)}, {randT(2, 4, 5, 6)}}, kind: export.GraphsDiffered, check: 1,
			diff: []string{
				"      %mul_2 = call_function[target=aten.mul.Tensor](args = (%mul_1, %select_3), kwargs = {})",
				"-     return (mul_2,)",
				"+     %select_4 = call_function[target=aten.select.int](args = (%x, 0, 3), kwargs = {})",
				"+     %mul_3 = call_function[target=aten.mul.Tensor](args = (%mul_2, %select_4), kwargs = {})",
				"+     return (mul_3,)",
			},
			trace: "return (mul_2,)", output: 0},
		{name: "loop/smaller size", m: newLoopInTraced(), example: []any{randT(1, 3, 4, 5)},
			checks: [][]any{{randT(2, 2, 3, 4)}}, kind: export.CheckRunFailed,
			diff: []string{
				"-     %select_3 = call_function[target=aten.select.int](args = (%x, 0, 2), kwargs = {})",
				"+     return (mul_1,)",
			},
			trace: "%select_3 = call_function[target=aten.select.int](args = (%x, 0, 2), kwargs = {})", output: -1, ran: "trace"},
		{name: "go constant", m: gc, example: []any{randT(1, 3, 4)},
			checks: [][]any{{randT(2, 5, 4)}}, kind: export.ConstantsDiffered, output: 0},
		{name: "dropout in training", m: dr, example: []any{randT(1, 64, 64)},
			checks: [][]any{{randT(2, 64, 64)}}, kind: export.OutputsDiffered, output: 0, nondeterm: "aten.native_dropout.default"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ep, err := export.Export(tc.m, tc.example, nil, export.CheckInputs(tc.checks...))
			if tc.kind == 0 {
				require.NoError(t, err)
				require.NotNil(t, ep)
				return
			}
			require.Error(t, err)
			var e *export.TraceCheckError
			require.True(t, errors.As(err, &e), "%v", err)
			assert.Equal(t, tc.kind, e.Kind, "%v", err)
			assert.Equal(t, tc.check, e.Check)
			assert.Contains(t, err.Error(), "Tracing failed sanity checks!")
			lines := strings.Split(e.GraphDiff, "\n")
			for _, l := range tc.diff {
				assert.Contains(t, lines, l)
			}
			if len(tc.diff) > 0 {
				assert.Contains(t, err.Error(), "ERROR: Graphs differed across invocations!")
				require.NotNil(t, e.Diverging)
				assert.Equal(t, tc.trace, e.Diverging.Trace)
				assert.Contains(t, e.Diverging.TraceSource+e.Diverging.CheckSource, fmt.Sprintf("tracecheck_test.go:%d in export_test.(*loopInTraced).Forward", loopBodyLine(t)))
			} else {
				assert.Empty(t, e.GraphDiff)
			}
			if tc.output < 0 {
				assert.Nil(t, e.Output)
			} else {
				require.NotNil(t, e.Output, "%v", err)
				assert.Equal(t, tc.output, e.Output.Index)
				assert.Equal(t, "Go function", e.Output.Against)
				assert.Greater(t, e.Output.MaxAbsDiff, 1e-5)
				assert.Contains(t, err.Error(), fmt.Sprintf("Output nr %d. of the traced function does not match", tc.output+1))
			}
			assert.Equal(t, tc.ran, e.Ran)
			if tc.ran != "" {
				assert.Error(t, e.Err)
				assert.Equal(t, e.Err, errors.Unwrap(err))
				assert.Contains(t, err.Error(), "encountered an exception while running the "+tc.ran)
			}
			if tc.kind == export.ConstantsDiffered {
				require.NotNil(t, e.Constant)
				assert.Equal(t, "c_lifted_tensor_0", e.Constant.Name)
				assert.InDelta(t, 2.0, e.Constant.MaxAbsDiff, 1e-9) // 5 - 3
				assert.Contains(t, err.Error(), "ERROR: Tensor-valued Constant nodes differed in value across invocations")
			}
			if tc.nondeterm != "" {
				require.NotEmpty(t, e.Nondeterministic)
				assert.Contains(t, e.Nondeterministic[0], tc.nondeterm)
				assert.Contains(t, err.Error(), "Trace had nondeterministic nodes.")
			} else {
				assert.Empty(t, e.Nondeterministic)
			}
		})
	}
}

// TestCheckInputsEval: the same dropout model in eval mode has no random
// node and passes.
func TestCheckInputsEval(t *testing.T) {
	dr := &dropped{}
	dr.Init(dr, "Dropped")
	dr.Drop = nn.RegisterModule(&dr.Base, "drop", nn.NewDropout(0.5))
	nn.Eval(dr)
	_, err := export.Export(dr, []any{randT(1, 8, 8)}, nil, export.CheckInputs([]any{randT(2, 8, 8)}))
	require.NoError(t, err)
}

// TestCheckInputsRestoresBuffers: the runs of the check leave the
// module's buffers as Export found them.
func TestCheckInputsRestoresBuffers(t *testing.T) {
	m := &counting{}
	m.Init(m, "Counting")
	zero, err := tensor.New(tensor.Float32)
	require.NoError(t, err)
	m.Calls = m.RegisterBuffer("calls", zero, true)
	ep, err := export.Export(m, []any{randT(1, 2, 3)}, nil, export.CheckInputs([]any{randT(2, 4, 3)}, []any{randT(3, 1, 3)}))
	require.NoError(t, err)
	assert.Equal(t, []float64{0}, m.Calls.Value().Tensor().Float64s())
	assert.Equal(t, []float64{0}, ep.StateDict()["calls"].Float64s())
}

// TestCheckInputsErrors: a bad check input is an error naming the check;
// a zero tolerance still passes a trace whose outputs are exact.
func TestCheckInputsErrors(t *testing.T) {
	_, err := export.Export(newLoopInTraced(), []any{randT(1, 3, 4)}, nil,
		export.CheckInputs([]any{randT(1, 3, 4), randT(2, 3, 4)}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "check input 0")

	_, err = export.Export(newLoopInTraced(), []any{randT(1, 3, 4)}, nil,
		export.CheckInputs([]any{randT(2, 3, 4)}), export.CheckTolerance(0))
	require.NoError(t, err)
}

// TestCheckInputsMatchesPyTorch compares the check of the seed's loop
// with what torch.jit.trace 2.6 reports for the same function and inputs
// (testdata/tracecheck/loop_in_traced_fn.txt, made by make_reference.py):
// the graph diff adds the same operators (one select, one mul: the loop's
// extra step), and the output mismatch has the same numbers, worded the
// same.
func TestCheckInputsMatchesPyTorch(t *testing.T) {
	ref, err := os.ReadFile("testdata/tracecheck/loop_in_traced_fn.txt")
	require.NoError(t, err)
	full := func(shape ...int) *tensor.Tensor {
		x, err := tensor.Full(tensor.Float32, 1.5, shape...)
		require.NoError(t, err)
		return x
	}
	_, err = export.Export(newLoopInTraced(), []any{full(3, 4, 5)}, nil,
		export.CheckInputs([]any{full(4, 5, 6)}, []any{full(2, 3, 4)}))
	var e *export.TraceCheckError
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, export.GraphsDiffered, e.Kind)
	assert.Equal(t, 0, e.Check)

	// Net operators added by the diff: PyTorch's aten::select and
	// aten::mul, gofx's aten.select.int and aten.mul.Tensor.
	netOps := func(diff string, ops map[string]string) map[string]int {
		out := map[string]int{}
		for _, l := range strings.Split(diff, "\n") {
			l = strings.TrimPrefix(l, "\t\t")
			for name, spelling := range ops {
				if !strings.Contains(l, spelling) {
					continue
				}
				switch {
				case strings.HasPrefix(l, "+ "):
					out[name]++
				case strings.HasPrefix(l, "- "):
					out[name]--
				}
			}
		}
		return out
	}
	want := netOps(string(ref), map[string]string{"select": "aten::select(", "mul": "aten::mul("})
	got := netOps(e.GraphDiff, map[string]string{"select": "aten.select.int", "mul": "aten.mul.Tensor"})
	assert.Equal(t, map[string]int{"select": 1, "mul": 1}, want)
	assert.Equal(t, want, got)
	assert.Contains(t, string(ref), "ERROR: Graphs differed across invocations!")
	assert.Contains(t, err.Error(), "ERROR: Graphs differed across invocations!")

	// The output: PyTorch's warning's detailed error, line for line.
	require.NotNil(t, e.Output)
	i := strings.Index(string(ref), "Tensor-likes are not close!")
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, strings.TrimSpace(string(ref)[i:]), e.Output.Detail)
	assert.Equal(t, 0, e.Output.Index)
	assert.Contains(t, string(ref), "Output nr 1. of the traced function does not match the corresponding output of the Python function.")
	assert.Equal(t, []int{0, 0}, e.Output.At)
	assert.Equal(t, 30, e.Output.Mismatched)
	assert.Equal(t, 30, e.Output.Total)
}

// loopBodyLine is the line of loopInTraced's loop body in this file.
func loopBodyLine(t *testing.T) int {
	src, err := os.ReadFile("tracecheck_test.go")
	require.NoError(t, err)
	for i, l := range strings.Split(string(src), "\n") {
		if strings.TrimSpace(l) == "result = result.Mul(x.Index(i))" {
			return i + 1
		}
	}
	t.Fatal("no loop body in tracecheck_test.go")
	return 0
}
