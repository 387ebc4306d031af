package archive_test

import (
	"fmt"
	"log"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/archive"
)

// Open a scripted module's archive and look at its module tree, its code
// and the source ranges PyTorch prints in its graphs.
func Example() {
	a, err := archive.Open("testdata/traced.trace.pt")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("version", a.Version)
	root, err := a.Root()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(root.Class)
	lin, _ := root.Attr("lin")
	for _, at := range lin.(*archive.Object).Attrs {
		if t, ok := at.Value.(*tensor.Tensor); ok {
			fmt.Println(" ", at.Name, t.DType(), t.Shape())
		}
	}
	fmt.Println("constants:", len(a.Constants))
	for _, f := range a.Code {
		fmt.Println("code", f.Qualifier)
	}
	f, _ := a.Source("__torch__")
	d, err := f.DebugInfo()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(d.Records) > 0)
	// Output:
	// version 3
	// __torch__.Traced
	//   weight float32 [2 3]
	//   bias float32 [2]
	// constants: 1
	// code __torch__
	// code __torch__.torch.nn.modules.linear
	// true
}

// Find the upgrader an old archive needs for integer division.
func ExampleUpgraderFor() {
	u, ok := archive.UpgraderFor("aten::div.Tensor", 3)
	fmt.Println(ok, u.Name, u.Before)
	fmt.Println(u.OldSchema)
	// Output:
	// true div_Tensor_0_3 4
	// aten::div.Tensor(Tensor self, Tensor other) -> Tensor
}
