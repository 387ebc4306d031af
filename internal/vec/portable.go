package vec

// The portable loops: plain Go, one switch per call (not per element).
// Every CPU runs them for the tails of the assembly loops, and the purego
// build and CPUs without AVX2 for everything.

func binaryGo[T Float](op Op, dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	switch op {
	case Add:
		for i := range dst {
			dst[i] = x[i] + y[i]
		}
	case Sub:
		for i := range dst {
			dst[i] = x[i] - y[i]
		}
	case Mul:
		for i := range dst {
			dst[i] = x[i] * y[i]
		}
	case Div:
		for i := range dst {
			dst[i] = x[i] / y[i]
		}
	}
}

func binaryScalarGo[T Float](op Op, dst, x []T, s T) {
	x = x[:len(dst)]
	switch op {
	case Add:
		for i := range dst {
			dst[i] = x[i] + s
		}
	case Sub:
		for i := range dst {
			dst[i] = x[i] - s
		}
	case Mul:
		for i := range dst {
			dst[i] = x[i] * s
		}
	case Div:
		for i := range dst {
			dst[i] = x[i] / s
		}
	}
}

func scalarBinaryGo[T Float](op Op, dst []T, s T, y []T) {
	y = y[:len(dst)]
	switch op {
	case Add:
		for i := range dst {
			dst[i] = s + y[i]
		}
	case Sub:
		for i := range dst {
			dst[i] = s - y[i]
		}
	case Mul:
		for i := range dst {
			dst[i] = s * y[i]
		}
	case Div:
		for i := range dst {
			dst[i] = s / y[i]
		}
	}
}

func reluGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i, v := range x {
		if v < 0 {
			v = 0
		}
		dst[i] = v
	}
}

func clampGo[T Float](dst, x []T, lo, hi T) {
	x = x[:len(dst)]
	for i, v := range x {
		if v < lo {
			v = lo
		}
		if v > hi {
			v = hi
		}
		dst[i] = v
	}
}
