package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Window and index factories of ATen's TensorFactories.cpp: the window
// functions (hann, hamming, blackman, bartlett, kaiser), tril_indices,
// triu_indices, vander and the deprecated inclusive range. The windows
// compute in their dtype as ATen's arange(...).mul_(...).cos_()... chains
// do (float32 by default); a periodic window is the symmetric window of
// length+1 without its last element.

// registerWindows registers the kernels of windows.go.
func registerWindows() {
	for _, ov := range []string{"", ".periodic", ".periodic_alpha", ".periodic_alpha_beta"} {
		registerBoth("aten::hamming_window"+ov, func(c *ops.Call) ([]any, error) { return window(c, "hamming_window", hamming) })
	}
	for _, name := range []string{"hann", "blackman", "bartlett", "kaiser"} {
		fn := map[string]windowFn{"hann": hamming, "blackman": blackman, "bartlett": bartlett, "kaiser": kaiser}[name]
		ovs := []string{"", ".periodic"}
		if name == "kaiser" {
			ovs = append(ovs, ".beta")
		}
		for _, ov := range ovs {
			registerBoth("aten::"+name+"_window"+ov, func(c *ops.Call) ([]any, error) { return window(c, name+"_window", fn) })
		}
	}
	registerBoth("aten::tril_indices", func(c *ops.Call) ([]any, error) { return triIndices(c, true) })
	registerBoth("aten::triu_indices", func(c *ops.Call) ([]any, error) { return triIndices(c, false) })
	registerBoth("aten::vander", vander)
	registerBoth("aten::range", rangeOp)
	registerBoth("aten::range.step", rangeOp)
}

// A windowFn returns the n values of a symmetric window (n >= 2), each
// operation rounded by r.
type windowFn func(c *ops.Call, name string, n int, r func(float64) float64) []float64

// window is a window factory: the checks of window_function_checks, the
// lengths 0 and 1, and the periodic trim.
func window(c *ops.Call, name string, fn windowFn) ([]any, error) {
	isMeta, err := factoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	n := c.Int("window_length")
	if n < 0 {
		return nil, c.Errorf("window_length", "%s requires non-negative window_length, got window_length=%d", name, n)
	}
	if n > tensor.MaxElements {
		return nil, c.Errorf("window_length", "%s: window_length %d is too large", name, n)
	}
	dt := dtypeOr(c, tensor.Float32)
	if !dt.IsFloat() {
		return nil, c.Errorf("dtype", "%s expects floating point dtypes, got: %s", name, scalarTypeName(dt))
	}
	periodic := true
	if hasArg(c, "periodic") {
		periodic = c.Bool("periodic")
	}
	if isMeta {
		return oneOrErr(tensor.NewMeta(dt, int(n)))
	}
	switch n {
	case 0:
		return oneOrErr(tensor.New(dt, 0))
	case 1:
		return oneOrErr(tensor.FromFloat64s(dt, []float64{1}, 1))
	}
	m := int(n)
	if periodic {
		m++
	}
	vals := fn(c, name, m, rounder(dt))
	return oneOrErr(tensor.FromFloat64s(dt, vals[:n], int(n)))
}

// hamming is hamming_window (and hann_window, alpha = beta = 0.5):
// alpha - beta·cos(2πk/(n-1)).
func hamming(c *ops.Call, name string, n int, r func(float64) float64) []float64 {
	alpha, beta := 0.54, 0.46
	if name == "hann_window" {
		alpha, beta = 0.5, 0.5
	}
	if hasArg(c, "alpha") {
		alpha = c.Float("alpha")
	}
	if hasArg(c, "beta") {
		beta = c.Float("beta")
	}
	step := r(math.Pi * 2 / float64(n-1))
	out := make([]float64, n)
	for k := range out {
		out[k] = r(r(r(math.Cos(r(float64(k)*step)))*r(-beta)) + r(alpha))
	}
	return out
}

// blackman is blackman_window: 0.08·cos(4w) - 0.5·cos(2w) + 0.42 with
// w = πk/(n-1).
func blackman(_ *ops.Call, _ string, n int, r func(float64) float64) []float64 {
	step := r(math.Pi / float64(n-1))
	out := make([]float64, n)
	for k := range out {
		w := r(float64(k) * step)
		a := r(r(math.Cos(r(w*4))) * r(0.08))
		b := r(r(math.Cos(r(w*2))) * 0.5)
		out[k] = r(r(a-b) + 0.42)
	}
	return out
}

// bartlett is bartlett_window: 2k/(n-1) over the first half, 2 - 2k/(n-1)
// over the rest.
func bartlett(_ *ops.Call, _ string, n int, r func(float64) float64) []float64 {
	step := r(2 / float64(n-1))
	half := (n-1)>>1 + 1
	out := make([]float64, n)
	for k := range out {
		out[k] = r(float64(k) * step)
		if k >= half {
			out[k] = r(-out[k] + 2)
		}
	}
	return out
}

// kaiser is kaiser_window (beta 12 unless given):
// I0(β·√|1-((k-α)/α)²|) / I0(β) with α = (n-1)/2, in the dtype's opmath
// type.
func kaiser(c *ops.Call, _ string, n int, r func(float64) float64) []float64 {
	beta := 12.0
	if hasArg(c, "beta") {
		beta = c.Float("beta")
	}
	op := r
	if r(1+1.0/512) == 1 {
		op = rounder(tensor.Float32)
	}
	alpha, b := op((float64(n)-1)/2), op(beta)
	out := make([]float64, n)
	for k := range out {
		x := op(op(float64(k)-alpha) / alpha)
		out[k] = r(op(besselI0(op(b*op(math.Sqrt(op(math.Abs(op(1-op(x*x)))))))) / besselI0(b)))
	}
	return out
}

// besselI0 is the modified Bessel function of the first kind of order 0,
// Σ ((x/2)^k / k!)², whose terms are positive, summed to double precision.
func besselI0(x float64) float64 {
	sum, term := 1.0, 1.0
	q := x * x / 4
	for k := 1; k < 500; k++ {
		term *= q / float64(k*k)
		sum += term
		if term < sum*1e-17 {
			break
		}
	}
	return sum
}

// triIndices is aten::tril_indices (lower) and triu_indices: the [2, N]
// row and column indices of the lower (c <= r + offset) or upper
// (c >= r + offset) triangle of a row x col matrix, in row-major order,
// int64 by default.
func triIndices(c *ops.Call, lower bool) ([]any, error) {
	isMeta, err := factoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	row, col, off := c.Int("row"), c.Int("col"), c.Int("offset")
	if row < 0 {
		return nil, c.Errorf("row", "row must be non-negative, got%d", row)
	}
	if col < 0 {
		return nil, c.Errorf("col", "col must be non-negative, got%d", col)
	}
	if row*col > tensor.MaxElements || row > tensor.MaxElements || col > tensor.MaxElements {
		return nil, c.Errorf("row", "a %d x %d matrix is too large", row, col)
	}
	dt := dtypeOr(c, tensor.Int64)
	var rs, cs []int64
	for r := int64(0); r < row; r++ {
		for k := int64(0); k < col; k++ {
			if lower && k <= r+off || !lower && k >= r+off {
				rs = append(rs, r)
				cs = append(cs, k)
			}
		}
	}
	if isMeta {
		return oneOrErr(tensor.NewMeta(dt, 2, len(rs)))
	}
	return one(intValues(dt, append(rs, cs...), []int{2, len(rs)})), nil
}

// vander is aten::vander: the [len(x), N] matrix of the powers of x,
// decreasing (x^(N-1) ... 1) unless increasing, built by cumprod as ATen
// does; integer and bool x give int64.
func vander(c *ops.Call) ([]any, error) {
	x := c.Tensor("x")
	if x.Dim() != 1 {
		return nil, c.Errorf("x", "x must be a one-dimensional tensor.")
	}
	n := int64(x.Size(0))
	if v, ok := c.OptInt("N"); ok {
		if v < 0 {
			return nil, c.Errorf("N", "N must be non-negative.")
		}
		n = v
	}
	if int64(x.Size(0))*n > tensor.MaxElements {
		return nil, c.Errorf("N", "a %d x %d matrix is too large", x.Size(0), n)
	}
	dt := x.DType()
	if !dt.IsFloat() {
		dt = tensor.Int64
	}
	shape := []int{x.Size(0), int(n)}
	if x.IsMeta() {
		return oneOrErr(tensor.NewMeta(dt, shape...))
	}
	inc := c.Bool("increasing")
	rows := x.Size(0)
	col := func(i, j int) int {
		if inc {
			return i*int(n) + j
		}
		return i*int(n) + int(n) - 1 - j
	}
	if dt.IsFloat() {
		r := rounder(dt)
		xs := x.Float64s()
		out := make([]float64, rows*int(n))
		for i := range rows {
			p := 1.0
			for j := range int(n) {
				if j > 0 {
					p = r(p * xs[i])
				}
				out[col(i, j)] = p
			}
		}
		return oneOrErr(tensor.FromFloat64s(dt, out, shape...))
	}
	xs := x.Int64s()
	out := make([]int64, rows*int(n))
	for i := range rows {
		p := int64(1)
		for j := range int(n) {
			if j > 0 {
				p *= xs[i]
			}
			out[col(i, j)] = p
		}
	}
	return oneOrErr(tensor.FromInt64s(dt, out, shape...))
}

// rangeOp is aten::range (and .step): start, start+step, ... up to end
// inclusive, ⌊(end-start)/step⌋+1 values computed as start + i·step in
// double (int64 for integer dtypes); float32 by default, as torch.range.
func rangeOp(c *ops.Call) ([]any, error) {
	isMeta, err := factoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	start, end := c.Scalar("start"), c.Scalar("end")
	step := ops.IntScalar(1)
	if hasArg(c, "step") {
		step = c.Scalar("step")
	}
	dt := dtypeOr(c, tensor.Float32)
	if dt == tensor.Bool {
		return nil, c.Errorf("dtype", "\"range_cpu\" not implemented for 'Bool'")
	}
	xs, xe, xt := start.Float(), end.Float(), step.Float()
	if !dt.IsFloat() {
		xs, xe, xt = float64(start.Int()), float64(end.Int()), float64(step.Int())
	}
	if xt == 0 {
		return nil, c.Errorf("step", "step must be nonzero")
	}
	if math.IsInf(xs, 0) || math.IsNaN(xs) || math.IsInf(xe, 0) || math.IsNaN(xe) {
		return nil, c.Errorf("start", "unsupported range: %v -> %v", xs, xe)
	}
	if !(xt > 0 && xe >= xs || xt < 0 && xe <= xs) {
		return nil, c.Errorf("step", "upper bound and larger bound inconsistent with step sign")
	}
	size := (xe-xs)/xt + 1
	if size > float64(tensor.MaxElements) {
		return nil, c.Errorf("end", "range of %v elements is too large", size)
	}
	n := int(size)
	if isMeta {
		return oneOrErr(tensor.NewMeta(dt, n))
	}
	if !dt.IsFloat() {
		s, t := start.Int(), step.Int()
		vals := make([]int64, n)
		for i := range vals {
			vals[i] = s + int64(i)*t
		}
		return oneOrErr(tensor.FromInt64s(dt, vals, n))
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = xs + float64(i)*xt
	}
	return oneOrErr(tensor.FromFloat64s(dt, vals, n))
}
