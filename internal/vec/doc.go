// Package vec holds the vector loops of gofx's elementwise kernels:
// float32 and float64 addition, subtraction, multiplication and division
// of two slices or of a slice and a scalar, ReLU and clamp, and the
// max folding of max pooling (MaxFold, MaxFoldArg32/64 and the three-tap
// MaxFold3, MaxFold3Arg32/64: one window tap at a time, NaN winning and
// the earlier of equal values staying, as ATen's loops) and the stride-2
// row split of pooling (Deinterleave2).
//
// On amd64 CPUs with AVX2 the loops are Go assembly (vec_amd64.s), chosen
// at run time with golang.org/x/sys/cpu; other CPUs, the purego build tag
// and GOFX_VEC=portable run the portable Go loops of portable.go, which
// also handle the assembly's tails. Both compute each element with one
// IEEE operation, so they agree bit for bit (TestAgainstPortable,
// FuzzVec), NaN payloads aside.
package vec
