package pattern_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pattern"
	"github.com/gofx/gofx/tensor"
)

// The matching rules that follow torch.fx by default, each with the option
// that restores the looser (or stricter) form gofx had before.

// geluNet applies two GELU layers configured differently.
type geluNet struct {
	nn.Base
	Exact, Tanh *nn.GELU
}

func newGeluNet() *geluNet {
	m := &geluNet{}
	m.Init(m, "GeluNet")
	m.Exact = nn.RegisterModule(&m.Base, "exact", nn.NewGELU("none"))
	m.Tanh = nn.RegisterModule(&m.Base, "approx", nn.NewGELU("tanh"))
	return m
}

func (m *geluNet) Forward(x nn.Value) nn.Value {
	return nn.Call(m.Tanh, nn.Call(m.Exact, x).Neg()).Neg()
}

// geluPattern is GELU(approximate) followed by neg, as a module.
type geluPattern struct {
	nn.Base
	Act *nn.GELU
}

func newGeluPattern(approximate string) *geluPattern {
	m := &geluPattern{}
	m.Init(m, "GeluPattern")
	m.Act = nn.RegisterModule(&m.Base, "act", nn.NewGELU(approximate))
	return m
}

func (m *geluPattern) Forward(x nn.Value) nn.Value { return nn.Call(m.Act, x).Neg() }

func TestModuleConfiguration(t *testing.T) {
	gm, err := fx.SymbolicTrace(newGeluNet())
	require.NoError(t, err)
	tests := []struct {
		name string
		pat  nn.Module
		opts []pattern.Option
		want [][]string
	}{
		{"tanh matches the tanh layer only", newGeluPattern("tanh"), nil, [][]string{{"approx", "neg_1"}}},
		{"none matches the exact layer only", newGeluPattern("none"), nil, [][]string{{"exact", "neg"}}},
		{"ModulesByType ignores the configuration", newGeluPattern("tanh"), []pattern.Option{pattern.ModulesByType()},
			[][]string{{"exact", "neg"}, {"approx", "neg_1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := pattern.Find(gm, tt.pat, tt.opts...)
			require.NoError(t, err)
			assert.Equal(t, tt.want, names(ms))
		})
	}
	neg, _ := gm.Graph.Node("neg")
	why, err := pattern.Explain(gm, newGeluPattern("tanh"), neg)
	require.NoError(t, err)
	assert.Contains(t, why, "pattern node %act calls GELU(approximate='tanh')")
	assert.Contains(t, why, "graph node %exact calls exact, configured GELU(approximate='none')")

	// Replacing the tanh GELU leaves the exact one alone: the outputs equal
	// the model's with the tanh layer swapped for the exact formula.
	x := testInput(t, 2, 5)
	want, err := gm.Run(nn.Tensor(x))
	require.NoError(t, err)
	ms, err := pattern.Replace(gm, newGeluPattern("tanh"), func(x nn.Value) nn.Value {
		return F.GELU(x, "tanh").Neg()
	})
	require.NoError(t, err)
	require.Len(t, ms, 1)
	require.NoError(t, gm.Lint())
	assert.Len(t, gm.Graph.FindNodes(node.CallModule, node.Path("exact")), 1)
	got, err := gm.Run(nn.Tensor(x))
	require.NoError(t, err)
	assert.True(t, tensor.AllClose(want.Tensor(), got.Tensor(), 1e-6, 1e-6, false))
}

func TestMethodMatchesFunction(t *testing.T) {
	// An exported-style graph (call_function aten ops) and a traced one
	// (call_method for the tensor methods).
	exported := parse(t, `
%x = placeholder "x"()
%sigmoid = call_function aten.sigmoid.default(%x)
%mul = call_function aten.mul.Tensor(%x, %sigmoid)
%sum_1 = call_function aten.sum.default(%mul)
%output = output "output"(%sum_1)
`)
	traced := parse(t, `
%x = placeholder "x"()
%sigmoid = call_method "sigmoid"(%x)
%mul = call_function aten.mul.Tensor(%x, %sigmoid)
%sum_1 = call_method "sum"(%mul)
%output = output "output"(%sum_1)
`)
	method := func(x nn.Value) nn.Value { return x.Mul(x.Sigmoid()) }
	function := func(x nn.Value) nn.Value { return x.Mul(F.Sigmoid(x)) }
	sumMethod := func(x nn.Value) nn.Value { return x.Sigmoid().Sum() }
	tests := []struct {
		name string
		g    string
		pat  any
		opts []pattern.Option
		want [][]string
	}{
		{"method pattern, exported graph", "exported", method, nil, [][]string{{"sigmoid", "mul"}}},
		{"function pattern, traced graph", "traced", function, nil, [][]string{{"sigmoid", "mul"}}},
		{"method pattern, traced graph", "traced", method, nil, [][]string{{"sigmoid", "mul"}}},
		{"two methods, exported graph", "exported", func(x nn.Value) nn.Value { return x.Mul(x.Sigmoid()).Sum() }, nil,
			[][]string{{"sigmoid", "mul", "sum_1"}}},
		{"other op", "exported", sumMethod, nil, nil},
		{"StrictSpelling", "exported", method, []pattern.Option{pattern.StrictSpelling()}, nil},
		{"StrictSpelling, same spelling", "traced", method, []pattern.Option{pattern.StrictSpelling()}, [][]string{{"sigmoid", "mul"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := exported
			if tt.g == "traced" {
				g = traced
			}
			ms, err := pattern.Find(g, tt.pat, tt.opts...)
			require.NoError(t, err)
			assert.Equal(t, tt.want, names(ms))
		})
	}
	mul, _ := exported.Node("mul")
	why, err := pattern.Explain(exported, method, mul, pattern.StrictSpelling())
	require.NoError(t, err)
	assert.Contains(t, why, "pattern node %sigmoid is call_method sigmoid, graph node %sigmoid is call_function aten.sigmoid.default (StrictSpelling: no other spelling)")
}

func TestPlaceholderBindsLiteralAnyOverload(t *testing.T) {
	// x ** 2 records pow.Tensor_Scalar, as PyTorch records it (named pow_1:
	// torch.fx avoids the builtin's name); the pattern x ** num records
	// pow.Tensor_Tensor. As in torch.fx, num binds 2.
	gm, err := fx.SymbolicTraceFunc(func(x, y nn.Value) nn.Value {
		return x.Pow(2).Relu().Pow(y).Relu()
	})
	require.NoError(t, err)
	pat := func(x, num nn.Value) nn.Value { return x.Pow(num).Relu() }
	ms, err := pattern.Find(gm, pat)
	require.NoError(t, err)
	require.Len(t, ms, 2)
	num, _ := ms[0].Binding("x1")
	assert.Equal(t, node.Int(2), num)
	y, _ := ms[1].Binding("x1")
	assert.Equal(t, "x1", y.(*node.Node).Name(), "the traced function's second input")

	ms, err = pattern.Find(gm, pat, pattern.StrictOverloads())
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"pow_2", "relu_1"}}, names(ms))
	relu, _ := gm.Graph.Node("relu")
	why, err := pattern.Explain(gm, pat, relu, pattern.StrictOverloads())
	require.NoError(t, err)
	assert.Contains(t, why, "pattern node %pow_1 calls aten.pow.Tensor_Tensor, graph node %pow_1 calls aten.pow.Tensor_Scalar (StrictOverloads: no other overload)")
}

func TestReplaceResolvesOverloads(t *testing.T) {
	// The replacement x * num records mul.Tensor; bound to the literal 2 it
	// stays mul.Tensor(x, 2), 2 a wrapped number, as PyTorch's Python x * 2
	// records it (make_fx and torch.export, checked with PyTorch 2.6); the
	// replacement x ** num becomes pow.Tensor_Scalar, the overload Python
	// calls for a number exponent.
	gm, err := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value { return x.Add(2).Relu() })
	require.NoError(t, err)
	ms, err := pattern.Replace(gm,
		func(x, num nn.Value) nn.Value { return x.Add(num).Relu() },
		func(x, num nn.Value) nn.Value { return x.Mul(num) })
	require.NoError(t, err)
	require.Len(t, ms, 1)
	require.NoError(t, gm.Lint())
	require.Len(t, ms[0].Replacement, 1)
	assert.Equal(t, "aten.mul.Tensor", ms[0].Replacement[0].Target().String())
	x := testInput(t, 3)
	got, err := gm.Run(nn.Tensor(x))
	require.NoError(t, err)
	want := nn.Tensor(x).Mul(2)
	assert.True(t, tensor.AllClose(want.Tensor(), got.Tensor(), 0, 0, false))

	gm, err = fx.SymbolicTraceFunc(func(x nn.Value) nn.Value { return x.Add(2).Relu() })
	require.NoError(t, err)
	ms, err = pattern.Replace(gm,
		func(x, num nn.Value) nn.Value { return x.Add(num).Relu() },
		func(x, num nn.Value) nn.Value { return x.Pow(num) })
	require.NoError(t, err)
	require.Len(t, ms, 1)
	assert.Equal(t, "aten.pow.Tensor_Scalar", ms[0].Replacement[0].Target().String())
}

func TestDistinctPlaceholders(t *testing.T) {
	g := parse(t, `
%a = placeholder "a"()
%b = placeholder "b"()
%add = call_function aten.add.Tensor(%a, %a)
%mul = call_function aten.mul.Tensor(%add, %b)
%add_1 = call_function aten.add.Tensor(%mul, %b)
%output = output "output"(%add_1)
`)
	pat := func(x, y nn.Value) nn.Value { return x.Add(y) }
	ms, err := pattern.Find(g, pat)
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"add_1"}}, names(ms))
	ms, err = pattern.Find(g, pat, pattern.AllowSharedPlaceholders())
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"add"}, {"add_1"}}, names(ms))
	add, _ := g.Node("add")
	why, err := pattern.Explain(g, pat, add)
	require.NoError(t, err)
	assert.Contains(t, why, "placeholders %x0 and %x1 would both bind %a")
	// Equal literals are not nodes: two placeholders may bind 2 and 2.
	g2 := parse(t, `
%a = placeholder "a"()
%add = call_function aten.add.Scalar(%a, 2)
%mul = call_function aten.mul.Scalar(%add, 2)
%output = output "output"(%mul)
`)
	ms, err = pattern.Find(g2, func(x, c, d nn.Value) nn.Value { return x.Add(c).Mul(d) })
	require.NoError(t, err)
	assert.Len(t, ms, 1)
}

// attrModule adds one of its buffers.
type attrModule struct {
	nn.Base
	W *nn.Buffer
}

func newAttrModule(name string, v float64) *attrModule {
	m := &attrModule{}
	m.Init(m, "AttrModule")
	w, _ := tensor.Full(tensor.Float32, v, 3)
	m.W = m.RegisterBuffer(name, w, true)
	return m
}

func (m *attrModule) Forward(x nn.Value) nn.Value { return x.Add(m.W.Value()) }

func TestAttrsMatchByKind(t *testing.T) {
	gm, err := fx.SymbolicTrace(newAttrModule("weight", 2))
	require.NoError(t, err)
	pat := newAttrModule("a", 1)
	ms, err := pattern.Find(gm, pat)
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"weight", "add"}}, names(ms))
	ms, err = pattern.Find(gm, pat, pattern.MatchAttrsByPath())
	require.NoError(t, err)
	assert.Empty(t, ms)
	// A pattern given as a graph has no module tree: paths it is.
	pg, err := fx.SymbolicTrace(pat)
	require.NoError(t, err)
	ms, err = pattern.Find(gm, pg.Graph)
	require.NoError(t, err)
	assert.Empty(t, ms)
}

func TestConflictingMultiOutputMatches(t *testing.T) {
	// A = (add_1, mul_1) and B = (add_2, mul_2) are each fine alone, but
	// add_1 reaches B's input n1 and mul_2 reaches A's input n2: replaced
	// by subgraphs whose outputs depend on all their inputs, the two would
	// form a cycle. B, the later one, is skipped and reported.
	gm, err := fx.SymbolicTraceFunc(func(a, b, z1, z2 nn.Value) nn.Value {
		add1 := a.Add(z1)
		n1 := add1.Neg()
		add2 := n1.Add(z2)
		mul2 := b.Mul(z2)
		n2 := mul2.Neg()
		mul1 := n2.Mul(z1)
		return nn.Tuple(add2, mul1)
	})
	require.NoError(t, err)
	in := []nn.Value{nn.Tensor(testInput(t, 4)), nn.Tensor(testInput(t, 4)), nn.Tensor(testInput(t, 3, 4)), nn.Tensor(testInput(t, 4))}
	want, err := gm.Run(in...)
	require.NoError(t, err)
	pat := func(x, y, z nn.Value) nn.Value { return nn.Tuple(x.Add(z), y.Mul(z)) }
	fused := func(x, y, z nn.Value) nn.Value {
		s, m := x.Add(z), y.Mul(z)
		return nn.Tuple(s.Add(m.Mul(0.0)), m.Add(s.Mul(0.0)))
	}
	found, err := pattern.Find(gm, pat, pattern.NoCommutativity())
	require.NoError(t, err)
	require.Equal(t, [][]string{{"add", "mul_1"}, {"add_1", "mul"}}, names(found))
	var skipped []string
	ms, err := pattern.Replace(gm, pat, fused, pattern.NoCommutativity(), pattern.OnSkip(func(m *pattern.Match, reason error) {
		skipped = append(skipped, m.Anchor.Name()+": "+reason.Error())
	}))
	require.NoError(t, err)
	require.Len(t, ms, 1)
	assert.Equal(t, "add", ms[0].Anchor.Name())
	require.Len(t, skipped, 1)
	assert.Contains(t, skipped[0], "add_1: pattern add,mul at %add_1: replacing it after the earlier replaced matches would make a cycle")
	assert.Contains(t, skipped[0], "(matches by anchor: %add_1 -> %add -> %add_1)")
	require.NoError(t, gm.Lint())
	got, err := gm.Run(in...)
	require.NoError(t, err)
	for i := range 2 {
		assert.True(t, tensor.AllClose(want.Tuple()[i].Tensor(), got.Tuple()[i].Tensor(), 1e-6, 1e-6, false))
	}
}

// inner holds an activation under a name; outer calls it through inner.
type inner struct {
	nn.Base
	act nn.Module
}

func newInner(name string, act nn.Module) *inner {
	m := &inner{act: act}
	m.Init(m, "Inner")
	nn.RegisterModule(&m.Base, name, act)
	return m
}

func (m *inner) Forward(x nn.Value) nn.Value { return nn.Call(m.act, x) }

type outer struct {
	nn.Base
	In *inner
}

func newOuter(name string, act nn.Module) *outer {
	m := &outer{}
	m.Init(m, "Outer")
	m.In = nn.RegisterModule(&m.Base, "inner", newInner(name, act))
	return m
}

func (m *outer) Forward(x nn.Value) nn.Value { return nn.Call(m.In, x.Neg()).Neg() }

func TestReplaceCopiesModulesIn(t *testing.T) {
	model := newOuter("act", nn.NewSigmoid())
	gm, err := fx.SymbolicTrace(model)
	require.NoError(t, err)
	// The replacement calls inner.tanh, which only it has: Replace installs
	// it in the target, and deletes inner.act, which nothing calls any more.
	ms, err := pattern.Replace(gm, newOuter("act", nn.NewSigmoid()), newOuter("tanh", nn.NewTanh()))
	require.NoError(t, err)
	require.Len(t, ms, 1)
	require.NoError(t, gm.Lint())
	_, err = nn.Submodule(gm, "inner.tanh")
	require.NoError(t, err)
	_, err = nn.Submodule(gm, "inner.act")
	require.Error(t, err, "the unused sigmoid is deleted")
	x := testInput(t, 2, 3)
	got, err := gm.Run(nn.Tensor(x))
	require.NoError(t, err)
	want := nn.Tensor(x).Neg().Tanh().Neg()
	assert.True(t, tensor.AllClose(want.Tensor(), got.Tensor(), 1e-6, 1e-6, false))
	// The traced model is not edited: its inner module still has act only.
	_, err = nn.Submodule(model, "inner.act")
	require.NoError(t, err)
	_, err = nn.Submodule(model, "inner.tanh")
	require.Error(t, err)

	// A module neither side has is an error naming the node.
	g2, err := fx.SymbolicTrace(newOuter("act", nn.NewSigmoid()))
	require.NoError(t, err)
	repl := parse(t, `
%x = placeholder "x"()
%m = call_module "nowhere.tanh"(%x)
%output = output "output"(%m)
`)
	_, err = pattern.Replace(g2, newOuter("act", nn.NewSigmoid()), repl)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "node %m calls module nowhere.tanh, which neither the target GraphModule nor the replacement has")
}
