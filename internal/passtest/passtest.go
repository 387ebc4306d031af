// Package passtest runs graph passes over test cases written as txtar
// files (internal/txtar): graph text in, graph text out.
//
//	A comment saying what the case checks.
//	-- input --
//	%x = placeholder "x"()
//	%d = call_function aten.dropout.default(%x, 0.5, False)
//	%output = output "output"(%d)
//	-- output --
//	%x = placeholder "x"()
//	%output = output "output"(%x)
//
// The input (graph.Parse's form) becomes a GraphModule over an empty root
// module, or the root WithRoot makes; the pass runs; the result must lint
// and equal the output (graph.Equal: names, targets, arguments, users and
// printed metadata). A case without an output section expects the pass to
// change nothing and report so; a case with one expects it to report a
// change. Other files of the archive (the rules of a rule-set test, say)
// are the test's to read (Case.Rest, Case.File).
//
// go test -update (internal/golden's flag) rewrites each case's output
// section with what the pass produced (and drops it where the pass
// changed nothing).
package passtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/golden"
	"github.com/gofx/gofx/internal/txtar"
	"github.com/gofx/gofx/nn"
)

// A Case is one test case read from a txtar file.
type Case struct {
	// Name is the file's base name without .txtar.
	Name string
	// Path is the file's path.
	Path string
	// Archive is the whole file.
	Archive *txtar.Archive
	// Input is the input graph's text.
	Input string
	// Output is the expected graph's text; HasOutput is false when the
	// file has no output section (the pass must change nothing).
	Output    string
	HasOutput bool
}

// Read reads the case in the txtar file at path.
func Read(path string) (*Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	a := txtar.Parse(data)
	c := &Case{Name: strings.TrimSuffix(filepath.Base(path), ".txtar"), Path: path, Archive: a}
	in, ok := a.Get("input")
	if !ok {
		return nil, fmt.Errorf("%s: no input section", path)
	}
	c.Input = string(in)
	if out, ok := a.Get("output"); ok {
		c.Output, c.HasOutput = string(out), true
	}
	return c, nil
}

// File returns the data of the archive's file called name.
func (c *Case) File(name string) ([]byte, bool) { return c.Archive.Get(name) }

// Rest returns the archive without its input and output sections, as a
// txtar archive (its comment kept).
func (c *Case) Rest() []byte {
	rest := &txtar.Archive{Comment: c.Archive.Comment}
	for _, f := range c.Archive.Files {
		if f.Name != "input" && f.Name != "output" {
			rest.Files = append(rest.Files, f)
		}
	}
	return txtar.Format(rest)
}

// A Pass is what a case runs: a pass's Run function.
type Pass = func(gm *fx.GraphModule) (changed bool, err error)

// An Option configures Run and Check.
type Option func(*config)

type config struct {
	root func(t testing.TB, c *Case) nn.Module
}

// WithRoot makes the root module of each case's GraphModule (whose
// parameters, buffers and submodules get_attr and call_module nodes
// name); by default it is an empty module.
func WithRoot(root func(t testing.TB, c *Case) nn.Module) Option {
	return func(cfg *config) { cfg.root = root }
}

// Run checks every txtar file matching glob (filepath.Glob), each in a
// subtest named after it; pass returns the pass to run on a case. It
// fails when no file matches.
func Run(t *testing.T, glob string, pass func(t testing.TB, c *Case) Pass, opts ...Option) {
	t.Helper()
	paths, err := filepath.Glob(glob)
	if err != nil {
		t.Fatalf("passtest: %v", err)
	}
	if len(paths) == 0 {
		t.Fatalf("passtest: no file matches %s", glob)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			Check(t, path, pass, opts...)
		})
	}
}

type empty struct{ nn.Base }

// Check runs the case in the txtar file at path.
func Check(t testing.TB, path string, pass func(t testing.TB, c *Case) Pass, opts ...Option) {
	t.Helper()
	cfg := &config{}
	for _, o := range opts {
		o(cfg)
	}
	c, err := Read(path)
	if err != nil {
		t.Fatalf("passtest: %v", err)
	}
	g, err := graph.Parse(c.Input)
	if err != nil {
		t.Fatalf("passtest: %s: input: %v", path, err)
	}
	var root nn.Module
	if cfg.root != nil {
		root = cfg.root(t, c)
	} else {
		e := &empty{}
		e.Init(e, "Root")
		root = e
	}
	gm, err := fx.NewGraphModule(root, g)
	if err != nil {
		t.Fatalf("passtest: %s: %v", path, err)
	}
	run := pass(t, c)
	if run == nil {
		t.Fatalf("passtest: %s: no pass", path)
	}
	changed, err := run(gm)
	if err != nil {
		t.Fatalf("passtest: %s: the pass failed: %v", path, err)
	}
	if err := gm.Graph.Lint(); err != nil {
		t.Fatalf("passtest: %s: the result does not lint: %v\n%s", path, err, gm.Graph.Text())
	}
	got := gm.Graph.Text()
	in, err := graph.Parse(c.Input)
	if err != nil {
		t.Fatalf("passtest: %s: input: %v", path, err)
	}
	same := graph.Equal(gm.Graph, in) == nil
	if golden.Updating() {
		golden.Check(t, path, string(withOutput(c.Archive, got, !(same && !changed))))
		return
	}
	want := c.Input
	if c.HasOutput {
		want = c.Output
	}
	wg, err := graph.Parse(want)
	if err != nil {
		t.Fatalf("passtest: %s: output: %v", path, err)
	}
	if err := graph.Equal(gm.Graph, wg); err != nil {
		t.Errorf("passtest: %s: the result differs from the expected graph: %v", path, err)
		golden.Check(t, path, string(withOutput(c.Archive, got, true)))
	}
	if changed != c.HasOutput {
		if c.HasOutput {
			t.Errorf("passtest: %s: the pass reported no change (the case has an output section)", path)
		} else {
			t.Errorf("passtest: %s: the pass reported a change, but the case has no output section (nothing is to change)", path)
		}
	}
}

// withOutput returns a with its output section set to out (added at the
// end where absent), or removed when keep is false.
func withOutput(a *txtar.Archive, out string, keep bool) []byte {
	b := &txtar.Archive{Comment: a.Comment}
	done := false
	for _, f := range a.Files {
		if f.Name == "output" {
			if keep && !done {
				b.Files = append(b.Files, txtar.File{Name: "output", Data: []byte(out)})
				done = true
			}
			continue
		}
		b.Files = append(b.Files, f)
	}
	if keep && !done {
		b.Files = append(b.Files, txtar.File{Name: "output", Data: []byte(out)})
	}
	return txtar.Format(b)
}
