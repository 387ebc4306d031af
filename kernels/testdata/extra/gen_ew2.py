#!/usr/bin/python3
"""Extra conformance cases for the unary kernels of kernels/unary_ops.go and activation.go.

Writes aten.<op>.default.jsonl beside this script, in the format of
testdata/conformance/README.md, with PyTorch 1.13 (Debian python3-torch):

    /usr/bin/python3 kernels/testdata/extra/gen_ew2.py

The shared vectors cover float32/float64/int64 only; these cases add the
other integer dtypes, bool, bfloat16 (and float16 where the CPU kernel
exists), integer wrap-around (abs/neg of the minimum), hardtanh's integer
bound truncation, NaN bounds, min > max, and Scalar arguments given as
bools, NaN and ints.
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

# Ops whose results only move or compare values: compared exactly.
EXACT = {"abs", "neg", "sign", "ceil", "floor", "round", "relu", "relu6", "hardtanh"}


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


class Gen:
    """Collects the cases of one op overload file."""

    def __init__(self, name):
        self.name = name
        self.op = getattr(A, name).default
        self.cases = []

    def add(self, note, make, args=(), kwargs=None):
        kwargs = kwargs or {}
        torch.manual_seed(len(self.cases))
        x = make()
        out = self.op(x, *args, **kwargs)
        rtol, atol = tolerance(self.name, out)
        stem = f"aten.{self.name}.default"
        self.cases.append({
            "id": f"{stem}/{len(self.cases)}",
            "op": f"aten::{self.name}.default",
            "schema": str(self.op._schema),
            "args": [enc(x)] + [enc(a) for a in args],
            "kwargs": {k: enc(v) for k, v in kwargs.items()},
            "outputs": [enc(out)],
            "rtol": rtol,
            "atol": atol,
            "note": note,
        })

    def write(self):
        with open(os.path.join(OUT, f"aten.{self.name}.default.jsonl"), "w") as f:
            for c in self.cases:
                f.write(json.dumps(c) + "\n")


INTS = [torch.int32, torch.int16, torch.int8, torch.uint8]
NAN, INF = float("nan"), float("inf")


def edge(dtype, vals):
    return lambda: torch.tensor(vals, dtype=dtype)


def build(gens):
    """Adds every case to gens, a dict of Gen by op name."""
    with torch.no_grad():
        # Ops that keep the input dtype.
        for name in ["abs", "neg", "sign", "ceil", "floor", "round", "relu"]:
            g = gens[name] = Gen(name)
            for dt in INTS:
                g.add(f"{DT[dt]}[2,5]", lambda dt=dt: rand(dt, (2, 5), -100, 100))
            g.add("bfloat16[3,4]", lambda: rand(torch.bfloat16, (3, 4)))
            g.add("int64 0-d", lambda: torch.tensor(-7))
            g.add("int32 empty [0,2]", lambda: torch.zeros((0, 2), dtype=torch.int32))
            if name in ("abs", "neg", "sign"):
                g.add("float16[6]", lambda: rand(torch.float16, (6,)))
                g.add("int8 extremes", edge(torch.int8, [-128, -127, -1, 0, 1, 127]))
                g.add("int64 extremes", edge(torch.int64, [-2**63, -1, 0, 1, 2**63 - 1]))
            if name == "sign":
                g.add("bool 0-d", lambda: torch.tensor(True))
                g.add("float64 edge", edge(torch.float64, [NAN, -0.0, 0.0, -INF, INF, 5e-324, -5e-324]))
            if name == "round":
                g.add("float32 halves", edge(torch.float32, [-3.5, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 8388607.5, 16777216.0]))
                g.add("float64 halves", edge(torch.float64, [-2.5, 0.5, 4503599627370495.5, 0.49999999999999994]))

        # Float math: integral and bool inputs give float32.
        for name in ["cos", "sin", "tanh", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt",
                     "reciprocal", "erf", "sigmoid"]:
            g = gens[name] = Gen(name)
            lo = 0 if name in ("log", "sqrt", "rsqrt") else -20
            for dt in INTS:
                g.add(f"{DT[dt]}[2,4] -> float32", lambda dt=dt: rand(dt, (2, 4), lo, 40))
            g.add("bool[4] -> float32", edge(torch.bool, [True, False, True, True]))
            g.add("int64 0-d -> float32", lambda: torch.tensor(3))
            g.add("uint8 empty [0] -> float32", lambda: torch.zeros((0,), dtype=torch.uint8))
            g.add("bfloat16[3,4]", lambda: rand(torch.bfloat16, (3, 4), 0.1, 4))
            if name == "reciprocal":
                g.add("float16[6]", lambda: rand(torch.float16, (6,), 0.1, 4))

        # Activations: floating inputs only.
        for name in ["hardsigmoid", "hardswish", "silu"]:
            g = gens[name] = Gen(name)
            g.add("bfloat16[3,4]", lambda: rand(torch.bfloat16, (3, 4), -5, 5))
            g.add("float64 edge", edge(torch.float64, [-INF, -3.0, -1e-300, 0.0, 2.9999999, 3.0, INF, NAN]))
            g.add("float32 0-d", lambda: torch.tensor(-1.25))

        # bfloat16 grids: ATen computes some activations in float32 and
        # rounds once, others (silu, gelu tanh) round every step.
        for name, args, kwargs in [("sigmoid", (), {}), ("silu", (), {}), ("hardswish", (), {}),
                                   ("hardsigmoid", (), {}), ("elu", (1.1,), {}),
                                   ("leaky_relu", (0.1,), {}), ("gelu", (), {}),
                                   ("gelu", (), {"approximate": "tanh"})]:
            g = gens.setdefault(name, Gen(name))
            g.add(f"bfloat16 grid {args} {kwargs}", lambda: torch.linspace(-6, 6, 121).to(torch.bfloat16), args, kwargs)
            g.add(f"float32 grid {args} {kwargs}", lambda: torch.linspace(-12, 12, 241), args, kwargs)

        g = gens.setdefault("relu6", Gen("relu6"))
        for dt in INTS + [torch.int64]:
            g.add(f"{DT[dt]}[12]", lambda dt=dt: rand(dt, (12,), -20, 20))
        g.add("bfloat16[3,4]", lambda: rand(torch.bfloat16, (3, 4), -8, 8))
        g.add("float64 edge", edge(torch.float64, [NAN, -INF, -0.0, 5.999999999, 6.0, 6.000001, INF]))

        g = gens.setdefault("hardtanh", Gen("hardtanh"))
        g.add("int64 float bounds truncate toward zero", lambda: torch.arange(-5, 6), (-2.7, 2.7))
        g.add("int32 min > max gives max", lambda: torch.arange(-3, 4, dtype=torch.int32), (3, -2))
        g.add("uint8 bounds 0.5, 3", lambda: torch.arange(0, 8, dtype=torch.uint8), (0.5, 3))
        g.add("int8 bounds -128, 127", lambda: rand(torch.int8, (10,), -128, 127), (-128, 127))
        g.add("int16 bool bounds", lambda: torch.arange(-3, 4, dtype=torch.int16), (False, True))
        g.add("float32 bounds rounded to float32", lambda: torch.linspace(-0.2, 0.2, 9), (-0.1, 0.1))
        g.add("float32 NaN min_val", lambda: torch.linspace(-3, 3, 5), (NAN, 1.0))
        g.add("float32 NaN max_val", lambda: torch.linspace(-3, 3, 3), (-1.0, NAN))
        g.add("float64 infinite bounds", edge(torch.float64, [NAN, -INF, -1e308, 0.0, INF]), (-INF, INF))
        g.add("float32 min > max gives max", lambda: torch.linspace(-3, 3, 7), (2.0, -1.0))
        g.add("bfloat16 bounds", lambda: rand(torch.bfloat16, (3, 4)), (-1.1, 2.3))

        g = gens.setdefault("leaky_relu", Gen("leaky_relu"))
        g.add("bfloat16[3,4] slope 0.1", lambda: rand(torch.bfloat16, (3, 4)), (0.1,))
        g.add("float32 bool slope", lambda: torch.linspace(-2, 2, 5), (True,))
        g.add("float32 NaN slope", lambda: torch.linspace(-2, 2, 5), (NAN,))
        g.add("float32 negative slope -0.3", lambda: rand(torch.float32, (2, 5)), (-0.3,))
        g.add("float64 edge", edge(torch.float64, [NAN, -INF, -0.0, 1e-310, INF]), (0.01,))

        g = gens.setdefault("elu", Gen("elu"))
        g.add("bfloat16[3,4]", lambda: rand(torch.bfloat16, (3, 4)))
        g.add("float64 alpha, scale, input_scale", lambda: rand(torch.float64, (2, 6)), (1.7, 1.0507, 0.5))
        g.add("float32 int and bool coefficients", lambda: rand(torch.float32, (2, 6)), (2, True, 3))
        g.add("float32 negative alpha", lambda: rand(torch.float32, (8,)), (-0.5,))
        g.add("float32 0-d", lambda: torch.tensor(-0.75))

        g = gens.setdefault("gelu", Gen("gelu"))
        g.add("bfloat16[3,4] none", lambda: rand(torch.bfloat16, (3, 4)))
        g.add("bfloat16[3,4] tanh", lambda: rand(torch.bfloat16, (3, 4)), kwargs={"approximate": "tanh"})
        g.add("float64 edge none", edge(torch.float64, [-INF, -40.0, -1e-200, 0.0, 40.0, INF, NAN]))
        g.add("float64 edge tanh", edge(torch.float64, [-INF, -40.0, -1e-200, 0.0, 40.0, INF, NAN]),
              kwargs={"approximate": "tanh"})
        g.add("float32 0-d tanh", lambda: torch.tensor(1.5), kwargs={"approximate": "tanh"})


def main():
    gens = {}
    build(gens)
    for g in gens.values():
        g.write()


if __name__ == "__main__":
    main()
