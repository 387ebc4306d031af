package functional_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/gofx/gofx/conformance"
	_ "github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// calls are the functional calls of ../testdata/gen_layers.py, with the
// same arguments.
var calls = map[string]func(a []nn.Value) nn.Value{
	"relu":         func(a []nn.Value) nn.Value { return F.ReLU(a[0]) },
	"relu6":        func(a []nn.Value) nn.Value { return F.ReLU6(a[0]) },
	"gelu":         func(a []nn.Value) nn.Value { return F.GELU(a[0], "") },
	"gelu_tanh":    func(a []nn.Value) nn.Value { return F.GELU(a[0], "tanh") },
	"silu":         func(a []nn.Value) nn.Value { return F.SiLU(a[0]) },
	"sigmoid":      func(a []nn.Value) nn.Value { return F.Sigmoid(a[0]) },
	"tanh":         func(a []nn.Value) nn.Value { return F.Tanh(a[0]) },
	"hardtanh":     func(a []nn.Value) nn.Value { return F.Hardtanh(a[0], -0.5, 0.5) },
	"leaky_relu":   func(a []nn.Value) nn.Value { return F.LeakyReLU(a[0], 0.1) },
	"hardswish":    func(a []nn.Value) nn.Value { return F.Hardswish(a[0]) },
	"softmax":      func(a []nn.Value) nn.Value { return F.Softmax(a[0], 0) },
	"log_softmax":  func(a []nn.Value) nn.Value { return F.LogSoftmax(a[0], -1) },
	"dropout_eval": func(a []nn.Value) nn.Value { return F.Dropout(a[0], 0.5, false) },
	"linear":       func(a []nn.Value) nn.Value { return F.Linear(a[0], a[1], a[2]) },
	"linear_nobias": func(a []nn.Value) nn.Value {
		return F.Linear(a[0], a[1], nn.None)
	},
	"conv1d": func(a []nn.Value) nn.Value {
		return F.Conv1d(a[0], a[1], a[2], F.ConvOptions{Stride: []int{2}, Padding: []int{1}})
	},
	"conv2d": func(a []nn.Value) nn.Value {
		return F.Conv2d(a[0], a[1], nn.None, F.ConvOptions{Stride: []int{1}, Padding: []int{1}, Dilation: []int{1}, Groups: 1})
	},
	"conv2d_groups_dil": func(a []nn.Value) nn.Value {
		return F.Conv2d(a[0], a[1], a[2], F.ConvOptions{Stride: []int{2, 1}, Padding: []int{2, 1}, Dilation: []int{2}, Groups: 2})
	},
	"conv_transpose2d": func(a []nn.Value) nn.Value {
		return F.ConvTranspose2d(a[0], a[1], a[2], F.ConvTransposeOptions{Stride: []int{2}, Padding: []int{1}, OutputPadding: []int{1}})
	},
	"batch_norm_eval": func(a []nn.Value) nn.Value {
		return F.BatchNorm(a[0], a[1], a[2], a[3], a[4], false, 0.1, 1e-5)
	},
	"batch_norm_train": func(a []nn.Value) nn.Value {
		return nn.Tuple(F.BatchNorm(a[0], a[1], a[2], nn.None, nn.None, true, 0.2, 1e-3), a[1], a[2])
	},
	"layer_norm":    func(a []nn.Value) nn.Value { return F.LayerNorm(a[0], []int{4}, a[1], a[2], 1e-5) },
	"layer_norm_2d": func(a []nn.Value) nn.Value { return F.LayerNorm(a[0], []int{3, 4}, nn.None, nn.None, 1e-3) },
	"group_norm":    func(a []nn.Value) nn.Value { return F.GroupNorm(a[0], 2, a[1], a[2], 1e-5) },
	"embedding":     func(a []nn.Value) nn.Value { return F.Embedding(a[0], a[1]) },
	"max_pool2d":    func(a []nn.Value) nn.Value { return F.MaxPool2d(a[0], []int{2}, F.MaxPoolOptions{}) },
	"max_pool2d_opts": func(a []nn.Value) nn.Value {
		return F.MaxPool2d(a[0], []int{3, 2}, F.MaxPoolOptions{Stride: []int{1}, Padding: []int{1}, Dilation: []int{1, 2}, CeilMode: true})
	},
	"avg_pool2d": func(a []nn.Value) nn.Value {
		return F.AvgPool2d(a[0], []int{3}, F.AvgPoolOptions{Stride: []int{2}, Padding: []int{1}, ExcludePad: true})
	},
	"avg_pool2d_div": func(a []nn.Value) nn.Value {
		return F.AvgPool2d(a[0], []int{2}, F.AvgPoolOptions{DivisorOverride: 3})
	},
	"adaptive_avg_pool2d": func(a []nn.Value) nn.Value { return F.AdaptiveAvgPool2d(a[0], []int{3, 2}) },
	"flatten":             func(a []nn.Value) nn.Value { return F.Flatten(a[0], 1, 2) },
	"cat":                 func(a []nn.Value) nn.Value { return F.Cat([]nn.Value{a[0], a[1]}, 1) },
	"sum_all":             func(a []nn.Value) nn.Value { return F.Sum(a[0], nil, false) },
	"sum_dims_keep":       func(a []nn.Value) nn.Value { return F.Sum(a[0], []int{0, 2}, true) },
	"mean_all":            func(a []nn.Value) nn.Value { return F.Mean(a[0], nil, false) },
	"mean_dim":            func(a []nn.Value) nn.Value { return F.Mean(a[0], []int{-1}, false) },
	"topk":                func(a []nn.Value) nn.Value { return F.TopK(a[0], 2, 1, true, true) },
	"topk_smallest":       func(a []nn.Value) nn.Value { return F.TopK(a[0], 3, 0, false, true) },
	"matmul":              func(a []nn.Value) nn.Value { return F.Matmul(a[0], a[1]) },
	"add":                 func(a []nn.Value) nn.Value { return F.Add(a[0], a[1], nn.None) },
	"add_alpha":           func(a []nn.Value) nn.Value { return F.Add(a[0], a[1], nn.Of(2.5)) },
	"add_scalar":          func(a []nn.Value) nn.Value { return F.Add(a[0], nn.Of(1.5), nn.None) },
	"sin":                 func(a []nn.Value) nn.Value { return F.Sin(a[0]) },
	"cos":                 func(a []nn.Value) nn.Value { return F.Cos(a[0]) },
	"exp":                 func(a []nn.Value) nn.Value { return F.Exp(a[0]) },
}

type refCall struct {
	Name   string            `json:"name"`
	Inputs []json.RawMessage `json:"inputs"`
	Output json.RawMessage   `json:"output"`
}

func decode(t *testing.T, raw json.RawMessage) nn.Value {
	t.Helper()
	v, err := conformance.DecodeArg(raw)
	require.NoError(t, err)
	return nn.Of(v)
}

// requireClose checks got against PyTorch's want: same dtype and shape,
// values within atol 1e-5 and rtol 1e-4 (element by element for tuples).
func requireClose(t *testing.T, got, want nn.Value) {
	t.Helper()
	if want.IsTuple() {
		require.True(t, got.IsTuple(), "got a %s, want a tuple", got.Kind())
		require.Equal(t, want.Len(), got.Len())
		for i := range want.Tuple() {
			requireClose(t, got.Index(i), want.Index(i))
		}
		return
	}
	g, w := got.Tensor(), want.Tensor()
	require.NotNil(t, g, "got a %s", got.Kind())
	require.Equal(t, w.DType(), g.DType())
	require.Equal(t, w.Shape(), g.Shape())
	require.True(t, tensor.AllClose(g, w, 1e-4, 1e-5, false), "got  %s\nwant %s", g.Repr(), w.Repr())
}

// run calls f on args the way model code runs: failures come back as
// errors.
func run(f func([]nn.Value) nn.Value, args []nn.Value) (out nn.Value, err error) {
	defer nn.Recover(&err)
	return f(args), nil
}

func TestFunctionalAgainstPyTorch(t *testing.T) {
	data, err := os.ReadFile("../testdata/layers.json")
	require.NoError(t, err)
	var ref struct {
		Functional []refCall `json:"functional"`
	}
	require.NoError(t, json.Unmarshal(data, &ref))
	require.NotEmpty(t, ref.Functional)
	seen := map[string]bool{}
	for _, c := range ref.Functional {
		seen[c.Name] = true
		t.Run(c.Name, func(t *testing.T) {
			f, ok := calls[c.Name]
			require.True(t, ok, "no Go call for %s", c.Name)
			args := make([]nn.Value, len(c.Inputs))
			for i, raw := range c.Inputs {
				args[i] = decode(t, raw)
			}
			out, err := run(f, args)
			require.NoError(t, err)
			requireClose(t, out, decode(t, c.Output))
		})
	}
	for name := range calls {
		assert.True(t, seen[name], "%s has no reference case", name)
	}
}

func TestFunctionalErrors(t *testing.T) {
	randn := func(shape ...int) nn.Value {
		return nn.Tensor(tensor.Must(tensor.NewGenerator(1).Randn(tensor.Float32, shape...)))
	}
	for _, c := range []struct {
		name string
		f    func() nn.Value
		want []string
	}{
		{"conv2d rank", func() nn.Value { return F.Conv2d(randn(2, 3), randn(4, 3, 3, 3), nn.None, F.ConvOptions{}) }, []string{"aten::conv2d", "input"}},
		{"conv2d channels", func() nn.Value { return F.Conv2d(randn(1, 2, 5, 5), randn(4, 3, 3, 3), nn.None, F.ConvOptions{}) }, []string{"aten::conv2d", "channels"}},
		{"conv2d negative stride", func() nn.Value {
			return F.Conv2d(randn(1, 3, 5, 5), randn(4, 3, 3, 3), nn.None, F.ConvOptions{Stride: []int{-1}})
		}, []string{"aten::conv2d", "stride"}},
		{"dropout p", func() nn.Value { return F.Dropout(randn(2), 2, false) }, []string{"dropout probability has to be between 0 and 1"}},
		{"batch_norm one value", func() nn.Value {
			return F.BatchNorm(randn(1, 3), nn.None, nn.None, nn.None, nn.None, true, 0.1, 1e-5)
		}, []string{"Expected more than 1 value per channel when training, got input size [1, 3]"}},
		{"cat shapes", func() nn.Value { return F.Cat([]nn.Value{randn(2, 3), randn(3, 3)}, 1) }, []string{"aten::cat"}},
		{"topk k", func() nn.Value { return F.TopK(randn(2, 3), 4, 1, true, true) }, []string{"aten::topk"}},
		{"matmul shapes", func() nn.Value { return F.Matmul(randn(2, 3), randn(2, 3)) }, []string{"aten::matmul"}},
		{"layer_norm shape", func() nn.Value { return F.LayerNorm(randn(2, 3), []int{4}, nn.None, nn.None, 1e-5) }, []string{"layer_norm"}},
		{"group_norm groups", func() nn.Value { return F.GroupNorm(randn(2, 3, 4), 2, nn.None, nn.None, 1e-5) }, []string{"group_norm"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { _, err = run(func([]nn.Value) nn.Value { return c.f() }, nil) })
			require.Error(t, err)
			for _, w := range c.want {
				assert.Contains(t, err.Error(), w)
			}
			t.Log(err)
		})
	}
}
