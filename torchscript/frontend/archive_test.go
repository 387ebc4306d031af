package frontend

import (
	"archive/zip"
	"bufio"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/syntax"
)

// sharedDir is ../shared seen from this package.
const sharedDir = "../../../shared"

// codeFiles reads the code/ files of a TorchScript archive: module name
// ("__torch__.foo") to source.
func codeFiles(t testing.TB, path string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer zr.Close()
	out := map[string][]byte{}
	for _, f := range zr.File {
		_, rest, ok := strings.Cut(f.Name, "/code/")
		if !ok || !strings.HasSuffix(rest, ".py") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[strings.ReplaceAll(strings.TrimSuffix(rest, ".py"), "/", ".")] = b
	}
	return out
}

var constRef = regexp.MustCompile(`CONSTANTS\.c(\d+)`)

// unitFor makes a unit over an archive's code. The constant table holds
// a one-element float tensor for every CONSTANTS.cN the code names: the
// compiled graphs' structure does not depend on the constants' values
// (the archive reader, torchscript/archive, gives the real ones).
func unitFor(files map[string][]byte) *CompilationUnit {
	n := 0
	for _, src := range files {
		for _, m := range constRef.FindAllSubmatch(src, -1) {
			k := 0
			for _, c := range m[1] {
				k = k*10 + int(c-'0')
			}
			if k+1 > n {
				n = k + 1
			}
		}
	}
	consts := make([]any, n)
	for i := range consts {
		consts[i] = tensor.Scalar(float32(1))
	}
	return New(func(m string) ([]byte, bool) { b, ok := files[m]; return b, ok }, &Options{Constants: consts})
}

// compileAll compiles every method of every class and every function the
// archive's code defines, returning the units' classes by name.
func compileAll(t *testing.T, name string, files map[string][]byte) (*CompilationUnit, map[string]*Class) {
	t.Helper()
	cu := unitFor(files)
	classes := map[string]*Class{}
	mods := make([]string, 0, len(files))
	for m := range files {
		mods = append(mods, m)
	}
	sort.Strings(mods)
	for _, m := range mods {
		f, err := syntax.Parse(m, files[m])
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, s := range f.Stmts {
			switch d := s.(type) {
			case *syntax.ClassDef:
				c, err := cu.Class(m + "." + d.Name)
				if err != nil {
					t.Errorf("%s: class %s: %v", name, d.Name, err)
					continue
				}
				classes[c.Name()] = c
				for _, fn := range c.Methods {
					if _, err := fn.Graph(); err != nil {
						t.Errorf("%s: %v", name, err)
					}
				}
			case *syntax.FuncDef:
				fn, err := cu.Function(m + "." + d.Name)
				if err != nil {
					t.Errorf("%s: function %s: %v", name, d.Name, err)
					continue
				}
				if _, err := fn.Graph(); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		}
	}
	return cu, classes
}

func archives(t *testing.T) []string {
	var out []string
	for _, pat := range []string{"torchscript/*.pt", "torchscript/torch-2.14/*.pt", "models/*.traced.pt"} {
		m, _ := filepath.Glob(filepath.Join(sharedDir, pat))
		out = append(out, m...)
	}
	if len(out) == 0 {
		t.Skip("skipping: no TorchScript archives in ../shared (torchscript/, models/*.traced.pt)")
	}
	return out
}

// TestCompileArchives compiles every method and function of every archive
// of ../shared, and compares the graph of the top module's forward with
// the one PyTorch printed for the loaded archive (the `# graph` section of
// NAME.code.txt): the same node kinds in the same order in every block,
// nested blocks at the same places, constants left out (their placement
// comes from PyTorch's constant pooling, and the graph text's constants
// are the same values).
func TestCompileArchives(t *testing.T) {
	for _, path := range archives(t) {
		name := strings.TrimPrefix(path, sharedDir+"/")
		t.Run(name, func(t *testing.T) {
			files := codeFiles(t, path)
			if len(files) == 0 {
				t.Fatalf("%s has no code files", name)
			}
			_, classes := compileAll(t, name, files)
			txt := strings.TrimSuffix(path, ".pt") + ".code.txt"
			want, self, err := graphSection(txt)
			if os.IsNotExist(err) {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c, ok := classes[self]
			if !ok {
				t.Fatalf("%s: the graph's self type %s is not a class of the archive", txt, self)
			}
			fwd, ok := c.Method("forward")
			if !ok {
				t.Fatalf("%s has no forward", self)
			}
			g, err := fwd.Graph()
			if err != nil {
				t.Fatal(err)
			}
			got := structure(g)
			t.Logf("%s: %d nodes compared", name, len(want))
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s: forward's structure differs from PyTorch's graph\n got:\n%s\nwant:\n%s\n", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

var kindRe = regexp.MustCompile(`^\s*(?:[^=]*= )?([a-z_]+::[A-Za-z_0-9]+)`)

// graphSection reads the `# graph` section of a code.txt file as a list of
// "depth kind" lines (blocks as "depth block"), constants left out, and
// the self argument's type.
func graphSection(path string) ([]string, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	var out []string
	self := ""
	in := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if line == "# graph" {
			in = true
			continue
		}
		if !in {
			continue
		}
		if strings.HasPrefix(line, "graph(") {
			if _, rest, ok := strings.Cut(line, " : "); ok {
				self = strings.TrimRight(strings.TrimSpace(rest), ",):")
			}
			continue
		}
		trim := strings.TrimLeft(line, " ")
		indent := len(line) - len(trim)
		if trim == "" || strings.HasPrefix(trim, "%") && !strings.Contains(trim, " = ") {
			continue
		}
		if strings.HasPrefix(trim, "block") {
			out = append(out, depthLine((indent-4)/4+1, "block"))
			continue
		}
		m := kindRe.FindStringSubmatch(line)
		if m == nil || m[1] == "prim::Constant" {
			continue
		}
		out = append(out, depthLine((indent-2)/4, m[1]))
	}
	return out, self, sc.Err()
}

func depthLine(d int, s string) string { return strings.Repeat("  ", d) + s }

// structure lists a graph's nodes as graphSection does.
func structure(g *ir.Graph) []string {
	var out []string
	var walk func(b *ir.Block, d int)
	walk = func(b *ir.Block, d int) {
		for _, n := range b.Nodes {
			if n.Kind == "prim::Constant" {
				continue
			}
			out = append(out, depthLine(d, n.Kind))
			for _, bl := range n.Blocks {
				out = append(out, depthLine(d+1, "block"))
				walk(bl, d+1)
			}
		}
	}
	walk(g.Block(), 0)
	return out
}
