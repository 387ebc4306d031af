package nn

import (
	"math"
	"sync"

	"github.com/gofx/gofx/tensor"
)

var gen struct {
	sync.Mutex
	g *tensor.Generator
}

// ManualSeed reseeds the generator that layer constructors draw their
// initial weights from. The distributions are PyTorch's (Kaiming-uniform
// for Linear and convolutions, N(0, 1) for Embedding, ones and zeros for
// normalization layers); the numbers are not PyTorch's: load a state dict
// to get PyTorch's weights.
func ManualSeed(seed uint64) {
	gen.Lock()
	defer gen.Unlock()
	gen.g = tensor.NewGenerator(seed)
}

func generator() *tensor.Generator {
	if gen.g == nil {
		gen.g = tensor.NewGenerator(0)
	}
	return gen.g
}

// Uniform returns a float32 tensor of the given shape drawn uniformly from
// [-bound, bound) with the layer-initialization generator (see ManualSeed).
func Uniform(bound float64, shape ...int) (*tensor.Tensor, error) {
	gen.Lock()
	t, err := generator().Rand(tensor.Float64, shape...)
	gen.Unlock()
	if err != nil {
		return nil, err
	}
	vals := t.Float64s()
	for i, v := range vals {
		vals[i] = (2*v - 1) * bound
	}
	return tensor.FromFloat64s(tensor.Float32, vals, shape...)
}

// Normal returns a float32 tensor drawn from N(0, 1) with the
// layer-initialization generator.
func Normal(shape ...int) (*tensor.Tensor, error) {
	gen.Lock()
	defer gen.Unlock()
	return generator().Randn(tensor.Float32, shape...)
}

// KaimingBound is the bound of PyTorch's default initialization of Linear
// and convolution weights and biases: 1/sqrt(fanIn) (kaiming_uniform_ with
// a = sqrt(5)).
func KaimingBound(fanIn int) float64 {
	if fanIn <= 0 {
		return 0
	}
	return 1 / math.Sqrt(float64(fanIn))
}
