package convert_test

import (
	"fmt"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript"
	"github.com/gofx/gofx/torchscript/convert"
)

// A scripted archive with an if on tensor data converts to a program
// calling torch.cond.
func Example() {
	m, err := torchscript.Load("testdata/max_branch.script.pt")
	if err != nil {
		fmt.Println(err)
		return
	}
	x, _ := tensor.FromSlice([]float32{1, 5, 2}, 3)
	y, _ := tensor.FromSlice([]float32{0, 1, 2}, 3)
	ep, err := convert.Convert(m, []any{x, y})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(ep.Subgraphs()), "subgraphs")
	out, err := ep.Run(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Tensor().Float64s())
	// Output:
	// 2 subgraphs
	// [1 5 2]
}
