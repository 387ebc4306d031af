//go:build !purego

#include "textflag.h"

// func addWidenF32(acc *float64, x *float32, n int)
// acc[i] += float64(x[i]) for i < n, n a multiple of 8: eight elements a
// step, widened by VCVTPS2PD (exact) and added by VADDPD.
TEXT ·addWidenF32(SB), NOSPLIT, $0-24
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ AX, AX

loop:
	CMPQ      AX, CX
	JGE       done
	VCVTPS2PD (SI)(AX*4), Y0
	VCVTPS2PD 16(SI)(AX*4), Y1
	VADDPD    (DI)(AX*8), Y0, Y0
	VADDPD    32(DI)(AX*8), Y1, Y1
	VMOVUPD   Y0, (DI)(AX*8)
	VMOVUPD   Y1, 32(DI)(AX*8)
	ADDQ      $8, AX
	JMP       loop

done:
	VZEROUPPER
	RET
