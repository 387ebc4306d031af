package layers

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/gofx/gofx/"

// forbidden lists, per package (a path relative to the module root), the
// packages its non-test files may not import, with the reason
// ARCHITECTURE.md gives.
var forbidden = []struct {
	pkg, imp, why string
}{
	{"passes", "export", "ep.Transform takes passes as export.Pass; passes sits below export"},
	{"passes", "internal/record", "passes rewrite graphs; recording model code is the tracers' job"},
	{"passes", "internal/tracing", "nn's tracing internals are for the recorders only"},
	{"rewrite", "passes", "passes wraps rule sets (passes.FromRules); rewrite never imports passes"},
	{"pattern", "passes", "passes builds on pattern"},
	{"ops", "node", "ops sits below node (node.Function is implemented structurally)"},
	{"ops", "kernels", "kernels registers into ops"},
	{"node", "graph", "a node knows its container only as a *node.Chain"},
	{"kernels", "nn", "kernels is below nn (nn imports it)"},
	{"graph", "fx", "graph is the IR; capture sits above it"},
	{"fx", "export", "export builds on fx"},
	{"nn", "fx", "nn is below the tracers"},
	{"nn", "internal/record", "the recorder sits above nn"},
	{"pt2/archive", "export", "the .pt2 containers sit below the program conversion (package pt2)"},
	{"pt2/archive", "nn", "the .pt2 containers hold schema programs and tensors, not modules"},
}

// stdlibOnly are packages that import nothing of the module and nothing
// outside the standard library.
var stdlibOnly = []string{"tensor", "sym", "torchio/pickle", "internal/tracing", "internal/txtar", "internal/cputime", "pt2/schema", "torchscript/syntax", "torchscript/types"}

// imports returns the import paths of the non-test Go files of dir.
func imports(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, is := range af.Imports {
			p, _ := strconv.Unquote(is.Path.Value)
			out[p] = true
		}
	}
	return out
}

func TestForbiddenImports(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, f := range forbidden {
		got := imports(t, filepath.Join(root, f.pkg))
		if got[module+f.imp] {
			t.Errorf("%s imports %s: %s", f.pkg, f.imp, f.why)
		}
	}
}

func TestStandardLibraryOnly(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, pkg := range stdlibOnly {
		var bad []string
		for p := range imports(t, filepath.Join(root, pkg)) {
			first := strings.SplitN(p, "/", 2)[0]
			if strings.Contains(first, ".") {
				bad = append(bad, p)
			}
		}
		sort.Strings(bad)
		if len(bad) > 0 {
			t.Errorf("%s must import only the standard library, imports %v", pkg, bad)
		}
	}
}

// TestRulesSeeTheTree guards the test itself: a rule naming a directory
// that does not exist would pass for ever.
func TestRulesSeeTheTree(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, f := range forbidden {
		for _, d := range []string{f.pkg, f.imp} {
			if _, err := os.Stat(filepath.Join(root, d)); err != nil {
				t.Errorf("rule %s !-> %s: %v", f.pkg, f.imp, err)
			}
		}
	}
}
