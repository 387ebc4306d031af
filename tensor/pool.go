package tensor

import (
	"container/list"
	"sync"
	"sync/atomic"
)

// Buffer reuse. New takes the buffer of a new tensor from a process-wide
// pool of released buffers of the same dtype and element count when it
// holds one (zeroed first, so New still returns zeros), and allocates
// otherwise. Only a caller that knows a storage is dead puts its buffer
// back, with Recycle: the interpreter does it for the values of a run that
// no live value, output, parameter or constant shares a storage with. The
// pool is safe for concurrent use (one mutex), so interpreters running in
// parallel share it, and holds at most SetPoolLimit bytes (1 GiB by
// default), dropping the oldest buffers first.

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

// pool holds the recycled buffers: a stack per dtype and length, and all
// of them in the order they came, so that the oldest go first when the
// pool would exceed its limit. Unlike a sync.Pool it survives garbage
// collections, which a large model's run may trigger several times
// between a buffer's release and its reuse.
var pool struct {
	mu     sync.Mutex
	stacks map[poolKey][]*list.Element
	order  list.List // of *storage, oldest first
	bytes  int
	limit  int
}

// DefaultPoolLimit is the default bound of the bytes the pool of recycled
// buffers keeps (see SetPoolLimit).
const DefaultPoolLimit = 1 << 30

func init() { pool.limit = DefaultPoolLimit }

// SetPoolLimit bounds the bytes of recycled buffers New's pool keeps
// (the oldest are dropped first; 0 keeps none, turning reuse off) and
// returns the previous bound.
func SetPoolLimit(bytes int) int {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	old := pool.limit
	pool.limit = max(bytes, 0)
	trimPool()
	return old
}

// trimPool drops the oldest buffers until the pool is within its limit.
// pool.mu is held.
func trimPool() {
	for pool.bytes > pool.limit {
		e := pool.order.Front()
		st := e.Value.(*storage)
		dt, n := dataDType(st.data)
		k := poolKey{dt, n}
		stack := pool.stacks[k]
		for i, x := range stack {
			if x == e {
				stack = append(stack[:i], stack[i+1:]...)
				break
			}
		}
		if len(stack) == 0 {
			delete(pool.stacks, k)
		} else {
			pool.stacks[k] = stack
		}
		pool.order.Remove(e)
		pool.bytes -= n * dt.Size()
	}
}

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
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if pool.stacks == nil {
		pool.stacks = map[poolKey][]*list.Element{}
	}
	key := poolKey{dt, n}
	pool.stacks[key] = append(pool.stacks[key], pool.order.PushBack(&storage{data: data}))
	pool.bytes += n * dt.Size()
	trimPool()
}

// newStorage returns a storage of n zeros of dt: a pooled buffer when
// there is one, a new one otherwise.
func newStorage(dt DType, n int) *storage { return newStorageOf(dt, n, true) }

// newStorageOf is newStorage; with zero false, a pooled buffer keeps
// whatever it held (EmptyUninit).
func newStorageOf(dt DType, n int, zero bool) *storage {
	born := allocSeq.Add(1)
	if n*dt.Size() >= poolMinBytes {
		if st := takePooled(poolKey{dt, n}); st != nil {
			if zero {
				clearData(st.data)
			}
			st.born = born
			return st
		}
	}
	return &storage{data: makeData(dt, n), born: born}
}

// takePooled removes and returns the newest pooled buffer of key (nil if
// none).
func takePooled(key poolKey) *storage {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	stack := pool.stacks[key]
	if len(stack) == 0 {
		return nil
	}
	e := stack[len(stack)-1]
	pool.stacks[key] = stack[:len(stack)-1]
	st := pool.order.Remove(e).(*storage)
	pool.bytes -= key.n * key.dt.Size()
	return st
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
