package kernels

import (
	"math"
	"sync"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Random operators, ATen's Distributions.cpp and cpu/DistributionKernels.cpp
// with the transformations of core/DistributionsHelper.h and
// core/TransformationHelper.h, drawing from a Generator that reproduces
// PyTorch's CPU generator (CPUGeneratorImpl: mt19937 seeded with the low 32
// bits of the seed, random() one 32-bit output, random64() two of them, the
// first the high half, and the cached second Box-Muller sample of
// normal_distribution<double>). So torch.manual_seed(s) followed by the same
// sequence of random calls gives PyTorch's values: rand, randn (normal_fill's
// blocks of 16 for 16 elements or more), randint, randperm, bernoulli,
// normal, uniform, random_, exponential, geometric, log_normal, cauchy,
// multinomial, poisson, binomial, _standard_gamma, _sample_dirichlet,
// rrelu and the dropouts, up to the last
// bit of the libm functions they call (log, sin, cos, tan, exp).

// registerRandom registers the kernels of random.go.
func registerRandom() {
	for _, ov := range []string{"", ".generator"} {
		registerBoth("aten::rand"+ov, func(c *ops.Call) ([]any, error) { return randFactory(c, false) })
		registerBoth("aten::randn"+ov, func(c *ops.Call) ([]any, error) { return randFactory(c, true) })
		registerBoth("aten::randperm"+ov, randperm)
		registerBoth("aten::rand_like"+ov, func(c *ops.Call) ([]any, error) { return randLike(c, false) })
		registerBoth("aten::randn_like"+ov, func(c *ops.Call) ([]any, error) { return randLike(c, true) })
	}
	for _, ov := range []string{"", ".generator", ".low", ".low_generator"} {
		registerBoth("aten::randint"+ov, randint)
	}
	for _, ov := range []string{"", ".generator", ".Tensor", ".Tensor_generator", ".low_dtype", ".low_generator_dtype"} {
		registerBoth("aten::randint_like"+ov, randintLike)
	}
	registerBoth("aten::bernoulli", bernoulliSelf)
	registerBoth("aten::bernoulli.p", bernoulliP)
	registerBoth("aten::bernoulli.Tensor", bernoulliTensor)
	registerBoth("aten::bernoulli_.float", inPlace(bernoulliP))
	registerBoth("aten::normal.Tensor_float", normalTensorFloat)
	registerBoth("aten::normal.float_Tensor", normalFloatTensor)
	registerBoth("aten::normal.Tensor_Tensor", normalTensorTensor)
	registerBoth("aten::normal.float_float", normalFloatFloat)
	registerBoth("aten::normal_functional", normalSelf)
	registerBoth("aten::normal_", inPlace(normalSelf))
	registerBoth("aten::uniform", uniformSelf)
	registerBoth("aten::exponential", exponentialSelf)
	registerBoth("aten::geometric", geometricSelf)
	registerBoth("aten::log_normal", logNormalSelf)
	registerBoth("aten::cauchy", cauchySelf)
	registerBoth("aten::random", randomSelf)
	registerBoth("aten::random.to", randomSelf)
	registerBoth("aten::random.from", randomSelf)
	registerBoth("aten::multinomial", multinomial)
	registerBoth("aten::poisson", poisson)
	registerBoth("aten::binomial", binomial)
	registerBoth("aten::_standard_gamma", standardGamma)
	registerBoth("aten::_sample_dirichlet", sampleDirichlet)
}

// Generator is a source of random numbers that reproduces PyTorch's CPU
// generator: the same seed and the same sequence of random operators give
// the same values as PyTorch's (see the package's random.go). A random
// operator's generator argument takes a *Generator; None draws from the
// default generator, which ManualSeed reseeds. A Generator is safe for
// concurrent use.
type Generator struct {
	mu         sync.Mutex
	mt         [624]uint32
	next       int
	nextNormal float64 // normal_distribution<double>'s cached sample
	hasNormal  bool
}

// defaultSeed is PyTorch's default_rng_seed_val, the seed of its default
// generator at startup.
const defaultSeed = 67280421310721

// defaultGenerator is the generator of the random operators called without
// one.
var defaultGenerator = NewGenerator(defaultSeed)

// NewGenerator returns a generator seeded with seed, as
// torch.Generator().manual_seed(seed).
func NewGenerator(seed uint64) *Generator {
	g := &Generator{}
	g.seed(seed)
	return g
}

// ManualSeed reseeds the default generator of the random operators, as
// torch.manual_seed does: the random operators called afterwards without a
// generator give PyTorch's values for the same seed and calls.
func ManualSeed(seed uint64) { defaultGenerator.ManualSeed(seed) }

// ManualSeed reseeds g, as torch.Generator.manual_seed.
func (g *Generator) ManualSeed(seed uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seed(seed)
}

// seed is mt19937's init_genrand with the low 32 bits of seed; it drops the
// cached normal sample, as CPUGeneratorImpl::set_current_seed does.
func (g *Generator) seed(seed uint64) {
	g.mt[0] = uint32(seed)
	for i := 1; i < len(g.mt); i++ {
		g.mt[i] = 1812433253*(g.mt[i-1]^(g.mt[i-1]>>30)) + uint32(i)
	}
	g.next = len(g.mt)
	g.hasNormal = false
}

// random is one mt19937 output, CPUGeneratorImpl::random().
func (g *Generator) random() uint32 {
	const n, m = 624, 397
	if g.next >= n {
		for i := range n {
			y := g.mt[i]&0x80000000 | g.mt[(i+1)%n]&0x7fffffff
			v := g.mt[(i+m)%n] ^ y>>1
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			g.mt[i] = v
		}
		g.next = 0
	}
	y := g.mt[g.next]
	g.next++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

// random64 is CPUGeneratorImpl::random64(): two outputs, the first the
// high half.
func (g *Generator) random64() uint64 {
	hi := g.random()
	return uint64(hi)<<32 | uint64(g.random())
}

// digits is std::numeric_limits<T>::digits of a floating dtype.
func digits(dt tensor.DType) uint {
	switch dt {
	case tensor.Float64:
		return 53
	case tensor.Float32:
		return 24
	case tensor.Float16:
		return 11
	}
	return 8 // bfloat16
}

// uniform is uniform_real_distribution<T>(from, to) for the dtype dt:
// random64's low 53 bits for float64, random's low digits bits for the
// others, scaled to [0, 1) and mapped to [from, to) in T's accumulate type
// (float64 for float64, float32 otherwise).
func (g *Generator) uniform(dt tensor.DType, from, to float64) float64 {
	if dt == tensor.Float64 {
		x := float64(g.random64()&(1<<53-1)) * (1.0 / (1 << 53))
		return x*(to-from) + from
	}
	d := digits(dt)
	r := rounder(dt)
	x := float32(g.random()&(1<<d-1)) * float32(1.0/float64(uint64(1)<<d))
	f, t := float32(r(from)), float32(r(to))
	return float64(float32(x*(t-f)) + f)
}

// normal is normal_distribution<double>(mean, std): Box-Muller on two
// uniform doubles, caching the sine sample for the next call.
func (g *Generator) normal(mean, std float64) float64 {
	if g.hasNormal {
		g.hasNormal = false
		return g.nextNormal*std + mean
	}
	u1 := g.uniform(tensor.Float64, 0, 1)
	u2 := g.uniform(tensor.Float64, 0, 1)
	r := math.Sqrt(-2 * math.Log1p(-u2))
	theta := 2 * math.Pi * u1
	g.nextNormal, g.hasNormal = r*math.Sin(theta), true
	return r*math.Cos(theta)*std + mean
}

// normalFill is ATen's normal_kernel for a contiguous tensor of n elements
// of dtype dt: from 16 elements normal_fill (n uniforms, then Box-Muller on
// blocks of 16 pairing element j with j+8, the last block redrawn when n is
// not a multiple of 16), below that normal_distribution<double> per
// element. The arithmetic is in dt's precision (r).
func (g *Generator) normalFill(dt tensor.DType, n int, mean, std float64) []float64 {
	out := make([]float64, n)
	r := rounder(dt)
	if n < 16 {
		for i := range out {
			out[i] = r(g.normal(mean, std))
		}
		return out
	}
	mean, std = r(mean), r(std)
	for i := range out {
		out[i] = g.uniform(dt, 0, 1)
	}
	fill16 := func(d []float64) {
		for j := range 8 {
			u1 := r(1 - d[j])
			u2 := d[j+8]
			radius := r(math.Sqrt(r(-2 * r(math.Log(u1)))))
			theta := r(2 * math.Pi * u2)
			d[j] = r(r(r(radius*r(math.Cos(theta)))*std) + mean)
			d[j+8] = r(r(r(radius*r(math.Sin(theta)))*std) + mean)
		}
	}
	for i := 0; i+16 <= n; i += 16 {
		fill16(out[i : i+16])
	}
	if n%16 != 0 {
		d := out[n-16:]
		for i := range d {
			d[i] = g.uniform(dt, 0, 1)
		}
		fill16(d)
	}
	return out
}

// generatorArg returns the generator a call draws from: its generator
// argument when the schema has one and it is not None, else the default.
func generatorArg(c *ops.Call) (*Generator, error) {
	if hasArg(c, "generator") {
		v := c.Arg("generator")
		if v == nil {
			return defaultGenerator, nil
		}
		g, ok := v.(*Generator)
		if !ok || g == nil {
			return nil, c.Errorf("generator", "expected a *kernels.Generator, got %T", v)
		}
		return g, nil
	}
	return defaultGenerator, nil
}

// draw runs f with the call's generator locked.
func draw(c *ops.Call, f func(g *Generator) ([]any, error)) ([]any, error) {
	g, err := generatorArg(c)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return f(g)
}

// inPlace makes the kernel of an in-place random operator (bernoulli_,
// normal_) from its functional form: the values are written into self.
func inPlace(k ops.Kernel) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		out, err := k(c)
		if err != nil {
			return nil, err
		}
		self := c.Tensor("self")
		if self.IsMeta() {
			return one(self), nil
		}
		if err := self.CopyFrom(out[0].(*tensor.Tensor)); err != nil {
			return nil, c.Errorf("self", "%v", err)
		}
		return one(self), nil
	}
}

// floatValues makes a tensor of dtype dt and shape from float64 values
// (already rounded to dt).
func floatValues(dt tensor.DType, vals []float64, shape []int) *tensor.Tensor {
	return tensor.Must(tensor.FromFloat64s(dt, vals, shape...))
}

// randFactory is aten::rand and aten::randn (and their .generator
// overloads): uniform on [0, 1) or standard normal, float32 by default.
func randFactory(c *ops.Call, normal bool) ([]any, error) {
	isMeta, size, err := sizedFactory(c)
	if err != nil {
		return nil, err
	}
	return randOf(c, isMeta, dtypeOr(c, tensor.Float32), size, normal)
}

// sizedFactory checks the options of a factory with a size argument
// (layout and device first, then the size): whether it makes a meta
// tensor, and the shape.
func sizedFactory(c *ops.Call) (bool, []int, error) {
	isMeta, err := factoryOptions(c, nil)
	if err != nil {
		return false, nil, err
	}
	size, err := fullSize(c, "size", c.Ints("size"))
	return isMeta, size, err
}

// randOf fills a new tensor of dt and size with uniform or normal values.
func randOf(c *ops.Call, isMeta bool, dt tensor.DType, size []int, normal bool) ([]any, error) {
	if !dt.IsFloat() {
		name := "check_uniform_bounds"
		if normal {
			name = "normal_kernel_cpu"
		}
		return nil, c.Errorf("dtype", "\"%s\" not implemented for '%s'", name, scalarTypeName(dt))
	}
	if isMeta {
		return oneOrErr(tensor.NewMeta(dt, size...))
	}
	n := product(size)
	return draw(c, func(g *Generator) ([]any, error) {
		if normal {
			return one(floatValues(dt, g.normalFill(dt, n, 0, 1), size)), nil
		}
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = g.uniform(dt, 0, 1)
		}
		return one(floatValues(dt, vals, size)), nil
	})
}

// randLike is aten::rand_like and randn_like: rand/randn of self's shape
// and (by default) dtype.
func randLike(c *ops.Call, normal bool) ([]any, error) {
	self := c.Tensor("self")
	isMeta, err := factoryOptions(c, self)
	if err != nil {
		return nil, err
	}
	dt := dtypeOr(c, self.DType())
	return randOf(c, isMeta, dt, self.Shape(), normal)
}

// intFromTo is uniform_int_from_to_distribution(range, base): random()
// below 2^32, random64() from there, modulo range, plus base.
func (g *Generator) intFromTo(rng uint64, base int64) int64 {
	if rng >= 1<<32 {
		return int64(g.random64()%rng) + base
	}
	return int64(uint64(g.random())%rng) + base
}

// intValues makes a tensor of dt from int64 values (floats for a floating
// dt).
func intValues(dt tensor.DType, vals []int64, shape []int) *tensor.Tensor {
	if dt.IsFloat() {
		f := make([]float64, len(vals))
		for i, v := range vals {
			f[i] = float64(v)
		}
		return floatValues(dt, f, shape)
	}
	return tensor.Must(tensor.FromInt64s(dt, vals, shape...))
}

// randintOf fills a tensor of dt and size with integers in [low, high).
func randintOf(c *ops.Call, isMeta bool, dt tensor.DType, size []int, low, high int64) ([]any, error) {
	if low >= high {
		return nil, c.Errorf("high", "random_ expects 'from' to be less than 'to', but got from=%d >= to=%d", low, high)
	}
	lo, hi := intRange(dt)
	if dt == tensor.Bool && (low < 0 || high > 2) || !dt.IsFloat() && dt != tensor.Bool && dt != tensor.Int64 && (low < lo || high-1 > hi) {
		return nil, c.Errorf("high", "random_ expects 'from' and 'to - 1' to be within the range of %s, got from=%d, to=%d", scalarTypeName(dt), low, high)
	}
	if isMeta {
		return oneOrErr(tensor.NewMeta(dt, size...))
	}
	n := product(size)
	return draw(c, func(g *Generator) ([]any, error) {
		vals := make([]int64, n)
		for i := range vals {
			vals[i] = g.intFromTo(uint64(high-low), low)
		}
		return one(intValues(dt, vals, size)), nil
	})
}

// randint is aten::randint and its .generator, .low and .low_generator
// overloads: integers uniform in [low, high), int64 by default.
func randint(c *ops.Call) ([]any, error) {
	isMeta, size, err := sizedFactory(c)
	if err != nil {
		return nil, err
	}
	dt := dtypeOr(c, tensor.Int64)
	var low int64
	if hasArg(c, "low") {
		low = c.Int("low")
	}
	return randintOf(c, isMeta, dt, size, low, c.Int("high"))
}

// randintLike is aten::randint_like (high an int or, .Tensor, a 0-d
// tensor; .low_dtype with low): randint of self's shape and dtype.
func randintLike(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	isMeta, err := factoryOptions(c, self)
	if err != nil {
		return nil, err
	}
	dt := dtypeOr(c, self.DType())
	var low, high int64
	if hasArg(c, "low") {
		low = c.Int("low")
	}
	if h, ok := c.Arg("high").(*tensor.Tensor); ok {
		if h.Numel() != 1 {
			return nil, c.Errorf("high", "expected a one-element tensor high, got %s", shapeString(h.Shape()))
		}
		if h.IsMeta() {
			return oneOrErr(tensor.NewMeta(dt, self.Shape()...))
		}
		high = h.Int64s()[0]
	} else {
		high = c.Int("high")
	}
	return randintOf(c, isMeta, dt, self.Shape(), low, high)
}

// randperm is aten::randperm: 0..n-1 shuffled as ATen's randperm_cpu
// (for i < n-1, swap i with i + random() % (n-i); random64() from n of
// 2^32), int64 by default.
func randperm(c *ops.Call) ([]any, error) {
	isMeta, err := factoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	n := c.Int("n")
	if n < 0 {
		return nil, c.Errorf("n", "n must be non-negative, got%d", n)
	}
	if n > tensor.MaxElements {
		return nil, c.Errorf("n", "n = %d is too large", n)
	}
	dt := dtypeOr(c, tensor.Int64)
	_, hi := intRange(dt)
	if dt == tensor.Bool || dt == tensor.Float16 && n > 2049 || dt == tensor.BFloat16 && n > 257 ||
		!dt.IsFloat() && dt != tensor.Int64 && n > hi+1 {
		return nil, c.Errorf("n", "n = %d is not representable by the dtype %s of randperm", n, scalarTypeName(dt))
	}
	if isMeta {
		return oneOrErr(tensor.NewMeta(dt, int(n)))
	}
	return draw(c, func(g *Generator) ([]any, error) {
		perm := make([]int64, n)
		for i := range perm {
			perm[i] = int64(i)
		}
		for i := int64(0); i < n-1; i++ {
			var z int64
			if n < 1<<32 {
				z = int64(uint64(g.random()) % uint64(n-i))
			} else {
				z = int64(g.random64() % uint64(n-i))
			}
			perm[i], perm[z+i] = perm[z+i], perm[i]
		}
		return one(intValues(dt, perm, []int{int(n)})), nil
	})
}

// bernoulliP is aten::bernoulli.p (and bernoulli_.float): ones with
// probability p, as bernoulli_distribution<double>: a uniform double below
// p. The result has self's shape and dtype.
func bernoulliP(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	p := c.Float("p")
	if !(p >= 0 && p <= 1) {
		return nil, c.Errorf("p", "bernoulli_ expects p to be in [0, 1], but got p=%v", p)
	}
	return drawEach(c, self, func(g *Generator) float64 {
		if g.uniform(tensor.Float64, 0, 1) < p {
			return 1
		}
		return 0
	})
}

// bernoulliWith draws ones with the probabilities probs (p's dtype pdt):
// a uniform double below p for float64 probabilities, a uniform float
// below float32(p) for the others (bernoulli_tensor_cpu_kernel).
func bernoulliWith(c *ops.Call, arg string, g *Generator, probs []float64, pdt tensor.DType) ([]int64, error) {
	vals := make([]int64, len(probs))
	for i, p := range probs {
		if !(p >= 0 && p <= 1) {
			return nil, c.Errorf(arg, "Expected p_in >= 0 && p_in <= 1 to be true, but got p=%v", p)
		}
		var u float64
		if pdt == tensor.Float64 {
			u = g.uniform(tensor.Float64, 0, 1)
		} else {
			u = g.uniform(tensor.Float32, 0, 1)
			p = float64(float32(p))
		}
		if u < p {
			vals[i] = 1
		}
	}
	return vals, nil
}

// bernoulliSelf is aten::bernoulli: ones with the probabilities in self,
// in self's dtype.
func bernoulliSelf(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt := self.DType()
	if !dt.IsFloat() {
		return nil, c.Errorf("self", "\"bernoulli_tensor_cpu_p_\" not implemented for '%s'", scalarTypeName(dt))
	}
	if self.IsMeta() {
		return oneOrErr(tensor.NewMeta(dt, self.Shape()...))
	}
	return draw(c, func(g *Generator) ([]any, error) {
		vals, err := bernoulliWith(c, "self", g, self.Float64s(), dt)
		if err != nil {
			return nil, err
		}
		return one(intValues(dt, vals, self.Shape())), nil
	})
}

// bernoulliTensor is aten::bernoulli.Tensor: ones with the probabilities
// p, broadcast to self's shape, in self's dtype.
func bernoulliTensor(c *ops.Call) ([]any, error) {
	self, p := c.Tensor("self"), c.Tensor("p")
	if !p.DType().IsFloat() {
		return nil, c.Errorf("p", "\"bernoulli_tensor_cpu_p_\" not implemented for '%s'", scalarTypeName(p.DType()))
	}
	pe, err := p.Expand(self.Shape()...)
	if err != nil {
		return nil, c.Errorf("p", "p of shape %s does not broadcast to self's shape %s", shapeString(p.Shape()), shapeString(self.Shape()))
	}
	dt := self.DType()
	if meta(self, p) {
		return oneOrErr(tensor.NewMeta(dt, self.Shape()...))
	}
	return draw(c, func(g *Generator) ([]any, error) {
		vals, err := bernoulliWith(c, "p", g, pe.Float64s(), p.DType())
		if err != nil {
			return nil, err
		}
		return one(intValues(dt, vals, self.Shape())), nil
	})
}

// checkStd is ATen's CHECK_NORMAL_STD.
func checkStd(c *ops.Call, arg string, std float64) error {
	if !(std >= 0) {
		return c.Errorf(arg, "normal expects std >= 0.0, but found std %v", std)
	}
	return nil
}

// normalOf fills a float tensor of dt and shape by normal_(mean, std).
func normalOf(c *ops.Call, arg string, dt tensor.DType, shape []int, isMeta bool, mean, std float64) (*tensor.Tensor, error) {
	if !dt.IsFloat() {
		return nil, c.Errorf(arg, "\"normal_kernel_cpu\" not implemented for '%s'", scalarTypeName(dt))
	}
	if isMeta {
		return tensor.NewMeta(dt, shape...)
	}
	g, err := generatorArg(c)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return floatValues(dt, g.normalFill(dt, product(shape), mean, std), shape), nil
}

// normalSelf is aten::normal_functional (and normal_): normal_(mean, std)
// over self's shape and dtype.
func normalSelf(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	mean, std := c.Float("mean"), c.Float("std")
	if err := checkStd(c, "std", std); err != nil {
		return nil, err
	}
	return oneOrErr(normalOf(c, "self", self.DType(), self.Shape(), self.IsMeta(), mean, std))
}

// normalFloatFloat is aten::normal.float_float: normal_(mean, std) over a
// new tensor of size, float32 by default.
func normalFloatFloat(c *ops.Call) ([]any, error) {
	isMeta, size, err := sizedFactory(c)
	if err != nil {
		return nil, err
	}
	std := c.Float("std")
	if err := checkStd(c, "std", std); err != nil {
		return nil, err
	}
	dt := dtypeOr(c, tensor.Float32)
	return oneOrErr(normalOf(c, "dtype", dt, size, isMeta, c.Float("mean"), std))
}

// normalTensorFloat is aten::normal.Tensor_float: normal_(0, std) over
// mean's shape and dtype, plus mean.
func normalTensorFloat(c *ops.Call) ([]any, error) {
	mean, std := c.Tensor("mean"), c.Float("std")
	if err := checkStd(c, "std", std); err != nil {
		return nil, err
	}
	out, err := normalOf(c, "mean", mean.DType(), mean.Shape(), mean.IsMeta(), 0, std)
	if err != nil {
		return nil, err
	}
	return callOp(c, "aten::add.Tensor", []any{out, mean}, nil)
}

// normalFloatTensor is aten::normal.float_Tensor: normal_(0, 1) over
// std's shape and dtype, times std, plus mean.
func normalFloatTensor(c *ops.Call) ([]any, error) {
	mean, std := c.Float("mean"), c.Tensor("std")
	if err := checkNormalStdTensor(c, std); err != nil {
		return nil, err
	}
	out, err := normalOf(c, "std", std.DType(), std.Shape(), std.IsMeta(), 0, 1)
	if err != nil {
		return nil, err
	}
	p := &chain{c: c, arg: "std"}
	return p.result(p.call("aten::add.Scalar", p.call("aten::mul.Tensor", out, std), mean))
}

// checkNormalStdTensor is CHECK_NORMAL_TENSOR_STD: std is floating and
// non-negative.
func checkNormalStdTensor(c *ops.Call, std *tensor.Tensor) error {
	if !std.DType().IsFloat() {
		return c.Errorf("std", "normal expects floating-point std, got %s", scalarTypeName(std.DType()))
	}
	if std.IsMeta() {
		return nil
	}
	for _, v := range std.Float64s() {
		if !(v >= 0) {
			return c.Errorf("std", "normal expects all elements of std >= 0.0")
		}
	}
	return nil
}

// normalTensorTensor is aten::normal.Tensor_Tensor: normal_(0, 1) over
// the broadcast shape in mean's dtype, times std, plus mean.
func normalTensorTensor(c *ops.Call) ([]any, error) {
	mean, std := c.Tensor("mean"), c.Tensor("std")
	if err := checkNormalStdTensor(c, std); err != nil {
		return nil, err
	}
	shape, err := broadcast(c, "std", mean, std)
	if err != nil {
		return nil, err
	}
	out, err := normalOf(c, "mean", mean.DType(), shape, meta(mean, std), 0, 1)
	if err != nil {
		return nil, err
	}
	p := &chain{c: c, arg: "std"}
	return p.result(p.call("aten::add.Tensor", p.call("aten::mul.Tensor", out, std), mean))
}

// perElement fills a tensor of self's shape and dtype with f(g) per
// element, self floating (kernel names the ATen kernel for the error).
func perElement(c *ops.Call, kernel string, f func(g *Generator, dt tensor.DType) float64) ([]any, error) {
	self := c.Tensor("self")
	dt := self.DType()
	if !dt.IsFloat() {
		return nil, notImplemented(c, "self", kernel, dt)
	}
	return drawEach(c, self, func(g *Generator) float64 { return f(g, dt) })
}

// drawEach fills a tensor of self's shape and dtype with f(g) per element
// (converted to the dtype as a float64 is); a meta self gives a meta
// result and draws nothing.
func drawEach(c *ops.Call, self *tensor.Tensor, f func(g *Generator) float64) ([]any, error) {
	dt := self.DType()
	if self.IsMeta() {
		return oneOrErr(tensor.NewMeta(dt, self.Shape()...))
	}
	return draw(c, func(g *Generator) ([]any, error) {
		vals := make([]float64, self.Numel())
		for i := range vals {
			vals[i] = f(g)
		}
		return one(floatValues(dt, vals, self.Shape())), nil
	})
}

// uniformSelf is aten::uniform (uniform_'s functional form): values
// uniform on [from, to) in self's shape and dtype.
func uniformSelf(c *ops.Call) ([]any, error) {
	from, to := c.Float("from"), c.Float("to")
	if !(from <= to) {
		return nil, c.Errorf("to", "uniform_ expects to return a [from, to) range, but found from=%v > to=%v", from, to)
	}
	if to-from > math.MaxFloat64 {
		return nil, c.Errorf("to", "uniform_ expects to-from <= std::numeric_limits<double>::max(), but found to=%v and from=%v which result in to-from to exceed the limit", to, from)
	}
	return perElement(c, "check_uniform_bounds", func(g *Generator, dt tensor.DType) float64 { return g.uniform(dt, from, to) })
}

// exponentialSelf is aten::exponential: -1/λ·log1p(-u) for a uniform
// double u (exponential_distribution<double>).
func exponentialSelf(c *ops.Call) ([]any, error) {
	l := c.Float("lambd")
	if !(l > 0) {
		return nil, c.Errorf("lambd", "exponential_ expects lambda > 0.0, but found lambda=%v", l)
	}
	return perElement(c, "exponential_cpu", func(g *Generator, _ tensor.DType) float64 {
		return -1 / l * math.Log1p(-g.uniform(tensor.Float64, 0, 1))
	})
}

// geometricSelf is aten::geometric: ⌈log(u)/log1p(-p)⌉ for a uniform
// double u, in self's dtype (integers too).
func geometricSelf(c *ops.Call) ([]any, error) {
	self, p := c.Tensor("self"), c.Float("p")
	if !(p > 0 && p < 1) {
		return nil, c.Errorf("p", "geometric_ expects p to be in (0, 1), but got p=%v", p)
	}
	return drawEach(c, self, func(g *Generator) float64 {
		return math.Ceil(math.Log(g.uniform(tensor.Float64, 0, 1)) / math.Log1p(-p))
	})
}

// logNormalSelf is aten::log_normal: exp of normal_distribution<double>.
func logNormalSelf(c *ops.Call) ([]any, error) {
	mean, std := c.Float("mean"), c.Float("std")
	if !(std > 0) {
		return nil, c.Errorf("std", "log_normal_ expects std > 0.0, but found std=%v", std)
	}
	return perElement(c, "log_normal_cpu", func(g *Generator, _ tensor.DType) float64 { return math.Exp(g.normal(mean, std)) })
}

// cauchySelf is aten::cauchy: median + σ·tan(π(u-0.5)) for a uniform
// double u.
func cauchySelf(c *ops.Call) ([]any, error) {
	median, sigma := c.Float("median"), c.Float("sigma")
	if !(sigma > 0) {
		return nil, c.Errorf("sigma", "cauchy_ expects sigma > 0.0, but found sigma=%v", sigma)
	}
	return perElement(c, "cauchy_cpu", func(g *Generator, _ tensor.DType) float64 {
		return median + sigma*math.Tan(math.Pi*(g.uniform(tensor.Float64, 0, 1)-0.5))
	})
}

// randomSelf is aten::random (random_'s functional form) and its .to and
// .from overloads: integers uniform on [from, to) in self's dtype; without
// to, on [from, the largest value the dtype holds exactly] (2^digits for
// floats); without either, uniform_int_distribution's full range.
func randomSelf(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt := self.DType()
	hasFrom, hasTo := hasArg(c, "from"), hasArg(c, "to")
	var from, to int64
	var top int64 // the largest value of the dtype's range
	switch {
	case dt.IsFloat():
		top = 1 << digits(dt)
	case dt == tensor.Bool:
		top = 1
	default:
		_, top = intRange(dt)
	}
	if hasFrom {
		from = c.Int("from")
	}
	full := !hasFrom && !hasTo
	if hasTo && !c.IsNone("to") {
		to = c.Int("to")
		if from >= to {
			return nil, c.Errorf("to", "random_ expects 'from' to be less than 'to', but got from=%d >= to=%d", from, to)
		}
	} else if !full {
		if from > top {
			return nil, c.Errorf("from", "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to dtype, but got from=%d > to_inc=%d", from, top)
		}
	}
	if self.IsMeta() {
		return oneOrErr(tensor.NewMeta(dt, self.Shape()...))
	}
	return draw(c, func(g *Generator) ([]any, error) {
		vals := make([]int64, self.Numel())
		for i := range vals {
			switch {
			case full && dt == tensor.Bool:
				vals[i] = int64(g.random() & 1)
			case full && (dt == tensor.Int64 || dt == tensor.Float64):
				vals[i] = int64(g.random64() % (uint64(top) + 1))
			case full:
				vals[i] = int64(uint64(g.random()) % (uint64(top) + 1))
			case hasTo && !c.IsNone("to"):
				vals[i] = g.intFromTo(uint64(to-from), from)
			case from == math.MinInt64:
				vals[i] = int64(g.random64())
			default:
				vals[i] = g.intFromTo(uint64(top-from)+1, from)
			}
		}
		return one(intValues(dt, vals, self.Shape())), nil
	})
}

// multinomial is aten::multinomial: num_samples category indices per row
// of the (1-d or 2-d) weights self. Without replacement, or for one
// sample, it is ATen's exponential trick (argmax/topk of self/q for
// q ~ Exp(1)); with replacement a binary search of a uniform double in the
// normalized cumulative weights.
func multinomial(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	n := c.Int("num_samples")
	repl := c.Bool("replacement")
	if self.Dim() != 1 && self.Dim() != 2 {
		return nil, c.Errorf("self", "prob_dist must be 1 or 2 dim")
	}
	if !self.DType().IsFloat() {
		return nil, c.Errorf("self", "multinomial only supports floating-point dtypes for input, got: %s", scalarTypeName(self.DType()))
	}
	if n <= 0 {
		return nil, c.Errorf("num_samples", "cannot sample n_sample <= 0 samples")
	}
	cats := self.Size(self.Dim() - 1)
	if !repl && n > int64(cats) {
		return nil, c.Errorf("num_samples", "cannot sample n_sample > prob_dist.size(-1) samples without replacement")
	}
	shape := self.Shape()
	shape[len(shape)-1] = int(n)
	if self.IsMeta() {
		return oneOrErr(tensor.NewMeta(tensor.Int64, shape...))
	}
	rows := 1
	if self.Dim() == 2 {
		rows = self.Size(0)
	}
	w := self.Float64s()
	for r := range rows {
		var sum float64
		for _, v := range w[r*cats : (r+1)*cats] {
			if !(v >= 0) || math.IsInf(v, 0) {
				return nil, c.Errorf("self", "probability tensor contains either `inf`, `nan` or element < 0")
			}
			sum += v
		}
		if sum == 0 {
			return nil, c.Errorf("self", "invalid multinomial distribution (sum of probabilities <= 0)")
		}
	}
	dt := self.DType()
	r := rounder(dt)
	return draw(c, func(g *Generator) ([]any, error) {
		out := make([]int64, 0, rows*int(n))
		if !repl || n == 1 {
			q := make([]float64, len(w))
			for i := range q {
				e := r(-1 * math.Log1p(-g.uniform(tensor.Float64, 0, 1)))
				q[i] = r(w[i] / e)
			}
			for row := range rows {
				out = append(out, topIndices(q[row*cats:(row+1)*cats], int(n))...)
			}
			return one(tensor.Must(tensor.FromInt64s(tensor.Int64, out, shape...))), nil
		}
		cum := make([]float64, cats)
		for row := range rows {
			var sum float64
			for j, v := range w[row*cats : (row+1)*cats] {
				sum = r(sum + v)
				cum[j] = sum
			}
			for j := range cum {
				cum[j] = r(cum[j] / sum)
			}
			for range n {
				u := g.uniform(tensor.Float64, 0, 1)
				lo, hi := 0, cats
				for hi-lo > 0 {
					mid := lo + (hi-lo)/2
					if cum[mid] < u {
						lo = mid + 1
					} else {
						hi = mid
					}
				}
				out = append(out, int64(lo))
			}
		}
		return one(tensor.Must(tensor.FromInt64s(tensor.Int64, out, shape...))), nil
	})
}

// topIndices returns the indices of the k largest values of v, largest
// first (the first of equal values first).
func topIndices(v []float64, k int) []int64 {
	used := make([]bool, len(v))
	out := make([]int64, 0, k)
	for range k {
		best := -1
		for i, x := range v {
			if used[i] {
				continue
			}
			if best < 0 || x > v[best] || x != x && v[best] == v[best] {
				best = i
			}
		}
		used[best] = true
		out = append(out, int64(best))
	}
	return out
}

// poisson is aten::poisson: a Poisson sample per rate in self, ATen's
// sample_poisson (Hörmann's transformed rejection from rate 10, the
// product of uniforms below).
func poisson(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt := self.DType()
	if !dt.IsFloat() {
		return nil, notImplemented(c, "self", "poisson_cpu", dt)
	}
	if self.IsMeta() {
		return oneOrErr(tensor.NewMeta(dt, self.Shape()...))
	}
	rates := self.Float64s()
	for _, l := range rates {
		if !(l >= 0) {
			return nil, c.Errorf("self", "invalid Poisson rate, expected rate to be non-negative")
		}
	}
	return draw(c, func(g *Generator) ([]any, error) {
		vals := make([]float64, len(rates))
		for i, l := range rates {
			vals[i] = float64(g.poisson(l))
		}
		return one(floatValues(dt, vals, self.Shape())), nil
	})
}

// poisson is ATen's sample_poisson for rate lambda.
func (g *Generator) poisson(lambda float64) int64 {
	u := func() float64 { return g.uniform(tensor.Float64, 0, 1) }
	switch {
	case lambda >= 10:
		slam, loglam := math.Sqrt(lambda), math.Log(lambda)
		b := 0.931 + 2.53*slam
		a := -0.059 + 0.02483*b
		invalpha := 1.1239 + 1.1328/(b-3.4)
		vr := 0.9277 - 3.6224/(b-2)
		for {
			U := u() - 0.5
			V := u()
			us := 0.5 - math.Abs(U)
			k := int64(math.Floor((2*a/us+b)*U + lambda + 0.43))
			if us >= 0.07 && V <= vr {
				return k
			}
			if k < 0 || us < 0.013 && V > us {
				continue
			}
			lg, _ := math.Lgamma(float64(k) + 1)
			if math.Log(V)+math.Log(invalpha)-math.Log(a/(us*us)+b) <= -lambda+float64(k)*loglam-lg {
				return k
			}
		}
	case lambda == 0:
		return 0
	}
	enlam := math.Exp(-lambda)
	var x int64
	prod := 1.0
	for {
		prod *= u()
		if prod <= enlam {
			return x
		}
		x++
	}
}

// binomial is aten::binomial: a binomial sample per (count, prob), ATen's
// sample_binomial (BTRS from count·p of 10, inversion below).
func binomial(c *ops.Call) ([]any, error) {
	count, prob := c.Tensor("count"), c.Tensor("prob")
	dt := count.DType()
	if !dt.IsFloat() {
		return nil, notImplemented(c, "count", "binomial_cpu", dt)
	}
	if prob.DType() != dt {
		return nil, c.Errorf("prob", "expected prob of dtype %s (count's), got %s", scalarTypeName(dt), scalarTypeName(prob.DType()))
	}
	shape, err := broadcast(c, "prob", count, prob)
	if err != nil {
		return nil, err
	}
	if meta(count, prob) {
		return oneOrErr(tensor.NewMeta(dt, shape...))
	}
	cs := tensor.Must(count.Expand(shape...)).Float64s()
	ps := tensor.Must(prob.Expand(shape...)).Float64s()
	return draw(c, func(g *Generator) ([]any, error) {
		vals := make([]float64, len(cs))
		for i := range vals {
			vals[i] = g.binomial(cs[i], ps[i])
		}
		return one(floatValues(dt, vals, shape)), nil
	})
}

// binomial is ATen's sample_binomial.
func (g *Generator) binomial(count, prob float64) float64 {
	switch {
	case count <= 0 || prob <= 0:
		return 0
	case prob >= 1:
		return count
	case prob <= 0.5:
		if count*prob >= 10 {
			return g.btrs(count, prob)
		}
		return g.binomialInversion(count, prob)
	case prob > 0.5:
		q := 1 - prob
		if count*q >= 10 {
			return count - g.btrs(count, q)
		}
		return count - g.binomialInversion(count, q)
	}
	return math.NaN()
}

func (g *Generator) binomialInversion(count, prob float64) float64 {
	var geomSum, num float64
	logprob := math.Log1p(-prob)
	for {
		geomSum += math.Ceil(math.Log(g.uniform(tensor.Float64, 0, 1)) / logprob)
		if geomSum > count {
			return num
		}
		num++
	}
}

// stirlingTail is ATen's stirling_approx_tail.
func stirlingTail(k float64) float64 {
	tail := [...]float64{0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
		0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
		0.00833056343336287}
	if k <= 9 {
		return tail[int(k)]
	}
	kp1sq := (k + 1) * (k + 1)
	return (1.0/12 - (1.0/360-1.0/1260/kp1sq)/kp1sq) / (k + 1)
}

func (g *Generator) btrs(count, prob float64) float64 {
	stddev := math.Sqrt(count * prob * (1 - prob))
	b := 1.15 + 2.53*stddev
	a := -0.0873 + 0.0248*b + 0.01*prob
	cc := count*prob + 0.5
	vr := 0.92 - 4.2/b
	r := prob / (1 - prob)
	alpha := (2.83 + 5.1/b) * stddev
	m := math.Floor((count + 1) * prob)
	for {
		U := g.uniform(tensor.Float64, 0, 1) - 0.5
		V := g.uniform(tensor.Float64, 0, 1)
		us := 0.5 - math.Abs(U)
		k := math.Floor((2*a/us+b)*U + cc)
		if k < 0 || k > count {
			continue
		}
		if us >= 0.07 && V <= vr {
			return k
		}
		V = math.Log(V * alpha / (a/(us*us) + b))
		upper := (m+0.5)*math.Log((m+1)/(r*(count-m+1))) +
			(count+1)*math.Log((count-m+1)/(count-k+1)) +
			(k+0.5)*math.Log(r*(count-k+1)/(k+1)) +
			stirlingTail(m) + stirlingTail(count-m) - stirlingTail(k) - stirlingTail(count-k)
		if V <= upper {
			return k
		}
	}
}

// gamma is ATen's sample_gamma (Marsaglia and Tsang, with alpha below 1
// boosted by u^(1/alpha)) on uniform and normal doubles; single says
// whether alpha's own type is float32, in which alpha += 1 rounds.
func (g *Generator) gamma(alpha float64, single bool) float64 {
	scale := 1.0
	if alpha < 1 {
		if alpha == 0 {
			return 0
		}
		e := 1 / alpha
		if single {
			e = float64(1 / float32(alpha))
		}
		scale *= math.Pow(1-g.uniform(tensor.Float64, 0, 1), e)
		alpha++
		if single {
			alpha = float64(float32(alpha))
		}
	}
	d := alpha - float64(float32(1.0)/float32(3.0))
	c := 1 / math.Sqrt(9*d)
	for {
		var x, y float64
		for {
			x = g.normal(0, 1)
			y = 1 + c*x
			if y > 0 {
				break
			}
		}
		v := y * y * y
		u := 1 - g.uniform(tensor.Float64, 0, 1)
		xx := x * x
		if u < 1-float64(float32(0.0331))*xx*xx {
			return scale * d * v
		}
		if math.Log(u) < 0.5*xx+d*(1-v+math.Log(v)) {
			return scale * d * v
		}
	}
}

// standardGamma is aten::_standard_gamma: a Gamma(alpha, 1) sample per
// element of self, at least the dtype's smallest normal number.
func standardGamma(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt := self.DType()
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return nil, notImplemented(c, "self", "gamma_cpu", dt)
	}
	if self.IsMeta() {
		return oneOrErr(tensor.NewMeta(dt, self.Shape()...))
	}
	alphas := self.Float64s()
	tiny := math.SmallestNonzeroFloat64 * (1 << 52) // DBL_MIN
	if dt == tensor.Float32 {
		tiny = float64(math.Float32frombits(0x00800000)) // FLT_MIN
	}
	return draw(c, func(g *Generator) ([]any, error) {
		vals := make([]float64, len(alphas))
		for i, a := range alphas {
			v := g.gamma(a, dt == tensor.Float32)
			if dt == tensor.Float32 {
				v = float64(float32(v))
			}
			vals[i] = max(tiny, v)
		}
		return one(floatValues(dt, vals, self.Shape())), nil
	})
}

// sampleDirichlet is aten::_sample_dirichlet: per row of the last
// dimension, Gamma(alpha, 1) samples in float64 normalized to sum 1.
func sampleDirichlet(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt := self.DType()
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return nil, notImplemented(c, "self", "dirichlet", dt)
	}
	if self.Dim() == 0 {
		return nil, c.Errorf("self", "expected at least one dimension of concentrations")
	}
	if self.IsMeta() {
		return oneOrErr(tensor.NewMeta(dt, self.Shape()...))
	}
	alphas := self.Float64s()
	k := self.Size(self.Dim() - 1)
	tiny := math.SmallestNonzeroFloat64 * (1 << 52)
	return draw(c, func(g *Generator) ([]any, error) {
		vals := make([]float64, len(alphas))
		for i, a := range alphas {
			vals[i] = max(tiny, g.gamma(a, false))
		}
		for r := 0; r+k <= len(vals) && k > 0; r += k {
			var sum float64
			for _, v := range vals[r : r+k] {
				sum += v
			}
			for j := r; j < r+k; j++ {
				vals[j] /= sum
			}
		}
		return one(floatValues(dt, vals, self.Shape())), nil
	})
}
