package models_test

import (
	"errors"
	"testing"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOptimizedKeepsInputChecks: resnet18 is exported with a static
// batch; the optimized program refuses another batch as the exported one
// does, naming the input, the dimension and the size expected, instead of
// failing inside aten::view.
func TestOptimizedKeepsInputChecks(t *testing.T) {
	spec, err := models.Lookup("resnet18")
	require.NoError(t, err)
	one, err := nn.Uniform(1, 1, 3, 32, 32)
	require.NoError(t, err)
	two, err := nn.Uniform(2, 2, 3, 32, 32)
	require.NoError(t, err)
	io := &models.IO{Cases: []models.IOCase{{Inputs: []nn.Value{nn.Tensor(one)}}, {Inputs: []nn.Value{nn.Tensor(two)}}}}
	var errs []error
	_, _, err = models.Check(spec, nil, io, []string{"export", "optimized"}, func(r models.Result) {
		if r.Case == 1 {
			errs = append(errs, r.Err)
		}
	})
	require.NoError(t, err)
	require.Len(t, errs, 2)
	for i, p := range []string{"export", "optimized"} {
		var ie *export.InputError
		require.True(t, errors.As(errs[i], &ie), "%s: %v", p, errs[i])
		assert.Equal(t, "x", ie.Input, p)
		assert.Equal(t, 0, ie.Dim, p)
		assert.ErrorContains(t, errs[i], "expected size 1 (static), got 2", p)
	}
}
