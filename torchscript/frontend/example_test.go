package frontend_test

import (
	"fmt"

	"github.com/gofx/gofx/torchscript/frontend"
)

// A module's code, as torch.jit.save writes it under code/__torch__.py.
const exampleCode = `class Net(Module):
  __parameters__ = ["weight", ]
  __buffers__ = []
  weight : Tensor
  training : bool
  scale : Final[float] = 2.
  def forward(self: __torch__.Net,
    x: Tensor,
    n: int) -> Tensor:
    y = torch.mul(x, self.scale)
    for i in range(n):
      y = torch.add(y, self.weight)
    return torch.relu(y)
`

func Example() {
	files := map[string]string{"__torch__": exampleCode}
	cu := frontend.New(func(module string) ([]byte, bool) {
		src, ok := files[module]
		return []byte(src), ok
	}, nil)
	net, err := cu.Class("__torch__.Net")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range net.Type.Attrs {
		fmt.Println("attribute", a.Name, a.Type, "parameter:", a.Parameter)
	}
	fwd, _ := net.Method("forward")
	g, err := fwd.Graph()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, n := range g.Nodes() {
		if n.Op != nil {
			fmt.Println(n.Kind, "→", n.Op.Schema().QualifiedName())
		} else {
			fmt.Println(n.Kind)
		}
	}
	// Output:
	// attribute weight Tensor parameter: true
	// attribute training bool parameter: false
	// prim::Constant
	// prim::Constant
	// prim::Constant
	// aten::mul → aten::mul.Scalar
	// prim::Loop
	// aten::relu → aten::relu
}
