package pt2_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/golden"
	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/pt2"
)

// opLine matches a printed node that computes an annotated value with an
// operator: `name: "f32[2, s0]" = torch.ops.aten.add.Tensor(`.
var opLine = regexp.MustCompile(`^\s*(\w+): "([^"]*)" = (torch\.ops\.[\w.]+)\(`)

// forwardLine matches the signature line of the top graph.
var forwardLine = regexp.MustCompile(`^ {8}def forward\(self, (.*)\):$`)

// printed returns the forward line and the annotated operator lines of the
// top graph and its subgraphs, in order.
func printed(text string) (string, []string) {
	var fwd string
	var ops []string
	for _, l := range strings.Split(text, "\n") {
		if m := forwardLine.FindStringSubmatch(l); m != nil && fwd == "" {
			fwd = m[1]
		}
		// A multi-output node is not annotated (as in PyTorch 2.x): its
		// getitem lines are compared.
		if m := opLine.FindStringSubmatch(l); m != nil {
			ops = append(ops, m[1]+": "+m[2]+" = "+m[3])
		}
	}
	return fwd, ops
}

// TestPrintMatchesPyTorch compares the print of every program loaded from
// ../shared/pt2 (and torch-2.14) with PyTorch's print(ep) of the same
// program (NAME.ep.txt: the exported program, then the decomposed one in
// NAME.core.pt2): the forward signature (placeholder names, dtypes and
// symbolic shapes) and, line by line, every operator node's name, val and
// target.
func TestPrintMatchesPyTorch(t *testing.T) {
	optest.ScaledSoftplus(t)
	n := 0
	for _, dir := range []string{shared, filepath.Join(shared, "torch-2.14")} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.ep.txt"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			exported, core, ok := strings.Cut(string(data), "# ep.run_decompositions()")
			require.True(t, ok, f)
			base := strings.TrimSuffix(f, ".ep.txt")
			for _, c := range []struct{ path, want string }{{base + ".pt2", exported}, {base + ".core.pt2", core}} {
				rel, _ := filepath.Rel(shared, c.path)
				t.Run(rel, func(t *testing.T) {
					ep, err := pt2.Load(c.path)
					require.NoError(t, err)
					wantFwd, wantOps := printed(c.want)
					gotFwd, gotOps := printed(ep.String())
					assert.Equal(t, wantFwd, gotFwd)
					assert.Equal(t, wantOps, gotOps)
				})
				n++
			}
		}
	}
	if n == 0 {
		t.Skipf("skipping: no NAME.ep.txt in %s", shared)
	}
}

// TestPrintGolden is the whole print of the testdata programs (gofx's own
// form; TestPrintMatchesPyTorch and TestPrintTiedDict hold it to
// PyTorch's).
func TestPrintGolden(t *testing.T) {
	optest.ScaledSoftplus(t)
	for _, name := range []string{"kwargs_scalars", "mutations", "tied_dict", "custom_op"} {
		ep, err := pt2.Load("testdata/" + name + ".pt2")
		require.NoError(t, err)
		golden.Check(t, "testdata/"+name+".print.golden", ep.String())
	}
}

// TestPrintTiedDict compares tied_dict's print with PyTorch's ep.txt
// (testdata, from ../shared/pt2) line by line: every code line of PyTorch's
// forward, less its "# File:" comments, is gofx's, and the range
// constraints are the same.
func TestPrintTiedDict(t *testing.T) {
	data, err := os.ReadFile("testdata/tied_dict.ep.txt")
	require.NoError(t, err)
	want, _, _ := strings.Cut(string(data), "# ep.run_decompositions()")
	ep, err := pt2.Load("testdata/tied_dict.pt2")
	require.NoError(t, err)
	code := func(s string) []string {
		var out []string
		in := false
		for _, l := range strings.Split(s, "\n") {
			switch {
			case strings.HasPrefix(l, "ExportedProgram:"):
				in = true
				continue
			case strings.HasPrefix(l, "Graph signature"):
				in = false
			case strings.HasPrefix(l, "Range constraints"):
				out = append(out, l)
			}
			if in && strings.TrimSpace(l) != "" && !strings.HasPrefix(strings.TrimSpace(l), "#") {
				out = append(out, l)
			}
		}
		return out
	}
	assert.Equal(t, code(want), code(ep.String()))
}
