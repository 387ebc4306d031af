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
