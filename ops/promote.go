package ops

import (
	"fmt"

	"github.com/gofx/gofx/tensor"
)

// PromoteTypes returns the smallest dtype both a and b convert to without
// losing their category, as torch.promote_types does: bool < integral <
// floating; uint8 with a signed integer gives at least int16; float16 with
// bfloat16 gives float32.
func PromoteTypes(a, b tensor.DType) tensor.DType {
	if a == b {
		return a
	}
	if a == tensor.Invalid {
		return b
	}
	if b == tensor.Invalid {
		return a
	}
	if a == tensor.Bool {
		return b
	}
	if b == tensor.Bool {
		return a
	}
	af, bf := a.IsFloat(), b.IsFloat()
	switch {
	case af && bf:
		if (a == tensor.Float16 && b == tensor.BFloat16) || (a == tensor.BFloat16 && b == tensor.Float16) {
			return tensor.Float32
		}
		if floatRank(a) > floatRank(b) {
			return a
		}
		return b
	case af:
		return a
	case bf:
		return b
	}
	// Both integral.
	if a == tensor.Uint8 || b == tensor.Uint8 {
		other := a
		if a == tensor.Uint8 {
			other = b
		}
		if other == tensor.Int8 {
			return tensor.Int16
		}
		return other
	}
	if a.Size() > b.Size() {
		return a
	}
	return b
}

func floatRank(d tensor.DType) int {
	switch d {
	case tensor.Float16, tensor.BFloat16:
		return 1
	case tensor.Float32:
		return 2
	}
	return 3
}

// ResultType returns the dtype of an elementwise operation over operands,
// each a *tensor.Tensor, a Scalar or a Go number (int64, int, float64, bool),
// with PyTorch's rules (at::result_type): dimensioned tensors take priority
// over 0-d tensors, which take priority over numbers (wrapped numbers among
// them, see tensor.Tensor.WrappedNumber), unless a
// lower-priority operand is of a higher category (bool < integral <
// floating); a floating number counts as the default dtype float32.
func ResultType(operands ...any) (tensor.DType, error) {
	var dimR, zeroR, wrapR tensor.DType
	for i, op := range operands {
		switch x := op.(type) {
		case *tensor.Tensor:
			if x == nil {
				continue
			}
			if x.IsWrappedNumber() {
				wrapR = PromoteTypes(wrapR, wrappedDType(x.DType()))
			} else if x.Dim() > 0 {
				dimR = PromoteTypes(dimR, x.DType())
			} else {
				zeroR = PromoteTypes(zeroR, x.DType())
			}
		case Scalar:
			wrapR = PromoteTypes(wrapR, wrappedDType(x.DType()))
		case int64, int:
			wrapR = PromoteTypes(wrapR, tensor.Int64)
		case float64, float32:
			wrapR = PromoteTypes(wrapR, tensor.Float32)
		case bool:
			wrapR = PromoteTypes(wrapR, tensor.Bool)
		default:
			return tensor.Invalid, fmt.Errorf("result type: operand %d is a %s, not a tensor or number", i, typeName(op))
		}
	}
	r := combineCategories(dimR, combineCategories(zeroR, wrapR))
	if r == tensor.Invalid {
		return tensor.Invalid, fmt.Errorf("result type: no operands")
	}
	return r, nil
}

func wrappedDType(d tensor.DType) tensor.DType {
	if d.IsFloat() {
		return tensor.Float32
	}
	return d
}

// combineCategories is ATen's combine_categories for real dtypes.
func combineCategories(higher, lower tensor.DType) tensor.DType {
	if higher.IsFloat() {
		return higher
	}
	if higher == tensor.Bool || lower.IsFloat() {
		return PromoteTypes(higher, lower)
	}
	if higher != tensor.Invalid {
		return higher
	}
	return lower
}

// BroadcastShapes returns the shape that shapes broadcast to under
// PyTorch's rules (align at the right; sizes must be equal or 1), or an
// error naming the first mismatch.
func BroadcastShapes(shapes ...[]int) ([]int, error) {
	n := 0
	for _, s := range shapes {
		n = max(n, len(s))
	}
	out := make([]int, n)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		off := n - len(s)
		for i, d := range s {
			o := out[off+i]
			switch {
			case d == o || d == 1:
			case o == 1:
				out[off+i] = d
			default:
				return nil, fmt.Errorf("the size of tensor a (%d) must match the size of tensor b (%d) at non-singleton dimension %d", o, d, off+i)
			}
		}
	}
	return out, nil
}
