package types_test

import (
	"fmt"

	"github.com/gofx/gofx/torchscript/types"
)

// The two spellings of a type: the IR's (print(m.graph), schemas) and the
// Python annotation of the serialized code (m.code).
func ExampleParseIR() {
	for _, s := range []string{"Dict(str, Tensor[])", "(Tensor, int)?", "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)"} {
		t, err := types.ParseIR(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s | %s\n", t, t.Annotation())
	}
	// Output:
	// Dict(str, Tensor[]) | Dict[str, List[Tensor]]
	// (Tensor, int)? | Optional[Tuple[Tensor, int]]
	// Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu) | Tensor
}

// Unify gives the type of a value that an if's branches or a loop's
// iterations merge.
func ExampleUnify() {
	t, ok := types.Unify(types.None, types.Tensor)
	fmt.Println(t, ok)
	_, ok = types.Unify(types.Int, types.Str)
	fmt.Println(ok)
	fmt.Println(types.IsSubtype(types.Int, types.Number), types.IsSubtype(&types.List{Elem: types.Int}, &types.List{Elem: types.Number}))
	// Output:
	// Tensor? true
	// false
	// true false
}
