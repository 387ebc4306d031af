// Package cputime reads the CPU time this process has used, for
// benchmarks on a loaded machine: there wall time says little, and a
// benchmark's cpu-ns/op (the CPU time per op, summed over the cores it
// runs on) tells the work an op costs. It is the one such helper of the
// repository's benchmarks (kernels, passes).
//
// It imports nothing outside the standard library.
package cputime
