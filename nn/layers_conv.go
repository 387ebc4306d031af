package nn

import "fmt"

var (
	opConv1d          = Op("aten::conv1d")
	opConv2d          = Op("aten::conv2d")
	opConvTranspose2d = Op("aten::conv_transpose2d.input")
)

// ConvNd holds what the convolution layers share (PyTorch's _ConvNd): the
// hyper-parameters, one value per spatial dimension, and the parameters
// "weight" ([out, in/groups, k...], or [in, out/groups, k...] when
// transposed) and "bias" ([out], nil without bias).
type ConvNd struct {
	Base
	InChannels, OutChannels int
	KernelSize              []int
	Stride                  []int
	Padding                 []int
	Dilation                []int
	OutputPadding           []int // zeros unless transposed
	Groups                  int
	Transposed              bool
	Weight                  *Parameter
	Bias                    *Parameter // nil when built without bias
}

var (
	convOptions       = []string{"stride", "padding", "dilation", "groups", "bias", "padding_mode"}
	convTransOptions  = append(append([]string(nil), convOptions...), "output_padding")
	knownPaddingModes = []string{"zeros", "reflect", "replicate", "circular"}
)

// initConv validates the hyper-parameters, records them and registers the
// parameters as PyTorch's _ConvNd does, initialized as PyTorch initializes
// them (Kaiming-uniform, bound 1/sqrt(fan_in)).
func (l *ConvNd) initConv(nd, in, out int, kernel sizeArg, transposed bool, opts []ConvOption) {
	allowed := convOptions
	if transposed {
		allowed = convTransOptions
	}
	c := configure(&l.Base, allowed, opts)
	l.InChannels, l.OutChannels, l.Groups, l.Transposed = in, out, c.groups, transposed
	name := l.TypeName()
	fail := func(format string, args ...any) { l.Fail(fmt.Errorf(name+": "+format, args...)) }
	if !c.stride.set {
		c.stride = intSize(1)
	}
	if !c.padding.set {
		c.padding = intSize(0)
	}
	if !c.dilation.set {
		c.dilation = intSize(1)
	}
	if !c.outputPadding.set {
		c.outputPadding = intSize(0)
	}
	sizes := []struct {
		name string
		arg  sizeArg
		dst  *[]int
		min  int
	}{
		{"kernel_size", kernel, &l.KernelSize, 1},
		{"stride", c.stride, &l.Stride, 1},
		{"padding", c.padding, &l.Padding, 0},
		{"dilation", c.dilation, &l.Dilation, 1},
		{"output_padding", c.outputPadding, &l.OutputPadding, 0},
	}
	for _, s := range sizes {
		v, err := s.arg.expand(s.name, nd)
		if err != nil {
			l.Fail(fmt.Errorf("%s: %w", name, err))
			v = make([]int, nd)
		}
		for i, x := range v {
			if x < s.min {
				fail("%s must be at least %d, got %s", s.name, s.min, s.arg)
				v[i] = s.min
			}
		}
		*s.dst = v
	}
	switch {
	case in < 0 || out < 0:
		fail("in_channels and out_channels must be non-negative, got %d and %d", in, out)
		in, out = max(in, 0), max(out, 0)
	case c.groups <= 0:
		fail("groups must be a positive integer")
	case in%c.groups != 0:
		fail("in_channels must be divisible by groups")
	case out%c.groups != 0:
		fail("out_channels must be divisible by groups")
	}
	if c.paddingMode != "zeros" {
		switch {
		case !contains(knownPaddingModes, c.paddingMode):
			fail("padding_mode must be one of {'zeros', 'reflect', 'replicate', 'circular'}, but got padding_mode='%s'", c.paddingMode)
		case transposed:
			fail("Only \"zeros\" padding mode is supported for %s", name)
		default:
			fail("padding_mode='%s' is not supported (only 'zeros')", c.paddingMode)
		}
	}
	groups := max(c.groups, 1)
	shape := []int{out, in / groups}
	if transposed {
		shape = []int{in, out / groups}
	}
	shape = append(shape, l.KernelSize...)
	fanIn := shape[1]
	for _, k := range l.KernelSize {
		fanIn *= k
	}
	bound := KaimingBound(fanIn)
	w, err := Uniform(bound, shape...)
	l.Fail(err)
	l.Weight = l.RegisterParameter("weight", w)
	if c.bias {
		b, err := Uniform(bound, out)
		l.Fail(err)
		l.Bias = l.RegisterParameter("bias", b)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func allEqual(v []int, x int) bool {
	for _, e := range v {
		if e != x {
			return false
		}
	}
	return true
}

// ExtraRepr is what PyTorch prints between the parentheses:
// `3, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1)`.
func (l *ConvNd) ExtraRepr() string {
	s := fmt.Sprintf("%d, %d, kernel_size=%s, stride=%s", l.InChannels, l.OutChannels, pyTuple(l.KernelSize), pyTuple(l.Stride))
	if !allEqual(l.Padding, 0) {
		s += ", padding=" + pyTuple(l.Padding)
	}
	if !allEqual(l.Dilation, 1) {
		s += ", dilation=" + pyTuple(l.Dilation)
	}
	if !allEqual(l.OutputPadding, 0) {
		s += ", output_padding=" + pyTuple(l.OutputPadding)
	}
	if l.Groups != 1 {
		s += fmt.Sprintf(", groups=%d", l.Groups)
	}
	if l.Bias == nil {
		s += ", bias=False"
	}
	return s
}

// Conv1d is torch.nn.Conv1d: a 1-d convolution over [N, C, L] (or
// unbatched [C, L]) inputs.
type Conv1d struct{ ConvNd }

// NewConv1d returns a Conv1d layer from in to out channels with the given
// kernel size, initialized as PyTorch initializes it (see ManualSeed):
//
//	nn.NewConv1d(16, 32, 3, nn.Padding(1), nn.Bias(false))
func NewConv1d[K Size](in, out int, kernel K, opts ...ConvOption) *Conv1d {
	l := &Conv1d{}
	l.Init(l, "Conv1d")
	l.initConv(1, in, out, sizeOf(kernel), false, opts)
	return l
}

// Forward computes aten::conv1d(x, weight, bias, stride, padding,
// dilation, groups).
func (l *Conv1d) Forward(x Value) Value {
	return CallOp(opConv1d, x, l.Weight.Value(), optParam(l.Bias),
		ints64(l.Stride), ints64(l.Padding), ints64(l.Dilation), l.Groups)
}

// Call is Call(l, x).
func (l *Conv1d) Call(x Value) Value { return Call(l, x) }

// Conv2d is torch.nn.Conv2d: a 2-d convolution over [N, C, H, W] (or
// unbatched [C, H, W]) inputs.
type Conv2d struct{ ConvNd }

// NewConv2d returns a Conv2d layer from in to out channels with the given
// kernel size (an int, or []int{kh, kw}), initialized as PyTorch
// initializes it (see ManualSeed):
//
//	nn.NewConv2d(3, 8, 3, nn.Stride(2), nn.Padding(1))
//	nn.NewConv2d(8, 8, []int{1, 3}, nn.Groups(8), nn.Bias(false))
func NewConv2d[K Size](in, out int, kernel K, opts ...ConvOption) *Conv2d {
	l := &Conv2d{}
	l.Init(l, "Conv2d")
	l.initConv(2, in, out, sizeOf(kernel), false, opts)
	return l
}

// Forward computes aten::conv2d(x, weight, bias, stride, padding,
// dilation, groups).
func (l *Conv2d) Forward(x Value) Value {
	return CallOp(opConv2d, x, l.Weight.Value(), optParam(l.Bias),
		ints64(l.Stride), ints64(l.Padding), ints64(l.Dilation), l.Groups)
}

// Call is Call(l, x).
func (l *Conv2d) Call(x Value) Value { return Call(l, x) }

// ConvTranspose2d is torch.nn.ConvTranspose2d: the transposed 2-d
// convolution (the gradient of Conv2d with respect to its input). The
// output size is fixed by OutputPadding (PyTorch's forward(input,
// output_size) is not supported).
type ConvTranspose2d struct{ ConvNd }

// NewConvTranspose2d returns a ConvTranspose2d layer from in to out
// channels with the given kernel size, initialized as PyTorch initializes
// it:
//
//	nn.NewConvTranspose2d(16, 8, 3, nn.Stride(2), nn.Padding(1), nn.OutputPadding(1))
func NewConvTranspose2d[K Size](in, out int, kernel K, opts ...ConvOption) *ConvTranspose2d {
	l := &ConvTranspose2d{}
	l.Init(l, "ConvTranspose2d")
	l.initConv(2, in, out, sizeOf(kernel), true, opts)
	return l
}

// Forward computes aten::conv_transpose2d.input(x, weight, bias, stride,
// padding, output_padding, groups, dilation).
func (l *ConvTranspose2d) Forward(x Value) Value {
	return CallOp(opConvTranspose2d, x, l.Weight.Value(), optParam(l.Bias),
		ints64(l.Stride), ints64(l.Padding), ints64(l.OutputPadding), l.Groups, ints64(l.Dilation))
}

// Call is Call(l, x).
func (l *ConvTranspose2d) Call(x Value) Value { return Call(l, x) }
