package main

import "fmt"

// poolLoops emits the max-folding loops of pool_amd64.go: dst = x where
// x > dst or x is NaN (a window's maximum taken in window order, as
// ATen's max pooling loops), and the same recording tap in arg where dst
// changes.
func poolLoops() {
	for _, ty := range []struct{ t, p, w, argsize string }{
		{"F32", "PS", "L", "0-36"},
		{"F64", "PD", "Q", "0-40"},
	} {
		t, p := ty.t, ty.p
		mov := "VMOV" + "UP" + p[1:]
		// step emits the fold of the vector at byte offset off, through
		// x in Y(r), dst in Y(r+4), the mask in Y(r+8) and Y3; withArg
		// also blends tap (Y15) into arg through Y(r+12).
		step := func(r, off int, withArg bool) []string {
			l := []string{
				fmt.Sprintf("\t%s %d(SI)(AX*1), Y%d", mov, off, r),
				fmt.Sprintf("\t%s %d(DI)(AX*1), Y%d", mov, off, r+4),
				fmt.Sprintf("\tVCMP%s $14, Y%d, Y%d, Y%d", p, r+4, r, r+8), // x > dst (ordered)
				fmt.Sprintf("\tVCMP%s $3, Y%d, Y%d, Y3", p, r, r),          // x is NaN
				fmt.Sprintf("\tVOR%s Y3, Y%d, Y%d", p, r+8, r+8),
				fmt.Sprintf("\tVBLENDV%s Y%d, Y%d, Y%d, Y%d", p, r+8, r, r+4, r+4),
				fmt.Sprintf("\t%s Y%d, %d(DI)(AX*1)", mov, r+4, off),
			}
			if withArg {
				l = append(l,
					fmt.Sprintf("\t%s %d(DX)(AX*1), Y%d", mov, off, r+12),
					fmt.Sprintf("\tVBLENDV%s Y%d, Y15, Y%d, Y%d", p, r+8, r+12, r+12),
					fmt.Sprintf("\t%s Y%d, %d(DX)(AX*1)", mov, r+12, off))
			}
			return l
		}
		shift := 2
		if t == "F64" {
			shift = 3
		}
		scale := fmt.Sprintf("\tSHLQ $%d, CX", shift)
		// Three vectors a step: the masks and argument blends of four
		// would need more than 16 registers.
		for _, withArg := range []bool{false, true} {
			var b4 []string
			for r := range 3 {
				b4 = append(b4, step(r, 32*r, withArg)...)
			}
			b1 := step(0, 0, withArg)
			if withArg {
				setup := []string{"\tMOVQ dst+0(FP), DI", "\tMOVQ arg+8(FP), DX", "\tMOVQ x+16(FP), SI", "\tMOVQ n+24(FP), CX", scale,
					fmt.Sprintf("\tMOV%s tap+32(FP), BX", ty.w), "\tVMOVQ BX, X15", fmt.Sprintf("\tVPBROADCAST%s X15, Y15", map[string]string{"L": "D", "Q": "Q"}[ty.w])}
				loopN("maxFoldArg"+t, ty.argsize, 96, setup, b4, b1)
			} else {
				setup := []string{"\tMOVQ dst+0(FP), DI", "\tMOVQ x+8(FP), SI", "\tMOVQ n+16(FP), CX", scale}
				loopN("maxFold"+t, "0-24", 96, setup, b4, b1)
			}
		}
	}
	fold3()
	deinterleave()
	even()
}

// fold3 emits maxFold3F32/F64 and maxFold3ArgF32/F64: three MaxFold
// steps (x, y, z in that order; taps tap, tap+1, tap+2) with dst (and arg)
// kept in registers, one vector a step.
func fold3() {
	for _, ty := range []struct{ t, p, w, argsize, bc string }{
		{"F32", "PS", "L", "0-52", "D"},
		{"F64", "PD", "Q", "0-56", "Q"},
	} {
		mov := "VMOVUP" + ty.p[1:]
		shift := map[string]int{"F32": 2, "F64": 3}[ty.t]
		for _, withArg := range []bool{false, true} {
			name, argsize := "maxFold3"+ty.t, "0-40"
			off := 0
			if withArg {
				name, argsize, off = "maxFold3Arg"+ty.t, ty.argsize, 8
			}
			emit("// func "+name, fmt.Sprintf("TEXT ·%s(SB), NOSPLIT, $%s", name, argsize),
				"\tMOVQ dst+0(FP), DI")
			if withArg {
				emit("\tMOVQ arg+8(FP), DX")
			}
			emit(fmt.Sprintf("\tMOVQ x+%d(FP), SI", 8+off), fmt.Sprintf("\tMOVQ y+%d(FP), R8", 16+off),
				fmt.Sprintf("\tMOVQ z+%d(FP), R9", 24+off), fmt.Sprintf("\tMOVQ n+%d(FP), CX", 32+off),
				fmt.Sprintf("\tSHLQ $%d, CX", shift))
			if withArg {
				emit(fmt.Sprintf("\tMOV%s tap+48(FP), BX", ty.w), "\tVMOVQ BX, X13", fmt.Sprintf("\tVPBROADCAST%s X13, Y13", ty.bc))
				one := "\tVPADDD"
				if ty.t == "F64" {
					one = "\tVPADDQ"
				}
				emit("\tMOVQ $1, BX", "\tVMOVQ BX, X12", fmt.Sprintf("\tVPBROADCAST%s X12, Y12", ty.bc),
					one+" Y12, Y13, Y14", one+" Y12, Y14, Y15")
			}
			emit("\tXORQ AX, AX", "loop:", "\tCMPQ AX, CX", "\tJGE  done",
				fmt.Sprintf("\t%s (DI)(AX*1), Y0", mov))
			if withArg {
				emit(fmt.Sprintf("\t%s (DX)(AX*1), Y4", mov))
			}
			for i, src := range []string{"SI", "R8", "R9"} {
				emit(fmt.Sprintf("\t%s (%s)(AX*1), Y1", mov, src),
					fmt.Sprintf("\tVCMP%s $14, Y0, Y1, Y2", ty.p),
					fmt.Sprintf("\tVCMP%s $3, Y1, Y1, Y3", ty.p),
					fmt.Sprintf("\tVOR%s Y3, Y2, Y2", ty.p),
					fmt.Sprintf("\tVBLENDV%s Y2, Y1, Y0, Y0", ty.p))
				if withArg {
					emit(fmt.Sprintf("\tVBLENDV%s Y2, Y%d, Y4, Y4", ty.p, 13+i))
				}
			}
			emit(fmt.Sprintf("\t%s Y0, (DI)(AX*1)", mov))
			if withArg {
				emit(fmt.Sprintf("\t%s Y4, (DX)(AX*1)", mov))
			}
			emit("\tADDQ $32, AX", "\tJMP  loop", "done:", "\tVZEROUPPER", "\tRET", "")
		}
	}
}

// deinterleave emits deinterleave2F32: even[j] = x[2j], odd[j] = x[2j+1]
// for j < n (a multiple of 8), 16 inputs a step.
func deinterleave() {
	emit("// func deinterleave2F32", "TEXT ·deinterleave2F32(SB), NOSPLIT, $0-32",
		"\tMOVQ even+0(FP), DI", "\tMOVQ odd+8(FP), DX", "\tMOVQ x+16(FP), SI", "\tMOVQ n+24(FP), CX",
		"\tSHLQ $2, CX", "\tXORQ AX, AX",
		"loop:", "\tCMPQ AX, CX", "\tJGE  done",
		"\tVMOVUPS (SI)(AX*2), Y0", "\tVMOVUPS 32(SI)(AX*2), Y1",
		"\tVSHUFPS $0x88, Y1, Y0, Y2", // per 128-bit lane: x0 x2 x8 x10 | x4 x6 x12 x14
		"\tVSHUFPS $0xDD, Y1, Y0, Y3",
		"\tVPERMPD $0xD8, Y2, Y2", // 64-bit quarters 0 2 1 3: x0 x2 x4 x6 x8 x10 x12 x14
		"\tVPERMPD $0xD8, Y3, Y3",
		"\tVMOVUPS Y2, (DI)(AX*1)", "\tVMOVUPS Y3, (DX)(AX*1)",
		"\tADDQ $32, AX", "\tJMP  loop",
		"done:", "\tVZEROUPPER", "\tRET", "")
}

// loopN is loop with a step of step bytes (a multiple of 32) instead of
// 128.
func loopN(name, argsize string, step int, setup, bodyN, body1 []string) {
	emit("// func "+name, fmt.Sprintf("TEXT ·%s(SB), NOSPLIT, $%s", name, argsize))
	emit(setup...)
	emit("\tXORQ AX, AX", "loop4:", "\tMOVQ CX, BX", "\tSUBQ AX, BX", fmt.Sprintf("\tCMPQ BX, $%d", step), "\tJLT  loop1")
	emit(bodyN...)
	emit(fmt.Sprintf("\tADDQ $%d, AX", step), "\tJMP  loop4", "loop1:", "\tCMPQ AX, CX", "\tJGE  done")
	emit(body1...)
	emit("\tADDQ $32, AX", "\tJMP  loop1", "done:", "\tVZEROUPPER", "\tRET", "")
}

// even emits evenF32 (AVX2): dst[j] = x[2j] for j < n, a multiple of 8,
// 16 inputs a step; and evenRowsF32x16 (AVX-512F), the same for any
// n ≥ 1 on rows rows of a matrix (dst's rows ldd elements apart, x's
// ldx): each row's last 1..16 elements with masked loads (which do not
// fault past the row's 2n−1 elements) and a masked store. VPERMT2PS
// picks the even elements of two vectors.
func even() {
	emit("// func evenF32", "TEXT ·evenF32(SB), NOSPLIT, $0-24",
		"\tMOVQ dst+0(FP), DI", "\tMOVQ x+8(FP), SI", "\tMOVQ n+16(FP), CX",
		"\tSHLQ $2, CX", "\tXORQ AX, AX",
		"loop:", "\tCMPQ AX, CX", "\tJGE  done",
		"\tVMOVUPS (SI)(AX*2), Y0", "\tVMOVUPS 32(SI)(AX*2), Y1",
		"\tVSHUFPS $0x88, Y1, Y0, Y2", // per 128-bit lane: x0 x2 x8 x10 | x4 x6 x12 x14
		"\tVPERMPD $0xD8, Y2, Y2",     // 64-bit quarters 0 2 1 3
		"\tVMOVUPS Y2, (DI)(AX*1)",
		"\tADDQ $32, AX", "\tJMP  loop",
		"done:", "\tVZEROUPPER", "\tRET", "")
	for l := range 16 {
		emit(fmt.Sprintf("DATA evenidx<>+%d(SB)/4, $%d", 4*l, 2*l))
	}
	emit("GLOBL evenidx<>(SB), RODATA|NOPTR, $64", "")
	emit("// func evenRowsF32x16", "TEXT ·evenRowsF32x16(SB), NOSPLIT, $0-48",
		"\tMOVQ dst+0(FP), DI", "\tMOVQ ldd+8(FP), R8", "\tSHLQ $2, R8",
		"\tMOVQ x+16(FP), SI", "\tMOVQ ldx+24(FP), R9", "\tSHLQ $2, R9",
		"\tMOVQ rows+32(FP), R10", "\tMOVQ n+40(FP), BX",
		"\tVMOVUPS evenidx<>(SB), Z3",
		// R11 full steps a row, then BX = 1..16 elements in the last:
		// a full step reads 32 inputs, and x's row may hold only 31.
		"\tLEAQ -1(BX), R11", "\tSHRQ $4, R11", "\tMOVQ R11, AX", "\tSHLQ $4, AX", "\tSUBQ AX, BX",
		// The last step's loads: its 2·BX−1 inputs, 16 bits a vector.
		"\tLEAQ -1(BX)(BX*1), CX", "\tMOVQ $1, AX", "\tSHLQ CX, AX", "\tSUBQ $1, AX",
		"\tKMOVW AX, K1", "\tSHRQ $16, AX", "\tKMOVW AX, K2",
		// Its store: BX outputs.
		"\tMOVQ BX, CX", "\tMOVQ $1, DX", "\tSHLQ CX, DX", "\tSUBQ $1, DX", "\tKMOVW DX, K3",
		"row:", "\tTESTQ R10, R10", "\tJEQ  done",
		"\tMOVQ DI, R12", "\tMOVQ SI, R13", "\tMOVQ R11, CX",
		"full:", "\tTESTQ CX, CX", "\tJEQ  last",
		"\tVMOVUPS (R13), Z0", "\tVMOVUPS 64(R13), Z1",
		"\tVPERMT2PS Z1, Z3, Z0", // the even elements of Z0:Z1
		"\tVMOVUPS Z0, (R12)",
		"\tADDQ $128, R13", "\tADDQ $64, R12", "\tDECQ CX", "\tJMP  full",
		"last:",
		"\tVMOVUPS.Z (R13), K1, Z0", "\tVMOVUPS.Z 64(R13), K2, Z1",
		"\tVPERMT2PS Z1, Z3, Z0", "\tVMOVUPS Z0, K3, (R12)",
		"\tADDQ R8, DI", "\tADDQ R9, SI", "\tDECQ R10", "\tJMP  row",
		"done:", "\tVZEROUPPER", "\tRET", "")
}
