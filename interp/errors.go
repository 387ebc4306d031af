package interp

import (
	"errors"
	"strings"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
)

// NodeError is the error of a run stopped by a failing node: the node and
// what went wrong. Its message names the node, shows the node's line as
// the graph prints it, and, when the node records where the model code
// created it (node.StackTrace), that Go location:
//
//	interp: node %add failed: aten::add.Tensor: ...
//	    while executing %add : [num_users=1] = call_function[target=aten.add.Tensor](args = (%x, %w), kwargs = {})
//	    created at model.go:42 in Forward
type NodeError struct {
	Node *node.Node
	Err  error
}

// Error returns the message: the node's name and the failure, then the
// node's line and, if recorded, where the model code created it.
func (e *NodeError) Error() string {
	var b strings.Builder
	b.WriteString("interp: node %")
	b.WriteString(e.Node.Name())
	b.WriteString(" failed: ")
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString("unknown error")
	}
	b.WriteString("\n    while executing ")
	b.WriteString(graph.FormatNode(e.Node))
	if st, ok := node.StackTrace.Get(&e.Node.Meta); ok && st != "" {
		b.WriteString("\n    created at ")
		b.WriteString(strings.ReplaceAll(strings.TrimSpace(st), "\n", "\n        "))
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *NodeError) Unwrap() error { return e.Err }

// wrapNodeError makes err a *NodeError of n, unless it already is one for
// n (an override that returned the error of a nested step).
func wrapNodeError(n *node.Node, err error) error {
	var ne *NodeError
	if errors.As(err, &ne) && ne.Node == n {
		return err
	}
	return &NodeError{Node: n, Err: err}
}
