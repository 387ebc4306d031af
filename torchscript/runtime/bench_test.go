package runtime

import (
	"testing"

	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/types"
)

// BenchmarkIntLoop measures the interpreter's overhead per TorchScript
// operation: a loop of n iterations whose body runs three int operators
// (add, lt, and the loop's own bookkeeping); ns/op divided by 3n is the
// cost of one node.
func BenchmarkIntLoop(b *testing.B) {
	g := ir.NewGraph()
	n, _ := g.AddInput("n", types.Int)
	zero, _ := g.Constant(int64(0))
	one, _ := g.Constant(int64(1))
	tru, _ := g.Constant(true)
	loop, _ := g.InsertNode("prim::Loop", []*ir.Value{n, tru, zero}, types.Int)
	body := loop.AddBlock()
	i := body.AddParam(types.Int)
	s := body.AddParam(types.Int)
	g.SetInsertPoint(body)
	s1, _ := g.InsertNode("aten::add", []*ir.Value{s, i}, types.Int)
	s2, _ := g.InsertNode("aten::add", []*ir.Value{s1.Output(), one}, types.Int)
	c, _ := g.InsertNode("aten::lt", []*ir.Value{s2.Output(), n}, types.Bool)
	_ = c
	body.AddOutput(tru)
	body.AddOutput(s2.Output())
	g.RegisterOutput(loop.Output())
	in := NewInterpreter(nil)
	f := &Function{Name: "f", Graph: g}
	const iters = 1000
	b.ResetTimer()
	for k := 0; k < b.N; k++ {
		if _, err := in.Run(f, int64(iters)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(3*iters), "ns/node")
}
