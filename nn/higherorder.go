package nn

import (
	"fmt"

	"github.com/gofx/gofx/node"
)

// The higher-order operators of PyTorch 2.x's exported programs
// (torch.ops.higher_order.cond, while_loop, map_impl): call_function
// targets whose arguments include subgraphs (get_attr nodes naming
// submodules such as true_graph_0). Graphs hold and print them like any
// function ("cond = torch.ops.higher_order.cond(gt, true_graph_0,
// false_graph_0, [x])", nodes named cond, while_loop, map_impl);
// node.LookupTarget resolves the names .pt2 files write. Running one is not
// supported yet: the call returns an error saying so.
var (
	// CondOp is torch.cond's operator: cond(pred, true_fn, false_fn, operands).
	CondOp = node.MustFunc("higher_order.cond", false)
	// WhileLoopOp is torch._higher_order_ops.while_loop's operator:
	// while_loop(cond_fn, body_fn, carried_inputs, additional_inputs).
	WhileLoopOp = node.MustFunc("higher_order.while_loop", false)
	// MapImplOp is torch.map's operator: map_impl(body_fn, xs, args).
	MapImplOp = node.MustFunc("higher_order.map_impl", false)
)

func init() {
	for _, f := range []*node.Func{CondOp, WhileLoopOp, MapImplOp} {
		must(RegisterFunction(f, notYet(f)))
	}
}

// notYet is the implementation of a higher-order operator gofx cannot run.
func notYet(f *node.Func) FuncImpl {
	return func([]Value, map[string]Value) (Value, error) {
		return None, fmt.Errorf("running higher-order op %s is not supported yet (programs with it load, print and transform; running its subgraphs is future work)", f.PythonName())
	}
}
