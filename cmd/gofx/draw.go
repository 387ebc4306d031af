package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/graph/dot"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

// drawUsage is the usage line of gofx draw.
const drawUsage = "gofx draw FILE.pt2 [-via load|decomposed] [-format dot|svg] [-cluster] [-o FILE]\n       gofx draw FILE.pt [-io FILE] [-format dot|svg] [-cluster] [-o FILE] (TorchScript: the converted program)\n       gofx draw -model NAME [-via trace|export|decomposed] [-io FILE | -shape 2x3x16x16,...] [-weights FILE] [-format dot|svg] [-cluster] [-o FILE]"

// runDraw writes a zoo model's traced or exported graph as Graphviz DOT or
// SVG.
func runDraw(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("draw", flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("model", "", "zoo model name ("+strings.Join(models.Names(), ", ")+")")
	via := fs.String("via", "trace", "which graph: trace (fx.SymbolicTrace), export (export.Export) or decomposed (export, then decomp.Extra)")
	ioFile := fs.String("io", "", "io.json whose first inputs are the example inputs (needed by export and decomposed; with trace, adds shapes)")
	shapes := fs.String("shape", "", `example input shapes instead of -io: float32 zeros, "2x3x16x16,4x16" (one per input)`)
	weights := fs.String("weights", "", "state dict saved by torch.save to load first (default: fresh weights)")
	format := fs.String("format", "dot", "output format: dot or svg (svg runs Graphviz's dot)")
	cluster := fs.Bool("cluster", false, "draw each module's nodes in a box")
	out := fs.String("o", "", "write to FILE instead of standard output")
	program := fs.String("program", "", "for a .pt2 file holding several programs: which one (default: the first)")
	opsFile := fs.String("ops", "", opsUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *format != "dot" && *format != "svg" {
		return fmt.Errorf("%w: -format must be dot or svg, not %q", errUsage, *format)
	}
	if file, err := fileArg(fs.Args()); err != errNoFile {
		if err != nil {
			return err
		}
		if err := defineOps(*opsFile); err != nil {
			return err
		}
		if *model != "" {
			return fmt.Errorf("%w: give a zoo model (-model) or a .pt2 file, not both", errUsage)
		}
		if ts, _ := isTorchScript(file); ts {
			return drawTorchScript(file, *ioFile, dot.Options{Name: filepath.Base(file), Cluster: *cluster}, *format, *out, stdout)
		}
		pf, err := loadProgramFile(file, *program)
		if err != nil {
			return err
		}
		g, subs := pf.ep.Graph, pf.ep.Subgraphs()
		if *via == "decomposed" {
			ep, err := pf.ep.RunDecompositions(decomp.Core())
			if err != nil {
				return err
			}
			g, subs = ep.Graph, ep.Subgraphs()
		}
		return writeDrawing(g, dot.Options{Name: filepath.Base(file), Cluster: *cluster, Subgraphs: subs}, *format, *out, stdout)
	}
	if *model == "" {
		return fmt.Errorf("%w: -model or a .pt2 file is required", errUsage)
	}
	switch *via {
	case "trace", "export", "decomposed":
	default:
		return fmt.Errorf("%w: -via must be trace, export or decomposed, not %q", errUsage, *via)
	}
	if *ioFile != "" && *shapes != "" {
		return fmt.Errorf("%w: give the example inputs with -io or -shape, not both", errUsage)
	}
	if *via != "trace" && *ioFile == "" && *shapes == "" {
		return fmt.Errorf("%w: -via %s needs example inputs: give -io or -shape", errUsage, *via)
	}
	spec, err := models.Lookup(*model)
	if err != nil {
		return err
	}
	var sd *torchio.StateDict
	if *weights != "" {
		if sd, err = torchio.Load(*weights); err != nil {
			return err
		}
	}
	m, err := models.Fresh(spec, sd)
	if err != nil {
		return err
	}
	inputs, err := drawInputs(*ioFile, *shapes)
	if err != nil {
		return err
	}

	var (
		g    *graph.Graph
		root nn.Module
	)
	if *via == "trace" {
		gm, err := fx.SymbolicTrace(m)
		if err != nil {
			return err
		}
		if inputs != nil {
			if _, err := shapeprop.Propagate(gm, inputs...); err != nil {
				return fmt.Errorf("shape propagation on the example inputs: %w", err)
			}
		}
		g, root = gm.Graph, gm
	} else {
		ep, err := models.Export(spec, m, inputs)
		if err != nil {
			return err
		}
		if *via == "decomposed" {
			if ep, err = ep.RunDecompositions(decomp.Extra()); err != nil {
				return err
			}
		}
		g = ep.Graph
	}

	return writeDrawing(g, dot.Options{Name: *model, Root: root, Cluster: *cluster}, *format, *out, stdout)
}

// writeDrawing writes g as DOT or SVG to the file out, or to stdout.
func writeDrawing(g *graph.Graph, opts dot.Options, format, out string, stdout io.Writer) error {
	var data []byte
	var err error
	if format == "svg" {
		if data, err = dot.SVG(g, opts); err != nil {
			return err
		}
	} else {
		src, err := dot.DOT(g, opts)
		if err != nil {
			return err
		}
		data = []byte(src)
	}
	if out != "" {
		return os.WriteFile(out, data, 0o644)
	}
	_, err = stdout.Write(data)
	return err
}

// drawInputs reads the example inputs from an io.json or makes float32
// zeros of the given shapes; nil when neither is given.
func drawInputs(ioFile, shapes string) ([]nn.Value, error) {
	if ioFile != "" {
		rec, err := models.ReadIO(ioFile)
		if err != nil {
			return nil, err
		}
		if len(rec.Cases) == 0 {
			return nil, fmt.Errorf("%s has no cases", ioFile)
		}
		return rec.Cases[0].Inputs, nil
	}
	if shapes == "" {
		return nil, nil
	}
	var inputs []nn.Value
	for _, s := range strings.Split(shapes, ",") {
		var dims []int
		for _, d := range strings.Split(s, "x") {
			n, err := strconv.Atoi(strings.TrimSpace(d))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%w: bad -shape %q (want sizes joined by x, such as 2x3x16x16)", errUsage, s)
			}
			dims = append(dims, n)
		}
		t, err := tensor.New(tensor.Float32, dims...)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, nn.Tensor(t))
	}
	return inputs, nil
}
