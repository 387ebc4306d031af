"""Generates repr.json: tensors and the repr PyTorch 1.13 prints for them.

Run from the repository root with /usr/bin/python3 tensor/testdata/gen_repr.py.
Each case gives a dtype, a shape and the row-major values of a base tensor
(or "arange": [start, step], value i being start + i*step computed in
float64), an optional view applied to it ("t": transpose of a 2-D tensor,
"meta": a meta tensor of that dtype and shape) and the expected repr.
Non-finite floats and negative zero are written as strings ("nan", "inf",
"-inf", "-0").
"""

import json
import math
import os

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

nan, inf = float("nan"), float("inf")


def case(name, dtype, shape, values=None, arange=None, view=""):
    c = {"name": name, "dtype": dtype, "shape": list(shape)}
    if arange is not None:
        c["arange"] = list(arange)
    elif values is not None:
        c["values"] = values
    if view:
        c["view"] = view
    return c


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


CASES = [
    case("matrix_int_mode", "float32", [2, 2], [1.0, 2.0, 3.0, 4.0]),
    case("vector_fraction", "float32", [3], [1.5, 2.25, -3.125]),
    case("scalar_int_mode", "float32", [], [3.0]),
    case("scalar_fraction", "float32", [], [0.1]),
    case("scalar_nan", "float32", [], [nan]),
    case("scalar_int64", "int64", [], [5]),
    case("scalar_float16", "float16", [], [2.5]),
    case("scalar_bool", "bool", [], [True]),
    case("float64_suffix", "float64", [2], [1.0, 2.0]),
    case("float64_digits", "float64", [3], [1.23456789, 1e-3, -7.5]),
    case("int64_vector", "int64", [3], [1, -20, 300]),
    case("int64_huge", "int64", [3], [2**62, -(2**63), 7]),
    case("int32_matrix", "int32", [2, 3], [1, 2, 3, -4, 50, 600]),
    case("int16", "int16", [3], [-32768, 0, 32767]),
    case("int8", "int8", [2], [-128, 127]),
    case("uint8", "uint8", [3], [0, 7, 255]),
    case("bool_vector", "bool", [3], [True, False, True]),
    case("empty_1d", "float32", [0], []),
    case("empty_2d", "float32", [0, 3], []),
    case("empty_3d", "float32", [2, 0, 3], []),
    case("empty_int64", "int64", [0], []),
    case("empty_bool", "bool", [2, 0], []),
    case("empty_float64", "float64", [0], []),
    case("nonfinite_fraction", "float32", [4], [nan, inf, -inf, 1.5]),
    case("nonfinite_int_mode", "float32", [3], [nan, inf, 1.0]),
    case("nonfinite_only", "float32", [3], [nan, -inf, inf]),
    case("zeros", "float32", [2, 2], [0.0, 0.0, 0.0, 0.0]),
    case("signed_zeros", "float32", [2], ["-0", 0.0]),
    case("sci_small", "float32", [2], [1e-5, 1.0]),
    case("sci_int_mode_big", "float32", [2], [1e10, 1.0]),
    case("sci_ratio", "float32", [2], [1.0, 2000.5]),
    case("sci_int_ratio", "float32", [3], [1.0, 1001.0, -5.0]),
    case("no_sci_int_ratio", "float32", [2], [1.0, 1000.0]),
    case("sci_1e8_int", "float32", [2], [1.0e8, 2.0e8]),
    case("at_1e8_int", "float32", [2], [1.0e8, 1.0e7]),
    case("sci_min_1e-4", "float32", [2], [1.0e-4, 2.0e-4]),
    case("sci_with_nan", "float64", [3], [1e-10, nan, -2.5e3]),
    case("sci_negative_exponent_3", "float64", [2], [1e-300, 1e300]),
    case("ties", "float64", [3], [1.03125, 2.5, 0.00005]),
    case("ties_float32", "float32", [2], [1.03125, 0.5]),
    case("float16", "float16", [3], [0.0999755859375, 1.0, 65504.0]),
    case("bfloat16", "bfloat16", [3], [0.10009765625, -2.0, 3.0e38]),
    case("float16_int_mode", "float16", [2], [1.0, 2048.0]),
    case("negatives", "float32", [2, 2], [-1.5, 2.0, -30.25, 4.0]),
    case("tensor3d", "float32", [2, 2, 3], arange=[0.0, 1.0]),
    case("tensor4d", "int64", [2, 1, 2, 2], arange=[-3.0, 1.0]),
    case("wrap_floats", "float32", [30], arange=[0.0, 0.125]),
    case("wrap_float64_suffix", "float64", [11], arange=[0.5, 1.0]),
    case("suffix_newline", "float64", [12], arange=[1000.25, 1.0]),
    case("wrap_ints", "int64", [50], arange=[-25.0, 1.0]),
    case("wrap_matrix", "float32", [2, 20], arange=[0.0, 0.5]),
    case("tall_matrix", "float32", [10, 3], arange=[0.0, 1.0]),
    case("transposed", "float32", [2, 3], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], view="t"),
    case("summarize_1d", "float32", [2000], arange=[0.0, 1.0]),
    case("summarize_1d_fraction", "float64", [1001], arange=[0.0, 0.25]),
    case("summarize_2d", "float32", [100, 100], arange=[0.0, 0.5]),
    case("summarize_3d", "int64", [20, 10, 10], arange=[0.0, 1.0]),
    case("summarize_rows", "float32", [1000, 2], arange=[-1000.0, 1.0]),
    case("summarize_cols", "int32", [1, 1001], arange=[0.0, 3.0]),
    case("summarize_bool", "bool", [1200], arange=[0.0, 1.0]),
    case("summarize_sci", "float64", [1500], arange=[1.0, 1.0e5]),
    case("no_summarize_1000", "int16", [1000], arange=[0.0, 1.0]),
    case("scalar_sci_small", "float32", [], [1e-5]),
    case("scalar_sci_big", "float64", [], [1e10]),
    case("scalar_negative_zero", "float32", [], ["-0"]),
    case("summarize_with_nan", "float32", [1100], [nan] + [i + 0.5 for i in range(1, 1099)] + [-inf]),
    case("deep", "float32", [1, 1, 1, 2, 1, 2], [1.5, -2.0, 3.0, 4.0]),
    case("uint8_summarized", "uint8", [40, 40], [i * 7 % 256 for i in range(1600)]),
    case("transposed_summarized", "float64", [50, 30], arange=[0.0, 1.0], view="t"),
    case("mixed_scales", "float32", [2, 3], [0.001, 0.5, 0.25, 12.0, -0.125, 0.0]),
    case("meta_float32", "float32", [2, 3], view="meta"),
    case("meta_int64", "int64", [4], view="meta"),
    case("meta_scalar_bool", "bool", [], view="meta"),
]


def encode(v):
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        if v == 0 and math.copysign(1, v) < 0:
            return "-0"
    return v


def decode(v):
    if v == "-0":
        return -0.0
    if isinstance(v, str):
        return float(v)
    return v


def build(c):
    dt = DT[c["dtype"]]
    shape = c["shape"]
    if c.get("view") == "meta":
        return torch.empty(shape, dtype=dt, device="meta")
    if "arange" in c:
        start, step = c["arange"]
        vals = [start + i * step for i in range(numel(shape))]
    else:
        vals = [decode(v) for v in c["values"]]
    if dt == torch.bool:
        t = torch.tensor([bool(v) for v in vals], dtype=torch.bool)
    elif dt.is_floating_point:
        t = torch.tensor(vals, dtype=torch.float64).to(dt)
        # arange values must be exact in their dtype so that Go builds the
        # same tensor; listed values are stored as the dtype rounded them.
        exact = all(
            a == b or (math.isnan(a) and math.isnan(b))
            for a, b in zip(t.double().tolist(), vals)
        )
        assert exact or "arange" not in c, c["name"]
    else:
        t = torch.tensor([int(v) for v in vals], dtype=dt)
    t = t.reshape(shape)
    if c.get("view") == "t":
        t = t.t()
    return t


def main():
    out = []
    for c in CASES:
        t = build(c)
        c = dict(c)
        if c.get("values") is not None:
            base = t.t() if c.get("view") == "t" else t
            c["values"] = [encode(v) for v in base.reshape(-1).tolist()]
        c["expected"] = repr(t)
        out.append(c)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "repr.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    torch.set_printoptions(profile="default")
    main()
