package decomp

import (
	"fmt"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// MetaTracer is implemented by tracers that know the strides of their
// symbolic tensors. Rules whose result depends on memory layout (reshape
// is a view only when the strides allow one; matmul folds a batch only for
// some layouts; linear takes its fused 3-d path only for contiguous input)
// ask it; without it a symbolic tensor is taken to be contiguous, which is
// what every tensor a graph input or a non-view operator produces is.
type MetaTracer interface {
	// TensorMeta returns the meta tensor (dtype, shape and strides, no
	// data) that s stands for, if known.
	TensorMeta(s ops.Symbolic) (*tensor.Tensor, bool)
}

// fail panics with an error that the rule wrapper returns.
func fail(format string, a ...any) { panic(fmt.Errorf(format, a...)) }

// call calls op with Values (or plain Go values) and returns its result;
// a failure panics and is returned by the rule wrapper.
func call(op *ops.Operator, args ...any) nn.Value { return nn.CallOp(op, args...) }

// callKw is call with keyword arguments.
func callKw(op *ops.Operator, args []any, kwargs map[string]any) nn.Value {
	return nn.CallOpKw(op, args, kwargs)
}

// shapeOf returns x's sizes as Values (ints, or symbolic sizes while
// tracing with dynamic dimensions).
func shapeOf(x nn.Value) []nn.Value {
	s := x.Shape()
	if !s.IsTuple() {
		fail("the shape of %s is not a tuple of sizes (got %s)", x.Kind(), s.Kind())
	}
	return s.Tuple()
}

// ndim returns x's number of dimensions.
func ndim(x nn.Value) int { return len(shapeOf(x)) }

// dtypeOf returns x's dtype.
func dtypeOf(x nn.Value) tensor.DType {
	d := nn.CallFunction(nn.GetAttr, []nn.Value{x, nn.Of("dtype")}, nil)
	dt, ok := d.Any().(tensor.DType)
	if !ok {
		fail("the dtype of %s is a %s, not a dtype", x.Kind(), d.Kind())
	}
	return dt
}

// metaOf returns x's meta tensor (shape and strides), or nil when only its
// shape is known (a symbolic value of a tracer that is not a MetaTracer).
func metaOf(x nn.Value) *tensor.Tensor {
	if t := x.Tensor(); t != nil {
		return t
	}
	if s, ok := x.Symbolic(); ok {
		if mt, ok := s.Tracer().(MetaTracer); ok {
			if m, ok := mt.TensorMeta(s); ok {
				return m
			}
		}
	}
	return nil
}

// isContiguous reports whether x is contiguous (assumed when unknown).
func isContiguous(x nn.Value) bool {
	if m := metaOf(x); m != nil {
		return m.IsContiguous()
	}
	return true
}

// strides returns x's strides, or the contiguous strides of its shape when
// unknown.
func strides(x nn.Value) []int {
	if m := metaOf(x); m != nil {
		return m.Strides()
	}
	return tensor.ContiguousStrides(toInts(shapeOf(x)))
}

// toInts converts sizes to Go ints (which decides symbolic ones).
func toInts(vs []nn.Value) []int {
	out := make([]int, len(vs))
	for i, v := range vs {
		out[i] = int(v.Int())
	}
	return out
}

// concrete reports whether every size is a Go int.
func concrete(vs []nn.Value) bool {
	for _, v := range vs {
		if v.Kind() != "int" {
			return false
		}
	}
	return true
}

// ints makes a list Value of sizes.
func ints(vs ...nn.Value) nn.Value { return nn.Tuple(vs...) }

// intList makes a list Value of Go ints.
func intList(xs ...int) nn.Value { return nn.Of(xs) }

// prod multiplies sizes (1 for none), with Python's semantics on
// symbolic sizes.
func prod(vs []nn.Value) nn.Value {
	p := nn.Of(1)
	for i, v := range vs {
		if i == 0 {
			p = v
			continue
		}
		p = p.Mul(v)
	}
	return p
}

// wrapDim is ATen's maybe_wrap_dim: dim in [-n, n) (n at least 1).
func wrapDim(dim int64, n int) int {
	m := int64(n)
	if m <= 0 {
		m = 1
	}
	if dim < -m || dim >= m {
		fail("Dimension out of range (expected to be in range of [%d, %d], but got %d)", -m, m-1, dim)
	}
	if dim < 0 {
		dim += m
	}
	return int(dim)
}

// intsOf returns an int[] argument (a tuple of ints, or one int broadcast
// to n entries as TorchScript's int[N] allows).
func intsOf(v nn.Value, n int) []nn.Value {
	if v.IsTuple() {
		t := v.Tuple()
		if len(t) == 1 && n > 1 {
			out := make([]nn.Value, n)
			for i := range out {
				out[i] = t[0]
			}
			return out
		}
		return t
	}
	if v.Kind() == "int" || v.IsSymbolic() {
		out := make([]nn.Value, n)
		for i := range out {
			out[i] = v
		}
		return out
	}
	fail("expected a list of ints, got %s", v.Kind())
	return nil
}

// optDType returns a ScalarType? argument.
func optDType(v nn.Value) (tensor.DType, bool) {
	if v.IsNone() {
		return tensor.Invalid, false
	}
	dt, ok := v.Any().(tensor.DType)
	if !ok {
		fail("expected a dtype, got %s", v.Kind())
	}
	return dt, true
}

// toDType is x.to(dtype): x itself when it has the dtype, an
// aten::_to_copy otherwise.
func toDType(x nn.Value, dt tensor.DType) nn.Value {
	if dtypeOf(x) == dt {
		return x
	}
	return callKw(opToCopy, []any{x}, map[string]any{"dtype": dt})
}

// unsqueezeTo appends size-1 dims to a 1-d x until it has n dims (1.13's
// _unsqueeze_to_dim).
func unsqueezeTo(x nn.Value, n int) nn.Value {
	for d := ndim(x); d < n; d++ {
		x = call(opUnsqueeze, x, -1)
	}
	return x
}

// computationDType is 1.13's utils.get_computation_dtype: float16 and
// bfloat16 compute in float32.
func computationDType(dt tensor.DType) tensor.DType {
	if dt == tensor.Float16 || dt == tensor.BFloat16 {
		return tensor.Float32
	}
	return dt
}
