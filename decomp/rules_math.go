package decomp

import (
	"math"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// Rules for the math operators of issue 14's kernel families that PyTorch
// 2.6's core_aten_decompositions decomposes (torch/_refs and
// torch/_decomp/decompositions.py): deg2rad, rad2deg, isposinf, isneginf,
// sinc, soft_margin_loss and nansum, each written as the reference
// computes it, in core operators only.

var (
	opDeg2rad        = nn.Op("aten::deg2rad")
	opRad2deg        = nn.Op("aten::rad2deg")
	opIsposinf       = nn.Op("aten::isposinf")
	opIsneginf       = nn.Op("aten::isneginf")
	opSinc           = nn.Op("aten::sinc")
	opSoftMarginLoss = nn.Op("aten::soft_margin_loss")
	opNansum         = nn.Op("aten::nansum")
)

// addMathRules adds the rules of this file to t.
func addMathRules(t Table) {
	t.add(opDeg2rad, func(a []nn.Value) nn.Value {
		return call(opMulT, intToFloat(a[0]), 0.017453292519943295769236907684886127134428718885417)
	})
	t.add(opRad2deg, func(a []nn.Value) nn.Value {
		return call(opMulT, intToFloat(a[0]), 57.295779513082320876798154814105170332405472466564)
	})
	t.add(opIsposinf, func(a []nn.Value) nn.Value { return infSign(a[0], math.Inf(1)) })
	t.add(opIsneginf, func(a []nn.Value) nn.Value { return infSign(a[0], math.Inf(-1)) })
	t.add(opSinc, sinc)
	t.add(opSoftMarginLoss, softMarginLoss)
	t.add(opNansum, nansum)
}

// intToFloat is the INT_TO_FLOAT promotion of an elementwise reference:
// integral and bool x become float32.
func intToFloat(x nn.Value) nn.Value {
	if dtypeOf(x).IsFloat() {
		return x
	}
	return toDType(x, tensor.Float32)
}

// infSign is isposinf/isneginf: x == inf for a floating x, all false
// otherwise.
func infSign(x nn.Value, inf float64) nn.Value {
	if dtypeOf(x).IsFloat() {
		return call(aten.EqScalar, x, inf)
	}
	return fullLike(x, nn.Of(false), []nn.Value{nn.Of(tensor.Bool), nn.None, nn.None, nn.None})
}

// sinc is where(πx == 0, 1, sin(πx)/(πx)) in x's floating dtype,
// float16 and bfloat16 computing in float32 (the reference's opmath).
func sinc(a []nn.Value) nn.Value {
	x := intToFloat(a[0])
	dt := dtypeOf(x)
	if dt == tensor.Float16 || dt == tensor.BFloat16 {
		x = toDType(x, tensor.Float32)
	}
	x = call(opMulT, x, math.Pi)
	one := fullLike(x, nn.Of(1), []nn.Value{nn.None, nn.None, nn.None, nn.None})
	return toDType(call(aten.WhereSelf, call(aten.EqScalar, x, 0), one, call(opDivT, call(aten.Sin, x), x)), dt)
}

// softMarginLoss is log1p(exp(-input·target)), reduced (0 none, 1 mean, 2
// sum), float16 and bfloat16 computing in float32.
func softMarginLoss(a []nn.Value) nn.Value {
	x, y, reduction := a[0], a[1], a[2].Int()
	dt := dtypeOf(x)
	if dt == tensor.Float16 || dt == tensor.BFloat16 {
		x, y = toDType(x, tensor.Float32), toDType(y, tensor.Float32)
	}
	l := call(aten.Log1p, call(aten.Exp, call(opMulT, call(aten.Neg, x), y)))
	switch reduction {
	case 1:
		l = call(aten.Mean, l)
	case 2:
		l = call(aten.SumDimIntList, l, nn.None)
	}
	if dt == tensor.Float16 || dt == tensor.BFloat16 {
		l = toDType(l, dt)
	}
	return l
}

// nansum is sum(where(isnan(x), 0, x), dim, keepdim, dtype).
func nansum(a []nn.Value) nn.Value {
	x := a[0]
	zero := fullLike(x, nn.Of(0), []nn.Value{nn.None, nn.None, nn.None, nn.None})
	x = call(aten.WhereSelf, call(aten.Isnan, x), zero, x)
	return callKw(aten.SumDimIntList, []any{x, a[1], a[2]}, map[string]any{"dtype": a[3]})
}
