package decomp

import (
	"fmt"
	"testing"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
)

// chainGraph builds x -> (linear -> relu) * blocks, with vals on the
// placeholders only.
func chainGraph(tb testing.TB, blocks int) *fx.GraphModule {
	g := graph.New()
	ph := func(name string, dims ...int64) *node.Node {
		n, err := g.Placeholder(name)
		if err != nil {
			tb.Fatal(err)
		}
		node.Val.Set(&n.Meta, node.TensorMeta{DType: node.Float32, Shape: node.Dims(dims...)})
		return n
	}
	h, w, b := ph("x", 4, 16), ph("w", 16, 16), ph("b", 16)
	for range blocks {
		lin, err := g.CallFunction(aten.Linear, []node.Arg{h, w, b}, nil)
		if err != nil {
			tb.Fatal(err)
		}
		if h, err = g.CallFunction(aten.Relu, []node.Arg{lin}, nil); err != nil {
			tb.Fatal(err)
		}
	}
	if _, err := g.Output(h); err != nil {
		tb.Fatal(err)
	}
	gm, err := fx.NewGraphModule(nil, g)
	if err != nil {
		tb.Fatal(err)
	}
	return gm
}

// BenchmarkDecompose decomposes a chain of linear+relu blocks (vals
// computed forward from the placeholders'); ns/node is per node of the
// input graph.
func BenchmarkDecompose(b *testing.B) {
	for _, blocks := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("blocks=%d", blocks), func(b *testing.B) {
			nodes := 2*blocks + 4
			for b.Loop() {
				b.StopTimer()
				gm := chainGraph(b, blocks)
				b.StartTimer()
				if _, err := Decompose(gm, Core()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nodes), "ns/node")
		})
	}
}

// TestDecomposeChain checks the benchmark's workload once: every linear
// becomes permute + addmm, the graph lints.
func TestDecomposeChain(t *testing.T) {
	gm := chainGraph(t, 50)
	_, err := Decompose(gm, Core())
	if err != nil {
		t.Fatal(err)
	}
	if err := gm.Graph.Lint(); err != nil {
		t.Fatal(err)
	}
	if got := len(gm.Graph.FindNodes(node.CallFunction, aten.Addmm)); got != 50 {
		t.Fatalf("%d addmm nodes, want 50", got)
	}
	if err := Verify(gm.Graph); err != nil {
		t.Fatal(err)
	}
}
