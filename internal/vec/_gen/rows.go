package main

import "fmt"

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
	expLoops()
}
