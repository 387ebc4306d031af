package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/internal/gemm"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// modelTiming is the JSON line gofx bench model prints.
type modelTiming struct {
	Model   string `json:"model"`
	Program string `json:"program"` // eager or optimized
	Runs    int    `json:"runs"`
	// MedianMs and MinMs are the median and fastest wall time of one
	// run, in milliseconds.
	MedianMs float64 `json:"median_ms"`
	MinMs    float64 `json:"min_ms"`
	// BytesPerRun and AllocsPerRun are what one timed run allocated on
	// the Go heap (runtime.MemStats over all timed runs, divided).
	BytesPerRun  uint64 `json:"bytes_per_run"`
	AllocsPerRun uint64 `json:"allocs_per_run"`
	Kernel       string `json:"kernel"` // internal/gemm's float32 micro-kernel
	GOMAXPROCS   int    `json:"gomaxprocs"`
}

// defaultShapes are the batch-1 inputs of zoo models benchmarked without
// -shape.
var defaultShapes = map[string]string{
	"resnet18": "1x3x224x224",
	"convnet":  "1x3x32x32",
	"mlp":      "1x16",
}

// runBenchModel is gofx bench model: time a zoo model (eagerly, or as its
// optimized exported program) or a .pt2 program (as loaded, or
// optimized) on one input, and print one JSON line.
func runBenchModel(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench model", flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("model", "", "zoo model name ("+strings.Join(models.Names(), ", ")+") or a .pt2 file (run on its example inputs)")
	program := fs.String("program", "optimized", "eager (a zoo model's Go module; a .pt2 program as loaded) or optimized (the default pass pipeline on the exported or loaded program)")
	runs := fs.Int("runs", 20, "number of timed runs")
	warmup := fs.Int("warmup", 3, "number of untimed runs first")
	shape := fs.String("shape", "", `a zoo model's input shape, float32 normal values ("1x3x224x224"; default: the model's batch-1 input)`)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	switch {
	case *model == "":
		return fmt.Errorf("%w: -model is required (a zoo model name or a .pt2 file)", errUsage)
	case *program != "eager" && *program != "optimized":
		return fmt.Errorf("%w: -program must be eager or optimized, got %q", errUsage, *program)
	case *runs < 1:
		return fmt.Errorf("%w: -runs must be at least 1, got %d", errUsage, *runs)
	case *warmup < 0:
		return fmt.Errorf("%w: -warmup must not be negative, got %d", errUsage, *warmup)
	}
	var run func() error
	var err error
	if isFile(*model) {
		if *shape != "" {
			return fmt.Errorf("%w: -shape is for zoo models: a .pt2 file runs on its example inputs", errUsage)
		}
		run, err = benchProgramFile(*model, *program)
	} else {
		run, err = benchZooModel(*model, *program, *shape)
	}
	if err != nil {
		return err
	}
	t, err := timeRuns(run, *warmup, *runs)
	if err != nil {
		return err
	}
	t.Model, t.Program = *model, *program
	return json.NewEncoder(stdout).Encode(t)
}

// isFile reports whether the -model value names a file rather than a zoo
// model.
func isFile(s string) bool {
	if strings.HasSuffix(s, ".pt2") || strings.ContainsRune(s, os.PathSeparator) {
		return true
	}
	_, err := os.Stat(s)
	return err == nil
}

// benchProgramFile returns a run of the .pt2 program at path on its
// example inputs.
func benchProgramFile(path, program string) (func() error, error) {
	pf, err := loadProgramFile(path, "")
	if err != nil {
		return nil, err
	}
	if pf.example == nil {
		return nil, fmt.Errorf("%s has no example inputs to run the program on", path)
	}
	ep := pf.ep
	if program == "optimized" {
		if ep, _, err = optimizeProgram(ep); err != nil {
			return nil, fmt.Errorf("%s: optimizing: %w", path, err)
		}
	}
	return func() error {
		_, err := ep.RunFlat(pf.example...)
		return err
	}, nil
}

// benchZooModel returns a run of the zoo model name on a normal input of
// shape (its default batch-1 shape when empty).
func benchZooModel(name, program, shape string) (func() error, error) {
	spec, err := models.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if shape == "" {
		if shape = defaultShapes[name]; shape == "" {
			return nil, fmt.Errorf("%w: zoo model %s has no default input: give -shape", errUsage, name)
		}
	}
	var dims []int
	for _, d := range strings.Split(shape, "x") {
		n, err := strconv.Atoi(strings.TrimSpace(d))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%w: bad -shape %q", errUsage, shape)
		}
		dims = append(dims, n)
	}
	t, err := tensor.NewGenerator(1).Randn(tensor.Float32, dims...)
	if err != nil {
		return nil, fmt.Errorf("%w: -shape %q: %v", errUsage, shape, err)
	}
	x := nn.Tensor(t)
	m, err := models.Fresh(spec, nil)
	if err != nil {
		return nil, err
	}
	if program == "eager" {
		return func() error {
			_, err := nn.Run(m, x)
			return err
		}, nil
	}
	ep, err := export.Export(m, []any{x}, nil) // static: the input's shape
	if err != nil {
		return nil, fmt.Errorf("exporting %s: %w", name, err)
	}
	if ep, _, err = optimizeProgram(ep); err != nil {
		return nil, fmt.Errorf("optimizing %s: %w", name, err)
	}
	return func() error {
		_, err := ep.Run(x)
		return err
	}, nil
}

// timeRuns runs run warmup times, then runs times timed, and returns the
// median and fastest time and the heap bytes and allocations per timed
// run.
func timeRuns(run func() error, warmup, runs int) (*modelTiming, error) {
	for range warmup {
		if err := run(); err != nil {
			return nil, err
		}
	}
	times := make([]time.Duration, runs)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range times {
		start := time.Now()
		if err := run(); err != nil {
			return nil, err
		}
		times[i] = time.Since(start)
	}
	runtime.ReadMemStats(&after)
	slices.Sort(times)
	median := times[runs/2]
	if runs%2 == 0 {
		median = (times[runs/2-1] + times[runs/2]) / 2
	}
	k32, _ := gemm.Kernel()
	return &modelTiming{
		Runs:         runs,
		MedianMs:     ms(median),
		MinMs:        ms(times[0]),
		BytesPerRun:  (after.TotalAlloc - before.TotalAlloc) / uint64(runs),
		AllocsPerRun: (after.Mallocs - before.Mallocs) / uint64(runs),
		Kernel:       k32,
		GOMAXPROCS:   runtime.GOMAXPROCS(0),
	}, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
