package kernels

import (
	"math"
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Pointwise special functions and the elementwise math PyTorch 2.6 adds
// beside UnaryOps.cpp and BinaryOps.cpp, ported from ATen's Math.h and
// its CPU kernels (the Cephes algorithms): digamma, polygamma (trigamma
// and the Hurwitz zeta), lgamma, mvlgamma, erfinv, i0, special_i0e,
// special_i1, special_i1e, special_ndtr, special_ndtri, special_log_ndtr,
// special_erfcx, special_entr,
// sinc, deg2rad, rad2deg, angle, signbit, isposinf, isneginf, isreal,
// positive, log_sigmoid(_forward); the binary heaviside, logaddexp(2),
// fmax, fmin, float_power, ldexp, gcd, lcm, nextafter, the bit shifts,
// special_xlog1py, isclose, allclose, equal and frexp; and the reductions
// nansum and nanmean. A float32 function rounds every step to float32 as
// ATen's float overloads compute, so results agree to a few ulps.

// registerSpecial registers the kernels of special.go.
func registerSpecial() {
	for _, u := range specialUnary {
		registerBoth(u.name, u.kernel)
	}
	registerBoth("aten::polygamma", polygamma)
	registerBoth("aten::mvlgamma", mvlgamma)
	registerBoth("aten::deg2rad", func(c *ops.Call) ([]any, error) {
		return angleScale(c, 0.017453292519943295769236907684886127134428718885417)
	})
	registerBoth("aten::rad2deg", func(c *ops.Call) ([]any, error) {
		return angleScale(c, 57.295779513082320876798154814105170332405472466564)
	})
	registerBoth("aten::signbit", signbit)
	registerBoth("aten::isposinf", func(c *ops.Call) ([]any, error) { return isInfSign(c, 1) })
	registerBoth("aten::isneginf", func(c *ops.Call) ([]any, error) { return isInfSign(c, -1) })
	registerBoth("aten::isreal", isreal)
	registerBoth("aten::log_sigmoid_forward", logSigmoidForward)
	registerBoth("aten::log_sigmoid", func(c *ops.Call) ([]any, error) {
		out, err := delegate(c, "aten::log_sigmoid_forward", []any{c.Tensor("self")}, nil)
		if err != nil {
			return nil, err
		}
		return out[:1], nil
	})
	registerBoth("aten::heaviside", heaviside)
	registerBoth("aten::logaddexp", func(c *ops.Call) ([]any, error) { return logAddExp(c, false) })
	registerBoth("aten::logaddexp2", func(c *ops.Call) ([]any, error) { return logAddExp(c, true) })
	registerBoth("aten::fmax", func(c *ops.Call) ([]any, error) { return fMinMax(c, true) })
	registerBoth("aten::fmin", func(c *ops.Call) ([]any, error) { return fMinMax(c, false) })
	registerBoth("aten::float_power.Tensor_Tensor", floatPowerKernel)
	registerBoth("aten::float_power.Tensor_Scalar", floatPowerKernel)
	registerBoth("aten::float_power.Scalar", floatPowerKernel)
	registerBoth("aten::ldexp.Tensor", ldexp)
	registerBoth("aten::gcd", func(c *ops.Call) ([]any, error) { return intBinary(c, "gcd_cpu", gcd) })
	registerBoth("aten::lcm", func(c *ops.Call) ([]any, error) { return intBinary(c, "lcm_cpu", lcm) })
	registerBoth("aten::nextafter", nextafter)
	for _, o := range []string{"Tensor", "Tensor_Scalar", "Scalar_Tensor"} {
		registerBoth("aten::bitwise_left_shift."+o, shift(true))
		registerBoth("aten::bitwise_right_shift."+o, shift(false))
	}
	for _, o := range []string{"Tensor", "Scalar"} {
		registerBoth("aten::__lshift__."+o, shift(true))
		registerBoth("aten::__rshift__."+o, shift(false))
	}
	for _, o := range []string{"", ".other_scalar", ".self_scalar"} {
		registerBoth("aten::special_xlog1py"+o, xlog1py)
	}
	registerBoth("aten::isclose", isclose)
	register("aten::allclose", allclose, dataDependentMeta)
	register("aten::equal", equal, dataDependentMeta)
	registerBoth("aten::frexp.Tensor", frexp)
	registerBoth("aten::nansum", nansum)
	registerBoth("aten::nanmean", nanmean)
}

// f32 reports whether math for dtype dt runs in float32 (float32, float16
// and bfloat16).
func f32(dt tensor.DType) bool { return computeType(dt) == tensor.Float32 }

// specialUnary are the float functions of one tensor: integral and bool
// inputs give float32, and every step is rounded to the compute dtype.
var specialUnary = []*unary{
	{name: "aten::digamma", cpuName: "digamma", res: resultFloat, half: true, ffFor: digammaFor},
	{name: "aten::lgamma", cpuName: "lgamma_vml_cpu", res: resultFloat, half: true, ff: lgamma},
	{name: "aten::erfinv", cpuName: "erfinv_cpu", res: resultFloat, half: true, ffFor: erfinvFor},
	{name: "aten::i0", cpuName: "i0_cpu", res: resultFloat, half: true, ffFor: func(dt tensor.DType) floatFn1 { return besselFor(dt, i0, false) }},
	{name: "aten::special_i0e", cpuName: "i0e_cpu", res: resultFloat, half: true, ffFor: func(dt tensor.DType) floatFn1 { return besselFor(dt, i0e, true) }},
	{name: "aten::special_i1", cpuName: "i1_cpu", res: resultFloat, ffFor: func(dt tensor.DType) floatFn1 { return besselFor(dt, i1, false) }},
	{name: "aten::special_i1e", cpuName: "i1e_cpu", res: resultFloat, ffFor: func(dt tensor.DType) floatFn1 { return besselFor(dt, i1e, false) }},
	{name: "aten::special_ndtr", cpuName: "ndtr_cpu", res: resultFloat, half: true, ffFor: ndtrFor},
	{name: "aten::special_ndtri", cpuName: "ndtri_cpu", res: resultFloat, ffFor: ndtriFor},
	{name: "aten::special_log_ndtr", cpuName: "log_ndtr_cpu", res: resultFloat, noBF16: true, ffFor: logNdtrFor},
	{name: "aten::special_erfcx", cpuName: "erfcx_cpu", res: resultFloat, noBF16: true, ffFor: erfcxFor},
	{name: "aten::special_entr", cpuName: "entr_cpu", res: resultFloat, half: true, ffFor: entrFor},
	{name: "aten::sinc", cpuName: "sinc_cpu", res: resultFloat, half: true, ffFor: sincFor},
	{name: "aten::angle", cpuName: "angle_cpu", res: resultFloat, half: true, ff: func(x float64) float64 {
		switch {
		case x != x:
			return x
		case x < 0:
			return math.Pi
		}
		return 0
	}},
}

// polevl evaluates the polynomial with coefficients a (highest degree
// first) at x, rounding each step with r.
func polevl(x float64, a []float64, r func(float64) float64) float64 {
	ans := a[0]
	for _, c := range a[1:] {
		ans = r(r(ans*x) + c)
	}
	return ans
}

// digammaA are the asymptotic-series coefficients of calc_digamma.
var digammaA = []float64{
	8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
	-4.16666666666666666667e-3, 3.96825396825396825397e-3, -8.33333333333333333333e-3,
	8.33333333333333333333e-2,
}

// digammaFor returns ATen's calc_digamma in the compute dtype of dt.
func digammaFor(dt tensor.DType) floatFn1 {
	r := rounder(computeType(dt))
	a := make([]float64, len(digammaA))
	for i, v := range digammaA {
		a[i] = r(v)
	}
	psi10, limit := r(2.25175258906672110764), r(1.0e17)
	var dg func(x float64) float64
	dg = func(x float64) float64 {
		if x == 0 {
			return math.Copysign(math.Inf(1), -x)
		}
		if x < 0 {
			if x == math.Trunc(x) {
				return math.NaN()
			}
			_, frac := math.Modf(x)
			return r(dg(r(1-x)) - r(math.Pi/math.Tan(math.Pi*frac)))
		}
		var result float64
		for x < 10 {
			result = r(result - r(1/x))
			x = r(x + 1)
		}
		if x == 10 {
			return r(result + psi10)
		}
		var y float64
		if x < limit {
			z := r(1 / r(x*x))
			y = r(z * polevl(z, a, r))
		}
		return r(r(r(result+r(math.Log(x)))-r(0.5/x)) - y)
	}
	return dg
}

// lgamma is log|Γ(x)| (+inf at -inf, as C's lgamma).
func lgamma(x float64) float64 {
	if math.IsInf(x, -1) {
		return math.Inf(1)
	}
	v, _ := math.Lgamma(x)
	return v
}

// trigammaFor returns ATen's trigamma in the compute dtype of dt.
func trigammaFor(dt tensor.DType) floatFn1 {
	r := rounder(computeType(dt))
	pi := r(math.Pi)
	return func(x float64) float64 {
		sign, result := 1.0, 0.0
		if x < 0.5 {
			sign = -1
			s := r(math.Sin(r(pi * x)))
			result = r(result - r(r(pi*pi)/r(s*s)))
			x = r(1 - x)
		}
		for range 6 {
			result = r(result + r(1/r(x*x)))
			x = r(x + 1)
		}
		ixx := r(1 / r(x*x))
		inner := r(r(1.0/30) - r(ixx*r(1.0/42)))
		inner = r(r(1.0/6) - r(ixx*inner))
		t := r(r(1+r(1/r(2*x))) + r(ixx*inner))
		result = r(result + r(t/x))
		return r(sign * result)
	}
}

// zetaA are the Euler-Maclaurin coefficients of the Hurwitz zeta function.
var zetaA = []float64{
	12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
	7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
	-4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18,
}

// zeta is the Hurwitz zeta function ζ(x, q) (Cephes), in float64.
func zeta(x, q float64) float64 {
	const machep = 1.11022302462515654042e-16
	if x == 1 {
		return math.Inf(1)
	}
	if x < 1 {
		return math.NaN()
	}
	if q <= 0 {
		if q == math.Floor(q) {
			return math.Inf(1)
		}
		if x != math.Floor(x) {
			return math.NaN()
		}
	}
	s := math.Pow(q, -x)
	a := q
	i := 0
	b := 0.0
	for i < 9 || a <= 9 {
		i++
		a++
		b = math.Pow(a, -x)
		s += b
		if -machep*s < b && b < machep*s {
			return s
		}
	}
	w := a
	s += b * w / (x - 1)
	s -= 0.5 * b
	a = 1
	k := 0.0
	for _, ai := range zetaA {
		a *= x + k
		b /= w
		t := a * b / ai
		s += t
		if math.Abs(t/s) < machep {
			return s
		}
		k++
		a *= x + k
		b /= w
		k++
	}
	return s
}

// polygamma is aten::polygamma: the n-th derivative of digamma
// (digamma for 0, trigamma for 1, else (-1)^(n+1) n! ζ(n+1, x)).
func polygamma(c *ops.Call) ([]any, error) {
	n := c.Int("n")
	if n < 0 {
		return nil, c.Errorf("n", "polygamma(n, x) does not support negative n.")
	}
	u := &unary{name: "aten::polygamma", cpuName: "polygamma", res: resultFloat, half: true}
	switch n {
	case 0:
		u.ffFor = digammaFor
	case 1:
		u.ffFor = trigammaFor
	default:
		u.ffFor = func(dt tensor.DType) floatFn1 {
			r := rounder(computeType(dt))
			fn := float64(n)
			sign := -1.0
			if n%2 == 1 {
				sign = 1
			}
			return func(x float64) float64 {
				return r(r(sign*r(math.Exp(r(lgamma(r(fn+1)))))) * r(zeta(fn+1, x)))
			}
		}
	}
	return u.kernel(c)
}

// mvlgamma is aten::mvlgamma: the multivariate log-gamma function of
// dimension p, sum_i lgamma(self - i/2) + p(p-1)/4·log(π), composed as
// ATen composes it.
func mvlgamma(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	p := c.Int("p")
	if self.DType() == tensor.Bool {
		return nil, c.Errorf("self", "The input tensor may not be a boolean tensor.")
	}
	if p < 1 {
		return nil, c.Errorf("p", "p has to be greater than or equal to 1")
	}
	dt := floatType(self.DType())
	ch := &chain{c: c, arg: "self"}
	args := ch.callKw("aten::arange.start_step", map[string]any{"dtype": dt},
		ops.FloatScalar(-float64(p)*0.5+0.5), ops.FloatScalar(0.5), ops.FloatScalar(0.5))
	args = ch.call("aten::add.Tensor", args, ch.call("aten::unsqueeze", self, int64(-1)))
	s := ch.call("aten::sum.dim_IntList", ch.call("aten::lgamma", args), []int64{-1})
	return ch.result(ch.call("aten::add.Scalar", s, ops.FloatScalar(float64(p*(p-1))*math.Log(math.Pi)*0.25)))
}

// roundEach returns a function that rounds each of a coefficient table's
// values with r, as ATen's kernels hold their constants in the compute
// type.
func roundEach(r func(float64) float64) func([]float64) []float64 {
	return func(v []float64) []float64 {
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = r(x)
		}
		return out
	}
}

// erfinvFor returns ATen's calc_erfinv (a rational first guess and two
// Newton steps) in the compute dtype of dt.
func erfinvFor(dt tensor.DType) floatFn1 {
	r := rounder(computeType(dt))
	rs := roundEach(r)
	a := rs([]float64{0.886226899, -1.645349621, 0.914624893, -0.140543331})
	b := rs([]float64{-2.118377725, 1.442710462, -0.329097515, 0.012229801})
	cc := rs([]float64{-1.970840454, -1.624906493, 3.429567803, 1.641345311})
	d := rs([]float64{3.543889200, 1.637067800})
	central := r(0.7)
	twoOverSqrtPi := r(2 / r(math.Sqrt(math.Pi)))
	return func(y float64) float64 {
		ya := math.Abs(y)
		if ya > 1 {
			return math.NaN()
		}
		if ya == 1 {
			return math.Copysign(math.Inf(1), y)
		}
		var x float64
		if ya <= central {
			z := r(y * y)
			num := r(r(r(r(r(r(a[3]*z)+a[2])*z)+a[1])*z) + a[0])
			dem := r(r(r(r(r(r(r(r(b[3]*z)+b[2])*z)+b[1])*z)+b[0])*z) + 1)
			x = r(r(y*num) / dem)
		} else {
			z := r(math.Sqrt(r(-r(math.Log(r(r(1-ya) / 2))))))
			num := r(r(r(r(r(r(cc[3]*z)+cc[2])*z)+cc[1])*z) + cc[0])
			dem := r(r(r(r(d[1]*z)+d[0])*z) + 1)
			x = r(math.Copysign(num, y) / dem)
		}
		for range 2 {
			x = r(x - r(r(r(math.Erf(x))-y)/r(twoOverSqrtPi*r(math.Exp(r(-x*x))))))
		}
		return x
	}
}

// The Chebyshev coefficients of Cephes' modified Bessel functions, as
// ATen's Math.h has them (the float versions of i1e use shorter tables).
var (
	i0eA = []float64{
		-4.41534164647933937950e-18, 3.33079451882223809783e-17, -2.43127984654795469359e-16, 1.71539128555513303061e-15,
		-1.16853328779934516808e-14, 7.67618549860493561688e-14, -4.85644678311192946090e-13, 2.95505266312963983461e-12,
		-1.72682629144155570723e-11, 9.67580903537323691224e-11, -5.18979560163526290666e-10, 2.65982372468238665035e-9,
		-1.30002500998624804212e-8, 6.04699502254191894932e-8, -2.67079385394061173391e-7, 1.11738753912010371815e-6,
		-4.41673835845875056359e-6, 1.64484480707288970893e-5, -5.75419501008210370398e-5, 1.88502885095841655729e-4,
		-5.76375574538582365885e-4, 1.63947561694133579842e-3, -4.32430999505057594430e-3, 1.05464603945949983183e-2,
		-2.37374148058994688156e-2, 4.93052842396707084878e-2, -9.49010970480476444210e-2, 1.71620901522208775349e-1,
		-3.04682672343198398683e-1, 6.76795274409476084995e-1,
	}
	i0eB = []float64{
		-7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17, 3.46122286769746109310e-17,
		-2.82762398051658348494e-16, -3.42548561967721913462e-16, 1.77256013305652638360e-15, 3.81168066935262242075e-15,
		-9.55484669882830764870e-15, -4.15056934728722208663e-14, 1.54008621752140982691e-14, 3.85277838274214270114e-13,
		7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11, -3.14991652796324136454e-11,
		1.18891471078464383424e-11, 4.94060238822496958910e-10, 3.39623202570838634515e-9, 2.26666899049817806459e-8,
		2.04891858946906374183e-7, 2.89137052083475648297e-6, 6.88975834691682398426e-5, 3.36911647825569408990e-3,
		8.04490411014108831608e-1,
	}
	i1eA = []float64{
		2.77791411276104639959e-18, -2.11142121435816608115e-17, 1.55363195773620046921e-16, -1.10559694773538630805e-15,
		7.60068429473540693410e-15, -5.04218550472791168711e-14, 3.22379336594557470981e-13, -1.98397439776494371520e-12,
		1.17361862988909016308e-11, -6.66348972350202774223e-11, 3.62559028155211703701e-10, -1.88724975172282928790e-9,
		9.38153738649577178388e-9, -4.44505912879632808065e-8, 2.00329475355213526229e-7, -8.56872026469545474066e-7,
		3.47025130813767847674e-6, -1.32731636560394358279e-5, 4.78156510755005422638e-5, -1.61760815825896745588e-4,
		5.12285956168575772895e-4, -1.51357245063125314899e-3, 4.15642294431288815669e-3, -1.05640848946261981558e-2,
		2.47264490306265168283e-2, -5.29459812080949914269e-2, 1.02643658689847095384e-1, -1.76416518357834055153e-1,
		2.52587186443633654823e-1,
	}
	i1eB = []float64{
		7.51729631084210481353e-18, 4.41434832307170791151e-18, -4.65030536848935832153e-17, -3.20952592199342395980e-17,
		2.96262899764595013876e-16, 3.30820231092092828324e-16, -1.88035477551078244854e-15, -3.81440307243700780478e-15,
		1.04202769841288027642e-14, 4.27244001671195135429e-14, -2.10154184277266431302e-14, -4.08355111109219731823e-13,
		-7.19855177624590851209e-13, 2.03562854414708950722e-12, 1.41258074366137813316e-11, 3.25260358301548823856e-11,
		-1.89749581235054123450e-11, -5.58974346219658380687e-10, -3.83538038596423702205e-9, -2.63146884688951950684e-8,
		-2.51223623787020892529e-7, -3.88256480887769039346e-6, -1.10588938762623716291e-4, -9.76109749136146840777e-3,
		7.78576235018280120474e-1,
	}
)

// bessel holds the rounding and coefficient tables of one dtype.
type bessel struct {
	r                  func(float64) float64
	i0A, i0B, i1A, i1B []float64
}

// chbevl evaluates the Chebyshev series a at x (Cephes' chbevl).
func (b *bessel) chbevl(x float64, a []float64) float64 {
	r := b.r
	b0, b1, b2 := a[0], 0.0, 0.0
	for _, c := range a[1:] {
		b2, b1 = b1, b0
		b0 = r(r(r(x*b1)-b2) + c)
	}
	return r(0.5 * r(b0-b2))
}

// besselFor returns f with the tables and rounding of the compute dtype
// of dt, or (inDType, for i0e, whose bfloat16 kernel computes in
// bfloat16) of dt itself.
func besselFor(dt tensor.DType, f func(b *bessel, x float64) float64, inDType bool) floatFn1 {
	r := rounder(computeType(dt))
	if inDType {
		r = rounder(dt)
	}
	rs := roundEach(r)
	b := &bessel{r: r, i0A: rs(i0eA), i0B: rs(i0eB), i1A: rs(i1eA), i1B: rs(i1eB)}
	if f32(dt) {
		b.i1A, b.i1B = b.i1A[12:], b.i1B[18:]
	}
	return func(x float64) float64 { return f(b, x) }
}

// i0 is calc_i0, the modified Bessel function of the first kind of order 0.
func i0(b *bessel, x float64) float64 {
	r := b.r
	x = math.Abs(x)
	if x <= 8 {
		return r(r(math.Exp(x)) * b.chbevl(r(r(x/2)-2), b.i0A))
	}
	return r(r(r(math.Exp(x))*b.chbevl(r(r(32/x)-2), b.i0B)) / r(math.Sqrt(x)))
}

// i0e is calc_i0e, exp(-|x|)·i0(x).
func i0e(b *bessel, x float64) float64 {
	r := b.r
	x = math.Abs(x)
	if x <= 8 {
		return b.chbevl(r(r(x/2)-2), b.i0A)
	}
	return r(b.chbevl(r(r(32/x)-2), b.i0B) / r(math.Sqrt(x)))
}

// i1 is calc_i1, the modified Bessel function of the first kind of order 1.
func i1(b *bessel, v float64) float64 {
	r := b.r
	x := math.Abs(v)
	var out float64
	if x <= 8 {
		out = r(r(r(math.Exp(x))*x) * b.chbevl(r(r(x/2)-2), b.i1A))
	} else {
		out = r(r(r(math.Exp(x))*b.chbevl(r(r(32/x)-2), b.i1B)) / r(math.Sqrt(x)))
	}
	if v < 0 {
		return -out
	}
	return out
}

// i1e is calc_i1e, exp(-|x|)·i1(x).
func i1e(b *bessel, v float64) float64 {
	r := b.r
	x := math.Abs(v)
	var out float64
	if x <= 8 {
		out = r(b.chbevl(r(r(x/2)-2), b.i1A) * x)
	} else {
		out = r(b.chbevl(r(r(32/x)-2), b.i1B) / r(math.Sqrt(x)))
	}
	if v < 0 {
		return -out
	}
	return out
}

// ndtrFor returns calc_ndtr, the standard normal CDF (1 + erf(x/√2))/2,
// in dt's own arithmetic (bfloat16 and float16 steps round to them, as
// ATen's calc_ndtr<T> computes).
func ndtrFor(dt tensor.DType) floatFn1 {
	r := rounder(dt)
	s := r(math.Sqrt2 / 2)
	return func(x float64) float64 {
		return r(r(1+r(math.Erf(r(x*s)))) * 0.5)
	}
}

// ndtri coefficients (Cephes).
var (
	ndtriP0 = []float64{-5.99633501014107895267e1, 9.80010754185999661536e1, -5.66762857469070293439e1, 1.39312609387279679503e1, -1.23916583867381258016e0}
	ndtriQ0 = []float64{1.00000000000000000000e0, 1.95448858338141759834e0, 4.67627912898881538453e0, 8.63602421390890590575e1, -2.25462687854119370527e2, 2.00260212380060660359e2, -8.20372256168333339912e1, 1.59056225126211695515e1, -1.18331621121330003142e0}
	ndtriP1 = []float64{4.05544892305962419923e0, 3.15251094599893866154e1, 5.71628192246421288162e1, 4.40805073893200834700e1, 1.46849561928858024014e1, 2.18663306850790267539e0, -1.40256079171354495875e-1, -3.50424626827848203418e-2, -8.57456785154685413611e-4}
	ndtriQ1 = []float64{1.00000000000000000000e0, 1.57799883256466749731e1, 4.53907635128879210584e1, 4.13172038254672030440e1, 1.50425385692907503408e1, 2.50464946208309415979e0, -1.42182922854787788574e-1, -3.80806407691578277194e-2, -9.33259480895457427372e-4}
	ndtriP2 = []float64{3.23774891776946035970e0, 6.91522889068984211695e0, 3.93881025292474443415e0, 1.33303460815807542389e0, 2.01485389549179081538e-1, 1.23716634817820021358e-2, 3.01581553508235416007e-4, 2.65806974686737550832e-6, 6.23974539184983293730e-9}
	ndtriQ2 = []float64{1.00000000000000000000e0, 6.02427039364742014255e0, 3.67983563856160859403e0, 1.37702099489081330271e0, 2.16236993594496635890e-1, 1.34204006088543189037e-2, 3.28014464682127739104e-4, 2.89247864745380683936e-6, 6.79019408009981274425e-9}
)

// ndtriFor returns calc_ndtri, the inverse of the standard normal CDF, in
// the compute dtype of dt.
func ndtriFor(dt tensor.DType) floatFn1 {
	r := rounder(computeType(dt))
	rs := roundEach(r)
	p0, q0, p1, q1, p2, q2 := rs(ndtriP0), rs(ndtriQ0), rs(ndtriP1), rs(ndtriQ1), rs(ndtriP2), rs(ndtriQ2)
	s2pi, e2 := r(2.50662827463100050242), r(0.13533528323661269189)
	return func(y0 float64) float64 {
		switch {
		case y0 == 0:
			return math.Inf(-1)
		case y0 == 1:
			return math.Inf(1)
		case y0 < 0 || y0 > 1 || y0 != y0:
			return math.NaN()
		}
		code := true
		y := y0
		if y > r(1-e2) {
			y = r(1 - y)
			code = false
		}
		if y > e2 {
			y = r(y - 0.5)
			y2 := r(y * y)
			x := r(y + r(y*r(r(y2*polevl(y2, p0, r))/polevl(y2, q0, r))))
			return r(x * s2pi)
		}
		x := r(math.Sqrt(r(-2 * r(math.Log(y)))))
		x0 := r(x - r(r(math.Log(x))/x))
		z := r(1 / x)
		var x1 float64
		if x < 8 {
			x1 = r(r(z*polevl(z, p1, r)) / polevl(z, q1, r))
		} else {
			x1 = r(r(z*polevl(z, p2, r)) / polevl(z, q2, r))
		}
		x = r(x0 - x1)
		if code {
			x = -x
		}
		return x
	}
}

// entrFor returns special_entr, -x·log(x) (0 at 0, -inf below), in the
// compute dtype of dt.
func entrFor(dt tensor.DType) floatFn1 {
	r := rounder(computeType(dt))
	return func(x float64) float64 {
		switch {
		case x != x:
			return x
		case x > 0:
			return r(-x * r(logFloat(x)))
		case x == 0:
			return 0
		}
		return math.Inf(-1)
	}
}

// sincFor returns sinc, sin(πx)/(πx) (1 at 0), in the compute dtype of dt.
func sincFor(dt tensor.DType) floatFn1 {
	r := rounder(computeType(dt))
	pi := r(math.Pi)
	return func(x float64) float64 {
		if x == 0 {
			return 1
		}
		p := r(pi * x)
		return r(r(math.Sin(p)) / p)
	}
}

// angleScale is deg2rad and rad2deg: self times the conversion factor, in
// float32 for integral and bool inputs.
func angleScale(c *ops.Call, factor float64) ([]any, error) {
	self := c.Tensor("self")
	if !self.DType().IsFloat() {
		self = to(self, tensor.Float32)
	}
	return delegate(c, "aten::mul.Scalar", []any{self, ops.FloatScalar(factor)}, nil)
}

// boolMap returns a bool tensor of self's shape holding f of each element
// (integral dtypes compared as their float64 values).
func boolMap(self *tensor.Tensor, f func(float64) bool) *tensor.Tensor {
	if self.IsMeta() {
		return tensor.Must(tensor.NewMeta(tensor.Bool, self.Shape()...))
	}
	vals := self.Float64s()
	out := make([]bool, len(vals))
	for i, v := range vals {
		out[i] = f(v)
	}
	return tensor.Must(tensor.FromSlice(out, self.Shape()...))
}

// signbit is aten::signbit: whether the sign bit is set (-0.0 included).
func signbit(c *ops.Call) ([]any, error) {
	return one(boolMap(c.Tensor("self"), math.Signbit)), nil
}

// isInfSign is aten::isposinf (sign 1) and aten::isneginf (-1).
func isInfSign(c *ops.Call, sign int) ([]any, error) {
	return one(boolMap(c.Tensor("self"), func(v float64) bool { return math.IsInf(v, sign) })), nil
}

// isreal is aten::isreal: true everywhere for a real dtype.
func isreal(c *ops.Call) ([]any, error) {
	return one(boolMap(c.Tensor("self"), func(float64) bool { return true })), nil
}

// logSigmoidForward is aten::log_sigmoid_forward's CPU kernel:
// min(x, 0) - log1p(z) and the buffer z = exp(-|x|).
func logSigmoidForward(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt := self.DType()
	if !dt.IsFloat() {
		return nil, notImplemented(c, "self", "log_sigmoid_cpu", dt)
	}
	if self.IsMeta() {
		return []any{tensor.Must(tensor.NewMeta(dt, self.Shape()...)), tensor.Must(tensor.NewMeta(dt, self.Shape()...))}, nil
	}
	r := rounder(computeType(dt))
	vals := to(self, computeType(dt)).Float64s()
	out, buf := make([]float64, len(vals)), make([]float64, len(vals))
	for i, x := range vals {
		z := r(math.Exp(-math.Abs(x)))
		buf[i] = z
		out[i] = r(math.Min(x, 0) - r(math.Log1p(z)))
		if x != x {
			out[i] = x
		}
	}
	return []any{tensor.Must(tensor.FromFloat64s(dt, out, self.Shape()...)), tensor.Must(tensor.FromFloat64s(dt, buf, self.Shape()...))}, nil
}

// heaviside is aten::heaviside: values where self is 0, else whether self
// is positive; both operands must have one dtype.
func heaviside(c *ops.Call) ([]any, error) {
	a, b := c.Tensor("self"), c.Tensor("values")
	if a.DType() != b.DType() {
		return nil, c.Errorf("values", "heaviside is not yet implemented for tensors with different dtypes.")
	}
	shape, err := broadcast(c, "values", a, b)
	if err != nil {
		return nil, err
	}
	dt := a.DType()
	if meta(a, b) {
		return oneOrErr(tensor.NewMeta(dt, shape...))
	}
	return one(mapBinary(a, b, shape, dt, func(x, y float64) float64 {
		switch {
		case x == 0:
			return y
		case x > 0:
			return 1
		}
		return 0
	}, func(x, y int64) int64 {
		if x == 0 {
			return y
		}
		return b2i(x > 0)
	})), nil
}

// logAddExp is aten::logaddexp and aten::logaddexp2: m + log1p(exp(-|a-b|))
// (exp2 and divided by log 2 for the base-2 form), m = max(a, b), in the
// promoted floating dtype.
func logAddExp(c *ops.Call, base2 bool) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	dt := o.dt
	name := "logaddexp_cpu"
	if base2 {
		name = "logaddexp2_cpu"
	}
	if !dt.IsFloat() {
		return nil, notImplemented(c, "self", name, dt)
	}
	if o.isMeta() {
		return oneOrErr(tensor.NewMeta(dt, o.shape...))
	}
	r := rounder(computeType(dt))
	invLog2 := r(1 / math.Ln2)
	a, b := o.cast(dt)
	return one(mapBinary(a, b, o.shape, dt, func(x, y float64) float64 {
		if math.IsInf(x, 0) && x == y {
			return x
		}
		m := x
		if x < y {
			m = y
		}
		d := r(-math.Abs(r(x - y)))
		if base2 {
			return r(m + r(r(math.Log1p(r(math.Exp2(d))))*invLog2))
		}
		return r(m + r(math.Log1p(r(math.Exp(d)))))
	}, nil)), nil
}

// fMinMax is aten::fmax and aten::fmin: the larger or smaller operand, a
// NaN operand ignored (NaN only when both are).
func fMinMax(c *ops.Call, isMax bool) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	if o.isMeta() {
		return oneOrErr(tensor.NewMeta(o.dt, o.shape...))
	}
	a, b := o.cast(o.dt)
	return one(mapBinary(a, b, o.shape, o.dt, func(x, y float64) float64 {
		switch {
		case x != x:
			return y
		case y != y:
			return x
		case isMax:
			return math.Max(x, y)
		}
		return math.Min(x, y)
	}, func(x, y int64) int64 {
		if isMax == (x > y) {
			return x
		}
		return y
	})), nil
}

// floatPowerKernel is aten::float_power (Tensor_Tensor, Tensor_Scalar and
// Scalar): pow in float64.
func floatPowerKernel(c *ops.Call) ([]any, error) {
	conv := func(name string) any {
		switch v := c.Arg(name).(type) {
		case *tensor.Tensor:
			return to(v, tensor.Float64)
		case ops.Scalar:
			return ops.FloatScalar(v.Float())
		}
		return c.Arg(name)
	}
	base, exp := conv("self"), conv("exponent")
	name := "aten::pow.Tensor_Tensor"
	switch {
	case !isTensorValue(base):
		name = "aten::pow.Scalar"
	case !isTensorValue(exp):
		name = "aten::pow.Tensor_Scalar"
	}
	return delegate(c, name, []any{base, exp}, nil)
}

// isTensorValue reports whether v is a tensor.
func isTensorValue(v any) bool { _, ok := v.(*tensor.Tensor); return ok }

// ldexp is aten::ldexp.Tensor: self * 2^other.
func ldexp(c *ops.Call) ([]any, error) {
	p := &chain{c: c, arg: "other"}
	return p.result(p.call("aten::mul.Tensor", c.Tensor("self"), p.call("aten::pow.Scalar", ops.FloatScalar(2), c.Tensor("other"))))
}

// intBinary runs f over the promoted integral operands self and other.
func intBinary(c *ops.Call, kernel string, f intFn2) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	if o.dt.IsFloat() || o.dt == tensor.Bool {
		return nil, notImplemented(c, "self", kernel, o.dt)
	}
	if o.isMeta() {
		return oneOrErr(tensor.NewMeta(o.dt, o.shape...))
	}
	a, b := o.cast(o.dt)
	return one(mapBinary(a, b, o.shape, o.dt, nil, f)), nil
}

// absInt is |x| (wrapping for the smallest value, as in C++).
func absInt(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// gcd is ATen's calc_gcd: Euclid's algorithm on |a| and |b|.
func gcd(a, b int64) int64 {
	a, b = absInt(a), absInt(b)
	for a != 0 {
		a, b = b%a, a
	}
	return b
}

// lcm is |a / gcd(a, b) * b| (0 when the gcd is 0).
func lcm(a, b int64) int64 {
	g := gcd(a, b)
	if g == 0 {
		return 0
	}
	return absInt(a / g * b)
}

// nextafter is aten::nextafter: the next representable value after self
// toward other, in float32 or float64.
func nextafter(c *ops.Call) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	dt := o.dt
	if dt != tensor.Float32 && dt != tensor.Float64 && !(o.isMeta() && dt.IsFloat()) {
		return nil, notImplemented(c, "self", "nextafter_cpu", dt)
	}
	if o.isMeta() {
		return oneOrErr(tensor.NewMeta(dt, o.shape...))
	}
	a, b := o.cast(dt)
	f := math.Nextafter
	if dt == tensor.Float32 {
		f = func(x, y float64) float64 { return float64(math.Nextafter32(float32(x), float32(y))) }
	}
	return one(mapBinary(a, b, o.shape, dt, f, nil)), nil
}

// shift returns the kernel of the bit shifts (bitwise_left_shift,
// bitwise_right_shift, __lshift__, __rshift__; Tensor and Scalar
// operands): a shift by a negative amount or by the width of the dtype
// or more gives 0 to the left and the sign to the right.
func shift(left bool) ops.Kernel {
	kernel := "rshift_cpu"
	if left {
		kernel = "lshift_cpu"
	}
	return func(c *ops.Call) ([]any, error) {
		o, err := binary(c, "self", "other")
		if err != nil {
			return nil, err
		}
		dt := o.dt
		if dt.IsFloat() || dt == tensor.Bool {
			return nil, notImplemented(c, "self", kernel, dt)
		}
		if o.isMeta() {
			return oneOrErr(tensor.NewMeta(dt, o.shape...))
		}
		bits := int64(dt.Size() * 8)
		signed := dt != tensor.Uint8
		a, b := o.cast(dt)
		return one(mapBinary(a, b, o.shape, dt, nil, func(x, y int64) int64 {
			if left {
				if y < 0 || y >= bits {
					return 0
				}
				return int64(uint64(x) << uint(y))
			}
			max := bits
			if signed {
				max--
			}
			if y < 0 || y >= max {
				return x >> uint(max)
			}
			return x >> uint(y)
		})), nil
	}
}

// xlog1py is aten::special_xlog1py (all three overloads): NaN where other
// is NaN, else 0 where self is 0, else self*log1p(other).
func xlog1py(c *ops.Call) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	dt := floatType(o.dt)
	if o.isMeta() {
		return oneOrErr(tensor.NewMeta(dt, o.shape...))
	}
	r := rounder(computeType(dt))
	a, b := o.cast(dt)
	return one(mapBinary(a, b, o.shape, dt, func(x, y float64) float64 {
		switch {
		case y != y:
			return math.NaN()
		case x == 0:
			return 0
		}
		return x * r(math.Log1p(y))
	}, nil)), nil
}

// isclose is aten::isclose, composed as ATen composes it: self == other,
// or (equal_nan) both NaN, or a finite |self - other| within atol +
// |rtol·other|.
func isclose(c *ops.Call) ([]any, error) {
	a, b := c.Tensor("self"), c.Tensor("other")
	rtol, atol := c.Float("rtol"), c.Float("atol")
	if a.DType() != b.DType() {
		return nil, c.Errorf("other", "%s did not match %s", scalarTypeName(a.DType()), scalarTypeName(b.DType()))
	}
	if !(rtol >= 0) {
		return nil, c.Errorf("rtol", "rtol must be greater than or equal to zero, but got %v", rtol)
	}
	if !(atol >= 0) {
		return nil, c.Errorf("atol", "atol must be greater than or equal to zero, but got %v", atol)
	}
	p := &chain{c: c, arg: "other"}
	closeT := p.call("aten::eq.Tensor", a, b)
	if c.Bool("equal_nan") && a.DType().IsFloat() {
		closeT = p.call("aten::logical_or", closeT, p.call("aten::logical_and", p.call("aten::isnan", a), p.call("aten::isnan", b)))
	}
	if rtol == 0 && atol == 0 {
		return p.result(closeT)
	}
	ca, cb := a, b
	if a.DType() == tensor.Bool {
		ca, cb = to(a, tensor.Float32), to(b, tensor.Float32)
	}
	allowed := p.call("aten::add.Scalar", p.call("aten::abs", p.call("aten::mul.Scalar", cb, ops.FloatScalar(rtol))), ops.FloatScalar(atol))
	actual := p.call("aten::abs", p.call("aten::sub.Tensor", ca, cb))
	within := p.call("aten::logical_and", p.call("aten::isfinite", actual), p.call("aten::le.Tensor", actual, allowed))
	return p.result(p.call("aten::logical_or", closeT, within))
}

// allclose is aten::allclose: whether isclose holds everywhere.
func allclose(c *ops.Call) ([]any, error) {
	out, err := delegate(c, "aten::isclose", []any{c.Tensor("self"), c.Tensor("other"), c.Float("rtol"), c.Float("atol"), c.Bool("equal_nan")}, nil)
	if err != nil {
		return nil, err
	}
	for _, v := range out[0].(*tensor.Tensor).Bools() {
		if !v {
			return []any{false}, nil
		}
	}
	return []any{true}, nil
}

// equal is aten::equal: whether self and other have the same shape and
// elements (NaN equals nothing).
func equal(c *ops.Call) ([]any, error) {
	a, b := c.Tensor("self"), c.Tensor("other")
	if !slices.Equal(a.Shape(), b.Shape()) {
		return []any{false}, nil
	}
	if a.Numel() == 0 {
		return []any{true}, nil
	}
	if a.DType() != b.DType() {
		return nil, c.Errorf("other", "Expected object of scalar type %s but got scalar type %s for argument 'other'", scalarTypeName(a.DType()), scalarTypeName(b.DType()))
	}
	if a.DType().IsFloat() {
		x, y := a.Float64s(), b.Float64s()
		for i := range x {
			if x[i] != y[i] {
				return []any{false}, nil
			}
		}
		return []any{true}, nil
	}
	x, y := a.Int64s(), b.Int64s()
	for i := range x {
		if x[i] != y[i] {
			return []any{false}, nil
		}
	}
	return []any{true}, nil
}

// frexp is aten::frexp.Tensor: mantissas in [0.5, 1) (self's dtype) and
// int32 exponents with self = mantissa·2^exponent.
func frexp(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt := self.DType()
	if !dt.IsFloat() {
		return nil, c.Errorf("self", "torch.frexp() only supports floating-point dtypes")
	}
	if self.IsMeta() {
		return []any{tensor.Must(tensor.NewMeta(dt, self.Shape()...)), tensor.Must(tensor.NewMeta(tensor.Int32, self.Shape()...))}, nil
	}
	vals := self.Float64s()
	m, e := make([]float64, len(vals)), make([]int64, len(vals))
	for i, v := range vals {
		f, x := math.Frexp(v)
		m[i], e[i] = f, int64(x)
		if math.IsInf(v, 0) || v != v {
			e[i] = 0
		}
	}
	return []any{tensor.Must(tensor.FromFloat64s(dt, m, self.Shape()...)), tensor.Must(tensor.FromInt64s(tensor.Int32, e, self.Shape()...))}, nil
}

// nansum is aten::nansum: sum over dim with NaN counted as 0, in dtype
// (or sum's accumulate dtype).
func nansum(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	p := &chain{c: c, arg: "self"}
	x := self
	if self.DType().IsFloat() {
		x = p.call("aten::where.ScalarSelf", p.call("aten::isnan", self), ops.IntScalar(0), self)
	}
	dim := optInts(c, "dim")
	dt := dtypeArg(c)
	return p.result(p.callKw("aten::sum.dim_IntList", map[string]any{"dtype": dt}, x, dim, c.Bool("keepdim")))
}

// nanmean is aten::nanmean: nansum divided by the number of non-NaN
// elements.
func nanmean(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if !self.DType().IsFloat() {
		return nil, c.Errorf("self", "nanmean(): expected input to have floating point or complex dtype but got %s", scalarTypeName(self.DType()))
	}
	dim := optInts(c, "dim")
	dt := dtypeArg(c)
	p := &chain{c: c, arg: "self"}
	count := p.call("aten::sum.dim_IntList", p.call("aten::logical_not", p.call("aten::isnan", self)), dim, c.Bool("keepdim"))
	s := p.callKw("aten::nansum", map[string]any{"dtype": dt}, self, dim, c.Bool("keepdim"))
	return p.result(p.call("aten::div.Tensor", s, count))
}

// invSqrtPi is 1/√π.
const invSqrtPi = 0.56418958354775628694807945156077

// erfcx is the scaled complementary error function exp(x²)·erfc(x), as
// ATen's calc_erfcx (Steven G. Johnson's Faddeeva package) defines it on
// every range: for x > 50 the continued fraction's rational form
// (1/(√π·x) beyond 5e7), for x < 0 2·exp(x²) − erfcx(−x) (+Inf below
// −26.7, 2·exp(x²) alone below −6.1, where erfcx(−x) no longer counts).
// Between 0 and 50 ATen evaluates 100 Chebyshev fits; here exp(x²)·erfc(x)
// with x² carried in two parts up to 26 (where erfc is still a normal
// float64) and the Laplace continued fraction of erfc beyond: both agree
// with the fits to a few float64 ulps.
//
// r rounds x² as the dtype's arithmetic does where the result is
// exponentially sensitive to it (x < 0); the rest is computed in float64.
func erfcx(x float64, r func(float64) float64) float64 {
	switch {
	case x != x:
		return x
	case x >= 0:
		return erfcxPos(x)
	case x < -26.7:
		return math.Inf(1)
	case x < -6.1:
		return 2 * math.Exp(r(x*x))
	}
	return 2*math.Exp(r(x*x)) - erfcxPos(-x)
}

// erfcxPos is erfcx for x >= 0.
func erfcxPos(x float64) float64 {
	switch {
	case x > 5e7:
		return invSqrtPi / x
	case x > 50:
		x2 := x * x
		return invSqrtPi * (x2*(x2+4.5) + 2) / (x * (x2*(x2+5) + 3.75))
	case x > 26:
		// erfc(x) = exp(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))),
		// evaluated from the tail; 40 levels are far past convergence here.
		f := x
		for k := 40; k >= 1; k-- {
			f = x + float64(k)/2/f
		}
		return invSqrtPi / f
	}
	hi := x * x
	lo := math.FMA(x, x, -hi)
	return math.Exp(hi) * (1 + lo) * math.Erfc(x)
}

// erfcxFor returns calc_erfcx in dt's arithmetic: float32 inputs round the
// result (ATen's float overload runs the same steps in float).
func erfcxFor(dt tensor.DType) floatFn1 {
	r := rounder(dt)
	return func(x float64) float64 { return r(erfcx(x, r)) }
}

// logNdtrFor returns calc_log_ndtr, log of the standard normal CDF, in dt's
// arithmetic: with t = x/√2, log(erfcx(−t)/2) − t² below x = −1 (where
// the CDF underflows long before its log does) and log1p(−erfc(t)/2)
// above.
func logNdtrFor(dt tensor.DType) floatFn1 {
	r := rounder(dt)
	s := r(math.Sqrt2 / 2)
	return func(x float64) float64 {
		t := r(x * s)
		if x < -1 {
			return r(r(math.Log(r(r(erfcx(-t, r))/2))) - r(t*t))
		}
		return r(math.Log1p(r(-r(math.Erfc(t)) / 2)))
	}
}
