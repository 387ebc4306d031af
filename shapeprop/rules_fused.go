package shapeprop

import "github.com/gofx/gofx/sym"

// The shape rules of gofx's fused operators (ops/schemas/gofx.txt): each
// has the shape of the operator it fuses an epilogue into, its leading
// arguments being that operator's (convolution's nine, addmm's and
// linear's), and convolution_add_relu broadcasts the convolution's shape
// with its residual operand (argument 9), as add.Tensor does.
func init() {
	for _, name := range []string{"gofx::convolution_relu", "gofx::convolution_hardtanh", "gofx::convolution_clamp"} {
		RegisterRule(name, convolutionRule)
	}
	RegisterRule("gofx::convolution_add_relu", func(c *RuleCall) ([]any, error) {
		out, err := convolutionRule(c)
		if err != nil {
			return nil, err
		}
		shapes := [][]sym.Expr{out[0].(*Fake).Shape}
		if f, ok := c.Args[9].(*Fake); ok && f != nil {
			shapes = append(shapes, f.Shape)
		}
		sh, err := c.Broadcast(shapes...)
		if err != nil {
			return nil, err
		}
		return []any{fake(sh)}, nil
	})
	RegisterRule("gofx::addmm_relu", addmmRule)
	RegisterRule("gofx::linear_relu", linearRule)
}
