package parallel

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// TestDo checks that every part runs once and that a worker's
// panic reaches the caller.
func TestDo(t *testing.T) {
	for _, p := range []int{1, 2, 3, 8} {
		var seen [8]atomic.Int32
		for range 100 {
			Do(p, func(w int) { seen[w].Add(1) })
		}
		for w := range 8 {
			want := int32(0)
			if w < p {
				want = 100
			}
			if got := seen[w].Load(); got != want {
				t.Errorf("p=%d: part %d ran %d times, want %d", p, w, got, want)
			}
		}
	}
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, "boom") {
			t.Errorf("recovered %v, want the worker's panic", r)
		}
	}()
	Do(2, func(w int) {
		if w == 1 {
			panic("boom")
		}
	})
	t.Error("parallelDo returned after a worker panicked")
}

// BenchmarkDo times one round of Do with empty parts on
// every P: the synchronisation a product pays per packing or compute
// phase.
func BenchmarkDo(b *testing.B) {
	p := runtime.GOMAXPROCS(0)
	for b.Loop() {
		Do(p, func(int) {})
	}
}

// TestDoNested runs Do inside Do from many goroutines at once, more
// parts than the task queue holds, as kernels' loops over batch items
// call products that split again: every part runs once and nothing
// deadlocks.
func TestDoNested(t *testing.T) {
	const callers, outer, inner = 64, 4, 8
	var ran atomic.Int64
	done := make(chan struct{})
	for range callers {
		go func() {
			defer func() { done <- struct{}{} }()
			Do(outer, func(int) {
				Do(inner, func(int) { ran.Add(1) })
			})
		}()
	}
	for range callers {
		<-done
	}
	if got, want := ran.Load(), int64(callers*outer*inner); got != want {
		t.Errorf("%d parts ran, want %d", got, want)
	}
}

// ExampleDo sums the halves of a slice on two parts.
func ExampleDo() {
	x := []int{1, 2, 3, 4, 5, 6, 7, 8}
	var sums [2]int
	Do(2, func(w int) {
		for _, v := range x[w*4 : w*4+4] {
			sums[w] += v
		}
	})
	fmt.Println(sums[0], sums[1])
	// Output: 10 26
}
