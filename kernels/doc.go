// Package kernels registers gofx's reference CPU kernels and meta functions
// with the operators of the ops registry. Importing it (for its side
// effect, as database drivers are imported) makes ops.Operator.Call run
// ATen operators on tensors:
//
//	import _ "github.com/gofx/gofx/kernels"
//
// Every kernel computes what PyTorch 1.13 computes on CPU: the same output
// dtypes (type promotion), shapes (broadcasting) and values, within the
// tolerances of the conformance vectors in ../shared/conformance, which the
// package's tests run. Floating-point math is done in float64 and rounded
// to the output dtype (which for +, -, *, / and sqrt gives exactly IEEE
// float32 arithmetic); float16 and bfloat16 compute in float32, as PyTorch
// does on CPU; integer math is exact in int64 and wraps to narrower types.
//
// Meta functions compute the dtype and shape of the outputs from meta
// tensors (tensor.NewMeta), touching no data; they share their shape logic
// with the kernels.
package kernels
