package graph_test

import (
	"fmt"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
)

// Build a graph through the API and print it in torch.fx's format.
func Example() {
	add := node.MustOp("example", "add", "Tensor", false)
	relu := node.MustOp("example", "relu", "default", false)

	g := graph.New()
	x, _ := g.Placeholder("x")
	a, _ := g.CallFunction(add, []node.Arg{x, node.Float(1)}, nil)
	r, _ := g.CallFunction(relu, []node.Arg{a}, nil)
	_, _ = g.Output(r)
	fmt.Println(g)
	fmt.Print(g.Code())
	// Output:
	// graph():
	//     %x : [num_users=1] = placeholder[target=x]
	//     %add : [num_users=1] = call_function[target=example.add.Tensor](args = (%x, 1.0), kwargs = {})
	//     %relu : [num_users=1] = call_function[target=example.relu.default](args = (%add,), kwargs = {})
	//     return relu
	// def forward(self, x):
	//     add = torch.ops.example.add.Tensor(x, 1.0);  x = None
	//     relu = torch.ops.example.relu.default(add);  add = None
	//     return relu
}

// A pass is a loop over nodes: here every add becomes a mul, as in the
// first example of the torch.fx documentation.
func Example_pass() {
	add := node.MustOp("example", "add", "Tensor", false)
	mul := node.MustOp("example", "mul", "Tensor", false)
	g := graph.New()
	x, _ := g.Placeholder("x")
	y, _ := g.Placeholder("y")
	a, _ := g.CallFunction(add, []node.Arg{x, y}, nil)
	_, _ = g.Output(a)

	for n := range g.Nodes() {
		if n.Op() == node.CallFunction && n.Target() == node.Target(add) {
			_ = n.SetTarget(mul)
		}
	}
	fmt.Println(g.Lint())
	fmt.Println(len(g.FindNodes(node.CallFunction, mul)))
	// Output:
	// <nil>
	// 1
}

// Insert a node after another and make the other's users use it instead,
// as in torch.fx's "inserting_after" example. Unlike torch.fx, the new node
// does not end up using itself.
func ExampleGraph_InsertingAfter() {
	relu := node.MustOp("example", "relu", "default", false)
	neg := node.MustOp("example", "neg", "default", false)
	g := graph.New()
	x, _ := g.Placeholder("x")
	r, _ := g.CallFunction(relu, []node.Arg{x}, nil)
	_, _ = g.Output(r)

	restore := g.InsertingAfter(r)
	n, _ := g.CallFunction(neg, []node.Arg{r}, nil)
	restore()
	users, _ := r.ReplaceAllUsesWith(n, nil, false)
	fmt.Println(users, g.Lint())
	fmt.Print(g.Text())
	// Output:
	// [output] <nil>
	// %x = placeholder "x"()
	// %relu = call_function example.relu.default(%x)
	// %neg = call_function example.neg.default(%relu)
	// %output = output "output"(%neg)
}

// Text and Parse round-trip a graph exactly, metadata included.
func ExampleParse() {
	relu := node.MustOp("example", "relu", "default", false)
	resolve := graph.WithResolver(func(name string) (node.Function, error) {
		if name == relu.String() {
			return relu, nil
		}
		return nil, fmt.Errorf("unknown function %q", name)
	})
	g, err := graph.Parse(`
%x = placeholder "x"() {val: f32[s0, 8]}
%relu = call_function example.relu.default(%x) {stack_trace: "model.go:12"}
%output = output "output"(%relu)
`, resolve)
	fmt.Println(err)
	fmt.Println(g.Len(), g.OutputNode().Arg(0))

	_, err = graph.Parse(`%y = call_function example.relu.default(%x)`, resolve)
	fmt.Println(err)
	// Output:
	// <nil>
	// 3 relu
	// line 1, col 41: undefined node %x (a node must be defined before it is used)
}
