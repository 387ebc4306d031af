package pattern_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/golden"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/pattern"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

func parse(t *testing.T, text string) *graph.Graph {
	t.Helper()
	g, err := graph.Parse(text)
	require.NoError(t, err)
	return g
}

// names returns the names of the matched nodes of each match.
func names(ms []*pattern.Match) [][]string {
	var out [][]string
	for _, m := range ms {
		var s []string
		for _, n := range m.Nodes {
			s = append(s, n.Name())
		}
		out = append(out, s)
	}
	return out
}

// The example of torch.fx's replace_pattern docstring: two copies of
// cat([w1, w2]).sum() become stack([w1, w2]). gofx's reference backend has no
// kernel for the composite aten::stack, so the replacement spells it as
// cat of unsqueezes, which is how stack is defined.
type docModule struct{ nn.Base }

func (m *docModule) Forward(x, w1, w2 nn.Value) nn.Value {
	m1 := F.Cat([]nn.Value{w1, w2}, 0).Sum()
	m2 := F.Cat([]nn.Value{w1, w2}, 0).Sum()
	return x.Add(maxOf(m1)).Add(maxOf(m2))
}

// maxOf is torch.max(x), the max of all elements, as aten::amax over every
// dim (aten::max is composite, without a reference kernel).
func maxOf(x nn.Value) nn.Value {
	op, _ := ops.Global().Lookup("aten::amax")
	return nn.CallOp(op, x, []int64{})
}

func stackOf(w1, w2 nn.Value) nn.Value {
	return F.Cat([]nn.Value{w1.Unsqueeze(0), w2.Unsqueeze(0)}, 0)
}

func TestDocExample(t *testing.T) {
	m := &docModule{}
	m.Init(m, "M")
	gm, err := (&fx.Tracer{NumArgs: 3, ArgNames: []string{"x", "w1", "w2"}}).Trace(m)
	require.NoError(t, err)
	x, w1, w2 := testInput(t, 2, 3), testInput(t, 2, 3), testInput(t, 2, 3)
	pat := func(w1, w2 nn.Value) nn.Value { return F.Cat([]nn.Value{w1, w2}, 0).Sum() }
	ms, err := pattern.Replace(gm, pat, stackOf)
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"cat", "sum_1"}, {"cat_1", "sum_2"}}, names(ms))
	require.NoError(t, gm.Lint())
	golden.Check(t, "testdata/doc_example.txt", gm.Graph.String())
	// The replaced program computes x + max(stack) + max(stack), and the
	// max of stack([w1, w2]) is the max over both.
	got, err := gm.Run(nn.Tensor(x), nn.Tensor(w1), nn.Tensor(w2))
	require.NoError(t, err)
	mx := maxOf(F.Cat([]nn.Value{nn.Tensor(w1), nn.Tensor(w2)}, 0))
	want := nn.Tensor(x).Add(mx).Add(mx)
	assert.True(t, tensor.AllClose(want.Tensor(), got.Tensor(), 1e-6, 1e-6, false))
}

// The "replace_pattern: basic usage" example of the torch.fx examples: the
// pattern has an interior neg that the graph computes twice.
type basicModule struct{ nn.Base }

func (m *basicModule) Forward(x, w1, w2 nn.Value) nn.Value {
	val1 := w1.Neg()
	m1 := F.Cat([]nn.Value{val1, w2}, 0).Sum()
	val2 := w1.Neg()
	m2 := F.Cat([]nn.Value{val2, w2}, 0).Sum()
	return x.Add(maxOf(m1)).Add(maxOf(m2))
}

func TestBasicUsageExample(t *testing.T) {
	m := &basicModule{}
	m.Init(m, "M")
	gm, err := (&fx.Tracer{NumArgs: 3, ArgNames: []string{"x", "w1", "w2"}}).Trace(m)
	require.NoError(t, err)
	pat := func(a1, a2 nn.Value) nn.Value { return F.Cat([]nn.Value{a1.Neg(), a2}, 0).Sum() }
	ms, err := pattern.Replace(gm, pat, stackOf)
	require.NoError(t, err)
	require.Len(t, ms, 2)
	require.NoError(t, gm.Lint())
	assert.Empty(t, gm.Graph.FindNodes(node.CallMethod, node.Path("neg")))
	golden.Check(t, "testdata/basic_usage.txt", gm.Graph.String())
}

func TestNonOverlap(t *testing.T) {
	// a chain of four adds: add(add(x, y), z) matches (add, add_1) and
	// (add_2, add_3); add_1 cannot also be the inner add of add_2.
	g := parse(t, `
%x = placeholder "x"()
%y = placeholder "y"()
%add = call_function aten.add.Tensor(%x, %y)
%add_1 = call_function aten.add.Tensor(%add, %y)
%add_2 = call_function aten.add.Tensor(%add_1, %y)
%add_3 = call_function aten.add.Tensor(%add_2, %y)
%output = output "output"(%add_3)
`)
	p := parse(t, `
%a = placeholder "a"()
%b = placeholder "b"()
%c = placeholder "c"()
%inner = call_function aten.add.Tensor(%a, %b)
%outer = call_function aten.add.Tensor(%inner, %c)
%output = output "output"(%outer)
`)
	// b and c both bind y: allowed only with AllowSharedPlaceholders.
	ms, err := pattern.Find(g, p, pattern.NoCommutativity(), pattern.AllowSharedPlaceholders())
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"add", "add_1"}, {"add_2", "add_3"}}, names(ms))
}

func TestInteriorUsers(t *testing.T) {
	g := parse(t, `
%x = placeholder "x"()
%add = call_function aten.add.Scalar(%x, 1.0)
%relu = call_method "relu"(%add)
%add_1 = call_function aten.add.Scalar(%relu, 1.0)
%relu_1 = call_method "relu"(%add_1)
%mul = call_function aten.mul.Tensor(%add, %relu_1)
%output = output "output"(%mul)
`)
	ms, err := pattern.Find(g, chainPattern)
	require.NoError(t, err)
	// add escapes through mul: only the second block matches.
	assert.Equal(t, [][]string{{"add_1", "relu_1"}}, names(ms))
	relu, _ := g.Node("relu")
	why, err := pattern.Explain(g, chainPattern, relu)
	require.NoError(t, err)
	assert.Contains(t, why, "graph node %add (pattern node %add, not an output of the pattern) is also used by %mul outside the match")
}

func TestCommutative(t *testing.T) {
	g := parse(t, `
%x = placeholder "x"()
%y = placeholder "y"()
%relu = call_method "relu"(%y)
%mul = call_function aten.mul.Tensor(%x, %relu)
%relu_1 = call_method "relu"(%y)
%mul_1 = call_function aten.mul.Tensor(%relu_1, %x)
%add = call_function aten.add.Tensor(%mul, %mul_1)
%relu_2 = call_method "relu"(%y)
%add_1 = call_function aten.add.Tensor(%x, %relu_2, alpha=2)
%relu_3 = call_method "relu"(%y)
%sub = call_function aten.sub.Tensor(%x, %relu_3)
%output = output "output"((%add, %add_1, %sub))
`)
	tests := []struct {
		name string
		pat  func(a, b nn.Value) nn.Value
		opts []pattern.Option
		want [][]string
	}{
		{"mul either order", func(a, b nn.Value) nn.Value { return a.Relu().Mul(b) }, nil,
			[][]string{{"relu", "mul"}, {"relu_1", "mul_1"}}},
		{"mul exact order", func(a, b nn.Value) nn.Value { return a.Mul(b.Relu()) }, []pattern.Option{pattern.NoCommutativity()},
			[][]string{{"relu", "mul"}}},
		{"mul exact order refuses swapped", func(a, b nn.Value) nn.Value { return a.Relu().Mul(b) }, []pattern.Option{pattern.NoCommutativity()},
			[][]string{{"relu_1", "mul_1"}}},
		{"sub is not commutative", func(a, b nn.Value) nn.Value { return a.Relu().Sub(b) }, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := pattern.Find(g, tt.pat, tt.opts...)
			require.NoError(t, err)
			assert.Equal(t, tt.want, names(ms))
		})
	}
	// add.Tensor with alpha 2 is not commutative: x + 2*relu only matches
	// with the operands in order.
	p := parse(t, `
%a = placeholder "a"()
%b = placeholder "b"()
%r = call_method "relu"(%b)
%s = call_function aten.add.Tensor(%r, %a, alpha=2)
%output = output "output"(%s)
`)
	ms, err := pattern.Find(g, p)
	require.NoError(t, err)
	assert.Empty(t, ms)
	add1, _ := g.Node("add_1")
	why, err := pattern.Explain(g, p, add1)
	require.NoError(t, err)
	assert.Contains(t, why, "pattern node %r is call_method, graph node %x is placeholder")
	assert.NotContains(t, why, "%relu_2 is", "no swapped alternative is tried")
}

func TestCommutativeNumerics(t *testing.T) {
	// y*relu(x) with the pattern relu(a)*b replaced by b*a.clamp_min(0): same
	// values through the interpreter.
	gm, err := fx.SymbolicTraceFunc(func(x, y nn.Value) nn.Value { return y.Mul(x.Relu()) })
	require.NoError(t, err)
	x, y := testInput(t, 3, 4), testInput(t, 4)
	want, err := gm.Run(nn.Tensor(x), nn.Tensor(y))
	require.NoError(t, err)
	clampMin := mustOp(t, "aten::clamp_min")
	ms, err := pattern.Replace(gm, func(a, b nn.Value) nn.Value { return a.Relu().Mul(b) },
		func(a, b nn.Value) nn.Value { return b.Mul(nn.CallOp(clampMin, a, 0.0)) })
	require.NoError(t, err)
	require.Len(t, ms, 1)
	require.NoError(t, gm.Lint())
	got, err := gm.Run(nn.Tensor(x), nn.Tensor(y))
	require.NoError(t, err)
	assert.True(t, tensor.AllClose(want.Tensor(), got.Tensor(), 0, 0, false))
}

func TestLiterals(t *testing.T) {
	g := parse(t, `
%x = placeholder "x"()
%add = call_function aten.add.Scalar(%x, 1.0)
%relu = call_method "relu"(%add)
%add_1 = call_function aten.add.Scalar(%relu, 2.5)
%relu_1 = call_method "relu"(%add_1)
%add_2 = call_function aten.add.Scalar(%relu_1, 3)
%relu_2 = call_method "relu"(%add_2)
%output = output "output"(%relu_2)
`)
	tests := []struct {
		name string
		opts []pattern.Option
		want [][]string
		lits []node.Arg
	}{
		{"exact literal", nil, [][]string{{"add", "relu"}}, nil},
		{"wildcard other", []pattern.Option{pattern.Literal("add", "other")},
			[][]string{{"add", "relu"}, {"add_1", "relu_1"}, {"add_2", "relu_2"}},
			[]node.Arg{node.Float(1), node.Float(2.5), node.Int(3)}},
		{"any literal", []pattern.Option{pattern.AnyLiterals()},
			[][]string{{"add", "relu"}, {"add_1", "relu_1"}, {"add_2", "relu_2"}},
			[]node.Arg{node.Float(1), node.Float(2.5), node.Int(3)}},
		{"filter on the literal", []pattern.Option{pattern.Literal("add", "other"), pattern.WithFilter(func(m *pattern.Match) bool {
			v, _ := m.Binding("add.other")
			f, ok := v.(node.Float)
			return ok && f > 2
		})}, [][]string{{"add_1", "relu_1"}}, []node.Arg{node.Float(2.5)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := pattern.Find(g, chainPattern, tt.opts...)
			require.NoError(t, err)
			assert.Equal(t, tt.want, names(ms))
			if tt.lits != nil {
				var lits []node.Arg
				for _, m := range ms {
					v, ok := m.Binding("add.other")
					require.True(t, ok)
					lits = append(lits, v)
				}
				assert.Equal(t, tt.lits, lits)
			}
		})
	}
}

func TestLiteralIntoReplacement(t *testing.T) {
	// The replacement's extra placeholder receives the matched literal.
	gm, err := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value { return x.Add(2.5).Relu().Add(-1.0).Relu() })
	require.NoError(t, err)
	x := testInput(t, 8)
	want, err := gm.Run(nn.Tensor(x))
	require.NoError(t, err)
	clampMin := mustOp(t, "aten::clamp_min")
	addScalar := mustOp(t, "aten::add.Scalar")
	repl := parse(t, `
%x = placeholder "x"()
%c = placeholder "c"()
%add = call_function aten.add.Scalar(%x, %c)
%clamp_min = call_function aten.clamp_min.default(%add, 0.0)
%output = output "output"(%clamp_min)
`)
	ms, err := pattern.Replace(gm, chainPattern, repl, pattern.Literal("add", "other"))
	require.NoError(t, err)
	require.Len(t, ms, 2)
	require.NoError(t, gm.Lint())
	assert.Len(t, gm.Graph.FindNodes(node.CallFunction, clampMin), 2)
	var lits []string
	for _, n := range gm.Graph.FindNodes(node.CallFunction, addScalar) {
		lits = append(lits, fmt.Sprint(n.Arg(1)))
	}
	assert.Equal(t, []string{"2.5", "-1"}, lits)
	got, err := gm.Run(nn.Tensor(x))
	require.NoError(t, err)
	assert.True(t, tensor.AllClose(want.Tensor(), got.Tensor(), 0, 0, false))
}

func TestDefaultsNormalization(t *testing.T) {
	g := parse(t, `
%x = placeholder "x"()
%y = placeholder "y"()
%add = call_function aten.add.Tensor(%x, %y)
%add_1 = call_function aten.add.Tensor(%x, %y, alpha=1)
%add_2 = call_function aten.add.Tensor(self=%x, other=%y)
%add_3 = call_function aten.add.Tensor(%x, %y, alpha=2)
%sum_1 = call_function aten.sum.dim_IntList(%add, [1])
%sum_2 = call_function aten.sum.dim_IntList(%add_1, [1], False, dtype=None)
%output = output "output"((%sum_1, %sum_2, %add_2, %add_3))
`)
	tests := []struct {
		name, pat string
		want      [][]string
	}{
		{"no alpha", `
%a = placeholder "a"()
%b = placeholder "b"()
%s = call_function aten.add.Tensor(%a, %b)
%output = output "output"(%s)
`, [][]string{{"add"}, {"add_1"}, {"add_2"}}},
		{"alpha=1 keyword", `
%a = placeholder "a"()
%b = placeholder "b"()
%s = call_function aten.add.Tensor(%a, %b, alpha=1)
%output = output "output"(%s)
`, [][]string{{"add"}, {"add_1"}, {"add_2"}}},
		{"alpha=2", `
%a = placeholder "a"()
%b = placeholder "b"()
%s = call_function aten.add.Tensor(%a, other=%b, alpha=2)
%output = output "output"(%s)
`, [][]string{{"add_3"}}},
		{"sum keepdim default", `
%a = placeholder "a"()
%s = call_function aten.sum.dim_IntList(%a, [1], keepdim=False)
%output = output "output"(%s)
`, [][]string{{"sum_1"}, {"sum_2"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := pattern.Find(g, parse(t, tt.pat))
			require.NoError(t, err)
			assert.Equal(t, tt.want, names(ms))
		})
	}
}

func TestMultiOutput(t *testing.T) {
	gm, err := fx.SymbolicTraceFunc(func(x, y nn.Value) nn.Value {
		s, p := x.Add(y), x.Mul(y)
		return s.Relu().Add(p.Sigmoid())
	})
	require.NoError(t, err)
	x, y := testInput(t, 4), testInput(t, 3, 4)
	want, err := gm.Run(nn.Tensor(x), nn.Tensor(y))
	require.NoError(t, err)
	pat := func(a, b nn.Value) nn.Value { return nn.Tuple(a.Add(b), a.Mul(b)) }
	// A replacement with the wrong arity is refused before anything changes.
	_, err = pattern.Replace(gm, pat, func(a, b nn.Value) nn.Value { return a.Add(b) })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "returns 1 values but pattern add,mul returns 2")
	_, err = pattern.Replace(gm, pat, func(a nn.Value) nn.Value { return nn.Tuple(a, a) })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "takes 1 inputs but pattern add,mul has 2 placeholders [x0 x1]")
	// (a+b, a*b) computed as (b+a, b*a) in one go.
	ms, err := pattern.Replace(gm, pat, func(a, b nn.Value) nn.Value { return nn.Tuple(b.Add(a), b.Mul(a)) })
	require.NoError(t, err)
	require.Len(t, ms, 1)
	assert.Len(t, ms[0].Outputs, 2)
	require.NoError(t, gm.Lint())
	golden.Check(t, "testdata/multi_output.txt", gm.Graph.String())
	got, err := gm.Run(nn.Tensor(x), nn.Tensor(y))
	require.NoError(t, err)
	assert.True(t, tensor.AllClose(want.Tensor(), got.Tensor(), 0, 0, false))
}

func TestCycleRejected(t *testing.T) {
	// Fusing (add, mul) into one would need mul's input g(relu(add)) before
	// the fused node and after it.
	g := parse(t, `
%x = placeholder "x"()
%y = placeholder "y"()
%add = call_function aten.add.Tensor(%x, %y)
%relu = call_method "relu"(%add)
%mul = call_function aten.mul.Tensor(%relu, %y)
%output = output "output"((%add, %mul))
`)
	p := parse(t, `
%a = placeholder "a"()
%b = placeholder "b"()
%c = placeholder "c"()
%s = call_function aten.add.Tensor(%a, %b)
%m = call_function aten.mul.Tensor(%c, %b)
%output = output "output"((%s, %m))
`)
	ms, err := pattern.Find(g, p, pattern.NoCommutativity())
	require.NoError(t, err)
	assert.Empty(t, ms)
	add, _ := g.Node("add")
	why, err := pattern.Explain(g, p, add, pattern.NoCommutativity())
	require.NoError(t, err)
	assert.Contains(t, why, "replacing the match would make a cycle: %add -> %relu (an input of the match)")
}

func TestMoveUsersAfterInputs(t *testing.T) {
	// The users of the first output that come before the last input move
	// after it; the result lints and computes the same.
	gm, err := fx.SymbolicTraceFunc(func(x, y nn.Value) nn.Value {
		s := x.Add(y)
		t := s.Sigmoid()
		z := y.Tanh()
		return t.Add(x.Mul(z))
	})
	require.NoError(t, err)
	x, y := testInput(t, 4), testInput(t, 4)
	want, err := gm.Run(nn.Tensor(x), nn.Tensor(y))
	require.NoError(t, err)
	pat := func(a, b, c nn.Value) nn.Value { return nn.Tuple(a.Add(b), a.Mul(c)) }
	ms, err := pattern.Replace(gm, pat, func(a, b, c nn.Value) nn.Value { return nn.Tuple(b.Add(a), c.Mul(a)) }, pattern.NoCommutativity())
	require.NoError(t, err)
	require.Len(t, ms, 1)
	require.NoError(t, gm.Lint())
	got, err := gm.Run(nn.Tensor(x), nn.Tensor(y))
	require.NoError(t, err)
	assert.True(t, tensor.AllClose(want.Tensor(), got.Tensor(), 0, 0, false))
}

func TestReplaceFunc(t *testing.T) {
	// Each match gets the replacement its literal asks for: adding 0 drops
	// the add, anything else becomes clamp_min(x + c, 0).
	gm, err := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value { return x.Add(0.0).Relu().Add(2.0).Relu().Add(5.0).Relu() })
	require.NoError(t, err)
	x := testInput(t, 6)
	want, err := gm.Run(nn.Tensor(x))
	require.NoError(t, err)
	clampMin := mustOp(t, "aten::clamp_min")
	var calls []string
	ms, err := pattern.ReplaceFunc(gm, chainPattern, func(m *pattern.Match) (any, error) {
		c, _ := m.Binding("add.other")
		calls = append(calls, fmt.Sprint(c))
		switch c {
		case node.Float(0):
			return func(x nn.Value) nn.Value { return x.Relu() }, nil
		case node.Float(5):
			return nil, nil // left alone
		}
		return func(x nn.Value) nn.Value { return nn.CallOp(clampMin, x.Add(float64(c.(node.Float))), 0.0) }, nil
	}, pattern.Literal("add", "other"))
	require.NoError(t, err)
	assert.Equal(t, []string{"0", "2", "5"}, calls)
	assert.Len(t, ms, 2)
	require.NoError(t, gm.Lint())
	golden.Check(t, "testdata/replace_func.txt", gm.Graph.String())
	got, err := gm.Run(nn.Tensor(x))
	require.NoError(t, err)
	assert.True(t, tensor.AllClose(want.Tensor(), got.Tensor(), 0, 0, false))

	_, err = pattern.ReplaceFunc(gm, chainPattern, func(m *pattern.Match) (any, error) {
		return nil, fmt.Errorf("no replacement for %s", m.Anchor)
	}, pattern.Literal("add", "other"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "pattern.ReplaceFunc: pattern relu at %relu_2: no replacement for relu_2")
}

func TestFilterSeesMetadata(t *testing.T) {
	m := newTwoBlocks()
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	// Only the block under "second".
	ms, err := pattern.Find(gm, chainPattern, pattern.WithFilter(func(m *pattern.Match) bool {
		st, _ := node.ModuleStack.Get(&m.Node("relu").Meta)
		return len(st) > 0 && st[0].Path == "second"
	}))
	require.NoError(t, err)
	require.Len(t, ms, 1)
	assert.Equal(t, "relu_1", ms[0].Anchor.Name())
	lin, ok := ms[0].Binding("x")
	require.True(t, ok)
	assert.Equal(t, "second_lin", fmt.Sprint(lin))
}

type block struct {
	nn.Base
	Lin *nn.Linear
}

func (b *block) Forward(x nn.Value) nn.Value { return b.Lin.Call(x).Add(1.0).Relu() }

type twoBlocks struct {
	nn.Base
	First, Second *block
}

func newBlock() *block {
	b := &block{}
	b.Init(b, "Block")
	b.Lin = nn.RegisterModule(&b.Base, "lin", nn.NewLinear(4, 4, true))
	return b
}

func newTwoBlocks() *twoBlocks {
	m := &twoBlocks{}
	m.Init(m, "TwoBlocks")
	m.First = nn.RegisterModule(&m.Base, "first", newBlock())
	m.Second = nn.RegisterModule(&m.Base, "second", newBlock())
	return m
}

func (m *twoBlocks) Forward(x nn.Value) nn.Value { return nn.Call(m.Second, nn.Call(m.First, x)) }

func TestModuleTypeMatching(t *testing.T) {
	gm, err := fx.SymbolicTrace(newTwoBlocks())
	require.NoError(t, err)
	// A pattern module calling a Linear at another path matches both blocks'
	// Linears by type.
	p := newBlock()
	ms, err := pattern.Find(gm, p)
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"first_lin", "add", "relu"}, {"second_lin", "add_1", "relu_1"}}, names(ms))
	// By path, the pattern's "lin" is no module of the target.
	ms, err = pattern.Find(gm, p, pattern.ModulesByPath())
	require.NoError(t, err)
	assert.Empty(t, ms)
	relu, _ := gm.Graph.Node("relu")
	why, err := pattern.Explain(gm, p, relu, pattern.ModulesByPath())
	require.NoError(t, err)
	assert.Contains(t, why, "pattern node %lin is call_module lin, graph node %first_lin is call_module first.lin")
}

func TestMetadata(t *testing.T) {
	gm, err := fx.SymbolicTrace(newTwoBlocks())
	require.NoError(t, err)
	_, err = shapeprop.Propagate(gm, nn.Tensor(testInput(t, 2, 4)))
	require.NoError(t, err)
	relu, _ := gm.Graph.Node("relu")
	anchorTrace, _ := node.StackTrace.Get(&relu.Meta)
	anchorStack, _ := node.ModuleStack.Get(&relu.Meta)
	ms, err := pattern.Replace(gm, chainPattern, chainReplacement(t), pattern.Name("add_relu"))
	require.NoError(t, err)
	require.Len(t, ms, 2)
	require.NoError(t, gm.Lint())
	require.Len(t, ms[0].Replacement, 2)
	for _, n := range ms[0].Replacement {
		v, ok := node.Val.Get(&n.Meta)
		require.True(t, ok, "val of %s", n)
		assert.Equal(t, "f32[2, 4]", v.String(), n.Name())
		_, isMeta := v.(node.TensorMeta)
		assert.True(t, isMeta, "val keeps Propagate's form")
		st, _ := node.StackTrace.Get(&n.Meta)
		assert.True(t, strings.HasPrefix(st, anchorTrace), st)
		assert.True(t, strings.HasSuffix(st, "rewritten by pattern.Replace: pattern add_relu -> replacement clamp_min\n"), st)
		ms, _ := node.ModuleStack.Get(&n.Meta)
		assert.Equal(t, anchorStack, ms)
	}
	// Without vals on the matched nodes, none is invented.
	gm2, err := fx.SymbolicTrace(newTwoBlocks())
	require.NoError(t, err)
	ms, err = pattern.Replace(gm2, chainPattern, chainReplacement(t))
	require.NoError(t, err)
	_, ok := node.Val.Get(&ms[0].Replacement[0].Meta)
	assert.False(t, ok)
}

func TestFakeVals(t *testing.T) {
	// With FakeProp's *Fake vals (symbolic batch), the new nodes get *Fake vals.
	gm, err := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value { return x.Add(1.0).Relu().Sum() })
	require.NoError(t, err)
	env := newEnvWithBatch(t)
	_, err = shapeprop.FakeProp(gm, env, fakeBatch(env))
	require.NoError(t, err)
	ms, err := pattern.Replace(gm, chainPattern, chainReplacement(t))
	require.NoError(t, err)
	require.Len(t, ms, 1)
	for _, n := range ms[0].Replacement {
		v, ok := node.Val.Get(&n.Meta)
		require.True(t, ok)
		_, isFake := v.(*shapeprop.Fake)
		assert.True(t, isFake)
		assert.Equal(t, "f32[s0, 3]", v.String())
	}
}

func TestLongChainNoRecursion(t *testing.T) {
	// 100,000 blocks built directly (tracing that many is the tracer's
	// benchmark, not ours) and a pattern 200 operators deep.
	const n = 100000
	var b strings.Builder
	b.WriteString("%x = placeholder \"x\"()\n")
	prev := "x"
	for i := range n {
		fmt.Fprintf(&b, "%%a%d = call_function aten.add.Scalar(%%%s, 1.0)\n%%r%d = call_method \"relu\"(%%a%d)\n", i, prev, i, i)
		prev = fmt.Sprintf("r%d", i)
	}
	fmt.Fprintf(&b, "%%output = output \"output\"(%%%s)\n", prev)
	g := parse(t, b.String())
	ms, err := pattern.Replace(g, chainPattern, chainReplacement(t))
	require.NoError(t, err)
	assert.Len(t, ms, n)
	require.NoError(t, g.Lint())
	assert.Equal(t, 2*n+2, g.Len())

	deep := func(x nn.Value) nn.Value {
		for range 100 {
			x = x.Add(1.0).Relu()
		}
		return x
	}
	g2 := parse(t, b.String())
	ms, err = pattern.Find(g2, deep)
	require.NoError(t, err)
	assert.Len(t, ms, n/100)
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name string
		src  any
		opts []pattern.Option
		want string
	}{
		{"dead code", `
%x = placeholder "x"()
%dead = call_method "sigmoid"(%x)
%relu = call_method "relu"(%x)
%output = output "output"(%relu)
`, nil, "pattern.Compile: pattern relu: dead code: node %dead is not used by the pattern's output"},
		{"unused placeholder", `
%x = placeholder "x"()
%y = placeholder "y"()
%relu = call_method "relu"(%x)
%output = output "output"(%relu)
`, nil, "pattern.Compile: pattern relu: dead code: placeholder %y is not used"},
		{"empty", `
%x = placeholder "x"()
%output = output "output"(%x)
`, nil, "empty pattern: it computes nothing"},
		{"unknown op", `
%x = placeholder "x"()
%f = call_function mylib.frobnicate.default(%x)
%output = output "output"(%f)
`, nil, "node %f calls mylib.frobnicate.default, an unknown operator"},
		{"literal wildcard on a node", `
%x = placeholder "x"()
%add = call_function aten.add.Tensor(%x, %x)
%output = output "output"(%add)
`, []pattern.Option{pattern.Literal("add", "other")}, `Literal("add", "other"): the pattern passes a node there (%x)`},
		{"literal wildcard, no such argument", `
%x = placeholder "x"()
%add = call_function aten.add.Scalar(%x, 1)
%output = output "output"(%add)
`, []pattern.Option{pattern.Literal("add", "beta")}, `Literal("add", "beta"): node %add has no argument "beta" (it has [self other alpha])`},
		{"literal wildcard, no such node", `
%x = placeholder "x"()
%add = call_function aten.add.Scalar(%x, 1)
%output = output "output"(%add)
`, []pattern.Option{pattern.Literal("mul", "other")}, `Literal("mul", "other"): the pattern has no node called "mul"`},
		{"not a function", 42, nil, "cannot make a graph of int"},
		{"bad function", func(x int) int { return x }, nil, "must take nn.Value parameters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src
			if s, ok := src.(string); ok {
				g, err := graph.Parse(s, graph.WithResolver(func(name string) (node.Function, error) {
					if f, ok := node.LookupFunction(name); ok {
						return f, nil
					}
					return node.NewFunc(name, false)
				}))
				require.NoError(t, err)
				src = g
			}
			_, err := pattern.Compile(src, tt.opts...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestBadTargets(t *testing.T) {
	_, err := pattern.Find(42, chainPattern)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot match in int")
	_, err = pattern.Replace((*fx.GraphModule)(nil), chainPattern, chainPattern)
	require.Error(t, err)
	_, err = pattern.ReplaceFunc(graph.New(), chainPattern, nil)
	require.Error(t, err)
	g := parse(t, `
%x = placeholder "x"()
%add = call_function aten.add.Scalar(%x, 1.0)
%relu = call_method "relu"(%add)
%output = output "output"(%relu)
`)
	other := parse(t, `
%y = placeholder "y"()
%output = output "output"(%y)
`)
	y, _ := other.Node("y")
	_, err = pattern.Explain(g, chainPattern, y)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is not a live node of the graph")
}

func newEnvWithBatch(t *testing.T) *sym.Env {
	env := sym.NewEnv()
	_, err := env.NewSymbol("s0", 5, sym.Range{Lo: 2, Hi: sym.Inf})
	require.NoError(t, err)
	return env
}

func fakeBatch(env *sym.Env) *shapeprop.Fake {
	s0, _ := env.Lookup("s0")
	return shapeprop.NewFake(tensor.Float32, s0.Expr(), 3)
}
