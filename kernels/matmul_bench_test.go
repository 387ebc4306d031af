package kernels_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gofx/gofx/internal/cputime"
	fastgemm "github.com/gofx/gofx/internal/gemm"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// The matrix products' dispatch overhead: each case runs the operator
// through the dispatch point three ways, and the bare GEMM on the same
// operands, so that one run shows what the dispatch path costs:
//
//	fresh   a new output every call, left to the garbage collector (as
//	        BenchmarkMatmul, and as a caller that drops its results does)
//	pooled  each output handed back with tensor.Recycle, as the
//	        interpreter does with a dead value (PyTorch's allocator reuses
//	        a freed output the same way): a model's steady state
//	gemm    internal/gemm's GemmEpilogue alone into one preallocated
//	        output: the floor the dispatch path is measured against
//
// ../bench/torch_kernels.py times the same calls in PyTorch under the
// same names (its figure is the "fresh" one: torch allocates each output).

// productCase is one matrix product benchmark: an operator, its
// arguments, the product's m×n×k, and what the bare GEMM computes.
type productCase struct {
	name    string
	op      string
	args    []any
	kw      map[string]any
	m, n, k int
	flops   float64
	// gemm runs the same product on internal/gemm alone into c.
	gemm func(c []float32)
}

// productCases returns the cases: square mm from 32 to 512, linear as
// resnet18's classifier ([1,512] by a [1000,512] weight, a vector-matrix
// product) and a transformer's projection, a matrix-vector product (mv),
// addmm with a bias row, bmm and a batched matmul folded into one mm.
func productCases() []productCase {
	g := tensor.NewGenerator(5)
	randn := func(shape ...int) *tensor.Tensor { return tensor.Must(g.Randn(tensor.Float32, shape...)) }
	data := func(t *tensor.Tensor) []float32 { return tensor.Data[float32](t)[t.Offset():] }
	var cases []productCase
	for _, n := range []int{32, 64, 128, 256, 512} {
		x, y := randn(n, n), randn(n, n)
		cases = append(cases, productCase{
			name: fmt.Sprintf("mm_%d", n), op: "aten::mm", args: []any{x, y}, m: n, n: n, k: n,
			gemm: func(c []float32) {
				_ = fastgemm.Gemm(false, false, n, n, n, 1, data(x), n, data(y), n, 0, c, n)
			},
		})
	}
	for _, s := range []struct{ m, k, n int }{{1, 512, 1000}, {64, 512, 512}, {256, 256, 256}} {
		x, w, bias := randn(s.m, s.k), randn(s.n, s.k), randn(s.n)
		cases = append(cases, productCase{
			name: fmt.Sprintf("linear_%dx%dx%d", s.m, s.k, s.n), op: "aten::linear", args: []any{x, w, bias}, m: s.m, n: s.n, k: s.k,
			gemm: func(c []float32) {
				ep := &fastgemm.Epilogue[float32]{ColBias: data(bias)}
				_ = fastgemm.GemmEpilogue(false, true, s.m, s.n, s.k, 1, data(x), s.k, data(w), s.k, 0, c, s.n, ep)
			},
		})
	}
	{
		const m, k = 1000, 512
		x, v := randn(m, k), randn(k)
		cases = append(cases, productCase{
			name: "mv_1000x512", op: "aten::mv", args: []any{x, v}, m: m, n: 1, k: k,
			gemm: func(c []float32) {
				_ = fastgemm.Gemm(false, false, m, 1, k, 1, data(x), k, data(v), 1, 0, c, 1)
			},
		})
	}
	{
		const n = 256
		x, y, bias := randn(n, n), randn(n, n), randn(n)
		cases = append(cases, productCase{
			name: "addmm_256", op: "aten::addmm", args: []any{bias, x, y}, m: n, n: n, k: n,
			gemm: func(c []float32) {
				ep := &fastgemm.Epilogue[float32]{ColBias: data(bias)}
				_ = fastgemm.GemmEpilogue(false, false, n, n, n, 1, data(x), n, data(y), n, 0, c, n, ep)
			},
		})
	}
	for _, s := range []struct{ b, n int }{{16, 64}, {4, 256}} {
		x, y := randn(s.b, s.n, s.n), randn(s.b, s.n, s.n)
		nn := s.n * s.n
		cases = append(cases, productCase{
			name: fmt.Sprintf("bmm_%dx%d", s.b, s.n), op: "aten::bmm", args: []any{x, y}, m: s.b * s.n, n: s.n, k: s.n,
			gemm: func(c []float32) {
				for i := range s.b {
					_ = fastgemm.Gemm(false, false, s.n, s.n, s.n, 1, data(x)[i*nn:], s.n, data(y)[i*nn:], s.n, 0, c[i*nn:], s.n)
				}
			},
		})
	}
	{
		x, y := randn(4, 128, 256), randn(256, 256)
		cases = append(cases, productCase{
			name: "matmul_4x128x256_256x256", op: "aten::matmul", args: []any{x, y}, m: 512, n: 256, k: 256,
			gemm: func(c []float32) {
				_ = fastgemm.Gemm(false, false, 512, 256, 256, 1, data(x), 256, data(y), 256, 0, c, 256)
			},
		})
	}
	for i := range cases {
		cases[i].flops = 2 * float64(cases[i].m) * float64(cases[i].n) * float64(cases[i].k)
	}
	return cases
}

// BenchmarkProducts times productCases each way (fresh, pooled, gemm)
// and reports GFLOP/s (two per multiply-add) and CPU time per call (all
// threads: on a loaded machine it tells the work, wall time does not).
func BenchmarkProducts(b *testing.B) {
	for _, tc := range productCases() {
		o := benchOp(b, tc.op)
		call := func(b *testing.B) *tensor.Tensor {
			out, err := o.Call(tc.args, tc.kw)
			if err != nil {
				b.Fatal(err)
			}
			return out[0].(*tensor.Tensor)
		}
		b.Run(tc.name+"/fresh", func(b *testing.B) {
			benchRun(b, o, tc.args, tc.flops, "GFLOP/s")
		})
		b.Run(tc.name+"/pooled", func(b *testing.B) {
			tensor.Recycle(call(b).StorageKey())
			cpu0 := cputime.Process()
			for b.Loop() {
				tensor.Recycle(call(b).StorageKey())
			}
			reportProduct(b, tc.flops, cpu0)
		})
		b.Run(tc.name+"/gemm", func(b *testing.B) {
			c := make([]float32, tc.m*tc.n)
			tc.gemm(c)
			cpu0 := cputime.Process()
			for b.Loop() {
				tc.gemm(c)
			}
			reportProduct(b, tc.flops, cpu0)
		})
	}
}

// reportProduct reports GFLOP/s and cpu-ns/op since cpu0.
func reportProduct(b *testing.B, flops float64, cpu0 int64) {
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
}

// TestProductCasesAgree checks that each benchmark's bare GEMM computes
// what its operator returns, so that the comparison is between equal work.
func TestProductCasesAgree(t *testing.T) {
	for _, tc := range productCases() {
		o, ok := ops.Global().Lookup(tc.op)
		if !ok {
			t.Fatalf("no operator %s", tc.op)
		}
		out, err := o.Call(tc.args, tc.kw)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		r := out[0].(*tensor.Tensor).Contiguous()
		got := tensor.Data[float32](r)[r.Offset() : r.Offset()+r.Numel()]
		want := make([]float32, tc.m*tc.n)
		tc.gemm(want)
		if len(got) != len(want) {
			t.Fatalf("%s: %d elements, the GEMM wrote %d", tc.name, len(got), len(want))
		}
		for i := range want {
			if d := math.Abs(float64(got[i] - want[i])); d > 1e-5*(1+math.Abs(float64(want[i]))) {
				t.Fatalf("%s: element %d is %v, the GEMM gives %v", tc.name, i, got[i], want[i])
			}
		}
	}
}
