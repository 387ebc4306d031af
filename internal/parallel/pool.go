package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// task is one part of a Do call, queued for the workers.
type task struct {
	f     func(int)
	w     int
	claim *atomic.Bool  // set by whoever runs the part
	left  *atomic.Int32 // the parts not yet returned
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
		for i, st := 0, time.Now(); len(tasks) == 0; i++ {
			if i&255 == 255 {
				if time.Since(st) >= spinFor {
					break
				}
				runtime.Gosched()
			}
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
	defer t.left.Add(-1)
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

// Do calls f(0), ..., f(p-1), f(0) on the calling goroutine and the
// rest on pool workers (or the caller, for parts no worker has started
// when its own is done), and returns when all have returned. A panic in
// any part is raised again on the caller, with the part's value.
func Do(p int, f func(w int)) {
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
	var left atomic.Int32
	left.Store(int32(p - 1))
	wg.Add(p - 1)
	for w := 1; w < p; w++ {
		select {
		case tasks <- task{f: f, w: w, claim: &claims[w], left: &left, wg: &wg, panic: &pv, mu: &mu}:
		default: // the queue is full: the caller runs the part
		}
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
			left.Add(-1)
			wg.Done()
		}
	}
	// Poll a while for the workers' parts before blocking: a parked
	// caller takes as long to wake as a parked worker (a futex wait and
	// wake), which doubled the time of a 128×128 product.
	for i, st := 0, time.Now(); left.Load() > 0; i++ {
		if i&255 == 255 {
			if time.Since(st) >= spinFor {
				break
			}
			runtime.Gosched()
		}
	}
	wg.Wait()
	if pv != nil {
		panic(pv)
	}
}
