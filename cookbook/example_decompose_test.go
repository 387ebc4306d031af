// Recipe: decomposition via proxies.
//
// What it teaches: a rewrite rule can be ordinary model code. Run it on
// proxies instead of tensors and it records the nodes it would compute, so
// there is no graph surgery to write. relu(x) becomes (x > 0) * x.
//
// Two ways to apply such a rule:
//
//   - a Transformer (Example_decomposeWithProxies) re-records the whole
//     graph and calls the rule for the nodes it knows, as the torch.fx docs'
//     decompose() does with fx.Proxy;
//   - a decomp.Table (Example_decomposeToCore) adds the rule to the
//     composite → core ATen table, and decomp.Decompose rewrites the graph in
//     place; decomp.Verify then checks only core ATen is left.
//
// torch.fx equivalent:
//
//	def relu_decomposition(x):
//	    return (x > 0) * x
//	decomposition_rules = {F.relu: relu_decomposition}
//	...
//	proxy_args = [fx.Proxy(env[x.name]) if isinstance(x, fx.Node) else x for x in node.args]
//	output_proxy = decomposition_rules[node.target](*proxy_args)
//	env[node.name] = output_proxy.node

package cookbook_test

import (
	"fmt"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/transformer"
)

// reluDecomposition is plain Go over values: on tensors it computes, on
// proxies it records aten.gt.Scalar and aten.mul.Tensor.
func reluDecomposition(x nn.Value) nn.Value { return x.Gt(0).Mul(x) }

// decompositionRules maps the operators to decompose to their rules.
var decompositionRules = map[node.Function]func(nn.Value) nn.Value{aten.Relu: reluDecomposition}

// decomposer is a Transformer that applies decompositionRules.
type decomposer struct{ *transformer.Transformer }

func (d *decomposer) CallFunction(n *node.Node, fn node.Function, args []nn.Value, kw map[string]nn.Value) (nn.Value, error) {
	if rule, ok := decompositionRules[fn]; ok {
		return rule(args[0]), nil // args are proxies of the new graph
	}
	return d.Transformer.CallFunction(n, fn, args, kw) // copy the node over
}

// tinyLinear is relu(linear(x, w, b)) with fixed 2x3 weights.
type tinyLinear struct {
	nn.Base
	W, B *nn.Parameter
}

func newTinyLinear() *tinyLinear {
	m := &tinyLinear{}
	m.Init(m, "TinyLinear")
	m.W = m.RegisterParameter("w", tensor.Must(tensor.FromSlice([]float32{1, -1, 0.5, -2, 1, 0}, 2, 3)))
	m.B = m.RegisterParameter("b", tensor.Must(tensor.FromSlice([]float32{0.5, -0.5}, 2)))
	return m
}

func (m *tinyLinear) Forward(x nn.Value) nn.Value {
	return F.ReLU(F.Linear(x, m.W.Value(), m.B.Value()))
}

var decompInput = nn.Tensor(tensor.Must(tensor.FromSlice([]float32{1, 2, 3, -1, 0, 2}, 2, 3)))

func Example_decomposeWithProxies() {
	gm, err := fx.SymbolicTrace(newTinyLinear())
	if err != nil {
		fmt.Println(err)
		return
	}
	d := &decomposer{transformer.New(gm)}
	d.Steps = d // dispatch every step through the override
	gm2, err := d.Transform()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(gm2.Code())

	// Same numbers; (x > 0) * x gives -0 where relu gives 0, in PyTorch too.
	before, _ := gm.Run(decompInput)
	after, _ := gm2.Run(decompInput)
	fmt.Println(before)
	fmt.Println(after)
	// Output:
	// def forward(self, x):
	//     w = self.w
	//     b = self.b
	//     linear = torch.ops.aten.linear.default(x, w, b);  x = w = b = None
	//     gt = torch.ops.aten.gt.Scalar(linear, 0)
	//     mul = torch.ops.aten.mul.Tensor(gt, linear);  gt = linear = None
	//     return mul
	// tensor([[1.0000, 0.0000],
	//         [0.5000, 1.5000]])
	// tensor([[1.0000, -0.0000],
	//         [0.5000, 1.5000]])
}

func Example_decomposeToCore() {
	gm, err := fx.SymbolicTrace(newTinyLinear())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(decomp.Verify(gm.Graph))

	// The core table (linear is composite) plus our own rule for relu.
	table := decomp.Core().With(decomp.Table{
		aten.Relu: func(args []nn.Value) (nn.Value, error) { return reluDecomposition(args[0]), nil },
	})
	// Rules are traced at the nodes' shapes: record them first.
	if _, err := shapeprop.Propagate(gm, decompInput); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := decomp.Decompose(gm, table); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(gm.Code())
	fmt.Println("verify:", decomp.Verify(gm.Graph))
	out, _ := gm.Run(decompInput)
	fmt.Println(out)
	// Output:
	// decomp: the graph is not core ATen: 1 offending node(s)
	//   %linear (aten.linear.default): aten.linear.default is not a core ATen operator: decompose it (decomp.Core() has a rule for it)
	// def forward(self, x):
	//     w = self.w
	//     b = self.b
	//     permute = torch.ops.aten.permute.default(w, [1, 0]);  w = None
	//     addmm = torch.ops.aten.addmm.default(b, x, permute);  b = x = permute = None
	//     gt = torch.ops.aten.gt.Scalar(addmm, 0)
	//     mul = torch.ops.aten.mul.Tensor(gt, addmm);  gt = addmm = None
	//     return mul
	// verify: <nil>
	// tensor([[1.0000, -0.0000],
	//         [0.5000, 1.5000]])
}
