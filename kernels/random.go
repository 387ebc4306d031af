package kernels

import (
	"sync"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// The random factories draw from one process-wide generator, seeded with
// ManualSeed (like torch.manual_seed). The streams are gofx's own: the same
// seed gives the same tensors in every gofx run, not PyTorch's values.
var (
	rndMu  sync.Mutex
	rndGen = tensor.NewGenerator(0)
)

// ManualSeed reseeds the generator of the random operators (aten::rand,
// randn, randperm), as torch.manual_seed does.
func ManualSeed(seed uint64) {
	rndMu.Lock()
	defer rndMu.Unlock()
	rndGen = tensor.NewGenerator(seed)
}

func registerRandom() {
	registerBoth("aten::rand", func(c *ops.Call) ([]any, error) { return rndFactory(c, false) })
	registerBoth("aten::randn", func(c *ops.Call) ([]any, error) { return rndFactory(c, true) })
	registerBoth("aten::randperm", rndPerm)
}

// rndFactory is aten::rand (uniform on [0, 1)) and aten::randn (standard
// normal): floating dtypes only, float32 by default.
func rndFactory(c *ops.Call, normal bool) ([]any, error) {
	isMeta, err := shFactoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	size, err := shFullSize(c, "size", c.Ints("size"))
	if err != nil {
		return nil, err
	}
	dt, ok := c.DType("dtype")
	if !ok {
		dt = tensor.Float32
	}
	if !dt.IsFloat() {
		name := "check_uniform_bounds"
		if normal {
			name = "normal_kernel_cpu"
		}
		return nil, c.Errorf("dtype", "\"%s\" not implemented for '%s'", name, scalarTypeName(dt))
	}
	if isMeta {
		return one(tensor.Must(tensor.NewMeta(dt, size...))), nil
	}
	rndMu.Lock()
	defer rndMu.Unlock()
	if normal {
		t, err := rndGen.Randn(dt, size...)
		return []any{t}, err
	}
	t, err := rndGen.Rand(dt, size...)
	if err != nil {
		return nil, err
	}
	// Rounding to a narrow dtype may reach 1; keep the interval half-open.
	if dt != tensor.Float64 {
		one := tensor.Must(tensor.FromFloat64s(dt, []float64{1})).Float64s()[0]
		vals := t.Float64s()
		for i, v := range vals {
			if v >= one {
				vals[i] = 0
			}
		}
		t = tensor.Must(tensor.FromFloat64s(dt, vals, size...))
	}
	return []any{t}, nil
}

// rndPerm is aten::randperm: a random permutation of 0..n-1, int64 by
// default.
func rndPerm(c *ops.Call) ([]any, error) {
	isMeta, err := shFactoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	n := c.Int("n")
	if n < 0 {
		return nil, c.Errorf("n", "n must be non-negative, got %d", n)
	}
	if n > tensor.MaxElements {
		return nil, c.Errorf("n", "n = %d is too large", n)
	}
	dt, ok := c.DType("dtype")
	if !ok {
		dt = tensor.Int64
	}
	if dt == tensor.Bool {
		return nil, c.Errorf("dtype", "\"randperm\" not implemented for 'Bool'")
	}
	if isMeta {
		return one(tensor.Must(tensor.NewMeta(dt, int(n)))), nil
	}
	rndMu.Lock()
	keys, err := rndGen.Rand(tensor.Float64, int(n))
	rndMu.Unlock()
	if err != nil {
		return nil, err
	}
	// Fisher-Yates driven by the uniform draws.
	perm := make([]int64, n)
	for i := range perm {
		perm[i] = int64(i)
	}
	u := keys.Float64s()
	for i := len(perm) - 1; i > 0; i-- {
		j := int(u[i] * float64(i+1))
		perm[i], perm[j] = perm[j], perm[i]
	}
	t, err := tensor.FromInt64s(dt, perm, int(n))
	return []any{t}, err
}
