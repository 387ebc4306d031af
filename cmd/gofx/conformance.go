package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/gofx/gofx/conformance"
	_ "github.com/gofx/gofx/kernels" // the reference kernels
)

// errFailed marks a command that ran and found failures (exit status 1,
// no usage).
var errFailed = errors.New("failed")

func runConformance(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: want one directory, got %d arguments", errUsage, fs.NArg())
	}
	cases, err := conformance.ReadDir(fs.Arg(0))
	if err != nil {
		return err
	}
	if s := conformance.RunAll(cases, stdout); s.Failed > 0 {
		return fmt.Errorf("%w: %d of %d cases", errFailed, s.Failed, s.Passed+s.Failed)
	}
	return nil
}
