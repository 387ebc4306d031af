//go:build unix

package gemm

import "syscall"

// cpuTime returns the CPU time (user and system, all threads) this
// process has used, in nanoseconds: on a loaded machine, where wall time
// says little, cpu-ns/op tells the work an op costs (summed over the
// cores it runs on).
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
