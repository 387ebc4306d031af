package gemm

import (
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// TestParallelDo checks that every part runs once and that a worker's
// panic reaches the caller.
func TestParallelDo(t *testing.T) {
	for _, p := range []int{1, 2, 3, 8} {
		var seen [8]atomic.Int32
		for range 100 {
			parallelDo(p, func(w int) { seen[w].Add(1) })
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
	parallelDo(2, func(w int) {
		if w == 1 {
			panic("boom")
		}
	})
	t.Error("parallelDo returned after a worker panicked")
}

// BenchmarkParallelDo times one round of parallelDo with empty parts on
// every P: the synchronisation a product pays per packing or compute
// phase.
func BenchmarkParallelDo(b *testing.B) {
	p := runtime.GOMAXPROCS(0)
	for b.Loop() {
		parallelDo(p, func(int) {})
	}
}
