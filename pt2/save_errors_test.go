package pt2_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
)

// repeat adds x to itself n times: export specializes the int n.
type repeat struct{ nn.Base }

func (m *repeat) ArgNames() []string { return []string{"x", "n"} }

func (m *repeat) Forward(x, n nn.Value) nn.Value {
	y := x
	for i := int64(0); i < n.Int(); i++ {
		y = y.Add(x)
	}
	return y
}

// TestSaveErrors: what Save cannot write is an error saying what and why,
// and nothing is written.
func TestSaveErrors(t *testing.T) {
	var buf bytes.Buffer
	err := pt2.Save(&buf, nil, pt2.SaveOptions{})
	assert.EqualError(t, err, "pt2: save: no program")

	m := &repeat{}
	m.Init(m, "Repeat")
	x := tensor.Must(tensor.Ones(tensor.Float32, 2))
	ep, err := export.Export(m, []any{x, 2}, nil)
	require.NoError(t, err)
	// The int input is a constant input with a placeholder, as
	// torch.export makes it (kwargs_scalars): it saves.
	require.NoError(t, pt2.Save(&buf, ep, pt2.SaveOptions{}))
	buf.Reset()

	err = pt2.Save(&buf, ep, pt2.SaveOptions{Format: pt2.Format(7)})
	assert.EqualError(t, err, "pt2: save: unknown format Layout(7)")

	ep2, err := export.Export(nn.Eval(newTiny()), []any{tensor.Must(tensor.Ones(tensor.Float32, 3, 4))}, nil)
	require.NoError(t, err)
	err = pt2.Save(&buf, ep2, pt2.SaveOptions{ExampleArgs: []any{struct{}{}}})
	assert.EqualError(t, err, "pt2: save: example input 0: a struct {} has no torch.save form")
}
