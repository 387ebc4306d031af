package rewrite_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pattern"
	"github.com/gofx/gofx/rewrite"
)

// Rules written in Go: a pattern and a replacement as functions over
// nn.Values, a constraint that reads the bindings, and the greedy driver
// applying them to a traced function until nothing fires.
func Example() {
	gm, err := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value {
		return x.Mul(1.0).Add(x.Mul(2.0)).Neg().Neg()
	})
	if err != nil {
		panic(err)
	}
	set, err := rewrite.NewRuleSet("simplify",
		rewrite.Rule{
			Name:    "mul_one",
			Doc:     "x * 1 is x",
			Pattern: func(x nn.Value) nn.Value { return x.Mul(1.0) },
			// Any literal factor matches, bound as "mul.other".
			Options: []pattern.Option{pattern.Literal("mul", "other")},
			Constraint: func(m *rewrite.Match) error {
				if c, _ := m.Binding("mul.other"); !node.EqualArgs(c, node.Float(1)) {
					return fmt.Errorf("the factor is %v, not 1", c)
				}
				return nil
			},
			Replacement: func(x, c nn.Value) nn.Value { return x },
		},
		rewrite.Rule{
			Name:        "neg_neg",
			Pattern:     func(x nn.Value) nn.Value { return x.Neg().Neg() },
			Replacement: func(x nn.Value) nn.Value { return x },
		})
	if err != nil {
		panic(err)
	}
	changed, err := set.Apply(gm)
	if err != nil {
		panic(err)
	}
	fmt.Println("changed:", changed)
	fmt.Print(gm.Code())
	// Output:
	// changed: true
	// def forward(self, x):
	//     mul_1 = torch.ops.aten.mul.Tensor(x, 2.0)
	//     add = torch.ops.aten.add.Tensor(x, mul_1);  x = mul_1 = None
	//     return add
}

// Rules written as text (ParseRules): a txtar archive of patterns and
// replacements in graph text.
func ExampleParseRules() {
	rules, err := rewrite.ParseRules([]byte(`Two rules from text.
-- rule relu_relu --
doc relu is idempotent
benefit 2
-- pattern relu_relu --
%x = placeholder "x"()
%relu = call_function aten.relu.default(%x)
%relu_1 = call_function aten.relu.default(%relu)
%output = output "output"(%relu_1)
-- replacement relu_relu --
%x = placeholder "x"()
%relu = call_function aten.relu.default(%x)
%output = output "output"(%relu)
`))
	if err != nil {
		panic(err)
	}
	for _, r := range rules {
		fmt.Printf("%s (benefit %d): %s\n", r.Name, r.Benefit, r.Doc)
	}
	// Output:
	// relu_relu (benefit 2): relu is idempotent
}

// Explain says, rule by rule, why a set does or does not fire at a node.
func ExampleRuleSet_Explain() {
	g, err := graph.Parse(`%x = placeholder "x"()
%a = call_function aten.mul.Tensor(%x, 2)
%b = call_function aten.mul.Tensor(%a, 1)
%output = output "output"(%b)`)
	if err != nil {
		panic(err)
	}
	p, err := graph.Parse(`%x = placeholder "x"()
%c = placeholder "c"()
%mul = call_function aten.mul.Tensor(%x, %c)
%output = output "output"(%mul)`)
	if err != nil {
		panic(err)
	}
	set, err := rewrite.NewRuleSet("simplify", rewrite.Rule{
		Name:    "mul_one",
		Pattern: p,
		Constraint: func(m *rewrite.Match) error {
			if c, _ := m.Binding("c"); !node.EqualArgs(c, node.Int(1)) {
				return fmt.Errorf("the factor is %v, not 1", c)
			}
			return nil
		},
		Replacement: func(x, c nn.Value) nn.Value { return x },
	})
	if err != nil {
		panic(err)
	}
	for _, name := range []string{"a", "b", "x"} {
		n, _ := g.Node(name)
		why, err := set.Explain(g, n)
		if err != nil {
			panic(err)
		}
		fmt.Println(why)
	}
	// Output:
	// rule set simplify at %a:
	// rule mul_one (benefit 0): does not fire: pattern mul_one at %a: mul=%a; x=%x, c=2; constraint: the factor is 2, not 1
	// rule set simplify at %b:
	// rule mul_one (benefit 0): fires: pattern mul_one at %b: mul=%b; x=%a, c=1
	// rule set simplify at %x:
	// rule mul_one (benefit 0): does not fire: no match of pattern mul_one at %x:
	//   - pattern node %mul is call_function, graph node %x is placeholder
}
