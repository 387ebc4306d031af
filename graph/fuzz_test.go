package graph_test

import (
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
)

// fzResolver returns a resolver that turns any dotted identifier into a
// *node.Func, the same one for the same name.
func fzResolver() func(string) (node.Function, error) {
	var mu sync.Mutex
	cache := map[string]*node.Func{}
	return func(name string) (node.Function, error) {
		mu.Lock()
		defer mu.Unlock()
		if f, ok := cache[name]; ok {
			return f, nil
		}
		f, err := node.NewFunc(name, false)
		if err != nil {
			return nil, err
		}
		if len(cache) > 1<<14 {
			clear(cache)
		}
		cache[name] = f
		return f, nil
	}
}

// fzSeedGraphs builds graphs through the API whose texts seed FuzzParse.
func fzSeedGraphs(t testing.TB, resolve func(string) (node.Function, error)) []*graph.Graph {
	fn := func(name string) node.Function {
		f, err := resolve(name)
		require.NoError(t, err)
		return f
	}
	must := func(n *node.Node, err error) *node.Node {
		require.NoError(t, err)
		return n
	}
	var gs []*graph.Graph

	// Everything the text form has.
	g := graph.New()
	x := must(g.Placeholder("x"))
	y := must(g.PlaceholderWithDefault("y", node.Float(math.Inf(1))))
	rest := must(g.Placeholder("*args"))
	w := must(g.GetAttr("layer1.0.weight"))
	a := must(g.CallFunction(fn("aten.add.Tensor"), []node.Arg{x, w}, node.Kwargs{
		{Name: "alpha", Value: node.Float(1e-05)},
		{Name: "out_dtype", Value: node.DType("float32")},
	}))
	node.Val.Set(&a.Meta, node.TensorMeta{DType: node.Float32, Shape: []node.Dim{{Size: 2}, {Sym: "s0"}}})
	node.StackTrace.Set(&a.Meta, "File \"model.py\", line 12\n\t\"quoted\" ünïcödé 🚀 \x01")
	node.ModuleStack.Set(&a.Meta, []node.ModuleFrame{{Path: "a", Type: "B"}})
	a.Meta.Set("custom", int64(3))
	b := must(g.CallFunction(fn("mylib.fused.default"), []node.Arg{
		node.List{a, node.Tuple{x, node.Float(math.Copysign(0, -1))}, node.Dict{
			{Name: "k", Value: node.Float(math.NaN())},
			{Name: "ключ", Value: node.Str("значение")},
			{Name: "nested", Value: node.List{node.Tuple{}, node.List{}, node.Dict{}, node.Tuple{node.None}}},
		}},
		node.Float(math.Inf(-1)), node.Int(math.MinInt64), node.Bool(false), rest, y,
	}, node.Kwargs{
		{Name: "device", Value: node.Device("cuda:0")},
		{Name: "layout", Value: node.Layout("strided")},
		{Name: "memory_format", Value: node.MemoryFormat("channels_last")},
		{Name: "s", Value: node.Str("a\"b\\c\n\t\x00\xff é 世界")},
	}))
	b.Meta.Set("ratio", 0.0001)
	b.Meta.Set("flag", true)
	b.Meta.Set("key with space", "v")
	c := must(g.CallMethod("view", []node.Arg{b, node.Int(-1), node.None, node.Bool(true)}, nil))
	node.Val.Set(&c.Meta, node.ValueTuple{
		node.TensorMeta{DType: node.BFloat16, Shape: node.Dims(2, 3)},
		node.ValueTuple{node.TensorMeta{DType: node.Int64, Shape: []node.Dim{}}},
	})
	gi := must(g.CallFunction(fn("operator.getitem"), []node.Arg{c, node.Tuple{
		node.Slice{Start: node.Int(0), Stop: node.Int(2), Step: node.None}, node.Ellipsis, node.None,
		node.Slice{Start: node.None, Stop: x, Step: node.Int(-1)},
	}}, nil))
	m := must(g.CallModule("layer1.0.conv", []node.Arg{gi}, node.Kwargs{{Name: "device", Value: node.Device("cpu")}}))
	node.Val.Set(&m.Meta, node.TensorMeta{DType: node.Complex64, Shape: []node.Dim{{Sym: "2*s0"}, {Size: 1}}})
	must(g.Output(node.Tuple{m, node.List{a}}))
	gs = append(gs, g)

	// Minimal graphs.
	g = graph.New()
	x = must(g.Placeholder("x"))
	must(g.Output(x))
	gs = append(gs, g)
	gs = append(gs, graph.New())

	// Names derived by the namespace, no output, reserved-looking names.
	g = graph.New()
	x = must(g.Placeholder("len"))
	for range 3 {
		x = must(g.CallFunction(fn("aten.relu.default"), []node.Arg{x, node.Float(1e16), node.Float(5e-324)}, nil))
	}
	gs = append(gs, g)
	return gs
}

// fzMalformed are inputs that Parse must refuse cleanly.
var fzMalformed = []string{
	"%x = placeholdr \"x\"()",
	"%x = placeholder \"x\"(",
	"%x = placeholder \"x\"",
	"%x = placeholder \"x()",
	"%x = ",
	"%",
	"% = placeholder \"x\"()",
	"x = placeholder \"x\"()",
	"%x = placeholder \"x\"() trailing",
	"%x = placeholder \"x\"() {val: f32[2, s0}",
	"%x = placeholder \"x\"() {val: f33[2]}",
	"%x = placeholder \"x\"() {val: f32[2,]}",
	"%x = placeholder \"x\"() {nn_module_stack: [(\"a\")]}",
	"%x = placeholder \"x\"() {a: 1, a: 2}",
	"%x = placeholder \"x\"(1, 2)",
	"%x = placeholder \"1x\"()",
	"%x = placeholder \"x\"()\n%x = placeholder \"y\"()",
	"%a = call_function f.g(%b)",
	"%a = call_function f.g(1e)",
	"%a = call_function f.g(1e400)",
	"%a = call_function f.g(99999999999999999999)",
	"%a = call_function f.g(1.5.2)",
	"%a = call_function f.g(-infinity)",
	"%a = call_function f.g(alpha=1, 2)",
	"%a = call_function f.g(alpha=1, alpha=2)",
	"%a = call_function f.g({\"k\": 1, \"k\": 2})",
	"%a = call_function f.g(torch.float33)",
	"%a = call_function f.g(device(\"cuda:x\"))",
	"%a = call_function \"not a name\"()",
	"%a = call_function f.g(" + strings.Repeat("[", 300) + strings.Repeat("]", 300) + ")",
	"%x = placeholder \"x\"()\n%output = output \"output\"(%x)\n%y = placeholder \"y\"()",
	"%len = placeholder \"x\"()",
	"%a = call_method \"relu\"()",
	"%a = get_attr \"w\"(1)",
	"%a = output \"out\"(1)",
	"\t%x = placeholder \"x\"(\"\\q\")",
	"%x = placeholder \"x\"()\r\n%y = call_function f.g(%x\r)",
	"%a = call_function f.g(slice(1, 2, 3, 4))",
	"%a = call_function f.g(slice())",
	"%a = call_function f.g(slice(1.5))",
	"%a = call_function f.g(slice([1]))",
	"%a = call_function f.g(slice)",
	"%a = call_function f.g(slice(1, Ellipsis))",
	"%a = call_function f.g(Ellipsis(1))",
}

func FuzzParse(f *testing.F) {
	resolve := fzResolver()
	for _, g := range fzSeedGraphs(f, resolve) {
		// The valid seeds must parse back into the same graph, or the
		// fuzzer would only explore error paths.
		p, err := graph.Parse(g.Text(), graph.WithResolver(resolve))
		require.NoError(f, err, "seed:\n%s", g.Text())
		require.NoError(f, graph.Equal(g, p))
		f.Add(g.Text())
	}
	f.Add("# a comment\n\n   %x = placeholder \"x\"()   # trailing comment\n%o = output \"output\"((%x,))\n")
	f.Add("%x = placeholder \"x\"(+5) {val: (f32[2],), \"val.x\": -inf, k: nan}\n%y = call_function f.g(%x,)\n")
	for _, s := range fzMalformed {
		f.Add(s)
	}
	// Texts with subgraph sections (cond, while_loop and map_impl
	// programs, nested conds) and broken sections.
	for _, text := range subgraphTexts {
		f.Add(text)
	}
	f.Add("%x = placeholder \"x\"()\n\nsubgraph \"a.b\" {\n  subgraph c {\n  }\n}\nsubgraph d {\n    %y = placeholder \"y\"()\n}\n")
	f.Add("%x = placeholder \"x\"()\nsubgraph a {\n")
	f.Add("}\n")
	f.Add("subgraph a {\n}\nsubgraph a {\n}\n")
	f.Fuzz(func(t *testing.T, text string) {
		g, subs, err := graph.ParseWithSubgraphs(text, graph.WithResolver(resolve))
		if err == nil && len(subs) == 0 {
			// Parse reads what has no sections as ParseWithSubgraphs does.
			g1, err1 := graph.Parse(text, graph.WithResolver(resolve))
			require.NoError(t, err1)
			require.NoError(t, graph.Equal(g, g1))
		}
		if err != nil {
			var pe *graph.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse error %q is a %T, not a *graph.ParseError", err, err)
			}
			lines := strings.Split(text, "\n")
			if pe.Line < 1 || pe.Col < 1 || pe.Msg == "" || pe.Line > len(lines) || pe.Col > len(lines[pe.Line-1])+1 {
				t.Fatalf("Parse error %q has a bad position or message: %+v", err, *pe)
			}
			return
		}
		require.NoError(t, lintBody(g))
		var lintSubs func([]graph.Subgraph)
		lintSubs = func(subs []graph.Subgraph) {
			for _, sg := range subs {
				require.NoError(t, lintBody(sg.Graph), "subgraph %s", sg.Name)
				lintSubs(sg.Subgraphs)
			}
		}
		lintSubs(subs)
		txt := g.TextWithSubgraphs(subs)
		g2, subs2, err := graph.ParseWithSubgraphs(txt, graph.WithResolver(resolve))
		require.NoError(t, err, "reparsing\n%s", txt)
		require.NoError(t, equalTrees(g, g2, subs, subs2), "text:\n%s", txt)
		require.Equal(t, txt, g2.TextWithSubgraphs(subs2))
		// Lint of whatever parsed returns, never panics.
		_ = g.LintWithSubgraphs(subs)
	})
}

func TestParseErrors(t *testing.T) {
	resolve := fzResolver()
	for _, tc := range []struct {
		name       string
		text       string
		defaultRes bool // parse with node.LookupFunction instead of resolve
		line, col  int
		msg        string
	}{
		{name: "unknown opcode", text: `%x = placeholdr "x"()`,
			line: 1, col: 6, msg: "unknown opcode"},
		{name: "forward reference", text: "%x = placeholder \"x\"()\n%a = call_function rnd.add(%x, %b)\n%b = call_function rnd.add(%x, %x)\n",
			line: 2, col: 32, msg: "undefined node %b"},
		{name: "duplicate name", text: "%x = placeholder \"x\"()\n%x = placeholder \"y\"()\n",
			line: 2, col: 1, msg: "already taken"},
		{name: "unterminated string", text: `%x = placeholder "x()`,
			line: 1, col: 18, msg: "unterminated string"},
		{name: "exponent without digits", text: `%a = call_function rnd.add(1e)`,
			line: 1, col: 28, msg: "exponent has no digits"},
		{name: "positional after keyword", text: `%a = call_function rnd.add(alpha=1, 2)`,
			line: 1, col: 37, msg: "positional argument after keyword"},
		{name: "node after output", text: "%x = placeholder \"x\"()\n%output = output \"output\"(%x)\n%y = placeholder \"y\"()\n",
			line: 3, col: 1, msg: "after the output node"},
		{name: "missing paren", text: `%x = placeholder "x"`,
			line: 1, col: 21, msg: `expected "(" to open the arguments`},
		{name: "unknown function", text: "%x = placeholder \"x\"()\n%a = call_function rnd.nosuch.fn(%x)",
			defaultRes: true, line: 2, col: 20, msg: `unknown function "rnd.nosuch.fn"`},
		{name: "too deep", text: "%a = call_function rnd.add(" + strings.Repeat("[", 300) + strings.Repeat("]", 300) + ")",
			line: 1, col: 228, msg: "nested more than 200 deep"},
		{name: "bad dtype abbreviation", text: `%x = placeholder "x"() {val: f33[2]}`,
			line: 1, col: 30, msg: `unknown dtype abbreviation "f33"`},
		{name: "placeholder arity", text: `%x = placeholder "x"(1, 2)`,
			line: 1, col: 1, msg: "takes at most one argument"},
		{name: "placeholder arity indented", text: "\n  %x = placeholder \"x\"(1, 2)",
			line: 2, col: 3, msg: "takes at most one argument"},
		{name: "reserved name", text: `%len = placeholder "x"()`,
			line: 1, col: 1, msg: "reserved"},
		{name: "unexpected character", text: `%x = placeholder "x"() ; `,
			line: 1, col: 24, msg: "unexpected character"},
		{name: "keyword twice", text: `%a = call_function rnd.add(alpha=1, alpha=2)`,
			line: 1, col: 37, msg: `keyword argument "alpha" given twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []graph.ParseOption
			if !tc.defaultRes {
				opts = append(opts, graph.WithResolver(resolve))
			}
			g, err := graph.Parse(tc.text, opts...)
			require.Error(t, err)
			require.Nil(t, g)
			var pe *graph.ParseError
			require.True(t, errors.As(err, &pe), "error %v is a %T", err, err)
			require.Equal(t, tc.line, pe.Line, "line of %q", err)
			require.Equal(t, tc.col, pe.Col, "column of %q", err)
			require.Contains(t, pe.Msg, tc.msg)
			require.Contains(t, err.Error(), pe.Msg)
		})
	}
}
