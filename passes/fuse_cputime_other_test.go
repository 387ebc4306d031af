//go:build !unix

package passes_test

// cpuTime is 0 where getrusage is not available.
func cpuTime() int64 { return 0 }
