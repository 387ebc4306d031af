package export_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// reshapeAdd is x.reshape(-1, 3) + y[0].
type reshapeAdd struct{ nn.Base }

func (m *reshapeAdd) Forward(x, y nn.Value) nn.Value {
	return x.Reshape(-1, 3).Add(y.Index(0))
}

// addXY is x + y.
type addXY struct{ nn.Base }

func (m *addXY) Forward(x, y nn.Value) nn.Value { return x.Add(y) }

// firstFive is x[:5] * 2 when x.shape[0] > 5, x otherwise.
type firstFive struct{ nn.Base }

func (m *firstFive) Forward(x nn.Value) nn.Value {
	if x.Size(0).Gt(5).Bool() {
		return x.Index(nn.Slice(5)).Mul(2)
	}
	return x
}

func full(t *testing.T, shape ...int) *tensor.Tensor {
	t.Helper()
	x, err := tensor.Full(tensor.Float32, 1, shape...)
	require.NoError(t, err)
	return x
}

// TestAutoDims: with AllAuto (torch.export's Dim.AUTO on every dim),
// every dimension is dynamic unless the program specializes it. The
// expected programs are PyTorch 2.6's for the same models:
//
//	x.reshape(-1, 3) + y[0], x [4, 3], y [2, 3]: x f32[s0, 3], y f32[s2, 3]
//	x + y, both [4, 3]: x and y f32[s0, s1] (one symbol per dim)
//	x[:5]*2 if x.shape[0] > 5, x [8, 3]: x f32[s0, s1], s0 in [6, int_oo]
func TestAutoDims(t *testing.T) {
	type model interface {
		nn.Module
		Init(nn.Module, string)
	}
	for _, tc := range []struct {
		name   string
		m      nn.Module
		args   []any
		shapes []string
		ranges []sym.Range
		notes  []string
	}{
		{"reshape", &reshapeAdd{}, []any{full(t, 4, 3), full(t, 2, 3)},
			[]string{"f32[s0, 3]", "f32[s1, 3]"}, []sym.Range{{Lo: 2, Hi: export.Inf}, {Lo: 2, Hi: export.Inf}},
			[]string{"x0.shape[1]: static: specialized to 3 (guard Eq(Mod(x0.shape[0]*x0.shape[1], 3), 0) at export/auto_test.go:21)",
				"x1.shape[1]: static: specialized to 3 (guard Eq(3, x1.shape[1]) at export/auto_test.go:21)"}},
		{"equal", &addXY{}, []any{full(t, 4, 3), full(t, 4, 3)},
			[]string{"f32[s0, s1]", "f32[s0, s1]"}, []sym.Range{{Lo: 2, Hi: export.Inf}, {Lo: 2, Hi: export.Inf}},
			[]string{"x0.shape[1], x1.shape[1]: x0.shape[1] and x1.shape[1] are one dimension (guard Eq(x0.shape[1], x1.shape[1]) at export/auto_test.go:27)",
				"x0.shape[0], x1.shape[0]: x0.shape[0] and x1.shape[0] are one dimension (guard Eq(x0.shape[0], x1.shape[0]) at export/auto_test.go:27)"}},
		{"bound", &firstFive{}, []any{full(t, 8, 3)},
			[]string{"f32[s0, s1]"}, []sym.Range{{Lo: 6, Hi: export.Inf}, {Lo: 2, Hi: export.Inf}},
			[]string{"x.shape[0]: range narrowed: x.shape[0] > 5 (guard x.shape[0] > 5 at export/auto_test.go:33)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.m.(model).Init(tc.m, "M")
			var notes []export.Specialization
			ep, err := export.Export(tc.m, tc.args, nil, export.AllAuto(), export.Specializations(&notes))
			require.NoError(t, err)
			text := ep.String()
			def := text[strings.Index(text, "def forward"):]
			def = def[:strings.Index(def, "\n")]
			for i, s := range tc.shapes {
				name := fmt.Sprintf("x%d", i)
				if len(tc.shapes) == 1 {
					name = "x"
				}
				assert.Contains(t, def, fmt.Sprintf("%s: %q", name, s))
			}
			var ranges []sym.Range
			for _, s := range ep.Env.Symbols() {
				ranges = append(ranges, ep.RangeConstraints[s.Name()])
			}
			assert.Equal(t, tc.ranges, ranges)
			var got []string
			for _, n := range notes {
				got = append(got, stripPaths(n.String()))
			}
			assert.Equal(t, tc.notes, got)
		})
	}
}

// TestAutoRuns: a program exported with AllAuto runs on other sizes.
func TestAutoRuns(t *testing.T) {
	m := &reshapeAdd{}
	m.Init(m, "M")
	ep, err := export.Export(m, []any{full(t, 4, 3), full(t, 2, 3)}, nil, export.AllAuto())
	require.NoError(t, err)
	out, err := ep.Run(full(t, 7, 3), full(t, 5, 3))
	require.NoError(t, err)
	assert.Equal(t, []int{7, 3}, out.MustTensor().Shape())
	_, err = ep.Run(full(t, 7, 4), full(t, 5, 3))
	require.Error(t, err)
}

// TestAutoKeepsDeclaredDims: a dimension declared with Dim still fails
// Export when the model specializes it, with AllAuto or Auto beside it;
// Auto on one dim leaves the others static.
func TestAutoKeepsDeclaredDims(t *testing.T) {
	m := &reshapeAdd{}
	m.Init(m, "M")
	dims := export.Dims{"x1": {1: export.Dim("c", 2, 10)}}
	_, err := export.Export(m, []any{full(t, 4, 3), full(t, 2, 3)}, dims, export.AllAuto())
	var ge *export.GuardError
	require.ErrorAs(t, err, &ge)
	// Eq(3, s3): the constant on the left is still a specialization.
	assert.Regexp(t, `dimension c \(s\d\) was specialized to 3`, err.Error())

	ep, err := export.Export(m, []any{full(t, 4, 3), full(t, 2, 3)}, export.Dims{"x1": {0: export.Auto}})
	require.NoError(t, err)
	assert.Contains(t, ep.String(), `def forward(self, x0: "f32[4, 3]", x1: "f32[s0, 3]")`)
}

// convNet is Conv2d(3, 8, 3) then ReLU.
type convNet struct {
	nn.Base
	Conv *nn.Conv2d
}

func (m *convNet) Forward(x nn.Value) nn.Value { return m.Conv.Call(x).Relu() }

// TestAutoConvChannels: PyTorch 2.6 exports Conv2d(3, 8, 3) on a
// [2, 3, 32, 32] input with every dim AUTO as f32[s0, 3, s2, s3]: the
// channels are specialized to the weight's, the spatial dims narrowed.
func TestAutoConvChannels(t *testing.T) {
	m := &convNet{}
	m.Init(m, "M")
	m.Conv = nn.RegisterModule(&m.Base, "conv", nn.NewConv2d(3, 8, 3))
	var notes []export.Specialization
	ep, err := export.Export(m, []any{full(t, 2, 3, 32, 32)}, nil, export.AllAuto(), export.Specializations(&notes))
	require.NoError(t, err)
	assert.Contains(t, ep.String(), `x: "f32[s0, 3, s1, s2]"`)
	require.Len(t, notes, 3)
	assert.Contains(t, notes[0].String(), "x.shape[1]: static: specialized to 3 (guard Eq(x.shape[1], 3) at ")
	// The 3x3 kernel narrows the spatial dims to [3, int_oo], as PyTorch's
	// range constraints say (TestAutoConvSpatialRange).
	assert.Contains(t, notes[1].String(), "x.shape[2]: range narrowed: x.shape[2] >= 3 (guard x.shape[2] >= 3 at ")
	assert.Contains(t, notes[2].String(), "x.shape[3]: range narrowed: x.shape[3] >= 3 (guard x.shape[3] >= 3 at ")
}

// TestAutoConvSpatialRange: PyTorch 2.6 exports Conv2d(3, 8, 3) with the
// batch and spatial dims AUTO with ranges {s0: [2, int_oo], s1: [3,
// int_oo], s2: [3, int_oo]}, and Conv2d(3, 8, 5, stride=2, padding=1,
// dilation=2) with the spatial dims in [7, int_oo]: the padded input must
// hold the dilated kernel (PyTorch 2.6, torch.export.export with Dim.AUTO;
// ranges copied from its range_constraints).
func TestAutoConvSpatialRange(t *testing.T) {
	for _, tc := range []struct {
		name string
		conv *nn.Conv2d
		want string
	}{
		{"3x3", nn.NewConv2d(3, 8, 3), "Range constraints: {s0: VR[2, int_oo], s1: VR[3, int_oo], s2: VR[3, int_oo]}"},
		{"5x5 dilated", nn.NewConv2d(3, 8, 5, nn.Stride(2), nn.Padding(1), nn.Dilation(2)), "Range constraints: {s0: VR[2, int_oo], s1: VR[7, int_oo], s2: VR[7, int_oo]}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &convNet{}
			m.Init(m, "M")
			m.Conv = nn.RegisterModule(&m.Base, "conv", tc.conv)
			ep, err := export.Export(m, []any{full(t, 2, 3, 32, 32)}, export.Dims{"x": {0: export.Auto, 2: export.Auto, 3: export.Auto}})
			require.NoError(t, err)
			assert.Contains(t, ep.String(), tc.want)
		})
	}
}
