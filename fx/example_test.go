package fx_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
)

// Block is ordinary Go model code: the same Forward runs eagerly on tensors
// and records a graph on proxies.
type Block struct {
	nn.Base
	Conv *nn.Conv2d
	BN   *nn.BatchNorm2d
}

func NewBlock() *Block {
	b := &Block{}
	b.Init(b, "Block")
	b.Conv = nn.RegisterModule(&b.Base, "conv", nn.NewConv2d(3, 8, 3, nn.Padding(1)))
	b.BN = nn.RegisterModule(&b.Base, "bn", nn.NewBatchNorm2d(8))
	return b
}

func (b *Block) Forward(x nn.Value) nn.Value {
	return F.ReLU(b.BN.Call(b.Conv.Call(x))).Add(b.Conv.Bias.Value().Reshape(1, -1, 1, 1))
}

func ExampleSymbolicTrace() {
	m := nn.Eval(NewBlock())
	gm, err := fx.SymbolicTrace(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(gm.Graph)

	x := nn.Tensor(tensor.Must(tensor.Ones(tensor.Float32, 1, 3, 4, 4)))
	eager, _ := nn.Run(m, x)
	traced, _ := gm.Run(x)
	fmt.Println(tensor.Equal(eager.Tensor(), traced.Tensor()))
	// Output:
	// graph():
	//     %x : [num_users=1] = placeholder[target=x]
	//     %conv : [num_users=1] = call_module[target=conv](args = (%x,), kwargs = {})
	//     %bn : [num_users=1] = call_module[target=bn](args = (%conv,), kwargs = {})
	//     %relu : [num_users=1] = call_function[target=aten.relu.default](args = (%bn,), kwargs = {})
	//     %conv_bias : [num_users=1] = get_attr[target=conv.bias]
	//     %reshape : [num_users=1] = call_method[target=reshape](args = (%conv_bias, 1, -1, 1, 1), kwargs = {})
	//     %add : [num_users=1] = call_function[target=aten.add.Tensor](args = (%relu, %reshape), kwargs = {})
	//     return add
	// true
}

func ExampleWrap() {
	// Data-dependent Go code cannot be traced; wrapped, it is one node.
	clip, err := fx.Wrap("example.clip_if_big", func(args ...nn.Value) nn.Value {
		if args[0].Sum().Float() > 10 {
			return args[0].Relu()
		}
		return args[0]
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	gm, err := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value { return clip.Call(x.Mul(2)) })
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(gm.Code())
	// Output:
	// def forward(self, x):
	//     mul = torch.ops.aten.mul.Tensor(x, 2);  x = None
	//     clip_if_big = example.clip_if_big(mul);  mul = None
	//     return clip_if_big
}
