package main

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/graph/dot"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/torchscript"
	"github.com/gofx/gofx/torchscript/archive"
	"github.com/gofx/gofx/torchscript/convert"
)

// The file commands on TorchScript archives (torch.jit.save): gofx
// inspect, check, optimize and draw take them as they take .pt2 files,
// telling the two apart by the zip's records, not by the extension.

// isTorchScript reports whether the zip at path is a torch.jit.save
// archive: it holds ARCHIVE/data.pkl and code under ARCHIVE/code/, or
// ARCHIVE/model.json (the format of PyTorch 1.0 to 1.2) (a .pt2 holds
// ARCHIVE/models/*.json or serialized_exported_program.json instead, a
// torch.save file no code/).
func isTorchScript(path string) (bool, error) {
	z, err := zip.OpenReader(path)
	if err != nil {
		return false, nil // not a zip: the .pt2 reader says why
	}
	defer z.Close()
	data, code, legacy := false, false, false
	for _, f := range z.File {
		parts := strings.SplitN(f.Name, "/", 3)
		if len(parts) < 2 {
			continue
		}
		switch {
		case len(parts) == 2 && parts[1] == "data.pkl":
			data = true
		case len(parts) == 2 && parts[1] == "model.json":
			legacy = true
		case len(parts) == 3 && parts[1] == "code" && strings.HasSuffix(f.Name, ".py"):
			code = true
		case len(parts) >= 2 && (parts[1] == "models" || parts[1] == "serialized_exported_program.json"):
			return false, nil
		}
	}
	return data && code || legacy, nil
}

// loadTorchScript loads the archive at path.
func loadTorchScript(path string) (*torchscript.Module, *archive.Archive, error) {
	a, err := archive.Open(path)
	if err != nil {
		return nil, nil, err
	}
	m, err := torchscript.FromArchive(a)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, a, nil
}

// methodNames lists the methods the root module's class defines, in
// source order, forward first, without the dunder methods.
func methodNames(m *torchscript.Module) ([]string, error) {
	all, err := m.MethodNames()
	if err != nil {
		return nil, err
	}
	names := []string{"forward"}
	for _, n := range all {
		if n != "forward" && !strings.HasPrefix(n, "__") {
			names = append(names, n)
		}
	}
	return names, nil
}

// inspectTorchScript prints, for each method of the archive's root module,
// its code and its graph as PyTorch prints m.code and m.graph (the code by
// torchscript/pyprint, PyTorch's python_print, from the loaded graph).
func inspectTorchScript(path string, w io.Writer) error {
	m, a, err := loadTorchScript(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "# %s: TorchScript archive %s (version %d), root module %s\n", path, a.Name, a.Version, m.Type().Name)
	names, err := methodNames(m)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for _, name := range names {
		meth, err := m.Method(name)
		if err != nil {
			return fmt.Errorf("%s: method %s: %w", path, name, err)
		}
		code, err := meth.Code()
		if err != nil {
			return fmt.Errorf("%s: method %s: %w", path, name, err)
		}
		g, err := meth.Graph()
		if err != nil {
			return fmt.Errorf("%s: method %s: %w", path, name, err)
		}
		fmt.Fprintf(w, "\n## code: %s\n%s", name, code)
		if !strings.HasSuffix(code, "\n") {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "\n## graph: %s\n%s", name, g)
	}
	return nil
}

// tsPipelines are the -via values of gofx check on a TorchScript archive.
var tsPipelines = []string{"load", "export", "optimized"}

// defaultIO is NAME.io.json beside NAME.script.pt, NAME.trace.pt or
// NAME.traced.pt, when it exists.
func defaultIOFor(path string) string {
	base := filepath.Base(path)
	for _, suf := range []string{".script.pt", ".trace.pt", ".traced.pt", ".pt"} {
		if strings.HasSuffix(base, suf) {
			p := filepath.Join(filepath.Dir(path), strings.TrimSuffix(base, suf)+".io.json")
			if _, err := os.Stat(p); err == nil {
				return p
			}
			break
		}
	}
	return ""
}

// caseArgs are a case's inputs as Convert takes them (tensors cloned).
func caseArgs(c *pt2.IOCase) []any {
	args := make([]any, len(c.Inputs))
	for i, v := range c.Inputs {
		args[i] = v.Any()
		if t := v.Tensor(); t != nil {
			args[i] = t.Clone()
		}
	}
	return args
}

// convertCase converts m with a case's inputs (non-tensor inputs are
// specialized: each case gets its program).
func convertCase(path string, m *torchscript.Module, c *pt2.IOCase) (*export.ExportedProgram, error) {
	return convert.Convert(m.Clone(), caseArgs(c), convert.File(path))
}

// checkTorchScript runs the io.json cases on an archive through
// pipelines: load (the TorchScript interpreter), export (converted to an
// ExportedProgram), optimized (converted, then the default passes).
func checkTorchScript(path, ioPath string, pipelines []string, w io.Writer) error {
	for _, p := range pipelines {
		if !contains(tsPipelines, p) {
			return fmt.Errorf("%w: unknown pipeline %q for a TorchScript archive (want %s)", errUsage, p, strings.Join(tsPipelines, ", "))
		}
	}
	m, _, err := loadTorchScript(path)
	if err != nil {
		return err
	}
	io, err := pt2.ReadIO(ioPath)
	if err != nil {
		return err
	}
	passed, failed := 0, 0
	report := func(p string, i int, maxAbs float64, err error) {
		if err != nil {
			failed++
			fmt.Fprintf(w, "%s case %d: FAIL: %v\n", p, i, err)
			return
		}
		passed++
		fmt.Fprintf(w, "%s case %d: ok (max abs diff %.3g)\n", p, i, maxAbs)
	}
	for _, p := range pipelines {
		for i := range io.Cases {
			c := &io.Cases[i]
			if p == "load" {
				r := torchscript.CheckCase(m, c, torchscript.Tolerance(m))
				report(p, i, r.MaxAbs, r.Err)
				continue
			}
			ep, err := convertCase(path, m, c)
			if err == nil && p == "optimized" {
				ep, _, err = optimizeProgram(ep)
			}
			if err != nil {
				report(p, i, 0, err)
				continue
			}
			r := pt2.CheckCase(ep, c, pt2.Tolerance(ep))
			report(p, i, r.MaxAbs, r.Err)
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d", errFailed, failed, passed+failed)
	}
	return nil
}

// tsProgram converts an archive with the first case of its io.json.
func tsProgram(path, ioPath string) (*export.ExportedProgram, *pt2.IO, error) {
	if ioPath == "" {
		ioPath = defaultIOFor(path)
	}
	if ioPath == "" {
		return nil, nil, fmt.Errorf("%w: %s is a TorchScript archive, which holds no example inputs: give -io NAME.io.json", errUsage, path)
	}
	io, err := pt2.ReadIO(ioPath)
	if err != nil {
		return nil, nil, err
	}
	if len(io.Cases) == 0 {
		return nil, nil, fmt.Errorf("%s: no cases", ioPath)
	}
	m, _, err := loadTorchScript(path)
	if err != nil {
		return nil, nil, err
	}
	ep, err := convertCase(path, m, &io.Cases[0])
	if err != nil {
		return nil, nil, err
	}
	return ep, io, nil
}

// optimizeTorchScript is the migration path: convert the archive to an
// ExportedProgram, run the default passes, check the outputs against the
// io.json's and write the result as .pt2 (PyTorch 2.6's container).
func optimizeTorchScript(path, ioPath, out string, showGraph bool, w io.Writer) error {
	ep, io, err := tsProgram(path, ioPath)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "== %s: converted to an ExportedProgram, %d nodes\n\n", path, ep.Graph.Len())
	start := time.Now()
	opt, report, err := optimizeProgram(ep)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "== passes (%s)\n%s\n", time.Since(start).Round(time.Millisecond), strings.TrimRight(report.String(), "\n"))
	fmt.Fprintf(w, "\n== nodes per operator (before -> after)\n%s\n", opCountDiff(ep.Graph, opt.Graph))
	if showGraph {
		fmt.Fprintf(w, "== optimized graph\n%s\n", strings.TrimRight(opt.Graph.Code(), "\n"))
	}
	fmt.Fprintln(w, "\n== outputs")
	bad := 0
	for i := range io.Cases {
		c := &io.Cases[i]
		prog := opt
		if i > 0 && !sameNonTensors(c, &io.Cases[0]) {
			fmt.Fprintf(w, "case %d: skipped: its non-tensor inputs differ from the example's, which the program specializes\n", i)
			continue
		}
		r := pt2.CheckCase(prog, c, pt2.Tolerance(ep))
		if !r.Passed() {
			bad++
			fmt.Fprintf(w, "case %d: FAIL: %v\n", i, r.Err)
			continue
		}
		fmt.Fprintf(w, "case %d: max |optimized - PyTorch| = %.3g\n", i, r.MaxAbs)
	}
	if bad > 0 {
		return fmt.Errorf("%w: %d cases differ from PyTorch's outputs", errFailed, bad)
	}
	if out != "" {
		opts := pt2.SaveOptions{Format: pt2.Legacy, ExampleArgs: caseArgs(&io.Cases[0]), ForPyTorch: true}
		if err := pt2.Write(out, opt, opts); err != nil {
			return err
		}
		fmt.Fprintf(w, "\nwrote %s\n", out)
	}
	return nil
}

// sameNonTensors reports whether two cases have the same non-tensor
// inputs.
func sameNonTensors(a, b *pt2.IOCase) bool {
	if len(a.Inputs) != len(b.Inputs) {
		return false
	}
	for i := range a.Inputs {
		if a.Inputs[i].IsTensor() != b.Inputs[i].IsTensor() {
			return false
		}
		if !a.Inputs[i].IsTensor() && fmt.Sprint(a.Inputs[i].Any()) != fmt.Sprint(b.Inputs[i].Any()) {
			return false
		}
	}
	return true
}

// drawTorchScript draws the converted program's graph.
func drawTorchScript(path, ioPath string, opts dot.Options, format, out string, w io.Writer) error {
	ep, _, err := tsProgram(path, ioPath)
	if err != nil {
		return err
	}
	opts.Subgraphs = ep.Subgraphs()
	return writeDrawing(ep.Graph, opts, format, out, w)
}
