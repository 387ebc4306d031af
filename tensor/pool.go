package tensor

import (
	"sync"
	"sync/atomic"
)

// Buffer reuse. New takes the buffer of a new tensor from a process-wide
// pool of released buffers of the same dtype and element count when it
// holds one (zeroed first, so New still returns zeros), and allocates
// otherwise. Only a caller that knows a storage is dead puts its buffer
// back, with Recycle: the interpreter does it for the values of a run that
// no live value, output, parameter or constant shares a storage with. The
// pool is safe for concurrent use (a sync.Pool per dtype and length), so
// interpreters running in parallel share it; like any sync.Pool it is
// emptied by the garbage collector, never holding memory for long.

// poolMinBytes is the smallest buffer the pool keeps: smaller ones cost
// little to allocate and would only fill the pool's table.
const poolMinBytes = 4096

// StorageKey identifies the storage of a tensor: tensors that share a
// storage (views of one another) have equal keys. The zero key is the
// key of a meta tensor.
type StorageKey struct{ st *storage }

// StorageKey returns the identity of t's storage (the zero key for a meta
// tensor).
func (t *Tensor) StorageKey() StorageKey { return StorageKey{t.st} }

// Born returns the allocation number New gave the storage: a storage New
// made after AllocEpoch returned e has Born() > e. It is 0 for a storage
// New did not make (FromSlice wraps a slice its caller may share) and
// for the zero key; such storages are never recycled.
func (k StorageKey) Born() uint64 {
	if k.st == nil {
		return 0
	}
	return k.st.born
}

// allocSeq numbers the storages New makes.
var allocSeq atomic.Uint64

// AllocEpoch returns the number of the last storage New made: storages
// made later have a greater Born.
func AllocEpoch() uint64 { return allocSeq.Load() }

type poolKey struct {
	dt DType
	n  int
}

var pools sync.Map // poolKey → *sync.Pool of *storage

// Recycle hands the buffer of the storage k back to New's pool. The caller
// guarantees that no tensor sharing the storage is used again: the
// storage is detached from its buffer (a stale view of it fails loudly on
// its next access instead of seeing another tensor's data). A key New did
// not make (Born 0), or whose buffer is too small to pool, is left alone.
// Recycling a storage twice is harmless.
func Recycle(k StorageKey) {
	st := k.st
	if st == nil || st.born == 0 || st.data == nil {
		return
	}
	dt, n := dataDType(st.data)
	if n*dt.Size() < poolMinBytes {
		return
	}
	data := st.data
	st.data = nil
	p, ok := pools.Load(poolKey{dt, n})
	if !ok {
		p, _ = pools.LoadOrStore(poolKey{dt, n}, new(sync.Pool))
	}
	p.(*sync.Pool).Put(&storage{data: data})
}

// newStorage returns a storage of n zeros of dt: a pooled buffer when
// there is one, a new one otherwise.
func newStorage(dt DType, n int) *storage {
	born := allocSeq.Add(1)
	if n*dt.Size() >= poolMinBytes {
		if p, ok := pools.Load(poolKey{dt, n}); ok {
			if st, _ := p.(*sync.Pool).Get().(*storage); st != nil {
				clearData(st.data)
				st.born = born
				return st
			}
		}
	}
	return &storage{data: makeData(dt, n), born: born}
}

// dataDType returns the dtype and length of a storage's slice.
func dataDType(data any) (DType, int) {
	switch d := data.(type) {
	case []float32:
		return Float32, len(d)
	case []float64:
		return Float64, len(d)
	case []Half:
		return Float16, len(d)
	case []BHalf:
		return BFloat16, len(d)
	case []int64:
		return Int64, len(d)
	case []int32:
		return Int32, len(d)
	case []int16:
		return Int16, len(d)
	case []int8:
		return Int8, len(d)
	case []uint8:
		return Uint8, len(d)
	case []bool:
		return Bool, len(d)
	}
	return Invalid, 0
}

func clearData(data any) {
	switch d := data.(type) {
	case []float32:
		clear(d)
	case []float64:
		clear(d)
	case []Half:
		clear(d)
	case []BHalf:
		clear(d)
	case []int64:
		clear(d)
	case []int32:
		clear(d)
	case []int16:
		clear(d)
	case []int8:
		clear(d)
	case []uint8:
		clear(d)
	case []bool:
		clear(d)
	}
}
