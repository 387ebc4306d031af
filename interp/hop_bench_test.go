package interp_test

import (
	"testing"
	"time"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// hopHolder holds a higher-order operator's subgraphs.
type hopHolder struct{ nn.Base }

func hopGM(b *testing.B, main string, subs map[string]string) *fx.GraphModule {
	b.Helper()
	root := &hopHolder{}
	root.Init(root, "Holder")
	for name, text := range subs {
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
	g, err := graph.Parse(main)
	if err != nil {
		b.Fatal(err)
	}
	gm, err := fx.NewGraphModule(root, g)
	if err != nil {
		b.Fatal(err)
	}
	return gm
}

const (
	benchBranch = `
%x = placeholder "x"()
%r = call_function aten.relu.default(%x)
%output = output "output"((%r,))`
	benchCond = `
%p = placeholder "p"()
%x = placeholder "x"()
%t = get_attr "true_graph_0"()
%f = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%p, %t, %f, [%x])
%r = call_function operator.getitem(%cond, 0)
%output = output "output"(%r)`
	// benchInline is benchCond's work without the cond: the branch's op.
	benchInline = `
%p = placeholder "p"()
%x = placeholder "x"()
%r = call_function aten.relu.default(%x)
%output = output "output"(%r)`
	benchWhile = `
%i = placeholder "i"()
%n = placeholder "n"()
%c = get_attr "while_loop_cond_graph_0"()
%b = get_attr "while_loop_body_graph_0"()
%w = call_function higher_order.while_loop(%c, %b, (%i,), (%n,))
%r = call_function operator.getitem(%w, 0)
%output = output "output"(%r)`
	benchWhileCond = `
%i = placeholder "i"()
%n = placeholder "n"()
%lt = call_function aten.lt.Tensor(%i, %n)
%output = output "output"(%lt)`
	benchWhileBody = `
%i = placeholder "i"()
%n = placeholder "n"()
%add = call_function aten.add.Tensor(%i, 1)
%output = output "output"((%add,))`
	// benchStep is one iteration's work without the loop: cond_fn's and
	// the body's ops.
	benchStep = `
%i = placeholder "i"()
%n = placeholder "n"()
%lt = call_function aten.lt.Tensor(%i, %n)
%add = call_function aten.add.Tensor(%i, 1)
%output = output "output"((%lt, %add))`
)

// BenchmarkCond times one run of a graph whose only work is a cond with
// a one-op branch (relu of a 16-element tensor) and, at the same moment,
// the same graph with the op inline; the metrics:
//
//	cond-ns/op      the run with the cond
//	inline-ns/op    the run with the branch's op inline
//	overhead-ns/op  the difference: what cond costs per execution (two
//	                get_attrs, the predicate, the branch's interpreter run,
//	                the result tuple and its getitem)
func BenchmarkCond(b *testing.B) {
	gm := hopGM(b, benchCond, map[string]string{"true_graph_0": benchBranch, "false_graph_0": benchBranch})
	g, err := graph.Parse(benchInline)
	if err != nil {
		b.Fatal(err)
	}
	x := nn.Tensor(tensor.Must(tensor.Ones(tensor.Float32, 16)))
	interleave(b, 1, "cond", "inline",
		func() error { _, err := interp.New(gm.Graph, gm).Run(nn.Of(true), x); return err },
		interp.New(gm.Graph, gm), []nn.Value{nn.Of(true), x},
		interp.New(g, nil), []nn.Value{nn.Of(true), x})
}

// BenchmarkWhileLoop times a while_loop of 100 iterations (i < n, then
// i + 1, on 0-d int64 tensors) and, at the same moment, 100 runs of one
// iteration's two ops inline; per iteration:
//
//	loop-ns/iter      the loop
//	inline-ns/iter    the two ops in a graph of their own
//	overhead-ns/iter  the difference: what the loop costs per iteration
//	                  (cond_fn's and body's interpreter runs, the
//	                  predicate, the carried values' checks)
func BenchmarkWhileLoop(b *testing.B) {
	gm := hopGM(b, benchWhile, map[string]string{"while_loop_cond_graph_0": benchWhileCond, "while_loop_body_graph_0": benchWhileBody})
	g, err := graph.Parse(benchStep)
	if err != nil {
		b.Fatal(err)
	}
	i, n := nn.Tensor(tensor.Scalar(int64(0))), nn.Tensor(tensor.Scalar(int64(100)))
	interleave(b, 100, "loop", "inline", nil,
		interp.New(gm.Graph, gm), []nn.Value{i, n},
		interp.New(g, nil), []nn.Value{i, n})
}

// interleave times a run of hop (once) and k runs of inline per
// iteration, reporting both per k and their difference. check, if set,
// runs before the timing.
func interleave(b *testing.B, k int, hopName, inlineName string, check func() error, hop *interp.Interpreter, hopIn []nn.Value, inline *interp.Interpreter, inlineIn []nn.Value) {
	if check != nil {
		if err := check(); err != nil {
			b.Fatal(err)
		}
	}
	unit := "op"
	if k > 1 {
		unit = "iter"
	}
	var tHop, tInline time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		if _, err := hop.Run(hopIn...); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		for range k {
			if _, err := inline.Run(inlineIn...); err != nil {
				b.Fatal(err)
			}
		}
		tInline += time.Since(t1)
		tHop += t1.Sub(t0)
	}
	per := float64(b.N) * float64(k)
	b.ReportMetric(float64(tHop.Nanoseconds())/per, hopName+"-ns/"+unit)
	b.ReportMetric(float64(tInline.Nanoseconds())/per, inlineName+"-ns/"+unit)
	b.ReportMetric(float64((tHop-tInline).Nanoseconds())/per, "overhead-ns/"+unit)
}
