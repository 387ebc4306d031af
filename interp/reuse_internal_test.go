package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// TestReuseStopsOnOpaqueValues: a value the interpreter cannot look
// into (an Object, which may hold any tensor) stops recycling for the run.
func TestReuseStopsOnOpaqueValues(t *testing.T) {
	var r reuse
	r.start(true, 2)
	x := tensor.Empty(tensor.Float32, 4096)
	r.add(0, nn.Tensor(x), false)
	assert.True(t, r.on)
	assert.Len(t, r.slots[0], 1, "a tensor made during the run is counted")
	r.add(1, nn.Object(struct{ t *tensor.Tensor }{x}), false)
	assert.False(t, r.on, "an opaque value stops recycling")
	r.release(0)
	assert.NotPanics(t, func() { _ = x.Float64s() }, "nothing was recycled")
}

// TestReuseCountsTuplesAndDicts: the storages inside tuples and dicts are
// counted, each as often as it appears.
func TestReuseCountsTuplesAndDicts(t *testing.T) {
	var r reuse
	r.start(true, 2)
	x := tensor.Empty(tensor.Float32, 4096)
	v := tensor.Must(x.View(64, 64))
	r.add(0, nn.Of([]nn.Value{nn.Tensor(x), nn.Of(map[string]nn.Value{"v": nn.Tensor(v)})}), false)
	r.add(1, nn.Tensor(v), false)
	assert.Equal(t, int32(3), r.refs[x.StorageKey()])
	r.release(0)
	assert.Equal(t, int32(1), r.refs[x.StorageKey()])
	assert.NotPanics(t, func() { _ = v.Float64s() })
	r.release(1)
	assert.NotContains(t, r.refs, x.StorageKey())
	assert.Panics(t, func() { _ = v.Float64s() }, "the buffer went back to the pool: a stale view fails loudly")
}
