//go:build !purego

#include "textflag.h"

// func tapSum32AVX2(dst, src *float32, n int, taps *float32, offs *int, nt int)
//
// dst[o] += sum over t < nt of taps[t]*src[o+offs[t]]: 32 outputs at a
// time in four accumulators (independent FMA chains), then 8 at a time,
// then one.
TEXT ·tapSum32AVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ taps+24(FP), R8
	MOVQ offs+32(FP), R9
	MOVQ nt+40(FP), R10

loop32:
	CMPQ CX, $32
	JL   loop8
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	MOVQ    R8, R12
	MOVQ    R9, R11
	MOVQ    R10, R13

tap32:
	MOVQ         (R11), R14
	VBROADCASTSS (R12), Y4
	VFMADD231PS  (SI)(R14*4), Y4, Y0
	VFMADD231PS  32(SI)(R14*4), Y4, Y1
	VFMADD231PS  64(SI)(R14*4), Y4, Y2
	VFMADD231PS  96(SI)(R14*4), Y4, Y3
	ADDQ         $8, R11
	ADDQ         $4, R12
	DECQ         R13
	JNZ          tap32
	VMOVUPS      Y0, (DI)
	VMOVUPS      Y1, 32(DI)
	VMOVUPS      Y2, 64(DI)
	VMOVUPS      Y3, 96(DI)
	ADDQ         $128, DI
	ADDQ         $128, SI
	SUBQ         $32, CX
	JMP          loop32

loop8:
	CMPQ CX, $8
	JL   tail
	VMOVUPS (DI), Y0
	MOVQ    R8, R12
	MOVQ    R9, R11
	MOVQ    R10, R13

tap8:
	MOVQ         (R11), R14
	VBROADCASTSS (R12), Y4
	VFMADD231PS  (SI)(R14*4), Y4, Y0
	ADDQ         $8, R11
	ADDQ         $4, R12
	DECQ         R13
	JNZ          tap8
	VMOVUPS      Y0, (DI)
	ADDQ         $32, DI
	ADDQ         $32, SI
	SUBQ         $8, CX
	JMP          loop8

tail:
	TESTQ CX, CX
	JZ    done
	VMOVSS (DI), X0
	MOVQ   R8, R12
	MOVQ   R9, R11
	MOVQ   R10, R13

tap1:
	MOVQ        (R11), R14
	VMOVSS      (R12), X4
	VFMADD231SS (SI)(R14*4), X4, X0
	ADDQ        $8, R11
	ADDQ        $4, R12
	DECQ        R13
	JNZ         tap1
	VMOVSS      X0, (DI)
	ADDQ        $4, DI
	ADDQ        $4, SI
	DECQ        CX
	JMP         tail

done:
	VZEROUPPER
	RET
