package gemm

import (
	"math"
	"testing"
)

// TestTapSum compares TapSum (the assembly loop where the CPU has it, and
// the Go loop for float64) with a naive sum for every length across the
// 32-, 8- and 1-wide parts and several tap counts and offsets, and checks
// that nothing past dst is written.
func TestTapSum(t *testing.T) {
	for _, nt := range []int{1, 2, 3, 4, 9, 25} {
		for n := 0; n <= 75; n++ {
			offs := make([]int, nt)
			maxOff := 0
			for i := range offs {
				offs[i] = (i * 13) % 17
				maxOff = max(maxOff, offs[i])
			}
			src := make([]float32, n+maxOff)
			for i := range src {
				src[i] = float32(math.Sin(float64(i*7 + nt)))
			}
			taps := make([]float32, nt)
			for i := range taps {
				taps[i] = float32(i%5) - 1.5
			}
			buf := make([]float32, n+1)
			for i := range buf {
				buf[i] = float32(i % 5)
			}
			buf[n] = 42
			want := make([]float64, n)
			for o := range want {
				for k, w := range taps {
					want[o] += float64(w) * float64(src[o+offs[k]])
				}
			}
			TapSum(buf[:n], src, taps, offs)
			for o, v := range want {
				v += float64(o % 5)
				if math.Abs(float64(buf[o])-v) > 1e-5*(1+math.Abs(v)) {
					t.Fatalf("taps %d n %d: dst[%d] = %v, want %v", nt, n, o, buf[o], v)
				}
			}
			if buf[n] != 42 {
				t.Fatalf("taps %d n %d: wrote past dst", nt, n)
			}
			got64 := make([]float64, n)
			src64 := make([]float64, len(src))
			for i, v := range src {
				src64[i] = float64(v)
			}
			taps64 := make([]float64, nt)
			for i, v := range taps {
				taps64[i] = float64(v)
			}
			TapSum(got64, src64, taps64, offs)
			for o, v := range want {
				if math.Abs(got64[o]-v) > 1e-12*(1+math.Abs(v)) {
					t.Fatalf("float64 taps %d n %d: dst[%d] = %v, want %v", nt, n, o, got64[o], v)
				}
			}
		}
	}
}

// TestTapSumBadArguments checks that TapSum refuses a source too short
// and mismatched taps and offsets.
func TestTapSumBadArguments(t *testing.T) {
	for name, f := range map[string]func(){
		"short source":    func() { TapSum(make([]float32, 4), make([]float32, 5), []float32{1, 2}, []int{0, 2}) },
		"negative offset": func() { TapSum(make([]float32, 4), make([]float32, 9), []float32{1}, []int{-1}) },
		"lengths":         func() { TapSum(make([]float32, 4), make([]float32, 9), []float32{1, 2}, []int{0}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
