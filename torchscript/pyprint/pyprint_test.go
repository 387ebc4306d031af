package pyprint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/pyprint"
)

// sections splits a code.txt file PyTorch wrote into its "# code" and
// "# graph" sections (m.code and print(m.graph)).
func sections(t *testing.T, path string) (code, graph string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cur *string
	for _, line := range strings.SplitAfter(string(data), "\n") {
		switch strings.TrimRight(line, "\n") {
		case "# code":
			cur = &code
			continue
		case "# graph":
			cur = &graph
			continue
		}
		if strings.HasPrefix(line, "# PyTorch ") || cur == nil {
			continue
		}
		*cur += line
	}
	return strings.TrimSuffix(code, "\n"), strings.TrimSuffix(graph, "\n")
}

// TestPyTorchGraphs prints the graphs PyTorch printed (parsed back with
// ir.Parse, so with PyTorch's own value names) and compares with the code
// PyTorch printed for them. (Graphs that call free functions are left
// out: the graph text names a function constant by its short name, the
// code by its qualified one; the torchscript package's tests print those
// from loaded archives.)
func TestPyTorchGraphs(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.code.txt"))
	if len(files) == 0 {
		t.Fatal("no testdata/*.code.txt")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			want, text := sections(t, f)
			g, err := ir.Parse(text)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			got, err := pyprint.Method("forward", g)
			if err != nil {
				t.Fatal(err)
			}
			if got.Text != want {
				t.Errorf("got\n%s\nwant\n%s", got.Text, want)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	loop := `graph(%self : __torch__.M, %n : int, %c : bool):
  %x : int = prim::Loop(%n, %c, %n)
    block0(%i : int, %y : int):
      -> (%c, %y)
  return (%x)
`
	g, err := ir.Parse(loop)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		run  func() error
		want string
	}{
		{"nil graph", func() error { _, err := pyprint.Method("f", nil); return err }, "f: no graph"},
		{"signature", func() error {
			_, err := pyprint.Print(pyprint.Signature{Name: "f", Params: []pyprint.Param{{Name: "a"}}}, g)
			return err
		}, "1 parameters, the graph 3 inputs"},
		{"modified loop", func() error { _, err := pyprint.Method("f", g); return err }, "combined while and for loops"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestSignature(t *testing.T) {
	g, err := ir.Parse(`graph(%x.1 : Tensor, %k.1 : int):
  %2 : Tensor = aten::mul(%x.1, %k.1)
  return (%2)
`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pyprint.Print(pyprint.Signature{Name: "f", Params: []pyprint.Param{{Name: "x"}, {Name: "k", Default: int64(2), HasDefault: true}}}, g)
	if err != nil {
		t.Fatal(err)
	}
	// python_print's printFunction: typed first argument, default after
	// the annotation with no spaces.
	want := "def f(x: Tensor,\n    k: int=2) -> Tensor:\n  return torch.mul(x, k)\n"
	if got.Text != want {
		t.Errorf("got\n%s\nwant\n%s", got.Text, want)
	}
}

// FuzzPrint checks that printing any graph ir.Parse accepts returns code
// or an error, never a panic.
func FuzzPrint(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.code.txt"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if _, g, ok := strings.Cut(string(data), "# graph\n"); ok {
			f.Add(g)
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		g, err := ir.Parse(text)
		if err != nil {
			return
		}
		_, _ = pyprint.Method("forward", g)
	})
}
