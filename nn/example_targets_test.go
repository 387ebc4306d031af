package nn_test

import (
	"fmt"

	"github.com/gofx/gofx/node"
)

// node.LookupTarget resolves the call_function targets of PyTorch 2.x's
// .pt2 files; package nn registers Python's operators and the
// higher-order operators it finds.
func Example_lookupTarget() {
	for _, name := range []string{"torch.ops.aten.conv2d.default", "_operator.mul", "torch.sym_max", "torch.ops.higher_order.cond"} {
		f, err := node.LookupTarget(name)
		fmt.Println(f, f.ShortName(), node.TorchName(f), err)
	}
	_, err := node.LookupTarget("torch.ops.aten.frobnicate.default")
	fmt.Println(err)
	// Output:
	// aten.conv2d.default conv2d torch.ops.aten.conv2d.default <nil>
	// operator.mul mul _operator.mul <nil>
	// torch.sym_max sym_max torch.sym_max <nil>
	// higher_order.cond cond torch.ops.higher_order.cond <nil>
	// node.LookupTarget: ops: unknown operator torch.ops.aten.frobnicate.default: not in PyTorch 1.13, 2.6 or 2.14
}
