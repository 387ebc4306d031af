package kernels

import (
	"os"
	"sync"

	fastgemm "github.com/gofx/gofx/internal/gemm"
	"github.com/gofx/gofx/internal/vec"
)

// A direct depthwise convolution: groups equal to the input channels, one
// input channel per group (cig == 1) and a few output channels per group
// (the channel multiplier), as in mobilenet and efficientnet. A GEMM has
// little to gain there (a product of 1×K by K×L with K = kh·kw, its
// patches gathered for each tap), so each output plane is summed
// directly.
//
// The input plane is copied once into a zero-padded scratch plane, split
// by the stride into sh·sw phase planes (phase (a, b) holds the padded
// rows a, a+sh, ... and columns b, b+sw, ...). Every tap (ki, kj) of the
// kernel then reads one phase plane at a fixed shift, the same for every
// output, and the output plane, laid out with the phase planes' row
// pitch, is a one-dimensional sum of kh·kw shifted planes scaled by one
// weight: internal/gemm's TapSum, one call per plane (an AVX2 loop for
// float32 on amd64). GOFX_DEPTHWISE=off sends them to the GEMM path. The valid columns of each row are then copied to the
// output, the epilogue applied on the way.

// depthwiseOff is set by GOFX_DEPTHWISE=off, read at start-up: depthwise
// convolutions then take the GEMM path (to compare the two).
var depthwiseOff = os.Getenv("GOFX_DEPTHWISE") == "off"

// useDepthwise reports whether the forward convolution geo runs on the
// direct depthwise kernel: floats, not transposed, 1-d or 2-d, one input
// channel per group, at most four output channels per group.
func useDepthwise(geo geom, isInt bool) bool {
	return !depthwiseOff && !isInt && !geo.transposed && geo.cig == 1 && geo.g > 1 && geo.cog <= 4 &&
		geo.k[0] == 1 && geo.in[0] == 1 && geo.out[0] == 1
}

// dwPlan is the layout of a depthwise convolution's scratch: phase planes
// of hq×wq (sh·sw of them), the output laid out with pitch wq, and each
// tap's offset into the phase planes.
type dwPlan struct {
	hq, wq int
	offs   []int
	nOut   int // outputs computed per plane: (oh-1)*wq + ow
}

// newDwPlan returns the plan of geo.
func newDwPlan(geo geom) *dwPlan {
	hp, wp := geo.in[1]+2*geo.p[1], geo.in[2]+2*geo.p[2]
	sh, sw := geo.s[1], geo.s[2]
	pl := &dwPlan{hq: ceilDiv(hp, sh), wq: ceilDiv(wp, sw)}
	plane := pl.hq * pl.wq
	for ki := range geo.k[1] {
		for kj := range geo.k[2] {
			dy, dx := ki*geo.d[1], kj*geo.d[2]
			phase := (dy%sh)*sw + dx%sw
			pl.offs = append(pl.offs, phase*plane+(dy/sh)*pl.wq+dx/sw)
		}
	}
	pl.nOut = (geo.out[1]-1)*pl.wq + geo.out[2]
	return pl
}

// depthwiseRun computes the depthwise convolution geo (useDepthwise) of
// contiguous x and w into out, adding bias (nil for none) and applying e
// (nil for none), one (image, input channel) plane per task.
func depthwiseRun[T float32 | float64 | int64](geo geom, x, w, bias, out []T, e *outEp[T]) {
	h, wd := geo.in[1], geo.in[2]
	oh, ow := geo.out[1], geo.out[2]
	kk := geo.k[1] * geo.k[2]
	pl := newDwPlan(geo)
	sh, sw := geo.s[1], geo.s[2]
	planes := geo.n * geo.g
	// Each output plane is summed whole into acc (pitch wq: the
	// columns past ow are junk, 3% of a 56-wide plane) by one TapSum,
	// and its valid columns are copied out. Summing wide rows straight
	// into the output, a TapSum a row, measured 1.2-1.4x slower on 112-
	// and 56-wide planes: the calls' setup and tails cost more than the
	// copy.
	parallel(planes, planes*geo.cog*oh*ow*kk, func(lo, hi int) {
		scratch := getScratch[T](sh*sw*pl.hq*pl.wq + pl.nOut)
		defer putScratch(scratch)
		phases := scratch.data[:sh*sw*pl.hq*pl.wq]
		acc := scratch.data[len(phases):]
		for i := lo; i < hi; i++ {
			c := i % geo.g
			dwPhases(geo, pl, x[i*h*wd:(i+1)*h*wd], phases)
			for m := range geo.cog {
				co := c*geo.cog + m
				var b T
				if bias != nil {
					b = bias[co]
				}
				wk := w[co*kk : (co+1)*kk]
				oi := (i*geo.cog + m) * oh * ow
				fillWith(acc, b)
				tapSum(acc, phases, wk, pl.offs)
				for y := range oh {
					row := out[oi+y*ow : oi+(y+1)*ow]
					copy(row, acc[y*pl.wq:y*pl.wq+ow])
					if e != nil {
						e.apply(row, oi+y*ow)
					}
				}
			}
		}
	})
}

// fillWith sets every element of s to v: one element, then copies that
// double the filled prefix (memmove's speed; the element loop was 13% of
// a depthwise convolution's time).
func fillWith[T any](s []T, v T) {
	if len(s) == 0 {
		return
	}
	s[0] = v
	for k := 1; k < len(s); k *= 2 {
		copy(s[k:], s[:k])
	}
}

// scratchBuf is a pooled scratch slice of the depthwise kernel.
type scratchBuf[T float32 | float64 | int64] struct{ data []T }

// scratchPools pool scratchBufs of float32, float64 and int64.
var scratchPools [3]sync.Pool

// scratchPool returns the pool of T's scratch buffers.
func scratchPool[T float32 | float64 | int64]() *sync.Pool {
	switch any(*new(T)).(type) {
	case float32:
		return &scratchPools[0]
	case float64:
		return &scratchPools[1]
	}
	return &scratchPools[2]
}

// getScratch returns a pooled buffer of n elements (contents undefined).
func getScratch[T float32 | float64 | int64](n int) *scratchBuf[T] {
	sb, _ := scratchPool[T]().Get().(*scratchBuf[T])
	if sb == nil {
		sb = new(scratchBuf[T])
	}
	if cap(sb.data) < n {
		sb.data = make([]T, n)
	}
	sb.data = sb.data[:n]
	return sb
}

// putScratch returns sb to its pool.
func putScratch[T float32 | float64 | int64](sb *scratchBuf[T]) { scratchPool[T]().Put(sb) }

// dwPhases fills phases with the zero-padded input plane x split into
// the stride's phase planes: phase (a, b), row r, column q holds the
// padded plane's element (r*sh+a, q*sw+b).
func dwPhases[T float32 | float64 | int64](geo geom, pl *dwPlan, x, phases []T) {
	h, wd := geo.in[1], geo.in[2]
	ph, pw := geo.p[1], geo.p[2]
	sh, sw := geo.s[1], geo.s[2]
	plane := pl.hq * pl.wq
	if sh == 1 && sw == 1 {
		if ph > 0 {
			clear(phases[:ph*pl.wq])
			clear(phases[(ph+h)*pl.wq:])
		}
		for r := range h {
			dst := phases[(r+ph)*pl.wq : (r+ph+1)*pl.wq]
			clear(dst[:pw])
			copy(dst[pw:pw+wd], x[r*wd:(r+1)*wd])
			clear(dst[pw+wd:])
		}
		return
	}
	clear(phases)
	for r := range h {
		pr := r + ph
		a, rq := pr%sh, pr/sh
		src := x[r*wd : (r+1)*wd]
		if sw == 2 && wd >= 32 {
			// Both phases of the row in one vec.Phases2 (a
			// Deinterleave2), not element by element: 60% of a
			// stride-2 depthwise convolution's time was this loop
			// (1.4-1.6x on 112- and 56-wide planes; rows of 14 go
			// faster element by element).
			d0 := phases[(a*sw)*plane+rq*pl.wq : (a*sw)*plane+(rq+1)*pl.wq]
			d1 := phases[(a*sw+1)*plane+rq*pl.wq : (a*sw+1)*plane+(rq+1)*pl.wq]
			if phases2(d0, d1, src, pw) {
				continue
			}
		}
		for b := range sw {
			// Columns q of phase b hold padded column q*sw+b, input
			// column q*sw+b-pw.
			dst := phases[(a*sw+b)*plane+rq*pl.wq : (a*sw+b)*plane+(rq+1)*pl.wq]
			q0 := ceilDiv(pw-b, sw) // first q whose input column is >= 0
			q0 = max(q0, 0)
			for q := q0; q < pl.wq; q++ {
				ic := q*sw + b - pw
				if ic >= wd {
					break
				}
				dst[q] = src[ic]
			}
		}
	}
}

// phases2 is vec.Phases2 for a float T (false, nothing done, for int64).
func phases2[T float32 | float64 | int64](p0, p1, xr []T, pad int) bool {
	switch x := any(xr).(type) {
	case []float32:
		vec.Phases2(any(p0).([]float32), any(p1).([]float32), x, pad)
	case []float64:
		vec.Phases2(any(p0).([]float64), any(p1).([]float64), x, pad)
	default:
		return false
	}
	return true
}

// tapSum is internal/gemm's TapSum for T, a Go loop for int64.
func tapSum[T float32 | float64 | int64](dst, src, taps []T, offs []int) {
	switch tv := any(taps).(type) {
	case []float32:
		fastgemm.TapSum(any(dst).([]float32), any(src).([]float32), tv, offs)
	case []float64:
		fastgemm.TapSum(any(dst).([]float64), any(src).([]float64), tv, offs)
	default:
		n := len(dst)
		for t, w := range taps {
			st := src[offs[t] : offs[t]+n]
			for o := range dst {
				dst[o] += w * st[o]
			}
		}
	}
}
