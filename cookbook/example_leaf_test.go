// Recipe: a custom tracer with its own leaf policy.
//
// What it teaches: which module calls become one call_module node (leaves)
// and which are traced through. By default the standard layers of package
// nn are leaves and user modules are traced through; fx.Tracer's IsLeaf
// changes that, here to keep a user module opaque, and, the other way round,
// to trace through nn.Linear down to its aten operator.
//
// torch.fx equivalent (the "Leaf Modules" section of the docs):
//
//	class MyTracer(torch.fx.Tracer):
//	    def is_leaf_module(self, m, qualname):
//	        return isinstance(m, MySpecialSubmodule) or super().is_leaf_module(m, qualname)
//	gm = torch.fx.GraphModule(model, MyTracer().trace(model))

package cookbook_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
)

// specialSubmodule is the docs' MySpecialSubmodule: forward(x) =
// torch.neg(x).
type specialSubmodule struct{ nn.Base }

func (m *specialSubmodule) Forward(x nn.Value) nn.Value { return F.Neg(x) }

// leafDemo is the docs' MyModule: submod(linear(x)).
type leafDemo struct {
	nn.Base
	Linear *nn.Linear
	Submod *specialSubmodule
}

func newLeafDemo() *leafDemo {
	m := &leafDemo{}
	m.Init(m, "MyModule")
	m.Linear = nn.RegisterModule(&m.Base, "linear", nn.NewLinear(3, 4, true))
	sub := &specialSubmodule{}
	sub.Init(sub, "MySpecialSubmodule")
	m.Submod = nn.RegisterModule(&m.Base, "submod", sub)
	return m
}

func (m *leafDemo) Forward(x nn.Value) nn.Value { return nn.Call(m.Submod, m.Linear.Call(x)) }

func Example_leafModules() {
	m := newLeafDemo()
	x := nn.Tensor(tensor.Must(tensor.FromSlice([]float32{1, 2, 3}, 1, 3)))
	eager, _ := nn.Run(m, x)
	for _, t := range []struct {
		what   string
		tracer *fx.Tracer
	}{
		{"default: linear is a leaf, submod is traced through", &fx.Tracer{}},
		{"submod is a leaf too", &fx.Tracer{IsLeaf: func(m nn.Module, qualname string) bool {
			_, special := m.(*specialSubmodule)
			return special || fx.IsStandardLeaf(m, qualname)
		}}},
		{"no leaves: trace through nn.Linear as well", &fx.Tracer{IsLeaf: func(nn.Module, string) bool { return false }}},
	} {
		gm, err := t.tracer.Trace(m)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("#", t.what)
		fmt.Print(gm.Code())
		// Whatever the leaves, the graph computes what the module does.
		out, err := gm.Run(x)
		fmt.Println("same as eager:", err == nil && tensor.Equal(out.Tensor(), eager.Tensor()))
	}
	// Output:
	// # default: linear is a leaf, submod is traced through
	// def forward(self, x):
	//     linear = self.linear(x);  x = None
	//     neg = torch.ops.aten.neg.default(linear);  linear = None
	//     return neg
	// same as eager: true
	// # submod is a leaf too
	// def forward(self, x):
	//     linear = self.linear(x);  x = None
	//     submod = self.submod(linear);  linear = None
	//     return submod
	// same as eager: true
	// # no leaves: trace through nn.Linear as well
	// def forward(self, x):
	//     linear_weight = self.linear.weight
	//     linear_bias = self.linear.bias
	//     linear = torch.ops.aten.linear.default(x, linear_weight, linear_bias);  x = linear_weight = linear_bias = None
	//     neg = torch.ops.aten.neg.default(linear);  linear = None
	//     return neg
	// same as eager: true
}
