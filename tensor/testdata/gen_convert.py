"""Generates convert.json: Tensor.to between every pair of dtypes.

Run from the repository root with /usr/bin/python3 tensor/testdata/gen_convert.py.
For each source dtype it lists edge values (as the source dtype holds them)
and, for every destination dtype, what torch's .to() gives. Non-finite
floats and negative zero are written as "nan", "inf", "-inf", "-0".
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

FLOATS = [
    0.0, -0.0, 0.5, -0.5, 0.9999, 1.5, -1.5, 2.5, -2.7, 127.9, 128.0, 255.9,
    256.0, 300.0, -1.0, -128.5, -129.0, 32767.5, 32768.0, -32769.0, 65504.0,
    65519.0, 65520.0, 1e10, -1e10, 3e9, 2.0**31, -(2.0**31), -(2.0**31) - 1,
    2.0**63, -(2.0**63), 1e19, 1e-8, 1e-40, 1 + 2.0**-11 + 2.0**-40,
    1 + 2.0**-8 + 2.0**-40, 3.4e38, 1e300, -1e300, 6e-8, float("nan"),
    float("inf"), float("-inf"),
]

INTS = [
    0, 1, -1, 7, 127, 128, 255, 256, -128, -129, 32767, 32768, -32769, 65535,
    2**31 - 1, 2**31, -(2**31) - 1, 2049, 2**24 + 1, 2**53 + 1, 2**63 - 1,
    -(2**63),
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


def main():
    torch.set_num_threads(1)
    out = []
    for name, dt in DT.items():
        if dt == torch.bool:
            src = torch.tensor([False, True])
        elif dt.is_floating_point:
            src = torch.tensor(FLOATS, dtype=torch.float64).to(dt)
        else:
            src = torch.tensor(INTS, dtype=torch.int64).to(dt)
        case = {"src": name, "values": [encode(v) for v in src.tolist()], "to": {}}
        for dname, ddt in DT.items():
            case["to"][dname] = [encode(v) for v in src.to(ddt).tolist()]
        out.append(case)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "convert.json")
    with open(path, "w") as f:
        json.dump(out, f)
        f.write("\n")


if __name__ == "__main__":
    main()
