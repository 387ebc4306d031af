package decomp

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

const testTrace = "model.go:12 in Model.Forward\n"

var testStack = []node.ModuleFrame{{Path: "block", Type: "Block"}}

// caseGraph builds a graph calling op once on a conformance case's
// arguments: each tensor a placeholder with its val, the rest constants,
// the results (getitem nodes for several) returned. It returns the
// GraphModule and the placeholders' values in order.
func caseGraph(t testing.TB, op *ops.Operator, c *conformance.Case) (*fx.GraphModule, []nn.Value) {
	t.Helper()
	g := graph.New()
	var inputs []nn.Value
	var conv func(v any) node.Arg
	conv = func(v any) node.Arg {
		switch x := v.(type) {
		case *tensor.Tensor:
			if x == nil {
				return node.None
			}
			p, err := g.Placeholder(fmt.Sprintf("a%d", len(inputs)))
			require.NoError(t, err)
			f, _ := valOf(x)
			node.Val.Set(&p.Meta, f)
			inputs = append(inputs, nn.Tensor(x.Clone()))
			return p
		case []*tensor.Tensor:
			l := make(node.List, len(x))
			for i, e := range x {
				l[i] = conv(e)
			}
			return l
		case []any:
			l := make(node.List, len(x))
			for i, e := range x {
				l[i] = conv(e)
			}
			return l
		}
		if a, ok := node.ArgOf(v); ok {
			return a
		}
		t.Fatalf("case %s: cannot make a graph argument of %T", c.ID, v)
		return nil
	}
	args := make([]node.Arg, len(c.Args))
	for i, a := range c.Args {
		args[i] = conv(a)
	}
	var kw node.Kwargs
	for _, a := range op.Schema().Args {
		if v, ok := c.Kwargs[a.Name]; ok {
			kw = append(kw, node.Field{Name: a.Name, Value: conv(v)})
		}
	}
	n, err := g.CallFunction(op, args, kw)
	require.NoError(t, err)
	node.StackTrace.Set(&n.Meta, testTrace)
	node.ModuleStack.Set(&n.Meta, testStack)
	var out node.Arg = n
	if rets := len(op.Schema().Returns); rets > 1 {
		tup := make(node.Tuple, rets)
		for i := range tup {
			gi, err := g.CallFunction(nn.GetItem, []node.Arg{n, node.Int(i)}, nil)
			require.NoError(t, err)
			tup[i] = gi
		}
		out = tup
	}
	_, err = g.Output(out)
	require.NoError(t, err)
	gm, err := fx.NewGraphModule(nil, g)
	require.NoError(t, err)
	return gm, inputs
}

// TestStructure decomposes a one-node graph per conformance case with
// Decompose, checks that Core's output is core ATen (Verify), that the
// graph lints, that every new node carries the replaced node's
// stack_trace and nn_module_stack and a val, and runs the decomposed graph
// with the interpreter on the case's inputs.
func TestStructure(t *testing.T) {
	byOp := readCases(t)
	for _, tb := range tables {
		table := tb.t()
		checked := 0
		for _, op := range table.Operators() {
			for _, c := range byOp[op] {
				checked++
				t.Run(tb.name+"/"+c.ID, func(t *testing.T) {
					gm, inputs := caseGraph(t, op, c)
					changed, err := Decompose(gm, table)
					require.NoError(t, err, c.Note)
					require.True(t, changed)
					require.NoError(t, gm.Graph.Lint())
					assert.Empty(t, gm.Graph.FindNodes(node.CallFunction, op), "the decomposed operator is gone")
					if tb.name == "Core" {
						require.NoError(t, Verify(gm.Graph), gm.Graph.String())
					}
					for n := range gm.Graph.Nodes() {
						if n.Op() != node.CallFunction {
							continue
						}
						st, _ := node.StackTrace.Get(&n.Meta)
						assert.Equal(t, testTrace, st, "stack_trace of %s", n.Name())
						ms, _ := node.ModuleStack.Get(&n.Meta)
						assert.Equal(t, testStack, ms, "nn_module_stack of %s", n.Name())
						_, hasVal := node.Val.Get(&n.Meta)
						assert.True(t, hasVal, "val of %s", n.Name())
					}
					res, err := interp.New(gm.Graph, gm).Run(inputs...)
					require.NoError(t, err, gm.Graph.String())
					got, err := unpack(op, res)
					require.NoError(t, err)
					require.NoError(t, compareOutputs(c, got), "%s\n%s", c.Note, gm.Graph)
				})
			}
		}
		t.Logf("%s: %d cases decomposed in graphs", tb.name, checked)
	}
}
