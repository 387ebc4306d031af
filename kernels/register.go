package kernels

import (
	"fmt"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// A family is the kernels of one file of this package, named after the
// ATen source file that holds the same operators.
type family struct {
	file     string // the file of this package, "activation.go"
	register func() // registers the family's kernels and meta functions
}

// families are registered by init in this order. No operator is registered
// by two families (register panics if one is), so the order matters only
// for the derived variants, which come after every family: the in-place and
// out= overloads computed by a functional overload, derived for those whose
// functional overload has a kernel.
var families = []family{
	{"arith.go", registerArith},
	{"backward.go", registerBackward},
	{"backward_more.go", registerBackwardMore},
	{"binary.go", registerBinary},
	{"conv.go", registerConv},
	{"create.go", registerCreate},
	{"index.go", registerIndex},
	{"linalg.go", registerLinalg},
	{"norm.go", registerNorm},
	{"pad.go", registerPad},
	{"pointwise_more.go", registerPointwiseMore},
	{"pointwise_more.go", registerPointwiseMore2},
	{"pool.go", registerPool},
	{"pool_more.go", registerPoolMore},
	{"pool_more.go", registerPoolMore2},
	{"random.go", registerRandom},
	{"reduce.go", registerReduce},
	{"reduce_more.go", registerReduceMore},
	{"scatter.go", registerScatter},
	{"shape.go", registerShape},
	{"strided.go", registerStrided},
	{"unary.go", registerUnary},
	{"zz_inplace.go", registerZzInplace},
}

// The package's only init: every family, in order, then the derived
// variants.
func init() {
	for _, f := range families {
		registering = f.file
		f.register()
	}
	registering = ""
	registerOutVariants()
	registerDerived()
}

// An origin says where an operator's kernel comes from: the file of its
// family, and for a derived in-place or out= kernel the functional
// overload it calls.
type origin struct {
	file        string
	derivedFrom *ops.Operator
}

var (
	// registering is the file of the family being registered.
	registering string
	// origins records the origin of every kernel this package installs,
	// for the table of KERNELS.md.
	origins = map[*ops.Operator]origin{}
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

// register installs kernel and meta for the operator called name. An
// operator registered twice is a bug in this package, reported at init.
func register(name string, kernel, meta ops.Kernel) {
	o := op(name)
	if _, ok := origins[o]; ok || o.HasKernel() {
		panic(fmt.Sprintf("kernels: %s registered twice", name))
	}
	origins[o] = origin{file: registering}
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
