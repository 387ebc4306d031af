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
	via := fs.String("via", "", "comma-separated pipelines: for a zoo model "+strings.Join(models.Pipelines, ", ")+" (default eager,trace); for a .pt2 file "+strings.Join(filePipelines, ", ")+" (default all)")
	program := fs.String("program", "", "for a .pt2 file holding several programs: which one (default: the first)")
	opsFile := fs.String("ops", "", opsUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
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
		if *ioPath == "" {
			return fmt.Errorf("%w: -io IO.json is required", errUsage)
		}
		if ts, _ := isTorchScript(file); ts {
			return checkTorchScript(file, *ioPath, splitList(*via, tsPipelines), stdout)
		}
		return checkFile(file, *program, *ioPath, splitList(*via, filePipelines), stdout)
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
	passed, failed, err := models.Check(spec, sd, cases, splitList(*via, []string{"eager", "trace"}), func(r models.Result) {
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

// splitList splits a comma-separated flag value, def when it is empty.
func splitList(s string, def []string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return def
	}
	return out
}

func runInspect(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("model", "", "zoo model name ("+strings.Join(models.Names(), ", ")+")")
	program := fs.String("program", "", "for a .pt2 file holding several programs: which one (default: the first)")
	opsFile := fs.String("ops", "", opsUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
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
			return inspectTorchScript(file, stdout)
		}
		pf, err := loadProgramFile(file, *program)
		if err != nil {
			return err
		}
		fmt.Fprint(stdout, pf.ep)
		return nil
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
