package frontend

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/syntax"
	"github.com/gofx/gofx/torchscript/types"
)

// sharedDir is ../shared seen from this package.
const sharedDir = "../../../shared"

// versionKey is the key under which codeFiles returns the archive's
// version record.
const versionKey = "<version>"

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
		if strings.HasSuffix(f.Name, "/version") && (strings.Count(f.Name, "/") == 1 || strings.HasSuffix(f.Name, "/.data/version")) {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(rc)
			rc.Close()
			out[versionKey] = b
			continue
		}
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

var interfaceRe = regexp.MustCompile(`InterfaceType<([A-Za-z_0-9.]+)>`)

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
	opts := &Options{Constants: consts}
	if v, ok := files[versionKey]; ok {
		n, err := strconv.ParseInt(strings.TrimSpace(string(v)), 10, 64)
		if err == nil {
			opts.Version, opts.Upgraders = n, testUpgraders()
		}
	}
	return New(func(m string) ([]byte, bool) { b, ok := files[m]; return b, ok }, opts)
}

// testUpgraders reads PyTorch 2.6's table of versioned operators
// (testdata/upgraders_2.6.json, written by torchscript/archive's
// testdata/dump_upgraders.py).
func testUpgraders() []Upgrader {
	b, err := os.ReadFile("testdata/upgraders_2.6.json")
	if err != nil {
		panic(err)
	}
	var doc struct {
		Upgraders []struct {
			Op        string `json:"op"`
			Before    int    `json:"before"`
			Name      string `json:"name"`
			OldSchema string `json:"old_schema"`
			Source    string `json:"source"`
		} `json:"upgraders"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		panic(err)
	}
	var out []Upgrader
	for _, u := range doc.Upgraders {
		out = append(out, Upgrader{Op: u.Op, Before: u.Before, Name: u.Name, OldSchema: u.OldSchema, Source: u.Source})
	}
	return out
}

// compileAll compiles every method of every class and every function the
// archive's code defines, returning the units' classes by name.
func compileAll(t *testing.T, name string, files map[string][]byte) (*CompilationUnit, map[string]*Class) {
	t.Helper()
	cu := unitFor(files)
	classes := map[string]*Class{}
	mods := make([]string, 0, len(files))
	for m := range files {
		if m != versionKey {
			mods = append(mods, m)
		}
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
				if classKind(d) != "class" {
					if _, err := cu.Type(m + "." + d.Name); err != nil {
						t.Errorf("%s: type %s: %v", name, d.Name, err)
					}
					continue
				}
				c, err := cu.Class(m + "." + d.Name)
				if err != nil {
					t.Errorf("%s: class %s: %v", name, d.Name, err)
					continue
				}
				classes[c.Name()] = c
				for _, fn := range c.Methods {
					g, err := fn.Graph()
					if err != nil {
						t.Errorf("%s: %v", name, err)
						continue
					}
					checkCallees(t, cu, g.Block())
				}
			case *syntax.FuncDef:
				fn, err := cu.Function(m + "." + d.Name)
				if err != nil {
					t.Errorf("%s: function %s: %v", name, d.Name, err)
					continue
				}
				g, err := fn.Graph()
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				checkCallees(t, cu, g.Block())
			}
		}
	}
	return cu, classes
}

// archives lists testdata/cases/*.pt (made by testdata/gen_cases.py with
// PyTorch 2.6) and the archives of ../shared when it is there.
func archives(t *testing.T) []string {
	out, _ := filepath.Glob("testdata/cases/*.pt")
	var shared []string
	for _, pat := range []string{"torchscript/*.pt", "torchscript/torch-2.14/*.pt", "models/*.traced.pt"} {
		m, _ := filepath.Glob(filepath.Join(sharedDir, pat))
		shared = append(shared, m...)
	}
	if len(shared) == 0 {
		t.Log("no TorchScript archives in ../shared (torchscript/, models/*.traced.pt): testing testdata/cases only")
	}
	return append(out, shared...)
}

// TestCompileArchives compiles every method and function of every archive
// of testdata/cases and ../shared, checks that every call resolves
// (Callee), and compares the graph of the top module's forward with the
// one PyTorch printed for the loaded archive (the `# graph` section of
// NAME.code.txt, parsed by ir.Parse): the same nodes in the same order in
// every block, with the same inputs (dataflow: which node output, block
// param or graph input each input is; constants by type and value, not by
// placement), output types and block params and outputs (see structure);
// and, where NAME.schemas.txt exists, the same overload for every node
// PyTorch resolved.
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
			if want, err := schemaList(strings.TrimSuffix(path, ".pt") + ".schemas.txt"); err == nil {
				if got := overloadList(g); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s: overloads differ from PyTorch's\n got:\n%s\nwant:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			} else if !os.IsNotExist(err) {
				t.Fatal(err)
			}
			got := structure(g)
			t.Logf("%s: %d lines compared", name, len(want))
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s: forward's structure differs from PyTorch's graph\n got:\n%s\nwant:\n%s\n", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// graphSection parses the `# graph` section of a code.txt file (what
// PyTorch printed for the loaded archive's forward) with ir.Parse, and
// returns its structure (see structure) and the self argument's type.
func graphSection(path string) ([]string, string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	_, text, ok := strings.Cut(string(b), "# graph\n")
	if !ok {
		return nil, "", fmt.Errorf("%s has no # graph section", path)
	}
	// PyTorch prints an interface type by its unqualified name
	// (InterfaceType<ScalerIface>), which ir.Parse does not read: the
	// test names it as the frontend's types do (__torch__.ScalerIface)
	text = interfaceRe.ReplaceAllString(text, "__torch__.$1")
	g, err := ir.Parse(strings.TrimRight(text, "\n") + "\n")
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", path, err)
	}
	self := ""
	if in := g.Inputs(); len(in) > 0 {
		self = in[0].Type.String()
	}
	return structure(g), self, nil
}

func depthLine(d int, s string) string { return strings.Repeat("  ", d) + s }

// structure lists a graph's nodes in pre-order, one line each, with
// nested blocks indented: the kind, the name attribute of GetAttr, SetAttr
// and CallMethod, the inputs and the output types (refined tensor types
// printed as Tensor). An input is named by where it comes from: "in3" (a
// graph input), "n5.1" (output 1 of the 5th non-constant node), "b2.0"
// (param 0 of a block of node 2), or a constant as "const(type value)", so
// that two graphs compare equal when their dataflow is the same whatever
// their value names and wherever their constants are (tensor constants
// compare by type only).
func structure(g *ir.Graph) []string {
	var out []string
	ids := map[*ir.Value]string{}
	for i, v := range g.Inputs() {
		ids[v] = fmt.Sprintf("in%d", i)
	}
	typeStr := func(t types.Type) string {
		if e, ok := t.(*types.Enum); ok {
			return e.Name // ir.Parse reads Enum<__torch__.Color> as the class __torch__.Color
		}
		return types.Unshaped(t).String()
	}
	typs := func(vs []*ir.Value) string {
		s := make([]string, len(vs))
		for i, v := range vs {
			s[i] = typeStr(v.Type)
		}
		return strings.Join(s, ", ")
	}
	ref := func(v *ir.Value) string {
		if id, ok := ids[v]; ok {
			return id
		}
		if n := v.Node(); n != nil && n.Kind == "prim::Constant" {
			s := "const(" + typeStr(v.Type)
			for _, a := range n.Attrs {
				if a.Kind == ir.AttrTensor {
					// the values of CONSTANTS.cN are the archive
					// reader's (unitFor's table holds placeholders)
					s += " " + a.Name + "=<tensor>"
					continue
				}
				s += " " + a.Name + "=" + a.String()
			}
			return s + ")"
		}
		return "?" + v.Name()
	}
	refs := func(vs []*ir.Value) string {
		s := make([]string, len(vs))
		for i, v := range vs {
			s[i] = ref(v)
		}
		return strings.Join(s, ", ")
	}
	k := 0
	var walk func(b *ir.Block, d int)
	walk = func(b *ir.Block, d int) {
		for _, n := range b.Nodes {
			if n.Kind == "prim::Constant" {
				continue
			}
			id := k
			k++
			s := n.Kind
			if name, ok := n.Str("name"); ok && (n.Kind == "prim::GetAttr" || n.Kind == "prim::SetAttr" || n.Kind == "prim::CallMethod") {
				s += "[" + name + "]"
			}
			out = append(out, depthLine(d, fmt.Sprintf("n%d = %s(%s) -> %s", id, s, refs(n.Inputs), typs(n.Outputs))))
			for bi, bl := range n.Blocks {
				for pi, p := range bl.Params {
					ids[p] = fmt.Sprintf("b%d.%d.%d", id, bi, pi)
				}
				out = append(out, depthLine(d+1, "block("+typs(bl.Params)+")"))
				walk(bl, d+1)
				out = append(out, depthLine(d+1, "-> ("+refs(bl.Outputs)+")"))
			}
			for i, o := range n.Outputs {
				ids[o] = fmt.Sprintf("n%d.%d", id, i)
			}
		}
	}
	walk(g.Block(), 0)
	out = append(out, "return ("+refs(g.Outputs())+")")
	return out
}

// checkCallees checks that every call node of b resolves to a function of
// the unit with as many parameters as the call has arguments.
func checkCallees(t *testing.T, cu *CompilationUnit, b *ir.Block) {
	t.Helper()
	for _, n := range b.Nodes {
		for _, bl := range n.Blocks {
			checkCallees(t, cu, bl)
		}
		if n.Kind != "prim::CallFunction" && n.Kind != "prim::CallMethod" {
			continue
		}
		fn, err := cu.Callee(n)
		if err != nil {
			t.Errorf("%s: %v", n.Kind, err)
			continue
		}
		if len(fn.Params) != len(n.Inputs) && !(n.Kind == "prim::CallFunction" && len(fn.Params)+1 == len(n.Inputs)) {
			t.Errorf("%s of %s: %d inputs for %d parameters", n.Kind, fn.Qualified, len(n.Inputs), len(fn.Params))
		}
	}
}

// structural are the prim nodes the emitter builds itself rather than
// resolving an operator (PyTorch gives some of them a schema).
var structural = map[string]bool{
	"prim::TupleUnpack": true, "prim::ListUnpack": true, "prim::TupleConstruct": true,
	"prim::ListConstruct": true, "prim::DictConstruct": true, "prim::TupleIndex": true,
	"prim::unchecked_cast": true, "prim::Uninitialized": true, "prim::GetAttr": true,
	"prim::SetAttr": true, "prim::CallMethod": true, "prim::CallFunction": true,
}

// schemaList reads NAME.schemas.txt: "kind overload" of each node of
// forward's graph that has a schema, in pre-order, as PyTorch resolved
// them.
func schemaList(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if kind, _, _ := strings.Cut(line, " "); !structural[kind] {
			out = append(out, line)
		}
	}
	return out, nil
}

// overloadList lists the resolved operators of a graph as schemaList.
func overloadList(g *ir.Graph) []string {
	var out []string
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		for _, n := range b.Nodes {
			if n.Op != nil && !structural[n.Kind] {
				out = append(out, n.Kind+" "+n.Op.Schema().QualifiedName())
			}
			for _, bl := range n.Blocks {
				walk(bl)
			}
		}
	}
	walk(g.Block())
	return out
}

// TestCompileSources compiles the hand-written functions of
// testdata/cases/*.src.py and compares their graphs and overloads with
// those torch.jit.CompilationUnit made of the same source (gen_cases.py):
// the implicit conversions, keyword arguments and multiple returns the
// serializer's own output never needs.
func TestCompileSources(t *testing.T) {
	srcs, _ := filepath.Glob("testdata/cases/*.src.py")
	if len(srcs) == 0 {
		t.Fatal("no testdata/cases/*.src.py")
	}
	for _, path := range srcs {
		base := strings.TrimSuffix(path, ".src.py")
		t.Run(filepath.Base(base), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			cu := New(func(m string) ([]byte, bool) { return src, m == "__torch__" }, nil)
			fn, err := cu.Function("__torch__.forward")
			if err != nil {
				t.Fatal(err)
			}
			g, err := fn.Graph()
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := graphSection(base + ".code.txt")
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d graph lines, %d overloads compared", len(want), len(wantOpsCount(base)))
			if got := structure(g); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("structure differs from PyTorch's graph\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			wantOps, err := schemaList(base + ".schemas.txt")
			if err != nil {
				t.Fatal(err)
			}
			if got := overloadList(g); strings.Join(got, "\n") != strings.Join(wantOps, "\n") {
				t.Errorf("overloads differ from PyTorch's\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantOps, "\n"))
			}
		})
	}
}

func wantOpsCount(base string) []string { l, _ := schemaList(base + ".schemas.txt"); return l }

// BenchmarkCompile measures compiling every method and function of an
// archive's code (a fresh unit each time): testdata/cases/types.pt, and
// ../shared/torchscript/convnet.script.pt when it is there.
func BenchmarkCompile(b *testing.B) {
	paths := []string{"testdata/cases/types.pt"}
	if _, err := os.Stat(filepath.Join(sharedDir, "torchscript/convnet.script.pt")); err == nil {
		paths = append(paths, filepath.Join(sharedDir, "torchscript/convnet.script.pt"))
	}
	for _, p := range paths {
		files := codeFiles(b, p)
		var srcs []string
		for m := range files {
			if m != versionKey {
				srcs = append(srcs, m)
			}
		}
		sort.Strings(srcs)
		b.Run(filepath.Base(p), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				cu := unitFor(files)
				for _, m := range srcs {
					f, err := syntax.Parse(m, files[m])
					if err != nil {
						b.Fatal(err)
					}
					for _, s := range f.Stmts {
						switch d := s.(type) {
						case *syntax.ClassDef:
							if classKind(d) != "class" {
								continue
							}
							c, err := cu.Class(m + "." + d.Name)
							if err != nil {
								b.Fatal(err)
							}
							for _, fn := range c.Methods {
								if _, err := fn.Graph(); err != nil {
									b.Fatal(err)
								}
							}
						case *syntax.FuncDef:
							fn, err := cu.Function(m + "." + d.Name)
							if err != nil {
								b.Fatal(err)
							}
							if _, err := fn.Graph(); err != nil {
								b.Fatal(err)
							}
						}
					}
				}
			}
		})
	}
}
