package kernels

import (
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
)

// TestPackCacheBounded: the packed weights kept never exceed
// packCacheLimit bytes, the oldest going first, and an evicted weight is
// packed again on its next use.
func TestPackCacheBounded(t *testing.T) {
	const cout, k = 16, 36
	bytes := cout * k * 4
	defer func(l int) { packCacheLimit = l }(packCacheLimit)
	packCacheLimit = 2 * bytes
	var ws []*tensor.Tensor
	for i := range 4 {
		w, err := tensor.NewGenerator(uint64(i)).Randn(tensor.Float32, cout, k)
		require.NoError(t, err)
		ws = append(ws, w)
	}
	MarkConstant(ws...)
	defer Unmark(ws...)
	for i, w := range ws {
		require.NotNil(t, cachedPack(tensor.Data[float32](w), 1, cout, k), "weight %d", i)
		packCache.mu.Lock()
		require.LessOrEqual(t, packCache.bytes, packCacheLimit, "after weight %d", i)
		require.Len(t, packCache.order, len(packCache.items))
		packCache.mu.Unlock()
	}
	first := packKey{addr: uintptr(unsafe.Pointer(&tensor.Data[float32](ws[0])[0])), n: cout * k, g: 1, cog: cout, k: k, elemSize: 4}
	packCache.mu.Lock()
	_, kept := packCache.items[first]
	packCache.mu.Unlock()
	require.False(t, kept, "the oldest packing is evicted")
	require.NotNil(t, cachedPack(tensor.Data[float32](ws[0]), 1, cout, k), "packed again")
}

// TestMarkDoesNotKeepTensor: a mark holds its tensor weakly; once the
// tensor is collected, the mark and its packings go.
func TestMarkDoesNotKeepTensor(t *testing.T) {
	w, err := tensor.NewGenerator(1).Randn(tensor.Float32, 8, 9)
	require.NoError(t, err)
	MarkConstant(w)
	require.NotNil(t, cachedPack(tensor.Data[float32](w), 1, 8, 9))
	addr, _, _ := constAddr(w)
	w = nil
	gone := func() bool {
		packCache.mu.Lock()
		defer packCache.mu.Unlock()
		_, ok := packCache.marked[addr]
		return !ok
	}
	for i := 0; i < 50 && !gone(); i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	require.True(t, gone(), "the mark of a collected tensor is dropped")
}
