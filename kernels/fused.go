package kernels

import (
	"errors"
	"math"
	"slices"

	fastgemm "github.com/gofx/gofx/internal/gemm"
	"github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// gofx's fused operators (ops/schemas/gofx.txt), which passes.FuseEpilogues
// creates: a convolution or a linear layer whose activation (ReLU, hardtanh,
// clamp) and residual add are applied in the product's final stores instead
// of by separate operators reading and writing the whole result again.
//
//	gofx::convolution_relu       relu(convolution(...))
//	gofx::convolution_hardtanh   hardtanh(convolution(...), min_val, max_val)   (ReLU6: 0, 6)
//	gofx::convolution_clamp      clamp(convolution(...), min, max)
//	gofx::convolution_add_relu   relu(add(convolution(...), other))
//	gofx::addmm_relu             relu(addmm(self, mat1, mat2, beta, alpha))
//	gofx::linear_relu            relu(linear(input, weight, bias))
//
// Each computes what its decomposition (decomp's rules, back to those aten
// operators) computes: the result's shape and the epilogue's arguments are
// first checked on meta tensors by the aten operators' meta functions, so
// a bad bound or an operand that does not broadcast is the aten operator's
// error. A float32 or float64 convolution whose residual (if any) has the
// result's shape and dtype runs convolutionEpilogue (convolution.go: the
// bias and residual applied in internal/gemm's final stores), then the
// clamp as one pass of internal/vec's loop over the result;
// addmm_relu and linear_relu of 2-D float matrices with a one-row bias are
// one GEMM with the bias and ReLU in internal/gemm's epilogue; every other
// case (integers, reduced floats, a residual that broadcasts or promotes,
// beta or alpha other than 1) runs the aten operators themselves, the
// activation applied in place where it can (as ATen's clamp: NaN stays
// NaN).

// registerFused registers the kernels of fused.go.
func registerFused() {
	registerBoth("gofx::convolution_relu", fusedConvolution(epRelu))
	registerBoth("gofx::convolution_hardtanh", fusedConvolution(epHardtanh))
	registerBoth("gofx::convolution_clamp", fusedConvolution(epClamp))
	registerBoth("gofx::convolution_add_relu", fusedConvolution(epAddRelu))
	registerBoth("gofx::addmm_relu", addmmRelu)
	registerBoth("gofx::linear_relu", linearRelu)
}

// epKind is the epilogue of a fused operator.
type epKind int

const (
	epRelu     epKind = iota // relu
	epHardtanh               // hardtanh(min_val, max_val)
	epClamp                  // clamp(min, max)
	epAddRelu                // relu(x + other)
)

// epilogue is an activation applied in place: v = min(max(v, lo), hi),
// each bound only when set, NaN left as it is.
type epilogue struct {
	hasLo, hasHi bool
	lo, hi       float64
}

// reluEpilogue is ReLU's.
var reluEpilogue = epilogue{hasLo: true}

// epilogueOf returns the activation of a fused operator's call, after
// checking the epilogue's aten operators accept the result x and the
// call's arguments (on meta tensors), and the residual operand (nil for
// none).
func epilogueOf(c *ops.Call, k epKind, x *tensor.Tensor) (epilogue, *tensor.Tensor, error) {
	rename := map[string]string{"self": "input"}
	xm := x.Meta()
	switch k {
	case epHardtanh:
		lo, hi := c.Scalar("min_val"), c.Scalar("max_val")
		if _, err := callOp(c, "aten::hardtanh", []any{xm, lo, hi}, rename); err != nil {
			return epilogue{}, nil, err
		}
		return epilogue{hasLo: true, hasHi: true, lo: lo.Float(), hi: hi.Float()}, nil, nil
	case epClamp:
		var args [2]any
		var ep epilogue
		if s, ok := c.OptScalar("min"); ok {
			args[0], ep.hasLo, ep.lo = s, true, s.Float()
		}
		if s, ok := c.OptScalar("max"); ok {
			args[1], ep.hasHi, ep.hi = s, true, s.Float()
		}
		if _, err := callOp(c, "aten::clamp", []any{xm, args[0], args[1]}, rename); err != nil {
			return epilogue{}, nil, err
		}
		return ep, nil, nil
	case epAddRelu:
		other := c.Tensor("other")
		if _, err := callOp(c, "aten::add.Tensor", []any{xm, other.Meta()}, rename); err != nil {
			return epilogue{}, nil, err
		}
		return reluEpilogue, other, nil
	}
	if _, err := callOp(c, "aten::relu", []any{xm}, rename); err != nil {
		return epilogue{}, nil, err
	}
	return reluEpilogue, nil, nil
}

// epilogueInPlace reports whether the epilogue can finish x in place: a float32
// or float64 result, fresh and contiguous, and a residual (or none) of the
// same dtype and shape.
func epilogueInPlace(x, other *tensor.Tensor) bool {
	if !x.IsContiguous() || x.DType() != tensor.Float32 && x.DType() != tensor.Float64 {
		return false
	}
	return other == nil || other.DType() == x.DType() && slices.Equal(other.Shape(), x.Shape())
}

// finishEpilogue applies the epilogue to x: in place where epilogueInPlace allows,
// through the aten operators otherwise.
func finishEpilogue(c *ops.Call, k epKind, x *tensor.Tensor) (*tensor.Tensor, error) {
	ep, other, err := epilogueOf(c, k, x)
	if err != nil {
		return nil, err
	}
	if !x.IsMeta() && epilogueInPlace(x, other) {
		switch x.DType() {
		case tensor.Float32:
			applyEpilogue(tensor.Data[float32](x)[x.Offset():x.Offset()+x.Numel()], valuesOr[float32](other), ep)
		case tensor.Float64:
			applyEpilogue(tensor.Data[float64](x)[x.Offset():x.Offset()+x.Numel()], valuesOr[float64](other), ep)
		}
		return x, nil
	}
	rename := map[string]string{"self": "input"}
	var out []any
	switch k {
	case epHardtanh:
		out, err = callOp(c, "aten::hardtanh", []any{x, c.Scalar("min_val"), c.Scalar("max_val")}, rename)
	case epClamp:
		var lo, hi any
		if s, ok := c.OptScalar("min"); ok {
			lo = s
		}
		if s, ok := c.OptScalar("max"); ok {
			hi = s
		}
		out, err = callOp(c, "aten::clamp", []any{x, lo, hi}, rename)
	case epAddRelu:
		if out, err = callOp(c, "aten::add.Tensor", []any{x, c.Tensor("other")}, rename); err == nil {
			out, err = callOp(c, "aten::relu", []any{out[0]}, rename)
		}
	default:
		out, err = callOp(c, "aten::relu", []any{x}, rename)
	}
	if err != nil {
		return nil, err
	}
	return out[0].(*tensor.Tensor), nil
}

// valuesOr returns t's elements in row-major order, nil for a nil t.
func valuesOr[T float32 | float64](t *tensor.Tensor) []T {
	if t == nil {
		return nil
	}
	if t.IsContiguous() {
		return tensor.Data[T](t)[t.Offset() : t.Offset()+t.Numel()]
	}
	return tensor.Values[T](t)
}

// applyEpilogue computes x[i] = clamp(x[i] + other[i]) in place (other
// nil: no addition) with internal/vec's loops, in parallel chunks; the
// bounds are the dtype's values of ep's, as ATen's clamp converts its
// scalars.
func applyEpilogue[T float32 | float64](x, other []T, ep epilogue) {
	lo, hi := T(ep.lo), T(ep.hi)
	if !ep.hasLo {
		lo = T(math.Inf(-1))
	}
	if !ep.hasHi {
		hi = T(math.Inf(1))
	}
	if math.IsNaN(float64(lo)) || math.IsNaN(float64(hi)) {
		// internal/vec's clamp takes no NaN bound: element by element,
		// as the comparisons give it.
		parallel(len(x), len(x), func(i0, i1 int) {
			for i := i0; i < i1; i++ {
				v := x[i]
				if other != nil {
					v += other[i]
				}
				if v < lo {
					v = lo
				}
				if v > hi {
					v = hi
				}
				x[i] = v
			}
		})
		return
	}
	clamp := ep.hasLo || ep.hasHi
	parallel(len(x), len(x), func(i0, i1 int) {
		if other != nil {
			vec.Binary(vec.Add, x[i0:i1], x[i0:i1], other[i0:i1])
		}
		if clamp {
			vec.Clamp(x[i0:i1], x[i0:i1], lo, hi)
		}
	})
}

// fusedConvolution is the kernel (and meta function) of a fused
// convolution. The result's shape and the epilogue's arguments are checked
// on meta tensors first (aten::convolution's meta function, then the
// epilogue's aten operators); a float32 or float64 result whose residual
// (if any) has its shape and dtype is then computed by
// convolutionEpilogue, the epilogue applied in the GEMM's final stores;
// anything else is aten::convolution's kernel followed by the epilogue's
// aten operators.
func fusedConvolution(k epKind) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		x, w, bias := c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias")
		stride, padding, dilation := c.Ints("stride"), c.Ints("padding"), c.Ints("dilation")
		transposed, outPad, groups := c.Bool("transposed"), c.Ints("output_padding"), c.Int("groups")
		var bm *tensor.Tensor
		if bias != nil {
			bm = bias.Meta()
		}
		shape, err := convolve(c, x.Meta(), w.Meta(), bm, stride, padding, dilation, transposed, outPad, groups)
		if err != nil {
			return nil, err
		}
		ep, other, err := epilogueOf(c, k, shape)
		if err != nil {
			return nil, err
		}
		if !meta(x, w, bias, other) && epilogueInPlace(shape, other) && !math.IsNaN(ep.lo) && !math.IsNaN(ep.hi) {
			// The product's stores add the bias and the residual; the
			// clamp follows as one vectorised pass (applyEpilogue) over
			// the whole result. Passing the clamp to convolutionEpilogue
			// (vec.AddClamp on each stored row) measured slower on
			// mobilenet_v2 (16.5-17.0 against 14.1-14.5 cpu-ms a run,
			// one core): the stores' rows are short (a 12×32 tile's, a
			// depthwise output row), and each row's call costs more than
			// the clamp itself.
			out, err := convolutionEpilogue(c, x, w, bias, stride, padding, dilation, transposed, outPad, groups, other, false, 0, 0)
			if err != nil {
				return nil, err
			}
			switch out.DType() {
			case tensor.Float32:
				applyEpilogue(tensor.Data[float32](out)[out.Offset():out.Offset()+out.Numel()], nil, ep)
			case tensor.Float64:
				applyEpilogue(tensor.Data[float64](out)[out.Offset():out.Offset()+out.Numel()], nil, ep)
			}
			return one(out), nil
		}
		out, err := convolve(c, x, w, bias, stride, padding, dilation, transposed, outPad, groups)
		if err != nil {
			return nil, err
		}
		return oneOrErr(finishEpilogue(c, k, out))
	}
}

// addmmRelu is gofx::addmm_relu: relu(addmm(self, mat1, mat2, beta,
// alpha)). A float32 or float64 product of 2-D matrices with beta and
// alpha 1 and a bias of one row (or a 1-D one) is one GEMM whose final
// stores add the bias and apply ReLU; anything else is addmm's kernel
// followed by ReLU.
func addmmRelu(c *ops.Call) ([]any, error) {
	self, a, b := c.Tensor("self"), c.Tensor("mat1"), c.Tensor("mat2")
	beta, alpha := c.Scalar("beta"), c.Scalar("alpha")
	if out, ok := gemmRelu(self, a, b, beta, alpha); ok {
		return one(out), nil
	}
	out, err := op("aten::addmm").Call([]any{self, a, b}, map[string]any{"beta": beta, "alpha": alpha})
	if err != nil {
		return nil, callError(c, err)
	}
	return oneOrErr(finishEpilogue(c, epRelu, out[0].(*tensor.Tensor)))
}

// linearRelu is gofx::linear_relu: relu(linear(input, weight, bias)), one
// GEMM with the bias and ReLU in its final stores for a float32 or float64
// 2-D input and a 1-D bias.
func linearRelu(c *ops.Call) ([]any, error) {
	x, w, bias := c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias")
	if bias != nil && w.Dim() == 2 {
		if out, ok := gemmRelu(bias, x, tensor.Must(w.T()), ops.IntScalar(1), ops.IntScalar(1)); ok {
			return one(out), nil
		}
	}
	out, err := callOp(c, "aten::linear", []any{x, w, bias}, nil)
	if err != nil {
		return nil, err
	}
	return oneOrErr(finishEpilogue(c, epRelu, out[0].(*tensor.Tensor)))
}

// gemmRelu computes relu(bias + a @ b) as one GEMM with internal/gemm's
// epilogue when the operands allow it (real tensors of one float dtype,
// a and b 2-D and multipliable, bias 1-D of b's width, beta and alpha 1);
// ok is false otherwise, and the caller takes the general path.
func gemmRelu(bias, a, b *tensor.Tensor, beta, alpha ops.Scalar) (*tensor.Tensor, bool) {
	dt := a.DType()
	if meta(bias, a, b) || dt != tensor.Float32 && dt != tensor.Float64 || b.DType() != dt || bias.DType() != dt {
		return nil, false
	}
	if a.Dim() != 2 || b.Dim() != 2 || bias.Dim() != 1 || a.Size(1) != b.Size(0) || bias.Size(0) != b.Size(1) {
		return nil, false
	}
	if !isOne(beta) || !isOne(alpha) {
		return nil, false
	}
	m, k, n := a.Size(0), a.Size(1), b.Size(1)
	if m == 0 || n == 0 || k == 0 {
		return nil, false
	}
	out := tensor.Empty(dt, m, n)
	switch dt {
	case tensor.Float32:
		return out, gemmEpilogue[float32](a, b, bias, out, m, n, k)
	default:
		return out, gemmEpilogue[float64](a, b, bias, out, m, n, k)
	}
}

// callError turns the error of an operator the kernel of c called into
// one of c blaming the same argument.
func callError(c *ops.Call, err error) error {
	var ce *ops.CallError
	if errors.As(err, &ce) && ce.Arg != "" {
		return c.Errorf(ce.Arg, "%v", ce.Err)
	}
	return c.Errorf("self", "%v", err)
}

// isOne reports whether s is the number 1 (not True).
func isOne(s ops.Scalar) bool { return (s.IsInt() || s.IsFloat()) && s.Float() == 1 }

// gemmEpilogue computes out = relu(a @ b + bias) with internal/gemm; false
// when the GEMM refuses its operands (the caller falls back).
func gemmEpilogue[T float32 | float64](a, b, bias, out *tensor.Tensor, m, n, k int) bool {
	ad, lda, tA := operand[T](a)
	bd, ldb, tB := operand[T](b)
	ep := &fastgemm.Epilogue[T]{ColBias: valuesOr[T](bias), Clamp: true, Max: T(math.Inf(1))}
	c := tensor.Data[T](out)
	return fastgemm.GemmEpilogue(tA, tB, m, n, k, 1, ad, lda, bd, ldb, 0, c, n, ep) == nil
}
