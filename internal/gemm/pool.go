package gemm

import (
	"fmt"
	"sync"
)

// The worker pool: goroutines started once (as many as the largest
// parallelDo asked for, less the caller) that wait for parts of products.
// Workers only run gemm's own packing and compute loops, which never wait
// on the pool, so nested or concurrent products cannot deadlock it.

type task struct {
	f     func(int)
	w     int
	wg    *sync.WaitGroup
	panic *any
	mu    *sync.Mutex
}

var (
	poolMu  sync.Mutex
	workers int
	tasks   = make(chan task, 256)
)

// ensureWorkers starts workers until n are running.
func ensureWorkers(n int) {
	poolMu.Lock()
	defer poolMu.Unlock()
	for ; workers < n; workers++ {
		go worker()
	}
}

func worker() {
	for t := range tasks {
		runTask(t)
	}
}

func runTask(t task) {
	defer t.wg.Done()
	defer func() {
		if r := recover(); r != nil {
			t.mu.Lock()
			if *t.panic == nil {
				*t.panic = r
			}
			t.mu.Unlock()
		}
	}()
	t.f(t.w)
}

// parallelDo calls f(0), ..., f(p-1), f(0) on the calling goroutine and
// the rest on pool workers, and returns when all have returned. A panic in
// a worker is raised again on the caller.
func parallelDo(p int, f func(w int)) {
	if p <= 1 {
		f(0)
		return
	}
	ensureWorkers(p - 1)
	var (
		wg sync.WaitGroup
		mu sync.Mutex
		pv any
	)
	wg.Add(p - 1)
	for w := 1; w < p; w++ {
		t := task{f: f, w: w, wg: &wg, panic: &pv, mu: &mu}
		tasks <- t
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				mu.Lock()
				if pv == nil {
					pv = r
				}
				mu.Unlock()
			}
		}()
		f(0)
	}()
	wg.Wait()
	if pv != nil {
		panic(fmt.Sprintf("gemm: worker panicked: %v", pv))
	}
}
