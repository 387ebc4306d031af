//go:build !purego

package vec

import "golang.org/x/sys/cpu"

// The AVX2 loops of vec_amd64.s. n is a multiple of the vector width
// (8 float32, 4 float64); the caller handles the tail.

//go:noescape
func addF32(dst, x, y *float32, n int)

//go:noescape
func addVSF32(dst, x *float32, n int, s float32)

//go:noescape
func addSVF32(dst, y *float32, n int, s float32)

//go:noescape
func subF32(dst, x, y *float32, n int)

//go:noescape
func subVSF32(dst, x *float32, n int, s float32)

//go:noescape
func subSVF32(dst, y *float32, n int, s float32)

//go:noescape
func mulF32(dst, x, y *float32, n int)

//go:noescape
func mulVSF32(dst, x *float32, n int, s float32)

//go:noescape
func mulSVF32(dst, y *float32, n int, s float32)

//go:noescape
func divF32(dst, x, y *float32, n int)

//go:noescape
func divVSF32(dst, x *float32, n int, s float32)

//go:noescape
func divSVF32(dst, y *float32, n int, s float32)

//go:noescape
func reluF32(dst, x *float32, n int)

//go:noescape
func clampF32(dst, x *float32, n int, lo, hi float32)

//go:noescape
func addF64(dst, x, y *float64, n int)

//go:noescape
func addVSF64(dst, x *float64, n int, s float64)

//go:noescape
func addSVF64(dst, y *float64, n int, s float64)

//go:noescape
func subF64(dst, x, y *float64, n int)

//go:noescape
func subVSF64(dst, x *float64, n int, s float64)

//go:noescape
func subSVF64(dst, y *float64, n int, s float64)

//go:noescape
func mulF64(dst, x, y *float64, n int)

//go:noescape
func mulVSF64(dst, x *float64, n int, s float64)

//go:noescape
func mulSVF64(dst, y *float64, n int, s float64)

//go:noescape
func divF64(dst, x, y *float64, n int)

//go:noescape
func divVSF64(dst, x *float64, n int, s float64)

//go:noescape
func divSVF64(dst, y *float64, n int, s float64)

//go:noescape
func reluF64(dst, x *float64, n int)

//go:noescape
func clampF64(dst, x *float64, n int, lo, hi float64)

func init() {
	if cpu.X86.HasAVX2 {
		detected = &asmLoops{
			vv32:    [numOps]func(dst, x, y *float32, n int){addF32, subF32, mulF32, divF32},
			vs32:    [numOps]func(dst, x *float32, n int, s float32){addVSF32, subVSF32, mulVSF32, divVSF32},
			sv32:    [numOps]func(dst, y *float32, n int, s float32){addSVF32, subSVF32, mulSVF32, divSVF32},
			vv64:    [numOps]func(dst, x, y *float64, n int){addF64, subF64, mulF64, divF64},
			vs64:    [numOps]func(dst, x *float64, n int, s float64){addVSF64, subVSF64, mulVSF64, divVSF64},
			sv64:    [numOps]func(dst, y *float64, n int, s float64){addSVF64, subSVF64, mulSVF64, divSVF64},
			relu32:  reluF32,
			relu64:  reluF64,
			clamp32: clampF32,
			clamp64: clampF64,
		}
	}
	asm = pick()
}
