package ops_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// promoteData is testdata/promote.json (see gen_promote.py).
type promoteData struct {
	Promote    [][3]string `json:"promote"`
	ResultType []struct {
		Operands []string `json:"operands"`
		Want     string   `json:"want"`
	} `json:"result_type"`
}

func loadPromote(t *testing.T) *promoteData {
	t.Helper()
	b, err := os.ReadFile("testdata/promote.json")
	require.NoError(t, err)
	var d promoteData
	require.NoError(t, json.Unmarshal(b, &d))
	return &d
}

func mustDType(t *testing.T, s string) tensor.DType {
	t.Helper()
	dt, err := tensor.ParseDType(s)
	require.NoError(t, err)
	return dt
}

// TestPromoteTypesTable checks all 100 pairs against torch.promote_types.
func TestPromoteTypesTable(t *testing.T) {
	d := loadPromote(t)
	require.Len(t, d.Promote, 100)
	for _, p := range d.Promote {
		a, b, want := mustDType(t, p[0]), mustDType(t, p[1]), mustDType(t, p[2])
		assert.Equal(t, want, ops.PromoteTypes(a, b), "promote_types(%s, %s)", a, b)
	}
	// Invalid is the identity, as an undefined ScalarType is in ATen.
	for _, dt := range tensor.DTypes {
		assert.Equal(t, dt, ops.PromoteTypes(tensor.Invalid, dt))
		assert.Equal(t, dt, ops.PromoteTypes(dt, tensor.Invalid))
	}
}

// numberForms are the Go values a Python number may arrive as.
var numberForms = map[string][]any{
	"int":   {int64(3), 3, ops.IntScalar(3)},
	"float": {2.5, float32(2.5), ops.FloatScalar(2.5)},
	"bool":  {true, ops.BoolScalar(true)},
}

// TestResultTypeMatchesTorch checks ResultType against at::result_type for
// every pair of operand kinds (tensors with dimensions, 0-d tensors and
// wrapped numbers of every dtype) and for longer lists, with numbers in
// each Go form ResultType accepts.
func TestResultTypeMatchesTorch(t *testing.T) {
	d := loadPromote(t)
	require.Greater(t, len(d.ResultType), 900)
	for _, c := range d.ResultType {
		want := mustDType(t, c.Want)
		for form := 0; form < 3; form++ {
			operands := make([]any, len(c.Operands))
			for i, op := range c.Operands {
				kind, name, _ := strings.Cut(op, ":")
				switch kind {
				case "T":
					operands[i] = tensor.Must(tensor.NewMeta(mustDType(t, name), 2))
				case "S":
					operands[i] = tensor.Must(tensor.New(mustDType(t, name)))
				case "N":
					forms := numberForms[name]
					operands[i] = forms[form%len(forms)]
				}
			}
			got, err := ops.ResultType(operands...)
			require.NoError(t, err, "%v", c.Operands)
			assert.Equal(t, want, got, "result_type(%s) with numbers as %T", strings.Join(c.Operands, ", "), operands)
		}
	}
}

// ResultType handles the documented corner cases and rejects what is not
// an operand.
func TestResultTypeCorners(t *testing.T) {
	f16 := tensor.Must(tensor.NewMeta(tensor.Float16, 3))
	u8 := tensor.Must(tensor.NewMeta(tensor.Uint8, 3))
	i8zero := tensor.Must(tensor.NewMeta(tensor.Int8))
	tests := []struct {
		name     string
		operands []any
		want     tensor.DType
	}{
		{"dim beats 0-d of same category", []any{u8, i8zero}, tensor.Uint8},
		{"0-d float lifts integral dims", []any{u8, tensor.Must(tensor.NewMeta(tensor.Float64))}, tensor.Float64},
		{"float number takes the default dtype", []any{u8, 1.5}, tensor.Float32},
		{"float number does not widen a half tensor", []any{f16, 1e300}, tensor.Float16},
		{"int number does not widen uint8", []any{u8, int64(1000)}, tensor.Uint8},
		{"bool number does not change ints", []any{u8, true}, tensor.Uint8},
		{"nil tensors are skipped", []any{(*tensor.Tensor)(nil), u8}, tensor.Uint8},
		{"numbers alone", []any{int64(1), 2.5}, tensor.Float32},
		{"bools alone", []any{true, false}, tensor.Bool},
		{"0-d alone", []any{i8zero}, tensor.Int8},
		// A wrapped number (a Python number bound to a Tensor parameter)
		// is a number, not a 0-d float64 tensor: torch.result_type(u8, 1.5).
		{"wrapped float does not lift to float64", []any{u8, ops.FloatScalar(1.5).Wrapped()}, tensor.Float32},
		{"wrapped float under a 0-d int", []any{i8zero, ops.FloatScalar(1.5).Wrapped()}, tensor.Float32},
		{"wrapped int under a 0-d int", []any{i8zero, ops.IntScalar(1000).Wrapped()}, tensor.Int8},
	}
	for _, tt := range tests {
		got, err := ops.ResultType(tt.operands...)
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
	_, err := ops.ResultType()
	assert.ErrorContains(t, err, "no operands")
	_, err = ops.ResultType(u8, "x")
	assert.ErrorContains(t, err, "operand 1 is a str")
	_, err = ops.ResultType((*tensor.Tensor)(nil))
	assert.Error(t, err)
}

// BroadcastShapes follows torch.broadcast_shapes.
func TestBroadcastShapes(t *testing.T) {
	tests := []struct {
		shapes [][]int
		want   []int
		err    string
	}{
		{[][]int{{2, 3}, {3}}, []int{2, 3}, ""},
		{[][]int{{2, 1}, {1, 3}}, []int{2, 3}, ""},
		{[][]int{{5, 1, 4}, {3, 1}, {1}}, []int{5, 3, 4}, ""},
		{[][]int{{}, {2, 2}}, []int{2, 2}, ""},
		{[][]int{{}, {}}, []int{}, ""},
		{[][]int{}, []int{}, ""},
		{[][]int{{0}, {1}}, []int{0}, ""},
		{[][]int{{1}, {0}}, []int{0}, ""},
		{[][]int{{2, 0}, {2, 1}}, []int{2, 0}, ""},
		{[][]int{{3}, {0}}, nil, "the size of tensor a (3) must match the size of tensor b (0) at non-singleton dimension 0"},
		{[][]int{{2, 3}, {4}}, nil, "the size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"},
		{[][]int{{2, 3}, {2, 1}, {3, 3}}, nil, "non-singleton dimension 0"},
	}
	for _, tt := range tests {
		got, err := ops.BroadcastShapes(tt.shapes...)
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err, "%v", tt.shapes)
			continue
		}
		require.NoError(t, err, "%v", tt.shapes)
		assert.Equal(t, tt.want, got, "%v", tt.shapes)
	}
}
