// Package demo builds the small example graph that `gofx demo` prints and
// the golden tests of package graph check: torch.fx's introductory
// MyModule (linear(x + linear.weight).relu(), summed over the last dim,
// top-3), written with ATen operators, using every opcode, keyword
// arguments, a list argument and metadata.
package demo

import (
	"fmt"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
)

// Fn returns the Function called name: an aten operator from package ops,
// or one registered with node.Register; other names (operator.getitem,
// mylib.custom.default) get a node.Func, registered on first use.
func Fn(name string) (node.Function, error) {
	if f, ok := node.LookupFunction(name); ok {
		return f, nil
	}
	f, err := node.NewFunc(name, false)
	if err != nil {
		return nil, err
	}
	if err := node.Register(f); err != nil {
		// Another goroutine registered it first: use theirs.
		if g, ok := node.LookupFunction(name); ok {
			return g, nil
		}
		return nil, err
	}
	return f, nil
}

// Graph builds the demo graph.
func Graph() (*graph.Graph, error) {
	var err error
	fn := func(name string) node.Function {
		f, e := Fn(name)
		if e != nil && err == nil {
			err = e
		}
		return f
	}
	add, sum, topk := fn("aten.add.Tensor"), fn("aten.sum.dim_IntList"), fn("aten.topk.default")
	if err != nil {
		return nil, err
	}
	g := graph.New()
	check := func(n *node.Node, e error) *node.Node {
		if e != nil && err == nil {
			err = e
		}
		return n
	}
	x := check(g.Placeholder("x"))
	w := check(g.GetAttr("linear.weight"))
	a := check(g.CallFunction(add, []node.Arg{x, w}, node.Kwargs{{Name: "alpha", Value: node.Int(1)}}))
	lin := check(g.CallModule("linear", []node.Arg{a}, nil))
	r := check(g.CallMethod("relu", []node.Arg{lin}, nil))
	s := check(g.CallFunction(sum, []node.Arg{r, node.List{node.Int(-1)}}, node.Kwargs{{Name: "dtype", Value: node.Float32}}))
	t := check(g.CallFunction(topk, []node.Arg{s, node.Int(3)}, nil))
	check(g.Output(node.Tuple{t}))
	if err != nil {
		return nil, fmt.Errorf("demo graph: %w", err)
	}
	node.Val.Set(&x.Meta, node.TensorMeta{DType: node.Float32, Shape: []node.Dim{{Sym: "s0"}, node.Dims(4)[0]}})
	node.Val.Set(&w.Meta, node.TensorMeta{DType: node.Float32, Shape: node.Dims(5, 4)})
	node.StackTrace.Set(&a.Meta, "demo.go:58 in Graph")
	node.ModuleStack.Set(&lin.Meta, []node.ModuleFrame{{Path: "linear", Type: "torch.nn.Linear"}})
	node.Val.Set(&t.Meta, node.ValueTuple{
		node.TensorMeta{DType: node.Float32, Shape: []node.Dim{{Sym: "s0"}, {Size: 3}}},
		node.TensorMeta{DType: node.Int64, Shape: []node.Dim{{Sym: "s0"}, {Size: 3}}},
	})
	return g, nil
}
