package nn_test

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/gofx/gofx/conformance"
	_ "github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// layerCases are the layers of testdata/gen_layers.py, built with the same
// hyper-parameters.
var layerCases = map[string]func() nn.Module{
	"conv1d": func() nn.Module { return nn.NewConv1d(2, 4, 3) },
	"conv1d_s2_p1_d2_nobias": func() nn.Module {
		return nn.NewConv1d(2, 4, 3, nn.Stride(2), nn.Padding(1), nn.Dilation(2), nn.Bias(false))
	},
	"conv2d_p1": func() nn.Module { return nn.NewConv2d(3, 8, 3, nn.Padding(1)) },
	"conv2d_rect_s2_g2_nobias": func() nn.Module {
		return nn.NewConv2d(4, 6, []int{3, 2}, nn.Stride(2, 1), nn.Padding(1, 0), nn.Groups(2), nn.Bias(false))
	},
	"conv2d_dil2_unbatched": func() nn.Module { return nn.NewConv2d(2, 3, 3, nn.Dilation(2)) },
	"conv2d_depthwise":      func() nn.Module { return nn.NewConv2d(4, 4, 3, nn.Stride(2), nn.Padding(1), nn.Groups(4)) },
	"convt2d":               func() nn.Module { return nn.NewConvTranspose2d(4, 2, 3) },
	"convt2d_s2_p1_op1": func() nn.Module {
		return nn.NewConvTranspose2d(4, 6, 3, nn.Stride(2), nn.Padding(1), nn.OutputPadding(1), nn.Groups(2))
	},
	"convt2d_dil_nobias": func() nn.Module {
		return nn.NewConvTranspose2d(2, 3, []int{2, 3}, nn.Stride(1, 2), nn.Dilation(2), nn.Bias(false))
	},
	"bn2d_eval":                  func() nn.Module { return nn.NewBatchNorm2d(3) },
	"bn2d_train":                 func() nn.Module { return nn.NewBatchNorm2d(3) },
	"bn2d_train_mom_eps":         func() nn.Module { return nn.NewBatchNorm2d(3, nn.Eps(1e-3), nn.Momentum(0.3)) },
	"bn2d_train_cumulative":      func() nn.Module { return nn.NewBatchNorm2d(2, nn.CumulativeAverage()) },
	"bn2d_noaffine_notrack_eval": func() nn.Module { return nn.NewBatchNorm2d(3, nn.Affine(false), nn.TrackRunningStats(false)) },
	"bn1d_train_2d":              func() nn.Module { return nn.NewBatchNorm1d(4) },
	"bn1d_eval_3d":               func() nn.Module { return nn.NewBatchNorm1d(4) },
	"layernorm":                  func() nn.Module { return nn.NewLayerNorm(8) },
	"layernorm_2d_noaffine":      func() nn.Module { return nn.NewLayerNorm([]int{3, 4}, nn.Eps(1e-3), nn.Affine(false)) },
	"groupnorm":                  func() nn.Module { return nn.NewGroupNorm(2, 4) },
	"groupnorm_noaffine":         func() nn.Module { return nn.NewGroupNorm(3, 6, nn.Eps(1e-3), nn.Affine(false)) },
	"embedding":                  func() nn.Module { return nn.NewEmbedding(10, 3) },
	"embedding_pad":              func() nn.Module { return nn.NewEmbedding(6, 4, nn.PaddingIdx(-2)) },
	"relu6":                      func() nn.Module { return nn.NewReLU6() },
	"gelu":                       func() nn.Module { return nn.NewGELU("") },
	"gelu_tanh":                  func() nn.Module { return nn.NewGELU("tanh") },
	"silu":                       func() nn.Module { return nn.NewSiLU() },
	"sigmoid":                    func() nn.Module { return nn.NewSigmoid() },
	"tanh":                       func() nn.Module { return nn.NewTanh() },
	"hardtanh":                   func() nn.Module { return nn.NewHardtanh(-2, 0.5) },
	"leakyrelu":                  func() nn.Module { return nn.NewLeakyReLU(0.2) },
	"leakyrelu_default":          func() nn.Module { return nn.NewLeakyReLU(0.01) },
	"hardswish":                  func() nn.Module { return nn.NewHardswish() },
	"softmax":                    func() nn.Module { return nn.NewSoftmax(1) },
	"softmax_neg":                func() nn.Module { return nn.NewSoftmax(-1) },
	"dropout_eval":               func() nn.Module { return nn.NewDropout(0.25) },
	"maxpool2d":                  func() nn.Module { return nn.NewMaxPool2d(2) },
	"maxpool2d_k3_s2_p1":         func() nn.Module { return nn.NewMaxPool2d(3, nn.Stride(2), nn.Padding(1)) },
	"maxpool2d_rect_ceil_dil": func() nn.Module {
		return nn.NewMaxPool2d([]int{3, 2}, nn.Stride(2, 1), nn.Dilation(1, 2), nn.CeilMode(true))
	},
	"avgpool2d":             func() nn.Module { return nn.NewAvgPool2d(2) },
	"avgpool2d_pad_nocount": func() nn.Module { return nn.NewAvgPool2d(3, nn.Stride(2), nn.Padding(1), nn.CountIncludePad(false)) },
	"avgpool2d_ceil_div": func() nn.Module {
		return nn.NewAvgPool2d([]int{2, 3}, nn.Stride(2, 2), nn.CeilMode(true), nn.DivisorOverride(4))
	},
	"adaptiveavgpool2d_1":   func() nn.Module { return nn.NewAdaptiveAvgPool2d(1) },
	"adaptiveavgpool2d_2x3": func() nn.Module { return nn.NewAdaptiveAvgPool2d([]int{2, 3}) },
	"flatten":               func() nn.Module { return nn.NewFlatten(1, -1) },
	"flatten_0_2":           func() nn.Module { return nn.NewFlatten(0, 2) },
	"identity":              func() nn.Module { return nn.NewIdentity() },
	"linear":                func() nn.Module { return nn.NewLinear(5, 3, true) },
	"linear_nobias":         func() nn.Module { return nn.NewLinear(5, 3, false) },
}

type refLayer struct {
	Name  string                     `json:"name"`
	Repr  string                     `json:"repr"`
	Keys  []string                   `json:"keys"`
	State map[string]json.RawMessage `json:"state"`
	Train bool                       `json:"train"`
	Calls []struct {
		Input  json.RawMessage `json:"input"`
		Output json.RawMessage `json:"output"`
	} `json:"calls"`
	After map[string]json.RawMessage `json:"after"`
}

func readLayerCases(t *testing.T) []refLayer {
	t.Helper()
	data, err := os.ReadFile("testdata/layers.json")
	require.NoError(t, err)
	var ref struct {
		Layers []refLayer `json:"layers"`
	}
	require.NoError(t, json.Unmarshal(data, &ref))
	require.NotEmpty(t, ref.Layers)
	return ref.Layers
}

func decodeTensor(t *testing.T, raw json.RawMessage) *tensor.Tensor {
	t.Helper()
	v, err := conformance.DecodeArg(raw)
	require.NoError(t, err)
	x, ok := v.(*tensor.Tensor)
	require.True(t, ok, "expected a tensor, got %T", v)
	return x
}

// requireClose checks got against PyTorch's want: same dtype and shape,
// values within atol 1e-5 and rtol 1e-4.
func requireClose(t *testing.T, got, want *tensor.Tensor, what string) {
	t.Helper()
	require.NotNil(t, got, what)
	require.Equal(t, want.DType(), got.DType(), what)
	require.Equal(t, want.Shape(), got.Shape(), what)
	require.True(t, tensor.AllClose(got, want, 1e-4, 1e-5, false), "%s:\ngot  %s\nwant %s", what, got.Repr(), want.Repr())
}

func TestLayersAgainstPyTorch(t *testing.T) {
	cases := readLayerCases(t)
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.Name] = true
		t.Run(c.Name, func(t *testing.T) {
			ctor, ok := layerCases[c.Name]
			require.True(t, ok, "no Go constructor for %s", c.Name)
			m := ctor()
			require.NoError(t, nn.Err(m))
			assert.Equal(t, c.Repr, nn.Repr(m))
			require.Equal(t, c.Keys, nn.StateDict(m).Names())

			sd := torchio.NewStateDict()
			for _, k := range c.Keys {
				sd.Set(k, decodeTensor(t, c.State[k]))
			}
			_, err := nn.LoadState(m, sd, nn.LoadOptions{})
			require.NoError(t, err)
			nn.Train(m, c.Train)
			for i, call := range c.Calls {
				out, err := nn.Run(m, nn.Tensor(decodeTensor(t, call.Input)))
				require.NoError(t, err, "call %d", i)
				requireClose(t, out.Tensor(), decodeTensor(t, call.Output), "output")
			}
			if c.Train {
				after := nn.StateDict(m)
				require.Equal(t, c.Keys, after.Names())
				for _, k := range c.Keys {
					got, _ := after.Get(k)
					requireClose(t, got, decodeTensor(t, c.After[k]), k)
				}
			}
		})
	}
	for name := range layerCases {
		assert.True(t, seen[name], "%s has no reference case in testdata/layers.json", name)
	}
}

func TestDropoutTraining(t *testing.T) {
	x := tensor.Must(tensor.NewGenerator(2).Randn(tensor.Float32, 3, 4))
	// Training-mode dropout with 0 < p < 1 draws a mask from the kernels'
	// generator: every element is dropped (0) or scaled by 1/(1-p).
	out, err := nn.Run(nn.NewDropout(0.25), nn.Tensor(x))
	require.NoError(t, err)
	for i, v := range out.Tensor().Float64s() {
		want := float64(float32(x.Float64s()[i]) / float32(0.75))
		assert.True(t, v == 0 || math.Abs(v-want) <= 1e-6*math.Abs(want), "element %d: %v is neither 0 nor x/(1-p)", i, v)
	}

	out, err = nn.Run(nn.NewDropout(0), nn.Tensor(x))
	require.NoError(t, err)
	requireClose(t, out.Tensor(), x, "p=0")
	out, err = nn.Run(nn.NewDropout(1), nn.Tensor(x))
	require.NoError(t, err)
	requireClose(t, out.Tensor(), tensor.Must(tensor.Zeros(tensor.Float32, 3, 4)), "p=1")

	d := nn.Eval(nn.NewDropout(0.25))
	out, err = nn.Run(d, nn.Tensor(x))
	require.NoError(t, err)
	assert.Same(t, x, out.Tensor(), "eval mode returns the input")
}

func TestBatchNormRunningStatsOnlyInTraining(t *testing.T) {
	bn := nn.NewBatchNorm2d(2)
	x := tensor.Must(tensor.NewGenerator(3).Randn(tensor.Float32, 2, 2, 3, 3))
	nn.Eval(bn)
	_, err := nn.Run(bn, nn.Tensor(x))
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 0}, bn.RunningMean.Tensor().Float64s())
	assert.Equal(t, []float64{0}, bn.NumBatchesTracked.Tensor().Float64s())
	nn.Train(bn, true)
	_, err = nn.Run(bn, nn.Tensor(x))
	require.NoError(t, err)
	assert.Equal(t, []float64{1}, bn.NumBatchesTracked.Tensor().Float64s())
	assert.NotEqual(t, []float64{0, 0}, bn.RunningMean.Tensor().Float64s())
}

func TestLayerConstructionErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		m    nn.Module
		want string
	}{
		{"conv negative channels", nn.NewConv2d(-1, 8, 3), "in_channels and out_channels must be non-negative"},
		{"conv negative kernel", nn.NewConv2d(3, 8, -3), "kernel_size must be at least 1, got -3"},
		{"conv zero stride", nn.NewConv1d(3, 8, 3, nn.Stride(0)), "stride must be at least 1"},
		{"conv negative padding", nn.NewConv2d(3, 8, 3, nn.Padding(1, -1)), "padding must be at least 0, got (1, -1)"},
		{"conv kernel length", nn.NewConv2d(3, 8, []int{3}), "kernel_size must be an int or 2 ints, got 1"},
		{"conv groups", nn.NewConv2d(3, 8, 3, nn.Groups(2)), "in_channels must be divisible by groups"},
		{"conv out groups", nn.NewConv2d(4, 6, 3, nn.Groups(4)), "out_channels must be divisible by groups"},
		{"conv zero groups", nn.NewConv2d(4, 6, 3, nn.Groups(0)), "groups must be a positive integer"},
		{"conv output padding", nn.NewConv2d(3, 8, 3, nn.OutputPadding(1)), "Conv2d: unexpected option output_padding"},
		{"conv padding mode", nn.NewConv2d(3, 8, 3, nn.PaddingMode("reflect")), "padding_mode='reflect' is not supported"},
		{"conv bad padding mode", nn.NewConv2d(3, 8, 3, nn.PaddingMode("mirror")), "padding_mode must be one of"},
		{"convt padding mode", nn.NewConvTranspose2d(3, 8, 3, nn.PaddingMode("circular")), `Only "zeros" padding mode is supported for ConvTranspose2d`},
		{"batchnorm negative", nn.NewBatchNorm2d(-2), "BatchNorm2d: num_features must be non-negative"},
		{"layernorm negative", nn.NewLayerNorm(-4), "normalized_shape must be non-negative"},
		{"groupnorm divisible", nn.NewGroupNorm(3, 4), "num_channels must be divisible by num_groups"},
		{"groupnorm zero groups", nn.NewGroupNorm(0, 4), "num_groups must be positive"},
		{"embedding negative", nn.NewEmbedding(-1, 3), "num_embeddings and embedding_dim must be non-negative"},
		{"embedding padding_idx", nn.NewEmbedding(5, 2, nn.PaddingIdx(5)), "Padding_idx must be within num_embeddings"},
		{"maxpool zero kernel", nn.NewMaxPool2d(0), "MaxPool2d: kernel_size must be at least 1, got 0"},
		{"avgpool dilation", nn.NewAvgPool2d(2, nn.Dilation(2)), "AvgPool2d: unexpected option dilation"},
		{"avgpool divisor", nn.NewAvgPool2d(2, nn.DivisorOverride(0)), "divisor_override must be non-zero"},
		{"adaptive negative", nn.NewAdaptiveAvgPool2d([]int{2, -1}), "output_size must be non-negative, got (2, -1)"},
		{"dropout p", nn.NewDropout(1.5), "dropout probability has to be between 0 and 1, but got 1.5"},
		{"gelu approximate", nn.NewGELU("fast"), "approximate must be 'none' or 'tanh'"},
		{"hardtanh range", nn.NewHardtanh(1, -1), "max_val (-1.0) must be greater than min_val (1.0)"},
		{"linear negative", nn.NewLinear(-1, 2, true), "in_features and out_features must be non-negative"},
		{"nested", nn.NewSequential(nn.NewReLU(), nn.NewConv2d(3, 8, 3, nn.Groups(2))), "module 1: Conv2d: in_channels must be divisible by groups"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := nn.Err(c.m)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			x := nn.Tensor(tensor.Must(tensor.Zeros(tensor.Float32, 1, 3, 4, 4)))
			_, runErr := nn.Run(c.m, x)
			require.Error(t, runErr)
			assert.Contains(t, runErr.Error(), c.want)
		})
	}
}

func TestLayerInputErrors(t *testing.T) {
	randn := func(shape ...int) nn.Value {
		return nn.Tensor(tensor.Must(tensor.NewGenerator(1).Randn(tensor.Float32, shape...)))
	}
	for _, c := range []struct {
		name string
		m    nn.Module
		x    nn.Value
		want []string
	}{
		{"conv2d rank", nn.NewConv2d(3, 8, 3), randn(1, 1, 3, 5, 5), []string{"conv2d", "input"}},
		{"conv2d rank 2", nn.NewConv2d(3, 8, 3), randn(5, 5), []string{"conv2d", "input"}},
		{"conv2d channels", nn.NewConv2d(3, 8, 3), randn(1, 4, 5, 5), []string{"conv2d", "channels"}},
		{"conv1d channels", nn.NewConv1d(2, 4, 3), randn(1, 3, 5), []string{"conv1d", "channels"}},
		{"conv2d kernel too large", nn.NewConv2d(3, 8, 5), randn(1, 3, 3, 3), []string{"conv2d", "Kernel size can't be greater than actual input size"}},
		{"conv2d int input", nn.NewConv2d(3, 8, 3), nn.Tensor(tensor.Must(tensor.Zeros(tensor.Int64, 1, 3, 5, 5))), []string{"conv2d"}},
		{"batchnorm2d rank", nn.NewBatchNorm2d(3), randn(3, 4, 4), []string{"BatchNorm2d: expected 4D input (got 3D input)"}},
		{"batchnorm1d rank", nn.NewBatchNorm1d(3), randn(2, 3, 4, 4), []string{"BatchNorm1d: expected 2D or 3D input (got 4D input)"}},
		{"batchnorm channels", nn.NewBatchNorm2d(3), randn(2, 4, 2, 2), []string{"batch_norm", "weight should contain 4 elements not 3"}},
		{"batchnorm one value", nn.NewBatchNorm1d(3), randn(1, 3), []string{"BatchNorm1d: Expected more than 1 value per channel when training, got input size [1, 3]"}},
		{"layernorm shape", nn.NewLayerNorm(8), randn(2, 7), []string{"layer_norm"}},
		{"groupnorm channels", nn.NewGroupNorm(2, 4), randn(2, 6, 3), []string{"group_norm"}},
		{"groupnorm rank", nn.NewGroupNorm(2, 4), randn(4), []string{"Expected at least 2 dimensions for input tensor but received 1"}},
		{"embedding index", nn.NewEmbedding(4, 2), nn.Tensor(tensor.Must(tensor.FromInt64s(tensor.Int64, []int64{1, 4}, 2))), []string{"embedding", "index out of range"}},
		{"embedding float indices", nn.NewEmbedding(4, 2), randn(2), []string{"embedding"}},
		{"maxpool rank", nn.NewMaxPool2d(2), randn(4, 4), []string{"max_pool2d"}},
		{"maxpool padding", nn.NewMaxPool2d(2, nn.Padding(2)), randn(1, 1, 6, 6), []string{"max_pool2d", "pad should be at most half"}},
		{"softmax dim", nn.NewSoftmax(3), randn(2, 3), []string{"softmax", "dim", "out of range"}},
		{"linear features", nn.NewLinear(4, 2, true), randn(3, 5), []string{"linear"}},
		{"flatten dims", nn.NewFlatten(2, 1), randn(2, 3, 4), []string{"flatten"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, nn.Err(c.m))
			var out nn.Value
			var err error
			require.NotPanics(t, func() { out, err = nn.Run(c.m, c.x) })
			require.Error(t, err, "got %v", out)
			for _, w := range c.want {
				assert.Contains(t, err.Error(), w)
			}
			t.Log(err)
		})
	}
}
