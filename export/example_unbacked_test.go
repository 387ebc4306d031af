package export_test

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
)

// head keeps the first k rows of x, k read from a tensor.
type head struct{ nn.Base }

func (m *head) ArgNames() []string { return []string{"x", "k"} }

func (m *head) Forward(x, k nn.Value) nn.Value {
	n := k.Item() // exported: the unbacked symbol u0
	functional.CheckIsSize(n)
	functional.Check(n.Le(x.Size(0)))
	return x.Index(nn.Slice(nil, n)).Sum(0)
}

// Example_unbacked exports a model whose output size depends on a value
// read from a tensor: k.Item() is the unbacked symbol u0, the checks
// give it the range [0, 4], which the program asserts right after
// reading it; any k in range runs, others fail with PyTorch's message.
func Example_unbacked() {
	m := &head{}
	m.Init(m, "Head")
	x, _ := tensor.FromFloat64s(tensor.Float32, []float64{1, 2, 3, 4, 5, 6, 7, 8}, 4, 2)
	k, _ := tensor.FromInt64s(tensor.Int64, []int64{2})
	ep, err := export.Export(m, []any{x, k}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(ep.Graph.Code())
	fmt.Println(ep.RangeConstraints)
	k3, _ := tensor.FromInt64s(tensor.Int64, []int64{3})
	out, _ := ep.Run(x, k3)
	fmt.Println(out.MustTensor().Float64s())
	k9, _ := tensor.FromInt64s(tensor.Int64, []int64{9})
	_, err = ep.Run(x, k9)
	fmt.Println(strings.Contains(err.Error(), "Runtime assertion failed for expression u0 <= 4 on node 'le'"))
	// Output:
	// def forward(self, x, k):
	//     _local_scalar_dense = torch.ops.aten._local_scalar_dense.default(k);  k = None
	//     sym_constrain_range_for_size_default = torch.ops.aten.sym_constrain_range_for_size.default(_local_scalar_dense);  sym_constrain_range_for_size_default = None
	//     ge = _local_scalar_dense >= 0
	//     _assert_scalar_default = torch.ops.aten._assert_scalar.default(ge, "Runtime assertion failed for expression u0 >= 0 on node 'ge'");  ge = _assert_scalar_default = None
	//     le = _local_scalar_dense <= 4
	//     _assert_scalar_default_1 = torch.ops.aten._assert_scalar.default(le, "Runtime assertion failed for expression u0 <= 4 on node 'le'");  le = _assert_scalar_default_1 = None
	//     slice_1 = torch.ops.aten.slice.Tensor(x, 0, 0, _local_scalar_dense);  x = _local_scalar_dense = None
	//     sum_1 = torch.ops.aten.sum.dim_IntList(slice_1, [0], False);  slice_1 = None
	//     return (sum_1,)
	// map[u0:[0, 4]]
	// [9 12]
	// true
}
