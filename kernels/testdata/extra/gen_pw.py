#!/usr/bin/python3
"""Extra conformance cases for the kernels of kernels/unary_ops.go, activation.go,
binary_ops.go, tensor_compare.go, lerp.go and pointwise_ops.go.

Writes aten.<name>.<overload>.jsonl beside this script, in the format of
testdata/conformance/README.md, with PyTorch 1.13 (Debian python3-torch):

    /usr/bin/python3 kernels/testdata/extra/gen_pw.py

No shared vectors exist for these ops, so these cases are their check:
several per op across float, integral, bool and bfloat16 dtypes, 0-d and
empty tensors, broadcasting, type promotion and edge values (NaN, ±inf,
domain boundaries).
"""

import json
import os

import torch

from confgen import enc, enc_float, enc_tensor  # noqa: F401

torch.set_num_threads(1)
A = torch.ops.aten
OUT = os.path.dirname(os.path.abspath(__file__))

DT = {
    torch.float32: "float32", torch.float64: "float64", torch.float16: "float16",
    torch.bfloat16: "bfloat16", torch.int64: "int64", torch.int32: "int32",
    torch.int16: "int16", torch.int8: "int8", torch.uint8: "uint8", torch.bool: "bool",
}

# Ops whose results only move, select or compare values, or are exact:
# compared exactly.
EXACT = {"trunc", "isinf", "logical_xor", "bitwise_or", "bitwise_xor", "clamp", "clamp_min",
         "clamp_max", "sgn", "frac", "threshold", "hardshrink", "nan_to_num", "copysign"}

NAN, INF = float("nan"), float("inf")
INTS = [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8]


def tolerance(name, out):
    if name in EXACT or not out.dtype.is_floating_point:
        return 0.0, 0.0
    return {
        torch.float32: (1.3e-6, 1e-5),
        torch.float64: (1e-7, 1e-7),
        torch.bfloat16: (1.6e-2, 1e-5),
        torch.float16: (2e-3, 1e-5),
    }[out.dtype]


def rand(dtype, shape, lo=-4.0, hi=4.0):
    """Random values of dtype in [lo, hi) (whole numbers for integer dtypes)."""
    if dtype == torch.bool:
        return torch.rand(shape) < 0.5
    if dtype.is_floating_point:
        return (torch.rand(shape, dtype=torch.float64) * (hi - lo) + lo).to(dtype)
    info = torch.iinfo(dtype)
    return torch.randint(max(int(lo), info.min), min(int(hi), info.max) + 1, shape, dtype=dtype)


def T(dtype, vals):
    return torch.tensor(vals, dtype=dtype)


class Gen:
    """Collects the cases of one op overload file."""

    def __init__(self, name, overload="default"):
        self.name = name
        self.overload = overload
        self.op = getattr(getattr(A, name), overload)
        self.cases = []

    def add(self, note, make, kwargs=None):
        """Adds a case: make() returns the positional arguments, drawn after
        the case's own manual_seed."""
        kwargs = kwargs or {}
        torch.manual_seed(len(self.cases))
        args = make()
        out = self.op(*args, **kwargs)
        rtol, atol = tolerance(self.name, out)
        stem = f"aten.{self.name}.{self.overload}"
        self.cases.append({
            "id": f"{stem}/{len(self.cases)}",
            "op": f"aten::{self.name}.{self.overload}",
            "schema": str(self.op._schema),
            "args": [enc(a) for a in args],
            "kwargs": {k: enc(v) for k, v in kwargs.items()},
            "outputs": [enc(out)],
            "rtol": rtol,
            "atol": atol,
            "note": note,
        })

    def write(self):
        with open(os.path.join(OUT, f"aten.{self.name}.{self.overload}.jsonl"), "w") as f:
            for c in self.cases:
                f.write(json.dumps(c) + "\n")


# Domains (lo, hi) of the random float inputs, and edge values, per float op.
FLOAT_OPS = {
    "acos": ((-1, 1), [-1.0, 1.0, 1.0000001, -2.0, 0.0, -0.0, NAN, INF]),
    "asin": ((-1, 1), [-1.0, 1.0, 1.0000001, -2.0, 0.0, -0.0, NAN, -INF]),
    "atan": ((-10, 10), [-INF, INF, 0.0, -0.0, 1e30, -1e-30, NAN]),
    "acosh": ((1, 20), [1.0, 0.999, 0.0, 1e300, INF, -INF, NAN]),
    "asinh": ((-20, 20), [0.0, -0.0, 1e-300, -1e300, INF, -INF, NAN]),
    "atanh": ((-1, 1), [-1.0, 1.0, 0.5, 1.5, -0.0, 1e-10, NAN]),
    "cosh": ((-10, 10), [0.0, 88.0, 88.72284, 89.2, 89.5, 709.9, 710.0, 710.6, -INF, INF, NAN]),
    "sinh": ((-10, 10), [0.0, -0.0, 88.0, -88.72284, 89.2, -89.5, 709.9, -710.0, 710.6, -INF, NAN]),
    "tan": ((-1.5, 1.5), [0.0, -0.0, 1.5707963267948966, 100.0, INF, -INF, NAN]),
    "log10": ((0, 100), [0.0, -0.0, -1.0, 1.0, 1000.0, 1e-320, INF, NAN]),
    "log2": ((0, 100), [0.0, -0.0, -1.0, 1.0, 1024.0, 5e-324, INF, NAN]),
    "erfc": ((-5, 5), [0.0, -INF, INF, 10.0, 27.0, -6.0, NAN]),
    "exp2": ((-10, 10), [0.0, -1074.0, -1080.0, 127.9, 128.0, 1024.0, -INF, INF, NAN]),
}


def build(gens):
    """Adds every case to gens, a dict of Gen by file stem."""
    with torch.no_grad():
        # Float math: integral and bool inputs give float32.
        for name, ((lo, hi), edges) in FLOAT_OPS.items():
            g = gens[name] = Gen(name)
            g.add("float32[3,4]", lambda: [rand(torch.float32, (3, 4), lo, hi)])
            g.add("float64[2,3]", lambda: [rand(torch.float64, (2, 3), lo, hi)])
            g.add("float64 edge", lambda: [T(torch.float64, edges)])
            g.add("float32 edge", lambda: [T(torch.float32, edges)])
            g.add("bfloat16[3,4]", lambda: [rand(torch.bfloat16, (3, 4), lo, hi)])
            g.add("int64[2,3] -> float32", lambda: [rand(torch.int64, (2, 3), max(lo, -20), min(hi, 20))])
            g.add("uint8[5] -> float32", lambda: [rand(torch.uint8, (5,), max(lo, 0), min(hi, 20))])
            g.add("int8 0-d -> float32", lambda: [torch.tensor(1, dtype=torch.int8)])
            g.add("bool[4] -> float32", lambda: [T(torch.bool, [True, False, True, False])])
            g.add("float32 empty [0,3]", lambda: [torch.zeros((0, 3))])
            g.add("float64 0-d", lambda: [torch.tensor((lo + hi) / 3, dtype=torch.float64)])
            # Long enough for ATen's vectorized loop (SLEEF) to handle most of
            # the elements, the edges last.
            wide = torch.cat([torch.linspace(lo - 1, hi + 1, 40, dtype=torch.float64),
                              torch.tensor(edges, dtype=torch.float64)])
            for dt in [torch.float32, torch.float64, torch.bfloat16]:
                g.add(f"{DT[dt]} vectorized grid and edges", lambda dt=dt: [wide.to(dt)])
                g.add(f"{DT[dt]} vectorized edges first", lambda dt=dt: [wide.flip(0).repeat(2).to(dt)])
            if name == "exp2":
                g.add("float16[6]", lambda: [rand(torch.float16, (6,), lo, hi)])

        g = gens["trunc"] = Gen("trunc")
        g.add("float32 edge", lambda: [T(torch.float32, [-2.5, -0.5, -0.0, 0.5, 1.9999999, 8388607.5, 1e30, INF, -INF, NAN])])
        g.add("float64[3,4]", lambda: [rand(torch.float64, (3, 4), -50, 50)])
        g.add("bfloat16[3,4]", lambda: [rand(torch.bfloat16, (3, 4), -50, 50)])
        for dt in INTS:
            g.add(f"{DT[dt]}[6] unchanged", lambda dt=dt: [rand(dt, (6,), -100, 100)])
        g.add("float32 0-d", lambda: [torch.tensor(-3.75)])
        g.add("float64 empty [2,0]", lambda: [torch.zeros((2, 0), dtype=torch.float64)])

        g = gens["frac"] = Gen("frac")
        g.add("float32 edge", lambda: [T(torch.float32, [-2.5, -0.5, -0.0, 0.75, 1.9999999, 8388607.5, 1e30, INF, -INF, NAN])])
        g.add("float64[3,4]", lambda: [rand(torch.float64, (3, 4), -50, 50)])
        g.add("bfloat16[3,4]", lambda: [rand(torch.bfloat16, (3, 4), -50, 50)])
        g.add("float16[6]", lambda: [rand(torch.float16, (6,), -50, 50)])
        g.add("float32 0-d", lambda: [torch.tensor(-3.75)])
        g.add("float32 empty [0]", lambda: [torch.zeros((0,))])

        g = gens["sgn"] = Gen("sgn")
        g.add("float64 edge", lambda: [T(torch.float64, [NAN, -0.0, 0.0, -INF, INF, 5e-324, -5e-324])])
        g.add("float32[2,3]", lambda: [rand(torch.float32, (2, 3))])
        g.add("bfloat16[4]", lambda: [rand(torch.bfloat16, (4,))])
        g.add("float16[4]", lambda: [rand(torch.float16, (4,))])
        for dt in INTS:
            g.add(f"{DT[dt]}[6]", lambda dt=dt: [rand(dt, (6,), -100, 100)])
        g.add("bool[3]", lambda: [T(torch.bool, [True, False, True])])
        g.add("int64 0-d", lambda: [torch.tensor(-9)])

        g = gens["isinf"] = Gen("isinf")
        g.add("float32 edge", lambda: [T(torch.float32, [INF, -INF, NAN, 0.0, 3.4028234663852886e38, -1.0])])
        g.add("float64 edge", lambda: [T(torch.float64, [INF, -INF, NAN, 1e308, -0.0])])
        g.add("bfloat16 edge", lambda: [T(torch.bfloat16, [INF, 1.0, -INF, NAN])])
        g.add("float16 edge", lambda: [T(torch.float16, [INF, 65504.0, -INF, NAN])])
        g.add("int64[2,3]", lambda: [rand(torch.int64, (2, 3), -100, 100)])
        g.add("uint8 0-d", lambda: [torch.tensor(7, dtype=torch.uint8)])
        g.add("bool[2]", lambda: [T(torch.bool, [True, False])])
        g.add("float32 empty [0,2]", lambda: [torch.zeros((0, 2))])

        g = gens["logical_xor"] = Gen("logical_xor")
        g.add("float32 with NaN vs int64", lambda: [T(torch.float32, [1.0, 0.0, NAN, -0.0, 2.0]), T(torch.int64, [0, 0, 1, 3, 5])])
        g.add("bool broadcast [2,1] x [3]", lambda: [rand(torch.bool, (2, 1)), rand(torch.bool, (3,))])
        g.add("uint8 vs int8", lambda: [rand(torch.uint8, (6,), 0, 2), rand(torch.int8, (6,), -1, 1)])
        g.add("bfloat16 vs float64 0-d", lambda: [rand(torch.bfloat16, (2, 3), -1, 1), torch.tensor(0.0, dtype=torch.float64)])
        g.add("float16 vs bool", lambda: [T(torch.float16, [0.0, 1.0, 0.5]), T(torch.bool, [True, True, False])])
        g.add("empty [0,3] x [3]", lambda: [torch.zeros((0, 3)), rand(torch.int32, (3,), 0, 1)])
        g.add("0-d x 0-d", lambda: [torch.tensor(3), torch.tensor(0.0)])

        for name in ["bitwise_or", "bitwise_xor"]:
            g = gens[name + ".Tensor"] = Gen(name, "Tensor")
            for dt in INTS:
                g.add(f"{DT[dt]}[2,4]", lambda dt=dt: [rand(dt, (2, 4), -128, 127), rand(dt, (2, 4), -128, 127)])
            g.add("bool broadcast [3,1] x [2]", lambda: [rand(torch.bool, (3, 1)), rand(torch.bool, (2,))])
            g.add("int8 x int64 promotes", lambda: [rand(torch.int8, (4,), -100, 100), rand(torch.int64, (4,), -1000, 1000)])
            g.add("uint8 x int8 promotes to int16", lambda: [rand(torch.uint8, (4,), 0, 255), rand(torch.int8, (4,), -128, 127)])
            g.add("int32 x int64 0-d keeps int32", lambda: [rand(torch.int32, (5,), -100, 100), torch.tensor(2**40 + 5)])
            g.add("bool x uint8", lambda: [T(torch.bool, [True, False, True]), T(torch.uint8, [254, 1, 0])])
            g.add("int64 extremes", lambda: [T(torch.int64, [-2**63, 2**63 - 1, -1]), T(torch.int64, [2**63 - 1, 1, 0])])
            g.add("empty [0] x [0]", lambda: [torch.zeros((0,), dtype=torch.int64), torch.zeros((0,), dtype=torch.int64)])

            g = gens[name + ".Scalar"] = Gen(name, "Scalar")
            g.add("int64 | int", lambda: [rand(torch.int64, (2, 3), -100, 100), 12])
            g.add("uint8 | -1 wraps", lambda: [rand(torch.uint8, (5,), 0, 255), -1])
            g.add("uint8 | 300 wraps", lambda: [rand(torch.uint8, (5,), 0, 255), 300])
            g.add("int8 | 200 wraps", lambda: [rand(torch.int8, (5,), -100, 100), 200])
            g.add("bool | True -> int64", lambda: [T(torch.bool, [True, False]), True])
            g.add("bool | 2 -> int64", lambda: [T(torch.bool, [True, False]), 2])
            g.add("int16 0-d", lambda: [torch.tensor(-5, dtype=torch.int16), 7])
            g.add("int32 empty", lambda: [torch.zeros((0, 2), dtype=torch.int32), 3])

        g = gens["clamp.Tensor"] = Gen("clamp", "Tensor")
        g.add("float32 both bounds broadcast", lambda: [rand(torch.float32, (3, 4)), rand(torch.float32, (4,), -3, 0), rand(torch.float32, (3, 1), 0, 3)])
        g.add("float32 min > max gives max", lambda: [torch.linspace(-3, 3, 7), torch.tensor([1.0]), torch.tensor([-1.0])])
        g.add("float32 NaN anywhere", lambda: [T(torch.float32, [NAN, 1.0, 1.0, 5.0]), T(torch.float32, [0.0, NAN, 0.0, 0.0]), T(torch.float32, [2.0, 2.0, NAN, 2.0])])
        g.add("min only NaN propagates", lambda: [T(torch.float32, [NAN, 1.0, -1.0]), T(torch.float32, [0.0, NAN, 0.0]), None])
        g.add("max only", lambda: [rand(torch.float64, (2, 3)), None, rand(torch.float64, (3,))])
        g.add("int64 self, float32 min promotes", lambda: [rand(torch.int64, (5,), -10, 10), rand(torch.float32, (5,)), None])
        g.add("int64 self, float64 0-d min and int64 0-d max", lambda: [rand(torch.int64, (5,), -10, 10), torch.tensor(-1.5, dtype=torch.float64), torch.tensor(3)])
        g.add("float32 self, float64 0-d bounds stay float32", lambda: [rand(torch.float32, (2, 3)), torch.tensor(-1.0, dtype=torch.float64), torch.tensor(1.0, dtype=torch.float64)])
        g.add("int32 both", lambda: [rand(torch.int32, (2, 5), -50, 50), rand(torch.int32, (5,), -30, 0), rand(torch.int32, (2, 1), 0, 30)])
        g.add("uint8 x int8 bounds -> int16", lambda: [rand(torch.uint8, (6,), 0, 255), rand(torch.int8, (6,), -10, 50), torch.tensor([100], dtype=torch.int8)])
        g.add("bool min only (maximum: or)", lambda: [rand(torch.bool, (4,)), T(torch.bool, [True, False, False, True]), None])
        g.add("float16 max only", lambda: [rand(torch.float16, (4,)), None, T(torch.float16, [0.5])])
        g.add("bfloat16 both", lambda: [rand(torch.bfloat16, (3, 4)), rand(torch.bfloat16, (4,), -3, 0), rand(torch.bfloat16, (4,), 0, 3)])
        g.add("bounds broadcast self [3] to [2,3]", lambda: [rand(torch.float32, (3,)), rand(torch.float32, (2, 3), -2, 0), None])
        g.add("0-d all", lambda: [torch.tensor(5.0), torch.tensor(1.0), torch.tensor(2.0)])
        g.add("empty", lambda: [torch.zeros((0, 3)), torch.zeros((3,)), torch.ones((1, 3))])

        build_more(gens)


def build_more(gens):
    """Adds the cases of the other pointwise ops (composites included)."""
    with torch.no_grad():
        g = gens["square"] = Gen("square")
        g.add("float32[2,3]", lambda: [rand(torch.float32, (2, 3))])
        g.add("bool -> int64", lambda: [T(torch.bool, [True, False])])
        g.add("uint8 wraps", lambda: [T(torch.uint8, [200, 15, 16])])
        g.add("int32 wraps", lambda: [T(torch.int32, [65536, -46341, 7])])
        g.add("bfloat16[4]", lambda: [rand(torch.bfloat16, (4,))])
        g.add("float16 0-d", lambda: [torch.tensor(3.5, dtype=torch.float16)])
        g.add("float64 edge", lambda: [T(torch.float64, [NAN, -INF, 1e200, -0.0])])

        for name, arg in [("clamp_min", "min"), ("clamp_max", "max")]:
            g = gens[name] = Gen(name)
            g.add("float32 float bound", lambda: [rand(torch.float32, (3, 4)), 0.5])
            g.add("int64 int bound", lambda: [rand(torch.int64, (6,), -10, 10), 3])
            g.add("int64 float bound -> float32", lambda: [rand(torch.int64, (6,), -10, 10), 1.5])
            g.add("bool int bound -> int64", lambda: [T(torch.bool, [True, False]), 1])
            g.add("uint8 bound 3", lambda: [rand(torch.uint8, (6,), 0, 10), 3])
            g.add("bfloat16 bound", lambda: [rand(torch.bfloat16, (5,)), -0.3])
            g.add("float32 NaN bound fills NaN", lambda: [T(torch.float32, [1.0, NAN, -2.0]), NAN])
            g.add("float16 NaN bound fills NaN", lambda: [T(torch.float16, [1.0, 2.0]), NAN])
            g.add("int32 NaN bound -> float32 NaN", lambda: [T(torch.int32, [1, 2]), NAN])
            g.add("float64 NaN input", lambda: [T(torch.float64, [NAN, INF, -INF, 0.0]), 1])
            g.add("float32 0-d", lambda: [torch.tensor(2.5), 1])
            g.add("float32 empty", lambda: [torch.zeros((0, 2)), 1.0])

            g = gens[name + ".Tensor"] = Gen(name, "Tensor")
            g.add("float32 broadcast", lambda: [rand(torch.float32, (3, 4)), rand(torch.float32, (4,))])
            g.add("int64 vs float32 -> float32", lambda: [rand(torch.int64, (5,), -5, 5), rand(torch.float32, (5,))])
            g.add("float32 vs float64 0-d stays float32", lambda: [rand(torch.float32, (3,)), torch.tensor(0.5, dtype=torch.float64)])
            g.add("NaN propagates", lambda: [T(torch.float32, [NAN, 1.0, 2.0]), T(torch.float32, [0.0, NAN, 1.0])])
            g.add("bool", lambda: [T(torch.bool, [True, False, True, False]), T(torch.bool, [True, True, False, False])])
            g.add("float16", lambda: [rand(torch.float16, (4,)), rand(torch.float16, (4,))])
            g.add("uint8 vs int8 -> int16", lambda: [rand(torch.uint8, (5,), 0, 255), rand(torch.int8, (5,), -128, 127)])
            g.add("empty", lambda: [torch.zeros((0, 3)), torch.zeros((1, 3))])

        g = gens["floor_divide"] = Gen("floor_divide")
        g.add("float32 broadcast", lambda: [rand(torch.float32, (3, 4), -10, 10), rand(torch.float32, (4,), 0.5, 3)])
        g.add("int64 negative", lambda: [T(torch.int64, [7, -7, 7, -7, 0]), T(torch.int64, [2, 2, -2, -2, 3])])
        g.add("int32 vs int64 0-d", lambda: [rand(torch.int32, (6,), -50, 50), torch.tensor(4)])
        g.add("float64 edge", lambda: [T(torch.float64, [1.0, -1.0, INF, 0.0, NAN]), T(torch.float64, [0.0, 0.0, 2.0, -3.0, 1.0])])
        g.add("bfloat16", lambda: [rand(torch.bfloat16, (5,), -10, 10), rand(torch.bfloat16, (5,), 0.5, 3)])
        g = gens["floor_divide.Scalar"] = Gen("floor_divide", "Scalar")
        g.add("float32 / 2.5", lambda: [rand(torch.float32, (2, 3), -10, 10), 2.5])
        g.add("int64 / -3", lambda: [rand(torch.int64, (6,), -20, 20), -3])
        g.add("int64 / 2.5 -> float32", lambda: [rand(torch.int64, (6,), -20, 20), 2.5])
        g.add("bool / 2 -> int64", lambda: [T(torch.bool, [True, False]), 2])
        g.add("uint8 0-d", lambda: [torch.tensor(200, dtype=torch.uint8), 7])

        g = gens["softplus"] = Gen("softplus")
        g.add("float32 default", lambda: [rand(torch.float32, (3, 4), -30, 30)])
        g.add("float64 beta 2 threshold 5", lambda: [rand(torch.float64, (8,), -10, 10), 2, 5])
        g.add("float32 beta 0.5", lambda: [rand(torch.float32, (6,), -50, 50), 0.5, 20])
        g.add("bfloat16", lambda: [rand(torch.bfloat16, (6,), -10, 10)])
        g.add("float32 edge", lambda: [T(torch.float32, [NAN, INF, -INF, 0.0, -100.0, 20.0, 20.5])])
        g.add("float32 0-d", lambda: [torch.tensor(1.5)])

        g = gens["hardshrink"] = Gen("hardshrink")
        g.add("float32 default", lambda: [torch.linspace(-1, 1, 9)])
        g.add("float64 lambd 1.5", lambda: [rand(torch.float64, (3, 4)), 1.5])
        g.add("bfloat16 lambd 0.3", lambda: [rand(torch.bfloat16, (6,), -1, 1), 0.3])
        g.add("float32 negative lambd", lambda: [rand(torch.float32, (6,), -1, 1), -0.5])
        g.add("float32 edge", lambda: [T(torch.float32, [NAN, INF, -INF, -0.5, 0.5, 0.50001]), 0.5])
        g.add("float32 int lambd", lambda: [rand(torch.float32, (6,)), 2])

        g = gens["mish"] = Gen("mish")
        g.add("float32", lambda: [rand(torch.float32, (3, 4), -10, 10)])
        g.add("float64", lambda: [rand(torch.float64, (3, 4), -10, 10)])
        g.add("float32 edge", lambda: [T(torch.float32, [NAN, INF, -INF, 0.0, -100.0, 100.0])])
        g.add("float32 0-d", lambda: [torch.tensor(0.5)])

        g = gens["logit"] = Gen("logit")
        g.add("float32 no eps", lambda: [rand(torch.float32, (3, 4), 0, 1)])
        g.add("float64 edge no eps", lambda: [T(torch.float64, [0.0, 1.0, 0.5, -0.5, 1.5, NAN, 1e-320])])
        g.add("float32 eps 0.1", lambda: [T(torch.float32, [0.0, 0.05, 0.5, 0.95, 1.0, NAN]), 0.1])
        g.add("float32 eps 0.7 scalar path", lambda: [T(torch.float32, [0.0, 0.3, 1.0, 1.5, -1.0]), 0.7])
        g.add("float32 eps 0.7 vectorized", lambda: [torch.linspace(-0.5, 1.5, 20), 0.7])
        g.add("float32 negative eps", lambda: [T(torch.float32, [0.0, 0.3, 1.0]), -1.0])
        g.add("int64 -> float32", lambda: [T(torch.int64, [0, 1, 2])])
        g.add("bfloat16 eps 1e-6", lambda: [rand(torch.bfloat16, (6,), 0, 1), 1e-6])

        g = gens["threshold"] = Gen("threshold")
        g.add("float32", lambda: [rand(torch.float32, (3, 4)), 0.5, -7.0])
        g.add("int64 float args truncate", lambda: [T(torch.int64, [0, 1, 2, 3]), 1.5, 9.7])
        g.add("uint8", lambda: [rand(torch.uint8, (6,), 0, 255), 100, 7])
        g.add("int8", lambda: [rand(torch.int8, (6,), -128, 127), -3, 100])
        g.add("bfloat16", lambda: [rand(torch.bfloat16, (6,)), 0.1, 2.3])
        g.add("float64 edge", lambda: [T(torch.float64, [NAN, INF, -INF, 1.0]), 1.0, NAN])
        g.add("float32 NaN threshold", lambda: [T(torch.float32, [1.0, NAN, 3.0]), NAN, 7])
        g.add("float32 0-d", lambda: [torch.tensor(0.0), 0, 1])

        g = gens["lerp.Scalar"] = Gen("lerp", "Scalar")
        g.add("float32 0.3", lambda: [rand(torch.float32, (3, 4)), rand(torch.float32, (4,)), 0.3])
        g.add("float64 0.75", lambda: [rand(torch.float64, (5,)), rand(torch.float64, (5,)), 0.75])
        g.add("float32 int weight 2", lambda: [rand(torch.float32, (5,)), rand(torch.float32, (5,)), 2])
        g.add("float32 -0.5", lambda: [rand(torch.float32, (5,)), rand(torch.float32, (5,)), -0.5])
        g.add("bfloat16 0.4", lambda: [rand(torch.bfloat16, (6,)), rand(torch.bfloat16, (6,)), 0.4])
        g.add("float32 edge", lambda: [T(torch.float32, [NAN, INF, 1.0, -INF]), T(torch.float32, [0.0, 1.0, INF, INF]), 0.5])
        g.add("broadcast [2,1] x [3]", lambda: [rand(torch.float32, (2, 1)), rand(torch.float32, (3,)), 0.6])
        g = gens["lerp.Tensor"] = Gen("lerp", "Tensor")
        g.add("float32 broadcast weight", lambda: [rand(torch.float32, (3, 4)), rand(torch.float32, (3, 4)), rand(torch.float32, (4,), -1, 2)])
        g.add("float64", lambda: [rand(torch.float64, (6,)), rand(torch.float64, (6,)), rand(torch.float64, (6,), -1, 2)])
        g.add("bfloat16", lambda: [rand(torch.bfloat16, (6,)), rand(torch.bfloat16, (6,)), rand(torch.bfloat16, (6,), 0, 1)])
        g.add("float32 0-d weight", lambda: [rand(torch.float32, (2, 3)), rand(torch.float32, (2, 3)), torch.tensor(0.25)])
        g.add("all broadcast", lambda: [rand(torch.float32, (2, 1, 1)), rand(torch.float32, (3, 1)), rand(torch.float32, (4,))])

        g = gens["addcmul"] = Gen("addcmul")
        g.add("float32 broadcast", lambda: [rand(torch.float32, (3, 4)), rand(torch.float32, (4,)), rand(torch.float32, (3, 1))])
        g.add("float32 value 0.5", lambda: [rand(torch.float32, (5,)), rand(torch.float32, (5,)), rand(torch.float32, (5,))], {"value": 0.5})
        g.add("int64 value 2.5 truncates", lambda: [T(torch.int64, [1, 2]), T(torch.int64, [1, 2]), T(torch.int64, [3, 4])], {"value": 2.5})
        g.add("int32 wraps", lambda: [T(torch.int32, [1, 2]), T(torch.int32, [65536, 3]), T(torch.int32, [65536, 4])], {"value": 3})
        g.add("int64 x float32 x float64 -> float64", lambda: [rand(torch.int64, (4,), -5, 5), rand(torch.float32, (4,)), rand(torch.float64, (4,))])
        g.add("uint8", lambda: [rand(torch.uint8, (5,), 0, 255), rand(torch.uint8, (5,), 0, 20), rand(torch.uint8, (5,), 0, 20)])
        g.add("bfloat16", lambda: [rand(torch.bfloat16, (6,)), rand(torch.bfloat16, (6,)), rand(torch.bfloat16, (6,))], {"value": -1.5})
        g.add("0-d", lambda: [torch.tensor(1.0), torch.tensor(2.0), torch.tensor(3.0)])

        g = gens["addcdiv"] = Gen("addcdiv")
        g.add("float32 broadcast", lambda: [rand(torch.float32, (3, 4)), rand(torch.float32, (4,)), rand(torch.float32, (3, 1), 0.5, 3)])
        g.add("float64 value -2", lambda: [rand(torch.float64, (5,)), rand(torch.float64, (5,)), rand(torch.float64, (5,), 0.5, 3)], {"value": -2})
        g.add("int64 self, float32 tensor1", lambda: [T(torch.int64, [1, 2]), T(torch.float32, [1.0, 2.0]), T(torch.int64, [3, 4])])
        g.add("float32 division by zero", lambda: [T(torch.float32, [1.0, 1.0, 1.0]), T(torch.float32, [1.0, 0.0, -1.0]), T(torch.float32, [0.0, 0.0, 0.0])])
        g.add("bfloat16", lambda: [rand(torch.bfloat16, (6,)), rand(torch.bfloat16, (6,)), rand(torch.bfloat16, (6,), 0.5, 3)], {"value": 0.1})

        for ov in ["Tensor", "Scalar_Other", "Scalar_Self"]:
            g = gens["xlogy." + ov] = Gen("xlogy", ov)
            if ov == "Tensor":
                g.add("float32 broadcast", lambda: [rand(torch.float32, (3, 4)), rand(torch.float32, (4,), 0, 5)])
                g.add("float64 edge", lambda: [T(torch.float64, [0.0, 0.0, 1.0, 2.0, 0.0, INF, 1.0]), T(torch.float64, [0.0, NAN, 0.0, -1.0, INF, 2.0, 1e-320])])
                g.add("int64 -> float32", lambda: [T(torch.int64, [0, 2, 3]), T(torch.int64, [0, 0, 5])])
                g.add("float16", lambda: [rand(torch.float16, (4,)), rand(torch.float16, (4,), 0, 5)])
                g.add("bfloat16 x float32 0-d", lambda: [rand(torch.bfloat16, (4,)), torch.tensor(2.0)])
            elif ov == "Scalar_Other":
                g.add("float32 other 2.5", lambda: [rand(torch.float32, (5,)), 2.5])
                g.add("int64 other 3 -> float32", lambda: [T(torch.int64, [0, 1, 2]), 3])
                g.add("float64 other NaN", lambda: [T(torch.float64, [0.0, 1.0]), NAN])
            else:
                g.add("0 * log(t)", lambda: [0, T(torch.float32, [1.0, NAN, 0.0])])
                g.add("2.5 * log(float64)", lambda: [2.5, rand(torch.float64, (5,), 0, 5)])
                g.add("int 3, int64 tensor -> float32", lambda: [3, T(torch.int64, [1, 2, 0])])

        for ov in ["Tensor", "Scalar"]:
            g = gens["copysign." + ov] = Gen("copysign", ov)
            if ov == "Tensor":
                g.add("float32 broadcast", lambda: [rand(torch.float32, (3, 4)), rand(torch.float32, (4,))])
                g.add("float64 signed zeros and NaN", lambda: [T(torch.float64, [1.0, 1.0, NAN, INF, -0.0]), T(torch.float64, [-0.0, 0.0, -1.0, -2.0, 1.0])])
                g.add("int64 x int32 -> float32", lambda: [T(torch.int64, [1, -2, 3]), T(torch.int32, [-1, 1, 0])])
                g.add("bool", lambda: [T(torch.bool, [True, False]), T(torch.bool, [True, True])])
                g.add("float16 x bfloat16 -> float32", lambda: [rand(torch.float16, (4,)), rand(torch.bfloat16, (4,))])
            else:
                g.add("float32, -0.0", lambda: [rand(torch.float32, (5,)), -0.0])
                g.add("int64, -1 -> float32", lambda: [T(torch.int64, [1, -2, 0]), -1])
                g.add("bfloat16, 2.5", lambda: [rand(torch.bfloat16, (4,)), 2.5])

        g = gens["hypot"] = Gen("hypot")
        g.add("float32 broadcast", lambda: [rand(torch.float32, (3, 4)), rand(torch.float32, (4,))])
        g.add("float64 edge", lambda: [T(torch.float64, [INF, NAN, 1e300, 3.0, -0.0]), T(torch.float64, [NAN, INF, 1e300, -4.0, 0.0])])
        g.add("float32 x float64 -> float64", lambda: [rand(torch.float32, (3,)), rand(torch.float64, (3,))])
        g.add("int64 x float32 -> float32", lambda: [T(torch.int64, [3, 5]), T(torch.float32, [4.0, 12.0])])
        g.add("bfloat16", lambda: [rand(torch.bfloat16, (5,)), rand(torch.bfloat16, (5,))])
        g.add("float32 overflow-safe", lambda: [T(torch.float32, [3e38, 1e-40]), T(torch.float32, [3e38, 1e-40])])

        g = gens["nan_to_num"] = Gen("nan_to_num")
        g.add("float32 defaults", lambda: [T(torch.float32, [NAN, INF, -INF, 1.5])])
        g.add("float64 replacements", lambda: [T(torch.float64, [NAN, INF, -INF, -2.0]), 1.0, 2.0, -3.0])
        g.add("float32 huge replacement overflows", lambda: [T(torch.float32, [NAN, INF, -INF]), 1e300, 1e300, -1e300])
        g.add("bfloat16 defaults", lambda: [T(torch.bfloat16, [NAN, INF, -INF, 1.0])])
        g.add("float16 defaults", lambda: [T(torch.float16, [NAN, INF, -INF, 1.0])])
        g.add("int64 copy", lambda: [T(torch.int64, [1, -2, 3]), 5.0])
        g.add("bool copy", lambda: [T(torch.bool, [True, False])])
        g.add("float32 posinf only", lambda: [T(torch.float32, [NAN, INF, -INF]), None, 9.0])
        g.add("float32 empty", lambda: [torch.zeros((0, 2))])


def main():
    gens = {}
    build(gens)
    for g in gens.values():
        g.write()


if __name__ == "__main__":
    main()
