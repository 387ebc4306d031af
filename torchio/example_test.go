package torchio_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

// Load reads a file written by torch.save(model.state_dict(), path).
func ExampleLoad() {
	sd, err := torchio.Load("testdata/zoo/mlp.state_dict.pt")
	if err != nil {
		log.Fatal(err)
	}
	for name, t := range sd.All() {
		fmt.Println(name, t.DType(), t.Shape())
	}
	// Output:
	// 0.weight float32 [32 16]
	// 0.bias float32 [32]
	// 2.weight float32 [10 32]
	// 2.bias float32 [10]
}

// Save writes a file that torch.load reads back as an OrderedDict.
func ExampleSave() {
	sd := torchio.NewStateDict()
	w := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	sd.Set("fc.weight", w)
	sd.Set("fc.bias", tensor.Must(tensor.FromSlice([]float32{0.5, -0.5})))
	sd.Set("decoder.weight", tensor.Must(w.T())) // tied: shares w's storage in the file too

	dir, err := os.MkdirTemp("", "torchio")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.pt") // torch.load(path) in Python
	if err := torchio.Save(path, sd); err != nil {
		log.Fatal(err)
	}

	back, err := torchio.Load(path)
	if err != nil {
		log.Fatal(err)
	}
	dec, _ := back.Get("decoder.weight")
	fcw, _ := back.Get("fc.weight")
	fmt.Println(back.Names())
	fmt.Println(dec.Shape(), dec.Strides(), tensor.Values[float32](dec))
	fmt.Println(dec.SharesStorage(fcw))
	// Output:
	// [fc.weight fc.bias decoder.weight]
	// [3 2] [1 3] [1 4 2 5 3 6]
	// true
}
