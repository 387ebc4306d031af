package passes_test

import (
	"fmt"
	"testing"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/passes"
)

// benchSizes are the chain lengths (blocks) of the pass benchmarks: the
// time per block should stay flat from 1k to 100k.
var benchSizes = []int{1_000, 10_000, 100_000}

// chainGraph builds n blocks of the chain workload, each with work for the
// pass: block(x) = relu(add(x, 1.0)) plus, for CSE, a duplicate of the
// relu summed with it, and for DCE, a dead neg of the add.
func chainGraph(b *testing.B, n int, dup bool) *graph.Graph {
	g := graph.New()
	prev, err := g.Placeholder("x")
	if err != nil {
		b.Fatal(err)
	}
	must := func(n *node.Node, err error) *node.Node {
		if err != nil {
			b.Fatal(err)
		}
		return n
	}
	for range n {
		add := must(g.CallFunction(aten.AddScalar, []node.Arg{prev, node.Float(1)}, nil))
		relu := must(g.CallFunction(aten.Relu, []node.Arg{add}, nil))
		if dup {
			relu2 := must(g.CallFunction(aten.Relu, []node.Arg{add}, nil))
			prev = must(g.CallFunction(aten.AddTensor, []node.Arg{relu, relu2}, nil))
		} else {
			must(g.CallFunction(aten.Neg, []node.Arg{add}, nil))
			prev = relu
		}
	}
	must(g.Output(prev))
	return g
}

func benchPass(b *testing.B, p passes.Pass, dup bool) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("blocks=%d", n), func(b *testing.B) {
			src := chainGraph(b, n, dup)
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				g, _, err := src.Clone()
				if err != nil {
					b.Fatal(err)
				}
				gm, err := fx.NewGraphModule(nil, g)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				changed, err := p.Apply(gm)
				if err != nil || !changed {
					b.Fatal(changed, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/block")
		})
	}
}

// BenchmarkDCE removes one dead node per block.
func BenchmarkDCE(b *testing.B) { benchPass(b, passes.DCE, false) }

// BenchmarkCSE merges one duplicate node per block.
func BenchmarkCSE(b *testing.B) { benchPass(b, passes.CSE, true) }
