package pyprint_test

import (
	"fmt"

	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/pyprint"
)

func ExampleMethod() {
	// A graph as print(m.graph) shows it (PyTorch 2.6's loop_if model).
	g, err := ir.Parse(`graph(%self : __torch__.LoopIf,
      %len.1 : int):
  %22 : int = prim::Constant[value=1]()
  %14 : bool = prim::Constant[value=1]()
  %5 : NoneType = prim::Constant()
  %2 : int = prim::Constant[value=3]()
  %3 : int = prim::Constant[value=4]()
  %17 : int = prim::Constant[value=10]()
  %21 : float = prim::Constant[value=1.]()
  %4 : int[] = prim::ListConstruct(%2, %3)
  %rv.1 : Tensor = aten::zeros(%4, %5, %5, %5, %5)
  %rv0 : Tensor = prim::Loop(%len.1, %14, %rv.1)
    block0(%i.1 : int, %rv0.9 : Tensor):
      %18 : bool = aten::lt(%i.1, %17)
      %rv1 : Tensor = prim::If(%18)
        block0():
          %rv1.1 : Tensor = aten::sub(%rv0.9, %21, %22)
          -> (%rv1.1)
        block1():
          %rv1.3 : Tensor = aten::add(%rv0.9, %21, %22)
          -> (%rv1.3)
      -> (%14, %rv1)
  return (%rv0)
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	code, err := pyprint.Method("forward", g)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(code.Text)
	// Output:
	// def forward(self,
	//     len: int) -> Tensor:
	//   rv = torch.zeros([3, 4])
	//   rv0 = rv
	//   for i in range(len):
	//     if torch.lt(i, 10):
	//       rv1 = torch.sub(rv0, 1.)
	//     else:
	//       rv1 = torch.add(rv0, 1.)
	//     rv0 = rv1
	//   return rv0
}
