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
	//     %add_2 : [num_users=1] = call_function[target=aten.add.Tensor](args = (%x, 1.0), kwargs = {})
	//     %clamp_min : [num_users=1] = call_function[target=aten.clamp_min.default](args = (%add_2, 0.0), kwargs = {})
	//     %mul : [num_users=1] = call_function[target=aten.mul.Tensor](args = (%clamp_min, 2.0), kwargs = {})
	//     %add_3 : [num_users=1] = call_function[target=aten.add.Tensor](args = (%mul, 1.0), kwargs = {})
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

// As in torch.fx, a placeholder binds a literal whatever overload recorded
// it: the pattern's x ** num records aten.pow.Tensor_Tensor and matches the
// aten.pow.Tensor_Scalar of x ** 2 (as PyTorch records it). The
// replacement's x * num stays aten.mul.Tensor once num is bound to 2, with
// 2 as a wrapped number, as PyTorch's Python x * 2 records it.
// StrictOverloads would find no match.
func ExampleReplace_literalBinding() {
	gm, _ := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value { return x.Pow(2).Relu() })
	ms, err := pattern.Replace(gm,
		func(x, num nn.Value) nn.Value { return x.Pow(num).Relu() },
		func(x, num nn.Value) nn.Value { return x.Mul(num) })
	if err != nil {
		fmt.Println(err)
		return
	}
	num, _ := ms[0].Binding("x1")
	fmt.Println("num =", num)
	fmt.Println(gm.Graph)
	// Output:
	// num = 2
	// graph():
	//     %x : [num_users=1] = placeholder[target=x]
	//     %mul : [num_users=1] = call_function[target=aten.mul.Tensor](args = (%x, 2), kwargs = {})
	//     return mul
}

// Two multi-output matches that would form a cycle together: the later one
// is skipped and reported, the earlier one replaced.
func ExampleOnSkip() {
	gm, _ := fx.SymbolicTraceFunc(func(a, b, z1, z2 nn.Value) nn.Value {
		add1 := a.Add(z1)
		add2 := add1.Neg().Add(z2) // uses the first match's add
		mul2 := b.Mul(z2)
		mul1 := mul2.Neg().Mul(z1) // the first match's mul uses the second's
		return nn.Tuple(add2, mul1)
	})
	fused := func(x, y, z nn.Value) nn.Value { // each output depends on every input
		s, m := x.Add(z), y.Mul(z)
		return nn.Tuple(s.Add(m.Mul(0.0)), m.Add(s.Mul(0.0)))
	}
	ms, err := pattern.Replace(gm,
		func(x, y, z nn.Value) nn.Value { return nn.Tuple(x.Add(z), y.Mul(z)) }, fused,
		pattern.NoCommutativity(),
		pattern.OnSkip(func(m *pattern.Match, reason error) { fmt.Println("skipped:", reason) }))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("replaced:", len(ms), "at", ms[0].Anchor)
	// Output:
	// skipped: pattern add,mul at %add_1: replacing it after the earlier replaced matches would make a cycle: an output of each match reaches an input of the next (matches by anchor: %add_1 -> %add -> %add_1)
	// replaced: 1 at add
}
