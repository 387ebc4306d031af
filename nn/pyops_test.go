package nn_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// TestPythonOperatorsOnNumbers checks Value arithmetic on two numbers
// against Python 3's results (written out from the interpreter): floor
// division and modulo round toward negative infinity, / is true division,
// bools count as ints.
func TestPythonOperatorsOnNumbers(t *testing.T) {
	cases := []struct {
		name string
		got  nn.Value
		want any
	}{
		{"7+2", nn.Of(7).Add(2), int64(9)},
		{"7-2.5", nn.Of(7).Sub(2.5), 4.5},
		{"6*7", nn.Of(6).Mul(7), int64(42)},
		{"True*3", nn.Of(true).Mul(3), int64(3)},
		{"7/2", nn.Of(7).Div(2), 3.5},
		{"-7//2", nn.Of(-7).FloorDiv(2), int64(-4)},
		{"7//-2", nn.Of(7).FloorDiv(-2), int64(-4)},
		{"-7%2", nn.Of(-7).Mod(2), int64(1)},
		{"7%-2", nn.Of(7).Mod(-2), int64(-1)},
		{"7.5//2", nn.Of(7.5).FloorDiv(2), 3.0},
		{"-7.5%2", nn.Of(-7.5).Mod(2), 0.5},
		{"2**10", nn.Of(2).Pow(10), int64(1024)},
		{"2**-1", nn.Of(2).Pow(-1), 0.5},
		{"-(3)", nn.Of(3).Neg(), int64(-3)},
		{"3==3.0", nn.Of(3).Eq(3.0), true},
		{"3!=3", nn.Of(3).Ne(3), false},
		{"2<3", nn.Of(2).Lt(3), true},
		{"3<=3", nn.Of(3).Le(3), true},
		{"2>3", nn.Of(2).Gt(3), false},
		{"3>=2.5", nn.Of(3).Ge(2.5), true},
		{"nan==nan", nn.Of(math.NaN()).Eq(math.NaN()), false},
		{"nan!=nan", nn.Of(math.NaN()).Ne(math.NaN()), true},
		{"nan<1", nn.Of(math.NaN()).Lt(1), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, c.got.Any())
		})
	}
}

// TestPythonOperatorErrors checks division by zero and non-number operands.
func TestPythonOperatorErrors(t *testing.T) {
	_, err := nn.ApplyFunction(nn.OperatorFloorDiv, []nn.Value{nn.Of(1), nn.Of(0)}, nil)
	assert.ErrorContains(t, err, "division or modulo by zero")
	_, err = nn.ApplyFunction(nn.OperatorMod, []nn.Value{nn.Of(1), nn.Of(0)}, nil)
	assert.ErrorContains(t, err, "division or modulo by zero")
	_, err = nn.ApplyFunction(nn.OperatorTrueDiv, []nn.Value{nn.Of(1), nn.Of(0.0)}, nil)
	assert.ErrorContains(t, err, "division by zero")
	_, err = nn.ApplyFunction(nn.OperatorMul, []nn.Value{nn.Of("a"), nn.Of(2)}, nil)
	assert.ErrorContains(t, err, "operand 0 must be a number, got str")
	_, err = nn.ApplyFunction(nn.OperatorAdd, []nn.Value{nn.Of(1)}, nil)
	assert.ErrorContains(t, err, "takes 2 arguments")
}

// TestTensorOperatorsStillUseAten checks that a tensor operand keeps the
// aten operators (floor_divide, remainder, the comparisons).
func TestTensorOperatorsStillUseAten(t *testing.T) {
	x32, err := tensor.FromFloat64s(tensor.Float32, []float64{-7, 7}, 2)
	require.NoError(t, err)
	v := nn.Tensor(x32)
	assert.Equal(t, []float64{-4, 3}, v.FloorDiv(2).MustTensor().Float64s())
	assert.Equal(t, []float64{1, 1}, v.Mod(2).MustTensor().Float64s())
	assert.Equal(t, []bool{true, false}, v.Le(0).MustTensor().Bools())
	assert.Equal(t, []bool{false, true}, v.Ge(0).MustTensor().Bools())
	assert.Equal(t, []bool{true, false}, v.Ne(7).MustTensor().Bools())
}
