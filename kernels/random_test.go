package kernels_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/tensor"
)

// caseSeed reads the torch.manual_seed of a testdata/random case from its
// note ("seed=S: ...").
func caseSeed(t *testing.T, c *conformance.Case) uint64 {
	s, ok := strings.CutPrefix(c.Note, "seed=")
	require.True(t, ok, "%s: note %q has no seed", c.ID, c.Note)
	s, _, _ = strings.Cut(s, ":")
	v, err := strconv.ParseUint(s, 10, 64)
	require.NoError(t, err, c.ID)
	return v
}

// TestRandomConformance runs the cases of testdata/random (gen_14c.py):
// after kernels.ManualSeed with the seed PyTorch 2.6 ran the op after, the
// random operators must give PyTorch's values.
func TestRandomConformance(t *testing.T) {
	files, byFile := casesByFile(t, "testdata/random")
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			for _, c := range byFile[f] {
				kernels.ManualSeed(caseSeed(t, c))
				if r := conformance.Run(c); !r.Passed() {
					t.Error(r)
				}
				if err := conformance.RunMeta(c); err != nil {
					t.Errorf("%s: meta: %v", c.ID, err)
				}
			}
		})
	}
}

// TestGeneratorArgument checks that an explicit *kernels.Generator gives
// the values the default generator gives after ManualSeed with the same
// seed, and that the cached Box-Muller sample carries over between calls
// of randn, as in PyTorch (torch.manual_seed(0); randn(1), randn(1) gives
// 1.5409961082440433, -0.2934289057609464 in float64).
func TestGeneratorArgument(t *testing.T) {
	kernels.ManualSeed(0)
	a, err := optest.Call(t, "aten::randn", []any{[]int64{1}}, map[string]any{"dtype": tensor.Float64})
	require.NoError(t, err)
	b, err := optest.Call(t, "aten::randn", []any{[]int64{1}}, map[string]any{"dtype": tensor.Float64})
	require.NoError(t, err)
	assert.InDelta(t, 1.5409961082440433, a[0].(*tensor.Tensor).Float64s()[0], 1e-15)
	assert.InDelta(t, -0.2934289057609464, b[0].(*tensor.Tensor).Float64s()[0], 1e-15)

	g := kernels.NewGenerator(42)
	x, err := optest.Call(t, "aten::rand.generator", []any{[]int64{8}}, map[string]any{"generator": g})
	require.NoError(t, err)
	kernels.ManualSeed(42)
	y, err := optest.Call(t, "aten::rand", []any{[]int64{8}}, nil)
	require.NoError(t, err)
	assert.True(t, tensor.Equal(x[0].(*tensor.Tensor), y[0].(*tensor.Tensor)))

	_, err = optest.Call(t, "aten::rand.generator", []any{[]int64{8}}, map[string]any{"generator": "seed"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "generator")
}

// TestRandomMoments checks the distributions statistically on many draws:
// mean and variance of uniform, normal, exponential, Poisson and binomial
// samples, and the support of randint and bernoulli.
func TestRandomMoments(t *testing.T) {
	kernels.ManualSeed(1)
	const n = 20000
	f64 := map[string]any{"dtype": tensor.Float64}
	zeros := tensor.Must(tensor.New(tensor.Float64, n))
	moments := func(v []float64) (mean, variance float64) {
		for _, x := range v {
			mean += x
		}
		mean /= float64(len(v))
		for _, x := range v {
			variance += (x - mean) * (x - mean)
		}
		return mean, variance / float64(len(v))
	}
	for _, tc := range []struct {
		name       string
		op         string
		args       []any
		kwargs     map[string]any
		mean, vari float64
	}{
		{"rand", "aten::rand", []any{[]int64{n}}, f64, 0.5, 1.0 / 12},
		{"randn", "aten::randn", []any{[]int64{n}}, nil, 0, 1},
		{"normal", "aten::normal.float_float", []any{2.0, 3.0, []int64{n}}, f64, 2, 9},
		{"uniform", "aten::uniform", []any{zeros, -1.0, 3.0}, nil, 1, 16.0 / 12},
		{"exponential", "aten::exponential", []any{zeros, 2.0}, nil, 0.5, 0.25},
		{"geometric", "aten::geometric", []any{zeros, 0.25}, nil, 4, 0.75 / (0.25 * 0.25)},
		{"poisson", "aten::poisson", []any{tensor.Must(tensor.Full(tensor.Float64, 30.0, n))}, nil, 30, 30},
		{"poisson small", "aten::poisson", []any{tensor.Must(tensor.Full(tensor.Float64, 3.0, n))}, nil, 3, 3},
		{"binomial", "aten::binomial", []any{tensor.Must(tensor.Full(tensor.Float64, 50.0, n)), tensor.Must(tensor.Full(tensor.Float64, 0.3, n))}, nil, 15, 10.5},
		{"bernoulli", "aten::bernoulli.p", []any{zeros, 0.2}, nil, 0.2, 0.16},
		{"gamma", "aten::_standard_gamma", []any{tensor.Must(tensor.Full(tensor.Float64, 2.5, n))}, nil, 2.5, 2.5},
		{"gamma below 1", "aten::_standard_gamma", []any{tensor.Must(tensor.Full(tensor.Float64, 0.5, n))}, nil, 0.5, 0.5},
		{"randint", "aten::randint.low", []any{int64(-3), int64(4), []int64{n}}, f64, 0, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := optest.Call(t, tc.op, tc.args, tc.kwargs)
			require.NoError(t, err)
			v := out[0].(*tensor.Tensor).Float64s()
			m, s := moments(v)
			se := math.Sqrt(tc.vari / n)
			assert.InDelta(t, tc.mean, m, 6*se, "mean")
			assert.InDelta(t, tc.vari, s, 0.06*tc.vari, "variance")
		})
	}
}

func TestRandomBadInput(t *testing.T) {
	x := zerosOf(tensor.Float32, 4)
	runBad(t, []badCase{
		{"rand int64", "aten::rand", []any{[]int64{2}}, map[string]any{"dtype": tensor.Int64}, "dtype"},
		{"randint empty range", "aten::randint.low", []any{int64(3), int64(3), []int64{2}}, nil, "high"},
		{"randint int8 range", "aten::randint.low", []any{int64(0), int64(300), []int64{2}}, map[string]any{"dtype": tensor.Int8}, "high"},
		{"randperm negative", "aten::randperm", []any{int64(-1)}, nil, "n"},
		{"bernoulli p above 1", "aten::bernoulli.p", []any{x, 1.5}, nil, "p"},
		{"bernoulli probabilities above 1", "aten::bernoulli", []any{tensor.Must(tensor.Full(tensor.Float32, 2.0, 3))}, nil, "self"},
		{"normal negative std", "aten::normal.float_float", []any{0.0, -1.0, []int64{2}}, nil, "std"},
		{"normal negative std tensor", "aten::normal.float_Tensor", []any{0.0, tensor.Must(tensor.Full(tensor.Float32, -1.0, 3))}, nil, "std"},
		{"uniform from > to", "aten::uniform", []any{x, 2.0, 1.0}, nil, "to"},
		{"exponential lambda 0", "aten::exponential", []any{x, 0.0}, nil, "lambd"},
		{"geometric p 1", "aten::geometric", []any{x, 1.0}, nil, "p"},
		{"random from >= to", "aten::random.from", []any{x, int64(5), int64(5)}, nil, "to"},
		{"multinomial 3-d", "aten::multinomial", []any{zerosOf(tensor.Float32, 1, 2, 3), int64(1)}, nil, "self"},
		{"multinomial too many", "aten::multinomial", []any{tensor.Must(tensor.Full(tensor.Float32, 1.0, 3)), int64(4)}, nil, "num_samples"},
		{"multinomial zero sum", "aten::multinomial", []any{x, int64(1)}, nil, "self"},
		{"poisson negative", "aten::poisson", []any{tensor.Must(tensor.Full(tensor.Float32, -1.0, 3))}, nil, "self"},
		{"feature dropout 1-d", "aten::feature_dropout", []any{x, 0.5, true}, nil, "input"},
		{"dropout p 2", "aten::alpha_dropout", []any{x, 2.0, true}, nil, "p"},
		{"rrelu lower > upper", "aten::rrelu", []any{x, 0.5, 0.1, true}, nil, "upper"},
	})
}
