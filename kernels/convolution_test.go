package kernels_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// rand returns a tensor of dtype dt and the given shape filled with
// deterministic values in [-1, 1).
func rand(dt tensor.DType, seed int, shape ...int) *tensor.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Mod(float64((i+seed)*7919%1013)/506.5, 2) - 1
	}
	return tensor.Must(tensor.FromFloat64s(dt, v, shape...))
}

// callBackward calls the operator name and requires it to succeed.
func callBackward(t *testing.T, name string, args ...any) []any {
	t.Helper()
	o, ok := ops.Global().Lookup(name)
	require.True(t, ok, "no operator %s", name)
	out, err := o.Call(args, nil)
	require.NoError(t, err)
	return out
}

// assertMasked checks that out holds nil where mask is false and the
// tensor of full (the all-true result) where it is true.
func assertMasked(t *testing.T, mask []bool, out, full []any) {
	t.Helper()
	require.Len(t, out, 3)
	for i, m := range mask {
		if !m {
			assert.Nil(t, out[i], "output %d is not asked for", i)
			continue
		}
		got, ok := out[i].(*tensor.Tensor)
		require.True(t, ok, "output %d: got %T", i, out[i])
		want := full[i].(*tensor.Tensor)
		assert.Equal(t, want.Shape(), got.Shape())
		if !got.IsMeta() {
			assert.Equal(t, want.Float64s(), got.Float64s(), "output %d", i)
		}
	}
}

// masks are the partial output masks the tests try.
var masks = [][]bool{
	{true, false, false}, {false, true, false}, {false, false, true},
	{true, true, false}, {false, true, true}, {false, false, false},
}

// layerNormArgs returns native_layer_norm_backward's arguments for a
// [3, 4, 5] input normalized over [5].
func layerNormArgs(t *testing.T) []any {
	x, w, b := rand(tensor.Float32, 1, 3, 4, 5), rand(tensor.Float32, 2, 5), rand(tensor.Float32, 3, 5)
	fwd := callBackward(t, "aten::native_layer_norm", x, []int64{5}, w, b, 1e-5)
	return []any{rand(tensor.Float32, 4, 3, 4, 5), x, []int64{5}, fwd[1], fwd[2], w, b, []bool{true, true, true}}
}

// groupNormArgs returns native_group_norm_backward's arguments for a
// [2, 6, 3] input in 3 groups.
func groupNormArgs(t *testing.T) []any {
	x, w, b := rand(tensor.Float64, 1, 2, 6, 3), rand(tensor.Float64, 2, 6), rand(tensor.Float64, 3, 6)
	fwd := callBackward(t, "aten::native_group_norm", x, w, b, int64(2), int64(6), int64(3), int64(3), 1e-5)
	return []any{rand(tensor.Float64, 4, 2, 6, 3), x, fwd[1], fwd[2], w, int64(2), int64(6), int64(3), int64(3), []bool{true, true, true}}
}

// convArgs returns convolution_backward's arguments for a grouped,
// strided, dilated 2-d convolution (transposed when tr).
func convArgs(t *testing.T, tr bool) []any {
	x := rand(tensor.Float32, 1, 2, 4, 5, 6)
	w := rand(tensor.Float32, 2, 6, 2, 3, 2)
	outPad := []int64{0, 0}
	if tr {
		w = rand(tensor.Float32, 2, 4, 3, 3, 2)
		outPad = []int64{1, 0}
	}
	stride, padding, dilation := []int64{2, 1}, []int64{1, 0}, []int64{1, 2}
	y := callBackward(t, "aten::convolution", x, w, nil, stride, padding, dilation, tr, outPad, int64(2))[0].(*tensor.Tensor)
	g := rand(tensor.Float32, 3, y.Shape()...)
	return []any{g, x, w, []int64{int64(y.Size(1))}, stride, padding, dilation, tr, outPad, int64(2), []bool{true, true, true}}
}

// metaArgs replaces the tensors of args by meta tensors.
func metaArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		if x, ok := a.(*tensor.Tensor); ok && x != nil {
			a = x.Meta()
		}
		out[i] = a
	}
	return out
}

// TestBackwardPartialMasks checks that outputs output_mask does not ask for are
// nil (None in ATen) and the others equal the all-true results, on data
// and on meta tensors.
func TestBackwardPartialMasks(t *testing.T) {
	for _, tc := range []struct {
		op   string
		args []any
	}{
		{"aten::native_layer_norm_backward", layerNormArgs(t)},
		{"aten::native_group_norm_backward", groupNormArgs(t)},
		{"aten::convolution_backward", convArgs(t, false)},
		{"aten::convolution_backward", convArgs(t, true)},
	} {
		t.Run(tc.op, func(t *testing.T) {
			full := callBackward(t, tc.op, tc.args...)
			for _, m := range masks {
				args := append([]any(nil), tc.args...)
				args[len(args)-1] = m
				assertMasked(t, m, callBackward(t, tc.op, args...), full)
				assertMasked(t, m, callBackward(t, tc.op, metaArgs(args)...), full)
			}
		})
	}
}

// TestBackwardNoAffine checks that the input gradients of layer and group norm
// without weight (and bias) match those with a weight of ones.
func TestBackwardNoAffine(t *testing.T) {
	ln := layerNormArgs(t)
	ones := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{1, 1, 1, 1, 1}, 5))
	ln[5], ln[6] = ones, nil
	ln[7] = []bool{true, true, false}
	withOnes := callBackward(t, "aten::native_layer_norm_backward", ln...)
	ln[5] = nil
	ln[7] = []bool{true, false, false}
	none := callBackward(t, "aten::native_layer_norm_backward", ln...)
	assert.InDeltaSlice(t, withOnes[0].(*tensor.Tensor).Float64s(), none[0].(*tensor.Tensor).Float64s(), 1e-6)

	gn := groupNormArgs(t)
	gn[4] = tensor.Must(tensor.FromFloat64s(tensor.Float64, []float64{1, 1, 1, 1, 1, 1}, 6))
	withOnes = callBackward(t, "aten::native_group_norm_backward", gn...)
	gn[4] = nil
	gn[9] = []bool{true, false, false}
	none = callBackward(t, "aten::native_group_norm_backward", gn...)
	assert.InDeltaSlice(t, withOnes[0].(*tensor.Tensor).Float64s(), none[0].(*tensor.Tensor).Float64s(), 1e-12)
}

// TestBackwardConvNonContiguous checks that non-contiguous grad_output, input
// and weight give the results of their contiguous copies.
func TestBackwardConvNonContiguous(t *testing.T) {
	for _, tr := range []bool{false, true} {
		args := convArgs(t, tr)
		want := callBackward(t, "aten::convolution_backward", args...)
		nc := append([]any(nil), args...)
		for i := 0; i < 3; i++ {
			x := args[i].(*tensor.Tensor)
			// A transposed copy transposed back: same values, permuted strides.
			tt := tensor.Must(x.Transpose(0, 1)).Contiguous()
			nc[i] = tensor.Must(tt.Transpose(0, 1))
		}
		got := callBackward(t, "aten::convolution_backward", nc...)
		for i := range want {
			assert.Equal(t, want[i].(*tensor.Tensor).Float64s(), got[i].(*tensor.Tensor).Float64s(), "transposed=%v output %d", tr, i)
		}
	}
}

// TestBackwardBadInput checks that bad arguments give errors naming them.
func TestBackwardBadInput(t *testing.T) {
	ln := layerNormArgs(t)
	gn := groupNormArgs(t)
	cv := convArgs(t, false)
	ct := convArgs(t, true)
	with := func(args []any, i int, v any) []any {
		out := append([]any(nil), args...)
		out[i] = v
		return out
	}
	f32 := func(shape ...int) *tensor.Tensor { return rand(tensor.Float32, 0, shape...) }
	f64 := func(shape ...int) *tensor.Tensor { return rand(tensor.Float64, 0, shape...) }
	lnOp, gnOp, convBackwardOp := "aten::native_layer_norm_backward", "aten::native_group_norm_backward", "aten::convolution_backward"
	cv1d := []any{f32(1, 2, 4), f32(1, 2, 6), f32(3, 2, 3), []int64{3}, []int64{1}, []int64{0}, []int64{1}, false, []int64{0}, int64(1), []bool{true, true, true}}
	cases := []badCase{
		{name: "ln grad_out dtype", op: lnOp, args: with(ln, 0, f64(3, 4, 5)), arg: "grad_out"},
		{name: "ln grad_out shape", op: lnOp, args: with(ln, 0, f32(3, 4, 4)), arg: "grad_out"},
		{name: "ln int input", op: lnOp, args: with(with(ln, 0, zerosOf(tensor.Int32, 3, 4, 5)), 1, zerosOf(tensor.Int32, 3, 4, 5)), arg: "input"},
		{name: "ln half input", op: lnOp, args: with(with(ln, 0, zerosOf(tensor.Float16, 3, 4, 5)), 1, zerosOf(tensor.Float16, 3, 4, 5)), arg: "input"},
		{name: "ln empty normalized_shape", op: lnOp, args: with(ln, 2, []int64{}), arg: "normalized_shape"},
		{name: "ln normalized_shape mismatch", op: lnOp, args: with(ln, 2, []int64{4}), arg: "weight"},
		{name: "ln mean numel", op: lnOp, args: with(ln, 3, f32(3, 1, 1)), arg: "mean"},
		{name: "ln mean dtype", op: lnOp, args: with(ln, 3, f64(3, 4, 1)), arg: "mean"},
		{name: "ln rstd numel", op: lnOp, args: with(ln, 4, f32(2)), arg: "rstd"},
		{name: "ln weight shape", op: lnOp, args: with(ln, 5, f32(4)), arg: "weight"},
		{name: "ln weight dtype", op: lnOp, args: with(ln, 5, f64(5)), arg: "weight"},
		{name: "ln bias shape", op: lnOp, args: with(ln, 6, f32(3)), arg: "bias"},
		{name: "ln weight None with mask", op: lnOp, args: with(ln, 5, nil), arg: "weight"},
		{name: "ln bias None with mask", op: lnOp, args: with(ln, 6, nil), arg: "bias"},
		{name: "ln mask length", op: lnOp, args: with(ln, 7, []bool{true, true}), arg: "output_mask"},

		{name: "gn grad_out dtype", op: gnOp, args: with(gn, 0, f32(2, 6, 3)), arg: "grad_out"},
		{name: "gn grad_out numel", op: gnOp, args: with(gn, 0, f64(2, 6, 2)), arg: "grad_out"},
		{name: "gn input numel", op: gnOp, args: with(with(gn, 0, f64(2, 6, 2)), 7, int64(2)), arg: "input"},
		{name: "gn negative N", op: gnOp, args: with(gn, 5, int64(-2)), arg: "N"},
		{name: "gn zero group", op: gnOp, args: with(gn, 8, int64(0)), arg: "group"},
		{name: "gn group does not divide C", op: gnOp, args: with(gn, 8, int64(4)), arg: "group"},
		{name: "gn mean numel", op: gnOp, args: with(gn, 2, f64(2, 2)), arg: "mean"},
		{name: "gn rstd dtype", op: gnOp, args: with(gn, 3, f32(2, 3)), arg: "rstd"},
		{name: "gn weight numel", op: gnOp, args: with(gn, 4, f64(5)), arg: "weight"},
		{name: "gn weight None with mask", op: gnOp, args: with(gn, 4, nil), arg: "weight"},
		{name: "gn half", op: gnOp, args: []any{zerosOf(tensor.Float16, 2, 6, 3), zerosOf(tensor.Float16, 2, 6, 3), zerosOf(tensor.Float16, 2, 3), zerosOf(tensor.Float16, 2, 3), nil, int64(2), int64(6), int64(3), int64(3), []bool{true, false, false}}, arg: "input"},

		{name: "conv 2-d weight", op: convBackwardOp, args: with(cv, 2, f32(6, 2)), arg: "weight"},
		{name: "conv grad_output dims", op: convBackwardOp, args: with(cv, 0, f32(6, 3, 5)), arg: "grad_output"},
		{name: "conv grad_output shape", op: convBackwardOp, args: with(cv, 0, f32(2, 6, 3, 3)), arg: "grad_output"},
		{name: "conv grad_output dtype", op: convBackwardOp, args: with(cv1d, 0, f64(1, 3, 4)), arg: "grad_output"},
		{name: "conv weight dtype", op: convBackwardOp, args: with(cv1d, 2, f64(3, 2, 3)), arg: "weight"},
		{name: "conv input channels", op: convBackwardOp, args: with(cv1d, 1, f32(1, 3, 6)), arg: "input"},
		{name: "conv stride length", op: convBackwardOp, args: with(cv, 4, []int64{1, 1, 1}), arg: "stride"},
		{name: "conv zero stride", op: convBackwardOp, args: with(cv1d, 4, []int64{0}), arg: "stride"},
		{name: "conv negative padding", op: convBackwardOp, args: with(cv1d, 5, []int64{-1}), arg: "padding"},
		{name: "conv zero groups", op: convBackwardOp, args: with(cv1d, 9, int64(0)), arg: "groups"},
		{name: "conv output_padding not transposed", op: convBackwardOp, args: with(cv1d, 8, []int64{1}), arg: "output_padding"},
		{name: "conv output_padding too big", op: convBackwardOp, args: with(ct, 8, []int64{2, 0}), arg: "output_padding"},
		{name: "conv kernel too big", op: convBackwardOp, args: with(with(cv1d, 2, f32(3, 2, 7)), 0, f32(1, 3, 1)), arg: "input"},
		{name: "conv int32", op: convBackwardOp, args: []any{zerosOf(tensor.Int32, 1, 3, 4), zerosOf(tensor.Int32, 1, 2, 6), zerosOf(tensor.Int32, 3, 2, 3), nil, []int64{1}, []int64{0}, []int64{1}, false, []int64{0}, int64(1), []bool{true, true, false}}, arg: "input"},
		{name: "conv int64 undilated", op: convBackwardOp, args: []any{zerosOf(tensor.Int64, 1, 3, 4), zerosOf(tensor.Int64, 1, 2, 6), zerosOf(tensor.Int64, 3, 2, 3), nil, []int64{1}, []int64{0}, []int64{1}, false, []int64{0}, int64(1), []bool{true, true, false}}, arg: "input"},
		{name: "conv half", op: convBackwardOp, args: []any{zerosOf(tensor.Float16, 1, 3, 4), zerosOf(tensor.Float16, 1, 2, 6), zerosOf(tensor.Float16, 3, 2, 3), nil, []int64{1}, []int64{0}, []int64{1}, false, []int64{0}, int64(1), []bool{true, false, false}}, arg: "input"},
		{name: "conv bfloat16 transposed", op: convBackwardOp, args: []any{zerosOf(tensor.BFloat16, 1, 2, 6), zerosOf(tensor.BFloat16, 1, 3, 4), zerosOf(tensor.BFloat16, 3, 2, 3), nil, []int64{1}, []int64{0}, []int64{1}, true, []int64{0}, int64(1), []bool{true, false, false}}, arg: "input"},
		{name: "conv empty input without bias_sizes", op: convBackwardOp, args: []any{f32(0, 3, 4), f32(0, 2, 6), f32(3, 2, 3), nil, []int64{1}, []int64{0}, []int64{1}, false, []int64{0}, int64(1), []bool{true, true, true}}, arg: "bias_sizes"},
	}
	runBad(t, cases)
}

// naiveConv2d is a direct float64 2-d convolution (transposed ones
// scatter), the reference for the im2col paths.
func naiveConv2d(x, w []float64, n, cin, h, wd, cout, kh, kw, s, p, d, g int, transposed bool, oh, ow int) []float64 {
	out := make([]float64, n*cout*oh*ow)
	cig := cin / g
	if !transposed {
		cog := cout / g
		for b := range n {
			for co := range cout {
				gi := co / cog
				for y := range oh {
					for xo := range ow {
						var sum float64
						for ci := range cig {
							c := gi*cig + ci
							for i := range kh {
								for j := range kw {
									iy, ix := y*s-p+i*d, xo*s-p+j*d
									if iy < 0 || iy >= h || ix < 0 || ix >= wd {
										continue
									}
									sum += x[((b*cin+c)*h+iy)*wd+ix] * w[((co*cig+ci)*kh+i)*kw+j]
								}
							}
						}
						out[((b*cout+co)*oh+y)*ow+xo] = sum
					}
				}
			}
		}
		return out
	}
	cog := cout / g
	for b := range n {
		for c := range cin {
			gi := c / cig
			for iy := range h {
				for ix := range wd {
					v := x[((b*cin+c)*h+iy)*wd+ix]
					for co := range cog {
						for i := range kh {
							for j := range kw {
								y, xo := iy*s-p+i*d, ix*s-p+j*d
								if y < 0 || y >= oh || xo < 0 || xo >= ow {
									continue
								}
								out[((b*cout+gi*cog+co)*oh+y)*ow+xo] += v * w[((c*cog+co)*kh+i)*kw+j]
							}
						}
					}
				}
			}
		}
	}
	return out
}

// TestConvParallelPaths checks convolutions large enough to take the
// parallel im2col/col2im and per-item paths against a direct loop.
func TestConvParallelPaths(t *testing.T) {
	cases := []struct {
		name                              string
		n, cin, h, w, cout, k, s, p, d, g int
		transposed                        bool
	}{
		{"one large item", 1, 8, 40, 40, 16, 3, 1, 1, 1, 1, false},
		{"many small items", 4, 8, 12, 12, 8, 3, 2, 1, 2, 2, false},
		{"depthwise", 2, 16, 20, 20, 16, 3, 1, 1, 1, 16, false},
		{"transposed large", 1, 16, 24, 24, 8, 3, 2, 1, 1, 1, true},
		{"transposed grouped items", 3, 8, 10, 10, 8, 2, 2, 0, 1, 4, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x := randn(tensor.Float64, 1, tc.n, tc.cin, tc.h, tc.w)
			var ws []int
			var oh, ow int
			if tc.transposed {
				ws = []int{tc.cin, tc.cout / tc.g, tc.k, tc.k}
				oh = (tc.h-1)*tc.s - 2*tc.p + tc.d*(tc.k-1) + 1
				ow = (tc.w-1)*tc.s - 2*tc.p + tc.d*(tc.k-1) + 1
			} else {
				ws = []int{tc.cout, tc.cin / tc.g, tc.k, tc.k}
				oh = (tc.h+2*tc.p-tc.d*(tc.k-1)-1)/tc.s + 1
				ow = (tc.w+2*tc.p-tc.d*(tc.k-1)-1)/tc.s + 1
			}
			w := randn(tensor.Float64, 2, ws...)
			got := optest.Tensor(t, "aten::convolution", []any{x, w, nil, []int64{int64(tc.s)}, []int64{int64(tc.p)}, []int64{int64(tc.d)},
				tc.transposed, []int64{0}, int64(tc.g)}, nil)
			ref := naiveConv2d(x.Float64s(), w.Float64s(), tc.n, tc.cin, tc.h, tc.w, tc.cout, tc.k, tc.k, tc.s, tc.p, tc.d, tc.g, tc.transposed, oh, ow)
			requireClose(t, tensor.Must(tensor.FromFloat64s(tensor.Float64, ref, tc.n, tc.cout, oh, ow)), got, 1e-12)
			// float32 through gonum's Sgemm agrees within float32 accuracy.
			got32 := optest.Tensor(t, "aten::convolution", []any{x.To(tensor.Float32), w.To(tensor.Float32), nil, []int64{int64(tc.s)}, []int64{int64(tc.p)}, []int64{int64(tc.d)},
				tc.transposed, []int64{0}, int64(tc.g)}, nil)
			requireClose(t, tensor.Must(tensor.FromFloat64s(tensor.Float32, ref, tc.n, tc.cout, oh, ow)), got32, 1e-4)
		})
	}
}

// TestConvDifferential compares the convolution paths (direct depthwise,
// GemmConv for grouped and dilated, GEMM plus col2im for transposed) with
// a direct loop on odd shapes: non-square inputs, kernels reaching past
// both borders, strides that leave a remainder, channel multipliers.
func TestConvDifferential(t *testing.T) {
	cases := []struct {
		name                              string
		n, cin, h, w, cout, k, s, p, d, g int
		transposed                        bool
	}{
		{"depthwise 3x3 s1", 1, 5, 7, 13, 5, 3, 1, 1, 1, 5, false},
		{"depthwise 3x3 s2", 2, 3, 9, 40, 3, 3, 2, 1, 1, 3, false},
		{"depthwise 5x5 s1", 1, 4, 11, 37, 4, 5, 1, 2, 1, 4, false},
		{"depthwise 5x5 s2 wide", 1, 3, 8, 45, 3, 5, 2, 2, 1, 3, false},
		{"depthwise 3x3 s2 wide unpadded", 1, 2, 7, 64, 4, 3, 2, 0, 1, 2, false},
		{"depthwise 5x5 s2", 1, 4, 10, 9, 4, 5, 2, 2, 1, 4, false},
		{"depthwise no padding", 1, 3, 6, 35, 3, 3, 1, 0, 1, 3, false},
		{"depthwise kernel wider than the input", 1, 2, 3, 2, 2, 5, 1, 2, 1, 2, false},
		{"depthwise dilated", 1, 3, 12, 12, 3, 3, 1, 2, 2, 3, false},
		{"depthwise multiplier 2", 2, 3, 8, 33, 6, 3, 2, 1, 1, 3, false},
		{"depthwise 7x7 s3", 1, 2, 15, 17, 2, 7, 3, 3, 1, 2, false},
		{"grouped", 2, 6, 7, 9, 9, 3, 1, 1, 1, 3, false},
		{"grouped strided", 1, 8, 11, 6, 4, 3, 2, 0, 1, 2, false},
		{"dilated", 1, 3, 13, 10, 5, 3, 1, 2, 3, 1, false},
		{"dilated strided grouped", 2, 4, 14, 15, 6, 3, 2, 3, 2, 2, false},
		{"1x1 strided", 1, 5, 7, 9, 3, 1, 2, 0, 1, 1, false},
		{"transposed", 1, 3, 5, 7, 4, 3, 2, 1, 1, 1, true},
		{"transposed grouped dilated", 2, 4, 6, 5, 6, 3, 2, 2, 2, 2, true},
		{"transposed depthwise", 1, 4, 5, 6, 4, 4, 2, 1, 1, 4, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x := randn(tensor.Float64, 3, tc.n, tc.cin, tc.h, tc.w)
			var ws []int
			var oh, ow int
			if tc.transposed {
				ws = []int{tc.cin, tc.cout / tc.g, tc.k, tc.k}
				oh = (tc.h-1)*tc.s - 2*tc.p + tc.d*(tc.k-1) + 1
				ow = (tc.w-1)*tc.s - 2*tc.p + tc.d*(tc.k-1) + 1
			} else {
				ws = []int{tc.cout, tc.cin / tc.g, tc.k, tc.k}
				oh = (tc.h+2*tc.p-tc.d*(tc.k-1)-1)/tc.s + 1
				ow = (tc.w+2*tc.p-tc.d*(tc.k-1)-1)/tc.s + 1
			}
			w := randn(tensor.Float64, 4, ws...)
			ref := naiveConv2d(x.Float64s(), w.Float64s(), tc.n, tc.cin, tc.h, tc.w, tc.cout, tc.k, tc.k, tc.s, tc.p, tc.d, tc.g, tc.transposed, oh, ow)
			args := func(dt tensor.DType) []any {
				return []any{x.To(dt), w.To(dt), nil, []int64{int64(tc.s)}, []int64{int64(tc.p)}, []int64{int64(tc.d)},
					tc.transposed, []int64{0}, int64(tc.g)}
			}
			got := optest.Tensor(t, "aten::convolution", args(tensor.Float64), nil)
			requireClose(t, tensor.Must(tensor.FromFloat64s(tensor.Float64, ref, tc.n, tc.cout, oh, ow)), got, 1e-12)
			got32 := optest.Tensor(t, "aten::convolution", args(tensor.Float32), nil)
			requireClose(t, tensor.Must(tensor.FromFloat64s(tensor.Float32, ref, tc.n, tc.cout, oh, ow)), got32, 1e-4)
		})
	}
}

// FuzzConv compares aten::convolution (float64 and float32) with a direct
// loop on generated 2-d shapes: groups, depthwise (one input channel per
// group), strides, padding, dilation, transposed; and so the fused
// gofx::convolution_add_relu, and a float32 weight marked constant with
// the unmarked result. A shape the convolution rejects must give an
// error, not a panic.
func FuzzConv(f *testing.F) {
	f.Add(uint64(1), uint8(3), uint8(1), uint8(4), uint8(1), uint8(9), uint8(7), uint8(3), uint8(1), uint8(1), uint8(1), false)
	f.Add(uint64(2), uint8(1), uint8(1), uint8(1), uint8(8), uint8(12), uint8(11), uint8(5), uint8(2), uint8(2), uint8(1), false)
	f.Add(uint64(3), uint8(2), uint8(2), uint8(2), uint8(3), uint8(5), uint8(6), uint8(3), uint8(2), uint8(1), uint8(2), true)
	f.Add(uint64(4), uint8(1), uint8(1), uint8(2), uint8(6), uint8(14), uint8(3), uint8(3), uint8(3), uint8(3), uint8(2), false)
	f.Fuzz(func(t *testing.T, seed uint64, cig, cog, groups, n, h, w, k, s, p, d uint8, transposed bool) {
		ci, co, g := 1+int(cig%4), 1+int(cog%4), 1+int(groups%6)
		nb, hh, ww := 1+int(n%2), 1+int(h%16), 1+int(w%16)
		kk, ss, pp, dd := 1+int(k%5), 1+int(s%3), int(p%4), 1+int(d%3)
		cin, cout := ci*g, co*g
		var wshape []int
		var oh, ow int
		if transposed {
			wshape = []int{cin, co, kk, kk}
			oh = (hh-1)*ss - 2*pp + dd*(kk-1) + 1
			ow = (ww-1)*ss - 2*pp + dd*(kk-1) + 1
		} else {
			wshape = []int{cout, ci, kk, kk}
			oh = (hh+2*pp-dd*(kk-1)-1)/ss + 1
			ow = (ww+2*pp-dd*(kk-1)-1)/ss + 1
		}
		x := randn(tensor.Float64, seed, nb, cin, hh, ww)
		wt := randn(tensor.Float64, seed+1, wshape...)
		o, ok := ops.Global().Lookup("aten::convolution")
		require.True(t, ok)
		args := func(dt tensor.DType) []any {
			return []any{x.To(dt), wt.To(dt), nil, []int64{int64(ss)}, []int64{int64(pp)}, []int64{int64(dd)}, transposed, []int64{0}, int64(g)}
		}
		out, err := o.Call(args(tensor.Float64), nil)
		valid := oh >= 1 && ow >= 1 && (transposed || hh+2*pp >= dd*(kk-1)+1 && ww+2*pp >= dd*(kk-1)+1)
		if !valid {
			require.Error(t, err)
			return
		}
		require.NoError(t, err)
		ref := naiveConv2d(x.Float64s(), wt.Float64s(), nb, cin, hh, ww, cout, kk, kk, ss, pp, dd, g, transposed, oh, ow)
		requireClose(t, tensor.Must(tensor.FromFloat64s(tensor.Float64, ref, nb, cout, oh, ow)), out[0].(*tensor.Tensor), 1e-10)
		out32, err := o.Call(args(tensor.Float32), nil)
		require.NoError(t, err)
		requireClose(t, tensor.Must(tensor.FromFloat64s(tensor.Float32, ref, nb, cout, oh, ow)), out32[0].(*tensor.Tensor), 1e-4)

		// The fused residual add and ReLU (the epilogue's vec.AddClamp on
		// the GEMM, depthwise and transposed paths) against the loop's.
		other := randn(tensor.Float64, seed+2, nb, cout, oh, ow)
		want := other.Float64s()
		for i, v := range ref {
			want[i] = max(v+want[i], 0)
		}
		fused, ok := ops.Global().Lookup("gofx::convolution_add_relu")
		require.True(t, ok)
		for _, c := range []struct {
			dt  tensor.DType
			tol float64
		}{{tensor.Float64, 1e-10}, {tensor.Float32, 1e-4}} {
			got, err := fused.Call(append(args(c.dt), other.To(c.dt)), nil)
			require.NoError(t, err)
			requireClose(t, tensor.Must(tensor.FromFloat64s(c.dt, want, nb, cout, oh, ow)), got[0].(*tensor.Tensor), c.tol)
		}

		// A weight marked constant (packed once) gives the same result.
		w32 := wt.To(tensor.Float32)
		kernels.MarkConstant(w32)
		defer kernels.Unmark(w32)
		a := args(tensor.Float32)
		a[1] = w32
		for range 2 {
			got, err := o.Call(a, nil)
			require.NoError(t, err)
			requireClose(t, out32[0].(*tensor.Tensor), got[0].(*tensor.Tensor), 1e-6)
		}
	})
}
