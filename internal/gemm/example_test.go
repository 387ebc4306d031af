package gemm_test

import (
	"fmt"

	"github.com/gofx/gofx/internal/gemm"
)

func ExampleGemm() {
	// c (2×2) = a (2×3) × bᵀ, where b is stored 2×3 (transposed).
	a := []float32{1, 2, 3, 4, 5, 6}
	b := []float32{1, 0, 1, 0, 1, 0}
	c := make([]float32, 4)
	if err := gemm.Gemm(false, true, 2, 2, 3, 1, a, 3, b, 3, 0, c, 2); err != nil {
		fmt.Println(err)
	}
	fmt.Println(c)
	// Output: [4 2 10 5]
}

func ExampleGemmEpilogue() {
	// A linear layer with ReLU: y = relu(x wᵀ + bias), in one pass.
	x := []float64{1, -1}
	w := []float64{2, 1, -3, 0, 1, 1}
	bias := []float64{0.5, 0, -1}
	y := make([]float64, 3)
	ep := &gemm.Epilogue[float64]{ColBias: bias, Clamp: true, Min: 0, Max: 1e300}
	if err := gemm.GemmEpilogue(false, true, 1, 3, 2, 1, x, 2, w, 2, 0, y, 3, ep); err != nil {
		fmt.Println(err)
	}
	fmt.Println(y)
	// Output: [1.5 0 0]
}
