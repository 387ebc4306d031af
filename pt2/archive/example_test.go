package archive_test

import (
	"bytes"
	"fmt"
	"log"
	"os"

	"github.com/gofx/gofx/pt2/archive"
	"github.com/gofx/gofx/tensor"
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
	// archive tied_dict 1
	// schema 8 20
	// weight emb.weight [20 8] [8 1] param: true
	// weight head.weight [20 8] [8 1] param: true
	// weight emb_t [8 20] [1 8] param: false
	// constant pos [16 8]
	// constant const [8]
	// tied: true
	// 1 positional argument(s), 0 keyword argument(s)
}

func ExampleRead() {
	f, err := os.Open("testdata/zip_mlp.pt2") // written by PyTorch 2.6
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		log.Fatal(err)
	}
	a, err := archive.Read(f, st.Size())
	if err != nil {
		log.Fatal(err)
	}
	m := a.Models[0]
	fmt.Println(a.Layout, a.Version, m.Name, m.Program.TorchVersion)
	for _, w := range m.Weights {
		fmt.Println(w.Name, w.Tensor.DType(), w.Tensor.Shape())
	}
	args, _, err := m.Args()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("example input:", args[0].(*tensor.Tensor).Shape())

	// The same model as a PT2 archive, which PyTorch ≥ 2.8 reads.
	a.Layout, a.Root = archive.LayoutPT2, "mlp"
	var buf bytes.Buffer
	if err := a.Write(&buf); err != nil {
		log.Fatal(err)
	}
	b, err := archive.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(b.Layout, b.Root, b.Models[0].Weight("0.weight").Tensor.Shape())
	// Output:
	// legacy 8.2 model 2.6.0+debian
	// 0.weight float32 [32 16]
	// 0.bias float32 [32]
	// 2.weight float32 [10 32]
	// 2.bias float32 [10]
	// example input: [4 16]
	// archive mlp [32 16]
}
