package kernels

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Packed weights of constant convolution weights, made once and reused.
//
// A tensor has no version counter (kernels write its storage through
// plain slices), so a cache keyed by the weight alone could not see a
// parameter change. Instead the owner of a program's weights declares
// them constant with MarkConstant (export.ExportedProgram and the
// interpreter, for the parameters, buffers and constants their program
// never writes; a server, for a frozen model), and a forward float
// convolution whose weight is a marked tensor packs each group's weight
// for internal/gemm once (PackA) and reuses it on every later call,
// skipping the packing of the weight per call.
//
// What keeps the packed copy right:
//
//   - Every operator that writes a tensor argument (add_, copy_, an out=
//     overload: a schema argument annotated "!") drops the packings of
//     the storage it wrote after its kernel runs (guardWrites), so writes
//     through the dispatch point are always seen.
//   - Writes that bypass it (tensor.Data, Tensor.CopyFrom) must be
//     announced with Changed; nn.LoadState does so, as does
//     ExportedProgram.Run for the inputs it writes back.
//   - A mark holds its tensor weakly: a collected tensor's mark and
//     packings go (its address may then be reused).
//
// The cache is bounded (packCacheLimit bytes of packed data; the oldest
// entries go first) and safe for concurrent use.

// packCacheLimit bounds the bytes of packed weights the cache keeps (a
// variable for the tests).
var packCacheLimit = 512 << 20

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

// mark is a marked tensor: its element count, and the tensor, held
// weakly.
type mark struct {
	n int
	t weak.Pointer[tensor.Tensor]
}

var packCache struct {
	mu     sync.Mutex
	marked map[uintptr]mark // by first-element address
	items  map[packKey]*packEntry
	order  []packKey // insertion order, for eviction
	bytes  int
	// count is len(items), read without the lock by the write guard.
	count atomic.Int64
}

// MarkConstant declares the float32 and float64 tensors ts constant: a
// forward convolution with one of them as its weight packs it once and
// reuses the packing. Other dtypes, meta tensors and tensors that are not
// contiguous are ignored (their convolutions convert or copy the weight
// anyway); marking a tensor again changes nothing. Writes into a marked
// tensor through operators are seen; any other write (tensor.Data,
// Tensor.CopyFrom) must be followed by Changed. A mark ends with Unmark
// or when the tensor is collected: it does not keep the tensor alive.
func MarkConstant(ts ...*tensor.Tensor) {
	packCache.mu.Lock()
	defer packCache.mu.Unlock()
	if packCache.marked == nil {
		packCache.marked = map[uintptr]mark{}
		packCache.items = map[packKey]*packEntry{}
	}
	for _, t := range ts {
		addr, n, ok := constAddr(t)
		if !ok {
			continue
		}
		if mk, ok := packCache.marked[addr]; ok && mk.n == n && mk.t.Value() == t {
			continue
		}
		dropPacks(addr, addr+1)
		packCache.marked[addr] = mark{n, weak.Make(t)}
		runtime.AddCleanup(t, forget, addr)
	}
}

// Marked reports whether t is marked constant (MarkConstant).
func Marked(t *tensor.Tensor) bool {
	addr, n, ok := constAddr(t)
	if !ok {
		return false
	}
	packCache.mu.Lock()
	defer packCache.mu.Unlock()
	mk, ok := packCache.marked[addr]
	return ok && mk.n == n && mk.t.Value() == t
}

// forget drops the mark at addr when its tensor has been collected.
func forget(addr uintptr) {
	packCache.mu.Lock()
	defer packCache.mu.Unlock()
	if mk, ok := packCache.marked[addr]; ok && mk.t.Value() == nil {
		delete(packCache.marked, addr)
		dropPacks(addr, addr+1)
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
		if mk, ok := packCache.marked[addr]; ok && mk.t.Value() == t {
			delete(packCache.marked, addr)
		}
		dropPacks(addr, addr+1)
	}
}

// Changed tells the cache that the elements of ts changed: the packings
// of every marked tensor sharing a storage with one of them are dropped,
// and made again from the new values on their next use. The marks stay.
// Writes through operators call it themselves.
func Changed(ts ...*tensor.Tensor) {
	if packCache.count.Load() == 0 {
		return
	}
	packCache.mu.Lock()
	defer packCache.mu.Unlock()
	for _, t := range ts {
		if lo, hi, ok := storageRange(t); ok {
			dropPacks(lo, hi)
		}
	}
}

// dropPacks drops the packed weights whose first element lies in
// [lo, hi). The caller holds packCache.mu.
func dropPacks(lo, hi uintptr) {
	if len(packCache.order) == 0 {
		return
	}
	kept := packCache.order[:0]
	for _, k := range packCache.order {
		if k.addr >= lo && k.addr < hi {
			packCache.bytes -= packCache.items[k].bytes
			delete(packCache.items, k)
			continue
		}
		kept = append(kept, k)
	}
	clear(packCache.order[len(kept):])
	packCache.order = kept
	packCache.count.Store(int64(len(packCache.items)))
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

// storageRange returns the addresses [lo, hi) of t's whole storage, which
// every view of it lies in.
func storageRange(t *tensor.Tensor) (lo, hi uintptr, ok bool) {
	if t == nil || t.IsMeta() {
		return 0, 0, false
	}
	switch t.DType() {
	case tensor.Float32:
		return sliceRange(tensor.Data[float32](t))
	case tensor.Float64:
		return sliceRange(tensor.Data[float64](t))
	}
	return 0, 0, false
}

func sliceRange[T any](d []T) (lo, hi uintptr, ok bool) {
	if len(d) == 0 {
		return 0, 0, false
	}
	lo = uintptr(unsafe.Pointer(&d[0]))
	return lo, lo + uintptr(len(d))*unsafe.Sizeof(d[0]), true
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
	if mk, ok := packCache.marked[addr]; !ok || mk.n != len(w) || mk.t.Value() == nil {
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
		packCache.count.Store(int64(len(packCache.items)))
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

// guardWrites returns k, for an operator whose schema writes tensor
// arguments, wrapped so that the packings of what it wrote are dropped
// after it runs (see Changed); other operators' kernels come back as
// they are.
func guardWrites(o *ops.Operator, k ops.Kernel) ops.Kernel {
	var written []string
	for _, a := range o.Schema().Args {
		if a.Type != nil && writtenAny(a.Type) {
			written = append(written, a.Name)
		}
	}
	if len(written) == 0 || k == nil {
		return k
	}
	return func(c *ops.Call) ([]any, error) {
		out, err := k(c)
		if packCache.count.Load() != 0 {
			for _, name := range written {
				switch v := c.Arg(name).(type) {
				case *tensor.Tensor:
					Changed(v)
				case []*tensor.Tensor:
					Changed(v...)
				}
			}
		}
		return out, err
	}
}

// writtenAny reports whether an argument of type t is written ("Tensor(a!)",
// "Tensor(a!)[]", "Tensor(a!)?").
func writtenAny(t *ops.Type) bool {
	for ; t != nil; t = t.Elem {
		if t.Alias != nil && t.Alias.Write {
			return true
		}
	}
	return false
}
