"""Generates allclose.json: torch.allclose on pairs of tensors.

Run from the repository root with /usr/bin/python3 tensor/testdata/gen_allclose.py.
Each case gives a dtype, the values of a and b (same shape, 1-D), rtol, atol,
equal_nan and what torch.allclose returns. Non-finite values are written as
"nan", "inf", "-inf". gofx compares in float64: every float32 case here gives
the same answer in float32 and float64 (the generator checks it).
"""

import json
import math
import os

import torch

nan, inf = float("nan"), float("inf")

CASES = [
    # dtype, a, b, rtol, atol, equal_nan
    ("float64", [1.0, 2.0], [1.0, 2.0], 0.0, 0.0, False),
    ("float64", [1.0], [1.0 + 1e-9], 0.0, 0.0, False),
    ("float64", [1.0], [1.0 + 1e-9], 1e-5, 1e-8, False),
    ("float64", [1.0], [1.0001], 1e-5, 1e-8, False),
    ("float64", [100.0], [100.0009], 1e-5, 1e-8, False),
    ("float64", [100.0], [100.0011], 1e-5, 1e-8, False),
    ("float64", [1.0], [1.1], 0.095, 0.0, False),  # |a-b| <= rtol*|b|: 0.1 <= 0.1045
    ("float64", [1.1], [1.0], 0.095, 0.0, False),  # asymmetric: 0.1 > 0.095
    ("float64", [0.0], [1e-9], 0.0, 1e-8, False),
    ("float64", [0.0], [2e-8], 0.0, 1e-8, False),
    ("float64", [0.25], [0.5], 0.0, 0.25, False),  # exactly at the bound
    ("float64", [0.5], [1.0], 0.5, 0.0, False),  # exactly at the bound
    ("float64", [nan], [nan], 1e-5, 1e-8, False),
    ("float64", [nan], [nan], 1e-5, 1e-8, True),
    ("float64", [nan, 1.0], [nan, 1.0], 0.0, 0.0, True),
    ("float64", [nan], [1.0], 1e-5, 1e-8, True),
    ("float64", [1.0], [nan], 1e-5, 1e-8, True),
    ("float64", [inf], [inf], 1e-5, 1e-8, False),
    ("float64", [-inf], [-inf], 0.0, 0.0, False),
    ("float64", [inf], [-inf], 1e-5, 1e-8, False),
    ("float64", [inf], [1e308], 1e-5, 1e-8, False),
    ("float64", [1e308], [inf], 1.0, 1.0, False),
    ("float64", [inf], [inf], 0.0, 0.0, True),
    ("float64", [-0.0], [0.0], 0.0, 0.0, False),
    ("float64", [1.0, 2.0, 3.0], [1.0, 2.0, 3.5], 0.1, 0.0, False),
    ("float64", [1.0, 2.0, 3.0], [1.0, 2.0, 3.5], 0.2, 0.0, False),
    ("float64", [], [], 0.0, 0.0, False),
    ("float64", [-5.0], [5.0], 2.0, 0.0, False),
    ("float64", [5.0], [-5.0], 1.0, 0.0, False),
    ("float32", [1.0, 2.0], [1.0, 2.0001], 1e-3, 0.0, False),
    ("float32", [1.0, 2.0], [1.0, 2.01], 1e-3, 0.0, False),
    ("float32", [0.1, 0.2], [0.1, 0.2], 0.0, 0.0, False),
    ("float32", [nan], [nan], 1e-5, 1e-8, True),
    ("float16", [1.0, 2.0], [1.0, 2.001953125], 1e-3, 0.0, False),
    ("float16", [1.0, 2.0], [1.0, 2.001953125], 1e-2, 0.0, False),
    ("bfloat16", [1.0, 2.0], [1.0, 2.015625], 1e-2, 0.0, False),
    ("int64", [1, 2, 3], [1, 2, 4], 0.0, 0.0, False),
    ("int64", [1, 2, 3], [1, 2, 4], 0.25, 0.0, False),
    ("int64", [100, 200], [101, 200], 0.0, 1.0, False),
    ("int32", [1, 2, 3], [1, 2, 3], 0.0, 0.0, False),
    ("uint8", [0, 255], [1, 255], 0.0, 0.5, False),
    ("bool", [True, False], [True, False], 0.0, 0.0, False),
]

DT = {
    "float32": torch.float32,
    "float64": torch.float64,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "int64": torch.int64,
    "int32": torch.int32,
    "uint8": torch.uint8,
    "bool": torch.bool,
}


def encode(v):
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    if isinstance(v, float) and v == 0 and math.copysign(1, v) < 0:
        return "-0"
    return v


def main():
    out = []
    for dt, a, b, rtol, atol, equal_nan in CASES:
        ta = torch.tensor(a, dtype=DT[dt])
        tb = torch.tensor(b, dtype=DT[dt])
        got = torch.allclose(ta, tb, rtol=rtol, atol=atol, equal_nan=equal_nan)
        if DT[dt].is_floating_point:
            in64 = torch.allclose(ta.double(), tb.double(), rtol=rtol, atol=atol, equal_nan=equal_nan)
            assert got == in64, (dt, a, b)
        out.append({
            "dtype": dt,
            "a": [encode(v) for v in ta.tolist()],
            "b": [encode(v) for v in tb.tolist()],
            "rtol": rtol,
            "atol": atol,
            "equal_nan": equal_nan,
            "want": got,
        })
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "allclose.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
