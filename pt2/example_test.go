package pt2_test

import (
	"fmt"
	"sort"

	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
)

// Load a program PyTorch 2.6 saved (tied weights, a dict input, a nested
// dict/list output) and call it as PyTorch's ep.module() is called.
func Example() {
	ep, err := pt2.Load("testdata/tied_dict.pt2")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("inputs:", ep.InSpec())
	fmt.Println("outputs:", ep.OutSpec())
	fmt.Println("user inputs:", ep.Signature.UserInputs())

	ids := tensor.Must(tensor.Zeros(tensor.Int64, 2, 5)) // the sequence dim is dynamic (s0 in [2, 16])
	mask := tensor.Must(tensor.Ones(tensor.Float32, 2, 5))
	out, err := ep.Call([]any{map[string]any{"ids": ids, "mask": mask}}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	res := out.([]any)
	dict := res[0].(map[string]any)
	keys := make([]string, 0, len(dict))
	for k := range dict {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Println(k, dict[k].(*tensor.Tensor).Shape())
	}
	fmt.Println("mean", res[1].([]any)[0].(*tensor.Tensor).Shape())

	_, err = ep.Call([]any{map[string]any{"ids": ids}}, nil)
	fmt.Println(err)
	// Output:
	// inputs: TreeSpec(tuple, None, [TreeSpec(tuple, None, [TreeSpec(dict, ['ids', 'mask'], [*, *])]), TreeSpec(dict, [], [])])
	// outputs: TreeSpec(tuple, None, [TreeSpec(dict, ['logits', 'pooled'], [*, *]), TreeSpec(list, None, [*])])
	// user inputs: [batch_ids batch_mask]
	// logits [2 5 20]
	// pooled [2 8]
	// mean []
	// export: inputs[0][0]: missing key "mask" (expected ["ids" "mask"])
}
