"""Generates arange.json: torch.arange(start, end, step, dtype=...) results.

Run from the repository root with /usr/bin/python3 tensor/testdata/gen_arange.py.
Each case gives start, end, step (Python floats) and a dtype, and either the
values torch computes (with one thread, as the conformance vectors are made)
or "error": true. Non-finite values are written as "nan", "inf", "-inf".
"""

import json
import math
import os
import random

import torch

DT = {
    "float32": torch.float32,
    "float64": torch.float64,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "int64": torch.int64,
    "int32": torch.int32,
    "int16": torch.int16,
    "int8": torch.int8,
    "uint8": torch.uint8,
    "bool": torch.bool,
}

FIXED = [
    (0, 10, 1, "float32"),
    (0, 10, 1, "int64"),
    (0, 1, 0.1, "float32"),
    (0, 1, 0.1, "float64"),
    (0, 1, 0.1, "float16"),
    (0, 1, 0.1, "bfloat16"),
    (10, 0, -1.5, "float32"),
    (0.5, 5, 1.5, "int64"),
    (0.5, 5, 1.5, "int32"),
    (-2.5, 5, 1.5, "int32"),
    (-2.5, 5, 1.5, "int64"),
    (0, 5, 0.5, "int64"),
    (0, 5, 0.5, "int32"),
    (250, 260, 1, "uint8"),
    (120, 135, 1, "int8"),
    (0, 0, 1, "float32"),
    (5, 5, -1, "int64"),
    (0, 10, 0, "float32"),
    (0, 10, -1, "float32"),
    (10, 0, 1, "int64"),
    (0, float("inf"), 1, "float32"),
    (float("nan"), 1, 1, "float64"),
    (0, 10, 1, "bool"),
    (0, 70000, 1000, "float16"),
    (0, 1e39, 1e38, "float16"),
    (1e-3, 1e-3 + 37 * 1e-5, 1e-5, "float32"),
    (100.1, 118.8, 1.1, "float64"),
    (-3.3, 6.6000000000000005, 0.3, "float32"),
    (0, 300, 0.7, "float32"),
    (0, 100, 0.37, "bfloat16"),
    (0, 100, 0.37, "float16"),
    (0, 300, 3.3, "float64"),
    (-1, 1, 2.0 / 3, "float32"),
    (-11.095118431443396, 8.104881568556603, 0.3, "bfloat16"),
    (0.1, 21.8, 0.7, "float64"),
    (-0.7, 0.20000000000000007, 0.1, "bfloat16"),
]


def encode(v):
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def main():
    torch.set_num_threads(1)
    rng = random.Random(7)
    cases = list(FIXED)
    for dt in ("float32", "float64", "float16", "bfloat16"):
        for _ in range(40):
            start = rng.choice([0, 0.1, -3.3, 1.7, 0.3, 1e-3, -0.7, 100.1, rng.uniform(-50, 50)])
            step = rng.choice([0.1, 0.3, 0.01, 1 / 3, 0.7, 1.1, 2.5e-3, -0.1, -0.3, rng.uniform(-2, 2)])
            n = rng.choice([1, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 64, 100])
            cases.append((start, start + step * n, step, dt))
    out = []
    for start, end, step, dt in cases:
        c = {"start": start, "end": end, "step": step, "dtype": dt}
        for k in ("start", "end", "step"):
            c[k] = encode(c[k])
        try:
            t = torch.arange(start, end, step, dtype=DT[dt])
        except RuntimeError as e:
            c["error"] = True
            c["message"] = str(e).split("\n")[0]
        else:
            c["values"] = [encode(v) for v in t.tolist()]
        out.append(c)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "arange.json")
    with open(path, "w") as f:
        json.dump(out, f)
        f.write("\n")


if __name__ == "__main__":
    main()
