package pattern_test

import (
	"fmt"
	"testing"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/internal/chain"
	"github.com/gofx/gofx/pattern"
)

// BenchmarkReplaceChain is the ReplacePattern workload of ../shared/bench
// (fx_chain.py): relu(add(x, 1.0)) replaced by clamp_min(x + 1.0, 0.0) in
// the traced N-block chain. Only Replace is timed, on a fresh trace each
// iteration. torch.fx 1.13 takes 7.9 s at 2,000 blocks.
func BenchmarkReplaceChain(b *testing.B) {
	repl := chainReplacement(b)
	p, err := pattern.Compile(chainPattern)
	if err != nil {
		b.Fatal(err)
	}
	r, err := fx.SymbolicTraceFunc(repl)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.StopTimer()
			m := chain.NewModel(n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				gm, err := fx.SymbolicTrace(m)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				ms, err := pattern.Replace(gm, p, r)
				if err != nil {
					b.Fatal(err)
				}
				if len(ms) != n {
					b.Fatalf("%d matches, want %d", len(ms), n)
				}
			}
		})
	}
}

// benchSizes are the chain lengths of ../shared/bench.
var benchSizes = []int{1000, 2000, 10000, 100000}
