// Package gemm is gofx's dense matrix product for float32 and float64:
// c = alpha*op(a)*op(b) + beta*c on row-major matrices with leading
// dimensions, the BLAS gemm contract, computed the way BLIS does.
//
// A product is cut into panels of op(b) (kc rows by nc columns, packed
// once into a 64-byte-aligned pooled buffer, in strips of nr columns) and
// blocks of op(a) (mc rows by kc columns, packed per worker in strips of
// mr rows), and a micro-kernel multiplies one A strip by one B strip into
// an mr×nr tile of c held in registers. Packing pads the strips with
// zeros, so one kernel serves every shape; a partial tile at the bottom
// or right edge of c goes through a scratch tile. The blocking keeps a B
// strip in L1, an A block in L2 and a B panel in L3.
//
// On amd64 the micro-kernels are Go assembly, chosen at run time with
// golang.org/x/sys/cpu: with AVX-512F, 12×32 for float32 and 12×16 for
// float64, each with 24 ZMM accumulators (float32 also computes the last
// strip of a product whose rows are not a multiple of 12 with an 8- or
// 4-row variant: 64 rows are 5×12 + 4, not 6×12 with 8 rows of padding,
// 5-10% on resnet18's 64-channel convolutions); with AVX2 and FMA, 6×16 and 6×8
// with twelve YMM accumulators; and for products of at most four rows (a
// depthwise convolution's, a vector times a matrix), where a tall tile
// would mostly multiply padding, a one-row AVX2 kernel 32 float32 or 16
// float64 wide. Other CPUs, and every CPU when built with the purego tag,
// use a portable Go 4×4 kernel with the same packing and blocking. The environment variable GOFX_GEMM=avx2 or GOFX_GEMM=portable,
// read at start-up, selects a lesser kernel (to test a path on a CPU that
// has better). Kernel reports which; the tests compare every kernel the CPU
// can run with the portable one and with a naive loop.
//
// A float32 product of at most four rows by a transposed b (a linear
// layer at batch 1: x times weight.t()), or of at most four columns with
// a not transposed (a matrix times a vector), skips packing: each element
// of c is an AVX2 dot product of a row of op(a) with a column of op(b),
// the long operand's rows being contiguous already, so it is read once in
// order instead of gathered into strips (resnet18's classifier, [1,512]
// by [1000,512]ᵀ, and mv [1000,512]·[512]: 5-8x faster).
//
// Large products are split over internal/parallel's persistent pool of
// worker goroutines (GOMAXPROCS in all, the caller included): by rows of
// c when c has enough row strips, otherwise by column strips of each B
// panel.
//
// GemmConv is the product of a convolution's weight with the im2col
// matrix of one image (ConvGeom: 1-d, 2-d or 3-d, stride, padding,
// dilation), computed "shifted": the image is copied once, zero-padded,
// and split along each strided dimension into the stride phases its taps
// read, so that with output positions numbered on the padded grid
// (q = (od·Q1 + oh)·Q2 + ow) every row of im2col is a contiguous slice of
// that copy, found by one offset. The float32 AVX-512 and AVX2 kernels
// have indirect variants that read their B rows in place through those
// offsets (no B packing at all); the other kernels pack B by plain
// copies. The product covers Q2 − Out2 junk columns per output row (3% of
// a 56-wide 3×3 layer, 22% of a 7-wide one); the valid columns of every
// eight column strips are copied into c, applying beta and the epilogue,
// as soon as the last K block has completed them, while they are in cache
// (with a single K block, as for the 7×7 stem, the product's columns only
// ever occupy a window of those eight strips; the product is written in
// place when there are no junk columns, as for a 1×1 convolution). The environment variable
// GOFX_CONV=im2col, read at start-up, selects the former path instead,
// which gathers the patches while packing B (no image copy, no junk).
//
// A shifted convolution with several workers is cut into parts that
// share nothing but the weight: the output's outermost dimension longer
// than one is cut (each part a convolution of its own over the rows of
// the image it reads, which it copies into its own buffer), or, when the
// weight has enough row strips, the output channels (each part copying
// the whole image); byChannels weighs the two by the largest part's cost
// (image copy, packing of the weight, padded strips). A part runs
// serially on one worker. A phase read with a stride of 2 along the last
// dimension alone (a 1×1 or k×1 kernel) is copied by vec.EvenRows, a
// channel's rows at a time (fillEven): resnet18's 1×1 downsample copies
// its image in 5.5 µs instead of 55. Parts that share
// one copied image run no faster on two cores than on one (resnet18's
// 3×3 layers: 150 GFLOP/s on two, against 290 in parts): each core's
// kernel reads, tap by tap, rows the other core wrote and holds in its
// cache.
//
// When a product's workers split its columns (few rows of c, as for a
// convolution of 64 output channels), or its B has several panels, the
// whole of A is packed once per product, not once per worker and panel.
//
// PackA packs a left operand once (a layer's weight) for many products
// (PackedA.Gemm, PackedA.Conv), which then skip packing it.
//
// TapSum is the inner loop of a direct (depthwise) convolution flattened
// to one dimension: dst[o] += Σ taps[t]·src[o+offs[t]], an AVX2 loop of
// fused multiply-adds for float32 on amd64 (same selection rules as the
// kernels: GOFX_GEMM=portable and the purego tag give the Go loop).
//
// GemmEpilogue applies a bias per row or per column, a residual add and a
// clamp (ReLU, ReLU6) to c right after the last K block of every eight
// column strips of an A block is stored, while those rows (256 or 512
// values each) are in L2, for fused convolution and linear layers (a
// shifted convolution with junk columns applies it as it copies those
// strips' valid columns into c). The epilogue runs after the micro-kernel, a row at a
// time through internal/vec's AddClamp (AVX2: bias, residual and clamp
// in one pass; kernels' convolution epilogue uses the same row loop); the
// assembly kernels do not apply it in their registers. Per tile (rows of
// 32) the calls cost 14% of a 1×1 convolution.
//
// The result of a product may differ from a naive loop's in the last
// bits: the kernels sum k in blocks and use fused multiply-adds.
package gemm
