package shapeprop_test

import (
	"fmt"
	"testing"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// chainModule is the graph-chain workload of internal/chain (x, then n
// nodes alternating add(prev, 1.0) and relu(prev)) with aten.add.Scalar
// for the adds, as interp's benchmarks use it: gofx's add.Tensor, like
// ATen's, takes no Python number.
func chainModule(b *testing.B, n int) *fx.GraphModule {
	add, _ := ops.Global().Lookup("aten::add.Scalar")
	relu, _ := ops.Global().Lookup("aten::relu")
	g := graph.New()
	prev, err := g.Placeholder("x")
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			prev, err = g.CallFunction(add, []node.Arg{prev, node.Float(1)}, nil)
		} else {
			prev, err = g.CallFunction(relu, []node.Arg{prev}, nil)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	if _, err := g.Output(prev); err != nil {
		b.Fatal(err)
	}
	gm, err := fx.NewGraphModule(nil, g)
	if err != nil {
		b.Fatal(err)
	}
	return gm
}

func benchFakeProp(b *testing.B, gm *fx.GraphModule, in func(env *sym.Env) *shapeprop.Fake) {
	nodes := 0
	for range gm.Graph.Nodes() {
		nodes++
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		env := sym.NewEnv()
		if _, err := shapeprop.FakeProp(gm, env, in(env)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nodes), "ns/node")
}

// BenchmarkFakeProp measures FakeProp's cost per node on the chain
// workload at 1k, 10k and 100k nodes and on resnet18, with a symbolic
// batch (every node's shape is symbolic).
func BenchmarkFakeProp(b *testing.B) {
	symbolic := func(rest ...any) func(env *sym.Env) *shapeprop.Fake {
		return func(env *sym.Env) *shapeprop.Fake {
			s0, err := env.NewSymbol("s0", 4, sym.Range{Lo: 2, Hi: sym.Inf})
			if err != nil {
				b.Fatal(err)
			}
			return shapeprop.NewFake(tensor.Float32, append([]any{s0.Expr()}, rest...)...)
		}
	}
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("chain/%d", n), func(b *testing.B) {
			benchFakeProp(b, chainModule(b, n), symbolic(16))
		})
	}
	b.Run("resnet18", func(b *testing.B) {
		m, err := models.New("resnet18")
		if err != nil {
			b.Fatal(err)
		}
		gm, err := fx.SymbolicTrace(m)
		if err != nil {
			b.Fatal(err)
		}
		benchFakeProp(b, gm, symbolic(3, 224, 224))
	})
}

// BenchmarkInfer measures one pointwise Infer call on symbolic shapes.
func BenchmarkInfer(b *testing.B) {
	env := sym.NewEnv()
	s0, _ := env.NewSymbol("s0", 4, sym.Range{Lo: 2, Hi: sym.Inf})
	add, _ := ops.Global().Lookup("aten::add.Tensor")
	x, y := shapeprop.NewFake(tensor.Float32, s0.Expr(), 16), shapeprop.NewFake(tensor.Float32, 16)
	args := []any{x, y}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := shapeprop.Infer(env, add, args, nil, ""); err != nil {
			b.Fatal(err)
		}
	}
}
