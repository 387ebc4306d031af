#!/usr/bin/python3
"""Extra conformance cases for the binary elementwise kernels (kernels/binary_ops.go, pow.go, tensor_compare.go).

Run with PyTorch 1.13 (Debian's python3-torch): /usr/bin/python3 gen_ew1.py
It writes one <ns>.<name>.<overload>.jsonl file per op beside itself, in the
format of testdata/conformance (see its README), for corners the shared
vectors miss: float16/bfloat16/int8/int16/uint8 dtypes, wrapping of
out-of-range scalars, integer floor division, NaN/inf/signed-zero edges and
PyTorch's pow fast paths.
"""

import json
import os

import torch

from confgen import enc, enc_float, enc_tensor  # noqa: F401

torch.set_num_threads(1)
A = torch.ops.aten
OUT = os.path.dirname(os.path.abspath(__file__))

f32, f64, f16, bf16 = torch.float32, torch.float64, torch.float16, torch.bfloat16
i64, i32, i16, i8, u8, b8 = torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool
NAN, INF = float("nan"), float("inf")

DTYPE_NAMES = {f32: "float32", f64: "float64", f16: "float16", bf16: "bfloat16", i64: "int64",
               i32: "int32", i16: "int16", i8: "int8", u8: "uint8", b8: "bool"}

# Ops whose outputs only select, compare or convert values: exact.
EXACT = {"maximum", "minimum", "where", "clamp", "eq", "ne", "lt", "le", "gt", "ge",
         "logical_and", "logical_or", "logical_not", "bitwise_and", "bitwise_not", "isnan"}
# Elementwise math tolerance per floating output dtype.
MATH_TOL = {f32: (1.3e-6, 1e-5), f64: (1e-7, 1e-7), f16: (1e-3, 1e-5), bf16: (1.6e-2, 1e-5)}


def T(vals, dt):
    return torch.tensor(vals, dtype=dt)


def R(shape, dt, scale=3.0):
    """Random values of dtype dt (drawn after the case's manual_seed)."""
    if dt.is_floating_point:
        return (torch.randn(shape, dtype=f64) * scale).to(dt)
    if dt == b8:
        return torch.rand(shape) > 0.5
    lo, hi = {i64: (-1000, 1000), i32: (-1000, 1000), i16: (-300, 300), i8: (-128, 128), u8: (0, 256)}[dt]
    return torch.randint(lo, hi, shape, dtype=dt)


def NZ(shape, dt):
    """Random nonzero integers (divisors)."""
    t = R(shape, dt)
    return torch.where(t == 0, torch.ones_like(t), t)


# Each case: (op overload, inputs builder returning (args, kwargs), note).
CASES = {
    "add.Scalar": [
        (lambda: ([R([6], u8), 300], {}), "uint8 + 300: the scalar wraps to 44"),
        (lambda: ([R([5], i32), 2**40 + 7], {}), "int32 + 2**40+7: the scalar wraps"),
        (lambda: ([R([2, 3], f16), 0.1], {}), "float16 + 0.1 (scalar rounded to half)"),
        (lambda: ([R([7], bf16), 0.1, 3], {}), "bfloat16, alpha=3: two roundings"),
        (lambda: ([R([5], i8), 5, -2], {}), "int8 alpha=-2 wraps"),
        (lambda: ([R([3, 2], f64), 0.3, 0.7], {}), "float64 fma alpha"),
        (lambda: ([R([4], b8), 2.5], {}), "bool + float -> float32"),
        (lambda: ([R([4], b8), True], {}), "bool + True: torch.ops passes the bool as int 1 -> int64"),
        (lambda: ([R([9], f32, 1000.0), 0.1, 0.3], {}), "float32 alpha fused multiply-add"),
        (lambda: ([R([40], f32, 10.0), 2.5, 0.3], {}), "float32[40] alpha: fused in the vectorized part, hoisted product in the tail"),
        (lambda: ([R([20], f64), -2.5, 0.1], {}), "float64[20] alpha: fused and hoisted parts"),
    ],
    "sub.Tensor": [
        (lambda: ([R([6], u8), R([6], u8)], {}), "uint8 - uint8 wraps"),
        (lambda: ([R([5], i8), R([5], i8)], {"alpha": 2}), "int8 alpha=2 wraps"),
        (lambda: ([R([2, 3], f16), R([3], f16)], {"alpha": 0.3}), "float16 broadcast alpha=0.3"),
        (lambda: ([R([5], bf16), R([5], bf16)], {}), "bfloat16"),
        (lambda: ([R([4], u8), R([4], i8)], {}), "uint8 - int8 -> int16"),
        (lambda: ([R([3], i64), torch.tensor(2.5, dtype=f64)], {}), "int64 - float64 0-d -> float64"),
        (lambda: ([R([3, 4], f64), R([3, 1], f64)], {"alpha": 0.3}), "float64 alpha, other constant along rows"),
    ],
    "sub.Scalar": [
        (lambda: ([R([5], i64), 3, 2], {}), "int64 - 2*3"),
        (lambda: ([R([4], f32), 0.1], {}), "float32 - 0.1"),
        (lambda: ([R([4], u8), 1], {}), "uint8 - 1 (alpha -1 wraps)"),
    ],
    "rsub.Scalar": [
        (lambda: ([R([6], u8), 1], {}), "1 - uint8 wraps"),
        (lambda: ([R([5], f16), 0.1, 3], {}), "float16 0.1 - 3*x"),
        (lambda: ([R([5], i32), 7, -3], {}), "int32 7 + 3*x"),
    ],
    "rsub.Tensor": [
        (lambda: ([R([2, 3], f32), R([3], f32)], {"alpha": 2}), "other - 2*self broadcast"),
        (lambda: ([R([4], i16), R([4], i16)], {}), "int16"),
    ],
    "mul.Tensor": [
        (lambda: ([R([5], f16), R([5], f16)], {}), "float16"),
        (lambda: ([R([5], bf16), R([5], bf16)], {}), "bfloat16"),
        (lambda: ([R([6], i8), R([6], i8)], {}), "int8 wraps"),
        (lambda: ([R([4], u8), R([4], i8)], {}), "uint8 * int8 -> int16"),
        (lambda: ([R([4], b8), R([4], f32)], {}), "bool * float32"),
    ],
    "mul.Scalar": [
        (lambda: ([R([5], u8), -1], {}), "uint8 * -1 wraps"),
        (lambda: ([R([5], i16), 1000], {}), "int16 * 1000 wraps"),
        (lambda: ([R([6], f16), 0.1], {}), "float16 * 0.1 (scalar rounded to half)"),
        (lambda: ([R([6], bf16), 0.3], {}), "bfloat16 * 0.3"),
        (lambda: ([R([3], b8), True], {}), "bool * True -> int64"),
        (lambda: ([R([4], i32), 1e39], {}), "int32 * 1e39 -> float32 inf"),
    ],
    "div.Tensor": [
        (lambda: ([R([5], f16), R([5], f16)], {}), "float16"),
        (lambda: ([R([5], bf16), R([5], bf16)], {}), "bfloat16"),
        (lambda: ([R([6], i8), R([6], i8)], {}), "int8 / int8 -> float32"),
        (lambda: ([T([True, False, True], b8), T([True, True, False], b8)], {}), "bool / bool -> float32"),
        (lambda: ([T([2**24 + 1, 3], i64), T([1, 3], i64)], {}), "int64 cast to float32 before dividing"),
    ],
    "div.Scalar": [
        (lambda: ([R([5], i64), 2.5], {}), "int64 / 2.5"),
        (lambda: ([R([5], f16), 0.3], {}), "float16 / 0.3 (scalar rounded to half)"),
        (lambda: ([R([4], u8), 0], {}), "uint8 / 0 -> inf"),
        (lambda: ([R([4], i8), 300], {}), "int8 / 300: the scalar is not wrapped"),
    ],
    "div.Tensor_mode": [
        (lambda: ([R([8], f16, 20.0), R([8], f16)], {"rounding_mode": "floor"}), "floor float16"),
        (lambda: ([R([8], bf16, 20.0), R([8], bf16)], {"rounding_mode": "floor"}), "floor bfloat16"),
        (lambda: ([R([8], f16, 20.0), R([8], f16)], {"rounding_mode": "trunc"}), "trunc float16"),
        (lambda: ([T([-128, 127, -7, 7, -7, 0], i8), T([-1, -1, 2, -2, -2, -3], i8)], {"rounding_mode": "trunc"}),
         "trunc int8, -128/-1 wraps"),
        (lambda: ([T([-128, 127, -7, 7, -7, 0, -1], i8), T([-1, -1, 2, -2, -2, -3, 5], i8)], {"rounding_mode": "floor"}),
         "floor int8 toward -inf"),
        (lambda: ([R([8], u8), NZ([8], u8)], {"rounding_mode": "floor"}), "floor uint8"),
        (lambda: ([R([9], i32), NZ([9], i32) // 50 + 1], {"rounding_mode": "floor"}), "floor int32"),
        (lambda: ([T([INF, -INF, 5.0, -5.0, 0.0, -0.0, 1.0, NAN, 7.0, -7.0], f64),
                   T([3.0, 3.0, INF, INF, -2.0, 2.0, 0.0, 1.0, -INF, -INF], f64)], {"rounding_mode": "floor"}),
         "floor float64 edges: inf/x is NaN, x/inf, signed zeros"),
        (lambda: ([T([INF, -INF, 5.0, -5.0, 0.0, -0.0, 1.0, NAN], f32),
                   T([3.0, 3.0, INF, INF, -2.0, 2.0, 0.0, 1.0], f32)], {"rounding_mode": "trunc"}),
         "trunc float32 edges"),
        (lambda: ([R([16], f32, 1e6), R([16], f32, 0.1)], {"rounding_mode": "floor"}), "floor float32 large quotients"),
        (lambda: ([T([0.3, 0.7, -0.3, 1e-30, 3.0], f32), T([0.1, 0.1, 0.1, 3e-31, 0.1], f32)], {"rounding_mode": "floor"}),
         "floor float32 quotients near integers"),
        (lambda: ([R([5], b8), R([5], f32)], {"rounding_mode": None}), "None: bool / float32"),
        (lambda: ([T([1e30, -1e30, 3e38, 7.0] * 10, f32), T([1e-30, 1e-30, 0.5, -1e-38] * 10, f32)], {"rounding_mode": "floor"}),
         "floor float32[40]: NaN for huge quotients in the vectorized part, inf in the tail"),
        (lambda: ([T([65536.0, -9.5, 300.0, 1000.0] * 10, bf16), T([255.0, 7.0, 3.0, -7.0] * 10, bf16)], {"rounding_mode": "floor"}),
         "floor bfloat16 rounds every step"),
    ],
    "div.Scalar_mode": [
        (lambda: ([R([7], i64), -3], {"rounding_mode": "floor"}), "floor int64 by -3"),
        (lambda: ([R([7], f32), 0.7], {"rounding_mode": "trunc"}), "trunc float32 by 0.7"),
        (lambda: ([R([5], b8), 2], {"rounding_mode": "floor"}), "bool floor 2 -> int64"),
    ],
    "fmod.Tensor": [
        (lambda: ([R([7], i8), NZ([7], i8)], {}), "int8"),
        (lambda: ([R([6], f16, 10.0), R([6], f16)], {}), "float16"),
        (lambda: ([R([6], bf16, 10.0), R([6], bf16)], {}), "bfloat16"),
        (lambda: ([T([INF, -5.0, 5.0, -0.0, NAN, 5.5], f64), T([2.0, INF, -INF, 3.0, 1.0, 0.0], f64)], {}),
         "float64 edges"),
        (lambda: ([R([5], u8), NZ([5], i8)], {}), "uint8 fmod int8 -> int16"),
        (lambda: ([T([1e30, -1e30, 3e38, 7.0] * 10, f32), T([1e-30, 1e-30, 0.5, 1e-38] * 10, f32)], {}),
         "float32[40]: SLEEF's vectorized fmod is NaN for huge quotients, the scalar tail is not"),
    ],
    "fmod.Scalar": [
        (lambda: ([R([7], i64), -3], {}), "int64 fmod -3"),
        (lambda: ([R([7], f32), 2.5], {}), "float32 fmod 2.5"),
    ],
    "remainder.Tensor": [
        (lambda: ([R([7], i8), NZ([7], i8)], {}), "int8 Python sign"),
        (lambda: ([T([5.0, -5.0, 5.0, -5.0, INF, 0.0, -0.0], f64), T([INF, INF, -INF, -INF, 2.0, -3.0, 3.0], f64)], {}),
         "float64 infinite divisors"),
        (lambda: ([R([6], f16, 10.0), R([6], f16)], {}), "float16"),
        (lambda: ([R([6], bf16, 10.0), R([6], bf16)], {}), "bfloat16"),
        (lambda: ([R([5], i16), NZ([5], i16)], {}), "int16"),
        (lambda: ([T([1e30, -1e30, 3e38, 7.0] * 10, f32), T([1e-30, 1e-30, -0.5, -1e-38] * 10, f32)], {}),
         "float32[40]: huge quotients, vectorized part and scalar tail"),
    ],
    "remainder.Scalar": [
        (lambda: ([R([7], i64), -3], {}), "int64 % -3"),
        (lambda: ([R([7], f32), -1.5], {}), "float32 % -1.5"),
    ],
    "remainder.Scalar_Tensor": [
        (lambda: ([5, NZ([6], i32)], {}), "5 % int32 tensor"),
        (lambda: ([-2.5, R([6], f32)], {}), "-2.5 % float32 tensor"),
    ],
    "pow.Tensor_Scalar": [
        (lambda: ([R([9], f32), 3], {}), "float32 ** 3 (x*x*x)"),
        (lambda: ([R([9], f32), -2], {}), "float32 ** -2 (1/(x*x))"),
        (lambda: ([T([4.0, 2.0, 0.0, -0.0, INF, -1.0, 0.3], f32), -0.5], {}), "float32 ** -0.5 (rsqrt)"),
        (lambda: ([T([4.0, 3.0, 0.0, -0.0, INF, -INF, NAN], f32), -1], {}), "float32 ** -1 (reciprocal)"),
        (lambda: ([T([4.0, 2.0, 0.0, -0.0, INF, -INF, -1.0], f32), 0.5], {}), "float32 ** 0.5: sqrt(-inf) is nan"),
        (lambda: ([T([4.0, 2.0, 0.0, -0.0, INF, -INF, -1.0], f16), 0.5], {}), "float16 ** 0.5 uses pow: (-inf)**0.5=inf"),
        (lambda: ([R([6], f16), 0.1], {}), "float16 ** 0.1 (exponent rounded to half)"),
        (lambda: ([R([6], bf16), 2], {}), "bfloat16 ** 2"),
        (lambda: ([R([6], bf16), 3], {}), "bfloat16 ** 3"),
        (lambda: ([R([6], i8), 3], {}), "int8 ** 3 wraps"),
        (lambda: ([R([6], u8), 2], {}), "uint8 ** 2 wraps"),
        (lambda: ([R([5], i64), 0], {}), "int64 ** 0 -> ones"),
        (lambda: ([R([5], b8), 2], {}), "bool ** 2 -> int64"),
        (lambda: ([R([5], i32), 2.5], {}), "int32 ** 2.5 -> float32"),
        (lambda: ([R([5], f64), 3], {}), "float64 ** 3"),
        (lambda: ([T([NAN, 2.0, -INF], f32), 1], {}), "x ** 1 copies"),
        (lambda: ([T([7, -3, 2**40], i64), 5], {}), "int64 ** 5 wraps"),
        (lambda: ([R([20], f32), 2147483647], {}), "float32[20] ** (2**31-1): the vectorized part rounds the exponent to float (even)"),
    ],
    "pow.Tensor_Tensor": [
        (lambda: ([T([1, -1, -1, 2, 0, 3, -2], i64), T([-1, -3, -2, -1, 3, 0, 3], i64)], {}),
         "int64 negative exponents: 1, +-1, 0"),
        (lambda: ([R([6], i8), torch.randint(0, 9, [6], dtype=i8)], {}), "int8 wraps"),
        (lambda: ([R([6], f16).abs(), R([6], f16)], {}), "float16"),
        (lambda: ([R([6], bf16).abs(), R([6], bf16)], {}), "bfloat16"),
        (lambda: ([T([0.0, -0.0, 0.0, -1.0, -1.0, 1.0, 2.0, -8.0, 0.5], f64),
                   T([-1.0, -1.0, 0.0, INF, -INF, NAN, -INF, 1.0 / 3, INF], f64)], {}), "float64 special values"),
        (lambda: ([R([4], u8), torch.randint(0, 4, [4], dtype=i64)], {}), "uint8 ** int64 -> int64"),
    ],
    "pow.Scalar": [
        (lambda: ([2, T([0, 1, 10, 62, 63, -1], i64)], {}), "2 ** int64 (negative -> 0)"),
        (lambda: ([2.5, R([6], f32)], {}), "2.5 ** float32"),
        (lambda: ([1, T([NAN, INF], f32)], {}), "1 ** anything = 1"),
        (lambda: ([-1, T([-3, -2, 5], i32)], {}), "-1 ** negative ints"),
    ],
    "maximum.default": [
        (lambda: ([T([1.0, NAN, -INF, 0.0], f16), T([NAN, 2.0, 1.0, -0.0], f16)], {}), "float16 nan"),
        (lambda: ([T([1.0, NAN, -INF, 0.5], bf16), T([NAN, 2.0, 1.0, 0.25], bf16)], {}), "bfloat16 nan"),
        (lambda: ([R([6], i8), R([6], i8)], {}), "int8"),
        (lambda: ([R([5], u8), R([5], i8)], {}), "uint8 vs int8 -> int16"),
        (lambda: ([R([5], f32), torch.tensor(0.1, dtype=f64)], {}), "float32 vs float64 0-d"),
        (lambda: ([T([2**53 + 1, -5], i64), T([2**53, -4], i64)], {}), "int64 beyond 2**53 exact"),
    ],
    "minimum.default": [
        (lambda: ([T([1.0, NAN, -INF, 0.0], f16), T([NAN, 2.0, 1.0, -0.0], f16)], {}), "float16 nan"),
        (lambda: ([R([6], i16), R([6], i16)], {}), "int16"),
        (lambda: ([R([5], b8), R([5], i32)], {}), "bool vs int32"),
        (lambda: ([T([2**53 + 1, -5], i64), T([2**53 + 2, -4], i64)], {}), "int64 beyond 2**53 exact"),
    ],
    "atan2.default": [
        (lambda: ([R([6], bf16), R([6], bf16)], {}), "bfloat16"),
        (lambda: ([T([0.0, -0.0, 0.0, -0.0, INF, -INF, INF, 1.0], f64), T([0.0, 0.0, -0.0, -0.0, INF, INF, -INF, -INF], f64)], {}),
         "float64 signed zeros and infinities"),
        (lambda: ([R([5], i32), R([5], i16)], {}), "int32, int16 -> float32"),
        (lambda: ([R([4], b8), R([4], u8)], {}), "bool, uint8 -> float32"),
    ],
    "logical_and.default": [
        (lambda: ([T([1.0, 1.0], f32), torch.tensor(1e-50, dtype=f64)], {}), "float64 0-d cast to float32 underflows to 0"),
        (lambda: ([R([6], i8), R([6], i8) // 64], {}), "int8"),
        (lambda: ([T([NAN, 0.0, -0.0, 1.0], f16), T([1.0, 1.0, 1.0, INF], bf16)], {}), "float16 & bfloat16"),
    ],
    "logical_or.default": [
        (lambda: ([T([NAN, 0.0, -0.0, 0.0], f16), T([0, 0, 0, 3], u8)], {}), "float16 & uint8"),
        (lambda: ([R([3, 1], b8), R([4], b8)], {}), "bool broadcast"),
        (lambda: ([T([0.0, 0.0], f32), torch.tensor(1e-50, dtype=f64)], {}), "float64 0-d cast to float32"),
    ],
    "logical_not.default": [
        (lambda: ([T([NAN, 0.0, -0.0, 1.0], f16)], {}), "float16"),
        (lambda: ([R([6], i8) // 64], {}), "int8"),
        (lambda: ([R([5], u8) // 128], {}), "uint8"),
    ],
    "bitwise_and.Tensor": [
        (lambda: ([R([6], u8), R([6], i8)], {}), "uint8 & int8 -> int16"),
        (lambda: ([R([6], i8), R([6], i8)], {}), "int8 negatives"),
        (lambda: ([R([5], b8), R([5], i64)], {}), "bool & int64"),
        (lambda: ([R([4], i16), torch.tensor(255, dtype=i64)], {}), "int16 & int64 0-d -> int16"),
    ],
    "bitwise_and.Scalar": [
        (lambda: ([R([6], i64), 6], {}), "int64 & 6"),
        (lambda: ([R([5], b8), 1], {}), "bool & 1 -> int64"),
        (lambda: ([R([5], u8), -2], {}), "uint8 & -2 (wraps to 254)"),
    ],
    "bitwise_not.default": [
        (lambda: ([R([6], i8)], {}), "int8"),
        (lambda: ([R([6], i16)], {}), "int16"),
        (lambda: ([R([6], u8)], {}), "uint8"),
        (lambda: ([torch.tensor(True)], {}), "0-d bool"),
    ],
    "where.self": [
        (lambda: ([T([1, 0, 7, 0], u8), R([4], f32), R([4], f32)], {}), "uint8 condition"),
        (lambda: ([R([5], b8), R([5], i8), R([5], u8)], {}), "int8/uint8 -> int16"),
        (lambda: ([R([5], b8), R([5], b8), R([5], i64)], {}), "bool/int64"),
        (lambda: ([R([4], b8), R([4], f16), R([4], f32)], {}), "float16/float32 -> float32"),
        (lambda: ([R([4], b8), R([4], bf16), torch.tensor(0.1, dtype=f64)], {}), "bfloat16 with float64 0-d"),
        (lambda: ([R([3, 1, 1], b8), R([1, 4, 1], f32), R([1, 1, 2], f32)], {}), "three-way broadcast"),
        (lambda: ([R([4], b8), R([4], i64), torch.tensor(2.5, dtype=f64)], {}), "int64 with float64 0-d -> float64"),
    ],
    "clamp.default": [
        (lambda: ([R([6], i8), -5, 50], {}), "int8 int bounds"),
        (lambda: ([T([250, 3, 0], u8), -1], {}), "uint8 min=-1 wraps to 255"),
        (lambda: ([R([6], b8), 0, True], {}), "bool tensor -> int64"),
        (lambda: ([R([6], bf16), -0.3, 0.3], {}), "bfloat16 bounds rounded"),
        (lambda: ([T([1.0, NAN, -INF], f64), NAN, 1.0], {}), "both bounds, one NaN: all NaN"),
        (lambda: ([T([1.0, NAN, -INF], f32), NAN], {}), "min NaN only: unchanged"),
        (lambda: ([T([1.0, NAN, -INF], f32), None, NAN], {}), "max NaN only: unchanged"),
        (lambda: ([T([1, 2, 3], i64), 0, NAN], {}), "int64 with NaN bound -> float32 NaN"),
        (lambda: ([T([0.1, 0.2, 0.09999], f32), 0.1, 0.15], {}), "float32 bounds rounded to float"),
        (lambda: ([T([2**53 + 1, 2**60, -2**62], i64), -2**62 + 1, 2**53 + 2], {}), "int64 exact beyond 2**53"),
        (lambda: ([R([5], i32), 1.5, -1.5], {}), "int32 float bounds min>max -> float32 max"),
    ],
    "isnan.default": [
        (lambda: ([T([NAN, INF, 0.0, -NAN], f16)], {}), "float16"),
        (lambda: ([T([NAN, INF, 0.0], bf16)], {}), "bfloat16"),
        (lambda: ([R([4], i8)], {}), "int8"),
        (lambda: ([R([3], u8)], {}), "uint8"),
    ],
}


def compare_cases(name):
    """Cases shared by the comparison ops (Tensor and Scalar overloads)."""
    return {
        name + ".Scalar": [
            (lambda: ([T([250, 3, 44, 0], u8), -6], {}), "uint8 vs -6: the scalar wraps to 250"),
            (lambda: ([T([250, 3, 44, 0], u8), 300], {}), "uint8 vs 300: the scalar wraps to 44"),
            (lambda: ([T([1, -56, 100], i8), 200], {}), "int8 vs 200: wraps to -56"),
            (lambda: ([T([2**24 + 1, 2**24, 3], i64), 16777216.5], {}), "int64 vs float: compared in float32"),
            (lambda: ([T([0.1, 0.2, NAN], f16), 0.1], {}), "float16 vs 0.1 (rounded to half)"),
            (lambda: ([T([0.1, 0.2, -INF], bf16), 0.1], {}), "bfloat16 vs 0.1"),
            (lambda: ([T([True, False], b8), True], {}), "bool vs True (as int 1)"),
            (lambda: ([T([True, False], b8), 0.5], {}), "bool vs 0.5 -> float32"),
        ],
        name + ".Tensor": [
            (lambda: ([T([2**24 + 1, 3], i64), torch.tensor(16777216.0, dtype=f64)], {}), "int64 vs float64 0-d: float32"),
            (lambda: ([R([6], u8), R([6], i8)], {}), "uint8 vs int8 -> int16"),
            (lambda: ([T([0.1, NAN, 1.0], f16), T([0.1, NAN, 1.0], f32)], {}), "float16 vs float32"),
            (lambda: ([T([2**53 + 1, 5], i64), T([2**53, 5], i64)], {}), "int64 exact beyond 2**53"),
            (lambda: ([R([3, 1], b8), R([4], b8)], {}), "bool broadcast"),
        ],
    }


for cmp in ["eq", "ne", "lt", "le", "gt", "ge"]:
    CASES.update(compare_cases(cmp))


def tolerance(name, outputs):
    dts = [o.dtype for o in outputs if isinstance(o, torch.Tensor) and o.dtype.is_floating_point]
    if name in EXACT or not dts:
        return 0.0, 0.0
    rtol = max(MATH_TOL[d][0] for d in dts)
    atol = max(MATH_TOL[d][1] for d in dts)
    return rtol, atol


def main():
    for key, cases in CASES.items():
        name, overload = key.split(".")
        packet = getattr(A, name)
        op = getattr(packet, overload)
        schema = str(op._schema)
        stem = "aten.%s.%s" % (name, overload)
        qual = "aten::%s.%s" % (name, overload)
        lines = []
        for i, (build, note) in enumerate(cases):
            torch.manual_seed(i)
            args, kwargs = build()
            with torch.no_grad():
                out = op(*args, **kwargs)
            outs = list(out) if isinstance(out, tuple) else [out]
            rtol, atol = tolerance(name, outs)
            lines.append(json.dumps({
                "id": "%s/%d" % (stem, i), "op": qual, "schema": schema,
                "args": [enc(a) for a in args], "kwargs": {k: enc(v) for k, v in kwargs.items()},
                "outputs": [enc(o) for o in outs], "rtol": rtol, "atol": atol, "note": note,
            }))
        with open(os.path.join(OUT, stem + ".jsonl"), "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
