package models

import (
	"fmt"
	"math"
	"slices"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

// Pipelines are the ways Check can run a model: "eager" calls the module;
// "trace" traces it with fx.SymbolicTrace and runs the GraphModule with the
// interpreter; "export" exports it (export.Export on the example inputs,
// with the Spec's dynamic dimensions) and runs the ExportedProgram;
// "decomposed" does the same after RunDecompositions(decomp.Extra());
// "optimized" exports it, runs the passes.Default pipeline (batch-norm
// folding, constant folding, CSE, DCE) on the program with
// ExportedProgram.Transform and runs the optimized program (its inputs
// checked as the exported one's are).
var Pipelines = []string{"eager", "trace", "export", "decomposed", "optimized"}

// Result is the outcome of one case through one pipeline.
type Result struct {
	Case     int
	Seed     int64
	Note     string
	Pipeline string
	MaxDiff  float64 // max |got - want| over all output elements
	Err      error   // a failure to run or an output of the wrong shape or dtype
	Passed   bool
}

func (r Result) String() string {
	what := r.Note
	if what == "" {
		what = fmt.Sprintf("seed %d", r.Seed)
	}
	status := "ok  "
	if !r.Passed {
		status = "FAIL"
	}
	s := fmt.Sprintf("%s case %d (%s) via %s: max abs diff %.3g", status, r.Case, what, r.Pipeline, r.MaxDiff)
	if r.Err != nil {
		s = fmt.Sprintf("%s case %d (%s) via %s: %v", status, r.Case, what, r.Pipeline, r.Err)
	}
	return s
}

// Check runs every case of io through each pipeline on a fresh model
// loaded with weights (each case starts from the same state, so models
// that mutate buffers are checked as PyTorch recorded them), compares the
// flattened outputs with PyTorch's within spec.Tol, and calls report with
// each result. It returns the numbers of passed and failed results; an
// error means the check could not start (an unknown pipeline).
func Check(spec *Spec, weights *torchio.StateDict, io *IO, pipelines []string, report func(Result)) (passed, failed int, err error) {
	for _, p := range pipelines {
		if !slices.Contains(Pipelines, p) {
			return 0, 0, fmt.Errorf("models: unknown pipeline %q (have %v)", p, Pipelines)
		}
	}
	for i, c := range io.Cases {
		for _, p := range pipelines {
			r := Result{Case: i, Seed: c.Seed, Note: c.Note, Pipeline: p}
			out, err := runCase(spec, weights, p, c.Inputs, io.Cases[0].Inputs)
			if err == nil {
				r.MaxDiff, err = Compare(out, c.Outputs)
			}
			r.Err = err
			r.Passed = err == nil && r.MaxDiff <= spec.Tol
			if r.Passed {
				passed++
			} else {
				failed++
			}
			if report != nil {
				report(r)
			}
		}
	}
	return passed, failed, nil
}

// Fresh builds spec's model in eval mode with weights loaded (strictly).
func Fresh(spec *Spec, weights *torchio.StateDict) (nn.Module, error) {
	m := spec.New()
	if err := nn.Err(m); err != nil {
		return nil, err
	}
	nn.Eval(m)
	if weights != nil {
		if _, err := nn.LoadState(m, weights, nn.LoadOptions{}); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func runCase(spec *Spec, weights *torchio.StateDict, pipeline string, inputs, example []nn.Value) (nn.Value, error) {
	m, err := Fresh(spec, weights)
	if err != nil {
		return nn.None, err
	}
	in := cloneInputs(inputs)
	switch pipeline {
	case "trace":
		gm, err := fx.SymbolicTrace(m)
		if err != nil {
			return nn.None, err
		}
		return gm.Run(in...)
	case "export", "decomposed", "optimized":
		ep, err := Export(spec, m, example)
		if err != nil {
			return nn.None, err
		}
		switch pipeline {
		case "optimized":
			if ep, err = ep.Transform(passes.NewManager(passes.Default()...)); err != nil {
				return nn.None, err
			}
		case "decomposed":
			if ep, err = ep.RunDecompositions(decomp.Extra()); err != nil {
				return nn.None, err
			}
		}
		args := make([]any, len(in))
		for i, v := range in {
			args[i] = v
		}
		return ep.Run(args...)
	default:
		return nn.Run(m, in...)
	}
}

// Export exports m (a model of spec) with the example inputs and the
// spec's dynamic dimensions.
func Export(spec *Spec, m nn.Module, example []nn.Value) (*export.ExportedProgram, error) {
	args := make([]any, len(example))
	for i, v := range cloneInputs(example) {
		args[i] = v
	}
	var dims export.Dims
	if spec.Dynamic != nil {
		dims = spec.Dynamic()
	}
	return export.Export(m, args, dims)
}

// cloneInputs copies input tensors, since models may write into them.
func cloneInputs(in []nn.Value) []nn.Value {
	out := make([]nn.Value, len(in))
	for i, v := range in {
		if t := v.Tensor(); t != nil {
			out[i] = nn.Tensor(t.Clone())
		} else {
			out[i] = v
		}
	}
	return out
}

// Flatten returns the tensors and numbers of v in order, tuples expanded,
// as io.json's outputs list them.
func Flatten(v nn.Value) []nn.Value {
	if v.IsTuple() {
		var out []nn.Value
		for _, e := range v.Tuple() {
			out = append(out, Flatten(e)...)
		}
		return out
	}
	return []nn.Value{v}
}

// Compare returns the max abs difference between got (flattened) and want,
// or an error if their structure, shapes or dtypes differ.
func Compare(got nn.Value, want []nn.Value) (float64, error) {
	g := Flatten(got)
	if len(g) != len(want) {
		return 0, fmt.Errorf("%d outputs, want %d", len(g), len(want))
	}
	maxDiff := 0.0
	for i := range g {
		gt, wt := g[i].Tensor(), want[i].Tensor()
		if wt == nil {
			if g[i].Kind() != want[i].Kind() || g[i].String() != want[i].String() {
				return 0, fmt.Errorf("output %d: got %v, want %v", i, g[i], want[i])
			}
			continue
		}
		if gt == nil {
			return 0, fmt.Errorf("output %d: got a %s, want a tensor", i, g[i].Kind())
		}
		if gt.DType() != wt.DType() || !slices.Equal(gt.Shape(), wt.Shape()) {
			return 0, fmt.Errorf("output %d: got %v, want %v", i, gt.String(), wt.String())
		}
		d, err := maxAbsDiff(gt, wt)
		if err != nil {
			return 0, fmt.Errorf("output %d: %w", i, err)
		}
		maxDiff = max(maxDiff, d)
	}
	return maxDiff, nil
}

func maxAbsDiff(a, b *tensor.Tensor) (float64, error) {
	av, bv := a.Float64s(), b.Float64s()
	m := 0.0
	for i := range av {
		x, y := av[i], bv[i]
		switch {
		case math.IsNaN(x) && math.IsNaN(y), x == y:
			continue
		case math.IsNaN(x) || math.IsNaN(y):
			return math.Inf(1), fmt.Errorf("element %d: got %v, want %v", i, x, y)
		}
		m = max(m, math.Abs(x-y))
	}
	return m, nil
}
