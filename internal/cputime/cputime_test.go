package cputime_test

import (
	"testing"
	"time"

	"github.com/gofx/gofx/internal/cputime"
)

// TestProcessGrowsWithWork spins until the process CPU time has grown
// by 5 ms, checking it never goes backwards; it fails if 20 s of wall time
// pass first (a loaded machine may give a niced test a small share of a
// core, but not none).
func TestProcessGrowsWithWork(t *testing.T) {
	if !cputime.Available {
		if got := cputime.Process(); got != 0 {
			t.Fatalf("Process() = %d without getrusage, want 0", got)
		}
		t.Skip("no getrusage on this system")
	}
	before := cputime.Process()
	if before <= 0 {
		t.Fatalf("Process() = %d before any work, want > 0 (the runtime has started)", before)
	}
	x, last := 1.0, before
	for start := time.Now(); time.Since(start) < 20*time.Second; {
		for range 10000 {
			x = x*1.0000001 + 1e-9
		}
		now := cputime.Process()
		if now < last {
			t.Fatalf("Process() went back from %d to %d", last, now)
		}
		if last = now; now-before >= int64(5*time.Millisecond) {
			return
		}
	}
	t.Errorf("Process() grew by %v over 20 s of spinning (x=%g), want 5ms", time.Duration(last-before), x)
}

// ExampleProcess reports a benchmark's CPU time per op beside its wall time.
func ExampleProcess() {
	cpu0 := cputime.Process()
	work := 0
	for i := range 1000 {
		work += i
	}
	cpuPerOp := float64(cputime.Process()-cpu0) / 1000
	_ = cpuPerOp // b.ReportMetric(cpuPerOp, "cpu-ns/op") in a benchmark
}
