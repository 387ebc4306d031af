package gemm

import (
	"fmt"
	"os"
)

// convIm2col is set by GOFX_CONV=im2col, read at start-up: GemmConv and
// PackedA.Conv gather im2col while packing B instead of computing the
// convolution shifted (shift.go).
var convIm2col = os.Getenv("GOFX_CONV") == "im2col"

// ConvGeom describes the image operand of a convolution for GemmConv: x
// holds C channels of an In[0]×In[1]×In[2] volume (contiguous, channel by
// channel), and a K[0]×K[1]×K[2] kernel slides over it with the given
// stride, padding and dilation, giving Out[0]×Out[1]×Out[2] output
// positions. 1-d and 2-d convolutions have leading sizes of 1 (and
// stride and dilation 1, padding 0 there).
type ConvGeom struct {
	C                     int
	In, K, Out            [3]int
	Stride, Pad, Dilation [3]int
}

// rows returns the product's k: C times the kernel's volume.
func (g *ConvGeom) rows() int { return g.C * g.K[0] * g.K[1] * g.K[2] }

// cols returns the product's n: the output's volume.
func (g *ConvGeom) cols() int { return g.Out[0] * g.Out[1] * g.Out[2] }

// GemmConv computes c = alpha*w*im2col(x) + beta*c, a convolution of one
// image: w is m×k row-major (leading dimension ldw, k = C·K[0]·K[1]·K[2],
// rows of (channel, kd, kh, kw)), im2col(x) is the k×n matrix of x's
// patches (n = Out[0]·Out[1]·Out[2], row (channel, kd, kh, kw), column
// (od, oh, ow) holding x[channel, od·s−p+kd·d, oh·s−p+kh·d, ow·s−p+kw·d],
// zero in the padding), and c is m×n. The patches are gathered while B is
// packed, so no im2col buffer is made. ep is applied in the final store
// as by GemmEpilogue.
func GemmConv[T Float](m int, alpha T, w []T, ldw int, x []T, g *ConvGeom, beta T, c []T, ldc int, ep *Epilogue[T]) error {
	if err := checkConv(x, g); err != nil {
		return err
	}
	k, n, nx := g.rows(), g.cols(), g.inputLen()
	if m < 0 {
		return fmt.Errorf("gemm: conv: m=%d must not be negative", m)
	}
	if err := checkMatrix("w", m, k, w, ldw); err != nil {
		return err
	}
	if err := checkC(m, n, c, ldc, ep, operand[T]{"w", w, span(m, k, ldw)}, operand[T]{"x", x, nx}); err != nil {
		return err
	}
	if ep.empty() {
		ep = nil
	}
	kern := kernelFor[T](m)
	if useShift(g, m) {
		convShift(kern, nil, m, alpha, w, ldw, x, g, beta, c, ldc, ep)
		return nil
	}
	d := newJob(kern, false, false, m, n, k, alpha, w, ldw, x, 0, beta, c, ldc, ep)
	d.conv = g
	d.run()
	return nil
}

// inputLen returns how many elements the image x holds.
func (g *ConvGeom) inputLen() int { return g.C * g.In[0] * g.In[1] * g.In[2] }

// checkConv checks a convolution's geometry and image.
func checkConv[T Float](x []T, g *ConvGeom) error {
	if g == nil {
		return fmt.Errorf("gemm: conv: nil geometry")
	}
	if g.C < 0 {
		return fmt.Errorf("gemm: conv: %d channels", g.C)
	}
	for i := range 3 {
		if g.In[i] < 0 || g.K[i] < 0 || g.Out[i] < 0 || g.Pad[i] < 0 || g.Stride[i] < 1 || g.Dilation[i] < 1 {
			return fmt.Errorf("gemm: conv: dimension %d: input %d, kernel %d, output %d, stride %d, padding %d, dilation %d out of range",
				i, g.In[i], g.K[i], g.Out[i], g.Stride[i], g.Pad[i], g.Dilation[i])
		}
	}
	// Bound every product the driver forms, so that none overflows.
	const limit = 1 << 40
	for _, v := range [][4]int{{g.C, g.In[0], g.In[1], g.In[2]}, {g.C, g.K[0], g.K[1], g.K[2]}, {1, g.Out[0], g.Out[1], g.Out[2]}} {
		p := 1
		for _, f := range v {
			if f != 0 && p > limit/f {
				return fmt.Errorf("gemm: conv: geometry %+v is too large", *g)
			}
			p *= f
		}
	}
	if nx := g.inputLen(); len(x) < nx {
		return fmt.Errorf("gemm: conv: x has %d elements, %d channels of %v need %d", len(x), g.C, g.In, nx)
	}
	return nil
}

// packBConv is packB for a job whose b is an image (d.conv): strip s of
// the panel holds rows pc..pc+kb of im2col(x) at columns jc+s*nr, each
// row gathered run by run along the output's last dimension.
func packBConv[T Float](d *job[T], lo, hi int) {
	g := d.conv
	nr, kb := d.kern.nr, d.kb
	kk := g.K[0] * g.K[1] * g.K[2]
	lin := g.In[0] * g.In[1] * g.In[2]
	for s := lo; s < hi; s++ {
		dst := d.bpack[s*kb*nr : (s+1)*kb*nr]
		j0 := d.jc + s*nr
		w := min(nr, d.n-j0)
		ow0, t := j0%g.Out[2], j0/g.Out[2]
		oh0, od0 := t%g.Out[1], t/g.Out[1]
		for p := range kb {
			r := d.pc + p
			ch, kr := r/kk, r%kk
			kd, kh, kw := kr/(g.K[1]*g.K[2]), (kr/g.K[2])%g.K[1], kr%g.K[2]
			row := dst[p*nr : p*nr+nr]
			src := d.b[ch*lin : (ch+1)*lin]
			offD := kd*g.Dilation[0] - g.Pad[0]
			offH := kh*g.Dilation[1] - g.Pad[1]
			offW := kw*g.Dilation[2] - g.Pad[2]
			od, oh, ow := od0, oh0, ow0
			for j := 0; j < w; {
				seg := min(w-j, g.Out[2]-ow)
				out := row[j : j+seg]
				id, ih := od*g.Stride[0]+offD, oh*g.Stride[1]+offH
				if id < 0 || id >= g.In[0] || ih < 0 || ih >= g.In[1] {
					clear(out)
				} else {
					srow := src[(id*g.In[1]+ih)*g.In[2] : (id*g.In[1]+ih+1)*g.In[2]]
					if sw := g.Stride[2]; sw == 1 {
						// iw = ow+x+offW for x in [0, seg): valid for x in [xlo, xhi).
						base := ow + offW
						xlo := min(max(-base, 0), seg)
						xhi := min(max(g.In[2]-base, xlo), seg)
						clear(out[:xlo])
						if xhi > xlo {
							copy(out[xlo:xhi], srow[base+xlo:base+xhi])
						}
						clear(out[xhi:])
					} else {
						iw := ow*sw + offW
						for x := range out {
							if iw >= 0 && iw < g.In[2] {
								out[x] = srow[iw]
							} else {
								out[x] = 0
							}
							iw += sw
						}
					}
				}
				j += seg
				ow += seg
				if ow == g.Out[2] {
					ow = 0
					oh++
					if oh == g.Out[1] {
						oh = 0
						od++
					}
				}
			}
			clear(row[w:])
		}
	}
}
