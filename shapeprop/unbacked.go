package shapeprop

import (
	"fmt"

	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// The operators that read a tensor's data into a number: item and
// _local_scalar_dense (Tensor.item() and what it decomposes to). Traced,
// the number is a fresh unbacked symbol (u0, u1, ...), unbounded until
// torch._check and friends narrow it, as PyTorch's fake tensors give an
// unbacked SymInt for the item of an integer tensor, and an unbacked
// float symbol (zuf0, zuf1, ...) for the item of a floating one.
func init() {
	for _, name := range []string{"aten::item", "aten::_local_scalar_dense"} {
		dataDependent[name] = true
		RegisterRule(name, localScalarRule)
	}
}

// localScalarRule: the value of an integral or bool tensor's element is a
// new unbacked symbol (a bool's in [0, 1]); a floating one's a new unbacked
// float symbol (PyTorch 2.6's Sym(zuf0)); a complex one has no symbolic
// form.
func localScalarRule(c *RuleCall) ([]any, error) {
	self := c.Fake(0)
	if self == nil {
		return nil, fmt.Errorf("self must be a tensor")
	}
	if n, ok := self.Numel().Const(); ok && n != 1 && c.Op.Schema().Name == "item" {
		return nil, fmt.Errorf("a Tensor with %d elements cannot be converted to Scalar", n)
	}
	switch {
	case self.DType == tensor.Bool:
		return []any{c.Env.NewUnbacked(sym.Range{Lo: 0, Hi: 1}).Expr()}, nil
	case self.DType.IsFloat():
		return []any{c.Env.NewUnbackedFloat().Expr()}, nil
	case !self.DType.IsIntegral(false):
		return nil, fmt.Errorf("the value of a %s tensor depends on its data: only the item() of an integer or floating tensor can be traced (as an unbacked symbol); compute with the tensor instead", self.DType)
	}
	return []any{c.Env.NewUnbacked(sym.Range{Lo: sym.NegInf, Hi: sym.Inf}).Expr()}, nil
}
