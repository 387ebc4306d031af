package graph_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/chain"
	"github.com/gofx/gofx/node"
)

// The graph-chain workload of ../shared/bench/fx_graph.py: a placeholder,
// then N call_function nodes alternating add(prev, 1.0) and relu(prev),
// then the output. Run with
//
//	go test ./graph -run '^$' -bench Chain -benchmem
var chainSizes = []int{10_000, 100_000}

func buildChain(b *testing.B, n int) *graph.Graph {
	b.Helper()
	g, err := chain.Build(n)
	if err != nil {
		b.Fatal(err)
	}
	return g
}

func BenchmarkChain(b *testing.B) {
	for _, n := range chainSizes {
		b.Run(fmt.Sprintf("Build/N=%d", n), func(b *testing.B) {
			for b.Loop() {
				buildChain(b, n)
			}
		})
		b.Run(fmt.Sprintf("Lint/N=%d", n), func(b *testing.B) {
			g := buildChain(b, n)
			for b.Loop() {
				if err := g.Lint(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("GraphCopy/N=%d", n), func(b *testing.B) {
			g := buildChain(b, n)
			for b.Loop() {
				if _, err := chain.Copy(g); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("Code/N=%d", n), func(b *testing.B) {
			g := buildChain(b, n)
			for b.Loop() {
				_ = g.Code()
			}
		})
		b.Run(fmt.Sprintf("String/N=%d", n), func(b *testing.B) {
			g := buildChain(b, n)
			for b.Loop() {
				_ = g.String()
			}
		})
		b.Run(fmt.Sprintf("TextParse/N=%d", n), func(b *testing.B) {
			g := buildChain(b, n)
			for b.Loop() {
				if _, err := graph.Parse(g.Text()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("RAUW/N=%d", n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				g := buildChain(b, n)
				runtime.GC() // do not charge the build's garbage to the step
				b.StartTimer()
				if _, err := chain.ReplaceRelus(g); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("DCE/N=%d", n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				g := buildChain(b, n)
				if _, err := chain.ReplaceRelus(g); err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				b.StartTimer()
				if !g.EliminateDeadCode() {
					b.Fatal("nothing removed")
				}
			}
		})
	}
}

// One node with many keyword arguments, dict keys and metadata entries:
// parsing must stay linear in the line's length (duplicate checks use sets).
func BenchmarkParseWideLine(b *testing.B) {
	for _, k := range []int{2_000, 20_000} {
		var sb strings.Builder
		sb.WriteString("%x = placeholder \"x\"()\n%y = call_method \"f\"(%x, {")
		for i := range k {
			if i > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "\"d%d\": %d", i, i)
		}
		sb.WriteString("}")
		for i := range k {
			fmt.Fprintf(&sb, ", k%d=%d", i, i)
		}
		sb.WriteString(") {")
		for i := range k {
			if i > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "m%d: %d", i, i)
		}
		sb.WriteString("}\n")
		text := sb.String()
		b.Run(fmt.Sprintf("entries=%d", k), func(b *testing.B) {
			for b.Loop() {
				if _, err := graph.Parse(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// One node whose arguments refer to k distinct nodes: building, parsing
// and linting it must stay linear in k.
func BenchmarkFanIn(b *testing.B) {
	for _, k := range []int{2_000, 20_000} {
		g := graph.New()
		args := make([]node.Arg, k)
		for i := range args {
			x, err := g.Placeholder(fmt.Sprintf("x%d", i))
			if err != nil {
				b.Fatal(err)
			}
			args[i] = x
		}
		sum, err := g.CallFunction(node.MustOp("bench", "sum", "default", false), []node.Arg{node.List(args)}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := g.Output(sum); err != nil {
			b.Fatal(err)
		}
		text := g.Text()
		f := sum.Function()
		resolve := graph.WithResolver(func(string) (node.Function, error) { return f, nil })
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			for b.Loop() {
				p, err := graph.Parse(text, resolve)
				if err != nil {
					b.Fatal(err)
				}
				if err := p.Lint(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Lint's cost per node across sizes, to separate algorithmic growth from
// the step where the graph stops fitting in the cache.
func BenchmarkLintGrowth(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 30_000, 100_000, 300_000} {
		g := buildChain(b, n)
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for b.Loop() {
				if err := g.Lint(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(g.Len()), "ns/node")
		})
	}
}
