package syntax_test

import (
	"fmt"
	"os"

	"github.com/gofx/gofx/torchscript/syntax"
)

// A class as PyTorch's serializer writes it into an archive's code/ folder:
// parse it, look at its methods, and print it back unchanged.
func Example() {
	src := []byte(`class Linear(Module):
  __parameters__ = ["weight", "bias", ]
  __buffers__ = []
  weight : Tensor
  bias : Tensor
  training : bool
  def forward(self: __torch__.torch.nn.modules.linear.Linear,
    input: Tensor) -> Tensor:
    bias = self.bias
    weight = self.weight
    return torch.linear(input, weight, bias)
`)
	f, err := syntax.Parse("code/__torch__/torch/nn/modules/linear.py", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	class := f.Stmts[0].(*syntax.ClassDef)
	for _, s := range class.Body {
		switch s := s.(type) {
		case *syntax.Assign:
			if s.Value == nil {
				fmt.Printf("attribute %s : %s\n", syntax.ExprString(s.Target), syntax.ExprString(s.Type))
			}
		case *syntax.FuncDef:
			fmt.Printf("method %s at %v returns %s\n", s.Name, s.Pos(), syntax.ExprString(s.Returns))
		}
	}
	out, _ := syntax.Format(f)
	fmt.Println("prints back unchanged:", string(out) == string(src))

	_, err = syntax.Parse("bad.py", []byte("def f(x: int) -> int:\n  return x +\n"))
	fmt.Println(err)
	// Output:
	// attribute weight : Tensor
	// attribute bias : Tensor
	// attribute training : bool
	// method forward at 7:3 returns Tensor
	// prints back unchanged: true
	// bad.py:2:13: expected an expression, found newline
}

// ParseExpr reads a type annotation; ExprString writes it back.
func ExampleParseExpr() {
	e, err := syntax.ParseExpr("type", []byte("Dict[str, Optional[List[Tensor]]]"))
	if err != nil {
		fmt.Println(err)
		return
	}
	sub := e.(*syntax.Subscript)
	fmt.Println(syntax.ExprString(sub.X), len(sub.Index), syntax.ExprString(sub.Index[1]))
	// Output: Dict 2 Optional[List[Tensor]]
}

// Fprint writes a tree built by code in the serializer's form.
func ExampleFprint() {
	call := &syntax.Call{
		Fun:  &syntax.Attribute{X: &syntax.Name{Name: "torch"}, Name: "add"},
		Args: []syntax.Expr{&syntax.Name{Name: "x"}, &syntax.FloatLit{Value: 1}},
	}
	ret := &syntax.Return{Value: call}
	if err := syntax.Fprint(os.Stdout, ret); err != nil {
		fmt.Println(err)
	}
	// Output: return torch.add(x, 1.)
}
