//go:build !purego

#include "textflag.h"

// One column of A (six values at SI+ao) times one row of B (sixteen
// float32 at DI+bo) added into Y4..Y15 (row r in Y(4+2r), Y(5+2r)).
#define S_STEP(ao, bo) \
	VMOVUPS      bo(DI), Y0       \
	VMOVUPS      bo+32(DI), Y1    \
	VBROADCASTSS ao(SI), Y2       \
	VBROADCASTSS ao+4(SI), Y3     \
	VFMADD231PS  Y0, Y2, Y4       \
	VFMADD231PS  Y1, Y2, Y5       \
	VFMADD231PS  Y0, Y3, Y6       \
	VFMADD231PS  Y1, Y3, Y7       \
	VBROADCASTSS ao+8(SI), Y2     \
	VBROADCASTSS ao+12(SI), Y3    \
	VFMADD231PS  Y0, Y2, Y8       \
	VFMADD231PS  Y1, Y2, Y9       \
	VFMADD231PS  Y0, Y3, Y10      \
	VFMADD231PS  Y1, Y3, Y11      \
	VBROADCASTSS ao+16(SI), Y2    \
	VBROADCASTSS ao+20(SI), Y3    \
	VFMADD231PS  Y0, Y2, Y12      \
	VFMADD231PS  Y1, Y2, Y13      \
	VFMADD231PS  Y0, Y3, Y14      \
	VFMADD231PS  Y1, Y3, Y15

// Row of c at DX: scale by alpha (Y0), add beta (Y1) times c, store.
#define S_STORE_BETA(r0, r1) \
	VMULPS      Y0, r0, r0   \
	VMULPS      Y0, r1, r1   \
	VFMADD231PS (DX), Y1, r0 \
	VFMADD231PS 32(DX), Y1, r1 \
	VMOVUPS     r0, (DX)     \
	VMOVUPS     r1, 32(DX)   \
	ADDQ        R8, DX

#define S_STORE(r0, r1) \
	VMULPS  Y0, r0, r0 \
	VMULPS  Y0, r1, r1 \
	VMOVUPS r0, (DX)   \
	VMOVUPS r1, 32(DX) \
	ADDQ    R8, DX

// func sgemm6x16AVX2(k int, a, b, c *float32, ldc int, alpha, beta float32)
TEXT ·sgemm6x16AVX2(SB), NOSPLIT, $0-48
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $2, R8
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	VXORPS Y12, Y12, Y12
	VXORPS Y13, Y13, Y13
	VXORPS Y14, Y14, Y14
	VXORPS Y15, Y15, Y15
	MOVQ CX, BX
	SHRQ $2, BX
	ANDQ $3, CX
	TESTQ BX, BX
	JZ   s_tail

s_loop4:
	PREFETCHT0 512(DI)
	S_STEP(0, 0)
	S_STEP(24, 64)
	PREFETCHT0 576(DI)
	S_STEP(48, 128)
	S_STEP(72, 192)
	ADDQ $96, SI
	ADDQ $256, DI
	DECQ BX
	JNZ  s_loop4

s_tail:
	TESTQ CX, CX
	JZ    s_store

s_loop1:
	S_STEP(0, 0)
	ADDQ $24, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  s_loop1

s_store:
	VBROADCASTSS alpha+40(FP), Y0
	MOVL         beta+44(FP), AX
	ANDL         $0x7fffffff, AX
	JZ           s_nobeta
	VBROADCASTSS beta+44(FP), Y1
	S_STORE_BETA(Y4, Y5)
	S_STORE_BETA(Y6, Y7)
	S_STORE_BETA(Y8, Y9)
	S_STORE_BETA(Y10, Y11)
	S_STORE_BETA(Y12, Y13)
	S_STORE_BETA(Y14, Y15)
	VZEROUPPER
	RET

s_nobeta:
	S_STORE(Y4, Y5)
	S_STORE(Y6, Y7)
	S_STORE(Y8, Y9)
	S_STORE(Y10, Y11)
	S_STORE(Y12, Y13)
	S_STORE(Y14, Y15)
	VZEROUPPER
	RET

// One column of A (six float64 at SI+ao) times one row of B (eight
// float64 at DI+bo) added into Y4..Y15.
#define D_STEP(ao, bo) \
	VMOVUPD      bo(DI), Y0       \
	VMOVUPD      bo+32(DI), Y1    \
	VBROADCASTSD ao(SI), Y2       \
	VBROADCASTSD ao+8(SI), Y3     \
	VFMADD231PD  Y0, Y2, Y4       \
	VFMADD231PD  Y1, Y2, Y5       \
	VFMADD231PD  Y0, Y3, Y6       \
	VFMADD231PD  Y1, Y3, Y7       \
	VBROADCASTSD ao+16(SI), Y2    \
	VBROADCASTSD ao+24(SI), Y3    \
	VFMADD231PD  Y0, Y2, Y8       \
	VFMADD231PD  Y1, Y2, Y9       \
	VFMADD231PD  Y0, Y3, Y10      \
	VFMADD231PD  Y1, Y3, Y11      \
	VBROADCASTSD ao+32(SI), Y2    \
	VBROADCASTSD ao+40(SI), Y3    \
	VFMADD231PD  Y0, Y2, Y12      \
	VFMADD231PD  Y1, Y2, Y13      \
	VFMADD231PD  Y0, Y3, Y14      \
	VFMADD231PD  Y1, Y3, Y15

#define D_STORE_BETA(r0, r1) \
	VMULPD      Y0, r0, r0   \
	VMULPD      Y0, r1, r1   \
	VFMADD231PD (DX), Y1, r0 \
	VFMADD231PD 32(DX), Y1, r1 \
	VMOVUPD     r0, (DX)     \
	VMOVUPD     r1, 32(DX)   \
	ADDQ        R8, DX

#define D_STORE(r0, r1) \
	VMULPD  Y0, r0, r0 \
	VMULPD  Y0, r1, r1 \
	VMOVUPD r0, (DX)   \
	VMOVUPD r1, 32(DX) \
	ADDQ    R8, DX

// func dgemm6x8AVX2(k int, a, b, c *float64, ldc int, alpha, beta float64)
TEXT ·dgemm6x8AVX2(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $3, R8
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	VXORPD Y15, Y15, Y15
	MOVQ CX, BX
	SHRQ $2, BX
	ANDQ $3, CX
	TESTQ BX, BX
	JZ   d_tail

d_loop4:
	PREFETCHT0 512(DI)
	D_STEP(0, 0)
	D_STEP(48, 64)
	PREFETCHT0 576(DI)
	D_STEP(96, 128)
	D_STEP(144, 192)
	ADDQ $192, SI
	ADDQ $256, DI
	DECQ BX
	JNZ  d_loop4

d_tail:
	TESTQ CX, CX
	JZ    d_store

d_loop1:
	D_STEP(0, 0)
	ADDQ $48, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  d_loop1

d_store:
	VBROADCASTSD alpha+40(FP), Y0
	MOVQ         beta+48(FP), AX
	SHLQ         $1, AX
	JZ           d_nobeta
	VBROADCASTSD beta+48(FP), Y1
	D_STORE_BETA(Y4, Y5)
	D_STORE_BETA(Y6, Y7)
	D_STORE_BETA(Y8, Y9)
	D_STORE_BETA(Y10, Y11)
	D_STORE_BETA(Y12, Y13)
	D_STORE_BETA(Y14, Y15)
	VZEROUPPER
	RET

d_nobeta:
	D_STORE(Y4, Y5)
	D_STORE(Y6, Y7)
	D_STORE(Y8, Y9)
	D_STORE(Y10, Y11)
	D_STORE(Y12, Y13)
	D_STORE(Y14, Y15)
	VZEROUPPER
	RET

// Thin kernels for products of one to a few rows (a depthwise
// convolution's, a vector times a matrix): one row of c, 32 float32 or 16
// float64 wide, in two sets of four YMM accumulators (even and odd k)
// summed at the end.

#define T_STORE_BETA(r, off) \
	VMULPS      Y0, r, r; \
	VFMADD231PS off(DX), Y1, r; \
	VMOVUPS     r, off(DX)

#define T_STORE(r, off) \
	VMULPS  Y0, r, r; \
	VMOVUPS r, off(DX)

// func sgemm1x32AVX2(k int, a, b, c *float32, ldc int, alpha, beta float32)
TEXT ·sgemm1x32AVX2(SB), NOSPLIT, $0-48
	MOVQ   k+0(FP), CX
	MOVQ   a+8(FP), SI
	MOVQ   b+16(FP), DI
	MOVQ   c+24(FP), DX
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	MOVQ   CX, BX
	SHRQ   $1, BX
	ANDQ   $1, CX
	TESTQ  BX, BX
	JZ     st_tail

st_loop2:
	VBROADCASTSS (SI), Y0
	VBROADCASTSS 4(SI), Y1
	VFMADD231PS  (DI), Y0, Y4
	VFMADD231PS  32(DI), Y0, Y5
	VFMADD231PS  64(DI), Y0, Y6
	VFMADD231PS  96(DI), Y0, Y7
	VFMADD231PS  128(DI), Y1, Y8
	VFMADD231PS  160(DI), Y1, Y9
	VFMADD231PS  192(DI), Y1, Y10
	VFMADD231PS  224(DI), Y1, Y11
	ADDQ         $8, SI
	ADDQ         $256, DI
	DECQ         BX
	JNZ          st_loop2

st_tail:
	TESTQ CX, CX
	JZ    st_sum
	VBROADCASTSS (SI), Y0
	VFMADD231PS  (DI), Y0, Y4
	VFMADD231PS  32(DI), Y0, Y5
	VFMADD231PS  64(DI), Y0, Y6
	VFMADD231PS  96(DI), Y0, Y7

st_sum:
	VADDPS       Y8, Y4, Y4
	VADDPS       Y9, Y5, Y5
	VADDPS       Y10, Y6, Y6
	VADDPS       Y11, Y7, Y7
	VBROADCASTSS alpha+40(FP), Y0
	MOVL         beta+44(FP), AX
	ANDL         $0x7fffffff, AX
	JZ           st_nobeta
	VBROADCASTSS beta+44(FP), Y1
	T_STORE_BETA(Y4, 0)
	T_STORE_BETA(Y5, 32)
	T_STORE_BETA(Y6, 64)
	T_STORE_BETA(Y7, 96)
	VZEROUPPER
	RET

st_nobeta:
	T_STORE(Y4, 0)
	T_STORE(Y5, 32)
	T_STORE(Y6, 64)
	T_STORE(Y7, 96)
	VZEROUPPER
	RET

#define TD_STORE_BETA(r, off) \
	VMULPD      Y0, r, r; \
	VFMADD231PD off(DX), Y1, r; \
	VMOVUPD     r, off(DX)

#define TD_STORE(r, off) \
	VMULPD  Y0, r, r; \
	VMOVUPD r, off(DX)

// func dgemm1x16AVX2(k int, a, b, c *float64, ldc int, alpha, beta float64)
TEXT ·dgemm1x16AVX2(SB), NOSPLIT, $0-56
	MOVQ   k+0(FP), CX
	MOVQ   a+8(FP), SI
	MOVQ   b+16(FP), DI
	MOVQ   c+24(FP), DX
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	MOVQ   CX, BX
	SHRQ   $1, BX
	ANDQ   $1, CX
	TESTQ  BX, BX
	JZ     dt_tail

dt_loop2:
	VBROADCASTSD (SI), Y0
	VBROADCASTSD 8(SI), Y1
	VFMADD231PD  (DI), Y0, Y4
	VFMADD231PD  32(DI), Y0, Y5
	VFMADD231PD  64(DI), Y0, Y6
	VFMADD231PD  96(DI), Y0, Y7
	VFMADD231PD  128(DI), Y1, Y8
	VFMADD231PD  160(DI), Y1, Y9
	VFMADD231PD  192(DI), Y1, Y10
	VFMADD231PD  224(DI), Y1, Y11
	ADDQ         $16, SI
	ADDQ         $256, DI
	DECQ         BX
	JNZ          dt_loop2

dt_tail:
	TESTQ CX, CX
	JZ    dt_sum
	VBROADCASTSD (SI), Y0
	VFMADD231PD  (DI), Y0, Y4
	VFMADD231PD  32(DI), Y0, Y5
	VFMADD231PD  64(DI), Y0, Y6
	VFMADD231PD  96(DI), Y0, Y7

dt_sum:
	VADDPD       Y8, Y4, Y4
	VADDPD       Y9, Y5, Y5
	VADDPD       Y10, Y6, Y6
	VADDPD       Y11, Y7, Y7
	VBROADCASTSD alpha+40(FP), Y0
	MOVQ         beta+48(FP), AX
	SHLQ         $1, AX
	JZ           dt_nobeta
	VBROADCASTSD beta+48(FP), Y1
	TD_STORE_BETA(Y4, 0)
	TD_STORE_BETA(Y5, 32)
	TD_STORE_BETA(Y6, 64)
	TD_STORE_BETA(Y7, 96)
	VZEROUPPER
	RET

dt_nobeta:
	TD_STORE(Y4, 0)
	TD_STORE(Y5, 32)
	TD_STORE(Y6, 64)
	TD_STORE(Y7, 96)
	VZEROUPPER
	RET

// One column of the indirect 6×16 kernel: B row at DI + 4*offs[oo/8]
// (R9 holds offs), A values at SI+ao.
#define SI_STEP(ao, oo) \
	MOVQ         oo(R9), R10          \
	VMOVUPS      (DI)(R10*4), Y0      \
	VMOVUPS      32(DI)(R10*4), Y1    \
	VBROADCASTSS ao(SI), Y2       \
	VBROADCASTSS ao+4(SI), Y3     \
	VFMADD231PS  Y0, Y2, Y4       \
	VFMADD231PS  Y1, Y2, Y5       \
	VFMADD231PS  Y0, Y3, Y6       \
	VFMADD231PS  Y1, Y3, Y7       \
	VBROADCASTSS ao+8(SI), Y2     \
	VBROADCASTSS ao+12(SI), Y3    \
	VFMADD231PS  Y0, Y2, Y8       \
	VFMADD231PS  Y1, Y2, Y9       \
	VFMADD231PS  Y0, Y3, Y10      \
	VFMADD231PS  Y1, Y3, Y11      \
	VBROADCASTSS ao+16(SI), Y2    \
	VBROADCASTSS ao+20(SI), Y3    \
	VFMADD231PS  Y0, Y2, Y12      \
	VFMADD231PS  Y1, Y2, Y13      \
	VFMADD231PS  Y0, Y3, Y14      \
	VFMADD231PS  Y1, Y3, Y15

// func sgemm6x16AVX2Ind(k int, a, b *float32, offs *int, c *float32, ldc int, alpha, beta float32)
//
// sgemm6x16AVX2 with B unpacked: row p of the 16-wide B strip is the 16
// floats at b[offs[p]:].
TEXT ·sgemm6x16AVX2Ind(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ offs+24(FP), R9
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), R8
	SHLQ $2, R8
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	VXORPS Y12, Y12, Y12
	VXORPS Y13, Y13, Y13
	VXORPS Y14, Y14, Y14
	VXORPS Y15, Y15, Y15
	MOVQ CX, BX
	SHRQ $2, BX
	ANDQ $3, CX
	TESTQ BX, BX
	JZ   si_tail

si_loop4:
	SI_STEP(0, 0)
	SI_STEP(24, 8)
	SI_STEP(48, 16)
	SI_STEP(72, 24)
	ADDQ $96, SI
	ADDQ $32, R9
	DECQ BX
	JNZ  si_loop4

si_tail:
	TESTQ CX, CX
	JZ    si_store

si_loop1:
	SI_STEP(0, 0)
	ADDQ $24, SI
	ADDQ $8, R9
	DECQ CX
	JNZ  si_loop1

si_store:
	VBROADCASTSS alpha+48(FP), Y0
	MOVL         beta+52(FP), AX
	ANDL         $0x7fffffff, AX
	JZ           si_nobeta
	VBROADCASTSS beta+52(FP), Y1
	S_STORE_BETA(Y4, Y5)
	S_STORE_BETA(Y6, Y7)
	S_STORE_BETA(Y8, Y9)
	S_STORE_BETA(Y10, Y11)
	S_STORE_BETA(Y12, Y13)
	S_STORE_BETA(Y14, Y15)
	VZEROUPPER
	RET

si_nobeta:
	S_STORE(Y4, Y5)
	S_STORE(Y6, Y7)
	S_STORE(Y8, Y9)
	S_STORE(Y10, Y11)
	S_STORE(Y12, Y13)
	S_STORE(Y14, Y15)
	VZEROUPPER
	RET
