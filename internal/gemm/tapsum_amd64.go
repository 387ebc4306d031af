//go:build !purego

package gemm

import (
	"os"

	"golang.org/x/sys/cpu"
)

// tapSum32AVX2 is TapSum for float32: n outputs at dst, nt ≥ 1 taps, tap
// t reading src + offs[t].
//
//go:noescape
func tapSum32AVX2(dst, src *float32, n int, taps *float32, offs *int, nt int)

func init() {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA && os.Getenv("GOFX_GEMM") != "portable" {
		tapSum32 = tapSum32AVX2
	}
}
