package gemm

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// The worker pool: goroutines started once (as many as the largest
// parallelDo asked for, less the caller) that wait for parts of products.
// Workers only run gemm's own packing and compute loops, which never wait
// on the pool, so nested or concurrent products cannot deadlock it.
//
// Each part is claimed once, by a worker when it takes the part's task or
// by the caller: a caller that has finished its own part runs every part
// no worker has started yet instead of waiting for one. A worker that
// starts late (no idle P while the garbage collector's mark worker holds
// one, or its thread not scheduled on a busy machine) would finish a part
// no sooner than the caller doing it at once, so the product is never
// slower for it, and no longer waits on a wake-up that comes late.

type task struct {
	f     func(int)
	w     int
	claim *atomic.Bool // set by whoever runs the part
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
	for {
		select {
		case t := <-tasks:
			runTask(t)
			continue
		default:
		}
		// Stay awake a while for the next part: products come in runs
		// (a model's layers, a product's phases), and a parked worker
		// takes tens of microseconds to wake.
		for st := time.Now(); len(tasks) == 0 && time.Since(st) < spinFor; {
			runtime.Gosched()
		}
		runTask(<-tasks)
	}
}

// spinFor is how long an idle worker polls for a part before it parks.
var spinFor = 50 * time.Microsecond

// runTask runs t's part unless the caller has claimed it.
func runTask(t task) {
	if !t.claim.CompareAndSwap(false, true) {
		return
	}
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
	claims := make([]atomic.Bool, p)
	wg.Add(p - 1)
	for w := 1; w < p; w++ {
		tasks <- task{f: f, w: w, claim: &claims[w], wg: &wg, panic: &pv, mu: &mu}
	}
	run := func(w int) {
		defer func() {
			if r := recover(); r != nil {
				mu.Lock()
				if pv == nil {
					pv = r
				}
				mu.Unlock()
			}
		}()
		f(w)
	}
	run(0)
	for w := p - 1; w >= 1; w-- {
		if claims[w].CompareAndSwap(false, true) {
			run(w)
			wg.Done()
		}
	}
	wg.Wait()
	if pv != nil {
		panic(fmt.Sprintf("gemm: worker panicked: %v", pv))
	}
}
