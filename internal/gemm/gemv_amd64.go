//go:build !purego

package gemm

import "golang.org/x/sys/cpu"

// sdotAVX2 returns the float32 dot product of the k elements at x and y:
// four YMM accumulators (32 products per step), then 8 and 1 at a time.
//
//go:noescape
func sdotAVX2(k int, x, y *float32) float32

func init() {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		dot32 = sdotAVX2
	}
}
