//go:build !purego

#include "textflag.h"

// AVX-512 micro-kernels: 12×32 float32 and 12×16 float64, each with 24
// ZMM accumulators (row r in Z(2+2r), Z(3+2r)), two B vectors (Z0, Z1)
// and four broadcast registers (Z26..Z29) used in turn.

// The partial kernels' arguments: k in CX, a in SI, b in DI, c in DX,
// ldc in bytes in R8; the indirect ones' offs in R9.
#define SP_ARGS \
	MOVQ k+0(FP), CX; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DI; \
	MOVQ c+24(FP), DX; \
	MOVQ ldc+32(FP), R8; \
	SHLQ $2, R8

#define SPI_ARGS \
	MOVQ k+0(FP), CX; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DI; \
	MOVQ offs+24(FP), R9; \
	MOVQ c+32(FP), DX; \
	MOVQ ldc+40(FP), R8; \
	SHLQ $2, R8

// Two rows of one column: A values at SI+ao (float32) into b0, b1.
#define SZ_ROWS(ao, b0, b1, r0, r1, r2, r3) \
	VBROADCASTSS ao(SI), b0; \
	VBROADCASTSS ao+4(SI), b1; \
	VFMADD231PS  Z0, b0, r0; \
	VFMADD231PS  Z1, b0, r1; \
	VFMADD231PS  Z0, b1, r2; \
	VFMADD231PS  Z1, b1, r3

// Loads B's row (32 floats) at DI+bo into Z0, Z1; the indirect kernels'
// row at DI + 4*offs[oo/8] (R9 holds offs).
#define SZ_LOADB(bo) \
	VMOVUPS bo(DI), Z0; \
	VMOVUPS bo+64(DI), Z1

#define SZ_LOADBI(oo) \
	MOVQ    oo(R9), R10; \
	VMOVUPS (DI)(R10*4), Z0; \
	VMOVUPS 64(DI)(R10*4), Z1

// The first 4, 8 or 12 rows of one column: A values at SI+ao.
#define SZ_ROWS4(ao) \
	SZ_ROWS(ao, Z26, Z27, Z2, Z3, Z4, Z5); \
	SZ_ROWS(ao+8, Z28, Z29, Z6, Z7, Z8, Z9)

#define SZ_ROWS8(ao) \
	SZ_ROWS4(ao); \
	SZ_ROWS(ao+16, Z26, Z27, Z10, Z11, Z12, Z13); \
	SZ_ROWS(ao+24, Z28, Z29, Z14, Z15, Z16, Z17)

#define SZ_ROWS12(ao) \
	SZ_ROWS8(ao); \
	SZ_ROWS(ao+32, Z26, Z27, Z18, Z19, Z20, Z21); \
	SZ_ROWS(ao+40, Z28, Z29, Z22, Z23, Z24, Z25)

#define SZ_STEP(ao, bo) SZ_LOADB(bo); SZ_ROWS12(ao)

#define SZ_STORE_BETA(r0, r1) \
	VMULPS      Z30, r0, r0; \
	VMULPS      Z30, r1, r1; \
	VFMADD231PS (DX), Z31, r0; \
	VFMADD231PS 64(DX), Z31, r1; \
	VMOVUPS     r0, (DX); \
	VMOVUPS     r1, 64(DX); \
	ADDQ        R8, DX

#define SZ_STORE(r0, r1) \
	VMULPS  Z30, r0, r0; \
	VMULPS  Z30, r1, r1; \
	VMOVUPS r0, (DX); \
	VMOVUPS r1, 64(DX); \
	ADDQ    R8, DX

#define ZERO_ACC \
	VPXORD Z2, Z2, Z2; VPXORD Z3, Z3, Z3; VPXORD Z4, Z4, Z4; VPXORD Z5, Z5, Z5; \
	VPXORD Z6, Z6, Z6; VPXORD Z7, Z7, Z7; VPXORD Z8, Z8, Z8; VPXORD Z9, Z9, Z9; \
	VPXORD Z10, Z10, Z10; VPXORD Z11, Z11, Z11; VPXORD Z12, Z12, Z12; VPXORD Z13, Z13, Z13; \
	VPXORD Z14, Z14, Z14; VPXORD Z15, Z15, Z15; VPXORD Z16, Z16, Z16; VPXORD Z17, Z17, Z17; \
	VPXORD Z18, Z18, Z18; VPXORD Z19, Z19, Z19; VPXORD Z20, Z20, Z20; VPXORD Z21, Z21, Z21; \
	VPXORD Z22, Z22, Z22; VPXORD Z23, Z23, Z23; VPXORD Z24, Z24, Z24; VPXORD Z25, Z25, Z25

// func sgemm12x32AVX512(k int, a, b, c *float32, ldc int, alpha, beta float32)
TEXT ·sgemm12x32AVX512(SB), NOSPLIT, $0-48
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $2, R8
	ZERO_ACC
	MOVQ  CX, BX
	SHRQ  $2, BX
	ANDQ  $3, CX
	TESTQ BX, BX
	JZ    sz_tail

sz_loop4:
	PREFETCHT0 1024(DI)
	SZ_STEP(0, 0)
	PREFETCHT0 1088(DI)
	SZ_STEP(48, 128)
	PREFETCHT0 1152(DI)
	SZ_STEP(96, 256)
	PREFETCHT0 1216(DI)
	SZ_STEP(144, 384)
	ADDQ $192, SI
	ADDQ $512, DI
	DECQ BX
	JNZ  sz_loop4

sz_tail:
	TESTQ CX, CX
	JZ    sz_store

sz_loop1:
	SZ_STEP(0, 0)
	ADDQ $48, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  sz_loop1

sz_store:
	VBROADCASTSS alpha+40(FP), Z30
	MOVL         beta+44(FP), AX
	ANDL         $0x7fffffff, AX
	JZ           sz_nobeta
	VBROADCASTSS beta+44(FP), Z31
	SZ_STORE_BETA(Z2, Z3)
	SZ_STORE_BETA(Z4, Z5)
	SZ_STORE_BETA(Z6, Z7)
	SZ_STORE_BETA(Z8, Z9)
	SZ_STORE_BETA(Z10, Z11)
	SZ_STORE_BETA(Z12, Z13)
	SZ_STORE_BETA(Z14, Z15)
	SZ_STORE_BETA(Z16, Z17)
	SZ_STORE_BETA(Z18, Z19)
	SZ_STORE_BETA(Z20, Z21)
	SZ_STORE_BETA(Z22, Z23)
	SZ_STORE_BETA(Z24, Z25)
	VZEROUPPER
	RET

sz_nobeta:
	SZ_STORE(Z2, Z3)
	SZ_STORE(Z4, Z5)
	SZ_STORE(Z6, Z7)
	SZ_STORE(Z8, Z9)
	SZ_STORE(Z10, Z11)
	SZ_STORE(Z12, Z13)
	SZ_STORE(Z14, Z15)
	SZ_STORE(Z16, Z17)
	SZ_STORE(Z18, Z19)
	SZ_STORE(Z20, Z21)
	SZ_STORE(Z22, Z23)
	SZ_STORE(Z24, Z25)
	VZEROUPPER
	RET

// Two rows of one column: A values at SI+ao (float64) into b0, b1.
#define DZ_ROWS(ao, b0, b1, r0, r1, r2, r3) \
	VBROADCASTSD ao(SI), b0; \
	VBROADCASTSD ao+8(SI), b1; \
	VFMADD231PD  Z0, b0, r0; \
	VFMADD231PD  Z1, b0, r1; \
	VFMADD231PD  Z0, b1, r2; \
	VFMADD231PD  Z1, b1, r3

#define DZ_STEP(ao, bo) \
	VMOVUPD bo(DI), Z0; \
	VMOVUPD bo+64(DI), Z1; \
	DZ_ROWS(ao, Z26, Z27, Z2, Z3, Z4, Z5); \
	DZ_ROWS(ao+16, Z28, Z29, Z6, Z7, Z8, Z9); \
	DZ_ROWS(ao+32, Z26, Z27, Z10, Z11, Z12, Z13); \
	DZ_ROWS(ao+48, Z28, Z29, Z14, Z15, Z16, Z17); \
	DZ_ROWS(ao+64, Z26, Z27, Z18, Z19, Z20, Z21); \
	DZ_ROWS(ao+80, Z28, Z29, Z22, Z23, Z24, Z25)

#define DZ_STORE_BETA(r0, r1) \
	VMULPD      Z30, r0, r0; \
	VMULPD      Z30, r1, r1; \
	VFMADD231PD (DX), Z31, r0; \
	VFMADD231PD 64(DX), Z31, r1; \
	VMOVUPD     r0, (DX); \
	VMOVUPD     r1, 64(DX); \
	ADDQ        R8, DX

#define DZ_STORE(r0, r1) \
	VMULPD  Z30, r0, r0; \
	VMULPD  Z30, r1, r1; \
	VMOVUPD r0, (DX); \
	VMOVUPD r1, 64(DX); \
	ADDQ    R8, DX

// func dgemm12x16AVX512(k int, a, b, c *float64, ldc int, alpha, beta float64)
TEXT ·dgemm12x16AVX512(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $3, R8
	ZERO_ACC
	MOVQ  CX, BX
	SHRQ  $2, BX
	ANDQ  $3, CX
	TESTQ BX, BX
	JZ    dz_tail

dz_loop4:
	PREFETCHT0 1024(DI)
	DZ_STEP(0, 0)
	PREFETCHT0 1088(DI)
	DZ_STEP(96, 128)
	PREFETCHT0 1152(DI)
	DZ_STEP(192, 256)
	PREFETCHT0 1216(DI)
	DZ_STEP(288, 384)
	ADDQ $384, SI
	ADDQ $512, DI
	DECQ BX
	JNZ  dz_loop4

dz_tail:
	TESTQ CX, CX
	JZ    dz_store

dz_loop1:
	DZ_STEP(0, 0)
	ADDQ $96, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  dz_loop1

dz_store:
	VBROADCASTSD alpha+40(FP), Z30
	MOVQ         beta+48(FP), AX
	SHLQ         $1, AX
	JZ           dz_nobeta
	VBROADCASTSD beta+48(FP), Z31
	DZ_STORE_BETA(Z2, Z3)
	DZ_STORE_BETA(Z4, Z5)
	DZ_STORE_BETA(Z6, Z7)
	DZ_STORE_BETA(Z8, Z9)
	DZ_STORE_BETA(Z10, Z11)
	DZ_STORE_BETA(Z12, Z13)
	DZ_STORE_BETA(Z14, Z15)
	DZ_STORE_BETA(Z16, Z17)
	DZ_STORE_BETA(Z18, Z19)
	DZ_STORE_BETA(Z20, Z21)
	DZ_STORE_BETA(Z22, Z23)
	DZ_STORE_BETA(Z24, Z25)
	VZEROUPPER
	RET

dz_nobeta:
	DZ_STORE(Z2, Z3)
	DZ_STORE(Z4, Z5)
	DZ_STORE(Z6, Z7)
	DZ_STORE(Z8, Z9)
	DZ_STORE(Z10, Z11)
	DZ_STORE(Z12, Z13)
	DZ_STORE(Z14, Z15)
	DZ_STORE(Z16, Z17)
	DZ_STORE(Z18, Z19)
	DZ_STORE(Z20, Z21)
	DZ_STORE(Z22, Z23)
	DZ_STORE(Z24, Z25)
	VZEROUPPER
	RET

// One column of the indirect kernel: B row at DI + 4*offs[oo/8] (R9
// holds offs), A values at SI+ao. (Prefetching the row 8 columns ahead
// measured no faster: the rows are reused from L1 by every A strip.)
#define SZI_STEP(ao, oo) SZ_LOADBI(oo); SZ_ROWS12(ao)

// func sgemm12x32AVX512Ind(k int, a, b *float32, offs *int, c *float32, ldc int, alpha, beta float32)
//
// sgemm12x32AVX512 with B unpacked: row p of the 32-wide B strip is the
// 32 floats at b[offs[p]:].
TEXT ·sgemm12x32AVX512Ind(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ offs+24(FP), R9
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), R8
	SHLQ $2, R8
	ZERO_ACC
	MOVQ  CX, BX
	SHRQ  $2, BX
	ANDQ  $3, CX
	TESTQ BX, BX
	JZ    szi_tail

szi_loop4:
	SZI_STEP(0, 0)
	SZI_STEP(48, 8)
	SZI_STEP(96, 16)
	SZI_STEP(144, 24)
	ADDQ $192, SI
	ADDQ $32, R9
	DECQ BX
	JNZ  szi_loop4

szi_tail:
	TESTQ CX, CX
	JZ    szi_store

szi_loop1:
	SZI_STEP(0, 0)
	ADDQ $48, SI
	ADDQ $8, R9
	DECQ CX
	JNZ  szi_loop1

szi_store:
	VBROADCASTSS alpha+48(FP), Z30
	MOVL         beta+52(FP), AX
	ANDL         $0x7fffffff, AX
	JZ           szi_nobeta
	VBROADCASTSS beta+52(FP), Z31
	SZ_STORE_BETA(Z2, Z3)
	SZ_STORE_BETA(Z4, Z5)
	SZ_STORE_BETA(Z6, Z7)
	SZ_STORE_BETA(Z8, Z9)
	SZ_STORE_BETA(Z10, Z11)
	SZ_STORE_BETA(Z12, Z13)
	SZ_STORE_BETA(Z14, Z15)
	SZ_STORE_BETA(Z16, Z17)
	SZ_STORE_BETA(Z18, Z19)
	SZ_STORE_BETA(Z20, Z21)
	SZ_STORE_BETA(Z22, Z23)
	SZ_STORE_BETA(Z24, Z25)
	VZEROUPPER
	RET

szi_nobeta:
	SZ_STORE(Z2, Z3)
	SZ_STORE(Z4, Z5)
	SZ_STORE(Z6, Z7)
	SZ_STORE(Z8, Z9)
	SZ_STORE(Z10, Z11)
	SZ_STORE(Z12, Z13)
	SZ_STORE(Z14, Z15)
	SZ_STORE(Z16, Z17)
	SZ_STORE(Z18, Z19)
	SZ_STORE(Z20, Z21)
	SZ_STORE(Z22, Z23)
	SZ_STORE(Z24, Z25)
	VZEROUPPER
	RET

// Kernels for the last, partial strip of a 12-row packed A: 8 or 4 rows
// of 32 read from strips packed 12 rows a column (48 bytes a k step), so
// that a product of 64 or 128 rows multiplies no padding rows (64 = 5×12
// + 4). Accumulators as sgemm12x32AVX512's first 8 or 4 rows.

#define SP8_STEP(ao, bo) SZ_LOADB(bo); SZ_ROWS8(ao)

#define SPI8_STEP(ao, oo) SZ_LOADBI(oo); SZ_ROWS8(ao)

#define SP4_STEP(ao, bo) SZ_LOADB(bo); SZ_ROWS4(ao)

#define SPI4_STEP(ao, oo) SZ_LOADBI(oo); SZ_ROWS4(ao)

#define ZERO_ACC8 \
	VPXORD Z2, Z2, Z2; VPXORD Z3, Z3, Z3; VPXORD Z4, Z4, Z4; VPXORD Z5, Z5, Z5; \
	VPXORD Z6, Z6, Z6; VPXORD Z7, Z7, Z7; VPXORD Z8, Z8, Z8; VPXORD Z9, Z9, Z9; \
	VPXORD Z10, Z10, Z10; VPXORD Z11, Z11, Z11; VPXORD Z12, Z12, Z12; VPXORD Z13, Z13, Z13; \
	VPXORD Z14, Z14, Z14; VPXORD Z15, Z15, Z15; VPXORD Z16, Z16, Z16; VPXORD Z17, Z17, Z17

#define ZERO_ACC4 \
	VPXORD Z2, Z2, Z2; VPXORD Z3, Z3, Z3; VPXORD Z4, Z4, Z4; VPXORD Z5, Z5, Z5; \
	VPXORD Z6, Z6, Z6; VPXORD Z7, Z7, Z7; VPXORD Z8, Z8, Z8; VPXORD Z9, Z9, Z9

// Loads alpha and beta (at aoff and boff of the frame) and jumps to
// nobeta when beta is ±0, leaving beta in Z31 otherwise.
#define SP_ALPHA_BETA(aoff, boff, nobeta) \
	VBROADCASTSS alpha+aoff(FP), Z30; \
	MOVL         beta+boff(FP), AX; \
	ANDL         $0x7fffffff, AX; \
	JZ           nobeta; \
	VBROADCASTSS beta+boff(FP), Z31

#define SP_STORE4_BETA \
	SZ_STORE_BETA(Z2, Z3); SZ_STORE_BETA(Z4, Z5); SZ_STORE_BETA(Z6, Z7); SZ_STORE_BETA(Z8, Z9)

#define SP_STORE4 \
	SZ_STORE(Z2, Z3); SZ_STORE(Z4, Z5); SZ_STORE(Z6, Z7); SZ_STORE(Z8, Z9)

#define SP_STORE8_BETA \
	SP_STORE4_BETA; SZ_STORE_BETA(Z10, Z11); SZ_STORE_BETA(Z12, Z13); SZ_STORE_BETA(Z14, Z15); SZ_STORE_BETA(Z16, Z17)

#define SP_STORE8 \
	SP_STORE4; SZ_STORE(Z10, Z11); SZ_STORE(Z12, Z13); SZ_STORE(Z14, Z15); SZ_STORE(Z16, Z17)

// The k loop of a packed-B partial kernel: step macro STEP, labels from
// name.
#define SP_LOOP(STEP, loop4, tail, loop1, done) \
	MOVQ  CX, BX; \
	SHRQ  $2, BX; \
	ANDQ  $3, CX; \
	TESTQ BX, BX; \
	JZ    tail; \
loop4: \
	PREFETCHT0 1024(DI); \
	STEP(0, 0); \
	PREFETCHT0 1088(DI); \
	STEP(48, 128); \
	PREFETCHT0 1152(DI); \
	STEP(96, 256); \
	PREFETCHT0 1216(DI); \
	STEP(144, 384); \
	ADDQ $192, SI; \
	ADDQ $512, DI; \
	DECQ BX; \
	JNZ  loop4; \
tail: \
	TESTQ CX, CX; \
	JZ    done; \
loop1: \
	STEP(0, 0); \
	ADDQ $48, SI; \
	ADDQ $128, DI; \
	DECQ CX; \
	JNZ  loop1; \
done:

// The k loop of an indirect partial kernel.
#define SPI_LOOP(STEP, loop4, tail, loop1, done) \
	MOVQ  CX, BX; \
	SHRQ  $2, BX; \
	ANDQ  $3, CX; \
	TESTQ BX, BX; \
	JZ    tail; \
loop4: \
	STEP(0, 0); \
	STEP(48, 8); \
	STEP(96, 16); \
	STEP(144, 24); \
	ADDQ $192, SI; \
	ADDQ $32, R9; \
	DECQ BX; \
	JNZ  loop4; \
tail: \
	TESTQ CX, CX; \
	JZ    done; \
loop1: \
	STEP(0, 0); \
	ADDQ $48, SI; \
	ADDQ $8, R9; \
	DECQ CX; \
	JNZ  loop1; \
done:

// The partial kernels' stores: with beta (STORE_BETA), or at nobeta
// without (STORE).
#define SP_FINISH(STORE_BETA, STORE, nobeta) \
	STORE_BETA; \
	VZEROUPPER; \
	RET; \
nobeta: \
	STORE; \
	VZEROUPPER; \
	RET

// func sgemm8of12x32AVX512(k int, a, b, c *float32, ldc int, alpha, beta float32)
TEXT ·sgemm8of12x32AVX512(SB), NOSPLIT, $0-48
	SP_ARGS
	ZERO_ACC8
	SP_LOOP(SP8_STEP, p8_loop4, p8_tail, p8_loop1, p8_done)
	SP_ALPHA_BETA(40, 44, p8_nobeta)
	SP_FINISH(SP_STORE8_BETA, SP_STORE8, p8_nobeta)

// func sgemm4of12x32AVX512(k int, a, b, c *float32, ldc int, alpha, beta float32)
TEXT ·sgemm4of12x32AVX512(SB), NOSPLIT, $0-48
	SP_ARGS
	ZERO_ACC4
	SP_LOOP(SP4_STEP, p4_loop4, p4_tail, p4_loop1, p4_done)
	SP_ALPHA_BETA(40, 44, p4_nobeta)
	SP_FINISH(SP_STORE4_BETA, SP_STORE4, p4_nobeta)

// func sgemm8of12x32AVX512Ind(k int, a, b *float32, offs *int, c *float32, ldc int, alpha, beta float32)
TEXT ·sgemm8of12x32AVX512Ind(SB), NOSPLIT, $0-56
	SPI_ARGS
	ZERO_ACC8
	SPI_LOOP(SPI8_STEP, p8i_loop4, p8i_tail, p8i_loop1, p8i_done)
	SP_ALPHA_BETA(48, 52, p8i_nobeta)
	SP_FINISH(SP_STORE8_BETA, SP_STORE8, p8i_nobeta)

// func sgemm4of12x32AVX512Ind(k int, a, b *float32, offs *int, c *float32, ldc int, alpha, beta float32)
TEXT ·sgemm4of12x32AVX512Ind(SB), NOSPLIT, $0-56
	SPI_ARGS
	ZERO_ACC4
	SPI_LOOP(SPI4_STEP, p4i_loop4, p4i_tail, p4i_loop1, p4i_done)
	SP_ALPHA_BETA(48, 52, p4i_nobeta)
	SP_FINISH(SP_STORE4_BETA, SP_STORE4, p4i_nobeta)
