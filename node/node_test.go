package node_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/ops/aten"
)

var (
	add  = node.MustFunc("aten.add.Tensor", false)
	relu = node.MustFunc("aten.relu.default", false)
	cp   = node.MustFunc("aten.copy_.default", true)
)

// chainOf builds a chain: a placeholder x followed by n relu nodes, each
// using the previous one.
func chainOf(t *testing.T, n int) (*node.Chain, []*node.Node) {
	t.Helper()
	c := node.NewChain("owner")
	x, err := node.New("x", node.Placeholder, node.Path("x"), nil, nil)
	require.NoError(t, err)
	require.NoError(t, c.InsertBefore(x, nil))
	nodes := []*node.Node{x}
	for i := 0; i < n; i++ {
		r, err := node.New(fmt.Sprintf("r%d", i), node.CallFunction, relu, []node.Arg{nodes[len(nodes)-1]}, nil)
		require.NoError(t, err)
		require.NoError(t, c.InsertBefore(r, nil))
		nodes = append(nodes, r)
	}
	require.NoError(t, c.Check())
	return c, nodes
}

func names(ns []*node.Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.Name()
	}
	return out
}

func all(c *node.Chain) []*node.Node {
	var out []*node.Node
	for n := range c.All() {
		out = append(out, n)
	}
	return out
}

func TestOpcode(t *testing.T) {
	for _, op := range node.Opcodes {
		got, err := node.ParseOpcode(op.String())
		require.NoError(t, err)
		assert.Equal(t, op, got)
	}
	assert.Equal(t, "call_function", node.CallFunction.String())
	assert.Equal(t, "Opcode(9)", node.Opcode(9).String())
	_, err := node.ParseOpcode("call_fn")
	assert.ErrorContains(t, err, `unknown opcode "call_fn"`)
}

func TestNewFunc(t *testing.T) {
	tests := []struct {
		name, short, python string
	}{
		{"aten.add.Tensor", "add", "torch.ops.aten.add.Tensor"},
		{"aten.relu", "relu", "torch.ops.aten.relu"},
		{"operator.getitem", "getitem", "operator.getitem"},
		{"torch._C._nn.gelu", "gelu", "torch._C._nn.gelu"},
		{"mylib.fused.default", "fused", "torch.ops.mylib.fused.default"},
		{"torch.functional.einsum", "einsum", "torch.functional.einsum"},
		{"len", "len", "len"},
		{"builtins.len", "len", "len"},
		{"builtins.getattr", "getattr", "getattr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := node.NewFunc(tt.name, false)
			require.NoError(t, err)
			assert.Equal(t, tt.name, f.String())
			assert.Equal(t, tt.short, f.ShortName())
			assert.Equal(t, tt.python, f.PythonName())
			assert.False(t, f.Impure())
		})
	}
	for _, bad := range []string{"", "aten..add", "aten.add.", "1x", "a-b", "aten::add"} {
		_, err := node.NewFunc(bad, false)
		assert.Error(t, err, bad)
	}
}

func TestNewOp(t *testing.T) {
	f, err := node.NewOp("mylib", "add", "Tensor", true)
	require.NoError(t, err)
	assert.Equal(t, "mylib.add.Tensor", f.String())
	assert.Equal(t, "add", f.ShortName())
	assert.Equal(t, "torch.ops.mylib.add.Tensor", f.(node.PythonNamer).PythonName())
	assert.True(t, f.(node.Impurer).Impure())
	_, err = node.NewOp("my lib", "add", "Tensor", false)
	assert.ErrorContains(t, err, `"my lib" is not an identifier`)
}

// TestNewOpIdentity: the same name gives the same Function, an aten name
// gives the registry's operator (which runs and compares == with ops/aten's
// handles), and graph text resolves to it too.
func TestNewOpIdentity(t *testing.T) {
	assert.True(t, node.MustOp("aten", "relu", "default", false) == node.Function(aten.Relu))
	assert.True(t, node.Target(node.MustOp("aten", "add", "Tensor", false)) == node.Target(aten.AddTensor))
	_, isOp := node.MustOp("aten", "add", "Tensor", false).(*ops.Operator)
	assert.True(t, isOp, "an aten name is the registry's *ops.Operator")

	a := node.MustOp("identitytest", "f", "default", false)
	b := node.MustOp("identitytest", "f", "default", false)
	assert.True(t, a == b, "NewOp interns user operators")
	got, ok := node.LookupFunction("identitytest.f.default")
	require.True(t, ok)
	assert.True(t, got == a)
	_, err := node.NewOp("identitytest", "f", "default", true)
	assert.ErrorContains(t, err, "impure=false")
}

func TestRegister(t *testing.T) {
	f := node.MustFunc("regtest.f.default", false)
	require.NoError(t, node.Register(f))
	require.NoError(t, node.Register(f), "registering the same function twice is fine")
	got, ok := node.LookupFunction("regtest.f.default")
	require.True(t, ok)
	assert.Same(t, f, got)
	err := node.Register(node.MustFunc("regtest.f.default", false))
	assert.ErrorContains(t, err, "already registered")
	assert.Error(t, node.Register(nil))
	_, ok = node.LookupFunction("regtest.missing")
	assert.False(t, ok)
}

func TestNewValidates(t *testing.T) {
	c, ns := chainOf(t, 1)
	x := ns[0]
	other, ons := chainOf(t, 0)
	_ = other
	erased, err := node.New("gone", node.CallFunction, relu, []node.Arg{x}, nil)
	require.NoError(t, err)
	require.NoError(t, c.InsertBefore(erased, nil))
	require.NoError(t, c.Remove(erased))

	tests := []struct {
		name   string
		op     node.Opcode
		target node.Target
		args   []node.Arg
		kwargs node.Kwargs
		want   string
	}{
		{"bad opcode", node.Opcode(0), node.Path("x"), nil, nil, "invalid opcode"},
		{"nil target", node.CallFunction, nil, nil, nil, "nil target"},
		{"path for call_function", node.CallFunction, node.Path("relu"), nil, nil, "want a node.Function"},
		{"function for call_module", node.CallModule, relu, nil, nil, "want a node.Path"},
		{"bad module path", node.CallModule, node.Path("a..b"), nil, nil, "not a dotted path"},
		{"bad method", node.CallMethod, node.Path("a.b"), []node.Arg{x}, nil, "not a method name"},
		{"bad placeholder", node.Placeholder, node.Path("1x"), nil, nil, "not an identifier"},
		{"output target", node.Output, node.Path("out"), []node.Arg{x}, nil, `want "output"`},
		{"placeholder two args", node.Placeholder, node.Path("x"), []node.Arg{node.Int(1), node.Int(2)}, nil, "at most one argument"},
		{"placeholder node default", node.Placeholder, node.Path("y"), []node.Arg{x}, nil, "may not refer to nodes"},
		{"get_attr args", node.GetAttr, node.Path("w"), []node.Arg{node.Int(1)}, nil, "takes no arguments"},
		{"output no args", node.Output, node.Path("output"), nil, nil, "exactly one argument"},
		{"method no self", node.CallMethod, node.Path("relu"), nil, nil, "at least one argument"},
		{"nil arg", node.CallFunction, relu, []node.Arg{nil}, nil, "arg 0 is nil"},
		{"nil node", node.CallFunction, relu, []node.Arg{(*node.Node)(nil)}, nil, "nil *Node"},
		{"erased arg", node.CallFunction, relu, []node.Arg{erased}, nil, "erased node %gone"},
		{"nested nil", node.CallFunction, relu, []node.Arg{node.List{node.Int(1), node.Tuple{nil}}}, nil, "arg 0[1][0] is nil"},
		{"bad dtype", node.CallFunction, relu, []node.Arg{node.DType("float8")}, nil, `unknown dtype "float8"`},
		{"bad device", node.CallFunction, relu, []node.Arg{node.Device("cuda:x")}, nil, "malformed device"},
		{"bad layout", node.CallFunction, relu, []node.Arg{node.Layout("dense")}, nil, "unknown layout"},
		{"bad memory format", node.CallFunction, relu, []node.Arg{node.MemoryFormat("nhwc")}, nil, "unknown memory format"},
		{"dup dict key", node.CallFunction, relu, []node.Arg{node.Dict{{"a", node.Int(1)}, {"a", node.Int(2)}}}, nil, `duplicate key "a"`},
		{"dup kwarg", node.CallFunction, relu, nil, node.Kwargs{{"a", node.Int(1)}, {"a", node.Int(2)}}, `kwarg "a" given twice`},
		{"bad kwarg name", node.CallFunction, relu, nil, node.Kwargs{{"a b", node.Int(1)}}, "not an identifier"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := node.New("n", tt.op, tt.target, tt.args, tt.kwargs)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, strings.HasPrefix(err.Error(), "node %n"), "error names the node: %v", err)
		})
	}
	// A node of another chain is caught on insertion.
	n, err := node.New("n", node.CallFunction, relu, []node.Arg{ons[0]}, nil)
	require.NoError(t, err)
	assert.ErrorContains(t, c.InsertBefore(n, nil), "refers to node %x of another graph")
	require.NoError(t, c.Check())
}

func TestArgsCopiedOnCreate(t *testing.T) {
	_, ns := chainOf(t, 0)
	l := node.List{ns[0], node.Int(1)}
	n, err := node.New("n", node.CallFunction, relu, []node.Arg{l}, nil)
	require.NoError(t, err)
	l[1] = node.Int(99)
	assert.True(t, node.EqualArgs(n.Arg(0), node.List{ns[0], node.Int(1)}), "the node does not share its caller's list")
}

func TestSetArgsKeepsUseDef(t *testing.T) {
	c, ns := chainOf(t, 3) // x, r0, r1, r2
	x, r0, r1, r2 := ns[0], ns[1], ns[2], ns[3]
	steps := []struct {
		name string
		do   func() error
	}{
		{"SetArgs", func() error { return r2.SetArgs([]node.Arg{x, r0}) }},
		{"UpdateArg", func() error { return r2.UpdateArg(1, node.Tuple{r1, r1}) }},
		{"InsertArg", func() error { return r2.InsertArg(0, r0) }},
		{"UpdateKwarg", func() error { return r2.UpdateKwarg("other", x) }},
		{"UpdateKwarg replace", func() error { return r2.UpdateKwarg("other", node.Float(2)) }},
		{"SetKwargs", func() error { return r2.SetKwargs(node.Kwargs{{"k", node.Dict{{"a", r1}}}}) }},
		{"ReplaceInputWith", func() error { return r2.ReplaceInputWith(r1, x) }},
		{"DeleteKwarg", func() error { _, err := r2.DeleteKwarg("k"); return err }},
	}
	for _, s := range steps {
		require.NoError(t, s.do(), s.name)
		require.NoError(t, c.Check(), s.name)
		for _, in := range r2.AllInputNodes() {
			assert.True(t, in.HasUser(r2), "%s: %s lists r2", s.name, in.Name())
		}
	}
	assert.Equal(t, []string{"r0", "x"}, names(r2.AllInputNodes()))
	assert.Empty(t, r1.Users())
	assert.Equal(t, []string{"r0", "r2"}, names(x.Users()), "users in insertion order")

	// Errors change nothing.
	before := r2.Args()
	assert.ErrorContains(t, r2.UpdateArg(7, x), "out of range")
	assert.ErrorContains(t, r2.InsertArg(-1, x), "out of range")
	assert.ErrorContains(t, r2.SetArgs([]node.Arg{r2}), "refers to the node itself")
	assert.ErrorContains(t, r2.SetArgs([]node.Arg{nil}), "arg 0 is nil")
	assert.Empty(t, cmp.Diff(names(nodesIn(before)), names(nodesIn(r2.Args()))))
	require.NoError(t, c.Check())
}

func nodesIn(args []node.Arg) []*node.Node { return node.Nodes(node.Tuple(args)) }

func TestReplaceAllUsesWith(t *testing.T) {
	c, ns := chainOf(t, 0)
	x := ns[0]
	mk := func(name string, args ...node.Arg) *node.Node {
		n, err := node.New(name, node.CallFunction, add, args, nil)
		require.NoError(t, err)
		require.NoError(t, c.InsertBefore(n, nil))
		return n
	}
	a := mk("a", x, node.Float(1))
	b := mk("b", a, a)
	d := mk("d", node.List{a, x})
	e := mk("e", a)
	y := mk("y", x)
	node.StackTrace.Set(&a.Meta, "m.go:1")
	node.Val.Set(&y.Meta, node.TensorMeta{DType: node.Float32})

	changed, err := a.ReplaceAllUsesWith(y, func(u *node.Node) bool { return u != e }, true)
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "d"}, names(changed))
	assert.Equal(t, []string{"e"}, names(a.Users()))
	assert.Equal(t, []string{"b", "d"}, names(y.Users()))
	assert.True(t, node.EqualArgs(d.Arg(0), node.List{y, x}))
	assert.Equal(t, []string{"y"}, names(b.AllInputNodes()), "both uses in b are rewired")
	st, ok := node.StackTrace.Get(&y.Meta)
	assert.True(t, ok && st == "m.go:1", "missing metadata is propagated")
	_, ok = node.Val.Get(&y.Meta)
	assert.True(t, ok, "existing metadata is kept")
	require.NoError(t, c.Check())

	// The replacement never ends up using itself (FX's inserting_after gotcha).
	f := mk("f", e)
	changed, err = e.ReplaceAllUsesWith(f, nil, false)
	require.NoError(t, err)
	assert.Empty(t, changed)
	assert.Equal(t, []string{"e"}, names(f.AllInputNodes()))

	_, err = a.ReplaceAllUsesWith(a, nil, false)
	assert.ErrorContains(t, err, "cannot replace itself")
	_, err = a.ReplaceAllUsesWith(nil, nil, false)
	assert.ErrorContains(t, err, "nil replacement")
	_, ons := chainOf(t, 0)
	_, err = a.ReplaceAllUsesWith(ons[0], nil, false)
	assert.ErrorContains(t, err, "another graph")
	require.NoError(t, c.Check())
}

func TestManyUsers(t *testing.T) {
	c, ns := chainOf(t, 0)
	x := ns[0]
	var users []*node.Node
	for i := 0; i < 100; i++ {
		u, err := node.New(fmt.Sprint("u", i), node.CallFunction, relu, []node.Arg{x}, nil)
		require.NoError(t, err)
		require.NoError(t, c.InsertBefore(u, nil))
		users = append(users, u)
	}
	// Remove every third user; the rest keep their insertion order.
	var want []string
	for i, u := range users {
		if i%3 == 0 {
			require.NoError(t, c.Remove(u))
		} else {
			want = append(want, u.Name())
		}
	}
	assert.Equal(t, want, names(x.Users()))
	assert.Equal(t, len(want), x.NumUsers())
	require.NoError(t, c.Check())
}

func TestRemove(t *testing.T) {
	c, ns := chainOf(t, 2)
	assert.ErrorContains(t, c.Remove(ns[1]), "still has 1 user(s), first %r1")
	require.NoError(t, c.Remove(ns[2]))
	assert.True(t, ns[2].Erased())
	assert.Empty(t, ns[1].Users())
	assert.Equal(t, node.Arg(node.None), ns[2].Arg(0), "erased nodes drop their inputs")
	assert.ErrorContains(t, c.Remove(ns[2]), "already erased")
	assert.ErrorContains(t, ns[2].SetArgs(nil), "erased")
	_, ons := chainOf(t, 0)
	assert.ErrorContains(t, c.Remove(ons[0]), "another graph")
	require.NoError(t, c.Check())
	assert.Equal(t, 2, c.Len())
}

func TestIterationToleratesErasure(t *testing.T) {
	c, ns := chainOf(t, 5)
	var seen []string
	for n := range c.Backward() {
		seen = append(seen, n.Name())
		if n.NumUsers() == 0 && n.Op() != node.Placeholder {
			require.NoError(t, c.Remove(n))
		}
	}
	assert.Equal(t, []string{"r4", "r3", "r2", "r1", "r0", "x"}, seen)
	assert.Equal(t, 1, c.Len())
	assert.Nil(t, ns[0].Next())
	require.NoError(t, c.Check())
}

func TestOrderLabelsUnderHotSpotInsertion(t *testing.T) {
	// Insert many nodes at the same place: between the first two nodes, and
	// each time just after the previous insertion. Labels run out locally
	// again and again and must be respread.
	c, ns := chainOf(t, 1)
	x := ns[0]
	mark := x
	const n = 20000
	for i := 0; i < n; i++ {
		m, err := node.New(fmt.Sprint("h", i), node.CallFunction, relu, []node.Arg{x}, nil)
		require.NoError(t, err)
		require.NoError(t, c.InsertAfter(m, mark))
		mark = m
	}
	require.NoError(t, c.Check())
	got := all(c)
	require.Len(t, got, n+2)
	for i := 1; i < len(got); i++ {
		require.True(t, c.Before(got[i-1], got[i]))
	}
	assert.Equal(t, "h0", got[1].Name())
	assert.Equal(t, "r0", got[len(got)-1].Name())
	// And at the front.
	for i := 0; i < 1000; i++ {
		m, err := node.New(fmt.Sprint("p", i), node.Placeholder, node.Path(fmt.Sprint("p", i)), nil, nil)
		require.NoError(t, err)
		require.NoError(t, c.InsertAfter(m, nil))
	}
	require.NoError(t, c.Check())
	assert.Equal(t, "p999", c.Front().Name())
}

func TestMove(t *testing.T) {
	c, ns := chainOf(t, 0)
	x := ns[0]
	mk := func(name string, args ...node.Arg) *node.Node {
		n, err := node.New(name, node.CallFunction, add, args, nil)
		require.NoError(t, err)
		require.NoError(t, c.InsertBefore(n, nil))
		return n
	}
	a := mk("a", x)
	b := mk("b", x)
	d := mk("d", a)
	tests := []struct {
		name  string
		move  func() error
		want  string
		order []string
	}{
		{"a after b", func() error { return c.MoveAfter(a, b) }, "", []string{"x", "b", "a", "d"}},
		{"a back before b", func() error { return c.MoveBefore(a, b) }, "", []string{"x", "a", "b", "d"}},
		{"d before a: user before input", func() error { return c.MoveBefore(d, a) }, "its input %a would come after it", nil},
		{"a after d: input after user", func() error { return c.MoveAfter(a, d) }, "its user %d would come before it", nil},
		{"a before x", func() error { return c.MoveBefore(a, x) }, "its input %x would come after it", nil},
		{"b to the end", func() error { return c.MoveAfter(b, d) }, "", []string{"x", "a", "d", "b"}},
		{"self", func() error { return c.MoveAfter(b, b) }, "relative to itself", nil},
		{"nil", func() error { return c.MoveAfter(b, nil) }, "nil node", nil},
	}
	for _, tt := range tests {
		before := names(all(c))
		err := tt.move()
		if tt.want != "" {
			assert.ErrorContains(t, err, tt.want, tt.name)
			assert.Equal(t, before, names(all(c)), "%s: a failed move changes nothing", tt.name)
		} else {
			require.NoError(t, err, tt.name)
			assert.Equal(t, tt.order, names(all(c)), tt.name)
		}
		require.NoError(t, c.Check(), tt.name)
	}
}

func TestFindAndSetTarget(t *testing.T) {
	c, ns := chainOf(t, 6)
	require.Len(t, c.Find(node.CallFunction, relu), 6)
	require.NoError(t, ns[2].SetTarget(add))
	require.NoError(t, ns[5].SetTarget(add))
	assert.Equal(t, []string{"r1", "r4"}, names(c.Find(node.CallFunction, add)))
	assert.Equal(t, []string{"r0", "r2", "r3", "r5"}, names(c.Find(node.CallFunction, relu)))
	assert.Len(t, c.Find(node.CallFunction, nil), 6)
	assert.Equal(t, []string{"x"}, names(c.Find(node.Placeholder, nil)))
	assert.Empty(t, c.Find(node.CallModule, nil))
	// The same name is the same target.
	assert.Len(t, c.Find(node.CallFunction, node.MustFunc("aten.add.Tensor", false)), 2)
	assert.ErrorContains(t, ns[1].SetTarget(node.Path("relu")), "want a node.Function")
	require.NoError(t, c.Check())
	// Order follows moves.
	require.NoError(t, c.MoveAfter(ns[6], ns[5]))
	require.NoError(t, c.Remove(ns[6]))
	require.NoError(t, c.Check())
}

func TestImpure(t *testing.T) {
	c, ns := chainOf(t, 0)
	n, err := node.New("c", node.CallFunction, cp, []node.Arg{ns[0], ns[0]}, nil)
	require.NoError(t, err)
	require.NoError(t, c.InsertBefore(n, nil))
	assert.True(t, n.IsImpure())
	assert.True(t, ns[0].IsImpure(), "placeholders are impure")
	r, err := node.New("r", node.CallFunction, relu, []node.Arg{ns[0]}, nil)
	require.NoError(t, err)
	assert.False(t, r.IsImpure())
	m, err := node.New("m", node.CallModule, node.Path("fc"), []node.Arg{ns[0]}, nil)
	require.NoError(t, err)
	assert.False(t, m.IsImpure())
}

func TestMapArg(t *testing.T) {
	_, ns := chainOf(t, 1)
	x, r := ns[0], ns[1]
	a := node.Tuple{x, node.List{r, node.Int(1)}, node.Dict{{"k", x}}, node.Str("s")}
	got := node.MapArg(a, func(n *node.Node) node.Arg { return node.Str(n.Name()) })
	want := node.Tuple{node.Str("x"), node.List{node.Str("r0"), node.Int(1)}, node.Dict{{"k", node.Str("x")}}, node.Str("s")}
	assert.True(t, node.EqualArgs(want, got))
	assert.Equal(t, []string{"x", "r0"}, names(node.Nodes(a)))
	leaves := 0
	node.MapAggregate(a, func(v node.Arg) node.Arg { leaves++; return v })
	assert.Equal(t, 5, leaves)
}

func TestEqualArgs(t *testing.T) {
	nan := node.Float(math.NaN())
	tests := []struct {
		a, b node.Arg
		want bool
	}{
		{node.Int(1), node.Int(1), true},
		{node.Int(1), node.Float(1), false},
		{nan, nan, true},
		{node.Float(0), node.Float(math.Copysign(0, -1)), false},
		{node.List{node.Int(1)}, node.Tuple{node.Int(1)}, false},
		{node.Dict{{"a", node.None}}, node.Dict{{"a", node.None}}, true},
		{node.Dict{{"a", node.None}}, node.Dict{{"b", node.None}}, false},
		{node.Float32, node.DType("float32"), true},
		{node.Device("cpu"), node.Str("cpu"), false},
	}
	for i, tt := range tests {
		assert.Equal(t, tt.want, node.EqualArgs(tt.a, tt.b), "case %d", i)
	}
}

func TestMeta(t *testing.T) {
	var m node.Meta
	_, ok := node.Val.Get(&m)
	assert.False(t, ok)
	node.Val.Set(&m, node.TensorMeta{DType: node.Float32, Shape: []node.Dim{{Sym: "s0"}, {Size: 3}}})
	m.Set("custom", 3)
	node.StackTrace.Set(&m, "a.go:1")
	m.Set("custom", 4)
	assert.Equal(t, []string{"val", "custom", "stack_trace"}, m.Keys())
	v, ok := node.Val.Get(&m)
	require.True(t, ok)
	assert.Equal(t, "f32[s0, 3]", v.String())
	c := m.Clone()
	m.Delete("custom")
	assert.Equal(t, 2, m.Len())
	assert.Equal(t, 3, c.Len())
	got, _ := c.Get("custom")
	assert.Equal(t, 4, got)
	// A typed key does not return a value of another type.
	m.Set("stack_trace", 5)
	_, ok = node.StackTrace.Get(&m)
	assert.False(t, ok)
	assert.Equal(t, "(f32[2],)", node.ValueTuple{node.TensorMeta{DType: node.Float32, Shape: node.Dims(2)}}.String())
}

func TestDevice(t *testing.T) {
	for _, tt := range []struct {
		d     node.Device
		typ   string
		idx   int
		valid bool
	}{
		{"cpu", "cpu", -1, true}, {"cuda:0", "cuda", 0, true}, {"cuda:12", "cuda", 12, true},
		{"cuda:", "cuda", -2, false}, {"cuda:-1", "cuda", -2, false}, {":0", "", 0, false}, {"", "", -1, false},
	} {
		typ, idx := tt.d.Split()
		assert.Equal(t, tt.typ, typ, string(tt.d))
		assert.Equal(t, tt.idx, idx, string(tt.d))
		assert.Equal(t, tt.valid, tt.d.Valid(), string(tt.d))
	}
}

func TestNextPrevSkipErased(t *testing.T) {
	c, ns := chainOf(t, 4) // x r0 r1 r2 r3
	require.NoError(t, c.Remove(ns[4]))
	require.NoError(t, ns[4-1].SetArgs([]node.Arg{ns[0]}))
	require.NoError(t, c.Remove(ns[2]))
	require.NoError(t, ns[3].SetArgs([]node.Arg{ns[1]}))
	// x r0 r2 remain; a node erased while an iterator stood on it still
	// leads on to the live ones.
	assert.Equal(t, "r2", ns[1].Next().Name())
	assert.Equal(t, "r0", ns[3].Prev().Name())
	assert.Equal(t, "r2", ns[2].Next().Name(), "from an erased node")
	assert.Nil(t, ns[3].Next())
	assert.Nil(t, ns[0].Prev())
	assert.Equal(t, []string{"x", "r0", "r2"}, names(all(c)))
	require.NoError(t, c.Check())
}
