package kernels

import (
	"github.com/gofx/gofx/ops"
)

func init() {
	registerBoth("aten::add.Tensor", addTensor)
}

// addTensor is aten::add.Tensor: self + alpha*other with type promotion and
// broadcasting; alpha is checked and cast to the result dtype as PyTorch
// does (see ew1Axpy).
func addTensor(c *ops.Call) ([]any, error) {
	o, err := ew1Binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	return ew1Axpy(c, o, o.a, o.b, ew1ScalarArg(c, "alpha"))
}
