package functional_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
)

// checkModel runs one check on the item of its input.
type checkModel struct {
	nn.Base
	check func(n nn.Value)
}

func (m *checkModel) Forward(k nn.Value) nn.Value {
	n := k.Item()
	m.check(n)
	return n
}

// TestChecksEager: run eagerly, item gives the number and the checks
// fail with the messages PyTorch 2.6 gives (torch._check,
// torch._check_is_size, torch._constrain_as_size; checked with
// ../shared/tools/torch2).
func TestChecksEager(t *testing.T) {
	const checkMsg = "Expected cond to be True, but got False. (Could this error message be improved? If so, please report an enhancement request to PyTorch.)"
	for _, tc := range []struct {
		name  string
		k     int64
		check func(n nn.Value)
		want  string // "" for no error
	}{
		{"check true", 3, func(n nn.Value) { F.Check(n.Gt(2)) }, ""},
		{"check false", 3, func(n nn.Value) { F.Check(n.Gt(3)) }, checkMsg},
		{"check message", 1, func(n nn.Value) { F.Check(n.Gt(2), "custom msg") }, "custom msg"},
		{"check go bool", 1, func(n nn.Value) { F.Check(false) }, checkMsg},
		{"is size", 0, func(n nn.Value) { F.CheckIsSize(n) }, ""},
		{"is size negative", -1, func(n nn.Value) { F.CheckIsSize(n) }, checkMsg},
		{"as size negative", -1, func(n nn.Value) { F.ConstrainAsSize(n, F.NoMin, F.NoMax) }, "Invalid value range for -1 between [0, 9223372036854775807]."},
		{"as size above max", 5, func(n nn.Value) { F.ConstrainAsSize(n, 0, 3) }, "Invalid value range for 5 between [0, 3]."},
		{"as size below min", 1, func(n nn.Value) { F.ConstrainAsSize(n, 2, F.NoMax) }, "Invalid value range for 1 between [2, 9223372036854775807]."},
		{"as value", -4, func(n nn.Value) { F.ConstrainAsValue(n, -5, 5) }, ""},
		{"as value outside", 6, func(n nn.Value) { F.ConstrainAsValue(n, -5, 5) }, "Invalid value range for 6 between [-5, 5]."},
		{"not an int", 1, func(n nn.Value) { F.CheckIsSize(nn.Of(1.5)) }, "torch._check_is_size: argument 0 must be an int, got float"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &checkModel{check: tc.check}
			m.Init(m, "Check")
			k, _ := tensor.FromInt64s(tensor.Int64, []int64{tc.k})
			out, err := nn.Run(m, nn.Tensor(k))
			if tc.want == "" {
				require.NoError(t, err)
				assert.Equal(t, tc.k, out.Int())
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "unbacked_test.go", "names the Go line")
		})
	}
}

// TestItemEager: item of a one-element tensor of each kind, and the
// error of PyTorch for any other element count.
func TestItemEager(t *testing.T) {
	f, _ := tensor.FromFloat64s(tensor.Float32, []float64{2.5}, 1)
	assert.Equal(t, 2.5, nn.Tensor(f).Item().Float())
	b, _ := tensor.FromFloat64s(tensor.Bool, []float64{1})
	assert.Equal(t, true, nn.Tensor(b).Item().Bool())
	two, _ := tensor.FromInt64s(tensor.Int64, []int64{1, 2}, 2)
	_, err := nn.ApplyMethod("item", []nn.Value{nn.Tensor(two)}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a Tensor with 2 elements cannot be converted to Scalar")
}
