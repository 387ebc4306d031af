package main

import (
	"fmt"
	"math"
)

// The exp family: Exp, Sigmoid and Silu, and softmax's SubExpSum, in AVX2
// (eight lanes, the constants in memory) and AVX-512 (sixteen lanes, the
// constants in Z16-Z29). Both run the same instructions on each lane, so
// they agree bit for bit with each other and with exp32 in ../portable.go.

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

// expIndex returns the position of a constant in expConsts.
func expIndex(name string) int {
	for i, c := range expConsts {
		if c.name == name {
			return i
		}
	}
	panic(name)
}

// expConst returns the memory operand of a constant's 32-byte vector.
func expConst(name string) string { return fmt.Sprintf("expc<>+%d(SB)", 32*expIndex(name)) }

// expData emits expc<>.
func expData() {
	for i, c := range expConsts {
		for l := range 8 {
			emit(fmt.Sprintf("DATA expc<>+%d(SB)/4, $0x%08x", 32*i+4*l, c.bits))
		}
	}
	emit(fmt.Sprintf("GLOBL expc<>(SB), RODATA|NOPTR, $%d", 32*len(expConsts)), "")
}

// expISA describes one instruction set's exp loops: the vector width in
// bytes, the register prefix, the operand holding each constant (and
// "m", softmax's max), and the vectors of a loop step.
type expISA struct {
	width int
	reg   string
	k     func(name string) string
	step  int
}

func (s expISA) r(i int) string { return fmt.Sprintf("%s%d", s.reg, i) }

// avx2 keeps hi, lo, 1 and m in Y12-Y15 and reads the other constants
// from memory; a step is two vectors.
var avx2 = expISA{32, "Y", func(name string) string {
	switch name {
	case "hi":
		return "Y12"
	case "lo":
		return "Y13"
	case "one":
		return "Y14"
	case "m":
		return "Y15"
	}
	return expConst(name)
}, 2}

// avx512 keeps constant i of expConsts in Z16+i and m in Z29 (where the
// sign bit would be: SubExpSum does not negate); a step is four vectors.
// Z30 and Z31 hold SubExpSum's sums.
var avx512 = expISA{64, "Z", func(name string) string {
	if name == "m" {
		return "Z29"
	}
	return fmt.Sprintf("Z%d", 16+expIndex(name))
}, 4}

// expSteps returns the instructions of the exp family (kind "exp",
// "sigmoid", "silu", or "subexp": e^(x-m)) on the vector at off(SI) with
// registers a (x, then r), b (n), c (z, then 2^n1) and d (the result),
// stored at off(DI) when store. exp is Cephes' expf: x clamped to [-104,
// 89] (min and max keep a NaN x, which then stays NaN to the end), n =
// round(x·log2 e) (ties to even), r = x - n·C1 - n·C2 by two fused
// multiply-adds, e^r = 1 + r + r²·P(r) by Horner's rule in fused
// multiply-adds, and 2^n applied as 2^(n>>1)·2^(n-(n>>1)) so that
// results overflow to +Inf and underflow through the subnormals with one
// rounding. sigmoid is 1/(e^-x + 1) and silu x/(e^-x + 1).
func expSteps(s expISA, kind string, off, a, b, c, d int, store bool) []string {
	k, f := s.k, fmt.Sprintf
	A, B, C, D := s.r(a), s.r(b), s.r(c), s.r(d)
	l := []string{f("\tVMOVUPS %d(SI)(AX*1), %s", off, A)}
	switch kind {
	case "subexp":
		l = append(l, f("\tVSUBPS %s, %s, %s", k("m"), A, A))
	case "subexpv":
		l = append(l, f("\tVSUBPS %d(DX)(AX*1), %s, %s", off, A, A))
	case "sigmoid", "silu":
		xor := "VXORPS"
		if s.reg == "Z" {
			xor = "VPXORD" // AVX512F; VXORPS on Z needs AVX512DQ
		}
		l = append(l, f("\t%s %s, %s, %s", xor, k("sign"), A, A))
	}
	l = append(l,
		f("\tVMINPS %s, %s, %s", A, k("hi"), A),
		f("\tVMAXPS %s, %s, %s", A, k("lo"), A),
		f("\tVMULPS %s, %s, %s", k("log2e"), A, B),
		f("\tVCVTPS2DQ %s, %s", B, B),
		f("\tVCVTDQ2PS %s, %s", B, C),
		f("\tVFMADD231PS %s, %s, %s", k("nc1"), C, A),
		f("\tVFMADD231PS %s, %s, %s", k("nc2"), C, A),
		f("\tVMULPS %s, %s, %s", A, A, C),
		f("\tVMOVUPS %s, %s", k("p0"), D),
	)
	for _, p := range []string{"p1", "p2", "p3", "p4", "p5"} {
		l = append(l, f("\tVFMADD213PS %s, %s, %s", k(p), A, D))
	}
	l = append(l,
		f("\tVFMADD213PS %s, %s, %s", A, C, D),
		f("\tVADDPS %s, %s, %s", k("one"), D, D),
		f("\tVPSRAD $1, %s, %s", B, C),
		f("\tVPSUBD %s, %s, %s", C, B, B),
		f("\tVPADDD %s, %s, %s", k("bias"), C, C),
		f("\tVPSLLD $23, %s, %s", C, C),
		f("\tVMULPS %s, %s, %s", C, D, D),
		f("\tVPADDD %s, %s, %s", k("bias"), B, B),
		f("\tVPSLLD $23, %s, %s", B, B),
		f("\tVMULPS %s, %s, %s", B, D, D),
	)
	switch kind {
	case "sigmoid":
		l = append(l, f("\tVADDPS %s, %s, %s", k("one"), D, D), f("\tVDIVPS %s, %s, %s", D, k("one"), D))
	case "silu":
		l = append(l, f("\tVADDPS %s, %s, %s", k("one"), D, D), f("\tVMOVUPS %d(SI)(AX*1), %s", off, C), f("\tVDIVPS %s, %s, %s", D, C, D))
	}
	if store {
		l = append(l, f("\tVMOVUPS %s, %d(DI)(AX*1)", D, off))
	}
	return l
}

// sumSteps returns the instructions adding the float32 result in
// register d, converted to float64, to SubExpSum's accumulators, with a
// and b free: in AVX2 the vector's halves to Y(acc) and Y(acc+1), in
// AVX-512 to Z30 and Z31. Element i of every sixteen thus goes to
// partial sum i%16 (lane i%4 of the AVX2 accumulator Y8+i/4, lane i%8
// of Z30+i/8), in order.
func sumSteps(s expISA, a, b, d, acc int) []string {
	f := fmt.Sprintf
	if s.reg == "Y" {
		return []string{
			f("\tVCVTPS2PD X%d, Y%d", d, a),
			f("\tVEXTRACTF128 $1, Y%d, X%d", d, b),
			f("\tVCVTPS2PD X%d, Y%d", b, b),
			f("\tVADDPD Y%d, Y%d, Y%d", a, acc, acc),
			f("\tVADDPD Y%d, Y%d, Y%d", b, acc+1, acc+1),
		}
	}
	return []string{
		f("\tVCVTPS2PD Y%d, Z%d", d, a),
		f("\tVEXTRACTF64X4 $1, Z%d, Y%d", d, b),
		f("\tVCVTPS2PD Y%d, Z%d", b, b),
		"\tVADDPD Z" + fmt.Sprint(a) + ", Z30, Z30",
		"\tVADDPD Z" + fmt.Sprint(b) + ", Z31, Z31",
	}
}

// expFunc emits one function of the exp family for s: s.step vectors a
// step, interleaved, then one at a time (unless one is false: n is then
// a multiple of the step). vector returns the instructions of vector v
// of a step at byte offset off.
func expFunc(s expISA, name, argsize string, setup []string, vector func(v, off int) []string, one bool, finish []string) {
	emit("// func "+name, fmt.Sprintf("TEXT ·%s(SB), NOSPLIT, $%s", name, argsize))
	emit(setup...)
	stepBytes := s.step * s.width
	next := "done"
	if one {
		next = "loop1"
	}
	emit("\tXORQ AX, AX", fmt.Sprintf("loop%d:", s.step), "\tMOVQ CX, BX", "\tSUBQ AX, BX", fmt.Sprintf("\tCMPQ BX, $%d", stepBytes), "\tJLT  "+next)
	var vs [][]string
	for v := range s.step {
		vs = append(vs, vector(v, v*s.width))
	}
	emit(interleave(vs...)...)
	emit(fmt.Sprintf("\tADDQ $%d, AX", stepBytes), fmt.Sprintf("\tJMP  loop%d", s.step))
	if one {
		emit("loop1:", "\tCMPQ AX, CX", "\tJGE  done")
		emit(vector(0, 0)...)
		emit(fmt.Sprintf("\tADDQ $%d, AX", s.width), "\tJMP  loop1")
	}
	emit("done:")
	emit(finish...)
	emit("\tVZEROUPPER", "\tRET", "")
}

// expSetup returns the instructions loading the constants of kind into
// registers.
func expSetup(s expISA, kind string) []string {
	if s.reg == "Y" {
		return []string{"\tVMOVUPS " + expConst("hi") + ", Y12", "\tVMOVUPS " + expConst("lo") + ", Y13", "\tVMOVUPS " + expConst("one") + ", Y14"}
	}
	var l []string
	for i, c := range expConsts {
		if c.name != "sign" || kind == "sigmoid" || kind == "silu" {
			l = append(l, fmt.Sprintf("\tVBROADCASTSS expc<>+%d(SB), Z%d", 32*i, 16+i))
		}
	}
	return l
}

// expLoop emits the function of kind ("exp", "sigmoid" or "silu") for s,
// named kind+"F32"+suffix: dst = f(x) over n float32, n a multiple of
// the vector's lanes.
func expLoop(s expISA, kind, suffix string) {
	setup := append([]string{"\tMOVQ dst+0(FP), DI", "\tMOVQ x+8(FP), SI", "\tMOVQ n+16(FP), CX", "\tSHLQ $2, CX"}, expSetup(s, kind)...)
	regs := 4 // registers a vector
	expFunc(s, kind+"F32"+suffix, "0-24", setup, func(v, off int) []string {
		return expSteps(s, kind, off, regs*v, regs*v+1, regs*v+2, regs*v+3, true)
	}, true, nil)
}

// subExpSumLoop emits subExpSumF32+suffix (store: dst = e^(x-m)) or
// subExpSumOnlyF32+suffix (the sum alone), returning the sum of e^(x-m)
// in float64 in Sum's order (n a multiple of 16).
func subExpSumLoop(s expISA, store bool, suffix string) {
	name, argsize, args, ret := "subExpSumF32", "0-40", []string{"\tMOVQ dst+0(FP), DI", "\tMOVQ x+8(FP), SI", "\tMOVQ n+16(FP), CX"}, "ret+32(FP)"
	m := "m+24(FP)"
	if !store {
		name, argsize, args, ret, m = "subExpSumOnlyF32", "0-32", []string{"\tMOVQ x+0(FP), SI", "\tMOVQ n+8(FP), CX"}, "ret+24(FP)", "m+16(FP)"
	}
	setup := append(args, "\tSHLQ $2, CX", fmt.Sprintf("\tVBROADCASTSS %s, %s", m, s.k("m")))
	setup = append(setup, expSetup(s, "subexp")...)
	var finish []string
	if s.reg == "Y" {
		setup = append(setup, "\tVXORPD Y8, Y8, Y8", "\tVXORPD Y9, Y9, Y9", "\tVXORPD Y10, Y10, Y10", "\tVXORPD Y11, Y11, Y11")
	} else {
		setup = append(setup, "\tVPXORD Z30, Z30, Z30", "\tVPXORD Z31, Z31, Z31")
		// Z30 = p0..p7, Z31 = p8..p15: into Y8-Y11's layout (Y0 = a0+a1,
		// Y1 = a2+a3).
		finish = []string{"\tVEXTRACTF64X4 $0, Z30, Y0", "\tVEXTRACTF64X4 $1, Z30, Y1", "\tVADDPD Y1, Y0, Y8",
			"\tVEXTRACTF64X4 $0, Z31, Y0", "\tVEXTRACTF64X4 $1, Z31, Y1", "\tVADDPD Y1, Y0, Y10"}
	}
	if s.reg == "Y" {
		finish = []string{"\tVADDPD Y9, Y8, Y8", "\tVADDPD Y11, Y10, Y10"}
	}
	finish = append(finish, "\tVADDPD Y10, Y8, Y8",
		"\tVEXTRACTF128 $1, Y8, X9", "\tVADDPD X9, X8, X8", "\tVPERMILPD $1, X8, X9", "\tVADDSD X9, X8, X8",
		"\tVZEROUPPER", "\tMOVSD X8, "+ret)
	expFunc(s, name+suffix, argsize, setup, func(v, off int) []string {
		a, b, c, d := 4*v, 4*v+1, 4*v+2, 4*v+3
		return append(expSteps(s, "subexp", off, a, b, c, d, store), sumSteps(s, a, b, d, 8+2*v)...)
	}, s.reg == "Z", finish)
}

// subExpAccLoop emits subExpAccF32+suffix: dst = e^(x-m) and acc +=
// float64(dst), m and acc vectors, over n float32 (n a multiple of the
// vector's lanes). AX counts the float32 bytes, acc's are twice as many.
func subExpAccLoop(s expISA, suffix string) {
	setup := append([]string{"\tMOVQ dst+0(FP), DI", "\tMOVQ x+8(FP), SI", "\tMOVQ m+16(FP), DX", "\tMOVQ acc+24(FP), R8",
		"\tMOVQ n+32(FP), CX", "\tSHLQ $2, CX"}, expSetup(s, "subexp")...)
	f := fmt.Sprintf
	expFunc(s, "subExpAccF32"+suffix, "0-40", setup, func(v, off int) []string {
		a, b, d := 4*v, 4*v+1, 4*v+3
		l := expSteps(s, "subexpv", off, a, b, 4*v+2, d, true)
		half := "X"
		ext := f("\tVEXTRACTF128 $1, Y%d, X%d", d, b)
		if s.reg == "Z" {
			half, ext = "Y", f("\tVEXTRACTF64X4 $1, Z%d, Y%d", d, b)
		}
		return append(l,
			f("\tVCVTPS2PD %s%d, %s", half, d, s.r(a)),
			ext,
			f("\tVCVTPS2PD %s%d, %s", half, b, s.r(b)),
			f("\tVADDPD %d(R8)(AX*2), %s, %s", 2*off, s.r(a), s.r(a)),
			f("\tVADDPD %d(R8)(AX*2), %s, %s", 2*off+s.width, s.r(b), s.r(b)),
			f("\tVMOVUPD %s, %d(R8)(AX*2)", s.r(a), 2*off),
			f("\tVMOVUPD %s, %d(R8)(AX*2)", s.r(b), 2*off+s.width))
	}, true, nil)
}

// expLoops emits the exp family's loops and their constants, and
// subSubF32 (log_softmax's dst = (x - a) - b).
func expLoops() {
	for _, kind := range []string{"exp", "sigmoid", "silu"} {
		expLoop(avx2, kind, "")
	}
	for _, store := range []bool{true, false} {
		subExpSumLoop(avx2, store, "")
	}
	subExpAccLoop(avx2, "")
	for _, kind := range []string{"exp", "sigmoid", "silu"} {
		expLoop(avx512, kind, "x16")
	}
	for _, store := range []bool{true, false} {
		subExpSumLoop(avx512, store, "x16")
	}
	subExpAccLoop(avx512, "x16")
	ld := func(r int) string { return fmt.Sprintf("\tVMOVUPS %d(SI)(AX*1), Y%d", 32*r, r) }
	st := func(r int) string { return fmt.Sprintf("\tVMOVUPS Y%d, %d(DI)(AX*1)", r, 32*r) }
	subA := func(r int) string { return fmt.Sprintf("\tVSUBPS Y14, Y%d, Y%d", r, r) }
	subB := func(r int) string { return fmt.Sprintf("\tVSUBPS Y15, Y%d, Y%d", r, r) }
	setup := []string{"\tMOVQ dst+0(FP), DI", "\tMOVQ x+8(FP), SI", "\tMOVQ n+16(FP), CX", "\tSHLQ $2, CX",
		"\tVBROADCASTSS a+24(FP), Y14", "\tVBROADCASTSS b+28(FP), Y15"}
	loop("subSubF32", "0-32", setup, cat(each(ld), each(subA), each(subB), each(st)), []string{ld(0), subA(0), subB(0), st(0)})
	// subSubV: dst = (x - a) - b, a and b vectors.
	subAV := func(r int) string { return fmt.Sprintf("\tVSUBPS %d(DX)(AX*1), Y%d, Y%d", 32*r, r, r) }
	subBV := func(r int) string { return fmt.Sprintf("\tVSUBPS %d(R8)(AX*1), Y%d, Y%d", 32*r, r, r) }
	setup = []string{"\tMOVQ dst+0(FP), DI", "\tMOVQ x+8(FP), SI", "\tMOVQ a+16(FP), DX", "\tMOVQ b+24(FP), R8", "\tMOVQ n+32(FP), CX", "\tSHLQ $2, CX"}
	loop("subSubVF32", "0-40", setup, cat(each(ld), each(subAV), each(subBV), each(st)), []string{ld(0), subAV(0), subBV(0), st(0)})
	expData()
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
