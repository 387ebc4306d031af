//go:build !purego

package vec

import "golang.org/x/sys/cpu"

// addWidenF32 is AddWiden's AVX2 loop (widen_amd64.s); n is a multiple
// of 8.
//
//go:noescape
func addWidenF32(acc *float64, x *float32, n int)

func init() {
	if cpu.X86.HasAVX2 {
		widenAsm = addWidenF32
	}
}
