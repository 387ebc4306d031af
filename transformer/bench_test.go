package transformer_test

import (
	"fmt"
	"testing"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/internal/chain"
	"github.com/gofx/gofx/transformer"
)

// BenchmarkTransform times New + Transform (no overrides) on the
// graph-chain workload of internal/chain (a placeholder, then N nodes
// alternating aten.add.Tensor(prev, 1.0) and aten.relu.default(prev), then
// the output), reporting the cost per source node. The same workload in
// torch.fx: testdata/bench_torch_transformer.py.
//
// One session on the shared 2-core machine (2026-11-21, medians of 3 runs
// of -benchtime=20x, noisy): about 2.6, 1.7 and 2.3 µs per node at 1k,
// 10k and 100k nodes, 9.5 allocations per node; torch.fx 1.13's
// Transformer took 75 ms (75 µs/node) at 1k, 5.3 s (527 µs/node) at 10k
// and 32.7 s at 20k, where its quadratic node naming dominates.
func BenchmarkTransform(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			g, err := chain.Build(n)
			if err != nil {
				b.Fatal(err)
			}
			gm, err := fx.NewGraphModule(nil, g)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				out, err := transformer.New(gm).Transform()
				if err != nil {
					b.Fatal(err)
				}
				if out.Graph.Len() != g.Len() {
					b.Fatalf("%d nodes, want %d", out.Graph.Len(), g.Len())
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(g.Len()), "ns/node")
		})
	}
}
