package frontend

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/torchscript/ir"
)

// forkGraphs returns the Subgraph of each prim::fork of g, in order.
func forkGraphs(g *ir.Graph) []*ir.Graph {
	var out []*ir.Graph
	g.Walk(func(n *ir.Node) {
		if n.Kind != "prim::fork" {
			return
		}
		if a, ok := n.Attr("Subgraph"); ok {
			if sg, ok := a.Value.(*ir.Graph); ok {
				out = append(out, sg)
			}
		}
	})
	return out
}

// TestForkSubgraphs compiles testdata/cases/fork.pt and fork_method.pt
// (torch.jit.fork of a function, of a submodule and of a method, made by
// PyTorch 2.6: ../../convert/testdata/tsfork/gen_tsfork.py) and compares
// each prim::fork's lifted closure with the subgraph PyTorch printed
// ("with prim::fork_N = graph(...)"): the same captured inputs (the
// closure's free values in first-use order, constants included, as
// PyTorch materializes them outside the closure) and the same body.
// TestCompileArchives compares the forward graphs around them.
func TestForkSubgraphs(t *testing.T) {
	for _, name := range []string{"fork", "fork_method"} {
		t.Run(name, func(t *testing.T) {
			path := "testdata/cases/" + name + ".pt"
			_, classes := compileAll(t, name, codeFiles(t, path))
			raw, err := os.ReadFile("testdata/cases/" + name + ".code.txt")
			require.NoError(t, err)
			_, text, _ := strings.Cut(string(raw), "# graph\n")
			want, err := ir.Parse(strings.TrimRight(text, "\n") + "\n")
			require.NoError(t, err)
			c, ok := classes[want.Inputs()[0].Type.String()]
			require.True(t, ok)
			fwd, ok := c.Method("forward")
			require.True(t, ok)
			got, err := fwd.Graph()
			require.NoError(t, err)
			wf, gf := forkGraphs(want), forkGraphs(got)
			require.Len(t, gf, len(wf))
			require.NotEmpty(t, wf)
			for i := range wf {
				assert.Equal(t, strings.Join(structure(wf[i]), "\n"), strings.Join(structure(gf[i]), "\n"), "fork %d", i)
				assert.Len(t, gf[i].Inputs(), len(wf[i].Inputs()), "fork %d", i)
			}
		})
	}
}

// TestClosureErrors: nested defs the serializer never writes, and forks of
// anything but a closure, are errors naming the line.
func TestClosureErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"def f(x: Tensor) -> Tensor:\n  def g(y: Tensor):\n    return y\n  return x\n", "takes parameters"},
		{"def f(x: Tensor) -> Tensor:\n  def g():\n    y = x\n  return x\n", "does not return a value on every path"},
		{"def f(x: Tensor) -> Tensor:\n  fut = fork(x)\n  return x\n", "only a closure"},
		{"def f(x: Tensor) -> Tensor:\n  def g():\n    return x\n  fut = fork(g, x)\n  return x\n", "fork takes one closure"},
		{"def f(x: Tensor) -> Tensor:\n  def g():\n    return x\n  return g\n", "the return value is not a value"},
	} {
		cu := unitFor(map[string][]byte{"__torch__": []byte(tc.src)})
		fn, err := cu.Function("__torch__.f")
		if err == nil {
			_, err = fn.Graph()
		}
		require.Error(t, err, tc.src)
		assert.Contains(t, err.Error(), tc.want, tc.src)
	}

}
