package vec

import (
	"syscall"
	"testing"
	"unsafe"
)

// TestEvenGuardPage runs Even with every level of loops on x ending
// just before a page that may not be read: a loop that reads past x's
// 2n−1 elements faults.
func TestEvenGuardPage(t *testing.T) {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	all := unsafe.Slice((*float32)(unsafe.Pointer(&mem[0])), page/4)
	for i := range all {
		all[i] = float32(i)
	}
	for n := 1; n <= 40; n++ {
		x := all[len(all)-(2*n-1):]
		for _, l := range impls() {
			restore := use(l)
			dst := make([]float32, n)
			Even(dst, x)
			// Two rows, the second ending at the page.
			x2 := all[len(all)-(n+2*n-1):]
			d2 := make([]float32, 2*n)
			EvenRows(d2, n, x2, n, 2, n)
			restore()
			for j, v := range dst {
				if v != x[2*j] || d2[n+j] != x[2*j] || d2[j] != x2[2*j] {
					t.Fatalf("n=%d: element %d is %v, %v and %v, want %v and %v", n, j, v, d2[n+j], d2[j], x[2*j], x2[2*j])
				}
			}
		}
	}
}
