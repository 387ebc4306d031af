package decomp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// VerifyError lists every node of a graph that is not core ATen.
type VerifyError struct{ Nodes []BadNode }

// BadNode is one offending node: its name, its target and why it is not
// allowed.
type BadNode struct{ Name, Target, Why string }

// Error lists the offending nodes, one per line.
func (e *VerifyError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "decomp: the graph is not core ATen: %d offending node(s)", len(e.Nodes))
	for _, n := range e.Nodes {
		fmt.Fprintf(&b, "\n  %%%s (%s): %s", n.Name, n.Target, n.Why)
	}
	return b.String()
}

// VerifyOptions tune Verify.
type VerifyOptions struct {
	// Lifted says the graph is a lifted program (an exported program's
	// graph, whose parameters, buffers and constants are placeholders), in
	// which get_attr nodes are not allowed.
	Lifted bool
}

// Verify is the core-ATen verifier: it returns nil, or a *VerifyError
// listing every offending node. call_function targets must be operators
// tagged ops.Core, custom operators (outside the aten and prims
// namespaces, registered with ops.Define) that write none of their
// arguments, the functional variants (NAME_functional) of core operators
// that write arguments, the runtime assertions (operators tagged
// ops.Effectful: _assert_scalar, sym_constrain_range_for_size, ...),
// operator.getitem, or symbolic-size functions (a function
// whose name starts with "operator." or "aten.sym_"), or higher-order
// operators (higher_order.cond, while_loop, map_impl: their subgraphs are
// verified apart), as torch.export's verifier allows; call_method
// and call_module nodes are not allowed. get_attr nodes are allowed (see
// VerifyWith for lifted programs).
func Verify(g *graph.Graph) error { return VerifyWith(g, VerifyOptions{}) }

// VerifyWith is Verify with options.
func VerifyWith(g *graph.Graph, opts VerifyOptions) error {
	if g == nil {
		return errors.New("decomp.Verify: nil graph")
	}
	var bad []BadNode
	for n := range g.Nodes() {
		if why := offense(n, opts); why != "" {
			bad = append(bad, BadNode{Name: n.Name(), Target: n.Target().String(), Why: why})
		}
	}
	if len(bad) > 0 {
		return &VerifyError{Nodes: bad}
	}
	return nil
}

// functionalOfCore reports whether op is the functional variant
// (NAME_functional: the results, then the written arguments' new values)
// of a core operator that writes its arguments, such as
// _native_batch_norm_legit_functional, which torch.export records for a
// batch norm in training mode.
func functionalOfCore(op *ops.Operator) bool {
	s := op.Schema()
	name, ok := strings.CutSuffix(s.Name, "_functional")
	if !ok {
		return false
	}
	q := s.Namespace + "::" + name
	if s.Overload != "" {
		q += "." + s.Overload
	}
	base, ok := ops.Global().Lookup(q)
	return ok && base.Has(ops.Core)
}

// offense says why n is not allowed, or "".
func offense(n *node.Node, opts VerifyOptions) string {
	switch n.Op() {
	case node.CallMethod:
		return "call_method nodes are not allowed in core ATen graphs: the method must be traced into aten operators"
	case node.CallModule:
		return "call_module nodes are not allowed in core ATen graphs: the module must be traced through"
	case node.GetAttr:
		if opts.Lifted {
			return "get_attr nodes are not allowed in a lifted program: parameters, buffers and constants are inputs"
		}
	case node.CallFunction:
		fn := n.Function()
		if op, ok := fn.(*ops.Operator); ok {
			if op.Has(ops.Core) || op.Has(ops.Effectful) {
				return "" // core, or a runtime assertion (_assert_scalar, sym_constrain_range_for_size)
			}
			if op.Has(ops.Mutable) {
				return fmt.Sprintf("%s is not a core ATen operator: it writes its arguments, and core ATen graphs are functional", op)
			}
			if ns := op.Schema().Namespace; ns != "aten" && ns != "prims" {
				return "" // a functional custom operator, kept as it is
			}
			if functionalOfCore(op) {
				return "" // as torch.export's run_decompositions leaves it
			}
			if _, ok := coreShared().Lookup(op); ok {
				return fmt.Sprintf("%s is not a core ATen operator: decompose it (decomp.Core() has a rule for it)", op)
			}
			return fmt.Sprintf("%s is not a core ATen operator, and decomp.Core() has no rule for it", op)
		}
		name := fn.String()
		if fn == node.Function(nn.GetItem) || strings.HasPrefix(name, "operator.") || strings.HasPrefix(name, "aten.sym_") || strings.HasPrefix(name, "higher_order.") {
			return ""
		}
		return fmt.Sprintf("%s is neither a core ATen operator nor operator.getitem or a symbolic-size function", name)
	}
	return ""
}
