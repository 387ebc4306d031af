package vec

import "os"

// Float is the element type of the loops: float32 or float64.
type Float interface{ float32 | float64 }

// Op is an arithmetic operation of Binary, BinaryScalar and ScalarBinary.
type Op uint8

// The operations: IEEE addition, subtraction, multiplication and division,
// each rounded once to the element type.
const (
	Add Op = iota
	Sub
	Mul
	Div
	numOps
)

// asmLoops holds assembly loops. Each handles a multiple of the vector
// width (8 float32, 4 float64, unless said otherwise); the portable code
// does the rest.
type asmLoops struct {
	name    string // "avx2" or "avx512"
	vv32    [numOps]func(dst, x, y *float32, n int)
	vs32    [numOps]func(dst, x *float32, n int, s float32)
	sv32    [numOps]func(dst, y *float32, n int, s float32)
	vv64    [numOps]func(dst, x, y *float64, n int)
	vs64    [numOps]func(dst, x *float64, n int, s float64)
	sv64    [numOps]func(dst, y *float64, n int, s float64)
	relu32  func(dst, x *float32, n int)
	relu64  func(dst, x *float64, n int)
	clamp32 func(dst, x *float32, n int, lo, hi float32)
	clamp64 func(dst, x *float64, n int, lo, hi float64)
	rows32  *rowLoops // nil: the portable row loops
	// even32 is Even's loop (a multiple of 8 elements); evenRows32,
	// where not nil, EvenRows' (any n ≥ 1).
	even32     func(dst, x *float32, n int)
	evenRows32 func(dst *float32, ldd int, x *float32, ldx, rows, n int)
}

// rowLoops are the float32 row loops of rows.go in assembly.
type rowLoops struct {
	sum        func(x *float32, n int) float64
	sqDev      func(x *float32, n int, mean float64) float64
	max, min   func(x *float32, n int) float32
	scaleShift func(dst, x *float32, n int, s, t float32)
	affine     func(dst, x, w, b *float32, n int, s, t float32)
	subSub     func(dst, x *float32, n int, a, b float32)
	subSubV    func(dst, x, a, b *float32, n int)
	// The exp family handles a multiple of expLanes elements (8 in
	// AVX2, 16 in AVX-512); subExpSum and subExpSumOnly a multiple of 16.
	expLanes      int
	exp           func(dst, x *float32, n int)
	sigmoid       func(dst, x *float32, n int)
	silu          func(dst, x *float32, n int)
	subExpSum     func(dst, x *float32, n int, m float32) float64
	subExpSumOnly func(x *float32, n int, m float32) float64
	subExpAcc     func(dst, x, m *float32, acc *float64, n int) // expLanes
}

var (
	// levels are the assembly loops this CPU and build allow, best first
	// (AVX-512, then AVX2); empty on other CPUs and under purego. The
	// amd64 init sets them.
	levels []*asmLoops
	// detected is the best of levels (nil: none).
	detected *asmLoops
	// asm is the assembly in use: detected, unless GOFX_VEC says
	// otherwise.
	asm *asmLoops
)

// pick returns the loops to use: detected; none under GOFX_VEC=portable;
// the AVX2 loops under GOFX_VEC=avx2 (where the CPU has them).
func pick() *asmLoops {
	switch v := os.Getenv("GOFX_VEC"); v {
	case "portable":
		return nil
	case "avx2":
		for _, l := range levels {
			if l.name == v {
				return l
			}
		}
	}
	return detected
}

// Impl names the loops in use: "avx512", "avx2" or "portable". The
// AVX-512 loops are the exp family's (Exp, Sigmoid, Silu, SubExpSum);
// the others stay AVX2 there.
func Impl() string {
	if asm != nil {
		return asm.name
	}
	return "portable"
}

// SetPortable selects the portable loops (on true) or the assembly this
// CPU and build allow (on false), and returns a function restoring the
// previous choice. It is meant for tests and benchmarks: it must not run
// while loops do.
func SetPortable(on bool) (restore func()) {
	old := asm
	if on {
		asm = nil
	} else {
		asm = detected
	}
	return func() { asm = old }
}

// vecLen returns n rounded down to a multiple of T's vector width.
func vecLen[T Float](n int) int {
	var z T
	if _, ok := any(z).(float32); ok {
		return n &^ 7
	}
	return n &^ 3
}

// Binary sets dst[i] = x[i] op y[i] for i < len(dst); x and y must hold
// at least len(dst) elements. dst may be x or y (the same slice), but must
// not overlap them otherwise.
func Binary[T Float](op Op, dst, x, y []T) {
	n := len(dst)
	if n == 0 {
		return
	}
	x, y = x[:n], y[:n]
	k := 0
	if a := asm; a != nil && op < numOps {
		k = vecLen[T](n)
		if k > 0 {
			switch d := any(dst).(type) {
			case []float32:
				a.vv32[op](&d[0], &any(x).([]float32)[0], &any(y).([]float32)[0], k)
			case []float64:
				a.vv64[op](&d[0], &any(x).([]float64)[0], &any(y).([]float64)[0], k)
			}
		}
	}
	binaryGo(op, dst[k:], x[k:], y[k:])
}

// BinaryScalar sets dst[i] = x[i] op s for i < len(dst); x must hold at
// least len(dst) elements and may be dst.
func BinaryScalar[T Float](op Op, dst, x []T, s T) {
	n := len(dst)
	if n == 0 {
		return
	}
	x = x[:n]
	k := 0
	if a := asm; a != nil && op < numOps {
		k = vecLen[T](n)
		if k > 0 {
			switch d := any(dst).(type) {
			case []float32:
				a.vs32[op](&d[0], &any(x).([]float32)[0], k, any(s).(float32))
			case []float64:
				a.vs64[op](&d[0], &any(x).([]float64)[0], k, any(s).(float64))
			}
		}
	}
	binaryScalarGo(op, dst[k:], x[k:], s)
}

// ScalarBinary sets dst[i] = s op y[i] for i < len(dst); y must hold at
// least len(dst) elements and may be dst.
func ScalarBinary[T Float](op Op, dst []T, s T, y []T) {
	n := len(dst)
	if n == 0 {
		return
	}
	y = y[:n]
	k := 0
	if a := asm; a != nil && op < numOps {
		k = vecLen[T](n)
		if k > 0 {
			switch d := any(dst).(type) {
			case []float32:
				a.sv32[op](&d[0], &any(y).([]float32)[0], k, any(s).(float32))
			case []float64:
				a.sv64[op](&d[0], &any(y).([]float64)[0], k, any(s).(float64))
			}
		}
	}
	scalarBinaryGo(op, dst[k:], s, y[k:])
}

// Relu sets dst[i] to 0 where x[i] < 0 and to x[i] otherwise (NaN and -0
// stay), for i < len(dst); x may be dst.
func Relu[T Float](dst, x []T) {
	n := len(dst)
	if n == 0 {
		return
	}
	x = x[:n]
	k := 0
	if a := asm; a != nil {
		k = vecLen[T](n)
		if k > 0 {
			switch d := any(dst).(type) {
			case []float32:
				a.relu32(&d[0], &any(x).([]float32)[0], k)
			case []float64:
				a.relu64(&d[0], &any(x).([]float64)[0], k)
			}
		}
	}
	reluGo(dst[k:], x[k:])
}

// Clamp sets dst[i] to lo where x[i] < lo, then to hi where that is above
// hi, and to x[i] otherwise (NaN stays), for i < len(dst); x may be dst.
// lo and hi must not be NaN (the caller handles NaN bounds).
func Clamp[T Float](dst, x []T, lo, hi T) {
	n := len(dst)
	if n == 0 {
		return
	}
	x = x[:n]
	k := 0
	if a := asm; a != nil {
		k = vecLen[T](n)
		if k > 0 {
			switch d := any(dst).(type) {
			case []float32:
				a.clamp32(&d[0], &any(x).([]float32)[0], k, any(lo).(float32), any(hi).(float32))
			case []float64:
				a.clamp64(&d[0], &any(x).([]float64)[0], k, any(lo).(float64), any(hi).(float64))
			}
		}
	}
	clampGo(dst[k:], x[k:], lo, hi)
}
