package interp_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/interp"
	_ "github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// randn returns a float32 tensor of the given shape, reproducibly.
func randn(t testing.TB, seed uint64, shape ...int) *tensor.Tensor {
	x, err := tensor.NewGenerator(seed).Randn(tensor.Float32, shape...)
	require.NoError(t, err)
	return x
}

func parse(t testing.TB, text string) *graph.Graph {
	g, err := graph.Parse(text)
	require.NoError(t, err)
	return g
}

func assertClose(t *testing.T, want *tensor.Tensor, got nn.Value) {
	t.Helper()
	require.True(t, got.IsTensor(), "got %s, want a tensor", got.Kind())
	assert.Equal(t, want.Shape(), got.Tensor().Shape())
	assert.True(t, tensor.AllClose(want, got.Tensor(), 1e-5, 1e-6, false), "want %v\ngot %v", want.Float64s(), got.Tensor().Float64s())
}

func TestRunGraphs(t *testing.T) {
	x, y := randn(t, 1, 2, 3), randn(t, 2, 2, 3)
	tests := []struct {
		name   string
		text   string
		inputs []nn.Value
		want   func(t *testing.T) nn.Value
	}{
		{
			name: "add with alpha",
			text: `
%x = placeholder "x"()
%y = placeholder "y"()
%add = call_function aten.add.Tensor(%x, %y, alpha=2)
%output = output "output"(%add)`,
			inputs: []nn.Value{nn.Tensor(x), nn.Tensor(y)},
			want: func(t *testing.T) nn.Value {
				return nn.Tensor(optest.OpTensor(t, aten.AddTensor, []any{x, y}, map[string]any{"alpha": 2}))
			},
		},
		{
			name: "chain with constants",
			text: `
%x = placeholder "x"()
%neg = call_function aten.neg.default(%x)
%add = call_function aten.add.Scalar(%neg, 1.5)
%relu = call_function aten.relu.default(%add)
%output = output "output"(%relu)`,
			inputs: []nn.Value{nn.Tensor(x)},
			want: func(t *testing.T) nn.Value {
				n := optest.OpTensor(t, aten.Neg, []any{x}, nil)
				a := optest.OpTensor(t, optest.Op(t, "aten::add.Scalar"), []any{n, 1.5}, nil)
				return nn.Tensor(optest.OpTensor(t, aten.Relu, []any{a}, nil))
			},
		},
		{
			name: "methods",
			text: `
%x = placeholder "x"()
%y = placeholder "y"()
%relu = call_method "relu"(%x)
%mul = call_method "mul"(%relu, %y)
%output = output "output"(%mul)`,
			inputs: []nn.Value{nn.Tensor(x), nn.Tensor(y)},
			want: func(t *testing.T) nn.Value {
				r := optest.OpTensor(t, aten.Relu, []any{x}, nil)
				return nn.Tensor(optest.OpTensor(t, aten.MulTensor, []any{r, y}, nil))
			},
		},
		{
			name: "tuple output and getitem",
			text: `
%x = placeholder "x"()
%split = call_function aten.split.Tensor(%x, 1, 1)
%getitem = call_function operator.getitem(%split, 0)
%getitem_1 = call_function operator.getitem(%split, 2)
%output = output "output"((%getitem_1, %getitem, 3))`,
			inputs: []nn.Value{nn.Tensor(x)},
			want: func(t *testing.T) nn.Value {
				out, err := optest.Op(t, "aten::split.Tensor").Call([]any{x, 1, 1}, nil)
				require.NoError(t, err)
				parts := out[0].([]*tensor.Tensor)
				return nn.Tuple(nn.Tensor(parts[2]), nn.Tensor(parts[0]), nn.Of(3))
			},
		},
		{
			name: "list argument and dtype keyword",
			text: `
%x = placeholder "x"()
%sum_1 = call_function aten.sum.dim_IntList(%x, [-1], dtype=torch.float64)
%output = output "output"(%sum_1)`,
			inputs: []nn.Value{nn.Tensor(x)},
			want: func(t *testing.T) nn.Value {
				return nn.Tensor(optest.OpTensor(t, optest.Op(t, "aten::sum.dim_IntList"), []any{x, []int64{-1}}, map[string]any{"dtype": tensor.Float64}))
			},
		},
		{
			name: "list of nodes",
			text: `
%x = placeholder "x"()
%y = placeholder "y"()
%cat = call_function aten.cat.default([%x, %y, %x], 0)
%output = output "output"(%cat)`,
			inputs: []nn.Value{nn.Tensor(x), nn.Tensor(y)},
			want: func(t *testing.T) nn.Value {
				return nn.Tensor(optest.OpTensor(t, optest.Op(t, "aten::cat"), []any{[]any{x, y, x}, 0}, nil))
			},
		},
		{
			name: "placeholder default",
			text: `
%x = placeholder "x"()
%y = placeholder "y"(2.5)
%add = call_function aten.add.Scalar(%x, %y)
%output = output "output"(%add)`,
			inputs: []nn.Value{nn.Tensor(x)},
			want: func(t *testing.T) nn.Value {
				return nn.Tensor(optest.OpTensor(t, optest.Op(t, "aten::add.Scalar"), []any{x, 2.5}, nil))
			},
		},
		{
			name: "placeholder default overridden",
			text: `
%x = placeholder "x"()
%y = placeholder "y"(2.5)
%add = call_function aten.add.Scalar(%x, %y)
%output = output "output"(%add)`,
			inputs: []nn.Value{nn.Tensor(x), nn.Of(-1.0)},
			want: func(t *testing.T) nn.Value {
				return nn.Tensor(optest.OpTensor(t, optest.Op(t, "aten::add.Scalar"), []any{x, -1.0}, nil))
			},
		},
		{
			name: "unused node",
			text: `
%x = placeholder "x"()
%dead = call_function aten.neg.default(%x)
%relu = call_function aten.relu.default(%x)
%output = output "output"(%relu)`,
			inputs: []nn.Value{nn.Tensor(x)},
			want: func(t *testing.T) nn.Value {
				return nn.Tensor(optest.OpTensor(t, aten.Relu, []any{x}, nil))
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := parse(t, tc.text)
			in := interp.New(g, nil)
			got, err := in.Run(tc.inputs...)
			require.NoError(t, err)
			want := tc.want(t)
			assertSame(t, want, got)
			assert.Empty(t, in.Env(), "values left in the environment")
			// A second run on the same interpreter gives the same result.
			again, err := in.Run(tc.inputs...)
			require.NoError(t, err)
			assertSame(t, want, again)
		})
	}
}

func assertSame(t *testing.T, want, got nn.Value) {
	t.Helper()
	if want.IsTuple() {
		require.True(t, got.IsTuple(), "got %s, want a tuple", got.Kind())
		require.Equal(t, want.Len(), got.Len())
		for i := range want.Len() {
			assertSame(t, want.Index(i), got.Index(i))
		}
		return
	}
	if want.IsTensor() {
		assertClose(t, want.Tensor(), got)
		return
	}
	assert.Equal(t, want.Any(), got.Any())
}

// A graph built with the graph API and a module tree: get_attr of a
// Linear's parameters inside a Sequential, and call_module.
func TestModuleTree(t *testing.T) {
	nn.ManualSeed(0)
	seq := nn.NewSequential(nn.NewLinear(4, 3, true), nn.NewReLU())
	require.NoError(t, nn.Err(seq))
	x := randn(t, 3, 2, 4)

	g := graph.New()
	px, _ := g.Placeholder("x")
	w, _ := g.GetAttr("0.weight")
	b, _ := g.GetAttr("0.bias")
	lin, err := g.CallFunction(optest.Op(t, "aten::linear"), []node.Arg{px, w, b}, nil)
	require.NoError(t, err)
	relu, _ := g.CallModule("1", []node.Arg{lin}, nil)
	whole, _ := g.CallModule("0", []node.Arg{px}, nil)
	whole2, _ := g.CallModule("1", []node.Arg{whole}, nil)
	_, err = g.Output(node.Tuple{relu, whole2})
	require.NoError(t, err)
	require.NoError(t, g.Lint())

	want, err := nn.Run(seq, nn.Tensor(x))
	require.NoError(t, err)
	got, err := interp.New(g, seq).Run(nn.Tensor(x))
	require.NoError(t, err)
	require.True(t, got.IsTuple())
	assertClose(t, want.Tensor(), got.Index(0))
	assertClose(t, want.Tensor(), got.Index(1))
}

// swapRelu is an interpreter that runs sigmoid wherever the graph says relu.
type swapRelu struct {
	*interp.Interpreter
}

func (s swapRelu) CallFunction(n *node.Node, fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if fn == aten.Relu {
		fn = aten.Sigmoid
	}
	return s.Interpreter.CallFunction(n, fn, args, kwargs)
}

func (s swapRelu) CallMethod(n *node.Node, name string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if name == "relu" {
		name = "sigmoid"
	}
	return s.Interpreter.CallMethod(n, name, args, kwargs)
}

// counter counts the nodes run, by opcode, and doubles every float
// constant in fetched arguments.
type counter struct {
	*interp.Interpreter
	ops map[node.Opcode]int
}

func (c *counter) RunNode(n *node.Node) (nn.Value, error) {
	c.ops[n.Op()]++
	return c.Interpreter.RunNode(n)
}

func (c *counter) FetchArgs(n *node.Node) ([]nn.Value, map[string]nn.Value, error) {
	args, kwargs, err := c.Interpreter.FetchArgs(n)
	for i, a := range args {
		if a.Kind() == "float" {
			args[i] = nn.Of(2 * a.Float())
		}
	}
	return args, kwargs, err
}

// fixedInputs feeds every placeholder the same value.
type fixedInputs struct {
	*interp.Interpreter
	v nn.Value
}

func (f fixedInputs) Placeholder(*node.Node, string, []nn.Value, map[string]nn.Value) (nn.Value, error) {
	return f.v, nil
}

func TestOverrides(t *testing.T) {
	x := randn(t, 4, 3, 5)
	g := parse(t, `
%x = placeholder "x"()
%relu = call_function aten.relu.default(%x)
%add = call_function aten.add.Scalar(%relu, 1.0)
%relu_1 = call_method "relu"(%add)
%output = output "output"(%relu_1)`)
	addS := optest.Op(t, "aten::add.Scalar")

	t.Run("swap relu for sigmoid", func(t *testing.T) {
		s := swapRelu{interp.New(g, nil)}
		s.Steps = s
		got, err := s.Run(nn.Tensor(x))
		require.NoError(t, err)
		a := optest.OpTensor(t, addS, []any{optest.OpTensor(t, aten.Sigmoid, []any{x}, nil), 1.0}, nil)
		assertClose(t, optest.OpTensor(t, aten.Sigmoid, []any{a}, nil), got)
	})
	t.Run("without Steps the overrides are not used", func(t *testing.T) {
		s := swapRelu{interp.New(g, nil)}
		got, err := s.Run(nn.Tensor(x))
		require.NoError(t, err)
		a := optest.OpTensor(t, addS, []any{optest.OpTensor(t, aten.Relu, []any{x}, nil), 1.0}, nil)
		assertClose(t, optest.OpTensor(t, aten.Relu, []any{a}, nil), got)
	})
	t.Run("count nodes and rewrite arguments", func(t *testing.T) {
		c := &counter{Interpreter: interp.New(g, nil), ops: map[node.Opcode]int{}}
		c.Steps = c
		got, err := c.Run(nn.Tensor(x))
		require.NoError(t, err)
		assert.Equal(t, map[node.Opcode]int{node.Placeholder: 1, node.CallFunction: 2, node.CallMethod: 1, node.Output: 1}, c.ops)
		a := optest.OpTensor(t, addS, []any{optest.OpTensor(t, aten.Relu, []any{x}, nil), 2.0}, nil)
		assertClose(t, optest.OpTensor(t, aten.Relu, []any{a}, nil), got)
	})
	t.Run("placeholder", func(t *testing.T) {
		f := fixedInputs{interp.New(g, nil), nn.Tensor(x)}
		f.Steps = f
		got, err := f.Run() // no inputs: the override supplies them
		require.NoError(t, err)
		a := optest.OpTensor(t, addS, []any{optest.OpTensor(t, aten.Relu, []any{x}, nil), 1.0}, nil)
		assertClose(t, optest.OpTensor(t, aten.Relu, []any{a}, nil), got)
	})
}

func TestInitialEnv(t *testing.T) {
	x, z := randn(t, 5, 4), randn(t, 6, 4)
	g := parse(t, `
%x = placeholder "x"()
%neg = call_function aten.neg.default(%x)
%relu = call_function aten.relu.default(%neg)
%add = call_function aten.add.Tensor(%relu, %x)
%output = output "output"(%add)`)
	nodes := map[string]*node.Node{}
	for n := range g.Nodes() {
		nodes[n.Name()] = n
	}
	c := &counter{Interpreter: interp.New(g, nil), ops: map[node.Opcode]int{}}
	c.Steps = c

	env := map[*node.Node]nn.Value{nodes["neg"]: nn.Tensor(z)}
	got, err := c.RunWithEnv(env, nn.Tensor(x))
	require.NoError(t, err)
	want := optest.OpTensor(t, aten.AddTensor, []any{optest.OpTensor(t, aten.Relu, []any{z}, nil), x}, nil)
	assertClose(t, want, got)
	assert.Equal(t, 2, c.ops[node.CallFunction], "neg must not run")
	assert.Len(t, env, 1, "the caller's map is not modified")

	// A placeholder in the initial environment takes no input.
	clear(c.ops)
	got, err = c.RunWithEnv(map[*node.Node]nn.Value{nodes["x"]: nn.Tensor(x), nodes["relu"]: nn.Tensor(z)})
	require.NoError(t, err)
	assertClose(t, optest.OpTensor(t, aten.AddTensor, []any{z, x}, nil), got)
	// %neg runs although its only user's value is given, as in torch.fx.
	assert.Equal(t, map[node.Opcode]int{node.CallFunction: 2, node.Output: 1}, c.ops)

	_, err = c.RunWithEnv(map[*node.Node]nn.Value{nodes["x"]: nn.Tensor(x)}, nn.Tensor(x))
	require.ErrorContains(t, err, "takes 0 inputs, got 1")

	other := parse(t, `%x = placeholder "x"()`+"\n"+`%output = output "output"(%x)`)
	_, err = c.RunWithEnv(map[*node.Node]nn.Value{other.First(): nn.Tensor(x)})
	require.ErrorContains(t, err, "not in the graph")
}

// envWatcher records the largest environment seen while a node runs.
type envWatcher struct {
	*interp.Interpreter
	max int
}

func (w *envWatcher) RunNode(n *node.Node) (nn.Value, error) {
	w.max = max(w.max, w.EnvLen())
	require.Equal(nil, w.EnvLen(), len(w.Env()))
	return w.Interpreter.RunNode(n)
}

func TestValuesAreFreed(t *testing.T) {
	x := randn(t, 7, 1, 16)
	g := graph.New()
	px, _ := g.Placeholder("x")
	prev := px
	const n = 200
	for i := range n {
		var err error
		if i%2 == 0 {
			prev, err = g.CallFunction(aten.AddTensor, []node.Arg{prev, px}, nil)
		} else {
			prev, err = g.CallFunction(aten.Relu, []node.Arg{prev}, nil)
		}
		require.NoError(t, err)
	}
	_, _ = g.Output(prev)

	w := &envWatcher{Interpreter: interp.New(g, nil)}
	w.Steps = w
	got, err := w.Run(nn.Tensor(x))
	require.NoError(t, err)
	// While a node runs, the env holds its input (the previous value) and
	// the placeholder, which every add uses.
	assert.LessOrEqual(t, w.max, 2+1)
	assert.Empty(t, w.Env())

	want := x
	for i := range n {
		if i%2 == 0 {
			want = optest.OpTensor(t, aten.AddTensor, []any{want, x}, nil)
		} else {
			want = optest.OpTensor(t, aten.Relu, []any{want}, nil)
		}
	}
	assertClose(t, want, got)

	// Fan-out: %a is used by two later nodes and is kept until the last.
	g2 := parse(t, `
%x = placeholder "x"()
%a = call_function aten.neg.default(%x)
%b = call_function aten.relu.default(%a)
%c = call_function aten.neg.default(%b)
%d = call_function aten.add.Tensor(%c, %a)
%output = output "output"(%d)`)
	w2 := &envWatcher{Interpreter: interp.New(g2, nil)}
	w2.Steps = w2
	_, err = w2.Run(nn.Tensor(x))
	require.NoError(t, err)
	assert.Equal(t, 2, w2.max) // %a and %b or %c; %x was freed after %a
	assert.Empty(t, w2.Env())
}

// panicky panics in a step.
type panicky struct{ *interp.Interpreter }

func (p panicky) CallMethod(*node.Node, string, []nn.Value, map[string]nn.Value) (nn.Value, error) {
	panic("boom")
}

func TestErrors(t *testing.T) {
	nn.ManualSeed(0)
	seq := nn.NewSequential(nn.NewLinear(4, 3, true))
	x := nn.Tensor(randn(t, 8, 2, 4))
	tests := []struct {
		name   string
		text   string
		root   nn.Module
		inputs []nn.Value
		steps  func(*interp.Interpreter) interp.Steps
		node   string // the failing node
		msg    []string
	}{
		{
			name: "unknown method", text: `
%x = placeholder "x"()
%frob = call_method "frobnicate"(%x)
%output = output "output"(%frob)`,
			inputs: []nn.Value{x}, node: "frob",
			msg: []string{"node %frob failed", `no method "frobnicate"`, `%frob : [num_users=1] = call_method[target=frobnicate](args = (%x,), kwargs = {})`},
		},
		{
			name: "bad arity", text: `
%x = placeholder "x"()
%add = call_function aten.add.Tensor(%x)
%output = output "output"(%add)`,
			inputs: []nn.Value{x}, node: "add",
			msg: []string{"node %add failed", "aten::add.Tensor", "call_function[target=aten.add.Tensor](args = (%x,), kwargs = {})"},
		},
		{
			name: "missing attribute", text: `
%w = get_attr "0.weights"()
%output = output "output"(%w)`,
			root: seq, node: "w",
			msg: []string{"node %w failed", `"weights"`, "get_attr[target=0.weights]"},
		},
		{
			name: "missing submodule", text: `
%x = placeholder "x"()
%m = call_module "2"(%x)
%output = output "output"(%m)`,
			root: seq, inputs: []nn.Value{x}, node: "m",
			msg: []string{"node %m failed", `no submodule "2"`},
		},
		{
			name: "no root", text: `
%w = get_attr "0.weight"()
%output = output "output"(%w)`,
			node: "w", msg: []string{"no root module"},
		},
		{
			name: "module fails", text: `
%x = placeholder "x"()
%m = call_module "0"(%x)
%output = output "output"(%m)`,
			root: seq, inputs: []nn.Value{nn.Tensor(randn(t, 9, 2, 5))}, node: "m",
			msg: []string{"node %m failed", "call_module[target=0]"},
		},
		{
			name: "missing input", text: `
%x = placeholder "x"()
%y = placeholder "y"()
%add = call_function aten.add.Tensor(%x, %y)
%output = output "output"(%add)`,
			inputs: []nn.Value{x}, node: "y",
			msg: []string{"node %y failed", "expected an input for parameter y"},
		},
		{
			name: "panic in a step", text: `
%x = placeholder "x"()
%r = call_method "relu"(%x)
%output = output "output"(%r)`,
			inputs: []nn.Value{x}, node: "r",
			steps: func(in *interp.Interpreter) interp.Steps { return panicky{in} },
			msg:   []string{"node %r failed", "boom"},
		},
		{
			name: "dict argument", text: `
%x = placeholder "x"()
%r = call_method "relu"(%x, {"a": 1})
%output = output "output"(%r)`,
			inputs: []nn.Value{x}, node: "r",
			msg: []string{"node %r failed", "dict arguments are not supported"},
		},
		{
			name: "stack trace", text: `
%x = placeholder "x"()
%r = call_method "nope"(%x) {stack_trace: "model.go:12 in Forward"}
%output = output "output"(%r)`,
			inputs: []nn.Value{x}, node: "r",
			msg: []string{"node %r failed", "\n    created at model.go:12 in Forward"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := interp.New(parse(t, tc.text), tc.root)
			if tc.steps != nil {
				in.Steps = tc.steps(in)
			}
			_, err := in.Run(tc.inputs...)
			require.Error(t, err)
			var ne *interp.NodeError
			require.True(t, errors.As(err, &ne), "%T: %v", err, err)
			assert.Equal(t, tc.node, ne.Node.Name())
			assert.NotNil(t, errors.Unwrap(err))
			for _, m := range tc.msg {
				assert.Contains(t, err.Error(), m)
			}
			assert.Empty(t, in.Env())
		})
	}
}

func TestTooManyInputs(t *testing.T) {
	g := parse(t, `
%x = placeholder "x"()
%y = placeholder "y"(1)
%output = output "output"((%x, %y))`)
	_, err := interp.New(g, nil).Run(nn.Of(1), nn.Of(2), nn.Of(3))
	require.ErrorContains(t, err, "takes 2 inputs, got 3")
	out, err := interp.New(g, nil).Run(nn.Of(1))
	require.NoError(t, err)
	assert.Equal(t, "(1, 1)", out.String())
}

func TestUsedBeforeComputed(t *testing.T) {
	g := parse(t, `
%x = placeholder "x"()
%r = call_method "relu"(%x)
%output = output "output"(%r)`)
	var r *node.Node
	for n := range g.Nodes() {
		if n.Name() == "r" {
			r = n
		}
	}
	// FetchArgs of a node whose input is not in the environment.
	in := interp.New(g, nil)
	_, _, err := in.FetchArgs(r)
	require.ErrorContains(t, err, "node x used before it was computed")
}

func TestConstant(t *testing.T) {
	tests := []struct {
		arg  node.Arg
		want string
		err  string
	}{
		{node.Int(3), "3", ""},
		{node.Float(2), "2.0", ""},
		{node.Bool(true), "True", ""},
		{node.Str("mean"), "mean", ""},
		{node.None, "None", ""},
		{node.Float32, "float32", ""},
		{node.Device("cpu"), "cpu", ""},
		{node.MemoryFormat("contiguous_format"), "contiguous_format", ""},
		{node.List{node.Int(1), node.Tuple{node.Float(0.5)}}, "(1, (0.5,))", ""},
		{node.DType("float99"), "", "float99"},
		{node.Dict{{Name: "a", Value: node.Int(1)}}, "", "dict"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.arg), func(t *testing.T) {
			v, err := interp.Constant(tc.arg)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, v.String())
		})
	}
	v, err := interp.Constant(node.Float64)
	require.NoError(t, err)
	assert.Equal(t, tensor.Float64, v.Any())
}

func TestNoOutput(t *testing.T) {
	g := graph.New()
	x, _ := g.Placeholder("x")
	_, _ = g.CallFunction(aten.Relu, []node.Arg{x}, nil)
	out, err := interp.New(g, nil).Run(nn.Tensor(randn(t, 1, 3)))
	require.NoError(t, err)
	assert.True(t, out.IsNone())
	assert.True(t, strings.HasPrefix(g.String(), "graph():"))
}

// TestGetAttrModule: a get_attr naming a submodule gives the module as a
// value (the branch graphs of a higher-order operator are read so).
func TestGetAttrModule(t *testing.T) {
	lin := nn.NewLinear(4, 3, true)
	seq := nn.NewSequential(lin)
	g := parse(t, `
%m = get_attr "0"()
%output = output "output"(%m)`)
	out, err := interp.New(g, seq).Run()
	require.NoError(t, err)
	assert.Equal(t, "Module", out.Kind())
	assert.Same(t, nn.Module(lin), out.Module())
}
