package node_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

func TestArgOf(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want node.Arg
		ok   bool
	}{
		{nil, node.None, true},
		{3, node.Int(3), true},
		{int64(-2), node.Int(-2), true},
		{1.5, node.Float(1.5), true},
		{true, node.Bool(true), true},
		{"mean", node.Str("mean"), true},
		{ops.IntScalar(4), node.Int(4), true},
		{ops.FloatScalar(0.5), node.Float(0.5), true},
		{tensor.Float32, node.DType("float32"), true},
		{[]int{1, 2}, node.List{node.Int(1), node.Int(2)}, true},
		{[]int64{3}, node.List{node.Int(3)}, true},
		{[]float64{0.5, -1}, node.List{node.Float(0.5), node.Float(-1)}, true},
		{[]bool{true, false}, node.List{node.Bool(true), node.Bool(false)}, true},
		{[]string{"a"}, nil, false},
		{float32(1), nil, false},
	} {
		got, ok := node.ArgOf(tc.in)
		assert.Equal(t, tc.ok, ok, "%#v", tc.in)
		if tc.ok {
			assert.Equal(t, tc.want, got, "%#v", tc.in)
		}
	}
}
