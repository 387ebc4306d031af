package export_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
)

// kwScalars is gen_pt2.py's KwargsScalars: forward(x, *, bias, steps=3,
// scale=0.5) applies tanh(x*scale + bias) steps times.
type kwScalars struct{ nn.Base }

func (m *kwScalars) ArgNames() []string { return []string{"x", "bias", "steps", "scale"} }

func (m *kwScalars) Forward(x, bias, steps, scale nn.Value) nn.Value {
	for range steps.Int() {
		x = x.Mul(scale).Add(bias).Tanh()
	}
	return x
}

// userInputs lists a signature's user inputs as "name" or "name=value"
// (a constant input).
func userInputs(sig export.Signature) []string {
	var out []string
	for _, in := range sig.Inputs {
		if in.Kind != export.UserInput {
			continue
		}
		if _, isNone := in.Value.(node.NoneType); isNone {
			out = append(out, in.Name+"=None")
		} else if in.Value != nil {
			out = append(out, fmt.Sprintf("%s=%v", in.Name, in.Value))
		} else {
			out = append(out, in.Name)
		}
	}
	return out
}

// fold joins an io.json's multi-line spec repr onto one line.
func fold(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestExportKwargsScalarsLikePyTorch exports the Go equivalent of
// kwargs_scalars with its keyword inputs and compares the in spec, the
// user inputs (the int and the float keep placeholders as constant
// inputs) and the outputs with what PyTorch 2.6 wrote (../pt2/testdata's
// .pt2 and io.json); the program saves and reads back the same.
func TestExportKwargsScalarsLikePyTorch(t *testing.T) {
	io, err := pt2.ReadIO("../pt2/testdata/kwargs_scalars.io.json")
	require.NoError(t, err)
	want, err := pt2.Load("../pt2/testdata/kwargs_scalars.pt2")
	require.NoError(t, err)
	c := io.Cases[0]
	x, bias := c.Inputs[0].Tensor(), c.Inputs[1].Tensor()

	m := &kwScalars{}
	m.Init(m, "KwargsScalars")
	ep, err := export.Export(m, []any{x}, nil, export.Kwargs(map[string]any{"bias": bias, "steps": 3, "scale": 0.5}))
	require.NoError(t, err)
	assert.Equal(t, fold(io.InSpec), ep.InSpec().String())
	assert.Equal(t, want.InSpec().String(), ep.InSpec().String())
	assert.Equal(t, userInputs(want.Signature), userInputs(ep.Signature))
	assert.Equal(t, []string{"x", "bias", "steps=3", "scale=0.5"}, userInputs(ep.Signature))
	assert.Equal(t, want.ArgNames(), ep.ArgNames(), "forward_arg_names")

	out, err := ep.Call([]any{x}, map[string]any{"bias": bias, "steps": 3, "scale": 0.5})
	require.NoError(t, err)
	assert.True(t, tensor.AllClose(out.(*tensor.Tensor), c.Outputs[0].Tensor(), 1e-5, 1e-5, false))
	_, err = ep.Call([]any{x}, map[string]any{"bias": bias, "steps": 4, "scale": 0.5})
	assert.EqualError(t, err, "export: input steps: the program was exported with the value 3, which was specialized into the graph; got 4")
	_, err = ep.Call([]any{x}, map[string]any{"bias": bias, "steps": 3})
	assert.EqualError(t, err, `export: inputs[1]: missing key "scale" (expected ["bias" "steps" "scale"])`)

	var buf bytes.Buffer
	require.NoError(t, pt2.Save(&buf, ep, pt2.SaveOptions{}))
	back, err := pt2.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	assert.Equal(t, want.InSpec().String(), back.InSpec().String())
	assert.Equal(t, userInputs(want.Signature), userInputs(back.Signature))
	out, err = back.Call([]any{x}, map[string]any{"bias": bias, "steps": 3, "scale": 0.5})
	require.NoError(t, err)
	assert.True(t, tensor.AllClose(out.(*tensor.Tensor), c.Outputs[0].Tensor(), 1e-5, 1e-5, false))
}

// dictModel takes tied_dict's input, forward(batch) with batch =
// {"ids": int64[2, t], "mask": float32[2, t]}, and returns a dict and a
// tuple.
type dictModel struct{ nn.Base }

func (m *dictModel) ArgNames() []string { return []string{"batch"} }

func (m *dictModel) Forward(batch nn.Value) nn.Value {
	ids, mask := batch.Get("ids"), batch.Index("mask")
	h := mask.Mul(2.0)
	return nn.Tuple(nn.Dict([]string{"logits", "pooled"}, ids.Mul(3), h.Sum(1)), nn.Tuple(h.Mean()))
}

// TestExportDictLikePyTorch exports a model taking tied_dict's dict input
// with its dynamic spec ({"batch": {"ids": {1: t}, "mask": {1: t}}}, here
// keyed by the leaves' placeholder names) and compares the in spec, the
// user inputs' names and shapes and the range constraints with PyTorch
// 2.6's program.
func TestExportDictLikePyTorch(t *testing.T) {
	io, err := pt2.ReadIO("../pt2/testdata/tied_dict.io.json")
	require.NoError(t, err)
	want, err := pt2.Load("../pt2/testdata/tied_dict.pt2")
	require.NoError(t, err)
	c := io.Cases[0]
	ids, mask := c.Inputs[0].Tensor(), c.Inputs[1].Tensor()

	m := &dictModel{}
	m.Init(m, "DictModel")
	tdim := export.Dim("t", 2, 16)
	ep, err := export.Export(m, []any{map[string]*tensor.Tensor{"mask": mask, "ids": ids}}, export.Dims{"batch_ids": {1: tdim}, "batch_mask": {1: tdim}})
	require.NoError(t, err)
	assert.Equal(t, fold(io.InSpec), ep.InSpec().String())
	assert.Equal(t, want.InSpec().String(), ep.InSpec().String())
	assert.Equal(t, userInputs(want.Signature), userInputs(ep.Signature))
	assert.Equal(t, want.RangeConstraints, ep.RangeConstraints)
	assert.Equal(t, want.ArgNames(), ep.ArgNames(), "forward_arg_names")
	assert.Equal(t, "TreeSpec(tuple, None, [TreeSpec(dict, ['logits', 'pooled'], [*, *]), TreeSpec(tuple, None, [*])])", ep.OutSpec().String())
	text := ep.String()
	assert.Contains(t, text, `batch_ids: "i64[2, s0]", batch_mask: "f32[2, s0]"`)

	// Call with the nested input, as PyTorch's module() is called.
	long := tensor.Must(tensor.Ones(tensor.Int64, 2, 9))
	longMask := tensor.Must(tensor.Ones(tensor.Float32, 2, 9))
	out, err := ep.Call([]any{map[string]any{"ids": long, "mask": longMask}}, nil)
	require.NoError(t, err)
	d := out.([]any)[0].(map[string]any)
	assert.Equal(t, []int{2, 9}, d["logits"].(*tensor.Tensor).Shape())
	assert.Equal(t, []float64{18, 18}, d["pooled"].(*tensor.Tensor).Float64s())

	_, err = ep.Call([]any{map[string]any{"ids": long}}, nil)
	assert.EqualError(t, err, `export: inputs[0][0]: missing key "mask" (expected ["ids" "mask"])`)
	_, err = ep.Call([]any{[]any{long, longMask}}, nil)
	assert.EqualError(t, err, `export: inputs[0][0]: expected a dict with keys ["ids" "mask"], got a []interface {}`)
	_, err = ep.Run(map[string]any{"ids": long, "mask": long})
	assert.EqualError(t, err, "export: input batch_mask: expected dtype float32, got int64")
	res, err := ep.Run(nn.Dict([]string{"ids", "mask"}, nn.Tensor(long), nn.Tensor(longMask)))
	require.NoError(t, err)
	assert.Equal(t, []float64{18, 18}, res.Tuple()[0].Get("pooled").MustTensor().Float64s())
}
