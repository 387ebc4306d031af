package graph

import (
	"fmt"

	"github.com/gofx/gofx/node"
)

// Equal reports the first difference between a and b, or nil when they are
// identical: the same nodes in the same order with the same names, opcodes,
// targets (by String form), arguments (nodes compared by name), keyword
// arguments in order, number of users, and metadata that has a text form.
func Equal(a, b *Graph) error {
	if a.Len() != b.Len() {
		return fmt.Errorf("graphs have %d and %d nodes", a.Len(), b.Len())
	}
	byName := func(x *node.Node) node.Arg { return node.Str("%" + x.Name()) }
	y := b.First()
	for x := range a.Nodes() {
		switch {
		case x.Name() != y.Name():
			return fmt.Errorf("node %%%s: the other graph has %%%s in its place", x.Name(), y.Name())
		case x.Op() != y.Op():
			return fmt.Errorf("node %%%s: opcode %s vs %s", x.Name(), x.Op(), y.Op())
		case x.Target().String() != y.Target().String():
			return fmt.Errorf("node %%%s: target %q vs %q", x.Name(), x.Target(), y.Target())
		case x.NumUsers() != y.NumUsers():
			return fmt.Errorf("node %%%s: %d users vs %d", x.Name(), x.NumUsers(), y.NumUsers())
		}
		xa, ya := node.MapArg(node.Tuple(x.Args()), byName), node.MapArg(node.Tuple(y.Args()), byName)
		if !node.EqualArgs(xa, ya) {
			return fmt.Errorf("node %%%s: args %s vs %s", x.Name(), pyRepr(xa), pyRepr(ya))
		}
		xk, yk := node.MapArg(node.Dict(x.Kwargs()), byName), node.MapArg(node.Dict(y.Kwargs()), byName)
		if !node.EqualArgs(xk, yk) {
			return fmt.Errorf("node %%%s: kwargs %s vs %s", x.Name(), pyRepr(xk), pyRepr(yk))
		}
		if mx, my := metaText(&x.Meta), metaText(&y.Meta); mx != my {
			return fmt.Errorf("node %%%s: metadata {%s} vs {%s}", x.Name(), mx, my)
		}
		y = y.Next()
	}
	return nil
}
