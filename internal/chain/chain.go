// Package chain holds the two chain workloads of ../shared/bench: Model, the
// N-block model of fx_chain.py, and the graph-chain of fx_graph.py, which
// this package builds and times: the graph-chain workload of
// ../shared/bench/fx_graph.py: one placeholder x, then n call_function nodes
// alternating aten.add.Tensor(prev, 1.0) and aten.relu.default(prev), then
// the output.
package chain

import (
	"fmt"
	"time"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/demo"
	"github.com/gofx/gofx/node"
)

// Functions returns the two operators of the chain.
func Functions() (add, relu node.Function, err error) {
	if add, err = demo.Fn("aten.add.Tensor"); err != nil {
		return nil, nil, err
	}
	relu, err = demo.Fn("aten.relu.default")
	return add, relu, err
}

// Build returns the chain of n call_function nodes.
func Build(n int) (*graph.Graph, error) {
	add, relu, err := Functions()
	if err != nil {
		return nil, err
	}
	g := graph.New()
	prev, err := g.Placeholder("x")
	if err != nil {
		return nil, err
	}
	one := node.Float(1.0)
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			prev, err = g.CallFunction(add, []node.Arg{prev, one}, nil)
		} else {
			prev, err = g.CallFunction(relu, []node.Arg{prev}, nil)
		}
		if err != nil {
			return nil, err
		}
	}
	if _, err := g.Output(prev); err != nil {
		return nil, err
	}
	return g, nil
}

// Copy copies g into a new graph as fx_graph.py does: GraphCopy, then an
// output node.
func Copy(g *graph.Graph) (*graph.Graph, error) {
	g2 := graph.New()
	out, err := g2.GraphCopy(g, map[*node.Node]node.Arg{})
	if err != nil {
		return nil, err
	}
	_, err = g2.Output(out)
	return g2, err
}

// ReplaceRelus rewires the users of every relu to the relu's input, as
// fx_graph.py's rauw step does, and returns the number of relus.
func ReplaceRelus(g *graph.Graph) (int, error) {
	_, relu, err := Functions()
	if err != nil {
		return 0, err
	}
	relus := g.FindNodes(node.CallFunction, relu)
	for _, r := range relus {
		in, ok := r.Arg(0).(*node.Node)
		if !ok {
			return 0, fmt.Errorf("relu %%%s: argument 0 is not a node", r.Name())
		}
		if _, err := r.ReplaceAllUsesWith(in, nil, false); err != nil {
			return 0, err
		}
	}
	return len(relus), nil
}

// Timings are the seconds each operation took on one chain, with the JSON
// field names of fx_graph.py (plus text and parse, which torch.fx lacks).
type Timings struct {
	Workload string  `json:"workload"`
	N        int     `json:"n"`
	Nodes    int     `json:"nodes"`
	Build    float64 `json:"build_s"`
	Lint     float64 `json:"lint_s"`
	Copy     float64 `json:"copy_s"`
	Codegen  float64 `json:"codegen_s"`
	Str      float64 `json:"str_s"`
	Text     float64 `json:"text_s"`
	Parse    float64 `json:"parse_s"`
	RAUW     float64 `json:"rauw_s"`
	DCE      float64 `json:"dce_s"`
}

// Time runs every operation once on a chain of n nodes and reports the
// seconds each took.
func Time(n int) (Timings, error) {
	t := Timings{Workload: "graph-chain", N: n}
	var g *graph.Graph
	var err error
	step := func(dst *float64, f func() error) {
		if err != nil {
			return
		}
		start := time.Now()
		err = f()
		*dst = time.Since(start).Seconds()
	}
	step(&t.Build, func() (e error) { g, e = Build(n); return })
	step(&t.Lint, func() error { return g.Lint() })
	step(&t.Copy, func() error { _, e := Copy(g); return e })
	step(&t.Codegen, func() error { _ = g.Code(); return nil })
	step(&t.Str, func() error { _ = g.String(); return nil })
	var text string
	step(&t.Text, func() error { text = g.Text(); return nil })
	step(&t.Parse, func() error { _, e := graph.Parse(text); return e })
	step(&t.RAUW, func() error { _, e := ReplaceRelus(g); return e })
	step(&t.DCE, func() error {
		if !g.EliminateDeadCode() {
			return fmt.Errorf("dead-code elimination removed nothing")
		}
		return nil
	})
	if err != nil {
		return t, err
	}
	t.Nodes = g.Len()
	return t, g.Lint()
}
