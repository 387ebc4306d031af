package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/pt2/archive"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

// runExport exports a zoo model and prints the ExportedProgram.
func runExport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("model", "", "zoo model name ("+strings.Join(models.Names(), ", ")+")")
	dynamic := fs.String("dynamic", "", `dynamic dims, "INPUT:DIM=NAME[MIN,MAX];..." or "INPUT:DIM=auto" (default: the model's own spec; "none" for all static; "auto" for every dim dynamic unless the model specializes it, each specialization reported)`)
	ioFile := fs.String("io", "", "io.json whose example inputs to export with")
	shapes := fs.String("shape", "", `example input shapes instead of -io: float32 zeros, "2x3x16x16,4x16" (one per input)`)
	decompose := fs.Bool("decompose", false, "also run PyTorch 1.13's finer decompositions (decomp.Extra)")
	weights := fs.String("weights", "", "state dict saved by torch.save to load first (default: fresh weights)")
	out := fs.String("o", "", "write the program to OUT.pt2 instead of printing it")
	format := fs.String("format", "legacy", "container of -o: legacy (PyTorch <= 2.7's zip, which 2.6 reads) or archive (the PT2 archive of >= 2.8)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 || *model == "" {
		return fmt.Errorf("%w: -model is required", errUsage)
	}
	if (*ioFile == "") == (*shapes == "") {
		return fmt.Errorf("%w: give the example inputs with -io or -shape", errUsage)
	}
	spec, err := models.Lookup(*model)
	if err != nil {
		return err
	}
	var inputs []any
	if *ioFile != "" {
		rec, err := models.ReadIO(*ioFile)
		if err != nil {
			return err
		}
		if len(rec.Cases) == 0 {
			return fmt.Errorf("%s has no cases", *ioFile)
		}
		for _, v := range rec.Cases[0].Inputs {
			inputs = append(inputs, v)
		}
	} else {
		for _, s := range strings.Split(*shapes, ",") {
			var dims []int
			for _, d := range strings.Split(s, "x") {
				n, err := strconv.Atoi(strings.TrimSpace(d))
				if err != nil || n < 0 {
					return fmt.Errorf("%w: bad -shape %q", errUsage, s)
				}
				dims = append(dims, n)
			}
			t, err := tensor.New(tensor.Float32, dims...)
			if err != nil {
				return err
			}
			inputs = append(inputs, t)
		}
	}
	var dims export.Dims
	var opts []export.Option
	var notes []export.Specialization
	switch {
	case *dynamic == "none":
	case *dynamic == "auto":
		opts = append(opts, export.AllAuto())
	case *dynamic != "":
		var err error
		if dims, err = export.ParseDims(*dynamic); err != nil {
			return err
		}
	case spec.Dynamic != nil:
		dims = spec.Dynamic()
	}
	f, err := archive.ParseLayout(*format)
	if err != nil {
		return fmt.Errorf("%w: -format must be legacy or archive, not %q", errUsage, *format)
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
	opts = append(opts, export.Specializations(&notes))
	ep, err := export.Export(m, inputs, dims, opts...)
	if err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "gofx export: dynamic dims: %s\n", n)
	}
	if *decompose {
		if ep, err = ep.RunDecompositions(decomp.Extra()); err != nil {
			return err
		}
	}
	if *out != "" {
		if err := pt2.Write(*out, ep, pt2.SaveOptions{Format: f}); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s (%s container, %d nodes)\n", *out, f, ep.Graph.Len())
		return nil
	}
	fmt.Fprint(stdout, ep)
	return nil
}
