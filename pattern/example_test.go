package pattern_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/pattern"
)

// Replace relu(x + 1.0) with clamp_min(x + 1.0, 0.0) in a traced function.
func ExampleReplace() {
	gm, _ := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value {
		return x.Add(1.0).Relu().Mul(2.0).Add(1.0).Relu()
	})
	clampMin, _ := ops.Global().Lookup("aten::clamp_min")
	ms, err := pattern.Replace(gm,
		func(x nn.Value) nn.Value { return x.Add(1.0).Relu() },
		func(x nn.Value) nn.Value { return nn.CallOp(clampMin, x.Add(1.0), 0.0) })
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(ms), "matches")
	fmt.Println(gm.Graph)
	// Output:
	// 2 matches
	// graph():
	//     %x : [num_users=1] = placeholder[target=x]
	//     %add_2 : [num_users=1] = call_function[target=aten.add.Scalar](args = (%x, 1.0), kwargs = {})
	//     %clamp_min : [num_users=1] = call_function[target=aten.clamp_min.default](args = (%add_2, 0.0), kwargs = {})
	//     %mul : [num_users=1] = call_function[target=aten.mul.Scalar](args = (%clamp_min, 2.0), kwargs = {})
	//     %add_3 : [num_users=1] = call_function[target=aten.add.Scalar](args = (%mul, 1.0), kwargs = {})
	//     %clamp_min_1 : [num_users=1] = call_function[target=aten.clamp_min.default](args = (%add_3, 0.0), kwargs = {})
	//     return clamp_min_1
}

// Find a commutative pattern with a literal wildcard, keep only the matches a
// filter accepts, and ask why a candidate did not match.
func ExampleFind() {
	gm, _ := fx.SymbolicTraceFunc(func(x, y nn.Value) nn.Value {
		a := y.Mul(x.Add(3.0)) // operands swapped: matches
		b := x.Add(0.5).Mul(y) // literal 0.5: the filter refuses it
		c := x.Add(2.0).Sub(y) // sub, not mul
		return a.Add(b).Add(c)
	})
	p, err := pattern.Compile(func(x, y nn.Value) nn.Value { return x.Add(1.0).Mul(y) },
		pattern.Name("scaled_shift"), pattern.Literal("add", "other"),
		pattern.WithFilter(func(m *pattern.Match) bool {
			c, _ := m.Binding("add.other")
			return fmt.Sprint(c) != "0.5"
		}))
	if err != nil {
		fmt.Println(err)
		return
	}
	ms, _ := pattern.Find(gm, p)
	for _, m := range ms {
		fmt.Println(m)
	}
	sub, _ := gm.Graph.Node("sub")
	why, _ := pattern.Explain(gm, p, sub)
	fmt.Println(why)
	// Output:
	// pattern scaled_shift at %mul: add=%add, mul=%mul; x0=%x0, x1=%x1, add.other=3.0
	// no match of pattern scaled_shift at %sub:
	// - pattern node %mul is call_function aten.mul.Tensor, graph node %sub is call_function aten.sub.Tensor
}
