package nn

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Size is the type of a kernel size or output size given to a layer
// constructor: an int for the same size in every spatial dimension, or a
// []int with one size per dimension. PyTorch prints the two differently
// (MaxPool2d(kernel_size=2, ...) against MaxPool2d(kernel_size=(2, 2),
// ...)), and so does Repr.
type Size interface{ int | []int }

// sizeArg is a Size as given: the values and whether it was a tuple.
type sizeArg struct {
	vals  []int
	tuple bool
	set   bool
}

func sizeOf[S Size](s S) sizeArg {
	switch x := any(s).(type) {
	case int:
		return sizeArg{vals: []int{x}, set: true}
	case []int:
		return sizeArg{vals: append([]int(nil), x...), tuple: true, set: true}
	}
	panic("unreachable")
}

func intSize(v int) sizeArg { return sizeArg{vals: []int{v}, set: true} }

// expand returns one value per dimension of an n-d layer: an int
// repeated, a tuple checked for length.
func (s sizeArg) expand(name string, n int) ([]int, error) {
	if !s.tuple {
		out := make([]int, n)
		for i := range out {
			out[i] = s.vals[0]
		}
		return out, nil
	}
	if len(s.vals) != n {
		return nil, fmt.Errorf("%s must be an int or %d ints, got %d", name, n, len(s.vals))
	}
	return append([]int(nil), s.vals...), nil
}

// String prints s as Python prints the argument: 2, (2, 3) or (3,).
func (s sizeArg) String() string {
	if !s.tuple {
		return strconv.Itoa(s.vals[0])
	}
	return pyTuple(s.vals)
}

// pyTuple prints ints as a Python tuple.
func pyTuple(v []int) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.Itoa(x)
	}
	if len(v) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// ints64 converts sizes to the []int64 an int[] operator argument takes.
func ints64(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// config collects the options of every layer constructor; each
// constructor starts from PyTorch's defaults and accepts only its own
// options.
type config struct {
	stride, padding, dilation, outputPadding sizeArg

	groups      int
	bias        bool
	paddingMode string

	ceilMode, countIncludePad bool
	divisorOverride           int

	eps, momentum   float64
	momentumNone    bool
	affine, track   bool
	paddingIdx      int
	paddingIdxGiven bool
}

// option is one constructor option: its PyTorch argument name and how it
// changes the configuration.
type option struct {
	name  string
	apply func(*config)
}

func (o option) opt() option { return o }

// ConvOption configures a convolution layer (NewConv1d, NewConv2d,
// NewConvTranspose2d): Stride, Padding, Dilation, OutputPadding
// (transposed only), Groups, Bias and PaddingMode.
type ConvOption interface {
	opt() option
	convOption()
}

// PoolOption configures a pooling layer (NewMaxPool2d, NewAvgPool2d):
// Stride, Padding, Dilation (max pooling only), CeilMode, and for average
// pooling CountIncludePad and DivisorOverride.
type PoolOption interface {
	opt() option
	poolOption()
}

// NormOption configures a normalization layer (NewBatchNorm1d,
// NewBatchNorm2d, NewLayerNorm, NewGroupNorm): Eps, and Affine for all of
// them; Momentum, CumulativeAverage and TrackRunningStats for batch norm.
type NormOption interface {
	opt() option
	normOption()
}

// EmbeddingOption configures NewEmbedding: PaddingIdx.
type EmbeddingOption interface {
	opt() option
	embeddingOption()
}

// SizeOption is a per-dimension size (Stride, Padding, Dilation,
// OutputPadding): it configures convolutions and pooling layers alike.
type SizeOption struct{ option }

func (SizeOption) convOption() {}
func (SizeOption) poolOption() {}

type convOpt struct{ option }

func (convOpt) convOption() {}

type poolOpt struct{ option }

func (poolOpt) poolOption() {}

type normOpt struct{ option }

func (normOpt) normOption() {}

type embeddingOpt struct{ option }

func (embeddingOpt) embeddingOption() {}

func sizeOption(name string, dst func(*config) *sizeArg, v []int) SizeOption {
	s := sizeArg{vals: append([]int(nil), v...), tuple: len(v) != 1, set: true}
	return SizeOption{option{name, func(c *config) { *dst(c) = s }}}
}

// Stride sets the stride: one int for every dimension (Stride(2)), or one
// per dimension (Stride(2, 1)). Pooling layers default to the kernel size,
// convolutions to 1.
func Stride(s ...int) SizeOption {
	return sizeOption("stride", func(c *config) *sizeArg { return &c.stride }, s)
}

// Padding sets the implicit zero padding on both sides, as Stride: one int
// or one per dimension. The default is 0.
func Padding(p ...int) SizeOption {
	return sizeOption("padding", func(c *config) *sizeArg { return &c.padding }, p)
}

// Dilation sets the spacing between kernel elements, as Stride. The
// default is 1.
func Dilation(d ...int) SizeOption {
	return sizeOption("dilation", func(c *config) *sizeArg { return &c.dilation }, d)
}

// OutputPadding sets the size added to one side of a transposed
// convolution's output, as Stride. The default is 0.
func OutputPadding(p ...int) SizeOption {
	return sizeOption("output_padding", func(c *config) *sizeArg { return &c.outputPadding }, p)
}

// Groups sets the number of blocked connections from input to output
// channels of a convolution (default 1).
func Groups(g int) ConvOption {
	return convOpt{option{"groups", func(c *config) { c.groups = g }}}
}

// Bias sets whether a convolution has a learnable bias (default true).
func Bias(on bool) ConvOption {
	return convOpt{option{"bias", func(c *config) { c.bias = on }}}
}

// PaddingMode sets a convolution's padding mode; only PyTorch's default,
// "zeros", is supported (others are a construction error).
func PaddingMode(mode string) ConvOption {
	return convOpt{option{"padding_mode", func(c *config) { c.paddingMode = mode }}}
}

// CeilMode sets whether pooling uses ceil instead of floor to compute the
// output shape (default false).
func CeilMode(on bool) PoolOption {
	return poolOpt{option{"ceil_mode", func(c *config) { c.ceilMode = on }}}
}

// CountIncludePad sets whether average pooling counts the zero padding in
// the divisor (default true).
func CountIncludePad(on bool) PoolOption {
	return poolOpt{option{"count_include_pad", func(c *config) { c.countIncludePad = on }}}
}

// DivisorOverride makes average pooling divide by d instead of the pooling
// region's size (default: no override).
func DivisorOverride(d int) PoolOption {
	return poolOpt{option{"divisor_override", func(c *config) { c.divisorOverride = d }}}
}

// Eps sets the value added to the variance for numerical stability
// (default 1e-5).
func Eps(eps float64) NormOption {
	return normOpt{option{"eps", func(c *config) { c.eps = eps }}}
}

// Momentum sets the weight of the new batch statistics in batch norm's
// running statistics (default 0.1).
func Momentum(m float64) NormOption {
	return normOpt{option{"momentum", func(c *config) { c.momentum, c.momentumNone = m, false }}}
}

// CumulativeAverage is PyTorch's momentum=None: batch norm's running
// statistics become the cumulative moving average of the batch statistics.
func CumulativeAverage() NormOption {
	return normOpt{option{"momentum", func(c *config) { c.momentumNone = true }}}
}

// Affine sets whether a normalization layer has learnable per-element
// weight and bias (default true): PyTorch's affine, or elementwise_affine
// for LayerNorm.
func Affine(on bool) NormOption {
	return normOpt{option{"affine", func(c *config) { c.affine = on }}}
}

// TrackRunningStats sets whether batch norm keeps running statistics
// (default true); without them it normalizes with batch statistics in
// evaluation mode too.
func TrackRunningStats(on bool) NormOption {
	return normOpt{option{"track_running_stats", func(c *config) { c.track = on }}}
}

// PaddingIdx sets the index of an embedding row that is initialized to
// zeros (negative counts from the end), as PyTorch's padding_idx.
func PaddingIdx(i int) EmbeddingOption {
	return embeddingOpt{option{"padding_idx", func(c *config) { c.paddingIdx, c.paddingIdxGiven = i, true }}}
}

// defaults returns PyTorch's defaults for every option.
func defaults() config {
	return config{
		groups: 1, bias: true, paddingMode: "zeros",
		countIncludePad: true,
		eps:             1e-5, momentum: 0.1, affine: true, track: true,
	}
}

// configure applies opts to PyTorch's defaults, recording an option that
// the layer does not take (one not in allowed) as a construction error.
func configure[O interface{ opt() option }](b *Base, allowed []string, opts []O) config {
	c := defaults()
	for _, o := range opts {
		op := o.opt()
		ok := false
		for _, a := range allowed {
			ok = ok || a == op.name
		}
		if !ok {
			b.Fail(fmt.Errorf("%s: unexpected option %s", b.TypeName(), op.name))
			continue
		}
		op.apply(&c)
	}
	return c
}

// pyFloat prints a float as Python's repr does (0.1, 1.0, 1e-05, nan).
func pyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	if f != 0 {
		if e := math.Floor(math.Log10(math.Abs(f))); e < -4 || e >= 16 {
			return strconv.FormatFloat(f, 'e', -1, 64)
		}
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
