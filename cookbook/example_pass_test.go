// Recipe: write a pass and run it in the PassManager.
//
// What it teaches: a pass is a value, passes.Pass: a name, a one-line doc,
// the passes it requires to have run before it, and a Run function that
// edits the GraphModule in place and says whether it changed it. Here
// relu6_to_hardtanh rewrites every relu6(x) as hardtanh(x, 0, 6) (the same
// numbers: PyTorch defines relu6 that way) and leaves the old node for DCE
// to remove; a second pass, which requires the first, checks that no relu6
// is left. A Manager runs them in order, lints after each, and reports the
// nodes before and after each pass (the table without times, which vary).
// A pipeline that runs a pass before one it requires is refused before
// anything runs.
//
// torch.fx equivalent (torch.fx.passes.infra, where passes are plain
// functions and ordering constraints are given apart from them):
//
//	from torch.fx.passes.infra.pass_manager import PassManager, this_before_that_pass_constraint
//	pm = PassManager(passes=[relu6_to_hardtanh, dce, check_no_relu6],
//	                 constraints=[this_before_that_pass_constraint(relu6_to_hardtanh, check_no_relu6)],
//	                 run_checks_after_each_pass=True)
//	result = pm(gm)

package cookbook_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
)

var relu6ToHardtanh = passes.Pass{
	Name: "relu6_to_hardtanh",
	Doc:  "replace relu6(x) by hardtanh(x, 0, 6)",
	Run: func(gm *fx.GraphModule) (changed bool, err error) {
		g := gm.Graph
		for _, n := range g.FindNodes(node.CallFunction, aten.Relu6) {
			restore := g.InsertingBefore(n)
			ht, err := g.CallFunction(aten.Hardtanh, []node.Arg{n.Arg(0), node.Float(0), node.Float(6)}, nil)
			restore()
			if err != nil {
				return changed, err
			}
			// Users of n now read ht; n is left without users, for DCE.
			if _, err := n.ReplaceAllUsesWith(ht, nil, true); err != nil {
				return changed, err
			}
			changed = true
		}
		return changed, nil
	},
}

var noRelu6 = passes.Pass{
	Name:     "check_no_relu6",
	Doc:      "fail if a relu6 node is left",
	Requires: []string{"relu6_to_hardtanh"},
	Run: func(gm *fx.GraphModule) (bool, error) {
		if left := gm.Graph.FindNodes(node.CallFunction, aten.Relu6); len(left) > 0 {
			return false, fmt.Errorf("node %s still calls relu6", left[0].Name())
		}
		return false, nil
	},
}

func Example_passManager() {
	gm, err := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value {
		return F.ReLU6(x.Mul(2)).Add(F.ReLU6(x))
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := passes.NewManager(relu6ToHardtanh, passes.DCE, noRelu6).Run(gm)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(rep.Table(false))
	fmt.Print(gm.Code())
	x := tensor.Must(tensor.FromSlice([]float32{-1, 0.5, 2.5, 4, 7}, 5))
	fmt.Println(gm.Run(nn.Tensor(x)))

	// The check before the pass it requires: refused, nothing runs.
	_, err = passes.NewManager(noRelu6, relu6ToHardtanh).Run(gm)
	fmt.Println(err)
	// Output:
	// pass               changed  nodes
	// relu6_to_hardtanh  yes      6 → 8
	// dce                yes      8 → 6
	// check_no_relu6     no       6 → 6
	// total              yes      6 → 6
	// def forward(self, x):
	//     mul = torch.ops.aten.mul.Tensor(x, 2)
	//     hardtanh = torch.ops.aten.hardtanh.default(mul, 0.0, 6.0);  mul = None
	//     hardtanh_1 = torch.ops.aten.hardtanh.default(x, 0.0, 6.0);  x = None
	//     add = torch.ops.aten.add.Tensor(hardtanh, hardtanh_1);  hardtanh = hardtanh_1 = None
	//     return add
	// tensor([ 0.0000,  1.5000,  7.5000, 10.0000, 12.0000]) <nil>
	// passes: pass "check_no_relu6" requires "relu6_to_hardtanh" to run before it, and the pipeline [check_no_relu6 relu6_to_hardtanh] does not run it earlier (in requirement order: [relu6_to_hardtanh check_no_relu6])
}
