package kernels

import (
	"runtime"
	"sync"
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

// runChunks calls f over [0, n) split into p contiguous chunks, each on its
// own goroutine, and waits. A panic in a worker is re-raised on the
// caller's goroutine, where the dispatch point recovers it.
func runChunks(n, p int, f func(lo, hi int)) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var panicked any
	chunk := (n + p - 1) / p
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					mu.Lock()
					panicked = r
					mu.Unlock()
				}
			}()
			f(lo, hi)
		}()
	}
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
}
