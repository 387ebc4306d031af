package tensor_test

import (
	"fmt"

	"github.com/gofx/gofx/tensor"
)

// FromSlice wraps a Go slice as a tensor (without copying); %v prints it
// as PyTorch's repr does and %s in short form.
func ExampleFromSlice() {
	x, err := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s\n%v\n", x, x)
	// Output:
	// float32[2, 3]
	// tensor([[1., 2., 3.],
	//         [4., 5., 6.]])
}

// New returns zeros; FromInt64s converts values as PyTorch casts them.
func ExampleNew() {
	z := tensor.Must(tensor.New(tensor.Int32, 2, 2))
	fmt.Println(z)
	u := tensor.Must(tensor.FromInt64s(tensor.Uint8, []int64{-1, 256, 7}, 3))
	fmt.Println(u)
	// Output:
	// tensor([[0, 0],
	//         [0, 0]], dtype=torch.int32)
	// tensor([255,   0,   7], dtype=torch.uint8)
}

// Views share storage with the tensor they come from; Reshape copies only
// when no view exists.
func ExampleTensor_Transpose() {
	x := tensor.Must(tensor.Arange(tensor.Int64, 0, 6, 1))
	m := tensor.Must(x.View(2, 3))
	mt := tensor.Must(m.Transpose(0, 1))
	fmt.Println(mt.Shape(), mt.Strides(), mt.IsContiguous(), mt.SharesStorage(x))
	fmt.Println(mt)

	_, err := mt.View(6)
	fmt.Println(err != nil)
	flat := tensor.Must(mt.Reshape(6))
	fmt.Println(flat, flat.SharesStorage(x))
	// Output:
	// [3 2] [1 3] false true
	// tensor([[0, 3],
	//         [1, 4],
	//         [2, 5]])
	// true
	// tensor([0, 3, 1, 4, 2, 5]) false
}

// Slice, Select and Expand make strided views without copying.
func ExampleTensor_Slice() {
	x := tensor.Must(tensor.Must(tensor.Arange(tensor.Float32, 0, 12, 1)).View(3, 4))
	everyOther := tensor.Must(x.Slice(1, 0, 4, 2))
	fmt.Println(everyOther, everyOther.Strides(), everyOther.Offset())
	row := tensor.Must(x.Select(0, -1))
	fmt.Println(row)
	b := tensor.Must(tensor.Must(row.Unsqueeze(0)).Expand(2, 4))
	fmt.Println(b.Strides())
	// Output:
	// tensor([[ 0.,  2.],
	//         [ 4.,  6.],
	//         [ 8., 10.]]) [4 2] 0
	// tensor([ 8.,  9., 10., 11.])
	// [0 1]
}

// Format prints like PyTorch: dtype suffixes, scientific notation when the
// magnitudes call for it, summarization of large tensors.
func ExampleTensor_Format() {
	fmt.Printf("%v\n", tensor.Must(tensor.FromSlice([]float64{1e-5, 0.5, 3})))
	fmt.Printf("%v\n", tensor.Scalar(float32(2.5)))
	fmt.Printf("%v\n", tensor.Must(tensor.FromSlice([]bool{true, false})))
	fmt.Printf("%v\n", tensor.Must(tensor.New(tensor.Float32, 0, 3)))
	fmt.Printf("%v\n", tensor.Must(tensor.Arange(tensor.Int64, 0, 2000, 1)))
	fmt.Printf("%v\n", tensor.Must(tensor.NewMeta(tensor.Float16, 2, 3)))
	// Output:
	// tensor([1.0000e-05, 5.0000e-01, 3.0000e+00], dtype=torch.float64)
	// tensor(2.5000)
	// tensor([ True, False])
	// tensor([], size=(0, 3))
	// tensor([   0,    1,    2,  ..., 1997, 1998, 1999])
	// tensor(..., device='meta', size=(2, 3), dtype=torch.float16)
}

// To converts with PyTorch's casting rules.
func ExampleTensor_To() {
	x := tensor.Must(tensor.FromSlice([]float32{-1.7, 0.5, 300}))
	fmt.Println(x.To(tensor.Int64))
	fmt.Println(x.To(tensor.Uint8))
	fmt.Println(x.To(tensor.Bool))
	fmt.Println(x.To(tensor.Float16))
	// Output:
	// tensor([ -1,   0, 300])
	// tensor([255,   0,  44], dtype=torch.uint8)
	// tensor([True, True, True])
	// tensor([ -1.7002,   0.5000, 300.0000], dtype=torch.float16)
}
