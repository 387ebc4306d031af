"""Generates promote.json: torch.promote_types and torch.result_type.

Run from the repository root with /usr/bin/python3 ops/testdata/gen_promote.py.

"promote" is the full table of torch.promote_types over the ten dtypes.
"result_type" lists operand combinations and the dtype at::result_type
gives them. An operand is "T:<dtype>" (a tensor with dimensions),
"S:<dtype>" (a 0-d tensor) or "N:int", "N:float", "N:bool" (a Python
number, which ATen wraps). Pairs come from
torch.result_type; longer lists from torch._prims_common.elementwise_dtypes,
which the generator first checks against torch.result_type on every pair and
against torch.addcmul on the tensor triples.
"""

import itertools
import json
import os
import random

import torch
from torch._prims_common import ELEMENTWISE_TYPE_PROMOTION_KIND, elementwise_dtypes

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
NAME = {v: k for k, v in DT.items()}
NUMBERS = {"int": 3, "float": 2.5, "bool": True}


def operands():
    return ["T:" + d for d in DT] + ["S:" + d for d in DT] + ["N:" + n for n in NUMBERS]


def value(op):
    kind, name = op.split(":")
    if kind == "N":
        return NUMBERS[name]
    shape = (2,) if kind == "T" else ()
    return torch.zeros(shape, dtype=DT[name])


def prims_result(vals):
    return elementwise_dtypes(*vals, type_promotion_kind=ELEMENTWISE_TYPE_PROMOTION_KIND.DEFAULT)[1]


def main():
    promote = []
    for a in DT:
        for b in DT:
            promote.append([a, b, NAME[torch.promote_types(DT[a], DT[b])]])

    cases = []
    ops = operands()
    for op in ops:
        v = value(op)
        if isinstance(v, torch.Tensor):
            cases.append({"operands": [op], "want": NAME[prims_result([v])]})
    for a, b in itertools.product(ops, ops):
        va, vb = value(a), value(b)
        want = torch.result_type(va, vb)
        assert prims_result([va, vb]) == want, (a, b)
        cases.append({"operands": [a, b], "want": NAME[want]})

    rng = random.Random(3)
    tensor_ops = [op for op in ops if not op.startswith("N:")]
    for a, b, c in itertools.product(tensor_ops, repeat=3):
        if rng.random() > 0.05:
            continue
        vals = [value(a), value(b), value(c)]
        want = prims_result(vals)
        try:
            got = torch.addcmul(*vals).dtype
        except RuntimeError:
            got = None  # addcmul is not implemented for some dtypes (bool)
        assert got is None or got == want, (a, b, c, got, want)
        cases.append({"operands": [a, b, c], "want": NAME[want]})
    for _ in range(150):
        n = rng.choice([3, 4, 5])
        combo = [rng.choice(ops) for _ in range(n)]
        if all(op.startswith("N:") for op in combo):
            continue
        cases.append({"operands": combo, "want": NAME[prims_result([value(op) for op in combo])]})

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "promote.json")
    with open(path, "w") as f:
        # One entry a line, to keep diffs readable.
        f.write('{"promote": [\n')
        f.write(",\n".join(json.dumps(p) for p in promote))
        f.write('\n], "result_type": [\n')
        f.write(",\n".join(json.dumps(c) for c in cases))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
