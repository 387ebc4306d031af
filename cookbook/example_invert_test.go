// Recipe: the invert transformation.
//
// What it teaches: building a new graph from an old one by hand. Walk the
// traced graph backwards and emit, for each operator, its inverse: the
// output becomes the new input, each call_function node becomes the call of
// its inverse on the value computed so far, and the input becomes the new
// output. inverse(f(x)) then gives x back.
//
// torch.fx equivalent (the "Invert Transformation" example of the docs):
//
//	for node in reversed(fx_model.graph.nodes):
//	    if node.op == 'call_function':
//	        new_node = new_graph.call_function(invert_mapping[node.target], (env[node.name],))
//	        env[node.args[0].name] = new_node
//	    elif node.op == 'output':
//	        env[node.args[0].name] = new_graph.placeholder(node.name)
//	    elif node.op == 'placeholder':
//	        new_graph.output(env[node.name])

package cookbook_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// inverseOf maps each unary operator to its inverse, both ways.
var inverseOf = map[node.Function]node.Function{}

func init() {
	for _, p := range [][2]node.Function{{aten.Sin, aten.Asin}, {aten.Cos, aten.Acos},
		{aten.Tan, aten.Atan}, {aten.Exp, aten.Log}, {aten.Neg, aten.Neg}} {
		inverseOf[p[0]], inverseOf[p[1]] = p[1], p[0]
	}
}

// invert returns the GraphModule computing the inverse of gm's function.
func invert(gm *fx.GraphModule) (*fx.GraphModule, error) {
	g := graph.New()
	env := map[*node.Node]*node.Node{} // old node -> new node holding its value
	for n := range gm.Graph.Backward() {
		var err error
		switch n.Op() {
		case node.Output:
			env[n.Arg(0).(*node.Node)], err = g.Placeholder(n.Name())
		case node.CallFunction:
			inv, ok := inverseOf[n.Function()]
			if !ok {
				return nil, fmt.Errorf("invert: node %s: %s has no inverse", n.Name(), n.Function())
			}
			env[n.Arg(0).(*node.Node)], err = g.CallFunction(inv, []node.Arg{env[n]}, nil)
		case node.Placeholder:
			_, err = g.Output(env[n])
		default:
			err = fmt.Errorf("invert: node %s: cannot invert a %s node", n.Name(), n.Op())
		}
		if err != nil {
			return nil, err
		}
	}
	if err := g.Lint(); err != nil {
		return nil, err
	}
	return fx.NewGraphModule(nil, g)
}

func Example_invert() {
	// f(x) = exp(tan(x)), as torch.exp(torch.tan(x)) in the docs.
	f, err := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value { return F.Exp(nn.CallOp(aten.Tan, x)) })
	if err != nil {
		fmt.Println(err)
		return
	}
	inv, err := invert(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(inv.Code())

	// inverse(f(x)) == x for x in (-pi/2, pi/2), where tan is invertible.
	x := tensor.Must(tensor.FromSlice([]float32{-1, -0.5, 0, 0.5, 1}, 5))
	y, _ := f.Run(nn.Tensor(x))
	back, _ := inv.Run(y)
	fmt.Println(back)
	fmt.Println("allclose:", tensor.AllClose(back.Tensor(), x, 1e-5, 1e-6, false))

	// And f(inverse(y)) == y, the docs' check on 1..5.
	y = nn.Tensor(tensor.Must(tensor.Arange(tensor.Float32, 1, 6, 1)))
	fy, _ := f.Run(inv.Call(y))
	fmt.Println(fy)
	// Output:
	// def forward(self, output):
	//     log = torch.ops.aten.log.default(output);  output = None
	//     atan = torch.ops.aten.atan.default(log);  log = None
	//     return atan
	// tensor([-1.0000, -0.5000,  0.0000,  0.5000,  1.0000])
	// allclose: true
	// tensor([1., 2., 3., 4., 5.])
}
