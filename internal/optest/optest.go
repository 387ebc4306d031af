package optest

import (
	"testing"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Op returns the operator of the global registry called name
// ("aten::add.Tensor", "aten::relu"), failing the test if there is none.
func Op(t testing.TB, name string) *ops.Operator {
	t.Helper()
	o, ok := ops.Global().Lookup(name)
	if !ok {
		t.Fatalf("optest: no operator %q in the global registry", name)
	}
	return o
}

// Call calls the operator called name with args and kwargs and returns what
// the dispatch point returns, error included.
func Call(t testing.TB, name string, args []any, kwargs map[string]any) ([]any, error) {
	t.Helper()
	return Op(t, name).Call(args, kwargs)
}

// Tensor calls the operator called name and returns its first result, which
// must be a tensor; any error fails the test.
func Tensor(t testing.TB, name string, args []any, kwargs map[string]any) *tensor.Tensor {
	t.Helper()
	return OpTensor(t, Op(t, name), args, kwargs)
}

// OpTensor is Tensor for an operator already looked up.
func OpTensor(t testing.TB, op *ops.Operator, args []any, kwargs map[string]any) *tensor.Tensor {
	t.Helper()
	out, err := op.Call(args, kwargs)
	if err != nil {
		t.Fatalf("optest: %s: %v", op, err)
	}
	if len(out) == 0 {
		t.Fatalf("optest: %s returned nothing", op)
	}
	x, ok := out[0].(*tensor.Tensor)
	if !ok {
		t.Fatalf("optest: %s returned %T, want a tensor", op, out[0])
	}
	return x
}

// Floats returns a tensor of dtype dt holding vals with the given shape (a
// vector of len(vals) when shape is empty).
func Floats(t testing.TB, dt tensor.DType, vals []float64, shape ...int) *tensor.Tensor {
	t.Helper()
	if len(shape) == 0 {
		shape = []int{len(vals)}
	}
	x, err := tensor.FromFloat64s(dt, vals, shape...)
	if err != nil {
		t.Fatalf("optest: %v", err)
	}
	return x
}

// Ints returns a vector of dtype dt holding vals.
func Ints(t testing.TB, dt tensor.DType, vals ...int64) *tensor.Tensor {
	t.Helper()
	x, err := tensor.FromInt64s(dt, vals, len(vals))
	if err != nil {
		t.Fatalf("optest: %v", err)
	}
	return x
}
