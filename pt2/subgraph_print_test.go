package pt2_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/pt2"
)

// controlFlow names the programs of ../shared/pt2 with higher-order
// operators (cond, while_loop, map_impl).
var controlFlow = []string{"cond_data", "cond_shape", "cond_params", "cond_nested", "map_rows", "while_count", "while_converge"}

// listArg matches a list argument of names: [x, y].
var listArg = regexp.MustCompile(`\[[\w, ]*\]`)

// printedCode returns the code of a print(ep) up to the graph signature:
// the program's class and its subgraphs' nested classes, every non-blank
// line with its trailing blanks removed (PyTorch indents blank lines).
func printedCode(s string, comments bool) []string {
	var out []string
	in := false
	for _, l := range strings.Split(s, "\n") {
		switch {
		case strings.HasPrefix(l, "ExportedProgram:"):
			in = true
		case strings.HasPrefix(l, "Graph signature"):
			in = false
		}
		if !comments && strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if l = strings.TrimRight(l, " "); in && l != "" {
			if strings.Contains(l, "torch.ops.higher_order.") {
				// A .pt2 file does not say whether a higher-order
				// operator's operands were a list or a tuple: the
				// loaded program has lists where the exported one had
				// (x, y) (PyTorch's own loader gives lists too, which is
				// why 2.6 cannot run the while_loop programs it saved).
				l = listArg.ReplaceAllStringFunc(l, func(m string) string {
					items := m[1 : len(m)-1]
					if items != "" && !strings.Contains(items, ",") {
						return "(" + items + ",)"
					}
					return "(" + items + ")"
				})
			}
			out = append(out, l)
		}
	}
	return out
}

// TestPrintSubgraphsMatchPyTorch compares the print of each control-flow
// program, exported and decomposed, with PyTorch's print(ep) (NAME.ep.txt)
// line by line: the higher-order call with its graph attributes
// (true_graph_0 = self.true_graph_0) under the call's "# File:" line,
// results read as cond[0], the subgraphs as nested classes with their own
// source lines, everything but blank lines (and, for PyTorch 2.14's
// prints, the "# File:" lines).
func TestPrintSubgraphsMatchPyTorch(t *testing.T) {
	dirs := []string{"testdata/hop", shared, filepath.Join(shared, "torch-2.14")}
	n := 0
	for _, dir := range dirs {
		for _, name := range controlFlow {
			data, err := os.ReadFile(filepath.Join(dir, name+".ep.txt"))
			if err != nil {
				continue
			}
			exported, core, ok := strings.Cut(string(data), "# ep.run_decompositions()")
			require.True(t, ok)
			for _, c := range []struct{ file, want string }{{name + ".pt2", exported}, {name + ".core.pt2", core}} {
				path := filepath.Join(dir, c.file)
				if _, err := os.Stat(path); err != nil {
					continue
				}
				t.Run(path, func(t *testing.T) {
					ep, err := pt2.Load(path)
					require.NoError(t, err)
					// PyTorch 2.14 prints source lines its own way
					// (carets, other comment indent): compared for 2.6.
					comments := dir != filepath.Join(shared, "torch-2.14")
					assert.Equal(t, printedCode(c.want, comments), printedCode(ep.String(), comments))
				})
				n++
			}
		}
	}
	if n == 0 {
		t.Fatalf("no control-flow program found (testdata/hop holds cond_nested)")
	}
}
