package chain

import (
	"fmt"
	"time"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/pattern"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/tensor"
)

// Pattern is the pattern of fx_chain.py: relu(add(x, 1.0)), written as the
// chain's blocks write it.
func Pattern(x nn.Value) nn.Value { return x.Add(1.0).Relu() }

// Replacement is fx_chain.py's replacement: clamp_min(x + 1.0, 0.0).
func Replacement(x nn.Value) nn.Value { return nn.CallOp(clampMin(), x.Add(1.0), 0.0) }

// clampMin is aten::clamp_min (not a core operator, so ops/aten has no
// handle for it).
func clampMin() *ops.Operator {
	op, ok := ops.Global().Lookup("aten::clamp_min")
	if !ok {
		panic("chain: aten::clamp_min is not registered")
	}
	return op
}

// ModelTimings are the seconds each step of the chain workload took, with
// the JSON field names of fx_chain.py. Eager is the model run directly
// (torch.fx's forward runs generated Python; a GraphModule here runs the
// interpreter, which is Interp); Codegen is printing the graph as Python
// code, the part of torch.fx's recompile that gofx has.
type ModelTimings struct {
	Workload       string  `json:"workload"`
	N              int     `json:"n"`
	Nodes          int     `json:"nodes"`
	Trace          float64 `json:"trace_s"`
	ShapeProp      float64 `json:"shapeprop_s"`
	Eager          float64 `json:"eager_s"`
	Interp         float64 `json:"interp_s"`
	ReplacePattern float64 `json:"replace_pattern_s"`
	Matches        int     `json:"matches"`
	DCE            float64 `json:"dce_s"`
	Codegen        float64 `json:"codegen_s"`
}

// TimeModel builds a Model of n blocks and runs fx_chain.py's steps once
// each on it: symbolic trace, shape propagation on a [1, 16] input, eager
// and interpreted runs, replacing relu(add(x, 1.0)) by the clamp_min form,
// dead-code elimination and code generation. It checks the rewritten
// program computes what the model does.
func TimeModel(n int) (ModelTimings, error) {
	t := ModelTimings{Workload: "chain", N: n}
	if n < 1 {
		return t, fmt.Errorf("chain: %d blocks, want at least 1", n)
	}
	m := nn.Eval(NewModel(n))
	vals := make([]float64, 16)
	for i := range vals {
		vals[i] = float64(i-8) / 4
	}
	xt, err := tensor.FromFloat64s(tensor.Float32, vals, 1, 16)
	if err != nil {
		return t, err
	}
	x := nn.Tensor(xt)
	var (
		gm       *fx.GraphModule
		ref, out nn.Value
		matches  []*pattern.Match
	)
	step := func(dst *float64, f func() error) {
		if err != nil {
			return
		}
		start := time.Now()
		err = f()
		*dst = time.Since(start).Seconds()
	}
	step(&t.Trace, func() (e error) { gm, e = fx.SymbolicTrace(m); return })
	if err == nil {
		t.Nodes = gm.Graph.Len()
	}
	step(&t.ShapeProp, func() error { _, e := shapeprop.Propagate(gm, x); return e })
	step(&t.Eager, func() (e error) { ref, e = nn.Run(m, x); return })
	step(&t.Interp, func() error { _, e := interp.New(gm.Graph, gm).Run(x); return e })
	step(&t.ReplacePattern, func() (e error) { matches, e = pattern.Replace(gm, Pattern, Replacement); return })
	t.Matches = len(matches)
	step(&t.DCE, func() error { _, e := passes.DCE.Run(gm); return e })
	step(&t.Codegen, func() error { _ = gm.Code(); return nil })
	if err != nil {
		return t, err
	}
	if t.Matches != n {
		return t, fmt.Errorf("chain: replace_pattern found %d matches in %d blocks", t.Matches, n)
	}
	if out, err = gm.Run(x); err != nil {
		return t, err
	}
	if !tensor.AllClose(out.Tensor(), ref.Tensor(), 1e-5, 1e-5, false) {
		return t, fmt.Errorf("chain: the rewritten program's output differs from the model's")
	}
	return t, nil
}
