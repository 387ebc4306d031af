package kernels

import (
	"runtime"

	workpool "github.com/gofx/gofx/internal/parallel"
)

// parallelThreshold is the number of elements below which loops stay on one
// goroutine.
const parallelThreshold = 1 << 15

// parallelFor calls f over [0, n) split into contiguous chunks, one per
// available CPU when n is large, so that large elementwise ops and
// reductions use every core.
func parallelFor(n int, f func(lo, hi int)) {
	p := runtime.GOMAXPROCS(0)
	if n < parallelThreshold || p == 1 {
		f(0, n)
		return
	}
	if p > n/(parallelThreshold/4) {
		p = max(1, n/(parallelThreshold/4))
	}
	runChunks(n, p, f)
}

// runChunks calls f over [0, n) split into p contiguous chunks on
// internal/parallel's worker pool (the caller running the first), and
// waits. A panic in a chunk is re-raised on the caller's goroutine, where
// the dispatch point recovers it.
func runChunks(n, p int, f func(lo, hi int)) {
	chunk := (n + p - 1) / p
	workpool.Do((n+chunk-1)/chunk, func(w int) {
		lo := w * chunk
		f(lo, min(lo+chunk, n))
	})
}
