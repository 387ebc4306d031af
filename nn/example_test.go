package nn_test

import (
	"fmt"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

func Example() {
	m := nn.Eval(nn.NewSequential(nn.NewLinear(4, 3, true), nn.NewReLU()))
	fmt.Println(nn.Repr(m))
	fmt.Println(nn.StateDict(m).Names())

	// Weights from PyTorch: nn.Load(m, "model.state_dict.pt", nn.LoadOptions{}).
	out, err := nn.Run(m, nn.Tensor(tensor.Must(tensor.Ones(tensor.Float32, 2, 4))))
	fmt.Println(out.Tensor().String(), err)

	_, err = nn.Run(m, nn.Tensor(tensor.Must(tensor.Ones(tensor.Float32, 2, 5))))
	fmt.Println(err != nil)
	// Output:
	// Sequential(
	//   (0): Linear(in_features=4, out_features=3, bias=True)
	//   (1): ReLU()
	// )
	// [0.weight 0.bias]
	// float32[2, 3] <nil>
	// true
}
