// Command gofx captures, inspects, rewrites and runs neural-network
// programs as graphs.
//
// Usage:
//
//	gofx <command> [arguments]
//
// The commands are:
//
//	optimize    optimize a .pt2 program, a TorchScript archive (to .pt2) or a zoo model, check and time the result
//	demo        print a small example graph in every form gofx has
//	bench       time gofx on a benchmark workload (bench graph|chain -n N) or a model (bench model -model NAME|FILE.pt2)
//	conformance run ATen conformance vectors (*.jsonl) through the kernels
//	check       run a .pt2 program, a TorchScript archive or a zoo model on recorded inputs, compare with PyTorch
//	inspect     print a .pt2 program, a TorchScript archive's code and graphs, or a zoo model's traced graph
//	export      export a zoo model, print it or save it as .pt2
//	draw        write a .pt2 program's or a zoo model's graph as Graphviz DOT or SVG
//	version     print the version
//	help        print help for a command
//
// Run "gofx help <command>" for a command's flags.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gofx/gofx/internal/chain"
	"github.com/gofx/gofx/internal/demo"
)

const version = "0.1.0-dev"

type command struct {
	name, usage, short string
	run                func(args []string, stdout, stderr io.Writer) error
}

var commands []command

func init() {
	commands = []command{
		{"optimize", "gofx optimize [-o OUT.pt2] [-io FILE] [-time D] [-graph=false] FILE.pt2\n       gofx optimize [-o OUT.pt2] [-io FILE] [-graph=false] FILE.pt (TorchScript: convert, optimize, check, save .pt2)\n       gofx optimize [-model NAME [-weights FILE] [-io FILE]] [-time D] [-graph=false]", "optimize a .pt2 program (or export a zoo model) with the default passes, check the outputs and time the result", runOptimize},
		{"demo", "gofx demo", "print a small example graph in every form gofx has", runDemo},
		{"bench", "gofx bench graph|chain [-n N]\n       gofx bench model -model NAME|FILE.pt2 [-program eager|optimized] [-runs N] [-warmup N] [-shape 1x3x224x224]", "time gofx on a benchmark workload of ../shared/bench, or a zoo model or .pt2 program's inference (median time, bytes and allocations per run, GEMM kernel, GOMAXPROCS), as one JSON line", runBench},
		{"conformance", "gofx conformance DIR", "run the ATen conformance vectors of DIR (*.jsonl) through the kernels", runConformance},
		{"check", "gofx check -io IO.json [-via load,decomposed,optimized,roundtrip] FILE.pt2\n       gofx check -io IO.json [-via load,export,optimized] FILE.pt\n       gofx check -model NAME -weights FILE -io FILE [-via eager,trace,export,decomposed,optimized]", "run a .pt2 program or a zoo model on recorded inputs and compare with PyTorch's outputs", runCheck},
		{"inspect", "gofx inspect FILE.pt2 | gofx inspect FILE.pt | gofx inspect -model NAME", "print a .pt2 program as print(ep) does, a TorchScript archive's code and method graphs, or a zoo model's traced graph as text, table and code", runInspect},
		{"export", "gofx export -model NAME (-io FILE | -shape 2x3x16x16,...) [-weights FILE] [-dynamic SPEC] [-decompose] [-o NAME.pt2 [-format legacy|archive]]", "export a zoo model and print the ExportedProgram or save it as .pt2", runExport},
		{"draw", drawUsage, "write a .pt2 program's graph, or a zoo model's traced or exported graph, as Graphviz DOT or SVG", runDraw},
		{"version", "gofx version", "print the version", func(_ []string, out, _ io.Writer) error {
			fmt.Fprintln(out, "gofx", version)
			return nil
		}},
		{"help", "gofx help [command]", "print help for a command", runHelp},
	}
}

// errUsage marks errors after which the usage should be shown.
var errUsage = errors.New("usage")

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run executes the command line args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	for _, c := range commands {
		if c.name == args[0] {
			err := c.run(args[1:], stdout, stderr)
			switch {
			case err == nil:
				return 0
			case errors.Is(err, flag.ErrHelp):
				return 0
			case errors.Is(err, errFailed):
				return 1
			case errors.Is(err, errUsage):
				fmt.Fprintf(stderr, "gofx %s: %v\nusage: %s\n", c.name, err, c.usage)
				return 2
			default:
				fmt.Fprintf(stderr, "gofx %s: %v\n", c.name, err)
				return 1
			}
		}
	}
	fmt.Fprintf(stderr, "gofx: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "gofx captures, inspects, rewrites and runs neural-network programs as graphs.")
	fmt.Fprintln(w, "\nUsage:\n\n\tgofx <command> [arguments]\n\nThe commands are:")
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-11s  %s\n", c.name, c.short)
	}
	fmt.Fprintln(w, "\nRun \"gofx help <command>\" for a command's usage.")
}

func runHelp(args []string, stdout, _ io.Writer) error {
	if len(args) == 0 {
		usage(stdout)
		return nil
	}
	for _, c := range commands {
		if c.name == args[0] {
			fmt.Fprintf(stdout, "usage: %s\n\n%s\n", c.usage, c.short)
			// The command prints its flags when asked for -h; bench needs
			// its workload first.
			probe := []string{"-h"}
			if c.name == "bench" {
				probe = []string{"graph", "-h"}
			}
			if c.name != "help" && c.name != "version" {
				var flags strings.Builder
				_ = c.run(probe, &flags, &flags)
				if s := flags.String(); strings.Contains(s, "\n  -") {
					fmt.Fprintf(stdout, "\n%s", s)
				}
			}
			return nil
		}
	}
	return fmt.Errorf("%w: unknown command %q", errUsage, args[0])
}

// parseFlags parses args, marking errors as usage errors. Flags may come
// before or after the positional arguments ("gofx check FILE -io X" is
// "gofx check -io X FILE"); "--" ends the flags.
func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "flags:")
		fs.PrintDefaults()
	}
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	// Parse again with only the positional arguments after "--", so that
	// fs.Args returns them; the flag values parsed above stay set.
	return fs.Parse(append([]string{"--"}, positional...))
}

func runDemo(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	g, err := demo.Graph()
	if err != nil {
		return err
	}
	if err := g.Lint(); err != nil {
		return err
	}
	section := func(title, body string) {
		fmt.Fprintf(stdout, "== %s\n%s\n", title, strings.TrimRight(body, "\n"))
		fmt.Fprintln(stdout)
	}
	section("String (torch.fx's str(graph))", g.String())
	section("Tabular (torch.fx's print_tabular)", g.Tabular())
	section("Code (Python-like forward)", g.Code())
	section("Text (canonical; Parse reads it back)", g.Text())
	return nil
}

func runBench(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "model" {
		return runBenchModel(args[1:], stdout, stderr)
	}
	if len(args) == 0 || (args[0] != "graph" && args[0] != "chain") {
		return fmt.Errorf("%w: want a workload: graph, chain or model", errUsage)
	}
	workload := args[0]
	fs := flag.NewFlagSet("bench "+workload, flag.ContinueOnError)
	fs.SetOutput(stderr)
	def, what := 10000, "number of call_function nodes in the chain"
	if workload == "chain" {
		def, what = 1000, "number of relu(add(linear(x), 1.0)) blocks"
	}
	n := fs.Int("n", def, what)
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if workload == "chain" {
		if *n < 1 {
			return fmt.Errorf("%w: -n must be at least 1, got %d", errUsage, *n)
		}
		t, err := chain.TimeModel(*n)
		if err != nil {
			return err
		}
		return json.NewEncoder(stdout).Encode(t)
	}
	if *n < 2 {
		return fmt.Errorf("%w: -n must be at least 2, got %d", errUsage, *n)
	}
	t, err := chain.Time(*n)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(t)
}
