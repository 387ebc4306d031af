//go:build !unix

package cputime

// Process returns 0 where getrusage is missing: a cpu-ns/op metric
// computed from it then reads 0.
func Process() int64 { return 0 }

// Available reports whether Process measures anything here: false where
// the system has no getrusage.
const Available = false
