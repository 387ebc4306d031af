package main

import (
	"bytes"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/torchio"
)

// The default model of gofx optimize: the zoo's convnet (two conv + batch
// norm stages) with the weights PyTorch saved and its recorded inputs and
// outputs, so the command runs from a fresh clone with no arguments.
var (
	//go:embed embedded/convnet.state_dict.pt
	defaultWeights []byte
	//go:embed embedded/convnet.io.json
	defaultIO []byte
)

const defaultModel = "convnet"

// runOptimize exports a model, runs the default pass pipeline over it,
// checks the outputs are unchanged and times both programs.
func runOptimize(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("optimize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("model", "", "zoo model name ("+strings.Join(models.Names(), ", ")+"); default: "+defaultModel+" with embedded weights")
	weights := fs.String("weights", "", "state dict saved by torch.save (NAME.state_dict.pt)")
	ioPath := fs.String("io", "", "inputs (and PyTorch's outputs) to check and time with (default: NAME.io.json beside -weights)")
	runFor := fs.Duration("time", 500*time.Millisecond, "how long to time each program for (at least 3 runs each)")
	showGraph := fs.Bool("graph", true, "print the optimized graph")
	out := fs.String("o", "", "for a .pt2 file: write the optimized program to OUT.pt2 (in the file's container)")
	program := fs.String("program", "", "for a .pt2 file holding several programs: which one (default: the first)")
	opsFile := fs.String("ops", "", opsUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *runFor < 0 {
		return fmt.Errorf("%w: -time must not be negative", errUsage)
	}
	if file, err := fileArg(fs.Args()); err != errNoFile {
		if err != nil {
			return err
		}
		if err := defineOps(*opsFile); err != nil {
			return err
		}
		if *model != "" || *weights != "" {
			return fmt.Errorf("%w: a .pt2 file carries its program and weights: -model and -weights are for zoo models", errUsage)
		}
		if ts, _ := isTorchScript(file); ts {
			return optimizeTorchScript(file, *ioPath, *out, *showGraph, stdout)
		}
		return optimizeFile(file, *program, *ioPath, *out, *runFor, *showGraph, stdout)
	}
	if *out != "" {
		return fmt.Errorf("%w: -o writes an optimized .pt2 file: give one to optimize", errUsage)
	}
	if *model == "" && (*weights != "" || *ioPath != "") {
		return fmt.Errorf("%w: -weights and -io need -model", errUsage)
	}
	in, err := optimizeInputs(*model, *weights, *ioPath)
	if err != nil {
		return err
	}
	return optimize(in, *runFor, *showGraph, stdout)
}

// optimizeInput is what gofx optimize works on.
type optimizeInput struct {
	spec    *models.Spec
	sd      *torchio.StateDict // nil: fresh weights
	cases   *models.IO
	example []nn.Value
	from    string // where the weights and inputs came from
}

func optimizeInputs(model, weights, ioPath string) (*optimizeInput, error) {
	in := &optimizeInput{}
	var err error
	if model == "" {
		model = defaultModel
		if in.sd, err = torchio.Read(bytes.NewReader(defaultWeights), int64(len(defaultWeights))); err != nil {
			return nil, fmt.Errorf("embedded weights: %w", err)
		}
		if in.cases, err = models.ParseIO(defaultIO); err != nil {
			return nil, fmt.Errorf("embedded inputs: %w", err)
		}
		in.from = "embedded weights and inputs (PyTorch's convnet.state_dict.pt, convnet.io.json)"
	} else {
		if weights != "" {
			if in.sd, err = torchio.Load(weights); err != nil {
				return nil, err
			}
		}
		if ioPath == "" && weights != "" {
			guess := filepath.Join(filepath.Dir(weights), model+".io.json")
			if _, err := os.Stat(guess); err == nil {
				ioPath = guess
			}
		}
		if ioPath == "" {
			return nil, fmt.Errorf("%w: no inputs for %s: give -io NAME.io.json", errUsage, model)
		}
		if in.cases, err = models.ReadIO(ioPath); err != nil {
			return nil, err
		}
		w := "fresh weights"
		if weights != "" {
			w = weights
		}
		in.from = w + ", inputs from " + ioPath
	}
	if in.spec, err = models.Lookup(model); err != nil {
		return nil, err
	}
	if len(in.cases.Cases) == 0 {
		return nil, fmt.Errorf("%s: the io file has no cases", model)
	}
	in.example = in.cases.Cases[0].Inputs
	return in, nil
}

func optimize(in *optimizeInput, runFor time.Duration, showGraph bool, w io.Writer) error {
	m, err := models.Fresh(in.spec, in.sd)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "== %s: %s\n", in.spec.Name, in.from)

	t0 := time.Now()
	ep, err := models.Export(in.spec, m, in.example)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	fmt.Fprintf(w, "exported to core ATen in %s: %d nodes\n\n", roundDur(time.Since(t0)), ep.Graph.Len())

	// The pipeline runs on the program's GraphModule; Transform lifts the
	// state back, so the optimized program checks its inputs as ep does.
	var report *passes.Report
	opt, err := ep.Transform(export.PassFunc(func(gm *fx.GraphModule) (bool, error) {
		var err error
		if report, err = passes.Optimize(gm); err != nil || report == nil {
			return false, err
		}
		return report.Changed, nil
	}))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "== passes\n%s\n", strings.TrimRight(report.String(), "\n"))
	fmt.Fprintf(w, "\n== nodes per operator (before -> after)\n%s\n", opCountDiff(ep.Graph, opt.Graph))
	if showGraph {
		fmt.Fprintf(w, "== optimized graph\n%s\n", strings.TrimRight(opt.Graph.Code(), "\n"))
	}

	// Outputs: the optimized program against the exported one on every
	// recorded case, and against PyTorch's outputs where they were recorded.
	fmt.Fprintln(w, "\n== outputs")
	worst := 0.0
	for i, c := range in.cases.Cases {
		want, err := runProgram(ep, c.Inputs)
		if err != nil {
			return fmt.Errorf("case %d: exported program: %w", i, err)
		}
		got, err := runProgram(opt, c.Inputs)
		if err != nil {
			return fmt.Errorf("case %d: optimized program: %w", i, err)
		}
		d, err := models.Compare(got, models.Flatten(want))
		if err != nil {
			return fmt.Errorf("case %d: optimized program's outputs differ in kind: %w", i, err)
		}
		worst = max(worst, d)
		if len(c.Outputs) > 0 && in.sd != nil { // PyTorch's outputs are for PyTorch's weights
			dt, err := models.Compare(got, c.Outputs)
			if err != nil {
				return fmt.Errorf("case %d: against PyTorch: %w", i, err)
			}
			fmt.Fprintf(w, "case %d: max |optimized - exported| = %.3g, max |optimized - PyTorch| = %.3g\n", i, d, dt)
			worst = max(worst, dt)
		} else {
			fmt.Fprintf(w, "case %d: max |optimized - exported| = %.3g\n", i, d)
		}
	}
	if worst > in.spec.Tol {
		fmt.Fprintf(w, "FAIL: outputs changed by %.3g (tolerance %g)\n", worst, in.spec.Tol)
		return fmt.Errorf("%w: outputs changed by %.3g", errFailed, worst)
	}
	fmt.Fprintf(w, "unchanged within %g on %d case(s)\n", in.spec.Tol, len(in.cases.Cases))

	if runFor > 0 {
		tb, nb, err := timeProgram(ep, in.example, runFor)
		if err != nil {
			return err
		}
		ta, na, err := timeProgram(opt, in.example, runFor)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\n== speed (interpreter, example input)\nexported:  %s per run (%d runs)\noptimized: %s per run (%d runs)\nspeed-up:  %.2fx\n",
			roundDur(tb), nb, roundDur(ta), na, float64(tb)/float64(ta))
	}
	return nil
}

// runProgram runs ep on copies of the inputs (models may write into them).
func runProgram(ep *export.ExportedProgram, inputs []nn.Value) (nn.Value, error) {
	args := make([]any, len(inputs))
	for i, v := range inputs {
		if t := v.Tensor(); t != nil {
			args[i] = nn.Tensor(t.Clone())
		} else {
			args[i] = v
		}
	}
	return ep.Run(args...)
}

// timeProgram runs ep on inputs for about d (at least 3 runs) and returns
// the median time per run.
func timeProgram(ep *export.ExportedProgram, inputs []nn.Value, d time.Duration) (time.Duration, int, error) {
	var times []time.Duration
	start := time.Now()
	for len(times) < 3 || time.Since(start) < d {
		t := time.Now()
		if _, err := runProgram(ep, inputs); err != nil {
			return 0, 0, err
		}
		times = append(times, time.Since(t))
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return times[len(times)/2], len(times), nil
}

// opCountDiff lists, per call target, the node count before and after,
// changed counts marked.
func opCountDiff(before, after *graph.Graph) string {
	b, a := opCounts(before), opCounts(after)
	keys := make([]string, 0, len(b)+len(a))
	for k := range b {
		keys = append(keys, k)
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	width := 0
	for _, k := range keys {
		width = max(width, len(k))
	}
	var sb strings.Builder
	for _, k := range keys {
		mark := ""
		if b[k] != a[k] {
			mark = "  *"
		}
		fmt.Fprintf(&sb, "%-*s  %3d -> %3d%s\n", width, k, b[k], a[k], mark)
	}
	fmt.Fprintf(&sb, "%-*s  %3d -> %3d\n", width, "total", before.Len(), after.Len())
	return sb.String()
}

// opCounts counts the nodes of g by opcode and, for calls, target.
func opCounts(g *graph.Graph) map[string]int {
	c := map[string]int{}
	for n := range g.Nodes() {
		switch n.Op() {
		case node.CallFunction, node.CallMethod:
			c[n.Target().String()]++
		default:
			c[n.Op().String()]++
		}
	}
	return c
}

func roundDur(d time.Duration) time.Duration {
	switch {
	case d > time.Second:
		return d.Round(time.Millisecond)
	case d > time.Millisecond:
		return d.Round(time.Microsecond)
	default:
		return d.Round(100 * time.Nanosecond)
	}
}
