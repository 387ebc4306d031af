package torchscript_test

import (
	"fmt"

	"github.com/gofx/gofx/torchscript"
)

func ExampleModule_Code() {
	m, err := torchscript.Load("testdata/loop_if.script.pt")
	if err != nil {
		fmt.Println(err)
		return
	}
	code, err := m.Code()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(code)
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
