package shapeprop_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// sequentialConds is a graph of n conds in sequence, each on the
// symbolic predicate x.shape[0] > 4 with branches cos(x) + 1 and
// sin(x) - 1 (cond_shape's), each taking the previous one's result.
func sequentialConds(b *testing.B, n int) *fx.GraphModule {
	var sb strings.Builder
	sb.WriteString(`%x0 = placeholder "x"()
%n = call_function aten.sym_size.int(%x0, 0)
%p = call_function operator.gt(%n, 4)
`)
	for i := range n {
		fmt.Fprintf(&sb, "%%t%d = get_attr \"true_graph_%d\"()\n%%f%d = get_attr \"false_graph_%d\"()\n", i, i, i, i)
		fmt.Fprintf(&sb, "%%c%d = call_function higher_order.cond(%%p, %%t%d, %%f%d, [%%x%d])\n", i, i, i, i)
		fmt.Fprintf(&sb, "%%x%d = call_function operator.getitem(%%c%d, 0)\n", i+1, i)
	}
	fmt.Fprintf(&sb, "%%output = output \"output\"(%%x%d)\n", n)
	root := &holder{}
	root.Init(root, "Holder")
	for i := range n {
		for name, text := range map[string]string{
			fmt.Sprintf("true_graph_%d", i): `
%x = placeholder "x"()
%c = call_function aten.cos.default(%x)
%a = call_function aten.add.Tensor(%c, 1)
%output = output "output"((%a,))`,
			fmt.Sprintf("false_graph_%d", i): `
%x = placeholder "x"()
%s = call_function aten.sin.default(%x)
%d = call_function aten.sub.Tensor(%s, 1)
%output = output "output"((%d,))`,
		} {
			g, err := graph.Parse(text)
			if err != nil {
				b.Fatal(err)
			}
			gm, err := fx.NewGraphModule(nil, g)
			if err != nil {
				b.Fatal(err)
			}
			nn.RegisterModule(&root.Base, name, gm)
		}
	}
	g, err := graph.Parse(sb.String())
	if err != nil {
		b.Fatal(err)
	}
	gm, err := fx.NewGraphModule(root, g)
	if err != nil {
		b.Fatal(err)
	}
	return gm
}

// BenchmarkFakePropConds is FakeProp of n sequential conds with a
// symbolic predicate (both branches propagated each time), reported per
// cond: the time should stay flat as n grows (linear growth).
func BenchmarkFakePropConds(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			gm := sequentialConds(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				env := sym.NewEnv()
				s0, err := env.NewSymbol("s0", 5, sym.Range{Lo: 2, Hi: 16})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := shapeprop.FakeProp(gm, env, shapeprop.NewFake(tensor.Float32, s0, 3)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/cond")
		})
	}
}
