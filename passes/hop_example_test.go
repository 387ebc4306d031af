package passes_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/passes"
)

type exampleRoot struct{ nn.Base }

func exampleModule(text string, subs map[string]*fx.GraphModule) *fx.GraphModule {
	g, err := graph.Parse(text)
	if err != nil {
		panic(err)
	}
	r := &exampleRoot{}
	r.Init(r, "Module")
	for _, name := range []string{"true_graph_0", "false_graph_0"} {
		if m, ok := subs[name]; ok {
			r.AddModule(name, m)
		}
	}
	gm, err := fx.NewGraphModule(r, g)
	if err != nil {
		panic(err)
	}
	return gm
}

// A cond whose second result nothing reads: PruneHigherOrder drops it
// from both branches, and with it the operand y that only it used.
func ExamplePruneHigherOrder() {
	branch := func(op string) *fx.GraphModule {
		return exampleModule(`%x = placeholder "x"()
%y = placeholder "y"()
%a = call_function aten.`+op+`.default(%x)
%b = call_function aten.exp.default(%y)
%output = output "output"((%a, %b))
`, nil)
	}
	gm := exampleModule(`%x = placeholder "x"()
%y = placeholder "y"()
%pred = placeholder "pred"()
%true_graph_0 = get_attr "true_graph_0"()
%false_graph_0 = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%pred, %true_graph_0, %false_graph_0, [%x, %y])
%getitem = call_function operator.getitem(%cond, 0)
%output = output "output"((%getitem,))
`, map[string]*fx.GraphModule{"true_graph_0": branch("sin"), "false_graph_0": branch("cos")})
	if _, err := passes.PruneHigherOrder.Apply(gm); err != nil {
		panic(err)
	}
	fmt.Print(gm.Graph.Text())
	t, _ := nn.Submodule(gm, "true_graph_0")
	fmt.Print(t.(*fx.GraphModule).Graph.Text())
	// Output:
	// %x = placeholder "x"()
	// %y = placeholder "y"()
	// %pred = placeholder "pred"()
	// %true_graph_0 = get_attr "true_graph_0"()
	// %false_graph_0 = get_attr "false_graph_0"()
	// %cond = call_function higher_order.cond(%pred, %true_graph_0, %false_graph_0, [%x])
	// %getitem = call_function operator.getitem(%cond, 0)
	// %output = output "output"((%getitem,))
	// %x = placeholder "x"()
	// %a = call_function aten.sin.default(%x)
	// %output = output "output"((%a,))
}

// A cond on a literal True: InlineConstantCond puts the true branch in
// its place.
func ExampleInlineConstantCond() {
	branch := func(op string) *fx.GraphModule {
		return exampleModule(`%x = placeholder "x"()
%a = call_function aten.`+op+`.default(%x)
%output = output "output"((%a,))
`, nil)
	}
	gm := exampleModule(`%x = placeholder "x"()
%true_graph_0 = get_attr "true_graph_0"()
%false_graph_0 = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(True, %true_graph_0, %false_graph_0, [%x])
%getitem = call_function operator.getitem(%cond, 0)
%output = output "output"((%getitem,))
`, map[string]*fx.GraphModule{"true_graph_0": branch("sin"), "false_graph_0": branch("cos")})
	if _, err := passes.InlineConstantCond.Apply(gm); err != nil {
		panic(err)
	}
	fmt.Print(gm.Graph.Text())
	// Output:
	// %x = placeholder "x"()
	// %a = call_function aten.sin.default(%x)
	// %output = output "output"((%a,))
}
