package interp

import (
	"fmt"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// Define registers the custom operator of schema (ops.Define) with g as
// its body: the kernel runs g with this package's interpreter on the
// call's arguments, and so does the meta function, on meta tensors (every
// operator g calls needs a meta function). g's placeholders take the
// schema's arguments, in order and under the same names; its output is
// the result, a tuple of as many values as the schema returns. A body
// cannot write its arguments: a schema with a mutable argument is an
// error.
//
// This is how a program that calls an operator defined in Python
// (torch.library.custom_op) runs without Go code for it: its Python body
// written as a graph, as a .pt2 file of the op itself would hold it
// (gofx's CLI reads such definitions with -ops).
func Define(schema string, g *graph.Graph) (*ops.Operator, error) {
	s, err := ops.ParseSchema(schema)
	if err != nil {
		return nil, fmt.Errorf("interp: Define: %w", err)
	}
	name := s.QualifiedName()
	if s.IsMutable() {
		return nil, fmt.Errorf("interp: Define %s: the schema writes an argument, which a graph body cannot do", name)
	}
	if s.VarArgs || s.VarRets {
		return nil, fmt.Errorf("interp: Define %s: a schema with ... has no fixed arguments to bind to placeholders", name)
	}
	if len(s.Returns) == 0 {
		return nil, fmt.Errorf("interp: Define %s: the schema returns nothing, so its body's work would be lost", name)
	}
	if g == nil {
		return nil, fmt.Errorf("interp: Define %s: nil graph", name)
	}
	if err := g.Lint(); err != nil {
		return nil, fmt.Errorf("interp: Define %s: the body: %w", name, err)
	}
	var phs []*node.Node
	for n := range g.Nodes() {
		if n.Op() == node.Placeholder {
			phs = append(phs, n)
		}
	}
	if len(phs) != len(s.Args) {
		return nil, fmt.Errorf("interp: Define %s: the body has %d placeholders, the schema %d arguments", name, len(phs), len(s.Args))
	}
	for i, a := range s.Args {
		if got := phs[i].Target().String(); got != a.Name {
			return nil, fmt.Errorf("interp: Define %s: placeholder %d is %q, the schema's argument %d is %q", name, i, got, i, a.Name)
		}
	}
	body := func(c *ops.Call) (out []any, err error) {
		defer nn.Recover(&err)
		in := make([]nn.Value, len(s.Args))
		for i, a := range s.Args {
			in[i] = nn.Of(c.Arg(a.Name))
		}
		res, err := New(g, nil).Run(in...)
		if err != nil {
			return nil, err
		}
		vals := []nn.Value{res}
		if res.IsTuple() {
			vals = res.Tuple()
		}
		if len(vals) != len(s.Returns) {
			return nil, fmt.Errorf("the body returned %d values, the schema %d", len(vals), len(s.Returns))
		}
		out = make([]any, len(vals))
		for i, v := range vals {
			out[i] = v.Raw()
		}
		return out, nil
	}
	op, err := ops.Define(schema, body, body, 0)
	if err != nil {
		return nil, fmt.Errorf("interp: Define: %w", err)
	}
	return op, nil
}
