package kernels_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gofx/gofx/tensor"
)

func TestResize(t *testing.T) {
	x := arange(2, 3)
	// Shrinking keeps the storage: a view of its first elements.
	out := callIndexing(t, "aten::resize_", []any{x, []int64{2, 2}}, nil)
	assert.True(t, out.SharesStorage(x))
	assert.Equal(t, []float32{0, 1, 2, 3}, tensor.Values[float32](out))
	// Growing keeps the old elements first; the new ones (uninitialized
	// in ATen) are zeros.
	out = callIndexing(t, "aten::resize_", []any{x, []int64{4, 2}}, nil)
	assert.Equal(t, []float32{0, 1, 2, 3, 4, 5, 0, 0}, tensor.Values[float32](out))
	// A view resizes from its storage offset, in storage order.
	row := tensor.Must(x.Select(0, 1))
	out = callIndexing(t, "aten::resize_", []any{row, []int64{4}}, nil)
	assert.Equal(t, []float32{3, 4, 5, 0}, tensor.Values[float32](out))
	tr := tensor.Must(x.Transpose(0, 1))
	out = callIndexing(t, "aten::resize_", []any{tr, []int64{3}}, nil)
	assert.Equal(t, []float32{0, 1, 2}, tensor.Values[float32](out))
	out = callIndexing(t, "aten::resize_", []any{x.Meta(), []int64{7}}, nil)
	assert.True(t, out.IsMeta())
	assert.Equal(t, []int{7}, out.Shape())
}
