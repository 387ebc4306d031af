package nn

import "fmt"

var (
	opMaxPool2d         = Op("aten::max_pool2d")
	opAvgPool2d         = Op("aten::avg_pool2d")
	opAdaptiveAvgPool2d = Op("aten::adaptive_avg_pool2d")
)

// poolSizes expands the pooling sizes to one value per dimension, checking
// their ranges, and returns them with the arguments as given (for Repr).
func poolSizes(b *Base, kernel sizeArg, c *config, withDilation bool) (k, s, p, d []int) {
	if !c.stride.set {
		c.stride = kernel
	}
	if !c.padding.set {
		c.padding = intSize(0)
	}
	if !c.dilation.set {
		c.dilation = intSize(1)
	}
	sizes := []struct {
		name string
		arg  sizeArg
		dst  *[]int
		min  int
	}{
		{"kernel_size", kernel, &k, 1},
		{"stride", c.stride, &s, 1},
		{"padding", c.padding, &p, 0},
		{"dilation", c.dilation, &d, 1},
	}
	if !withDilation {
		sizes = sizes[:3]
	}
	for _, sz := range sizes {
		v, err := sz.arg.expand(sz.name, 2)
		if err != nil {
			b.Fail(fmt.Errorf("%s: %w", b.TypeName(), err))
			v = []int{sz.min, sz.min}
		}
		for i, x := range v {
			if x < sz.min {
				b.Fail(fmt.Errorf("%s: %s must be at least %d, got %s", b.TypeName(), sz.name, sz.min, sz.arg))
				v[i] = sz.min
			}
		}
		*sz.dst = v
	}
	return k, s, p, d
}

// MaxPool2d is torch.nn.MaxPool2d: the maximum over KernelSize windows of
// [N, C, H, W] (or [C, H, W]) inputs. PyTorch's return_indices is not
// supported.
type MaxPool2d struct {
	Base
	KernelSize, Stride, Padding, Dilation []int // one per dimension
	CeilMode                              bool

	given [4]sizeArg // kernel_size, stride, padding, dilation as given
}

// NewMaxPool2d returns a MaxPool2d layer with the given kernel size (an int
// or []int{kh, kw}); the stride defaults to the kernel size:
//
//	nn.NewMaxPool2d(2)
//	nn.NewMaxPool2d(3, nn.Stride(2), nn.Padding(1))
func NewMaxPool2d[K Size](kernel K, opts ...PoolOption) *MaxPool2d {
	l := &MaxPool2d{}
	l.Init(l, "MaxPool2d")
	c := configure(&l.Base, []string{"stride", "padding", "dilation", "ceil_mode"}, opts)
	ks := sizeOf(kernel)
	l.KernelSize, l.Stride, l.Padding, l.Dilation = poolSizes(&l.Base, ks, &c, true)
	l.CeilMode = c.ceilMode
	l.given = [4]sizeArg{ks, c.stride, c.padding, c.dilation}
	return l
}

// Forward computes aten::max_pool2d(x, kernel_size, stride, padding,
// dilation, ceil_mode).
func (l *MaxPool2d) Forward(x Value) Value {
	return CallOp(opMaxPool2d, x, ints64(l.KernelSize), ints64(l.Stride), ints64(l.Padding), ints64(l.Dilation), l.CeilMode)
}

// Call is Call(l, x).
func (l *MaxPool2d) Call(x Value) Value { return Call(l, x) }

// ExtraRepr is what PyTorch prints between the parentheses:
// `kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False`.
func (l *MaxPool2d) ExtraRepr() string {
	return fmt.Sprintf("kernel_size=%s, stride=%s, padding=%s, dilation=%s, ceil_mode=%s",
		l.given[0], l.given[1], l.given[2], l.given[3], pyBool(l.CeilMode))
}

// AvgPool2d is torch.nn.AvgPool2d: the average over KernelSize windows of
// [N, C, H, W] (or [C, H, W]) inputs.
type AvgPool2d struct {
	Base
	KernelSize, Stride, Padding []int // one per dimension
	CeilMode                    bool
	CountIncludePad             bool
	DivisorOverride             int // 0: none

	given [3]sizeArg // kernel_size, stride, padding as given
}

// NewAvgPool2d returns an AvgPool2d layer with the given kernel size (an int
// or []int{kh, kw}); the stride defaults to the kernel size:
//
//	nn.NewAvgPool2d(3, nn.Stride(2), nn.Padding(1), nn.CountIncludePad(false))
func NewAvgPool2d[K Size](kernel K, opts ...PoolOption) *AvgPool2d {
	l := &AvgPool2d{}
	l.Init(l, "AvgPool2d")
	c := configure(&l.Base, []string{"stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"}, opts)
	ks := sizeOf(kernel)
	l.KernelSize, l.Stride, l.Padding, _ = poolSizes(&l.Base, ks, &c, false)
	l.CeilMode, l.CountIncludePad, l.DivisorOverride = c.ceilMode, c.countIncludePad, c.divisorOverride
	for _, o := range opts {
		if o.opt().name == "divisor_override" && c.divisorOverride == 0 {
			l.Fail(fmt.Errorf("AvgPool2d: divisor_override must be non-zero"))
		}
	}
	l.given = [3]sizeArg{ks, c.stride, c.padding}
	return l
}

// Forward computes aten::avg_pool2d(x, kernel_size, stride, padding,
// ceil_mode, count_include_pad, divisor_override).
func (l *AvgPool2d) Forward(x Value) Value {
	div := None
	if l.DivisorOverride != 0 {
		div = Of(l.DivisorOverride)
	}
	return CallOp(opAvgPool2d, x, ints64(l.KernelSize), ints64(l.Stride), ints64(l.Padding), l.CeilMode, l.CountIncludePad, div)
}

// Call is Call(l, x).
func (l *AvgPool2d) Call(x Value) Value { return Call(l, x) }

// ExtraRepr is what PyTorch prints between the parentheses:
// `kernel_size=3, stride=2, padding=1`.
func (l *AvgPool2d) ExtraRepr() string {
	return fmt.Sprintf("kernel_size=%s, stride=%s, padding=%s", l.given[0], l.given[1], l.given[2])
}

// AdaptiveAvgPool2d is torch.nn.AdaptiveAvgPool2d: average pooling to a
// fixed OutputSize whatever the input size. PyTorch's None entries (keep
// the input's size) are not supported.
type AdaptiveAvgPool2d struct {
	Base
	OutputSize []int // one per dimension

	given sizeArg
}

// NewAdaptiveAvgPool2d returns an AdaptiveAvgPool2d layer with the given
// output size (an int or []int{h, w}):
//
//	nn.NewAdaptiveAvgPool2d(1)
func NewAdaptiveAvgPool2d[S Size](outputSize S) *AdaptiveAvgPool2d {
	l := &AdaptiveAvgPool2d{given: sizeOf(outputSize)}
	l.Init(l, "AdaptiveAvgPool2d")
	v, err := l.given.expand("output_size", 2)
	if err != nil {
		l.Fail(fmt.Errorf("AdaptiveAvgPool2d: %w", err))
		v = []int{1, 1}
	}
	for _, s := range v {
		if s < 0 {
			l.Fail(fmt.Errorf("AdaptiveAvgPool2d: output_size must be non-negative, got %s", l.given))
		}
	}
	l.OutputSize = v
	return l
}

// Forward computes aten::adaptive_avg_pool2d(x, output_size).
func (l *AdaptiveAvgPool2d) Forward(x Value) Value {
	return CallOp(opAdaptiveAvgPool2d, x, ints64(l.OutputSize))
}

// Call is Call(l, x).
func (l *AdaptiveAvgPool2d) Call(x Value) Value { return Call(l, x) }

// ExtraRepr is what PyTorch prints between the parentheses:
// `output_size=1`.
func (l *AdaptiveAvgPool2d) ExtraRepr() string { return "output_size=" + l.given.String() }
