package export_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// viewWrites writes through views of its input and of a buffer, as
//
//	x[0] = 1.0
//	self.b[1] = x[1]
//	x.view(-1).add_(1)
//	return x * 2
type viewWrites struct {
	nn.Base
	B *nn.Buffer
}

func (m *viewWrites) Forward(x nn.Value) nn.Value {
	nn.CallOp(nn.Op("aten::fill_.Scalar"), x.Index(0), 1.0)
	nn.CallOp(nn.Op("aten::copy_"), m.B.Value().Index(1), x.Index(1))
	x.View(-1).Add_(1)
	return x.Mul(2)
}

func newViewWrites(t *testing.T) *viewWrites {
	m := &viewWrites{}
	m.Init(m, "V")
	b, err := tensor.New(tensor.Float32, 4, 3)
	require.NoError(t, err)
	m.B = m.RegisterBuffer("b", b, true)
	return m
}

func arange12(t *testing.T) *tensor.Tensor {
	x, err := tensor.Arange(tensor.Float32, 0, 12, 1)
	require.NoError(t, err)
	x, err = x.Reshape(4, 3)
	require.NoError(t, err)
	return x
}

// TestViewWritesFunctionalized: writes through select and view views of
// a user input and a buffer are functionalized as torch.export 2.6 does
// (ep.run_decompositions() of the same model): the buffer and the input
// become a BUFFER_MUTATION and a USER_INPUT_MUTATION, and Run gives
// PyTorch's values: with x = arange(12).view(4, 3) and b = 0, the output
// is 2 * [[2, 2, 2], [4, 5, 6], [7, 8, 9], [10, 11, 12]], x becomes
// that halved and b [[0, 0, 0], [3, 4, 5], [0, 0, 0], [0, 0, 0]].
func TestViewWritesFunctionalized(t *testing.T) {
	m := newViewWrites(t)
	ep, err := export.Export(m, []any{arange12(t)}, nil)
	require.NoError(t, err)
	var outs []string
	for _, o := range ep.Signature.Outputs {
		outs = append(outs, o.Kind.String()+" "+o.Target)
	}
	assert.Equal(t, []string{"BUFFER_MUTATION b", "USER_INPUT_MUTATION x", "USER_OUTPUT "}, outs)

	x := arange12(t)
	out, err := ep.Run(x)
	require.NoError(t, err)
	xWant := []float64{2, 2, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	var outWant []float64
	for _, v := range xWant {
		outWant = append(outWant, 2*v)
	}
	assert.Equal(t, outWant, out.MustTensor().Float64s())
	assert.Equal(t, xWant, x.Float64s(), "x written back")
	assert.Equal(t, []float64{0, 0, 0, 3, 4, 5, 0, 0, 0, 0, 0, 0}, ep.StateDict()["b"].Float64s(), "b written back")
}

// staleView reads a view taken before its base was written.
type staleView struct{ nn.Base }

func (m *staleView) Forward(x nn.Value) nn.Value {
	row := x.Index(0)
	x.Add_(1)
	return row.Mul(2)
}

// TestStaleViewRefused: a view read after its base was written would
// hold the new values in PyTorch; Export refuses it, naming the line and
// the fix.
func TestStaleViewRefused(t *testing.T) {
	m := &staleView{}
	m.Init(m, "S")
	_, err := export.Export(m, []any{arange12(t)}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "aten.mul.Tensor at ")
	assert.Contains(t, err.Error(), lineOf(t, "return row.Mul(2)")+" reads select, a view taken at ")
	assert.Contains(t, err.Error(), lineOf(t, "row := x.Index(0)")+" of a tensor written since")
	assert.Contains(t, err.Error(), "take the view again after the write")
}

// permutedWrite writes through a transposed view.
type permutedWrite struct{ nn.Base }

func (m *permutedWrite) Forward(x nn.Value) nn.Value {
	x.T().Add_(1)
	return x
}

// TestUnsupportedViewWriteRefused: a write through a view other than
// select, slice or a reshape is refused with the line and the fix.
func TestUnsupportedViewWriteRefused(t *testing.T) {
	m := &permutedWrite{}
	m.Init(m, "P")
	_, err := export.Export(m, []any{arange12(t)}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), lineOf(t, "x.T().Add_(1)")+" writes through a view of x taken with aten.permute.default")
	assert.Contains(t, err.Error(), "are not functionalized")
}

// splitWrite writes into a piece of x.split(2).
type splitWrite struct{ nn.Base }

func (m *splitWrite) Forward(x nn.Value) nn.Value {
	x.Method("split", 2).Index(0).Add_(1)
	return x
}

// TestSplitViewWriteRefused: the pieces of split are views of x; writing
// one is refused (it was silently lost before).
func TestSplitViewWriteRefused(t *testing.T) {
	m := &splitWrite{}
	m.Init(m, "P")
	_, err := export.Export(m, []any{arange12(t)}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "writes through a view of x taken with aten.split_with_sizes.default")
}

// sliceWrite is x[1:3, 1:] *= 0 on a dynamic batch.
type sliceWrite struct{ nn.Base }

func (m *sliceWrite) Forward(x nn.Value) nn.Value {
	x.Index(nn.Slice(1, 3), nn.Slice(1, nil)).Mul_(0)
	return x.Add(1)
}

// TestSliceViewWrite: a write through a slice of a slice is written back
// with slice_scatter, also with a dynamic dimension.
func TestSliceViewWrite(t *testing.T) {
	m := &sliceWrite{}
	m.Init(m, "S")
	ep, err := export.Export(m, []any{arange12(t)}, export.Dims{"x": {0: export.Dim("n", 3, 10)}})
	require.NoError(t, err)
	assert.Contains(t, ep.String(), "torch.ops.aten.slice_scatter.default(")
	x, err := tensor.Arange(tensor.Float32, 0, 15, 1)
	require.NoError(t, err)
	x, err = x.Reshape(5, 3)
	require.NoError(t, err)
	out, err := ep.Run(x)
	require.NoError(t, err)
	want := []float64{0, 1, 2, 3, 0, 0, 6, 0, 0, 9, 10, 11, 12, 13, 14}
	assert.Equal(t, want, x.Float64s())
	for i := range want {
		want[i]++
	}
	assert.Equal(t, want, out.MustTensor().Float64s())
}

// lineOf returns "views_test.go:N" for the line of this file holding code.
func lineOf(t *testing.T, code string) string {
	t.Helper()
	data, err := os.ReadFile("views_test.go")
	require.NoError(t, err)
	for i, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == code {
			return fmt.Sprintf("views_test.go:%d", i+1)
		}
	}
	t.Fatalf("no line %q", code)
	return ""
}

// staleOutput returns a view taken before its base was written.
type staleOutput struct{ nn.Base }

func (m *staleOutput) Forward(x nn.Value) nn.Value {
	row := x.Index(0)
	x.Add_(1)
	return row
}

func TestStaleViewOutputRefused(t *testing.T) {
	m := &staleOutput{}
	m.Init(m, "S")
	_, err := export.Export(m, []any{arange12(t)}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the output reads select, a view taken at ")
}
