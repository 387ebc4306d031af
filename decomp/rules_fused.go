package decomp

import (
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/ops/aten"
)

// Rules for gofx's fused operators (ops/schemas/gofx.txt, made by
// passes.FuseEpilogues): each goes back to the aten operators it replaced,
// so a fused program decomposes to core ATen, runs where the fused
// operators have no kernel, and is written as a .pt2 file PyTorch can
// load (torch has no gofx:: operators).
var (
	opConvolutionRelu     = nn.Op("gofx::convolution_relu")
	opConvolutionHardtanh = nn.Op("gofx::convolution_hardtanh")
	opConvolutionClamp    = nn.Op("gofx::convolution_clamp")
	opConvolutionAddRelu  = nn.Op("gofx::convolution_add_relu")
	opAddmmRelu           = nn.Op("gofx::addmm_relu")
	opLinearRelu          = nn.Op("gofx::linear_relu")
)

// FusedOps returns the table of the fused operators' rules alone (each
// also in Core): what a pipeline applies to undo passes.FuseEpilogues
// and nothing else.
func FusedOps() Table {
	t := Table{}
	addFusedRules(t)
	return t
}

// addFusedRules adds the rules of this file to t; coreRules calls it.
func addFusedRules(t Table) {
	// conv returns aten.convolution of a fused convolution's first nine
	// arguments (input, weight, bias, stride, padding, dilation,
	// transposed, output_padding, groups).
	conv := func(a []nn.Value) nn.Value {
		args := make([]any, 9)
		for i := range args {
			args[i] = a[i]
		}
		return call(aten.Convolution, args...)
	}
	t.add(opConvolutionRelu, func(a []nn.Value) nn.Value { return call(aten.Relu, conv(a)) })
	t.add(opConvolutionHardtanh, func(a []nn.Value) nn.Value { return call(aten.Hardtanh, conv(a), a[9], a[10]) })
	t.add(opConvolutionClamp, func(a []nn.Value) nn.Value { return call(aten.Clamp, conv(a), a[9], a[10]) })
	t.add(opConvolutionAddRelu, func(a []nn.Value) nn.Value {
		return call(aten.Relu, call(aten.AddTensor, conv(a), a[9]))
	})
	t.add(opAddmmRelu, func(a []nn.Value) nn.Value {
		var kw map[string]any
		if !isUnit(a[3]) || !isUnit(a[4]) {
			kw = map[string]any{"beta": a[3], "alpha": a[4]}
		}
		return call(aten.Relu, callKw(aten.Addmm, []any{a[0], a[1], a[2]}, kw))
	})
	t.add(opLinearRelu, func(a []nn.Value) nn.Value { return call(aten.Relu, linear(a)) })
}

// isUnit reports whether v is the number 1 (addmm's default beta and
// alpha).
func isUnit(v nn.Value) bool {
	switch x := v.Raw().(type) {
	case int64:
		return x == 1
	case float64:
		return x == 1
	}
	return false
}
