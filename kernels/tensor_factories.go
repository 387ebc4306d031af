package kernels

import (
	"math"
	"math/big"
	"sort"
	"strings"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Factories, ATen's TensorFactories.cpp (and RangeFactories.cpp): empty,
// empty_strided, empty_like, full, ones, zeros, full_like, zeros_like,
// ones_like, the new_* methods, scalar_tensor, arange (all overloads), eye,
// linspace, logspace and clone. The random factories (rand, randn,
// randint, randperm, ...) are in random.go.

// registerTensorFactories registers the kernels of tensor_factories.go.
func registerTensorFactories() {
	registerBoth("aten::full", fullOp)
	registerBoth("aten::full_like", fullLike)
	registerBoth("aten::zeros_like", zerosLike)
	registerBoth("aten::ones_like", onesLike)
	registerBoth("aten::arange.start_step", arange)
	registerBoth("aten::scalar_tensor", scalarTensor)
	registerBoth("aten::clone", clone)
	registerBoth("aten::empty.memory_format", emptyKernel)
	registerBoth("aten::empty_strided", emptyStrided)
	registerBoth("aten::ones", func(c *ops.Call) ([]any, error) { return filled(c, 1) })
	registerBoth("aten::zeros", func(c *ops.Call) ([]any, error) { return filled(c, 0) })
	registerBoth("aten::new_full", func(c *ops.Call) ([]any, error) { return newFilled(c, "fill_value", c.Scalar("fill_value")) })
	registerBoth("aten::new_ones", func(c *ops.Call) ([]any, error) { return newFilled(c, "self", ops.IntScalar(1)) })
	registerBoth("aten::new_zeros", func(c *ops.Call) ([]any, error) { return newFilled(c, "self", ops.IntScalar(0)) })
	registerBoth("aten::new_empty", func(c *ops.Call) ([]any, error) { return newFilled(c, "self", ops.IntScalar(0)) })
	registerBoth("aten::new_empty_strided", newEmptyStrided)
	registerBoth("aten::empty_like", emptyLike)
	registerBoth("aten::arange", arangeEnd)
	registerBoth("aten::arange.start", arangeStart)
	registerBoth("aten::eye", eye)
	registerBoth("aten::eye.m", eye)
	registerBoth("aten::linspace", linspace)
	registerBoth("aten::logspace", logspace)
	for _, ov := range []string{".Tensor_Tensor", ".Tensor_Scalar", ".Scalar_Tensor"} {
		registerBoth("aten::linspace"+ov, rangeTensor("linspace", linspace))
		registerBoth("aten::logspace"+ov, rangeTensor("logspace", logspace))
	}
}

// floatMax is the largest finite value of floating dtype dt.
func floatMax(dt tensor.DType) float64 {
	switch dt {
	case tensor.Float32:
		return math.MaxFloat32
	case tensor.Float16:
		return 65504
	case tensor.BFloat16:
		return 3.3895313892515355e38
	}
	return math.MaxFloat64
}

// intRange is the range of integral dtype dt.
func intRange(dt tensor.DType) (lo, hi int64) {
	switch dt {
	case tensor.Int32:
		return math.MinInt32, math.MaxInt32
	case tensor.Int16:
		return math.MinInt16, math.MaxInt16
	case tensor.Int8:
		return math.MinInt8, math.MaxInt8
	case tensor.Uint8:
		return 0, math.MaxUint8
	}
	return math.MinInt64, math.MaxInt64
}

// scalarValue converts Scalar s to dtype dt as c10::Scalar::to<T> does
// (c10::checked_convert): an error blaming arg when the value overflows the
// dtype, except that infinities and NaN fit floating dtypes, anything fits
// bool, and negative ints wrap into uint8 down to -255. The result holds an
// int64 for integral dtypes, a float64 for floating ones and a bool for
// bool.
func scalarValue(c *ops.Call, arg string, s ops.Scalar, dt tensor.DType) (ops.Scalar, error) {
	bad := func() (ops.Scalar, error) {
		return ops.Scalar{}, c.Errorf(arg, "value cannot be converted to type %s without overflow", cppTypeName(dt))
	}
	switch {
	case dt == tensor.Bool:
		if s.IsFloat() {
			return ops.BoolScalar(s.Float() != 0), nil
		}
		return ops.BoolScalar(s.Int() != 0), nil
	case s.IsBool():
		if dt.IsFloat() {
			return ops.FloatScalar(s.Float()), nil
		}
		return ops.IntScalar(s.Int()), nil
	case dt.IsFloat():
		if s.IsInt() {
			v := s.Int()
			if dt == tensor.Float16 && (v > 65504 || v < -65504) {
				return bad()
			}
			return ops.FloatScalar(float64(v)), nil
		}
		v := s.Float()
		if !math.IsInf(v, 0) && !math.IsNaN(v) && math.Abs(v) > floatMax(dt) {
			return bad()
		}
		return ops.FloatScalar(v), nil
	}
	lo, hi := intRange(dt)
	if s.IsInt() {
		v := s.Int()
		if v > hi || v < lo && !(dt == tensor.Uint8 && v >= -255) {
			return bad()
		}
		return ops.IntScalar(v), nil
	}
	v := s.Float()
	if math.IsNaN(v) || math.IsInf(v, 0) || v < float64(lo) || v > float64(hi) {
		return bad()
	}
	if v >= 0x1p63 {
		// Passes the check (2^63 compares equal to INT64_MAX in double);
		// the x86 conversion gives the integer indefinite.
		return ops.IntScalar(math.MinInt64), nil
	}
	return ops.IntScalar(int64(v)), nil
}

// fullTensor returns a tensor of dt and shape filled with v, a Scalar already
// converted by scalarValue; a meta tensor when isMeta.
func fullTensor(isMeta bool, dt tensor.DType, shape []int, v ops.Scalar) (*tensor.Tensor, error) {
	if isMeta {
		return tensor.NewMeta(dt, shape...)
	}
	if v.IsFloat() {
		return tensor.Full(dt, v.Float(), shape...)
	}
	return tensor.FullInt(dt, v.Int(), shape...)
}

// factoryOptions checks the layout, device and pin_memory arguments of a
// factory and reports whether the result is to be a meta tensor (device
// "meta", or a meta self for the *_like factories).
func factoryOptions(c *ops.Call, self *tensor.Tensor) (bool, error) {
	if !c.IsNone("layout") {
		if l := c.Str("layout"); l != "strided" {
			return false, c.Errorf("layout", "layout %s is not supported: only strided tensors are", l)
		}
	}
	isMeta := self != nil && self.IsMeta()
	if !c.IsNone("device") {
		switch d := c.Str("device"); {
		case d == "meta" || strings.HasPrefix(d, "meta:"):
			isMeta = true
		case d == "cpu" || strings.HasPrefix(d, "cpu:"):
		default:
			return false, c.Errorf("device", "device %s is not supported: the reference kernels run on the cpu", d)
		}
	}
	return isMeta, nil
}

// dtypeOr is the dtype argument of a factory, or def when it is None.
func dtypeOr(c *ops.Call, def tensor.DType) tensor.DType {
	if dt, ok := c.DType("dtype"); ok {
		return dt
	}
	return def
}

// dtypeArg is the dtype argument as an operator argument: the DType, or
// nil (None) when it is None.
func dtypeArg(c *ops.Call) any {
	if dt, ok := c.DType("dtype"); ok {
		return dt
	}
	return nil
}

// optInts is the int[]? argument name as an operator argument: its
// []int64, or nil (None) when it is None.
func optInts(c *ops.Call, name string) any {
	if c.IsNone(name) {
		return nil
	}
	return c.Ints(name)
}

// fullSize converts a size argument, rejecting negative dimensions.
func fullSize(c *ops.Call, arg string, v []int64) ([]int, error) {
	for _, d := range v {
		if d < 0 {
			return nil, c.Errorf(arg, "Trying to create tensor with negative dimension %d: %v", d, v)
		}
	}
	s, err := sizesArg(c, arg, v)
	if err != nil {
		return nil, err
	}
	if _, err := tensor.Numel(s); err != nil {
		return nil, c.Errorf(arg, "%v", err)
	}
	return s, nil
}

// fullOp is aten::full: a tensor of size filled with fill_value. Without
// dtype the dtype follows the Scalar: int64 for an int (and for a bool,
// which PyTorch's Python binding passes as an int), float32 for a float.
func fullOp(c *ops.Call) ([]any, error) {
	size, err := fullSize(c, "size", c.Ints("size"))
	if err != nil {
		return nil, err
	}
	isMeta, err := factoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	fill := c.Scalar("fill_value")
	dt, ok := c.DType("dtype")
	if !ok {
		dt = tensor.Int64
		if fill.IsFloat() {
			dt = tensor.Float32
		}
	}
	v, err := scalarValue(c, "fill_value", fill, dt)
	if err != nil {
		return nil, err
	}
	out, err := fullTensor(isMeta, dt, size, v)
	if err != nil {
		return nil, c.Errorf("size", "%v", err)
	}
	return one(out), nil
}

// like is the common part of full_like, zeros_like and ones_like: a
// tensor of self's shape and of dtype (default self's dtype) filled with
// fill.
func like(c *ops.Call, fillArg string, fill ops.Scalar) ([]any, error) {
	x := c.Tensor("self")
	isMeta, err := factoryOptions(c, x)
	if err != nil {
		return nil, err
	}
	if err := checkMemoryFormat(c, x.Dim()); err != nil {
		return nil, err
	}
	dt := dtypeOr(c, x.DType())
	v, err := scalarValue(c, fillArg, fill, dt)
	if err != nil {
		return nil, err
	}
	out, err := fullTensor(isMeta, dt, x.Shape(), v)
	if err != nil {
		return nil, c.Errorf("self", "%v", err)
	}
	return one(out), nil
}

// fullLike is aten::full_like: a tensor like self filled with
// fill_value.
func fullLike(c *ops.Call) ([]any, error) {
	return like(c, "fill_value", c.Scalar("fill_value"))
}

// zerosLike is aten::zeros_like: a tensor of zeros like self.
func zerosLike(c *ops.Call) ([]any, error) { return like(c, "self", ops.IntScalar(0)) }

// onesLike is aten::ones_like: a tensor of ones like self.
func onesLike(c *ops.Call) ([]any, error) { return like(c, "self", ops.IntScalar(1)) }

// scalarTensor is aten::scalar_tensor: a 0-d tensor holding s, float32
// unless dtype is given.
func scalarTensor(c *ops.Call) ([]any, error) {
	isMeta, err := factoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	dt := dtypeOr(c, tensor.Float32)
	v, err := scalarValue(c, "s", c.Scalar("s"), dt)
	if err != nil {
		return nil, err
	}
	return one(tensor.Must(fullTensor(isMeta, dt, []int{}, v))), nil
}

// arangeAccType is the dtype ATen's arange computes in for dt (at::acc_type on
// the CPU): float64 for float32/float64, float32 for float16/bfloat16,
// int64 for the integral dtypes.
func arangeAccType(dt tensor.DType) tensor.DType {
	switch dt {
	case tensor.Float32, tensor.Float64:
		return tensor.Float64
	case tensor.Float16, tensor.BFloat16:
		return tensor.Float32
	}
	return tensor.Int64
}

// vecSize is the number of elements of ATen's Vectorized<T> for dt under
// the AVX2 CPU capability PyTorch 1.13 uses: 32 bytes.
func vecSize(dt tensor.DType) int { return 32 / dt.Size() }

// arange is aten::arange.start_step: start, start+step, ... up to end
// (excluded). Without dtype the result is int64 when every Scalar is an
// int (or bool), float32 otherwise. The size is ceil((end-start)/step) in
// double, and the values reproduce ATen's CPU kernel bit for bit: start +
// step*i in the accumulate type (with a fused multiply-add, as the
// AVX2-compiled kernel does), except inside its vectorized blocks, where
// element j of a vector is base + j*step from the vector's first element
// base rounded to the dtype.
func arange(c *ops.Call) ([]any, error) {
	isMeta, err := factoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	start, end, step := c.Scalar("start"), c.Scalar("end"), c.Scalar("step")
	dt, ok := c.DType("dtype")
	if !ok {
		dt = tensor.Float32
		if !start.IsFloat() && !end.IsFloat() && !step.IsFloat() {
			dt = tensor.Int64
		}
	}
	if dt == tensor.Bool {
		return nil, c.Errorf("dtype", "\"arange_cpu\" not implemented for 'Bool'")
	}
	acc := arangeAccType(dt)
	xs, err := scalarValue(c, "start", start, acc)
	if err != nil {
		return nil, err
	}
	xe, err := scalarValue(c, "end", end, acc)
	if err != nil {
		return nil, err
	}
	xst, err := scalarValue(c, "step", step, acc)
	if err != nil {
		return nil, err
	}
	var sizeD float64
	if dt == tensor.Int64 {
		sizeD = math.Ceil(float64(xe.Int()-xs.Int()) / float64(xst.Int()))
	} else {
		sizeD = math.Ceil((end.Float() - start.Float()) / step.Float())
	}
	var s0, e0, st float64 // the accumulate-type values, for the checks
	if acc == tensor.Int64 {
		s0, e0, st = float64(xs.Int()), float64(xe.Int()), float64(xst.Int())
		if xst.Int() == 0 {
			st = 0
		}
	} else {
		s0, e0, st = xs.Float(), xe.Float(), xst.Float()
		if acc == tensor.Float32 {
			s0, e0, st = float64(float32(s0)), float64(float32(e0)), float64(float32(st))
		}
	}
	if !(st > 0 || st < 0) {
		return nil, c.Errorf("step", "step must be nonzero")
	}
	if math.IsInf(s0, 0) || math.IsNaN(s0) || math.IsInf(e0, 0) || math.IsNaN(e0) {
		return nil, c.Errorf("end", "unsupported range: %v -> %v", start, end)
	}
	if acc == tensor.Int64 {
		a, b, s := xs.Int(), xe.Int(), xst.Int()
		if !((s > 0 && b >= a) || (s < 0 && b <= a)) {
			return nil, c.Errorf("step", "upper bound and larger bound inconsistent with step sign")
		}
	} else if !((st > 0 && e0 >= s0) || (st < 0 && e0 <= s0)) {
		return nil, c.Errorf("step", "upper bound and larger bound inconsistent with step sign")
	}
	if !(sizeD >= 0 && sizeD <= float64(math.MaxInt64)) {
		return nil, c.Errorf("end", "invalid size, possible overflow?")
	}
	if sizeD > tensor.MaxElements {
		return nil, c.Errorf("end", "arange of %v elements is too large", sizeD)
	}
	n := int(sizeD)
	if isMeta {
		return one(tensor.Must(tensor.NewMeta(dt, n))), nil
	}
	switch acc {
	case tensor.Int64:
		a, s := xs.Int(), xst.Int()
		vals := make([]int64, n)
		for i := range vals {
			vals[i] = a + s*int64(i)
		}
		return one(tensor.Must(tensor.FromInt64s(dt, vals, n))), nil
	case tensor.Float64:
		return one(tensor.Must(tensor.FromFloat64s(dt, arangeF64(dt, s0, st, n), n))), nil
	}
	return one(tensor.Must(tensor.FromFloat64s(dt, arangeF32(dt, float32(s0), float32(st), n), n))), nil
}

// arangeBlocks calls scalar(i) for the elements ATen's vectorized loop
// computes one by one and vector(b, j) for element b+j of the vectors,
// which it fills two at a time while 2*V elements remain.
func arangeBlocks(n, v int, scalar func(i int), vector func(b, j int)) {
	i := 0
	for ; i <= n-2*v; i += 2 * v {
		for _, b := range []int{i, i + v} {
			for j := 0; j < v; j++ {
				vector(b, j)
			}
		}
	}
	for ; i < n; i++ {
		scalar(i)
	}
}

// arangeF64 computes arange values for float32 and float64 (accumulated
// in double), rounded to dt.
func arangeF64(dt tensor.DType, start, step float64, n int) []float64 {
	round := func(x float64) float64 {
		if dt == tensor.Float32 {
			return float64(float32(x))
		}
		return x
	}
	vals := make([]float64, n)
	base := 0.0
	arangeBlocks(n, vecSize(dt),
		func(i int) { vals[i] = round(math.FMA(step, float64(i), start)) },
		func(b, j int) {
			if j == 0 {
				base = round(math.FMA(step, float64(b), start))
			}
			vals[b+j] = round(math.FMA(float64(j), step, base))
		})
	return vals
}

// arangeF32 computes arange values for float16 and bfloat16 (accumulated
// in float), rounded to dt.
func arangeF32(dt tensor.DType, start, step float32, n int) []float64 {
	round := func(x float32) float32 {
		if dt == tensor.Float16 {
			return tensor.HalfFromFloat32(x).Float32()
		}
		return tensor.BHalfFromFloat32(x).Float32()
	}
	vals := make([]float64, n)
	var base float32
	arangeBlocks(n, vecSize(dt),
		func(i int) { vals[i] = float64(round(fma32(step, float32(i), start))) },
		func(b, j int) {
			if j == 0 {
				base = round(fma32(step, float32(b), start))
			}
			// The generic Vectorized<T>::arange is not contracted.
			vals[b+j] = float64(round(base + float32(float32(j)*step)))
		})
	return vals
}

// fma32 returns a*b+c rounded once to float32.
func fma32(a, b, c float32) float32 {
	p := new(big.Float).SetPrec(200).SetFloat64(float64(a))
	p.Mul(p, new(big.Float).SetFloat64(float64(b)))
	p.Add(p, new(big.Float).SetFloat64(float64(c)))
	f, _ := p.Float32()
	return f
}

// clone is aten::clone: a contiguous copy of self.
func clone(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	if err := checkMemoryFormat(c, x.Dim()); err != nil {
		return nil, err
	}
	return one(rebase(x).Clone()), nil
}

// emptyLayout returns a tensor of dt with the given shape and strides
// over a new zeroed storage; a meta tensor (with contiguous strides) when
// isMeta.
func emptyLayout(c *ops.Call, arg string, isMeta bool, dt tensor.DType, shape, strides []int) (*tensor.Tensor, error) {
	if isMeta {
		return tensor.NewMeta(dt, shape...)
	}
	n := storageSize(shape, strides)
	if n > tensor.MaxElements {
		return nil, c.Errorf(arg, "sizes %v with strides %v need a storage of %d elements, which is too large", shape, strides, n)
	}
	st, err := tensor.New(dt, n)
	if err != nil {
		return nil, c.Errorf(arg, "%v", err)
	}
	v, err := st.AsStrided(shape, strides, 0)
	if err != nil {
		return nil, c.Errorf(arg, "%v", err)
	}
	return v, nil
}

// emptyKernel is aten::empty.memory_format. PyTorch leaves the contents
// unspecified (uninitialized memory); here they are zeros. The strides
// follow memory_format; the dtype defaults to float32.
func emptyKernel(c *ops.Call) ([]any, error) {
	shape, err := fullSize(c, "size", c.Ints("size"))
	if err != nil {
		return nil, err
	}
	isMeta, err := factoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	dt := dtypeOr(c, tensor.Float32)
	strides, err := formatStrides(c, "memory_format", shape)
	if err != nil {
		return nil, err
	}
	out, err := emptyLayout(c, "size", isMeta, dt, shape, strides)
	if err != nil {
		return nil, err
	}
	return one(out), nil
}

// emptyStrided is aten::empty_strided: a tensor with the given sizes and
// strides over a new storage just large enough. PyTorch leaves the
// contents unspecified; here they are zeros.
func emptyStrided(c *ops.Call) ([]any, error) {
	size, stride := c.Ints("size"), c.Ints("stride")
	if len(size) != len(stride) {
		return nil, c.Errorf("stride", "dimensionality of sizes (%d) must match dimensionality of strides (%d)", len(size), len(stride))
	}
	shape, err := fullSize(c, "size", size)
	if err != nil {
		return nil, err
	}
	strides, err := stridesArg(c, "stride", "empty_strided", stride)
	if err != nil {
		return nil, err
	}
	isMeta, err := factoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	dt := dtypeOr(c, tensor.Float32)
	out, err := emptyLayout(c, "size", isMeta, dt, shape, strides)
	if err != nil {
		return nil, err
	}
	return one(out), nil
}

// filled is aten::ones and aten::zeros: a tensor of size filled with v,
// float32 unless dtype is given.
func filled(c *ops.Call, v int64) ([]any, error) {
	size, err := fullSize(c, "size", c.Ints("size"))
	if err != nil {
		return nil, err
	}
	isMeta, err := factoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	dt := dtypeOr(c, tensor.Float32)
	s, err := scalarValue(c, "size", ops.IntScalar(v), dt)
	if err != nil {
		return nil, err
	}
	out, err := fullTensor(isMeta, dt, size, s)
	if err != nil {
		return nil, c.Errorf("size", "%v", err)
	}
	return one(out), nil
}

// newFilled is the new_* factories (new_full, new_ones, new_zeros,
// new_empty): a tensor of size, of self's dtype unless dtype is given,
// filled with fill (converted with the overflow check, blaming arg).
func newFilled(c *ops.Call, arg string, fill ops.Scalar) ([]any, error) {
	self := c.Tensor("self")
	size, err := fullSize(c, "size", c.Ints("size"))
	if err != nil {
		return nil, err
	}
	isMeta, err := factoryOptions(c, self)
	if err != nil {
		return nil, err
	}
	dt := dtypeOr(c, self.DType())
	v, err := scalarValue(c, arg, fill, dt)
	if err != nil {
		return nil, err
	}
	out, err := fullTensor(isMeta, dt, size, v)
	if err != nil {
		return nil, c.Errorf("size", "%v", err)
	}
	return one(out), nil
}

// newEmptyStrided is aten::new_empty_strided: empty_strided with self's
// dtype by default. PyTorch leaves the contents unspecified; here they are
// zeros.
func newEmptyStrided(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	size, stride := c.Ints("size"), c.Ints("stride")
	if len(size) != len(stride) {
		return nil, c.Errorf("stride", "dimensionality of sizes (%d) must match dimensionality of strides (%d)", len(size), len(stride))
	}
	shape, err := fullSize(c, "size", size)
	if err != nil {
		return nil, err
	}
	strides, err := stridesArg(c, "stride", "new_empty_strided", stride)
	if err != nil {
		return nil, err
	}
	isMeta, err := factoryOptions(c, self)
	if err != nil {
		return nil, err
	}
	dt := dtypeOr(c, self.DType())
	out, err := emptyLayout(c, "size", isMeta, dt, shape, strides)
	if err != nil {
		return nil, err
	}
	return one(out), nil
}

// emptyLike is aten::empty_like: a tensor of self's shape and (by
// default) dtype. PyTorch leaves the contents unspecified; here they are
// zeros. The strides follow memory_format; preserve_format (the default)
// keeps self's strides when self is dense and non-overlapping, as ATen
// does, and is contiguous otherwise.
func emptyLike(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	isMeta, err := factoryOptions(c, self)
	if err != nil {
		return nil, err
	}
	dt := dtypeOr(c, self.DType())
	shape := self.Shape()
	var strides []int
	if c.IsNone("memory_format") || c.Str("memory_format") == "preserve_format" {
		strides = tensor.ContiguousStrides(shape)
		if !self.IsMeta() && denseNonOverlapping(shape, self.Strides()) {
			strides = self.Strides()
		}
	} else if strides, err = formatStrides(c, "memory_format", shape); err != nil {
		return nil, err
	}
	out, err := emptyLayout(c, "self", isMeta, dt, shape, strides)
	if err != nil {
		return nil, err
	}
	return one(out), nil
}

// denseNonOverlapping reports whether a layout covers exactly
// numel storage elements without overlap (some permutation of contiguous
// strides), ATen's is_non_overlapping_and_dense.
func denseNonOverlapping(shape, strides []int) bool {
	perm := make([]int, len(shape))
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(a, b int) bool {
		sa, sb := shape[perm[a]] < 2, shape[perm[b]] < 2
		if sa != sb {
			return sb // size-1 dims sort last, they do not matter
		}
		return strides[perm[a]] < strides[perm[b]]
	})
	want := 1
	for _, d := range perm {
		if shape[d] == 1 {
			continue
		}
		if strides[d] != want {
			return false
		}
		want *= shape[d]
	}
	return true
}

// arangeEnd is aten::arange(end): arange.start_step from 0 by 1.
func arangeEnd(c *ops.Call) ([]any, error) {
	return delegateKernel("aten::arange.start_step", arange,
		[]any{ops.IntScalar(0), c.Scalar("end"), ops.IntScalar(1)}, factoryKwargs(c))
}

// arangeStart is aten::arange.start: arange.start_step by 1.
func arangeStart(c *ops.Call) ([]any, error) {
	return delegateKernel("aten::arange.start_step", arange,
		[]any{c.Scalar("start"), c.Scalar("end"), ops.IntScalar(1)}, factoryKwargs(c))
}

// factoryKwargs returns the dtype, layout, device and pin_memory keyword
// arguments of a factory call, those that are set.
func factoryKwargs(c *ops.Call) map[string]any {
	kw := map[string]any{}
	for _, name := range []string{"dtype", "layout", "device", "pin_memory"} {
		if !c.IsNone(name) {
			kw[name] = c.Arg(name)
		}
	}
	return kw
}

// eye is aten::eye and aten::eye.m: an n×m (n×n) matrix with ones on the
// diagonal, float32 unless dtype is given.
func eye(c *ops.Call) ([]any, error) {
	n := c.Int("n")
	m := n
	hasM := false
	for _, a := range c.Op.Schema().Args {
		hasM = hasM || a.Name == "m"
	}
	if hasM {
		m = c.Int("m")
	}
	if n < 0 {
		return nil, c.Errorf("n", "n must be greater or equal to 0, got %d", n)
	}
	if m < 0 {
		return nil, c.Errorf("m", "m must be greater or equal to 0, got %d", m)
	}
	size, err := fullSize(c, "n", []int64{n, m})
	if err != nil {
		return nil, err
	}
	isMeta, err := factoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	dt := dtypeOr(c, tensor.Float32)
	if isMeta {
		return one(tensor.Must(tensor.NewMeta(dt, size...))), nil
	}
	vals := make([]int64, size[0]*size[1])
	for i := 0; i < min(size[0], size[1]); i++ {
		vals[i*size[1]+i] = 1
	}
	return one(tensor.Must(tensor.FromInt64s(dt, vals, size...))), nil
}

// linspace is aten::linspace: steps values from start to end, float32
// unless dtype is given. As ATen's CPU kernel, the first half counts up
// from start and the second half down from end by step =
// (end-start)/(steps-1), computed in the dtype (in double for integral
// dtypes), element by element and in vectors the way arange's are.
func linspace(c *ops.Call) ([]any, error) {
	steps := c.Int("steps")
	if steps < 0 {
		return nil, c.Errorf("steps", "number of steps must be non-negative")
	}
	if steps > tensor.MaxElements {
		return nil, c.Errorf("steps", "linspace of %d elements is too large", steps)
	}
	isMeta, err := factoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	dt := dtypeOr(c, tensor.Float32)
	if dt == tensor.Bool {
		return nil, c.Errorf("dtype", "\"linspace_cpu\" not implemented for 'Bool'")
	}
	n := int(steps)
	if isMeta {
		return one(tensor.Must(tensor.NewMeta(dt, n))), nil
	}
	st, err := scalarValue(c, "start", c.Scalar("start"), dt)
	if err != nil {
		return nil, err
	}
	en, err := scalarValue(c, "end", c.Scalar("end"), dt)
	if err != nil {
		return nil, err
	}
	if n == 1 {
		return one(tensor.Must(fullTensor(false, dt, []int{1}, st))), nil
	}
	half := n / 2
	vals := make([]float64, n)
	switch dt {
	case tensor.Float64:
		s, e := st.Float(), en.Float()
		step := (e - s) / float64(n-1)
		at := func(i int) float64 {
			if i < half {
				return math.FMA(step, float64(i), s)
			}
			return math.FMA(-step, float64(n-i-1), e)
		}
		var base float64
		arangeBlocks(n, vecSize(dt), func(i int) { vals[i] = at(i) }, func(b, j int) {
			if j == 0 {
				base = at(b)
			}
			vals[b+j] = base + float64(float64(j)*step)
		})
	case tensor.Float32, tensor.Float16, tensor.BFloat16:
		round := func(x float32) float32 { return float32(roundTo(dt, float64(x))) }
		s, e := round(float32(st.Float())), round(float32(en.Float()))
		step := round((e - s) / float32(n-1))
		at := func(i int) float32 {
			if dt != tensor.Float32 {
				if i < half {
					return round(s + round(step*round(float32(i))))
				}
				return round(e - round(step*round(float32(n-i-1))))
			}
			if i < half {
				return fma32(step, float32(i), s)
			}
			return fma32(-step, float32(n-i-1), e)
		}
		var base float32
		arangeBlocks(n, vecSize(dt), func(i int) { vals[i] = float64(at(i)) }, func(b, j int) {
			if j == 0 {
				base = at(b)
			}
			if dt == tensor.Float32 {
				// Vectorized<float>::arange is not contracted.
				vals[b+j] = float64(base + float32(float32(j)*step))
			} else {
				vals[b+j] = float64(round(base + round(float32(j)*step)))
			}
		})
	default:
		// Integral: step in double, each value truncated to the dtype.
		s, e := float64(st.Int()), float64(en.Int())
		step := (e - s) / float64(n-1)
		at := func(i int) float64 {
			if i < half {
				return math.Trunc(s + step*float64(i))
			}
			return math.Trunc(e - step*float64(n-i-1))
		}
		var base float64
		arangeBlocks(n, vecSize(dt), func(i int) { vals[i] = at(i) }, func(b, j int) {
			if j == 0 {
				base = at(b)
			}
			vals[b+j] = math.Trunc(base + float64(j)*step)
		})
		iv := make([]int64, n)
		for i, v := range vals {
			iv[i] = int64(v)
		}
		return one(tensor.Must(tensor.FromInt64s(dt, iv, n))), nil
	}
	return one(tensor.Must(tensor.FromFloat64s(dt, vals, n))), nil
}

// logspace is aten::logspace: base raised to steps values from start to
// end, float32 unless dtype is given. As ATen's CPU kernel the exponents
// are start + step*i (first half) and end - step*(steps-i-1), with step =
// (end-start)/(steps-1) in double and start and end in the dtype.
func logspace(c *ops.Call) ([]any, error) {
	steps := c.Int("steps")
	if steps < 0 {
		return nil, c.Errorf("steps", "number of steps must be non-negative")
	}
	if steps > tensor.MaxElements {
		return nil, c.Errorf("steps", "logspace of %d elements is too large", steps)
	}
	isMeta, err := factoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	dt := dtypeOr(c, tensor.Float32)
	if dt == tensor.Bool {
		return nil, c.Errorf("dtype", "\"logspace_cpu\" not implemented for 'Bool'")
	}
	n := int(steps)
	if isMeta {
		return one(tensor.Must(tensor.NewMeta(dt, n))), nil
	}
	base := c.Float("base")
	st, err := scalarValue(c, "start", c.Scalar("start"), dt)
	if err != nil {
		return nil, err
	}
	en, err := scalarValue(c, "end", c.Scalar("end"), dt)
	if err != nil {
		return nil, err
	}
	if n == 1 {
		// result.fill_(std::pow(base, start.to<double>())).
		v := math.Pow(base, c.Scalar("start").Float())
		s, err := scalarValue(c, "start", ops.FloatScalar(v), dt)
		if err != nil {
			return nil, err
		}
		if !dt.IsFloat() {
			s = ops.IntScalar(int64(v))
		}
		return one(tensor.Must(fullTensor(false, dt, []int{1}, s))), nil
	}
	var s, e float64
	if dt.IsFloat() {
		s, e = roundTo(dt, st.Float()), roundTo(dt, en.Float())
	} else {
		s, e = float64(st.Int()), float64(en.Int())
	}
	diff := e - s
	if dt.IsFloat() {
		diff = roundTo(dt, diff) // scalar_end - scalar_start in scalar_t
	}
	step := diff / float64(n-1)
	vals := make([]float64, n)
	for i := range vals {
		if i < n/2 {
			vals[i] = math.Pow(base, s+step*float64(i))
		} else {
			vals[i] = math.Pow(base, e-step*float64(n-i-1))
		}
	}
	if !dt.IsFloat() {
		iv := make([]int64, n)
		for i, v := range vals {
			iv[i] = int64(v)
		}
		return one(tensor.Must(tensor.FromInt64s(dt, iv, n))), nil
	}
	return one(tensor.Must(tensor.FromFloat64s(dt, vals, n))), nil
}

// rangeTensorArgs returns the start and end arguments of a linspace or
// logspace overload as Scalars: the .Tensor_* overloads take them as 0-d
// tensors.
func rangeTensorArgs(c *ops.Call, name string) ([]any, error) {
	var out [2]any
	dims := [2]int{}
	for i, arg := range []string{"start", "end"} {
		switch v := c.Arg(arg).(type) {
		case *tensor.Tensor:
			dims[i] = v.Dim()
			if v.Dim() != 0 {
				break
			}
			if v.IsMeta() {
				return nil, nil // the values are data; the caller makes a meta result
			}
			if v.DType().IsFloat() {
				out[i] = ops.FloatScalar(v.Float64s()[0])
			} else {
				out[i] = ops.IntScalar(v.Int64s()[0])
			}
		default:
			out[i] = v
		}
	}
	if dims[0] != 0 || dims[1] != 0 {
		return nil, c.Errorf("start", "%s only supports 0-dimensional start and end tensors, but got start with %d dimension(s) and end with %d dimension(s).", name, dims[0], dims[1])
	}
	return out[:], nil
}

// rangeTensor is the .Tensor_Tensor, .Tensor_Scalar and .Scalar_Tensor
// overloads of linspace and logspace (2.x): the Scalar overload with the
// values of the 0-d tensors.
func rangeTensor(name string, kernel ops.Kernel) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		se, err := rangeTensorArgs(c, name)
		if err != nil {
			return nil, err
		}
		if se == nil { // a meta start or end: the shape needs no values
			steps := c.Int("steps")
			if steps < 0 {
				return nil, c.Errorf("steps", "number of steps must be non-negative")
			}
			dt := dtypeOr(c, tensor.Float32)
			return oneOrErr(tensor.NewMeta(dt, int(steps)))
		}
		args := append(se, c.Int("steps"))
		if name == "logspace" {
			args = append(args, c.Float("base"))
		}
		return delegateKernel("aten::"+name, kernel, args, factoryKwargs(c))
	}
}
