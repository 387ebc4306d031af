package pattern

import "github.com/gofx/gofx/node"

// Commutative lists the operators whose first two arguments may be swapped
// without changing the result, so that a pattern calling one matches a graph
// node with its operands in either order. Each is a binary function of two
// tensors that is symmetric in PyTorch 1.13, type promotion and broadcasting
// included (both are symmetric): IEEE addition and multiplication are
// commutative, maximum/minimum/fmax/fmin propagate or ignore NaN the same way
// from either side, comparisons for equality and the logical and bitwise
// operators are symmetric. Overloads taking a Scalar are not listed: their
// operands have different types, so swapping them is another operator.
//
// aten::add.Tensor is commutative only with alpha = 1 (self + alpha * other):
// a pattern node is matched with swapped operands only when its normalized
// alpha is the integer 1, which schema defaults make explicit for add(x, y).
// Python's operator.mul, operator.and_, operator.or_, operator.xor,
// operator.eq and operator.ne (used on sizes) are listed too; operator.add is
// not, since it concatenates sequences.
var Commutative = []string{
	"aten.add.Tensor",
	"aten.mul.Tensor",
	"aten.maximum.default",
	"aten.minimum.default",
	"aten.fmax.default",
	"aten.fmin.default",
	"aten.eq.Tensor",
	"aten.ne.Tensor",
	"aten.logical_and.default",
	"aten.logical_or.default",
	"aten.logical_xor.default",
	"aten.bitwise_and.Tensor",
	"aten.bitwise_or.Tensor",
	"aten.bitwise_xor.Tensor",
	"aten.__and__.Tensor",
	"aten.__or__.Tensor",
	"aten.__xor__.Tensor",
	"aten.hypot.default",
	"aten.gcd.default",
	"aten.lcm.default",
	"operator.mul",
	"operator.and_",
	"operator.or_",
	"operator.xor",
	"operator.eq",
	"operator.ne",
}

var commutativeSet = func() map[string]bool {
	m := make(map[string]bool, len(Commutative))
	for _, s := range Commutative {
		m[s] = true
	}
	return m
}()

// commutative reports whether a pattern node calling name, with normalized
// arguments args, may match with its first two arguments swapped.
func commutative(name string, args []any) bool {
	if len(args) < 2 || !commutativeSet[name] {
		return false
	}
	if name == "aten.add.Tensor" {
		if len(args) < 3 || args[2] != any(node.Int(1)) {
			return false
		}
	}
	// Swapping two equal arguments finds nothing new.
	return fmtArg(args[0]) != fmtArg(args[1])
}
