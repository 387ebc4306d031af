package export_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/nn/functional"
)

// poolNet pools with a one-int kernel, as F.max_pool2d(x, 3, 2, 1) and
// F.avg_pool2d(x, 3) do.
type poolNet struct {
	nn.Base
	avg bool
}

func (m *poolNet) Forward(x nn.Value) nn.Value {
	if m.avg {
		return functional.AvgPool2d(x, []int{3}, functional.AvgPoolOptions{})
	}
	return functional.MaxPool2d(x, []int{3}, functional.MaxPoolOptions{Stride: []int{2}, Padding: []int{1}})
}

// TestAutoPoolRange: PyTorch 2.6 exports max_pool2d(x, 3, 2, 1) and
// avg_pool2d(x, 3) on a [2, 3, 32, 32] input with the batch and spatial
// dims AUTO with these range constraints (its range_constraints): every
// output dim must be at least 1, which a 3-wide average pool with stride
// 3 makes s >= 3.
func TestAutoPoolRange(t *testing.T) {
	for _, tc := range []struct {
		name       string
		avg        bool
		ranges     string
		outSpatial string
	}{
		{"max_pool2d", false, "Range constraints: {s0: VR[2, int_oo], s1: VR[2, int_oo], s2: VR[2, int_oo]}", "((s1 - 1)//2) + 1, ((s2 - 1)//2) + 1]"},
		{"avg_pool2d", true, "Range constraints: {s0: VR[2, int_oo], s1: VR[3, int_oo], s2: VR[3, int_oo]}", "(s1//3), (s2//3)]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &poolNet{avg: tc.avg}
			m.Init(m, "M")
			ep, err := export.Export(m, []any{full(t, 2, 3, 32, 32)}, export.Dims{"x": {0: export.Auto, 2: export.Auto, 3: export.Auto}})
			require.NoError(t, err)
			assert.Contains(t, ep.String(), tc.ranges)
			assert.Contains(t, ep.String(), tc.outSpatial)
		})
	}
}
