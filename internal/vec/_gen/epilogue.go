package main

import "fmt"

// epilogueLoops emits the row epilogue loops of epilogue_amd64.go:
// dst = clamp((dst + s) + r, lo, hi), with r (the "Res" forms) or
// without, the clamp as clamp's (lo where below lo, then hi where above
// hi, NaN kept).
func epilogueLoops() {
	for _, ty := range []struct {
		t, p, s string
		shift   int
		size    int
	}{{"F32", "PS", "SS", 2, 4}, {"F64", "PD", "SD", 3, 8}} {
		t, p, s, sz := ty.t, ty.p, ty.s, ty.size
		mov := "VMOVUP" + p[1:]
		for _, res := range []bool{false, true} {
			name, args := "addClamp"+t, []string{"\tMOVQ dst+0(FP), DI"}
			off := 8
			if res {
				name = "addClampRes" + t
				args = append(args, "\tMOVQ r+8(FP), DX")
				off = 16
			}
			args = append(args, fmt.Sprintf("\tMOVQ n+%d(FP), CX", off), fmt.Sprintf("\tSHLQ $%d, CX", ty.shift),
				fmt.Sprintf("\tVBROADCAST%s s+%d(FP), Y13", s, off+8),
				fmt.Sprintf("\tVBROADCAST%s lo+%d(FP), Y14", s, off+8+sz),
				fmt.Sprintf("\tVBROADCAST%s hi+%d(FP), Y15", s, off+8+2*sz))
			argsize := fmt.Sprintf("0-%d", off+8+3*sz)
			step := func(r, at int) []string {
				l := []string{
					fmt.Sprintf("\t%s %d(DI)(AX*1), Y%d", mov, at, r),
					fmt.Sprintf("\tVADD%s Y13, Y%d, Y%d", p, r, r),
				}
				if res {
					l = append(l, fmt.Sprintf("\tVADD%s %d(DX)(AX*1), Y%d, Y%d", p, at, r, r))
				}
				return append(l,
					fmt.Sprintf("\tVCMP%s $1, Y14, Y%d, Y%d", p, r, r+4),
					fmt.Sprintf("\tVBLENDV%s Y%d, Y14, Y%d, Y%d", p, r+4, r, r),
					fmt.Sprintf("\tVCMP%s $1, Y%d, Y15, Y%d", p, r, r+4),
					fmt.Sprintf("\tVBLENDV%s Y%d, Y15, Y%d, Y%d", p, r+4, r, r),
					fmt.Sprintf("\t%s Y%d, %d(DI)(AX*1)", mov, r, at))
			}
			var b4 []string
			for r := range 4 {
				b4 = append(b4, step(r, 32*r)...)
			}
			loop(name, argsize, args, b4, step(0, 0))
		}
	}
}
