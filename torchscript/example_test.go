package torchscript_test

import (
	"fmt"
	"log"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript"
)

// Load a scripted archive and run it: testdata/loop_if.script.pt is the
// TorchScript documentation's foo(len), a loop with an if inside, saved by
// PyTorch 2.6.
func Example() {
	m, err := torchscript.Load("testdata/loop_if.script.pt")
	if err != nil {
		log.Fatal(err)
	}
	out, err := m.Forward(12) // Go ints are converted to TorchScript ints
	if err != nil {
		log.Fatal(err)
	}
	rv := out.(*tensor.Tensor)
	fmt.Println(rv.Shape(), tensor.Values[float32](rv)[0])

	fn, err := m.Method("forward")
	if err != nil {
		log.Fatal(err)
	}
	g, err := fn.Function().Compiled()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(g.Inputs()), "graph inputs (self, len)")
	// Output:
	// [3 4] -8
	// 2 graph inputs (self, len)
}
