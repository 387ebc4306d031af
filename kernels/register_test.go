package kernels

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRegisterTwicePanics checks that registering an operator a family
// already registered is refused, which is what makes the registry
// independent of the order of the families.
func TestRegisterTwicePanics(t *testing.T) {
	add := op("aten::add.Tensor")
	before := origins[add]
	assert.PanicsWithValue(t, "kernels: aten::add.Tensor registered twice", func() {
		registerBoth("aten::add.Tensor", nil)
	})
	assert.True(t, add.HasKernel(), "the refused registration must leave the kernel")
	assert.Equal(t, before, origins[add])
}
