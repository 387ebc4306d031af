package chain_test

import (
	"fmt"
	"testing"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/internal/chain"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/pattern"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/tensor"
)

// sizes are the chain lengths of the issue: 1k, 2k, 10k and 100k blocks
// (3 nodes each).
var sizes = []int{1000, 2000, 10000, 100000}

// BenchmarkChainModel times the steps of ../shared/bench/fx_chain.py on the
// N-block model, each on its own (setup outside the timer): symbolic
// trace, ShapeProp on a [1, 16] input, an interpreted run, replace_pattern
// of relu(add(x, 1.0)) by clamp_min(x + 1.0, 0.0), and dead-code
// elimination after it. ns/node divides by the traced graph's 3N nodes.
func BenchmarkChainModel(b *testing.B) {
	x := nn.Tensor(tensor.Must(tensor.Ones(tensor.Float32, 1, 16)))
	repl, err := fx.SymbolicTraceFunc(chain.Replacement)
	if err != nil {
		b.Fatal(err)
	}
	pat, err := pattern.Compile(chain.Pattern)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range sizes {
		m := nn.Eval(chain.NewModel(n))
		trace := func(b *testing.B) *fx.GraphModule {
			gm, err := fx.SymbolicTrace(m)
			if err != nil {
				b.Fatal(err)
			}
			return gm
		}
		perNode := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(3*n), "ns/node")
		}
		steps := []struct {
			name string
			run  func(b *testing.B, gm *fx.GraphModule)
		}{
			{"trace", func(b *testing.B, _ *fx.GraphModule) { trace(b) }},
			{"shapeprop", func(b *testing.B, gm *fx.GraphModule) {
				if _, err := shapeprop.Propagate(gm, x); err != nil {
					b.Fatal(err)
				}
			}},
			{"interp", func(b *testing.B, gm *fx.GraphModule) {
				if _, err := interp.New(gm.Graph, gm).Run(x); err != nil {
					b.Fatal(err)
				}
			}},
			{"replace_pattern", func(b *testing.B, gm *fx.GraphModule) {
				ms, err := pattern.Replace(gm, pat, repl)
				if err != nil || len(ms) != n {
					b.Fatalf("%d matches, %v", len(ms), err)
				}
			}},
			{"dce", func(b *testing.B, gm *fx.GraphModule) {
				if _, err := passes.DCE.Run(gm); err != nil {
					b.Fatal(err)
				}
			}},
		}
		for _, s := range steps {
			b.Run(fmt.Sprintf("%s/blocks=%d", s.name, n), func(b *testing.B) {
				for range b.N {
					b.StopTimer()
					gm := trace(b)
					if s.name == "dce" {
						if _, err := pattern.Replace(gm, pat, repl); err != nil {
							b.Fatal(err)
						}
					}
					b.StartTimer()
					s.run(b, gm)
				}
				perNode(b)
			})
		}
	}
}
