package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/torchio"
)

func runCheck(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("model", "", "zoo model name ("+strings.Join(models.Names(), ", ")+")")
	weights := fs.String("weights", "", "state dict saved by torch.save (NAME.state_dict.pt)")
	ioPath := fs.String("io", "", "inputs and PyTorch's outputs (NAME.io.json)")
	via := fs.String("via", "eager,trace", "comma-separated pipelines: "+strings.Join(models.Pipelines, ", "))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	}
	if *model == "" || *weights == "" || *ioPath == "" {
		return fmt.Errorf("%w: -model, -weights and -io are required", errUsage)
	}
	spec, err := models.Lookup(*model)
	if err != nil {
		return err
	}
	sd, err := torchio.Load(*weights)
	if err != nil {
		return err
	}
	cases, err := models.ReadIO(*ioPath)
	if err != nil {
		return err
	}
	var pipelines []string
	for _, p := range strings.Split(*via, ",") {
		if p = strings.TrimSpace(p); p != "" {
			pipelines = append(pipelines, p)
		}
	}
	passed, failed, err := models.Check(spec, sd, cases, pipelines, func(r models.Result) {
		fmt.Fprintln(stdout, r)
	})
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d", errFailed, failed, passed+failed)
	}
	return nil
}

func runInspect(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("model", "", "zoo model name ("+strings.Join(models.Names(), ", ")+")")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 || *model == "" {
		return fmt.Errorf("%w: -model is required", errUsage)
	}
	m, err := models.New(*model)
	if err != nil {
		return err
	}
	gm, err := fx.SymbolicTrace(m)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "# %s: fx.SymbolicTrace\n\n## graph\n%s\n\n## tabular\n%s\n## code\n%s", *model, gm.Graph, gm.Graph.Tabular(), gm.Code())
	return nil
}
