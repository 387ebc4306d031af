#!/usr/bin/python3
"""Extra conformance cases for the derived in-place kernels
(kernels/derived.go) and a few composites: in-place overloads computed through their functional ones,
copy_, zero_, fill_.Tensor, contiguous, group_norm, instance_norm and
conv_transpose1d/2d.

Writes aten.<op>.<overload>.jsonl beside this script, in the format of
testdata/conformance/README.md, with PyTorch 1.13 (Debian python3-torch):

    cd kernels/testdata/extra && /usr/bin/python3 gen_ip.py

An in-place case records the inputs as they were before the call and, as
its output, the returned tensor (self after the write). The cases cover
the dtype rules of in-place writes: results computed in a wider dtype
(float32 self times a float64 tensor rounds to float32), comparisons and
logical ops written into float or integer self, integer wrapping, and
float-to-integer casts of copy_ and fill_.
"""

import os

import torch

import confgen
from confgen import F, nan, inf, write_all

torch.set_num_threads(1)
A = torch.ops.aten
OUT = os.path.dirname(os.path.abspath(__file__))

f32, f64, f16, bf16 = torch.float32, torch.float64, torch.float16, torch.bfloat16
i64, i32, i16, i8, u8, b8 = torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool

# Elementwise math tolerances (the shared README's table; float16 and
# bfloat16 as gen_ew1.py has them).
confgen.TOL["ew"] = {f32: (1.3e-6, 1e-5), f64: (1e-7, 1e-7), f16: (1e-3, 1e-5), bf16: (1.6e-2, 1e-5)}


def R(shape, dt=f32, scale=3.0):
    """Random values of dt: normal times scale for floats, whole numbers in
    [-9, 9] (or [0, 9] unsigned) for integers, coin flips for bool."""
    if dt == b8:
        return torch.rand(shape) < 0.5
    if dt.is_floating_point:
        return (torch.randn(shape, dtype=f64) * scale).to(dt)
    lo = 0 if dt == u8 else -9
    return torch.randint(lo, 10, shape, dtype=i64).to(dt)


def T(vals, dt):
    return torch.tensor(vals, dtype=dt)


# --- in-place overloads through their functional ones --------------------

f = F(A.add_.Tensor, "ew")
f.case("float32 [2,3] += broadcast [3]", lambda: ([R([2, 3]), R([3])], {}))
f.case("float32 += float64 tensor: computed in float64, rounded", lambda: ([R([4]), R([4], f64)], {"alpha": 0.3}))
f.case("int64 += bool", lambda: ([R([5], i64), R([5], b8)], {}))
f.case("uint8 wraps", lambda: ([T([200, 255, 3], u8), T([100, 1, 3], u8)], {"alpha": 2}))
f.case("float16 += float32 0-d", lambda: ([R([4], f16), torch.tensor(0.1)], {}))
f.case("0-d self", lambda: ([torch.tensor(1.5, dtype=f64), torch.tensor(2.25, dtype=f64)], {}))
f.case("empty", lambda: ([R([0, 3]), R([3])], {}))

f = F(A.add_.Scalar, "ew")
f.case("bfloat16 + 0.1 alpha 3", lambda: ([R([5], bf16), 0.1, 3], {}))
f.case("int8 + 300 wraps", lambda: ([R([4], i8), 300], {}))
f.case("float64 + int", lambda: ([R([3], f64), 2], {}))

f = F(A.sub_.Tensor, "ew")
f.case("int32 -= int64 tensor", lambda: ([R([2, 2], i32), R([2, 2], i64)], {"alpha": 3}))
f.case("float32 -= int64", lambda: ([R([3]), R([3], i64)], {}))

f = F(A.mul_.Tensor, "ew")
f.case("float32 *= float64 tensor", lambda: ([R([2, 3]), R([2, 3], f64)], {}))
f.case("int16 *= int16 wraps", lambda: ([T([300, -300, 7], i16), T([300, 300, 7], i16)], {}))
f.case("bool *= bool", lambda: ([R([6], b8), R([6], b8)], {}))
f.case("float16 *= broadcast", lambda: ([R([2, 3], f16), R([1, 3], f16)], {}))

f = F(A.mul_.Scalar, "ew")
f.case("float32 * 0.1", lambda: ([R([5]), 0.1], {}))
f.case("int64 * 3", lambda: ([R([5], i64), 3], {}))

f = F(A.div_.Tensor, "ew")
f.case("float32 /= float32 with zeros", lambda: ([T([1.0, -1.0, 0.0, 3.0], f32), T([0.0, 0.0, 0.0, 7.0], f32)], {}))
f.case("float64 /= int64", lambda: ([R([4], f64), T([3, -3, 7, 1], i64)], {}))

f = F(A.div_.Scalar, "ew")
f.case("float32 / 3", lambda: ([R([6]), 3], {}))
f.case("bfloat16 / 0.7", lambda: ([R([6], bf16), 0.7], {}))

f = F(A.div_.Tensor_mode, "ew")
f.case("int64 floor", lambda: ([T([7, -7, 9], i64), T([2, 2, -4], i64)], {"rounding_mode": "floor"}))
f.case("float32 trunc", lambda: ([R([5]), R([5])], {"rounding_mode": "trunc"}))

f = F(A.relu_.default, "move")
f.case("float32 with -0 and nan", lambda: ([T([-1.0, -0.0, 0.0, 2.5, nan, -inf], f32)], {}))
f.case("int8", lambda: ([R([6], i8)], {}))
f.case("bfloat16 [2,3]", lambda: ([R([2, 3], bf16)], {}))

f = F(A.sigmoid_.default, "ew")
f.case("float32", lambda: ([R([2, 4])], {}))
f.case("float64 extremes", lambda: ([T([-800.0, -30.0, 0.0, 30.0, 800.0, nan], f64)], {}))
f.case("bfloat16", lambda: ([R([5], bf16)], {}))

f = F(A.tanh_.default, "ew")
f.case("float32", lambda: ([R([7])], {}))

f = F(A.clamp_.default, "move")
f.case("float32 min and max", lambda: ([R([8]), -1.0, 1.5], {}))
f.case("int64 min only", lambda: ([R([8], i64), 2], {}))
f.case("float32 max only, nan kept", lambda: ([T([nan, 3.0, -3.0], f32), None, 0.5], {}))
f.case("uint8 min > max gives max", lambda: ([R([5], u8), 7, 3], {}))

f = F(A.clamp_min_.default, "move")
f.case("float64", lambda: ([R([6], f64), 0.25], {}))

f = F(A.hardtanh_.default, "move")
f.case("float32 defaults", lambda: ([R([8])], {}))
f.case("float64 -2, 0.5", lambda: ([R([8], f64), -2.0, 0.5], {}))
f.case("int64", lambda: ([R([8], i64), -3, 4], {}))

f = F(A.leaky_relu_.default, "ew")
f.case("float32 slope 0.2", lambda: ([R([6]), 0.2], {}))

f = F(A.pow_.Scalar, "ew")
f.case("float32 ** 2", lambda: ([R([5]), 2], {}))
f.case("int64 ** 3", lambda: ([R([5], i64), 3], {}))
f.case("float64 ** 0.5", lambda: ([R([5], f64).abs(), 0.5], {}))

f = F(A.eq_.Scalar, "move")
f.case("float32 == 1 written as 0/1", lambda: ([T([1.0, 2.0, 1.0, nan], f32), 1], {}))
f.case("int64 == 1.5", lambda: ([T([1, 2], i64), 1.5], {}))

f = F(A.lt_.Tensor, "move")
f.case("float32 < float64, broadcast", lambda: ([R([2, 3]), R([3], f64)], {}))

f = F(A.logical_and_.default, "move")
f.case("float32 and int64", lambda: ([T([1.5, 0.0, -2.0, 0.0], f32), T([1, 1, 0, 0], i64)], {}))

f = F(A.fill_.Scalar, "move")
f.case("float32 2.5", lambda: ([R([2, 3]), 2.5], {}))
f.case("int64 with 2.7 truncates", lambda: ([R([3], i64), 2.7], {}))
f.case("bool with 0.5", lambda: ([R([3], b8), 0.5], {}))
f.case("float16 with 1e-4", lambda: ([R([2], f16), 1e-4], {}))

f = F(A.fill_.Tensor, "move")
f.case("float32 with 0-d float64", lambda: ([R([2, 3]), torch.tensor(0.1, dtype=f64)], {}))
f.case("int8 with 0-d float 2.7", lambda: ([R([4], i8), torch.tensor(2.7)], {}))
f.case("float64 with 0-d bool", lambda: ([R([2], f64), torch.tensor(True)], {}))

f = F(A.zero_.default, "move")
f.case("float32", lambda: ([R([2, 3])], {}))
f.case("int16 0-d", lambda: ([R([], i16)], {}))
f.case("bool", lambda: ([R([4], b8)], {}))

f = F(A.dropout_.default, "move")
f.case("train=False is identity", lambda: ([R([2, 3]), 0.5, False], {}))
f.case("p=0 train=True is identity", lambda: ([R([4], f64), 0.0, True], {}))

f = F(A.cumsum_.default, "acc")
f.case("float32 dim 1", lambda: ([R([2, 4]), 1], {}))
f.case("uint8 wraps in self's dtype", lambda: ([T([200, 100, 50], u8), 0], {}))
f.case("int8 dtype=int8", lambda: ([T([100, 100, -5], i8), -1], {"dtype": i8}))

f = F(A.addmm_.default, "acc")
f.case("float32 beta alpha", lambda: ([R([2, 2]), R([2, 3]), R([3, 2])], {"beta": 0.5, "alpha": 2}))
f.case("int64", lambda: ([R([2, 2], i64), R([2, 3], i64), R([3, 2], i64)], {}))

# --- copy_ ----------------------------------------------------------------

f = F(A.copy_.default, "move")
f.case("float32 into int64 truncates", lambda: ([R([4], i64), T([1.7, -2.7, 3e10, -0.5], f32)], {}))
f.case("broadcast [3] into [2,3] float64", lambda: ([R([2, 3], f64), R([3])], {}))
f.case("int64 into float16", lambda: ([R([3], f16), T([1, 2049, -70000], i64)], {}))
f.case("float into bool", lambda: ([R([4], b8), T([0.5, 0.0, -1.0, nan], f32)], {}))
f.case("float into uint8 through int64", lambda: ([R([3], u8), T([-1.0, 300.0, -3.5], f32)], {}))
f.case("bool into int32", lambda: ([R([3], i32), T([True, False, True], b8)], {}))
f.case("0-d into [2,2] bfloat16", lambda: ([R([2, 2], bf16), torch.tensor(0.1, dtype=f64)], {}))
f.case("same dtype, non_blocking", lambda: ([R([2, 3]), R([2, 3]), True], {}))

# --- contiguous -----------------------------------------------------------

f = F(A.contiguous.default, "move")
f.case("float32 [2,3]", lambda: ([R([2, 3])], {}))
f.case("int8 0-d", lambda: ([R([], i8)], {}))
f.case("channels_last 4-d", lambda: ([R([2, 3, 2, 2])], {"memory_format": torch.channels_last}))
f.case("contiguous_format", lambda: ([R([3], f16)], {"memory_format": torch.contiguous_format}))

# --- group_norm and instance_norm -----------------------------------------

f = F(A.group_norm.default, "acc")
f.case("float32 [2,4,3] 2 groups with weight, bias", lambda: ([R([2, 4, 3]), 2, R([4]), R([4])], {}))
f.case("float64 4-d, no weight", lambda: ([R([2, 6, 2, 3], f64), 3], {}))
f.case("float32 2-d [N,C] eps", lambda: ([R([3, 4]), 4, None, R([4]), 1e-3], {}))
f.case("float32 one group", lambda: ([R([1, 3, 5]), 1, R([3])], {}))
f.case("empty batch", lambda: ([R([0, 4, 2]), 2], {}))

f = F(A.instance_norm.default, "acc")
f.case("float32 3-d input stats, weight, bias",
       lambda: ([R([2, 3, 5]), R([3]), R([3]), None, None, True, 0.1, 1e-5, False], {}))
f.case("float64 4-d, running stats updated",
       lambda: ([R([2, 2, 3, 3], f64), None, None, R([2], f64), R([2], f64).abs(), True, 0.1, 1e-5, False], {}))
f.case("float32 use running stats",
       lambda: ([R([2, 3, 4]), R([3]), None, R([3]), R([3]).abs() + 0.1, False, 0.1, 1e-5, False], {}))

# --- transposed convolutions ----------------------------------------------

f = F(A.conv_transpose2d.input, "acc")
f.case("float32 defaults", lambda: ([R([1, 2, 3, 3]), R([2, 3, 2, 2])], {}))
f.case("float32 stride 2 padding 1 output_padding 1 bias",
       lambda: ([R([2, 2, 3, 4]), R([2, 2, 3, 3]), R([2]), [2, 2], [1, 1], [1, 1]], {}))
f.case("float64 groups 2 dilation 2", lambda: ([R([1, 4, 3, 3], f64), R([4, 1, 2, 2], f64), None, 1, 0, 0, 2, 2], {}))
f.case("unbatched float32", lambda: ([R([2, 3, 3]), R([2, 1, 3, 3]), R([1]), 2], {}))
f.case("int64", lambda: ([R([1, 2, 2, 2], i64), R([2, 2, 2, 2], i64)], {}))

f = F(A.conv_transpose1d.default, "acc")
f.case("float32 stride 3 output_padding 2", lambda: ([R([2, 2, 5]), R([2, 3, 3]), R([3]), [3], [1], [2]], {}))
f.case("unbatched float64", lambda: ([R([2, 4], f64), R([2, 2, 2], f64)], {}))
f.case("groups 2, dilation 3", lambda: ([R([1, 4, 6]), R([4, 1, 2]), None, [1], [0], [0], 2, [3]], {}))

write_all(OUT)
