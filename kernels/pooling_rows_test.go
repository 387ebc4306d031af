package kernels_test

import (
	"fmt"
	"math"
	mrand "math/rand/v2"
	"testing"

	ivec "github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// The differential tests of the pooling and upsampling row loops
// (pooling_rows.go, upsample.go's bilinear and nearest rows): each kernel
// against a naive one-output-at-a-time reference written here (the loops
// the kernels had before, which follow ATen's), bit for bit, on odd
// shapes, every stride/padding/dilation/ceil_mode combination that ATen
// accepts, and inputs full of ties, signed zeros, infinities and NaNs;
// with internal/vec's assembly and with its portable loops.

// poolFloat is the element type of these tests.
type poolFloat interface{ float32 | float64 }

// tricky returns n values drawn mostly from a few small integers (ties),
// with signed zeros, infinities and NaNs of two payloads.
func tricky[T poolFloat](r *mrand.Rand, n int) []T {
	nan1, nan2 := math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0x7ff8000000000002)
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), nan1, nan2, 1e-40}
	v := make([]T, n)
	for i := range v {
		switch k := r.IntN(10); {
		case k == 0:
			v[i] = T(special[r.IntN(len(special))])
		case k < 5:
			v[i] = T(r.IntN(5) - 2)
		default:
			v[i] = T(r.NormFloat64() * 3)
		}
	}
	return v
}

// fromValues makes a tensor of v.
func fromValues[T poolFloat](v []T, shape ...int) *tensor.Tensor {
	dt := tensor.Float32
	if _, ok := any(v).([]float64); ok {
		dt = tensor.Float64
	}
	out := tensor.Empty(dt, shape...)
	copy(tensor.Data[T](out), v)
	return out
}

// sameBits reports the first index where got and want differ bit for bit
// (NaN payloads included: max pooling selects a value), or -1.
func sameBits[T poolFloat](got, want []T) int {
	if len(got) != len(want) {
		return 0
	}
	for i := range got {
		if math.Float64bits(float64(got[i])) != math.Float64bits(float64(want[i])) {
			return i
		}
	}
	return -1
}

// sameValues is sameBits with any NaN matching any NaN: which payload a
// sum of two NaNs keeps depends on the operand order the compiler picks
// for a commutative addition, in ATen too.
func sameValues[T poolFloat](got, want []T) int {
	if len(got) != len(want) {
		return 0
	}
	for i := range got {
		if got[i] != got[i] && want[i] != want[i] {
			continue
		}
		if math.Float64bits(float64(got[i])) != math.Float64bits(float64(want[i])) {
			return i
		}
	}
	return -1
}

// poolCall runs the operator name on args.
func poolCall(t *testing.T, name string, args ...any) []any {
	t.Helper()
	o, ok := ops.Global().Lookup(name)
	if !ok {
		t.Fatalf("no operator %s", name)
	}
	out, err := o.Call(args, nil)
	if err != nil {
		t.Fatalf("%s%v: %v", name, args[1:], err)
	}
	return out
}

// poolCfg is one 2-d pooling geometry.
type poolCfg struct {
	h, w, kh, kw, sh, sw, ph, pw, dh, dw int
	ceil                                 bool
}

// outSize is ATen's pooling_output_shape.
func (c poolCfg) outSize(in, k, s, p, d int) int {
	extra := 0
	if c.ceil {
		extra = s - 1
	}
	n := in + 2*p - d*(k-1) - 1 + extra
	o := n/s + 1
	if n < 0 && n%s != 0 {
		o--
	}
	if c.ceil && (o-1)*s >= in+p {
		o--
	}
	return o
}

// randomPool draws a geometry ATen accepts (padding at most half the
// kernel, a non-empty output).
func randomPool(r *mrand.Rand) poolCfg {
	for {
		c := poolCfg{h: 1 + r.IntN(13), w: 1 + r.IntN(19), kh: 1 + r.IntN(4), kw: 1 + r.IntN(4),
			sh: 1 + r.IntN(3), sw: 1 + r.IntN(4), dh: 1 + r.IntN(2), dw: 1 + r.IntN(3), ceil: r.IntN(2) == 0}
		c.ph, c.pw = r.IntN(c.kh/2+1), r.IntN(c.kw/2+1)
		if c.outSize(c.h, c.kh, c.sh, c.ph, c.dh) >= 1 && c.outSize(c.w, c.kw, c.sw, c.pw, c.dw) >= 1 {
			return c
		}
	}
}

// refMaxPool is max pooling one window at a time, as ATen's loop.
func refMaxPool[T poolFloat](x []T, planes int, c poolCfg) ([]T, []int64) {
	oh, ow := c.outSize(c.h, c.kh, c.sh, c.ph, c.dh), c.outSize(c.w, c.kw, c.sw, c.pw, c.dw)
	vals, idx := make([]T, planes*oh*ow), make([]int64, planes*oh*ow)
	o := 0
	for pl := range planes {
		src := x[pl*c.h*c.w:]
		for i := range oh {
			for j := range ow {
				h0, w0 := i*c.sh-c.ph, j*c.sw-c.pw
				h1, w1 := min(h0+(c.kh-1)*c.dh+1, c.h), min(w0+(c.kw-1)*c.dw+1, c.w)
				for h0 < 0 {
					h0 += c.dh
				}
				for w0 < 0 {
					w0 += c.dw
				}
				best, m := h0*c.w+w0, T(math.Inf(-1))
				for y := h0; y < h1; y += c.dh {
					for z := w0; z < w1; z += c.dw {
						if v := src[y*c.w+z]; v > m || v != v {
							m, best = v, y*c.w+z
						}
					}
				}
				vals[o], idx[o] = m, int64(best)
				o++
			}
		}
	}
	return vals, idx
}

// refAvgPool is average pooling one window at a time, as ATen's loop.
func refAvgPool[T poolFloat](x []T, planes int, c poolCfg, countPad bool, div int64) []T {
	oh, ow := c.outSize(c.h, c.kh, c.sh, c.ph, 1), c.outSize(c.w, c.kw, c.sw, c.pw, 1)
	out := make([]T, planes*oh*ow)
	o := 0
	for pl := range planes {
		src := x[pl*c.h*c.w:]
		for i := range oh {
			for j := range ow {
				h0, w0 := i*c.sh-c.ph, j*c.sw-c.pw
				h1, w1 := min(h0+c.kh, c.h+c.ph), min(w0+c.kw, c.w+c.pw)
				size := (h1 - h0) * (w1 - w0)
				h0, w0, h1, w1 = max(h0, 0), max(w0, 0), min(h1, c.h), min(w1, c.w)
				if h0 >= h1 || w0 >= w1 {
					out[o] = 0
					o++
					continue
				}
				d := int64((h1 - h0) * (w1 - w0))
				if div != 0 {
					d = div
				} else if countPad {
					d = int64(size)
				}
				var s T
				for y := h0; y < h1; y++ {
					for z := w0; z < w1; z++ {
						s += src[y*c.w+z]
					}
				}
				out[o] = s / T(d)
				o++
			}
		}
	}
	return out
}

// bothVec runs f with internal/vec's assembly and with its portable loops.
func bothVec(t *testing.T, f func(t *testing.T)) {
	t.Run("asm", f)
	t.Run("portable", func(t *testing.T) {
		defer ivec.SetPortable(true)()
		f(t)
	})
}

func TestMaxPool2dDifferential(t *testing.T) {
	bothVec(t, func(t *testing.T) {
		r := mrand.New(mrand.NewPCG(17, 4))
		for range 300 {
			c := randomPool(r)
			planes := 1 + r.IntN(3)
			checkMaxPool[float32](t, r, c, planes)
			checkMaxPool[float64](t, r, c, planes)
		}
		// resnet18's stem pool.
		checkMaxPool[float32](t, r, poolCfg{h: 112, w: 112, kh: 3, kw: 3, sh: 2, sw: 2, ph: 1, pw: 1, dh: 1, dw: 1}, 3)
	})
}

func checkMaxPool[T poolFloat](t *testing.T, r *mrand.Rand, c poolCfg, planes int) {
	t.Helper()
	x := tricky[T](r, planes*c.h*c.w)
	in := fromValues(x, 1, planes, c.h, c.w)
	args := []any{in, []int64{int64(c.kh), int64(c.kw)}, []int64{int64(c.sh), int64(c.sw)},
		[]int64{int64(c.ph), int64(c.pw)}, []int64{int64(c.dh), int64(c.dw)}, c.ceil}
	wantV, wantI := refMaxPool(x, planes, c)
	name := fmt.Sprintf("%T %+v", x[0], c)
	got := poolCall(t, "aten::max_pool2d_with_indices", args...)
	if i := sameBits(tensor.Values[T](got[0].(*tensor.Tensor)), wantV); i >= 0 {
		t.Fatalf("max_pool2d_with_indices %s: value %d: got %v, want %v", name, i, tensor.Values[T](got[0].(*tensor.Tensor)), wantV)
	}
	gi := tensor.Values[int64](got[1].(*tensor.Tensor))
	for i := range gi {
		if gi[i] != wantI[i] {
			t.Fatalf("max_pool2d_with_indices %s: index %d: got %v, want %v", name, i, gi, wantI)
		}
	}
	plain := poolCall(t, "aten::max_pool2d", args...)
	if i := sameBits(tensor.Values[T](plain[0].(*tensor.Tensor)), wantV); i >= 0 {
		t.Fatalf("max_pool2d %s: value %d differs", name, i)
	}
}

func TestAvgPool2dDifferential(t *testing.T) {
	bothVec(t, func(t *testing.T) {
		r := mrand.New(mrand.NewPCG(17, 5))
		for range 300 {
			c := randomPool(r)
			c.dh, c.dw = 1, 1
			if c.outSize(c.h, c.kh, c.sh, c.ph, 1) < 1 || c.outSize(c.w, c.kw, c.sw, c.pw, 1) < 1 {
				continue
			}
			planes := 1 + r.IntN(3)
			countPad := r.IntN(2) == 0
			var div int64
			if r.IntN(4) == 0 {
				div = int64(r.IntN(7) - 3)
				if div == 0 {
					div = 5
				}
			}
			checkAvgPool[float32](t, r, c, planes, countPad, div)
			checkAvgPool[float64](t, r, c, planes, countPad, div)
		}
	})
}

func checkAvgPool[T poolFloat](t *testing.T, r *mrand.Rand, c poolCfg, planes int, countPad bool, div int64) {
	t.Helper()
	x := tricky[T](r, planes*c.h*c.w)
	var divArg any
	if div != 0 {
		divArg = div
	}
	got := poolCall(t, "aten::avg_pool2d", fromValues(x, planes, c.h, c.w), []int64{int64(c.kh), int64(c.kw)},
		[]int64{int64(c.sh), int64(c.sw)}, []int64{int64(c.ph), int64(c.pw)}, c.ceil, countPad, divArg)
	want := refAvgPool(x, planes, c, countPad, div)
	if i := sameValues(tensor.Values[T](got[0].(*tensor.Tensor)), want); i >= 0 {
		g := tensor.Values[T](got[0].(*tensor.Tensor))
		t.Fatalf("avg_pool2d %T %+v countPad=%v div=%d: element %d: got %v (bits %x), want %v (bits %x)", x[0], c, countPad, div, i,
			g[i], math.Float64bits(float64(g[i])), want[i], math.Float64bits(float64(want[i])))
	}
}

// rnd rounds v to T.
func rnd[T poolFloat](v float64) float64 { return float64(T(v)) }

// refLinear is the old kernel's compute_source_index_and_lambda for
// every output index, the arithmetic in float64 rounded to T.
func refLinear[T poolFloat](in, out int, ac bool, sf float64) (i0, i1 []int, l0, l1 []float64) {
	var s float64
	switch {
	case ac && out > 1:
		s = rnd[T](rnd[T](float64(in-1)) / rnd[T](float64(out-1)))
	case ac:
		s = 0
	case sf > 0:
		s = rnd[T](1 / sf)
	default:
		s = rnd[T](rnd[T](float64(in)) / rnd[T](float64(out)))
	}
	for d := range out {
		if in == out {
			i0, i1, l0, l1 = append(i0, d), append(i1, d), append(l0, 1), append(l1, 0)
			continue
		}
		var src float64
		if ac {
			src = rnd[T](s * float64(d))
		} else if src = rnd[T](s*(float64(d)+0.5) - 0.5); src < 0 {
			src = 0
		}
		a := min(int(src), in-1)
		b := a
		if a < in-1 {
			b++
		}
		w1 := rnd[T](min(max(rnd[T](src-float64(a)), 0), 1))
		i0, i1, l0, l1 = append(i0, a), append(i1, b), append(l0, rnd[T](1-w1)), append(l1, w1)
	}
	return
}

// refBilinear is bilinear upsampling one output at a time, every product
// and sum rounded to T.
func refBilinear[T poolFloat](x []T, planes, ih, iw, oh, ow int, ac bool, sh, sw float64) []T {
	h0, h1, hl0, hl1 := refLinear[T](ih, oh, ac, sh)
	w0, w1, wl0, wl1 := refLinear[T](iw, ow, ac, sw)
	out := make([]T, 0, planes*oh*ow)
	for pl := range planes {
		src := x[pl*ih*iw:]
		for i := range oh {
			for j := range ow {
				at := func(r, c int) float64 { return float64(src[r*iw+c]) }
				t0 := rnd[T](rnd[T](at(h0[i], w0[j])*wl0[j]) + rnd[T](at(h0[i], w1[j])*wl1[j]))
				t1 := rnd[T](rnd[T](at(h1[i], w0[j])*wl0[j]) + rnd[T](at(h1[i], w1[j])*wl1[j]))
				out = append(out, T(rnd[T](t0*hl0[i])+rnd[T](t1*hl1[i])))
			}
		}
	}
	return out
}

func TestUpsampleBilinearDifferential(t *testing.T) {
	bothVec(t, func(t *testing.T) {
		r := mrand.New(mrand.NewPCG(17, 6))
		for range 200 {
			checkBilinear[float32](t, r)
			checkBilinear[float64](t, r)
		}
	})
}

func checkBilinear[T poolFloat](t *testing.T, r *mrand.Rand) {
	t.Helper()
	planes, ih, iw := 1+r.IntN(3), 1+r.IntN(9), 1+r.IntN(13)
	ac := r.IntN(2) == 0
	x := tricky[T](r, planes*ih*iw)
	in := fromValues(x, 1, planes, ih, iw)
	var got []any
	var oh, ow int
	var sh, sw float64
	switch r.IntN(3) {
	case 0: // .vec with scale factors
		sh, sw = []float64{0.5, 1, 1.5, 2, 2.7, 3}[r.IntN(6)], []float64{0.6, 1, 2, 2.5, 4}[r.IntN(5)]
		oh, ow = int(float64(ih)*sh), int(float64(iw)*sw)
		if oh < 1 || ow < 1 {
			return
		}
		got = poolCall(t, "aten::upsample_bilinear2d.vec", in, nil, ac, []float64{sh, sw})
	case 1: // .vec with an output size
		oh, ow = 1+r.IntN(20), 1+r.IntN(20)
		got = poolCall(t, "aten::upsample_bilinear2d.vec", in, []int64{int64(oh), int64(ow)}, ac, nil)
	default: // output size and scales
		oh, ow = 1+r.IntN(20), 1+r.IntN(20)
		sh, sw = float64(oh)/float64(ih)*1.01, float64(ow)/float64(iw)
		got = poolCall(t, "aten::upsample_bilinear2d", in, []int64{int64(oh), int64(ow)}, ac, sh, sw)
	}
	want := refBilinear(x, planes, ih, iw, oh, ow, ac, sh, sw)
	if i := sameValues(tensor.Values[T](got[0].(*tensor.Tensor)), want); i >= 0 {
		t.Fatalf("bilinear %T %dx%d -> %dx%d ac=%v scales %v %v: element %d: got %v, want %v", x[0], ih, iw, oh, ow, ac, sh, sw, i,
			tensor.Values[T](got[0].(*tensor.Tensor)), want)
	}
}

func TestUpsampleNearestRows(t *testing.T) {
	r := mrand.New(mrand.NewPCG(17, 7))
	for range 200 {
		planes, ih, iw := 1+r.IntN(3), 1+r.IntN(9), 1+r.IntN(13)
		oh, ow := 1+r.IntN(25), 1+r.IntN(25)
		x := tricky[float32](r, planes*ih*iw)
		got := tensor.Values[float32](poolCall(t, "aten::upsample_nearest2d", fromValues(x, 1, planes, ih, iw),
			[]int64{int64(oh), int64(ow)}, nil, nil)[0].(*tensor.Tensor))
		// The generic kernel (compute_indices_weights_nearest, no
		// shortcuts) for inputs of more than one channel: ⌊dst*in/out⌋ in
		// float32.
		src := func(d, in, out int) int {
			return min(int(float32(math.Floor(float64(float32(d)*(float32(in)/float32(out)))))), in-1)
		}
		if planes == 1 {
			continue // channels-last shortcuts; covered by the conformance cases
		}
		want := make([]float32, 0, len(got))
		for pl := range planes {
			for i := range oh {
				for j := range ow {
					want = append(want, x[pl*ih*iw+src(i, ih, oh)*iw+src(j, iw, ow)])
				}
			}
		}
		if i := sameBits(got, want); i >= 0 {
			t.Fatalf("nearest %dx%dx%d -> %dx%d: element %d: got %v, want %v", planes, ih, iw, oh, ow, i, got, want)
		}
	}
}

// adaptiveBounds is ATen's start_index and end_index (float32 division).
func adaptiveBounds(o, out, in int) (int, int) {
	return int(math.Floor(float64(float32(o*in) / float32(out)))), int(math.Ceil(float64(float32((o+1)*in) / float32(out))))
}

func TestAdaptivePool2dDifferential(t *testing.T) {
	r := mrand.New(mrand.NewPCG(17, 8))
	for range 200 {
		checkAdaptive[float32](t, r)
		checkAdaptive[float64](t, r)
	}
}

// checkAdaptive compares adaptive average and max pooling of random
// geometries (planes beyond the eight that run side by side included)
// with a direct loop over each window.
func checkAdaptive[T poolFloat](t *testing.T, r *mrand.Rand) {
	t.Helper()
	planes, ih, iw := 1+r.IntN(20), 1+r.IntN(11), 1+r.IntN(11)
	oh, ow := 1+r.IntN(8), 1+r.IntN(8)
	if r.IntN(4) == 0 {
		oh, ow = 1, 1
	}
	checkAdaptiveSize[T](t, r, planes, ih, iw, oh, ow)
}

// checkAdaptiveSize is checkAdaptive for the given geometry.
func checkAdaptiveSize[T poolFloat](t *testing.T, r *mrand.Rand, planes, ih, iw, oh, ow int) {
	t.Helper()
	x := tricky[T](r, planes*ih*iw)
	in := fromValues(x, planes, ih, iw)
	size := []int64{int64(oh), int64(ow)}
	avg := tensor.Values[T](poolCall(t, "aten::adaptive_avg_pool2d", in, size)[0].(*tensor.Tensor))
	mx := poolCall(t, "aten::adaptive_max_pool2d", in, size)
	mv, mi := tensor.Values[T](mx[0].(*tensor.Tensor)), tensor.Values[int64](mx[1].(*tensor.Tensor))
	var wantAvg, wantMax []T
	var wantIdx []int64
	for pl := range planes {
		src := x[pl*ih*iw:]
		for i := range oh {
			h0, h1 := adaptiveBounds(i, oh, ih)
			for j := range ow {
				w0, w1 := adaptiveBounds(j, ow, iw)
				var s T
				m, best := T(math.Inf(-1)), h0*iw+w0
				for y := h0; y < h1; y++ {
					for z := w0; z < w1; z++ {
						v := src[y*iw+z]
						s += v
						if v > m || v != v {
							m, best = v, y*iw+z
						}
					}
				}
				wantAvg = append(wantAvg, s/T(h1-h0)/T(w1-w0))
				wantMax, wantIdx = append(wantMax, m), append(wantIdx, int64(best))
			}
		}
	}
	name := fmt.Sprintf("%T %dx%dx%d -> %dx%d", x[0], planes, ih, iw, oh, ow)
	if oh == 1 && ow == 1 {
		// The global pool is mean over the plane, as PyTorch's shortcut.
		wantAvg = tensor.Values[T](poolCall(t, "aten::mean.dim", in, []int64{-1, -2}, true)[0].(*tensor.Tensor))
	}
	if i := sameValues(avg, wantAvg); i >= 0 {
		t.Fatalf("adaptive_avg_pool2d %s: element %d: got %v, want %v", name, i, avg, wantAvg)
	}
	if i := sameBits(mv, wantMax); i >= 0 {
		t.Fatalf("adaptive_max_pool2d %s: element %d: got %v, want %v", name, i, mv, wantMax)
	}
	for i := range mi {
		if mi[i] != wantIdx[i] {
			t.Fatalf("adaptive_max_pool2d %s: index %d: got %v, want %v", name, i, mi, wantIdx)
		}
	}
}

// FuzzPool2d runs the max, average and adaptive pooling differential
// checks on geometries and values drawn from the fuzzer's input.
func FuzzPool2d(f *testing.F) {
	f.Add(uint64(1), uint8(112), uint8(112), uint8(3), uint8(3), uint8(2), uint8(2), uint8(1), uint8(1), uint8(1), uint8(1), false)
	f.Add(uint64(2), uint8(7), uint8(9), uint8(2), uint8(3), uint8(1), uint8(3), uint8(0), uint8(1), uint8(2), uint8(1), true)
	f.Add(uint64(3), uint8(1), uint8(1), uint8(1), uint8(1), uint8(1), uint8(1), uint8(0), uint8(0), uint8(1), uint8(1), true)
	f.Fuzz(func(t *testing.T, seed uint64, h, w, kh, kw, sh, sw, ph, pw, dh, dw uint8, ceil bool) {
		c := poolCfg{h: 1 + int(h)%40, w: 1 + int(w)%40, kh: 1 + int(kh)%5, kw: 1 + int(kw)%5,
			sh: 1 + int(sh)%4, sw: 1 + int(sw)%4, dh: 1 + int(dh)%3, dw: 1 + int(dw)%3, ceil: ceil}
		c.ph, c.pw = int(ph)%(c.kh/2+1), int(pw)%(c.kw/2+1)
		r := mrand.New(mrand.NewPCG(seed, 9))
		if c.outSize(c.h, c.kh, c.sh, c.ph, c.dh) >= 1 && c.outSize(c.w, c.kw, c.sw, c.pw, c.dw) >= 1 {
			checkMaxPool[float32](t, r, c, 2)
			checkMaxPool[float64](t, r, c, 1)
		}
		c.dh, c.dw = 1, 1
		if c.outSize(c.h, c.kh, c.sh, c.ph, 1) >= 1 && c.outSize(c.w, c.kw, c.sw, c.pw, 1) >= 1 {
			checkAvgPool[float32](t, r, c, 2, ceil, 0)
			checkAvgPool[float64](t, r, c, 1, !ceil, int64(seed%3))
		}
		// Adaptive pooling of the same input size to a kernel-sized output.
		planes := 1 + int(seed%19)
		checkAdaptiveSize[float32](t, r, planes, c.h, c.w, 1+int(kh)%9, 1+int(kw)%9)
		checkAdaptiveSize[float64](t, r, planes, c.h, c.w, 1+int(sh)%9, 1+int(sw)%9)
	})
}
