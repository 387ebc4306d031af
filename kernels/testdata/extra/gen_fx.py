#!/usr/bin/python3
"""Extra conformance cases for the kernels added for torch.export
programs (issue 14): factories (ones, zeros, new_*, empty_like's shape,
arange(end), arange.start, eye, linspace, logspace), reductions over every
element (max, min, all, all.dim, aminmax, max.other, min.other),
masked_fill and masked_fill_, item, the recurrent cells (rnn_tanh_cell,
rnn_relu_cell, gru_cell, lstm_cell) and fake quantization.

Writes aten.<op>.<overload>.jsonl beside this script, in the format of
testdata/conformance/README.md, with PyTorch 1.13 (Debian python3-torch):

    cd kernels/testdata/extra && /usr/bin/python3 gen_fx.py
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

confgen.TOL["ew"] = {f32: (1.3e-6, 1e-5), f64: (1e-7, 1e-7), f16: (1e-3, 1e-5), bf16: (1.6e-2, 1e-5)}
confgen.TOL["exact"] = {f32: (0.0, 0.0), f64: (0.0, 0.0), f16: (0.0, 0.0), bf16: (0.0, 0.0)}


def R(shape, dt=f32, scale=3.0):
    if dt == b8:
        return torch.rand(shape) < 0.5
    if dt.is_floating_point:
        return (torch.randn(shape, dtype=f64) * scale).to(dt)
    lo = 0 if dt == u8 else -9
    return torch.randint(lo, 10, shape, dtype=i64).to(dt)


def T(vals, dt):
    return torch.tensor(vals, dtype=dt)


# --- factories -------------------------------------------------------------

f = F(A.ones.default, "exact")
f.case("float32 [2,3]", lambda: ([[2, 3]], {}))
f.case("int64 0-d", lambda: ([[]], {"dtype": i64}))
f.case("bool empty", lambda: ([[0, 4]], {"dtype": b8}))
f.case("float16", lambda: ([[3]], {"dtype": f16}))

f = F(A.zeros.default, "exact")
f.case("float32 [2,1,3]", lambda: ([[2, 1, 3]], {}))
f.case("uint8", lambda: ([[4]], {"dtype": u8}))
f.case("float64 device cpu", lambda: ([[2]], {"dtype": f64, "device": torch.device("cpu")}))

f = F(A.new_ones.default, "exact")
f.case("self's dtype int32", lambda: ([R([2], i32), [3, 2]], {}))
f.case("dtype given", lambda: ([R([2]), [2]], {"dtype": f64}))

f = F(A.new_zeros.default, "exact")
f.case("self's dtype bfloat16", lambda: ([R([2], bf16), [2, 2]], {}))
f.case("dtype bool", lambda: ([R([2]), [3]], {"dtype": b8}))

f = F(A.new_full.default, "exact")
f.case("float into int64 self truncates", lambda: ([R([1], i64), [2, 2], 2.7], {}))
f.case("float32 self", lambda: ([R([1]), [3], -1.5], {}))
f.case("dtype given", lambda: ([R([1]), [2], 5], {"dtype": i8}))

f = F(A.new_empty.default, "move")
f.case("0 elements (contents unspecified)", lambda: ([R([2], i16), [0, 3]], {}))

f = F(A.empty_like.default, "move")
f.case("0 elements (contents unspecified)", lambda: ([R([0, 2], f64)], {}))
f.case("dtype 0 elements", lambda: ([R([2, 0])], {"dtype": i32}))

f = F(A.arange.default, "exact")
f.case("int end", lambda: ([5], {}))
f.case("float end", lambda: ([4.5], {}))
f.case("int end float dtype", lambda: ([7], {"dtype": f32}))
f.case("long float32 end (vector blocks)", lambda: ([37.0], {}))
f.case("end 0", lambda: ([0], {}))

f = F(A.arange.start, "exact")
f.case("ints", lambda: ([-3, 4], {}))
f.case("floats", lambda: ([0.5, 6.3], {}))
f.case("float64 dtype", lambda: ([1, 40], {"dtype": f64}))
f.case("int8 dtype", lambda: ([-5, 5], {"dtype": i8}))

f = F(A.eye.default, "exact")
f.case("n 3", lambda: ([3], {}))
f.case("n 0", lambda: ([0], {}))
f.case("int64", lambda: ([4], {"dtype": i64}))
f.case("bool", lambda: ([2], {"dtype": b8}))

f = F(A.eye.m, "exact")
f.case("2x5", lambda: ([2, 5], {}))
f.case("4x2 float64", lambda: ([4, 2], {"dtype": f64}))
f.case("3x0", lambda: ([3, 0], {}))

f = F(A.linspace.default, "exact")
f.case("0..1 5 steps", lambda: ([0, 1, 5], {}))
f.case("-3.7..11.2 50 steps (vector blocks)", lambda: ([-3.7, 11.2, 50], {}))
f.case("float64 100 steps", lambda: ([0.1, 7.3, 100], {"dtype": f64}))
f.case("decreasing 37 steps", lambda: ([10.0, -2.5, 37], {}))
f.case("1 step", lambda: ([2.5, 9.0, 1], {}))
f.case("0 steps", lambda: ([2.5, 9.0, 0], {}))
f.case("int64 10 steps", lambda: ([0, 7, 10], {"dtype": i64}))
f.case("int32 decreasing 40 steps", lambda: ([100, -3, 40], {"dtype": i32}))
f.case("uint8 70 steps", lambda: ([0, 255, 70], {"dtype": u8}))
f.case("float16 20 steps", lambda: ([-1, 1, 20], {"dtype": f16}))
f.case("bfloat16 40 steps", lambda: ([0, 3, 40], {"dtype": bf16}))

f = F(A.logspace.default, "ew")
f.case("0..2 5 steps", lambda: ([0, 2, 5], {}))
f.case("base 2 float64", lambda: ([-1.5, 3.5, 9, 2.0], {"dtype": f64}))
f.case("1 step", lambda: ([1.5, 3.0, 1], {}))
f.case("int64 base 2", lambda: ([0, 10, 11, 2.0], {"dtype": i64}))

# --- reductions over every element ------------------------------------------

f = F(A.max.default, "exact")
f.case("float32 [3,4]", lambda: ([R([3, 4])], {}))
f.case("NaN propagates", lambda: ([T([1.0, nan, 3.0], f32)], {}))
f.case("int64 0-d", lambda: ([T(-7, i64)], {}))
f.case("bool", lambda: ([T([False, True], b8)], {}))
f.case("uint8", lambda: ([R([5], u8)], {}))
f.case("-inf only", lambda: ([T([-inf, -inf], f64)], {}))

f = F(A.min.default, "exact")
f.case("float32 [2,3,2]", lambda: ([R([2, 3, 2])], {}))
f.case("NaN propagates", lambda: ([T([1.0, 2.0, nan], f64)], {}))
f.case("int8", lambda: ([R([6], i8)], {}))
f.case("bfloat16", lambda: ([R([4], bf16)], {}))

f = F(A.max.other, "exact")
f.case("broadcast", lambda: ([R([2, 3]), R([3])], {}))
f.case("int64 vs float32 promotes", lambda: ([R([3], i64), R([3])], {}))

f = F(A.min.other, "exact")
f.case("NaN", lambda: ([T([1.0, nan, 2.0], f32), T([0.0, 1.0, nan], f32)], {}))

f = F(A.all.default, "exact")
f.case("float32 some zero", lambda: ([T([1.0, 0.0, 2.0], f32)], {}))
f.case("NaN counts as true", lambda: ([T([nan, 1.0], f32)], {}))
f.case("empty is true", lambda: ([R([0, 3])], {}))
f.case("uint8 gives uint8", lambda: ([T([3, 4], u8)], {}))
f.case("bool [2,2]", lambda: ([T([[True, True], [True, True]], b8)], {}))

f = F(A.all.dim, "exact")
f.case("dim 1", lambda: ([T([[1, 0, 2], [3, 4, 5]], i64), 1], {}))
f.case("dim 0 keepdim", lambda: ([R([3, 2], b8), 0, True], {}))
f.case("uint8 dim -1", lambda: ([T([[1, 0], [2, 2]], u8), -1], {}))
f.case("empty dim is true", lambda: ([R([2, 0]), 1], {}))

f = F(A.aminmax.default, "exact")
f.case("all elements", lambda: ([R([3, 4])], {}))
f.case("dim 1", lambda: ([R([3, 4])], {"dim": 1}))
f.case("dim 0 keepdim int32", lambda: ([R([3, 4], i32)], {"dim": 0, "keepdim": True}))
f.case("all keepdim", lambda: ([R([2, 3], f64)], {"keepdim": True}))

# --- masked_fill ------------------------------------------------------------

f = F(A.masked_fill.Scalar, "exact")
f.case("float32 broadcast mask", lambda: ([R([2, 3]), R([3], b8), -1.5], {}))
f.case("int64 self float value truncates", lambda: ([R([4], i64), R([4], b8), 2.9], {}))
f.case("mask broadcasts self", lambda: ([R([3]), R([2, 3], b8), 0.0], {}))
f.case("-inf into float16", lambda: ([R([2, 2], f16), R([2, 2], b8), -inf], {}))
f.case("bool self", lambda: ([R([5], b8), R([5], b8), True], {}))

f = F(A.masked_fill.Tensor, "exact")
f.case("0-d float value", lambda: ([R([2, 3]), R([2, 3], b8), T(7.25, f64)], {}))
f.case("int32 self, int64 value", lambda: ([R([4], i32), R([4], b8), T(-3, i64)], {}))

f = F(A.masked_fill_.Scalar, "exact")
f.case("in place, mask broadcasts", lambda: ([R([2, 3]), R([1, 3], b8), 9.0], {}))

f = F(A.masked_fill_.Tensor, "exact")
f.case("in place int", lambda: ([R([3], i64), R([3], b8), T(4, i64)], {}))

# --- item -------------------------------------------------------------------

f = F(A.item.default, "move")
f.case("float32 [1]", lambda: ([T([2.5], f32)], {}))
f.case("int64 0-d", lambda: ([T(-9, i64)], {}))
f.case("bool [1,1]", lambda: ([T([[True]], b8)], {}))
f.case("float64", lambda: ([T(0.1, f64)], {}))

# --- recurrent cells --------------------------------------------------------

confgen.TOL["acc"][torch.float32] = (1e-4, 1e-5)


def cell(gates, batch=3, inp=4, hid=5, bias=True, dt=f32):
    a = [R([batch, inp], dt, 1.0), R([batch, hid], dt, 1.0),
         R([gates * hid, inp], dt, 0.5), R([gates * hid, hid], dt, 0.5)]
    if bias:
        a += [R([gates * hid], dt, 0.5), R([gates * hid], dt, 0.5)]
    return a


for ov, g in ((A.rnn_tanh_cell.default, 1), (A.rnn_relu_cell.default, 1), (A.gru_cell.default, 3)):
    f = F(ov, "acc")
    f.case("batch 3 with biases", lambda g=g: (cell(g), {}))
    f.case("no biases", lambda g=g: (cell(g, bias=False), {}))
    f.case("float64 batch 1", lambda g=g: (cell(g, batch=1, dt=f64), {}))


def lstm(batch=2, inp=3, hid=4, bias=True, dt=f32):
    a = cell(4, batch, inp, hid, bias, dt)
    a = [a[0], [a[1], R([batch, hid], dt, 1.0)]] + a[2:]
    return a


f = F(A.lstm_cell.default, "acc")
f.case("batch 2 with biases", lambda: (lstm(), {}))
f.case("no biases", lambda: (lstm(bias=False), {}))
f.case("float64", lambda: (lstm(dt=f64, batch=3), {}))

# --- fake quantization ------------------------------------------------------

f = F(A.fake_quantize_per_tensor_affine.default, "exact")
f.case("int8 grid", lambda: ([R([3, 4], f32, 2.0), 0.05, 3, -128, 127], {}))
f.case("uint8 grid, clamps", lambda: ([R([10], f32, 10.0), 0.1, 128, 0, 255], {}))
f.case("ties round to even", lambda: ([T([0.25, 0.75, -0.25, 1.25, 2.5], f32), 0.5, 0, -10, 10], {}))
f.case("float64 input", lambda: ([R([5], f64), 0.02, 0, -128, 127], {}))

f = F(A.fake_quantize_per_tensor_affine.tensor_qparams, "exact")
f.case("tensor qparams", lambda: ([R([2, 3], f32, 2.0), T([0.03], f32), T([-2], i32), -128, 127], {}))

f = F(A.fake_quantize_per_channel_affine.default, "exact")
f.case("axis 0, int32 zero points",
       lambda: ([R([3, 4], f32, 2.0), T([0.05, 0.1, 0.02], f32), T([0, 3, -5], i32), 0, -128, 127], {}))
f.case("axis 1 of 3-d",
       lambda: ([R([2, 3, 2], f32, 2.0), T([0.5, 0.1, 0.2], f32), T([10, 0, 250], i32), 1, 0, 255], {}))
f.case("float zero points",
       lambda: ([R([2, 3], f32, 2.0), T([0.1, 0.2, 0.3], f32), T([0.5, -1.25, 3.0], f32), 1, -128, 127], {}))

write_all(OUT)
