package interp

import (
	"slices"
	"strings"

	"github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// ReadOnly reports whether the graph of n (a placeholder or get_attr node)
// never writes n's value: no operator writes it or a view of it (an
// argument annotated "!" in its schema: add_, copy_, an out= overload), no
// in-place method (a name ending in "_") is called on it, and it is not
// handed to anything that might keep or write it (a module, a function
// that is not an operator, the output). Views (an argument with an alias
// annotation: view, t, permute, ...) and getitem are followed. The
// answer errs on the side of false.
//
// The interpreter and export.ExportedProgram use it to declare the
// parameters, buffers and constants their programs only read constant
// (kernels.MarkConstant), so that a convolution packs such a weight once.
func ReadOnly(n *node.Node) bool {
	// Runs on every ExportedProgram.Run for each state input: the alias
	// sets are tiny, so a slice is the set.
	seen := []*node.Node{n}
	for k := 0; k < len(seen); k++ {
		for _, u := range seen[k].Users() {
			write, alias := useOf(u, seen[k])
			if write {
				return false
			}
			if alias && !slices.Contains(seen, u) {
				seen = append(seen, u)
			}
		}
	}
	return true
}

// useOf says how u uses a: whether it may write a, and whether its value
// may alias a.
func useOf(u, a *node.Node) (write, alias bool) {
	switch u.Op() {
	case node.CallFunction:
		fn := u.Function()
		if fn == nn.GetItem {
			return false, true
		}
		op, ok := fn.(*ops.Operator)
		if !ok {
			return true, false
		}
		args := op.Schema().Args
		for i := range u.NumArgs() {
			if !refers(u.Arg(i), a) {
				continue
			}
			if i >= len(args) {
				return true, false
			}
			w, al := argUse(args[i].Type)
			write, alias = write || w, alias || al
		}
		for _, f := range u.Kwargs() {
			if !refers(f.Value, a) {
				continue
			}
			j := -1
			for k := range args {
				if args[k].Name == f.Name {
					j = k
					break
				}
			}
			if j < 0 {
				return true, false
			}
			w, al := argUse(args[j].Type)
			write, alias = write || w, alias || al
		}
		return write, alias
	case node.CallMethod:
		name := u.Target().String()
		if strings.HasSuffix(name, "_") && !strings.HasSuffix(name, "__") {
			return true, false
		}
		return false, true
	}
	return true, false
}

// argUse says whether an argument of type t is written, and whether the
// result may alias it (any alias annotation), looking into list and
// optional types.
func argUse(t *ops.Type) (write, alias bool) {
	for ; t != nil; t = t.Elem {
		if t.Alias != nil {
			alias = true
			write = write || t.Alias.Write
		}
	}
	return write, alias
}

// refers reports whether the argument x mentions n.
func refers(x node.Arg, n *node.Node) bool {
	switch v := x.(type) {
	case *node.Node:
		return v == n
	case node.List:
		return slices.ContainsFunc(v, func(e node.Arg) bool { return refers(e, n) })
	case node.Tuple:
		return slices.ContainsFunc(v, func(e node.Arg) bool { return refers(e, n) })
	case node.Dict, node.Slice:
		return slices.Contains(node.Nodes(x), n)
	}
	return false
}

// markConstant declares v's tensor constant (kernels.MarkConstant) when v
// holds one.
func markConstant(v nn.Value) {
	if t := v.Tensor(); t != nil {
		kernels.MarkConstant(t)
	}
}
