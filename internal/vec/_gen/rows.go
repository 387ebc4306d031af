package main

import (
	"fmt"
	"math"
)

// The float32 row loops of rows.go: float64 sums, a scale and shift, an
// affine map, max/min and exp. Their portable twins in ../portable.go
// follow the same lane order and roundings, so both agree bit for bit.

// sumF64 emits a float64 reduction over n float32 (n a multiple of 16,
// in CX as bytes): four accumulators Y0-Y3 of four lanes each, element i
// of each 16 going to accumulator (i/4)%4, lane i%4; then
// (a0+a1)+(a2+a3) and the lanes (l0+l2)+(l1+l3). step converts Y4+k
// before it is added (sqDev subtracts the mean and squares it).
func sumF64(name, argsize, ret string, setup []string, fma bool) {
	emit("// func "+name, fmt.Sprintf("TEXT ·%s(SB), NOSPLIT, $%s", name, argsize))
	emit(setup...)
	emit("\tSHLQ $2, CX", "\tVXORPD Y0, Y0, Y0", "\tVXORPD Y1, Y1, Y1", "\tVXORPD Y2, Y2, Y2", "\tVXORPD Y3, Y3, Y3",
		"\tXORQ AX, AX", "loop:", "\tCMPQ AX, CX", "\tJGE  done")
	for k := range 4 {
		emit(fmt.Sprintf("\tVCVTPS2PD %d(SI)(AX*1), Y%d", 16*k, 4+k))
	}
	for k := range 4 {
		if fma {
			emit(fmt.Sprintf("\tVSUBPD Y15, Y%d, Y%d", 4+k, 4+k), fmt.Sprintf("\tVFMADD231PD Y%d, Y%d, Y%d", 4+k, 4+k, k))
		} else {
			emit(fmt.Sprintf("\tVADDPD Y%d, Y%d, Y%d", 4+k, k, k))
		}
	}
	emit("\tADDQ $64, AX", "\tJMP  loop", "done:",
		"\tVADDPD Y1, Y0, Y0", "\tVADDPD Y3, Y2, Y2", "\tVADDPD Y2, Y0, Y0",
		"\tVEXTRACTF128 $1, Y0, X1", "\tVADDPD X1, X0, X0", "\tVPERMILPD $1, X0, X1", "\tVADDSD X1, X0, X0",
		"\tVZEROUPPER", "\tMOVSD X0, "+ret, "\tRET", "")
}

// extreme emits maxF32 or minF32: the largest (smallest) of n float32
// (n a multiple of 8, at least 8), NaN when any is NaN.
func extreme(name, ins string) {
	setup := []string{"\tMOVQ x+0(FP), SI", "\tMOVQ n+8(FP), CX", "\tSHLQ $2, CX",
		"\tVMOVUPS (SI), Y0", "\tVMOVAPS Y0, Y1", "\tVMOVAPS Y0, Y2", "\tVMOVAPS Y0, Y3", "\tVXORPS Y12, Y12, Y12"}
	ld := func(r int) string { return fmt.Sprintf("\tVMOVUPS %d(SI)(AX*1), Y%d", 32*r, r+4) }
	op := func(r int) string { return fmt.Sprintf("\t%s Y%d, Y%d, Y%d", ins, r+4, r, r) }
	nan := func(r int) string { return fmt.Sprintf("\tVCMPPS $3, Y%d, Y%d, Y%d", r+4, r+4, r+8) }
	or := func(r int) string { return fmt.Sprintf("\tVORPS Y%d, Y12, Y12", r+8) }
	b4 := cat(each(ld), each(op), each(nan), each(or))
	b1 := []string{ld(0), op(0), nan(0), or(0)}
	finish := []string{
		fmt.Sprintf("\t%s Y1, Y0, Y0", ins), fmt.Sprintf("\t%s Y3, Y2, Y2", ins), fmt.Sprintf("\t%s Y2, Y0, Y0", ins),
		"\tVEXTRACTF128 $1, Y0, X1", fmt.Sprintf("\t%s X1, X0, X0", ins),
		"\tVPERMILPS $0x4e, X0, X1", fmt.Sprintf("\t%s X1, X0, X0", ins),
		"\tVPERMILPS $0xb1, X0, X1", fmt.Sprintf("\t%s X1, X0, X0", ins),
		"\tVMOVSS X0, ret+16(FP)", "\tVMOVMSKPS Y12, BX", "\tTESTL BX, BX", "\tJZ   ok",
		"\tMOVL $0x7fc00000, BX", "\tMOVL BX, ret+16(FP)", "ok:"}
	loopFinish(name, "0-20", setup, b4, b1, finish)
}

// expConsts are the constants of the exp loops, each a 32-byte vector in
// expc<>: the clamp bounds, log2(e), -ln(2) split in two (Cephes' C1,
// C2), the polynomial (Cephes' expf), 1, the exponent bias and the sign
// bit.
var expConsts = []struct {
	name string
	bits uint32
}{
	{"hi", math.Float32bits(89)},
	{"lo", math.Float32bits(-104)},
	{"log2e", math.Float32bits(1.44269504088896341)},
	{"nc1", math.Float32bits(-0.693359375)},
	{"nc2", math.Float32bits(2.12194440e-4)},
	{"p0", math.Float32bits(1.9875691500e-4)},
	{"p1", math.Float32bits(1.3981999507e-3)},
	{"p2", math.Float32bits(8.3334519073e-3)},
	{"p3", math.Float32bits(4.1665795894e-2)},
	{"p4", math.Float32bits(1.6666665459e-1)},
	{"p5", math.Float32bits(5.0000001201e-1)},
	{"one", math.Float32bits(1)},
	{"bias", 127},
	{"sign", 0x80000000},
}

func expConst(name string) string {
	for i, c := range expConsts {
		if c.name == name {
			return fmt.Sprintf("expc<>+%d(SB)", 32*i)
		}
	}
	panic(name)
}

// expData emits expc<>.
func expData() {
	for i, c := range expConsts {
		for l := range 8 {
			emit(fmt.Sprintf("DATA expc<>+%d(SB)/4, $0x%08x", 32*i+4*l, c.bits))
		}
	}
	emit(fmt.Sprintf("GLOBL expc<>(SB), RODATA|NOPTR, $%d", 32*len(expConsts)), "")
}

// expSteps returns the instructions of the exp family (kind "exp",
// "sigmoid" or "silu") on one vector at off(SI) with registers a (x, then
// r), b (n), c (z, then 2^n1) and d (the result), and Y12, Y13, Y14
// holding 89, -104 and 1. exp is Cephes' expf: x clamped to [-104, 89]
// (min and max keep a NaN x, which then stays NaN to the end), n =
// round(x·log2 e) (ties to even), r = x - n·C1 - n·C2 by two fused
// multiply-adds, e^r = 1 + r + r²·P(r) by Horner's rule in fused
// multiply-adds, and 2^n applied as 2^(n>>1)·2^(n-(n>>1)) so that
// results overflow to +Inf and underflow through the subnormals with one
// rounding. sigmoid is 1/(e^-x + 1) and silu x/(e^-x + 1).
func expSteps(kind, off, a, b, c, d string) []string {
	k := expConst
	f := fmt.Sprintf
	l := []string{f("\tVMOVUPS %s(SI)(AX*1), %s", off, a)}
	if kind != "exp" {
		l = append(l, f("\tVXORPS %s, %s, %s", k("sign"), a, a))
	}
	l = append(l,
		f("\tVMINPS %s, Y12, %s", a, a),
		f("\tVMAXPS %s, Y13, %s", a, a),
		f("\tVMULPS %s, %s, %s", k("log2e"), a, b),
		f("\tVCVTPS2DQ %s, %s", b, b),
		f("\tVCVTDQ2PS %s, %s", b, c),
		f("\tVFMADD231PS %s, %s, %s", k("nc1"), c, a),
		f("\tVFMADD231PS %s, %s, %s", k("nc2"), c, a),
		f("\tVMULPS %s, %s, %s", a, a, c),
		f("\tVMOVUPS %s, %s", k("p0"), d),
	)
	for _, p := range []string{"p1", "p2", "p3", "p4", "p5"} {
		l = append(l, f("\tVFMADD213PS %s, %s, %s", k(p), a, d))
	}
	l = append(l,
		f("\tVFMADD213PS %s, %s, %s", a, c, d),
		f("\tVADDPS Y14, %s, %s", d, d),
		f("\tVPSRAD $1, %s, %s", b, c),
		f("\tVPSUBD %s, %s, %s", c, b, b),
		f("\tVPADDD %s, %s, %s", k("bias"), c, c),
		f("\tVPSLLD $23, %s, %s", c, c),
		f("\tVMULPS %s, %s, %s", c, d, d),
		f("\tVPADDD %s, %s, %s", k("bias"), b, b),
		f("\tVPSLLD $23, %s, %s", b, b),
		f("\tVMULPS %s, %s, %s", b, d, d),
	)
	switch kind {
	case "sigmoid":
		l = append(l, f("\tVADDPS Y14, %s, %s", d, d), f("\tVDIVPS %s, Y14, %s", d, d))
	case "silu":
		l = append(l, f("\tVADDPS Y14, %s, %s", d, d), f("\tVMOVUPS %s(SI)(AX*1), %s", off, c), f("\tVDIVPS %s, %s, %s", d, c, d))
	}
	return append(l, f("\tVMOVUPS %s, %s(DI)(AX*1)", d, off))
}

// expLoop emits one function of the exp family: two vectors a step,
// interleaved, then one.
func expLoop(kind string) {
	name := kind + "F32"
	emit("// func "+name, fmt.Sprintf("TEXT ·%s(SB), NOSPLIT, $0-24", name))
	emit("\tMOVQ dst+0(FP), DI", "\tMOVQ x+8(FP), SI", "\tMOVQ n+16(FP), CX", "\tSHLQ $2, CX",
		"\tVMOVUPS "+expConst("hi")+", Y12", "\tVMOVUPS "+expConst("lo")+", Y13", "\tVMOVUPS "+expConst("one")+", Y14")
	emit("\tXORQ AX, AX", "loop2:", "\tMOVQ CX, BX", "\tSUBQ AX, BX", "\tCMPQ BX, $64", "\tJLT  loop1")
	emit(interleave(expSteps(kind, "0", "Y0", "Y1", "Y2", "Y3"), expSteps(kind, "32", "Y4", "Y5", "Y6", "Y7"))...)
	emit("\tADDQ $64, AX", "\tJMP  loop2", "loop1:", "\tCMPQ AX, CX", "\tJGE  done")
	emit(expSteps(kind, "0", "Y0", "Y1", "Y2", "Y3")...)
	emit("\tADDQ $32, AX", "\tJMP  loop1", "done:", "\tVZEROUPPER", "\tRET", "")
}

// interleave merges equal-length instruction lists one line of each at a
// time, so that independent vectors overlap.
func interleave(ls ...[]string) []string {
	var out []string
	for i := range ls[0] {
		for _, l := range ls {
			out = append(out, l[i])
		}
	}
	return out
}

// rows emits the float32 row loops.
func rows() {
	sumF64("sumF32", "0-24", "ret+16(FP)", []string{"\tMOVQ x+0(FP), SI", "\tMOVQ n+8(FP), CX"}, false)
	sumF64("sqDevF32", "0-32", "ret+24(FP)", []string{"\tMOVQ x+0(FP), SI", "\tMOVQ n+8(FP), CX", "\tVBROADCASTSD mean+16(FP), Y15"}, true)
	extreme("maxF32", "VMAXPS")
	extreme("minF32", "VMINPS")

	ld := func(r int) string { return fmt.Sprintf("\tVMOVUPS %d(SI)(AX*1), Y%d", 32*r, r) }
	st := func(r int) string { return fmt.Sprintf("\tVMOVUPS Y%d, %d(DI)(AX*1)", r, 32*r) }
	mul := func(r int) string { return fmt.Sprintf("\tVMULPS Y14, Y%d, Y%d", r, r) }
	add := func(r int) string { return fmt.Sprintf("\tVADDPS Y15, Y%d, Y%d", r, r) }
	// scaleShift: dst = x*s + t, two roundings.
	setup := []string{"\tMOVQ dst+0(FP), DI", "\tMOVQ x+8(FP), SI", "\tMOVQ n+16(FP), CX", "\tSHLQ $2, CX",
		"\tVBROADCASTSS s+24(FP), Y14", "\tVBROADCASTSS t+28(FP), Y15"}
	loop("scaleShiftF32", "0-32", setup, cat(each(ld), each(mul), each(add), each(st)), []string{ld(0), mul(0), add(0), st(0)})
	// affine: dst = (x*s + t)*w + b, four roundings.
	setup = []string{"\tMOVQ dst+0(FP), DI", "\tMOVQ x+8(FP), SI", "\tMOVQ w+16(FP), DX", "\tMOVQ b+24(FP), R8", "\tMOVQ n+32(FP), CX", "\tSHLQ $2, CX",
		"\tVBROADCASTSS s+40(FP), Y14", "\tVBROADCASTSS t+44(FP), Y15"}
	mw := func(r int) string { return fmt.Sprintf("\tVMULPS %d(DX)(AX*1), Y%d, Y%d", 32*r, r, r) }
	ab := func(r int) string { return fmt.Sprintf("\tVADDPS %d(R8)(AX*1), Y%d, Y%d", 32*r, r, r) }
	loop("affineF32", "0-48", setup, cat(each(ld), each(mul), each(add), each(mw), each(ab), each(st)),
		[]string{ld(0), mul(0), add(0), mw(0), ab(0), st(0)})
	for _, kind := range []string{"exp", "sigmoid", "silu"} {
		expLoop(kind)
	}
	expData()
}
