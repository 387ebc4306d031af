package kernels

import (
	"sync"
	"unsafe"

	"github.com/gofx/gofx/tensor"
)

// Packed weights of constant convolution weights, made once and reused.
//
// A tensor has no version counter (kernels write its storage through
// plain slices), so a cache keyed by the weight alone could not see a
// parameter change. Instead the owner of a program's weights declares
// them constant with MarkConstant (the interpreter, for parameters and
// constants its program never mutates; a server, for a frozen model), and
// a forward float convolution whose weight is a marked tensor packs each
// group's weight for internal/gemm once (PackA) and reuses it on every
// later call, skipping the packing of the weight per call. The cache is
// bounded (packCacheLimit bytes of packed data; the oldest entries go
// first), safe for concurrent use, and forgets a tensor's entries when
// Unmark is called for it. Mutating a marked tensor's elements without
// Unmark leaves convolutions using the old packed values: that is the
// contract of MarkConstant.

// packCacheLimit bounds the bytes of packed weights the cache keeps.
const packCacheLimit = 512 << 20

// packKey identifies a weight as convRun sees it: the address of its
// first element, its element count and the layout of the product.
type packKey struct {
	addr      uintptr
	n         int
	g, cog, k int
	elemSize  uintptr
}

// packEntry is one weight's packed groups, made once.
type packEntry struct {
	once   sync.Once
	groups []any // *fastgemm.PackedA[T] per group
	ref    any   // the weight's slice, kept so its address is not reused
	bytes  int
}

// mark is a marked tensor: its element count, and the tensor itself, kept
// alive so that its address cannot be reused by another tensor while it
// is marked.
type mark struct {
	n int
	t *tensor.Tensor
}

var packCache struct {
	mu     sync.Mutex
	marked map[uintptr]mark // by first-element address
	items  map[packKey]*packEntry
	order  []packKey // insertion order, for eviction
	bytes  int
}

// MarkConstant declares the float32 and float64 tensors ts constant: a
// forward convolution with one of them as its weight packs it once and
// reuses the packing. Other dtypes, meta tensors and tensors that are not
// contiguous are ignored (their convolutions convert or copy the weight
// anyway). The caller must not change a marked tensor's elements (through
// it or any view of its storage) until it calls Unmark for it. A marked
// tensor is kept alive until then.
func MarkConstant(ts ...*tensor.Tensor) {
	packCache.mu.Lock()
	defer packCache.mu.Unlock()
	if packCache.marked == nil {
		packCache.marked = map[uintptr]mark{}
		packCache.items = map[packKey]*packEntry{}
	}
	for _, t := range ts {
		if addr, n, ok := constAddr(t); ok {
			packCache.marked[addr] = mark{n, t}
		}
	}
}

// Unmark withdraws MarkConstant for ts and drops their packed weights.
func Unmark(ts ...*tensor.Tensor) {
	packCache.mu.Lock()
	defer packCache.mu.Unlock()
	for _, t := range ts {
		addr, _, ok := constAddr(t)
		if !ok {
			continue
		}
		delete(packCache.marked, addr)
		kept := packCache.order[:0]
		for _, k := range packCache.order {
			if k.addr == addr {
				packCache.bytes -= packCache.items[k].bytes
				delete(packCache.items, k)
				continue
			}
			kept = append(kept, k)
		}
		packCache.order = kept
	}
}

// constAddr returns the address of t's first element and its element
// count when t can be marked.
func constAddr(t *tensor.Tensor) (uintptr, int, bool) {
	if t == nil || t.IsMeta() || !t.IsContiguous() || t.Numel() == 0 {
		return 0, 0, false
	}
	switch t.DType() {
	case tensor.Float32:
		return uintptr(unsafe.Pointer(&tensor.Data[float32](t)[t.Offset()])), t.Numel(), true
	case tensor.Float64:
		return uintptr(unsafe.Pointer(&tensor.Data[float64](t)[t.Offset()])), t.Numel(), true
	}
	return 0, 0, false
}

// cachedPack returns the packed groups of the weight w (g groups of cog
// rows by k columns) when w is a marked tensor's elements, packing it on
// first use, and nil otherwise.
func cachedPack[T float32 | float64 | int64](w []T, g, cog, k int) []any {
	if len(w) == 0 {
		return nil
	}
	if _, isInt := any(w).([]int64); isInt {
		return nil
	}
	addr := uintptr(unsafe.Pointer(&w[0]))
	key := packKey{addr: addr, n: len(w), g: g, cog: cog, k: k, elemSize: unsafe.Sizeof(w[0])}
	packCache.mu.Lock()
	if mk, ok := packCache.marked[addr]; !ok || mk.n != len(w) {
		packCache.mu.Unlock()
		return nil
	}
	e := packCache.items[key]
	if e == nil {
		e = &packEntry{ref: w, bytes: len(w) * int(unsafe.Sizeof(w[0]))}
		packCache.items[key] = e
		packCache.order = append(packCache.order, key)
		packCache.bytes += e.bytes
		for packCache.bytes > packCacheLimit && len(packCache.order) > 1 {
			old := packCache.order[0]
			packCache.order = packCache.order[1:]
			packCache.bytes -= packCache.items[old].bytes
			delete(packCache.items, old)
		}
	}
	packCache.mu.Unlock()
	e.once.Do(func() {
		groups := make([]any, g)
		for gi := range g {
			groups[gi] = packWeight(cog, k, w[gi*cog*k:(gi+1)*cog*k])
		}
		e.groups = groups
	})
	return e.groups
}
