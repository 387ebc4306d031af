package tensor_test

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
)

// halfValue returns the exact value of the binary16 bit pattern h computed
// from its fields, and whether it is NaN.
func halfValue(h uint16) (float64, bool) {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	man := float64(h & 0x3ff)
	switch exp {
	case 0x1f:
		if man != 0 {
			return math.NaN(), true
		}
		return math.Inf(int(sign)), false
	case 0:
		return sign * math.Ldexp(man, -24), false
	}
	return sign * math.Ldexp(1+man/1024, exp-15), false
}

// Every one of the 65536 float16 bit patterns converts to the float32 of
// its exact value and back to itself (NaNs to a NaN, keeping the payload
// on the way to float32).
func TestHalfRoundTripExhaustive(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		h := tensor.Half(b)
		want, isNaN := halfValue(uint16(b))
		f := h.Float32()
		if isNaN {
			fb := math.Float32bits(f)
			if !math.IsNaN(float64(f)) || fb&0x80000000 != uint32(b&0x8000)<<16 || fb&0x7fffff != uint32(b&0x3ff)<<13 {
				t.Fatalf("%#04x: float32 %#08x is not the NaN with its sign and payload", b, fb)
			}
			if back := tensor.HalfFromFloat32(f); !math.IsNaN(float64(back.Float32())) {
				t.Fatalf("%#04x: back to %#04x, not a NaN", b, back)
			}
			continue
		}
		if math.Float64bits(want) != math.Float64bits(float64(f)) {
			t.Fatalf("%#04x: float32 %v, want %v", b, f, want)
		}
		if back := tensor.HalfFromFloat32(f); back != h {
			t.Fatalf("%#04x: back to %#04x", b, back)
		}
	}
}

// Every float32 halfway between two neighbouring float16 values rounds to
// the even one, and the float32 values just below and above it round to
// the nearer one; the same holds past the largest float16 (toward
// infinity) and below the smallest subnormal (toward zero).
func TestHalfRoundingTiesExhaustive(t *testing.T) {
	for b := 0; b < 0x7c00; b++ {
		lo := tensor.Half(b)
		var hiV float64
		if b == 0x7bff {
			hiV = 65536 // the next value of the format, where infinity starts
		} else {
			hiV, _ = halfValue(uint16(b + 1))
		}
		loV, _ := halfValue(uint16(b))
		mid := float32((loV + hiV) / 2)
		if float64(mid) != (loV+hiV)/2 {
			t.Fatalf("midpoint after %#04x is not exact in float32", b)
		}
		even := lo
		if b&1 == 1 {
			even = lo + 1
		}
		for _, sign := range []float32{1, -1} {
			s := tensor.Half(0)
			if sign < 0 {
				s = 0x8000
			}
			below := math.Nextafter32(mid, 0)
			above := math.Nextafter32(mid, float32(math.Inf(1)))
			for _, c := range []struct {
				what string
				f    float32
				want tensor.Half
			}{{"tie", mid, even}, {"below the tie", below, lo}, {"above the tie", above, lo + 1}} {
				if got := tensor.HalfFromFloat32(sign * c.f); got != c.want|s {
					t.Fatalf("%s after %#04x (sign %v): got %#04x, want %#04x", c.what, b, sign, got, c.want|s)
				}
			}
		}
	}
	assert.Equal(t, tensor.Half(0x7c00), tensor.HalfFromFloat32(math.MaxFloat32))
	assert.Equal(t, tensor.Half(0xfc00), tensor.HalfFromFloat32(float32(math.Inf(-1))))
	assert.Equal(t, tensor.Half(0x0000), tensor.HalfFromFloat32(math.SmallestNonzeroFloat32))
	assert.Equal(t, tensor.Half(0x8000), tensor.HalfFromFloat32(float32(math.Copysign(0, -1))))
}

// Every one of the 65536 bfloat16 bit patterns is the upper half of its
// float32 and converts back to itself; NaNs become the canonical quiet NaN.
func TestBHalfRoundTripExhaustive(t *testing.T) {
	check := func(what string, b int, got, want tensor.BHalf) {
		if got != want {
			t.Fatalf("%s %#04x: got %#04x, want %#04x", what, b, got, want)
		}
	}
	for b := 0; b < 1<<16; b++ {
		h := tensor.BHalf(b)
		f := h.Float32()
		if math.Float32bits(f) != uint32(b)<<16 {
			t.Fatalf("%#04x: float32 bits %#08x", b, math.Float32bits(f))
		}
		if math.IsNaN(float64(f)) {
			check("NaN", b, tensor.BHalfFromFloat32(f), 0x7fc0)
			continue
		}
		check("round trip of", b, tensor.BHalfFromFloat32(f), h)
		// The float32 values strictly between this pattern and the next
		// round to the nearer, ties to even.
		if b&0x7f80 == 0x7f80 {
			continue // infinities and NaNs have no next value
		}
		want := h
		if b&1 == 1 {
			want = h + 1
		}
		check("tie after", b, tensor.BHalfFromFloat32(math.Float32frombits(uint32(b)<<16|0x8000)), want)
		check("below the tie after", b, tensor.BHalfFromFloat32(math.Float32frombits(uint32(b)<<16|0x7fff)), h)
		check("above the tie after", b, tensor.BHalfFromFloat32(math.Float32frombits(uint32(b)<<16|0x8001)), h+1)
	}
}

// HalfFromFloat32 and BHalfFromFloat32 agree with torch's .to(float16) and
// .to(bfloat16) on random float32 bit patterns, ties and special values
// (testdata/half.json, from gen_half.py).
func TestHalfMatchesTorch(t *testing.T) {
	data, err := os.ReadFile("testdata/half.json")
	require.NoError(t, err)
	var entries []string
	require.NoError(t, json.Unmarshal(data, &entries))
	require.Greater(t, len(entries), 4000)
	parse := func(s string) uint64 {
		v, err := strconv.ParseUint(s, 16, 32)
		require.NoError(t, err)
		return v
	}
	for _, e := range entries {
		parts := strings.Split(e, ":")
		require.Len(t, parts, 3)
		f := math.Float32frombits(uint32(parse(parts[0])))
		wantH, wantB := tensor.Half(parse(parts[1])), tensor.BHalf(parse(parts[2]))
		gotH, gotB := tensor.HalfFromFloat32(f), tensor.BHalfFromFloat32(f)
		if math.IsNaN(float64(f)) {
			// torch's NaN bits: sign kept, quiet NaN.
			assert.Equal(t, wantH, gotH, "float16 of %s", parts[0])
			assert.True(t, math.IsNaN(float64(gotB.Float32())), "bfloat16 of %s", parts[0])
			continue
		}
		assert.Equal(t, wantH, gotH, "float16 of %s", parts[0])
		assert.Equal(t, wantB, gotB, "bfloat16 of %s", parts[0])
	}
}

// Half and BHalf tensors convert through float32, as PyTorch's CPU casts do:
// a float64 is rounded to float32 first (double rounding).
func TestHalfTensorsRoundThroughFloat32(t *testing.T) {
	v := 1 + math.Ldexp(1, -11) + math.Ldexp(1, -40) // rounds to the tie 1+2^-11 in float32
	x := tensor.Must(tensor.FromFloat64s(tensor.Float16, []float64{v, 65519, 65520, 1e-8}, 4))
	assert.Equal(t, []float64{1, 65504, math.Inf(1), 0}, x.Float64s())
	y := tensor.Must(tensor.FromFloat64s(tensor.BFloat16, []float64{1 + math.Ldexp(1, -8) + math.Ldexp(1, -40), 3.5}, 2))
	assert.Equal(t, []float64{1, 3.5}, y.Float64s())
	assert.Equal(t, []tensor.Half{0x3c00, 0x7bff, 0x7c00, 0}, tensor.Values[tensor.Half](x))
	z := tensor.Must(tensor.FromInt64s(tensor.Float16, []int64{2049, 2051, 1 << 20}, 3))
	assert.Equal(t, []float64{2048, 2052, math.Inf(1)}, z.Float64s())
}
