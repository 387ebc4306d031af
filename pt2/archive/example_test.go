package archive_test

import (
	"fmt"
	"log"

	"github.com/gofx/gofx/pt2/archive"
)

func ExampleLoad() {
	// A .pt2 file PyTorch 2.14 wrote (the PT2 archive); files of PyTorch
	// ≤ 2.7 (a plain zip) read the same way.
	a, err := archive.Load("testdata/pt2_tied_dict.pt2")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(a.Layout, a.Root, len(a.Models))
	m := a.Model("model")
	fmt.Println("schema", m.Program.SchemaVersion.Major, m.Program.SchemaVersion.Minor)
	for _, w := range m.Weights {
		fmt.Println("weight", w.Name, w.Tensor.Shape(), w.Tensor.Strides(), "param:", w.IsParam)
	}
	for _, c := range m.Constants {
		fmt.Println("constant", c.Name, c.Tensor.Shape())
	}
	fmt.Println("tied:", m.Weight("emb.weight").Tensor.SharesStorage(m.Weight("head.weight").Tensor))
	args, kwargs, err := m.Args()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(args), "positional argument(s),", kwargs.Len(), "keyword argument(s)")
	// Output:
	// pt2 tied_dict 1
	// schema 8 20
	// weight emb.weight [20 8] [8 1] param: true
	// weight head.weight [20 8] [8 1] param: true
	// weight emb_t [8 20] [1 8] param: false
	// constant pos [16 8]
	// constant const [8]
	// tied: true
	// 1 positional argument(s), 0 keyword argument(s)
}
