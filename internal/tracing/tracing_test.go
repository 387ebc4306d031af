package tracing_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/tracing"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

func TestIsFramework(t *testing.T) {
	tests := []struct {
		fn   string
		want bool
	}{
		{"github.com/gofx/gofx/nn.Call", true},
		{"github.com/gofx/gofx/nn/functional.ReLU", true},
		{"github.com/gofx/gofx/internal/record.(*Recorder).Create", true},
		{"github.com/gofx/gofx/internal/tracing.StackTrace", true},
		{"github.com/gofx/gofx/internal/chain.(*Block).Forward", false},
		{"github.com/gofx/gofx/models.(*ResNet).Forward", false},
		{"main.(*Model).Forward", false},
		{"runtime.goexit", true},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, tracing.IsFramework(tc.fn), tc.fn)
	}
}

func TestLocationAndStackTraceName(t *testing.T) {
	loc := tracing.Location()
	assert.True(t, strings.Contains(loc, "tracing_test.go:"), loc)
	var sts []string
	for range 2 {
		sts = append(sts, tracing.StackTrace())
	}
	assert.Contains(t, sts[0], "tracing_test.go:")
	assert.Contains(t, sts[0], "in tracing_test.TestLocationAndStackTraceName")
	assert.Equal(t, sts[0], sts[1], "the same call stack gives the same (cached) text")
}

func TestSetSlotProxy(t *testing.T) {
	var b nn.Base
	x, err := tensor.New(tensor.Float32, 2)
	require.NoError(t, err)
	p := b.RegisterParameter("w", x)
	require.Same(t, x, p.Value().Tensor())
	tracing.SetSlotProxy(p, func() nn.Value { return nn.Of(7) })
	assert.Equal(t, int64(7), p.Value().Int())
	tracing.SetSlotProxy(p, nil)
	assert.Same(t, x, p.Value().Tensor())
}
