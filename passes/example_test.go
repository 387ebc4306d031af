package passes_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/passes"
)

// Writing a pass: replace x * 2 by x + x, then let the library's CSE and
// DCE clean up, and print the Manager's report (without times, which
// vary) and the final graph.
func Example() {
	g, _ := graph.Parse(`%x = placeholder "x"()
%mul = call_function aten.mul.Tensor(%x, 2)
%mul_1 = call_function aten.mul.Tensor(%x, 2)
%add = call_function aten.add.Tensor(%mul, %mul_1)
%relu = call_function aten.relu.default(%add)
%output = output "output"(%add)`)
	gm, _ := fx.NewGraphModule(nil, g)

	mulToAdd := passes.Pass{
		Name:     "mul2_to_add",
		Doc:      "replace x * 2 by x + x",
		Requires: []string{"cse"}, // duplicates are merged first
		Run: func(gm *fx.GraphModule) (bool, error) {
			changed := false
			for _, n := range gm.Graph.FindNodes(node.CallFunction, aten.MulTensor) {
				if k, ok := n.Arg(1).(node.Int); !ok || k != 2 {
					continue
				}
				x := n.Arg(0)
				restore := gm.Graph.InsertingBefore(n)
				add, err := gm.Graph.CallFunction(aten.AddTensor, []node.Arg{x, x}, nil)
				restore()
				if err != nil {
					return changed, err
				}
				if _, err := n.ReplaceAllUsesWith(add, nil, true); err != nil {
					return changed, err
				}
				changed = true
			}
			return changed, nil
		},
	}

	rep, err := passes.Run(gm, passes.CSE, mulToAdd, passes.DCE)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(rep.Table(false))
	fmt.Println(rep.OpsBefore.Delta(rep.OpsAfter))
	fmt.Print(gm.Graph)
	// Output:
	// pass         changed  nodes
	// cse          yes      6 → 5
	// mul2_to_add  yes      5 → 6
	// dce          yes      6 → 4
	// total        yes      6 → 4
	// [call_function aten.add.Tensor 1→2 call_function aten.mul.Tensor 2→0 call_function aten.relu.default 1→0]
	// graph():
	//     %x : [num_users=1] = placeholder[target=x]
	//     %add_1 : [num_users=1] = call_function[target=aten.add.Tensor](args = (%x, %x), kwargs = {})
	//     %add : [num_users=1] = call_function[target=aten.add.Tensor](args = (%add_1, %add_1), kwargs = {})
	//     return add
}

// A pipeline whose requirements are not met is refused before anything
// runs.
func ExampleManager_Check() {
	fuse := passes.Pass{Name: "fuse", Requires: []string{"fold_constants"}, Run: passes.DCE.Run}
	err := passes.NewManager(fuse, passes.FoldConstants).Check()
	fmt.Println(err)
	// Output:
	// passes: pass "fuse" requires "fold_constants" to run before it, and the pipeline [fuse fold_constants] does not run it earlier (in requirement order: [fold_constants fuse])
}
