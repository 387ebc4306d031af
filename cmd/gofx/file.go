package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/txtar"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/pt2/archive"
)

// The file commands: gofx inspect, check, optimize and draw on a .pt2
// file saved by torch.export (or by gofx).

// programFile is a program read from a .pt2 file, with what the file
// says beside it.
type programFile struct {
	path   string
	ep     *export.ExportedProgram
	format pt2.Format // the container it came in, for writing it back
	// args and kwargs are the file's example inputs, example their
	// flat leaves (nil when the file has none).
	args    []any
	kwargs  map[string]any
	example []any
}

// saveOptions writes a program in the file's container with the file's
// example inputs.
func (pf *programFile) saveOptions() pt2.SaveOptions {
	return pt2.SaveOptions{Format: pf.format, ExampleArgs: pf.args, ExampleKwargs: pf.kwargs}
}

// loadProgramFile reads model name ("" for the only or first one) of the
// .pt2 file at path.
func loadProgramFile(path, name string) (*programFile, error) {
	a, err := archive.Load(path)
	if err != nil {
		return nil, err
	}
	ep, err := pt2.FromArchive(a, name)
	if err != nil {
		return nil, err
	}
	pf := &programFile{path: path, ep: ep, format: a.Layout}
	m := a.Models[0]
	for _, mm := range a.Models {
		if mm.Name == name {
			m = mm
		}
	}
	if m.ExampleInputs != nil {
		if pf.args, pf.kwargs, err = pt2.ExampleInputs(m); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if pf.example, err = ep.InSpec().Flatten("example inputs", []any{pf.args, pf.kwargs}); err != nil {
			return nil, fmt.Errorf("%s: example inputs: %w", path, err)
		}
	}
	return pf, nil
}

// filePipelines are the -via values of gofx check on a file.
var filePipelines = []string{"load", "decomposed", "optimized", "roundtrip"}

// pipelineProgram gives the program a pipeline runs: the loaded one, after
// RunDecompositions to core ATen, after the default pass pipeline, or
// after writing it to .pt2 in its own container and reading it back.
func pipelineProgram(pf *programFile, pipeline string) (*export.ExportedProgram, error) {
	switch pipeline {
	case "load":
		return pf.ep, nil
	case "decomposed":
		return pf.ep.RunDecompositions(decomp.Core())
	case "optimized":
		opt, _, err := optimizeProgram(pf.ep)
		return opt, err
	case "roundtrip":
		var buf bytes.Buffer
		if err := pt2.Save(&buf, pf.ep, pf.saveOptions()); err != nil {
			return nil, err
		}
		return pt2.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	}
	return nil, fmt.Errorf("%w: unknown pipeline %q (want %s)", errUsage, pipeline, strings.Join(filePipelines, ", "))
}

// optimizeProgram runs the default pass pipeline on ep.
func optimizeProgram(ep *export.ExportedProgram) (*export.ExportedProgram, *passes.Report, error) {
	var report *passes.Report
	opt, err := ep.Transform(export.PassFunc(func(gm *fx.GraphModule) (bool, error) {
		var err error
		if report, err = passes.Optimize(gm); err != nil || report == nil {
			return false, err
		}
		return report.Changed, nil
	}))
	return opt, report, err
}

// checkFile runs the io.json cases on a program file through pipelines.
func checkFile(path, name, ioPath string, pipelines []string, w io.Writer) error {
	for _, p := range pipelines {
		if !contains(filePipelines, p) {
			return fmt.Errorf("%w: unknown pipeline %q for a .pt2 file (want %s)", errUsage, p, strings.Join(filePipelines, ", "))
		}
	}
	pf, err := loadProgramFile(path, name)
	if err != nil {
		return err
	}
	cases, err := pt2.ReadIO(ioPath)
	if err != nil {
		return err
	}
	passed, failed := 0, 0
	for _, p := range pipelines {
		prog, err := pipelineProgram(pf, p)
		if err != nil {
			for i := range cases.Cases {
				fmt.Fprintf(w, "%-10s case %d: FAIL: %v\n", p, i, err)
			}
			failed += len(cases.Cases)
			continue
		}
		tol := pt2.Tolerance(pf.ep)
		for i := range cases.Cases {
			c := &cases.Cases[i]
			r := pt2.CheckCase(prog, c, tol)
			label := fmt.Sprintf("%-10s case %d", p, i)
			if c.Note != "" {
				label += " (" + c.Note + ")"
			}
			if r.Passed() {
				passed++
				fmt.Fprintf(w, "%s: ok (max abs diff %.3g, max rel diff %.3g)\n", label, r.MaxAbs, r.MaxRel)
			} else {
				failed++
				fmt.Fprintf(w, "%s: FAIL: %v\n", label, r.Err)
			}
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d", errFailed, failed, passed+failed)
	}
	return nil
}

// optimizeFile is gofx optimize on a file: the default pipeline on the
// loaded program, the outputs checked against the file's own program on its
// example inputs (and PyTorch's recorded outputs with -io), the speed-up,
// and the optimized program written to out.
func optimizeFile(path, name, ioPath, out string, runFor time.Duration, showGraph bool, w io.Writer) error {
	pf, err := loadProgramFile(path, name)
	if err != nil {
		return err
	}
	ep := pf.ep
	fmt.Fprintf(w, "== %s: %d nodes\n\n", path, ep.Graph.Len())
	opt, report, err := optimizeProgram(ep)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "== passes\n%s\n", strings.TrimRight(report.String(), "\n"))
	fmt.Fprintf(w, "\n== nodes per operator (before -> after)\n%s\n", opCountDiff(ep.Graph, opt.Graph))
	if showGraph {
		fmt.Fprintf(w, "== optimized graph\n%s\n", strings.TrimRight(opt.Graph.Code(), "\n"))
	}

	// The cases: the file's example inputs, and those of -io.
	var cases []pt2.IOCase
	if pf.example != nil {
		in := make([]nn.Value, len(pf.example))
		for i, v := range pf.example {
			in[i] = nn.Of(v)
		}
		cases = append(cases, pt2.IOCase{Note: "the file's example inputs", Inputs: in})
	}
	if ioPath != "" {
		io, err := pt2.ReadIO(ioPath)
		if err != nil {
			return err
		}
		cases = append(cases, io.Cases...)
	}
	if len(cases) == 0 {
		return fmt.Errorf("%w: %s has no example inputs: give -io NAME.io.json", errUsage, path)
	}
	fmt.Fprintln(w, "\n== outputs")
	tol := pt2.Tolerance(ep)
	bad := 0
	for i := range cases {
		c := cases[i]
		// The file's own program gives the expected outputs, on fresh state.
		want, err := ep.Clone().RunFlat(cloneValues(c.Inputs)...)
		if err != nil {
			return fmt.Errorf("case %d: the file's program: %w", i, err)
		}
		mine := pt2.IOCase{Note: c.Note, Inputs: c.Inputs, Outputs: want}
		r := pt2.CheckCase(opt, &mine, tol)
		line := fmt.Sprintf("case %d (%s): max |optimized - loaded| = %.3g", i, c.Note, r.MaxAbs)
		if r.Passed() && len(c.Outputs) > 0 {
			rt := pt2.CheckCase(opt, &c, tol)
			line += fmt.Sprintf(", max |optimized - PyTorch| = %.3g", rt.MaxAbs)
			if !rt.Passed() {
				r = rt
			}
		}
		if !r.Passed() {
			bad++
			line += ": FAIL: " + r.Err.Error()
		}
		fmt.Fprintln(w, line)
	}
	if bad > 0 {
		return fmt.Errorf("%w: %d of %d cases changed", errFailed, bad, len(cases))
	}
	fmt.Fprintf(w, "unchanged within %g on %d case(s)\n", tol, len(cases))

	if runFor > 0 {
		tb, nb, err := timeFlat(ep, cases[0].Inputs, runFor)
		if err != nil {
			return err
		}
		ta, na, err := timeFlat(opt, cases[0].Inputs, runFor)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\n== speed (interpreter, %s)\nloaded:    %s per run (%d runs)\noptimized: %s per run (%d runs)\nspeed-up:  %.2fx\n",
			cases[0].Note, roundDur(tb), nb, roundDur(ta), na, float64(tb)/float64(ta))
	}
	if out != "" {
		opts := pf.saveOptions()
		opts.ForPyTorch = true // gofx's fused operators decomposed: PyTorch runs the file
		if err := pt2.Write(out, opt, opts); err != nil {
			return err
		}
		fmt.Fprintf(w, "\nwrote %s (%s container)\n", out, pf.format)
	}
	return nil
}

func cloneValues(vs []nn.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		if t := v.Tensor(); t != nil {
			out[i] = t.Clone()
		} else {
			out[i] = v
		}
	}
	return out
}

// timeFlat runs ep on copies of the flat inputs for about d (at least 3
// runs) and returns the median time per run.
func timeFlat(ep *export.ExportedProgram, inputs []nn.Value, d time.Duration) (time.Duration, int, error) {
	ep = ep.Clone()                                               // programs that mutate their state mutate a copy
	if _, err := ep.RunFlat(cloneValues(inputs)...); err != nil { // warm up
		return 0, 0, err
	}
	var times []time.Duration
	start := time.Now()
	for len(times) < 3 || time.Since(start) < d {
		in := cloneValues(inputs)
		t := time.Now()
		if _, err := ep.RunFlat(in...); err != nil {
			return 0, 0, err
		}
		times = append(times, time.Since(t))
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return times[len(times)/2], len(times), nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// errNoFile is returned by fileArg when no file was given.
var errNoFile = errors.New("no file")

// fileArg returns the one positional argument of a file command.
func fileArg(args []string) (string, error) {
	switch len(args) {
	case 0:
		return "", errNoFile
	case 1:
		return args[0], nil
	}
	return "", fmt.Errorf("%w: want one .pt2 file, got %q", errUsage, args)
}

const opsUsage = "define custom operators the .pt2 file calls: a txtar file, each file in it named by an operator's schema and holding its body as graph text (interp.Define)"

// defineOps registers the custom operators of the txtar file at path
// ("" does nothing): each file of the archive is named by a schema
// (gofxtest::scaled_softplus(Tensor x, float beta) -> Tensor) and holds
// the operator's body as gofx graph text, whose placeholders are the
// schema's arguments.
func defineOps(path string) error {
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("-ops: %w", err)
	}
	a := txtar.Parse(data)
	if len(a.Files) == 0 {
		return fmt.Errorf("-ops %s: no operator in it (a txtar file: \"-- SCHEMA --\" then the body's graph text)", path)
	}
	for _, f := range a.Files {
		if s, err := ops.ParseSchema(f.Name); err == nil {
			if op, ok := ops.Global().Lookup(s.QualifiedName()); ok && op.Schema().String() == s.String() {
				continue // defined by an earlier command of this process
			}
		}
		g, err := graph.Parse(string(f.Data))
		if err != nil {
			return fmt.Errorf("-ops %s: %s: %w", path, f.Name, err)
		}
		if _, err := interp.Define(f.Name, g); err != nil {
			return fmt.Errorf("-ops %s: %w", path, err)
		}
	}
	return nil
}
