package kernels

import (
	"fmt"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// op returns a registered operator of the global registry; a missing one is
// a bug in this package, reported at init.
func op(name string) *ops.Operator {
	o, ok := ops.Global().Lookup(name)
	if !ok {
		panic(fmt.Sprintf("kernels: no operator %s in the registry", name))
	}
	return o
}

// register installs kernel and meta for the operator called name.
func register(name string, kernel, meta ops.Kernel) {
	o := op(name)
	o.SetKernel(kernel)
	if meta != nil {
		o.SetMeta(meta)
	}
}

// registerBoth installs one function as both kernel and meta function: it
// must check t.IsMeta() (through the helpers) before touching data. Most
// view and shape kernels work on meta tensors unchanged.
func registerBoth(name string, k ops.Kernel) { register(name, k, k) }

// one wraps a single tensor result.
func one(t *tensor.Tensor) []any { return []any{t} }

// meta reports whether any of ts is a meta tensor.
func meta(ts ...*tensor.Tensor) bool {
	for _, t := range ts {
		if t != nil && t.IsMeta() {
			return true
		}
	}
	return false
}

// empty returns a new tensor of dt and shape: a meta tensor when isMeta.
func empty(isMeta bool, dt tensor.DType, shape []int) (*tensor.Tensor, error) {
	if isMeta {
		return tensor.NewMeta(dt, shape...)
	}
	return tensor.New(dt, shape...)
}

// ints converts int64 arguments to ints.
func ints(v []int64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}

// computeType returns the dtype math is done in for dtype dt: float16 and
// bfloat16 compute in float32.
func computeType(dt tensor.DType) tensor.DType {
	if dt == tensor.Float16 || dt == tensor.BFloat16 {
		return tensor.Float32
	}
	return dt
}

// floatType returns dt if it is floating, and the default dtype float32
// otherwise: the result dtype of float math on integer inputs.
func floatType(dt tensor.DType) tensor.DType {
	if dt.IsFloat() {
		return dt
	}
	return tensor.Float32
}

// to converts t to dt unless it already has that dtype.
func to(t *tensor.Tensor, dt tensor.DType) *tensor.Tensor {
	if t.DType() == dt {
		return t
	}
	return t.To(dt)
}
