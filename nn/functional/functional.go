package functional

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/ops"
)

var (
	opRelu              = nn.Op("aten::relu")
	opRelu6             = nn.Op("aten::relu6")
	opGelu              = nn.Op("aten::gelu")
	opSilu              = nn.Op("aten::silu")
	opSigmoid           = nn.Op("aten::sigmoid")
	opNeg               = nn.Op("aten::neg")
	opTanh              = nn.Op("aten::tanh")
	opHardtanh          = nn.Op("aten::hardtanh")
	opLeakyRelu         = nn.Op("aten::leaky_relu")
	opHardswish         = nn.Op("aten::hardswish")
	opSoftmax           = nn.Op("aten::softmax.int")
	opLogSoftmax        = nn.Op("aten::log_softmax.int")
	opDropout           = nn.Op("aten::dropout")
	opLinear            = nn.Op("aten::linear")
	opConv1d            = nn.Op("aten::conv1d")
	opConv2d            = nn.Op("aten::conv2d")
	opConvTranspose2d   = nn.Op("aten::conv_transpose2d.input")
	opBatchNorm         = nn.Op("aten::batch_norm")
	opLayerNorm         = nn.Op("aten::layer_norm")
	opGroupNorm         = nn.Op("aten::group_norm")
	opEmbedding         = nn.Op("aten::embedding")
	opMaxPool2d         = nn.Op("aten::max_pool2d")
	opAvgPool2d         = nn.Op("aten::avg_pool2d")
	opAdaptiveAvgPool2d = nn.Op("aten::adaptive_avg_pool2d")
	opFlatten           = nn.Op("aten::flatten.using_ints")
	opCat               = nn.Op("aten::cat")
	opSum, opSumDim     = nn.Op("aten::sum"), nn.Op("aten::sum.dim_IntList")
	opMean, opMeanDim   = nn.Op("aten::mean"), nn.Op("aten::mean.dim")
	opTopK              = nn.Op("aten::topk")
	opMatmul            = nn.Op("aten::matmul")
	opAddT              = nn.Op("aten::add.Tensor")
	opSin               = nn.Op("aten::sin")
	opCos               = nn.Op("aten::cos")
	opWhere             = nn.Op("aten::where.self")
	opExp               = nn.Op("aten::exp")
)

// ReLU is F.relu: aten::relu(x).
func ReLU(x nn.Value) nn.Value { return nn.CallOp(opRelu, x) }

// ReLU6 is F.relu6: aten::relu6(x).
func ReLU6(x nn.Value) nn.Value { return nn.CallOp(opRelu6, x) }

// GELU is F.gelu: aten::gelu(x, approximate=...), approximate being "none"
// (or "", the default) or "tanh".
func GELU(x nn.Value, approximate string) nn.Value {
	if approximate == "" {
		approximate = "none"
	}
	return nn.CallOpKw(opGelu, []any{x}, map[string]any{"approximate": approximate})
}

// SiLU is F.silu: aten::silu(x).
func SiLU(x nn.Value) nn.Value { return nn.CallOp(opSilu, x) }

// Sigmoid is torch.sigmoid: aten::sigmoid(x).
func Sigmoid(x nn.Value) nn.Value { return nn.CallOp(opSigmoid, x) }

// Neg is torch.neg(x), recorded as call_function aten.neg.default (x.Neg()
// is the method x.neg()).
func Neg(x nn.Value) nn.Value { return nn.CallOp(opNeg, x) }

// Tanh is torch.tanh: aten::tanh(x).
func Tanh(x nn.Value) nn.Value { return nn.CallOp(opTanh, x) }

// Hardtanh is F.hardtanh: aten::hardtanh(x, min, max) (PyTorch's defaults
// are -1 and 1).
func Hardtanh(x nn.Value, min, max float64) nn.Value { return nn.CallOp(opHardtanh, x, min, max) }

// LeakyReLU is F.leaky_relu: aten::leaky_relu(x, negativeSlope) (PyTorch's
// default slope is 0.01).
func LeakyReLU(x nn.Value, negativeSlope float64) nn.Value {
	return nn.CallOp(opLeakyRelu, x, negativeSlope)
}

// Hardswish is F.hardswish: aten::hardswish(x).
func Hardswish(x nn.Value) nn.Value { return nn.CallOp(opHardswish, x) }

// Softmax is F.softmax(x, dim): aten::softmax.int.
func Softmax(x nn.Value, dim int) nn.Value { return nn.CallOp(opSoftmax, x, dim) }

// LogSoftmax is F.log_softmax(x, dim): aten::log_softmax.int.
func LogSoftmax(x nn.Value, dim int) nn.Value { return nn.CallOp(opLogSoftmax, x, dim) }

// Dropout is F.dropout(x, p, training): aten::dropout(x, p, training),
// which returns x unchanged when not training. p outside [0, 1] fails.
func Dropout(x nn.Value, p float64, training bool) nn.Value {
	if !(p >= 0 && p <= 1) {
		nn.Fail(fmt.Errorf("%s: dropout probability has to be between 0 and 1, but got %v", opDropout.Schema().QualifiedName(), p))
	}
	return nn.CallOp(opDropout, x, p, training)
}

// Linear is F.linear: aten::linear(x, weight, bias), bias nn.None for
// none.
func Linear(x, weight, bias nn.Value) nn.Value { return nn.CallOp(opLinear, x, weight, bias) }

// ConvOptions are a convolution's hyper-parameters; the zero value is
// PyTorch's defaults (stride 1, padding 0, dilation 1, groups 1). Each
// size has one element for every spatial dimension or one per dimension.
type ConvOptions struct {
	Stride, Padding, Dilation []int
	Groups                    int
}

// ConvTransposeOptions are a transposed convolution's hyper-parameters;
// the zero value is PyTorch's defaults (stride 1, padding 0, output
// padding 0, dilation 1, groups 1).
type ConvTransposeOptions struct {
	Stride, Padding, OutputPadding, Dilation []int
	Groups                                   int
}

// size returns v as an int[] argument, or def (repeated for one element)
// when v is nil.
func size(v []int, def int) []int64 {
	if v == nil {
		return []int64{int64(def)}
	}
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

func groups(g int) int {
	if g == 0 {
		return 1
	}
	return g
}

// Conv1d is F.conv1d: aten::conv1d(x, weight, bias, stride, padding,
// dilation, groups).
func Conv1d(x, weight, bias nn.Value, o ConvOptions) nn.Value {
	return nn.CallOp(opConv1d, x, weight, bias, size(o.Stride, 1), size(o.Padding, 0), size(o.Dilation, 1), groups(o.Groups))
}

// Conv2d is F.conv2d: aten::conv2d(x, weight, bias, stride, padding,
// dilation, groups).
func Conv2d(x, weight, bias nn.Value, o ConvOptions) nn.Value {
	return nn.CallOp(opConv2d, x, weight, bias, size(o.Stride, 1), size(o.Padding, 0), size(o.Dilation, 1), groups(o.Groups))
}

// ConvTranspose2d is F.conv_transpose2d: aten::conv_transpose2d.input(x,
// weight, bias, stride, padding, output_padding, groups, dilation).
func ConvTranspose2d(x, weight, bias nn.Value, o ConvTransposeOptions) nn.Value {
	return nn.CallOp(opConvTranspose2d, x, weight, bias, size(o.Stride, 1), size(o.Padding, 0),
		size(o.OutputPadding, 0), groups(o.Groups), size(o.Dilation, 1))
}

// verifyBatchSize is F._verify_batch_size: statistics over one value per
// channel fail.
func verifyBatchSize(op *ops.Operator, shape []int) {
	n := shape[0]
	for _, s := range shape[2:] {
		n *= s
	}
	if n == 1 {
		nn.Fail(fmt.Errorf("%s: Expected more than 1 value per channel when training, got input size %s", op.Schema().QualifiedName(), strings.ReplaceAll(fmt.Sprint(shape), " ", ", ")))
	}
}

// BatchNorm is F.batch_norm(x, running_mean, running_var, weight, bias,
// training, momentum, eps): aten::batch_norm. Any of the four tensors may
// be nn.None (the running statistics only when training); when training
// the running statistics are updated in place. PyTorch's defaults are
// training=false, momentum=0.1, eps=1e-5.
func BatchNorm(x, runningMean, runningVar, weight, bias nn.Value, training bool, momentum, eps float64) nn.Value {
	if t := x.Tensor(); t != nil && training && t.Dim() >= 2 {
		verifyBatchSize(opBatchNorm, t.Shape())
	}
	return nn.CallOp(opBatchNorm, x, weight, bias, runningMean, runningVar, training, momentum, eps, true)
}

// LayerNorm is F.layer_norm: aten::layer_norm(x, normalizedShape, weight,
// bias, eps) over the trailing dimensions normalizedShape; weight and bias
// may be nn.None. PyTorch's default eps is 1e-5.
func LayerNorm(x nn.Value, normalizedShape []int, weight, bias nn.Value, eps float64) nn.Value {
	return nn.CallOp(opLayerNorm, x, size(normalizedShape, 1), weight, bias, eps, true)
}

// GroupNorm is F.group_norm: aten::group_norm(x, numGroups, weight, bias,
// eps); weight and bias may be nn.None. PyTorch's default eps is 1e-5.
func GroupNorm(x nn.Value, numGroups int, weight, bias nn.Value, eps float64) nn.Value {
	t := x.Tensor()
	if t != nil && t.Dim() >= 2 && numGroups > 0 {
		sh := t.Shape()
		verifyBatchSize(opGroupNorm, append([]int{sh[0] * sh[1] / numGroups, numGroups}, sh[2:]...))
	}
	return nn.CallOp(opGroupNorm, x, numGroups, weight, bias, eps, true)
}

// Embedding is F.embedding(input, weight): aten::embedding(weight, input),
// the rows of weight at the integer indices input. (PyTorch's padding_idx
// only changes gradients, which gofx does not compute.)
func Embedding(input, weight nn.Value) nn.Value { return nn.CallOp(opEmbedding, weight, input) }

// MaxPoolOptions are max pooling's hyper-parameters; the zero value is
// PyTorch's defaults (stride the kernel size, padding 0, dilation 1, floor
// mode).
type MaxPoolOptions struct {
	Stride, Padding, Dilation []int
	CeilMode                  bool
}

// MaxPool2d is F.max_pool2d: aten::max_pool2d(x, kernel, stride, padding,
// dilation, ceil_mode); kernel has one element or two.
func MaxPool2d(x nn.Value, kernel []int, o MaxPoolOptions) nn.Value {
	stride := o.Stride
	if stride == nil {
		stride = kernel
	}
	return nn.CallOp(opMaxPool2d, x, size(kernel, 0), size(stride, 0), size(o.Padding, 0), size(o.Dilation, 1), o.CeilMode)
}

// AvgPoolOptions are average pooling's hyper-parameters; the zero value is
// PyTorch's defaults (stride the kernel size, padding 0, floor mode,
// count_include_pad=True, no divisor override).
type AvgPoolOptions struct {
	Stride, Padding []int
	CeilMode        bool
	ExcludePad      bool // PyTorch's count_include_pad=False
	DivisorOverride int  // 0: none
}

// AvgPool2d is F.avg_pool2d: aten::avg_pool2d(x, kernel, stride, padding,
// ceil_mode, count_include_pad, divisor_override); kernel has one element
// or two.
func AvgPool2d(x nn.Value, kernel []int, o AvgPoolOptions) nn.Value {
	stride := o.Stride
	if stride == nil {
		stride = kernel
	}
	div := nn.None
	if o.DivisorOverride != 0 {
		div = nn.Of(o.DivisorOverride)
	}
	return nn.CallOp(opAvgPool2d, x, size(kernel, 0), size(stride, 0), size(o.Padding, 0), o.CeilMode, !o.ExcludePad, div)
}

// AdaptiveAvgPool2d is F.adaptive_avg_pool2d: aten::adaptive_avg_pool2d(x,
// outputSize); outputSize has one element or two.
func AdaptiveAvgPool2d(x nn.Value, outputSize []int) nn.Value {
	s := size(outputSize, 0)
	if len(s) == 1 {
		s = []int64{s[0], s[0]}
	}
	return nn.CallOp(opAdaptiveAvgPool2d, x, s)
}

// Flatten is torch.flatten(x, start, end): aten::flatten.using_ints
// (PyTorch's defaults are 0 and -1).
func Flatten(x nn.Value, start, end int) nn.Value { return nn.CallOp(opFlatten, x, start, end) }

// Cat is torch.cat(xs, dim): aten::cat.
func Cat(xs []nn.Value, dim int) nn.Value { return nn.CallOp(opCat, nn.Tuple(xs...), dim) }

// reduce calls the full reduction for no dims and no keepdim, the
// dimension overload otherwise (nil dims with keepdim reduce all
// dimensions).
func reduce(full, byDim *ops.Operator, x nn.Value, dims []int, keepdim bool) nn.Value {
	if dims == nil && !keepdim {
		return nn.CallOp(full, x)
	}
	d := nn.None
	if dims != nil {
		d = nn.Of(size(dims, 0))
	}
	return nn.CallOp(byDim, x, d, keepdim)
}

// Sum is torch.sum: aten::sum(x) for nil dims without keepdim, else
// aten::sum.dim_IntList(x, dims, keepdim).
func Sum(x nn.Value, dims []int, keepdim bool) nn.Value {
	return reduce(opSum, opSumDim, x, dims, keepdim)
}

// Mean is torch.mean: aten::mean(x) for nil dims without keepdim, else
// aten::mean.dim(x, dims, keepdim).
func Mean(x nn.Value, dims []int, keepdim bool) nn.Value {
	return reduce(opMean, opMeanDim, x, dims, keepdim)
}

// TopK is torch.topk(x, k, dim, largest, sorted): aten::topk, the tuple
// (values, indices) (PyTorch's defaults are dim=-1, largest=True,
// sorted=True).
func TopK(x nn.Value, k, dim int, largest, sorted bool) nn.Value {
	return nn.CallOp(opTopK, x, k, dim, largest, sorted)
}

// Matmul is torch.matmul: aten::matmul(x, y).
func Matmul(x, y nn.Value) nn.Value { return nn.CallOp(opMatmul, x, y) }

// Add is torch.add(x, y, alpha=alpha): x + alpha·y with aten::add.Tensor.
// A number y is passed as a wrapped number, as PyTorch's Python binding
// passes it (torch.add(x, 1) is recorded as aten.add.Tensor(x, 1): Python
// never calls aten::add.Scalar). alpha is a number, or nn.None for
// PyTorch's default 1 (left out of the call).
func Add(x, y, alpha nn.Value) nn.Value {
	if alpha.IsNone() {
		return nn.CallOp(opAddT, x, y)
	}
	return nn.CallOpKw(opAddT, []any{x, y}, map[string]any{"alpha": alpha})
}

// Sin is torch.sin: aten::sin(x).
func Sin(x nn.Value) nn.Value { return nn.CallOp(opSin, x) }

// Cos is torch.cos: aten::cos(x).
func Cos(x nn.Value) nn.Value { return nn.CallOp(opCos, x) }

// Where is torch.where(condition, x, y): aten::where.self, the elements of
// x where condition is true and of y elsewhere. It is how traced code
// chooses between two computed branches by data (Go's if cannot be
// traced on tensor values).
func Where(condition, x, y nn.Value) nn.Value { return nn.CallOp(opWhere, condition, x, y) }

// Exp is torch.exp: aten::exp(x).
func Exp(x nn.Value) nn.Value { return nn.CallOp(opExp, x) }
