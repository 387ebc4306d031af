package optest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// ScaledSoftplus returns gofxtest::scaled_softplus, defined in the global
// registry on first use as ../shared/pt2's gen_pt2.py defines it with
// torch.library.custom_op: a schema, a kernel (softplus(x * beta) / beta,
// with PyTorch's softplus threshold: x*beta > 20 gives x) and a meta
// function (empty_like), nothing else: no tag, no shape rule. The in-place
// gofxtest::scale_(Tensor(a!) x, float beta) -> () is defined with it.
// The aten kernels must be registered (import github.com/gofx/gofx/kernels).
func ScaledSoftplus(t testing.TB) *ops.Operator {
	t.Helper()
	op, err := defineScaledSoftplus()
	if err != nil {
		t.Fatalf("optest: defining gofxtest::scaled_softplus: %v", err)
	}
	return op
}

var defineScaledSoftplus = sync.OnceValues(func() (*ops.Operator, error) {
	mul, ok1 := ops.Global().Lookup("aten::mul.Scalar")
	div, ok2 := ops.Global().Lookup("aten::div.Scalar")
	softplus, ok3 := ops.Global().Lookup("aten::softplus")
	if !ok1 || !ok2 || !ok3 {
		return nil, fmt.Errorf("aten::mul.Scalar, div.Scalar or softplus is not registered")
	}
	kernel := func(c *ops.Call) ([]any, error) {
		beta := c.Float("beta")
		y, err := mul.Call1(c.Tensor("x"), beta)
		if err != nil {
			return nil, err
		}
		if y, err = softplus.Call1(y); err != nil {
			return nil, err
		}
		if y, err = div.Call1(y, beta); err != nil {
			return nil, err
		}
		return []any{y}, nil
	}
	meta := func(c *ops.Call) ([]any, error) {
		x := c.Tensor("x")
		m, err := tensor.NewMeta(x.DType(), x.Shape()...)
		return []any{m}, err
	}
	op, err := ops.Define("gofxtest::scaled_softplus(Tensor x, float beta) -> Tensor", kernel, meta, 0)
	if err != nil {
		return nil, err
	}
	if _, err := ops.Define("gofxtest::scale_(Tensor(a!) x, float beta) -> ()", kernel, meta, 0); err != nil {
		return nil, err
	}
	return op, nil
})
