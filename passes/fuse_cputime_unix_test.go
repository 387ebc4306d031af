//go:build unix

package passes_test

import "syscall"

// cpuTime returns the CPU time (user and system, all threads) this
// process has used, in nanoseconds, for the cpu-ms/op of benchmarks on a
// loaded machine (kernels' benchmarks have the same helper).
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
