package gemm

import "fmt"

// tapSum32 is TapSum's float32 loop: the AVX2 one on amd64 CPUs that
// have it (unless GOFX_GEMM=portable or the purego tag), nil otherwise.
var tapSum32 func(dst, src *float32, n int, taps *float32, offs *int, nt int)

// TapSum adds to dst[o] the sum over t of taps[t]*src[o+offs[t]], for
// every o in [0, len(dst)): a direct convolution flattened to one
// dimension, as a depthwise convolution is over a padded (and, for a
// stride, phase-split) input plane, where tap t of the kernel reads the
// plane shifted by offs[t]. taps and offs must have the same length,
// every offset must be non-negative and src must hold len(dst)+max(offs)
// elements; TapSum panics otherwise (its callers compute these bounds).
// For float32 on amd64 with AVX2 and FMA it is an assembly loop of fused
// multiply-adds, 32 outputs at a time; elsewhere a Go loop.
func TapSum[T Float](dst, src, taps []T, offs []int) {
	n, nt := len(dst), len(taps)
	if n == 0 || nt == 0 {
		return
	}
	if len(offs) != nt {
		panic(fmt.Sprintf("gemm: TapSum: %d taps but %d offsets", nt, len(offs)))
	}
	for _, o := range offs {
		if o < 0 || len(src)-n < o {
			panic(fmt.Sprintf("gemm: TapSum: offset %d of %d outputs out of a source of %d elements", o, n, len(src)))
		}
	}
	if s, ok := any(dst).([]float32); ok && tapSum32 != nil {
		tapSum32(&s[0], &any(src).([]float32)[0], n, &any(taps).([]float32)[0], &offs[0], nt)
		return
	}
	tapSumGo(dst, src, taps, offs)
}

// tapSumGo is TapSum in Go: three taps at a time summed in registers.
func tapSumGo[T Float](dst, src, taps []T, offs []int) {
	n := len(dst)
	t := 0
	for ; t+3 <= len(taps); t += 3 {
		w0, w1, w2 := taps[t], taps[t+1], taps[t+2]
		s0 := src[offs[t] : offs[t]+n]
		s1 := src[offs[t+1] : offs[t+1]+n]
		s2 := src[offs[t+2] : offs[t+2]+n]
		for o := range dst {
			dst[o] += w0*s0[o] + w1*s1[o] + w2*s2[o]
		}
	}
	for ; t < len(taps); t++ {
		w := taps[t]
		st := src[offs[t] : offs[t]+n]
		for o := range dst {
			dst[o] += w * st[o]
		}
	}
}
