package transformer_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	_ "github.com/gofx/gofx/kernels" // the reference kernels
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/transformer"
)

// AddToMul replaces every aten add.Tensor by mul.Tensor, as torch.fx's
// documentation does with torch.add and torch.mul.
type AddToMul struct{ *transformer.Transformer }

// CallFunction records mul where the graph calls add.
func (s *AddToMul) CallFunction(n *node.Node, fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if fn == aten.AddTensor {
		fn = aten.MulTensor
	}
	return s.Transformer.CallFunction(n, fn, args, kwargs)
}

// Swap add for mul in a traced function, then run both graphs.
func Example_addToMul() {
	gm, err := fx.SymbolicTraceFunc(func(x, y nn.Value) nn.Value { return x.Add(y) }, "x", "y")
	if err != nil {
		panic(err)
	}
	s := &AddToMul{Transformer: transformer.New(gm)}
	s.Steps = s // dispatch every step through the overrides
	gm2, err := s.Transform()
	if err != nil {
		panic(err)
	}
	fmt.Print(gm2.Code())

	x, _ := tensor.FromFloat64s(tensor.Float32, []float64{1, 2, 3}, 3)
	y, _ := tensor.FromFloat64s(tensor.Float32, []float64{4, 5, 6}, 3)
	before, _ := gm.Run(nn.Tensor(x), nn.Tensor(y))
	after, _ := gm2.Run(nn.Tensor(x), nn.Tensor(y))
	fmt.Println(before)
	fmt.Println(after)
	// Output:
	// def forward(self, x, y):
	//     mul = torch.ops.aten.mul.Tensor(x, y);  x = y = None
	//     return mul
	// tensor([5., 7., 9.])
	// tensor([ 4., 10., 18.])
}

// ReluDecomposition is torch.fx's relu_decomposition, (x > 0) * x: plain
// Go code over values, which records nodes when x is a proxy.
func ReluDecomposition(x nn.Value) nn.Value { return x.Gt(0).Mul(x) }

// DecomposeRelu applies ReluDecomposition to every relu: aten relu
// call_function nodes, relu call_method nodes and call_module nodes of an
// nn.ReLU.
type DecomposeRelu struct{ *transformer.Transformer }

// CallFunction decomposes aten relu.
func (s *DecomposeRelu) CallFunction(n *node.Node, fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if fn == aten.Relu {
		return ReluDecomposition(args[0]), nil
	}
	return s.Transformer.CallFunction(n, fn, args, kwargs)
}

// CallMethod decomposes x.relu().
func (s *DecomposeRelu) CallMethod(n *node.Node, name string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if name == "relu" {
		return ReluDecomposition(args[0]), nil
	}
	return s.Transformer.CallMethod(n, name, args, kwargs)
}

// CallModule decomposes calls of nn.ReLU modules.
func (s *DecomposeRelu) CallModule(n *node.Node, path string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if m, err := nn.Submodule(s.Root(), path); err == nil {
		if _, ok := m.(*nn.ReLU); ok {
			return ReluDecomposition(args[0]), nil
		}
	}
	return s.Transformer.CallModule(n, path, args, kwargs)
}

// Decompose the ReLU of the zoo's mlp into (x > 0) * x, and check the new
// module against the original on a random input.
func Example_reluDecomposition() {
	m, err := models.New("mlp")
	if err != nil {
		panic(err)
	}
	gm, err := fx.SymbolicTrace(m)
	if err != nil {
		panic(err)
	}
	s := &DecomposeRelu{Transformer: transformer.New(gm)}
	s.Steps = s
	gm2, err := s.Transform()
	if err != nil {
		panic(err)
	}
	fmt.Print(gm2.Code())

	nn.ManualSeed(0)
	x, _ := nn.Normal(8, 16)
	want, _ := gm.Run(nn.Tensor(x))
	got, _ := gm2.Run(nn.Tensor(x))
	fmt.Println("allclose:", tensor.AllClose(got.Tensor(), want.Tensor(), 1e-6, 1e-6, false))
	// Output:
	// def forward(self, input):
	//     input_1 = input
	//     _0 = getattr(self, "0")(input_1);  input_1 = None
	//     gt = torch.ops.aten.gt.Scalar(_0, 0)
	//     mul = torch.ops.aten.mul.Tensor(gt, _0);  gt = _0 = None
	//     _2 = getattr(self, "2")(mul);  mul = None
	//     return _2
	// allclose: true
}
