// Package parallel is the one worker pool of gofx's kernels: Do runs the
// parts of a loop on goroutines started once and kept, the caller
// included, for internal/gemm's products and kernels' elementwise loops,
// reductions and pooling.
//
// Each part is claimed once, by a worker when it takes the part's task or
// by the caller: a caller that has finished its own part runs every part
// no worker has started yet instead of waiting for one. A worker that
// starts late (no idle P while the garbage collector's mark worker holds
// one, or its thread not scheduled on a busy machine) would finish a part
// no sooner than the caller doing it at once, so a loop is never slower
// for it, and never waits on a wake-up that comes late. For the same
// reason a part that finds the task queue full is left to the caller, so
// nested and concurrent loops cannot deadlock the pool: a caller only
// ever waits for parts that are running.
//
// A worker that finishes a part polls for the next one for 50µs
// (yielding to other goroutines between polls) before it parks: a parked
// goroutine takes tens of microseconds to wake (60-100µs measured on a
// two-vCPU virtual machine, where the caller then ran the worker's part
// itself one time in ten), and loops come in runs (a model's layers, a
// product's phases). For the same reason a caller whose own parts are
// done polls up to 50µs for the workers' before it blocks: blocking on
// the WaitGroup and being woken by the last part's Done nearly doubled
// a 128×128 product's time (57 → 33 µs).
package parallel
