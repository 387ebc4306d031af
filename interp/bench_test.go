package interp_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/chain"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/ops/aten"
)

// The interpreter's cost per node on the graph-chain workload of
// ../shared/bench/fx_graph.py (x, then N nodes alternating add(prev, 1.0)
// and relu(prev)) on a 1x16 float32 input, next to the cost of the same calls made directly through
// nn.ApplyFunction (the kernels and the dispatch point, without the
// interpreter). Each iteration times both, so the metrics compare one
// moment of a noisy machine:
//
//	interp-ns/node    Run, per call_function node
//	direct-ns/node    the same calls in a Go loop
//	overhead-ns/node  the difference: what the interpreter adds
func BenchmarkChain(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			g := chainGraph(b, n)
			benchOverhead(b, g, nil, n, chainDirect(b, g))
		})
	}
}

// chainGraph is the graph-chain of internal/chain with
// aten.add.Scalar(prev, 1.0) for the adds: our aten.add.Tensor, unlike
// PyTorch's argument parser, does not take a number for its Tensor operand.
func chainGraph(b *testing.B, n int) *graph.Graph {
	add, relu := addScalar(b), node.Function(aten.Relu)
	g := graph.New()
	prev, _ := g.Placeholder("x")
	var err error
	for i := range n {
		if i%2 == 0 {
			prev, err = g.CallFunction(add, []node.Arg{prev, node.Float(1)}, nil)
		} else {
			prev, err = g.CallFunction(relu, []node.Arg{prev}, nil)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	_, _ = g.Output(prev)
	return g
}

func addScalar(b *testing.B) node.Function {
	op, ok := ops.Global().Lookup("aten::add.Scalar")
	if !ok {
		b.Fatal("no aten::add.Scalar")
	}
	return op
}

// chainDirect returns a function that makes the chain's calls directly:
// the same operators, arguments and nn entry point as the interpreter.
func chainDirect(b *testing.B, g *graph.Graph) func(x nn.Value) nn.Value {
	var fns []node.Function
	for n := range g.Nodes() {
		if n.Op() == node.CallFunction {
			if _, ok := n.Function().(*ops.Operator); !ok {
				b.Fatalf("%s is not an operator: import the kernels", n.Function())
			}
			fns = append(fns, n.Function())
		}
	}
	one := nn.Of(1.0)
	return func(x nn.Value) nn.Value {
		var err error
		for i, fn := range fns {
			if i%2 == 0 {
				x, err = nn.ApplyFunction(fn, []nn.Value{x, one}, nil)
			} else {
				x, err = nn.ApplyFunction(fn, []nn.Value{x}, nil)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		return x
	}
}

// benchOverhead times Run of g against direct, per node (nodes of them).
func benchOverhead(b *testing.B, g *graph.Graph, root nn.Module, nodes int, direct func(nn.Value) nn.Value) {
	x := nn.Tensor(randn(b, 0, 1, 16))
	in := interp.New(g, root)
	want := direct(x)
	got, err := in.Run(x)
	if err != nil {
		b.Fatal(err)
	}
	if want.String() != got.String() {
		b.Fatalf("interpreter and direct calls disagree:\n%s\n%s", got, want)
	}
	var tInterp, tDirect time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		if _, err := in.Run(x); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		direct(x)
		tDirect += time.Since(t1)
		tInterp += t1.Sub(t0)
	}
	per := float64(b.N) * float64(nodes)
	b.ReportMetric(float64(tInterp.Nanoseconds())/per, "interp-ns/node")
	b.ReportMetric(float64(tDirect.Nanoseconds())/per, "direct-ns/node")
	b.ReportMetric(float64((tInterp-tDirect).Nanoseconds())/per, "overhead-ns/node")
}

// chainModelGraph is the graph of chain.Model built by hand (no tracer
// involved): per block, call_module blocks.i.lin, then aten.add.Scalar(·,
// 1.0) and aten.relu.default.
func chainModelGraph(b *testing.B, n int) *graph.Graph {
	add, relu := addScalar(b), node.Function(aten.Relu)
	var err error
	g := graph.New()
	prev, _ := g.Placeholder("x")
	for i := range n {
		if prev, err = g.CallModule(fmt.Sprintf("blocks.%d.lin", i), []node.Arg{prev}, nil); err != nil {
			b.Fatal(err)
		}
		prev, _ = g.CallFunction(add, []node.Arg{prev, node.Float(1)}, nil)
		prev, _ = g.CallFunction(relu, []node.Arg{prev}, nil)
	}
	_, _ = g.Output(prev)
	return g
}

// The chain workload of ../shared/bench/fx_chain.py (N blocks of
// relu(add(linear(x), 1.0)), Linear(16, 16), input [1, 16]): Run of its
// graph against the model's own Forward, per node of the graph's 3N
// computing nodes.
func BenchmarkChainModel(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("blocks=%d", n), func(b *testing.B) {
			nn.ManualSeed(0)
			m := chain.NewModel(n)
			if err := nn.Err(m); err != nil {
				b.Fatal(err)
			}
			benchOverhead(b, chainModelGraph(b, n), m, 3*n, func(x nn.Value) nn.Value {
				out, err := nn.Run(m, x)
				if err != nil {
					b.Fatal(err)
				}
				return out
			})
		})
	}
}

// identity is a call_function target that does nothing: a chain of it
// measures the interpreter alone, without kernels.
var identity = func() node.Function {
	f := node.MustFunc("interp_bench.identity", false)
	if err := nn.RegisterFunction(f, func(args []nn.Value, _ map[string]nn.Value) (nn.Value, error) {
		return args[0], nil
	}); err != nil {
		panic(err)
	}
	return f
}()

// The interpreter's own cost per node: a chain of N call_function nodes
// whose target returns its first argument (identity(prev, 1.0)), against
// the same nn.ApplyFunction calls in a Go loop.
func BenchmarkOverhead(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			g := graph.New()
			prev, _ := g.Placeholder("x")
			for range n {
				prev, _ = g.CallFunction(identity, []node.Arg{prev, node.Float(1)}, nil)
			}
			_, _ = g.Output(prev)
			one := nn.Of(1.0)
			benchOverhead(b, g, nil, n, func(x nn.Value) nn.Value {
				for range n {
					var err error
					if x, err = nn.ApplyFunction(identity, []nn.Value{x, one}, nil); err != nil {
						b.Fatal(err)
					}
				}
				return x
			})
		})
	}
}
