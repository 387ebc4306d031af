package fx_test

import (
	"fmt"
	"testing"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/internal/chain"
)

// BenchmarkSymbolicTraceChain traces the N-block model of
// ../shared/bench/fx_chain.py (3 nodes per block). torch.fx 1.13 takes
// 0.65 s at 1,000 blocks and 1.6 s at 2,000 (see BENCHMARKS.md).
func BenchmarkSymbolicTraceChain(b *testing.B) {
	for _, n := range []int{1000, 2000, 10000, 100000} {
		b.Run(fmt.Sprintf("blocks=%d", n), func(b *testing.B) {
			m := chain.NewModel(n)
			b.ResetTimer()
			for range b.N {
				gm, err := fx.SymbolicTrace(m)
				if err != nil {
					b.Fatal(err)
				}
				if gm.Graph.Len() != 3*n+2 {
					b.Fatalf("%d nodes, want %d", gm.Graph.Len(), 3*n+2)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(3*n), "ns/node")
		})
	}
}
