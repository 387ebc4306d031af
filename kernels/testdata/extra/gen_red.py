#!/usr/bin/python3
"""Generate extra conformance cases for gofx's reduction, softmax and
normalization kernels (kernels/reduce_ops.go, softmax.go,
tensor_compare.go, normalization.go, layer_norm.go, group_norm.go) with PyTorch 1.13.

The cases cover corners the shared vectors miss: other dtypes (float16,
bfloat16, int8/16/32, uint8), 0-d and empty tensors, dim lists, keepdim,
dtype arguments, NaN and infinities. The format is exactly that of
../../../testdata/conformance (see its README.md). Run from this directory:

    /usr/bin/python3 gen_red.py
"""

import json
import os

import torch

from confgen import enc, enc_float, enc_tensor  # noqa: F401

torch.set_num_threads(1)
A = torch.ops.aten
HERE = os.path.dirname(os.path.abspath(__file__))

DTYPE_NAMES = {
    torch.float32: "float32", torch.float64: "float64", torch.float16: "float16",
    torch.bfloat16: "bfloat16", torch.int64: "int64", torch.int32: "int32",
    torch.int16: "int16", torch.int8: "int8", torch.uint8: "uint8", torch.bool: "bool",
}

# (rtol, atol) by op kind and floating output dtype; float16/bfloat16 are
# ours (the shared README lists float32/float64 only).
TOL = {
    "accum": {torch.float32: (1e-4, 1e-4), torch.float64: (1e-7, 1e-7),
              torch.float16: (2e-3, 1e-3), torch.bfloat16: (1.6e-2, 1e-2)},
    "select": {},
}


def tolerance(kind, outs):
    rtol, atol = 0.0, 0.0
    for o in outs:
        if o.dtype.is_floating_point and kind in TOL and o.dtype in TOL[kind]:
            r, a = TOL[kind][o.dtype]
            rtol, atol = max(rtol, r), max(atol, a)
    return rtol, atol


def clone(v):
    return v.clone() if isinstance(v, torch.Tensor) else v


def op_of(name):
    ns_name, overload = name.split(".", 1) if "." in name else (name, "default")
    return getattr(getattr(A, ns_name), overload)


def write(name, kind, cases):
    """cases: list of (note, make) with make() -> (args, kwargs)."""
    op = op_of(name)
    stem = "aten." + name + ("" if "." in name else ".default")
    opname = "aten::" + (name if "." in name else name + ".default")
    lines = []
    for i, (note, make) in enumerate(cases):
        torch.manual_seed(i)
        args, kwargs = make()
        stored_args = [clone(a) for a in args]
        stored_kwargs = {k: clone(v) for k, v in kwargs.items()}
        with torch.no_grad():
            out = op(*args, **kwargs)
        outs = list(out) if isinstance(out, tuple) else [out]
        rtol, atol = tolerance(kind, outs)
        lines.append(json.dumps({
            "id": f"{stem}/{i}",
            "op": opname,
            "schema": str(op._schema),
            "args": [enc(a) for a in stored_args],
            "kwargs": {k: enc(v) for k, v in stored_kwargs.items()},
            "outputs": [enc(o) for o in outs],
            "rtol": rtol, "atol": atol, "note": note,
        }))
    path = os.path.join(HERE, stem + ".jsonl")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{path}: {len(lines)} cases")


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


def randint(lo, hi, *shape, dtype=torch.int64):
    return torch.randint(lo, hi, shape).to(dtype)


NAN, INF = float("nan"), float("inf")

write("sum", "accum", [
    ("int8 -> int64", lambda: ([randint(-128, 128, 4, 5, dtype=torch.int8)], {})),
    ("uint8 -> int64", lambda: ([randint(0, 256, 7, dtype=torch.uint8)], {})),
    ("bfloat16", lambda: ([randn(3, 5, dtype=torch.bfloat16)], {})),
    ("float16", lambda: ([randn(4, 6, dtype=torch.float16)], {})),
    ("dtype=int8 wraps", lambda: ([torch.tensor([100, 100, 100], dtype=torch.int8)], {"dtype": torch.int8})),
    ("float32 with dtype=int64 truncates first", lambda: ([torch.tensor([0.5, 0.7, 1.9, -1.5])], {"dtype": torch.int64})),
    ("float64 with inf", lambda: ([torch.tensor([1.0, INF, 2.0], dtype=torch.float64)], {})),
    ("int32 with dtype=float64", lambda: ([randint(-1000, 1000, 3, 4, dtype=torch.int32)], {"dtype": torch.float64})),
])

write("sum.dim_IntList", "accum", [
    ("dim [] keepdim reduces all", lambda: ([randn(2, 3), [], True], {})),
    ("0-d dim [0]", lambda: ([torch.tensor(2.5), [0]], {})),
    ("0-d dim [-1] keepdim", lambda: ([torch.tensor(-1.5), [-1], True], {})),
    ("int32 dims [0,-1] keepdim", lambda: ([randint(-50, 50, 2, 3, 4, dtype=torch.int32), [0, -1], True], {})),
    ("float dtype=bool is any", lambda: ([torch.tensor([[0.0, 2.0, 0.0], [0.0, 0.0, 0.0]]), [1]], {"dtype": torch.bool})),
    ("float16 dims [1,2]", lambda: ([randn(2, 3, 4, dtype=torch.float16), [2, 1]], {})),
    ("empty dim None keepdim", lambda: ([torch.zeros(0, 3), None, True], {})),
    ("int16 dim [1]", lambda: ([randint(-30000, 30000, 3, 5, dtype=torch.int16), [1]], {})),
])

write("mean.dim", "accum", [
    ("bfloat16 dim [1]", lambda: ([randn(3, 7, dtype=torch.bfloat16), [1]], {})),
    ("float16 all dims", lambda: ([randn(4, 5, dtype=torch.float16), None], {})),
    ("int64 with dtype=float32", lambda: ([randint(-9, 9, 3, 4), [1]], {"dtype": torch.float32})),
    ("float16 with dtype=float64", lambda: ([randn(3, 4, dtype=torch.float16), [0]], {"dtype": torch.float64})),
    ("dim [] keepdim", lambda: ([randn(2, 3), [], True], {})),
    ("0-d", lambda: ([torch.tensor(3.25, dtype=torch.float64), [0]], {})),
    ("empty all dims -> nan", lambda: ([torch.zeros(0, 3), None], {})),
    ("nan and inf", lambda: ([torch.tensor([[1.0, NAN], [INF, 1.0], [INF, -INF]]), [1]], {})),
])

write("prod.dim_int", "accum", [
    ("int32 -> int64 no overflow", lambda: ([torch.tensor([[70000, 70000, 3]], dtype=torch.int32), 1], {})),
    ("int8 dtype=int8 wraps", lambda: ([torch.tensor([16, 16, 3], dtype=torch.int8), 0], {"dtype": torch.int8})),
    ("0-d", lambda: ([torch.tensor(2.5), -1, True], {})),
    ("uint8 -> int64", lambda: ([randint(0, 6, 3, 4, dtype=torch.uint8), 0], {})),
    ("dtype=bool is all", lambda: ([torch.tensor([[1.0, 2.0], [0.0, 3.0]]), 1], {"dtype": torch.bool})),
    ("float16 with dtype=float32", lambda: ([randn(3, 4, dtype=torch.float16), 1], {"dtype": torch.float32})),
    ("float16 empty -> ones", lambda: ([torch.zeros(0, 3, dtype=torch.float16), 0], {})),
    ("int64 wraps", lambda: ([torch.tensor([2**40, 2**40, 3]), 0], {})),
])

write("var.correction", "accum", [
    ("float16", lambda: ([randn(3, 6, dtype=torch.float16), [1]], {"correction": 1})),
    ("bfloat16 all, correction None", lambda: ([randn(4, 5, dtype=torch.bfloat16), None], {"correction": None})),
    ("0-d correction 0", lambda: ([torch.tensor(2.0), None], {"correction": 0})),
    ("correction > N -> inf", lambda: ([randn(2, 3), [1]], {"correction": 5})),
    ("correction -1", lambda: ([randn(2, 3, dtype=torch.float64), [-1]], {"correction": -1})),
    ("dim [] keepdim", lambda: ([randn(2, 3), []], {"correction": 1, "keepdim": True})),
    ("empty reduction -> nan", lambda: ([torch.zeros(0, 3), [0]], {"correction": 1})),
    ("large offset float64", lambda: ([randn(3, 8, dtype=torch.float64) + 1e6, [1]], {"correction": 1})),
])

for name, in [("amax",), ("amin",)]:
    write(name, "select", [
        ("int8", lambda: ([randint(-128, 128, 3, 5, dtype=torch.int8), [1]], {})),
        ("uint8 keepdim", lambda: ([randint(0, 256, 3, 5, dtype=torch.uint8), [0], True], {})),
        ("int16 all", lambda: ([randint(-999, 999, 2, 3, dtype=torch.int16)], {})),
        ("float16 nan row", lambda: ([torch.tensor([[1.0, NAN, 2.0], [NAN, NAN, NAN], [-INF, 0.5, INF]]).half(), [1]], {})),
        ("bfloat16 dims [0,2]", lambda: ([randn(2, 3, 4, dtype=torch.bfloat16), [0, 2]], {})),
        ("0-d dim [-1] keepdim", lambda: ([torch.tensor(7, dtype=torch.int32), [-1], True], {})),
        ("int64 beyond 2^53", lambda: ([torch.tensor([2**62 + 1, 2**62, -(2**62) - 1]), [0]], {})),
    ])

write("any.dim", "select", [
    ("int8", lambda: ([torch.tensor([[0, 0, -1], [0, 0, 0]], dtype=torch.int8), 1], {})),
    ("float16 nan", lambda: ([torch.tensor([[0.0, NAN], [0.0, -0.0]]).half(), 1], {})),
    ("bfloat16 keepdim", lambda: ([torch.tensor([[0.0, 1.0], [0.0, 0.0]]).bfloat16(), 0, True], {})),
    ("uint8 keepdim", lambda: ([torch.tensor([[0, 7], [0, 0]], dtype=torch.uint8), -1, True], {})),
    ("uint8 0-d", lambda: ([torch.tensor(5, dtype=torch.uint8), 0], {})),
    ("uint8 empty", lambda: ([torch.zeros(0, 3, dtype=torch.uint8), 0], {})),
    ("int16 3-d", lambda: ([randint(-1, 2, 2, 3, 4, dtype=torch.int16), 1], {})),
])

for name in ["argmax", "argmin"]:
    write(name, "select", [
        ("int8", lambda: ([randint(-3, 3, 3, 6, dtype=torch.int8), 1], {})),
        ("uint8 flattened", lambda: ([randint(0, 4, 3, 4, dtype=torch.uint8)], {})),
        ("float16 nan first", lambda: ([torch.tensor([[NAN, 1.0, NAN], [2.0, 2.0, -INF]]).half(), 1], {})),
        ("bfloat16 keepdim", lambda: ([randn(2, 3, 4, dtype=torch.bfloat16), 0, True], {})),
        ("0-d dim 0 keepdim", lambda: ([torch.tensor(3.0), 0, True], {})),
        ("dim None keepdim 3-d", lambda: ([randn(2, 3, 4), None, True], {})),
        ("all -inf ties", lambda: ([torch.full((2, 3), -INF), 1], {})),
        ("empty non-reduced dim", lambda: ([torch.zeros(0, 3), 1], {})),
    ])

for name in ["max.dim", "min.dim"]:
    write(name, "select", [
        ("bool", lambda: ([torch.tensor([[False, True, True], [False, False, False]]), 1], {})),
        ("uint8 keepdim", lambda: ([randint(0, 4, 3, 5, dtype=torch.uint8), 0, True], {})),
        ("int8 ties", lambda: ([randint(-2, 2, 3, 6, dtype=torch.int8), 1], {})),
        ("bfloat16", lambda: ([randn(2, 5, dtype=torch.bfloat16), -1], {})),
        ("float16 nan", lambda: ([torch.tensor([[1.0, NAN, NAN], [INF, INF, 0.0]]).half(), 1], {})),
        ("0-d dim -1 keepdim", lambda: ([torch.tensor(2, dtype=torch.int32), -1, True], {})),
        ("int64 beyond 2^53", lambda: ([torch.tensor([[2**62 + 1, 2**62 + 3, 2**62 + 2]]), 1], {})),
    ])

write("cumsum", "accum", [
    ("int8 -> int64", lambda: ([torch.tensor([100, 100, 100], dtype=torch.int8), 0], {})),
    ("int8 dtype=int8 wraps", lambda: ([torch.tensor([100, 100, 100], dtype=torch.int8), 0], {"dtype": torch.int8})),
    ("uint8 dim 0", lambda: ([randint(0, 256, 3, 4, dtype=torch.uint8), 0], {})),
    ("bfloat16", lambda: ([randn(3, 6, dtype=torch.bfloat16), 1], {})),
    ("float16 dtype=float32", lambda: ([randn(2, 5, dtype=torch.float16), -1], {"dtype": torch.float32})),
    ("float32 dtype=int32 truncates first", lambda: ([torch.tensor([0.5, 1.7, -2.5, 3.9]), 0], {"dtype": torch.int32})),
    ("0-d int", lambda: ([torch.tensor(4, dtype=torch.int16), -1], {})),
    ("empty float16", lambda: ([torch.zeros(0, 3, dtype=torch.float16), 0], {})),
    ("3-d dim 1 with inf", lambda: ([torch.tensor([[[1.0, INF], [2.0, -INF], [3.0, 1.0]]]), 1], {})),
])

for name in ["_softmax", "_log_softmax"]:
    write(name, "accum", [
        ("bfloat16", lambda: ([randn(3, 5, dtype=torch.bfloat16), 1, False], {})),
        ("bfloat16 dim 0", lambda: ([randn(3, 4, dtype=torch.bfloat16), 0, False], {})),
        ("float64 3-d dim 1", lambda: ([randn(2, 3, 4, dtype=torch.float64), 1, False], {})),
        ("all -inf row -> nan, inf -> nan", lambda: ([torch.tensor([[-INF, -INF, -INF], [INF, 1.0, 2.0], [0.0, -INF, 1.0]]), 1, False], {})),
        ("empty int64 passes through", lambda: ([torch.zeros(0, 3, dtype=torch.int64), 1, False], {})),
        ("0-d float64", lambda: ([torch.tensor(3.0, dtype=torch.float64), -1, False], {})),
    ])

for name in ["softmax.int", "log_softmax.int"]:
    write(name, "accum", [
        ("int64 with dtype=float32", lambda: ([randint(-3, 3, 3, 4), 1, torch.float32], {})),
        ("float32 with dtype=bfloat16", lambda: ([randn(2, 5), -1, torch.bfloat16], {})),
        ("float16 with dtype=float64", lambda: ([randn(2, 3, dtype=torch.float16), 0, torch.float64], {})),
        ("bfloat16 3-d dim 1", lambda: ([randn(2, 3, 2, dtype=torch.bfloat16), 1], {})),
        ("empty float16", lambda: ([torch.zeros(0, 3, dtype=torch.float16), 1], {})),
    ])

# bfloat16 layer norm is left out: ATen 1.13 computes its moments and output
# in bfloat16 arithmetic (every operation rounded), which gofx does not mimic.
write("native_layer_norm", "accum", [
    ("3 normalized dims", lambda: ([randn(2, 2, 3, 4), [2, 3, 4], randn(2, 3, 4), None, 1e-5], {})),
    ("bias only float64", lambda: ([randn(3, 5, dtype=torch.float64), [5], None, randn(5, dtype=torch.float64), 1e-3], {})),
    ("constant rows eps=0 -> nan", lambda: ([torch.ones(2, 3), [3], None, None, 0.0], {})),
    ("empty normalized dim", lambda: ([torch.zeros(2, 0), [0], None, None, 1e-5], {})),
    ("offset rows", lambda: ([randn(3, 16) + 10.0, [16], None, None, 1e-5], {})),
])

write("layer_norm", "accum", [
    ("defaults, 3-d", lambda: ([randn(2, 3, 4), [3, 4]], {})),
    ("empty normalized dim", lambda: ([torch.zeros(2, 0), [0], None, None, 1e-5, False], {})),
])

write("native_group_norm", "accum", [
    ("bfloat16", lambda: ([randn(2, 4, 3, dtype=torch.bfloat16), randn(4, dtype=torch.bfloat16), randn(4, dtype=torch.bfloat16), 2, 4, 3, 2, 1e-5], {})),
    ("C argument differs from input dim 1", lambda: ([randn(2, 6, 4), randn(4), randn(4), 2, 4, 6, 2, 1e-5], {})),
    ("HxW=0", lambda: ([torch.zeros(2, 6, 0), None, None, 2, 6, 0, 3, 1e-5], {})),
    ("N=0", lambda: ([torch.zeros(0, 6, 4), None, None, 0, 6, 4, 3, 1e-5], {})),
    ("constant groups eps=0", lambda: ([torch.ones(1, 6, 4), None, None, 1, 6, 4, 3, 0.0], {})),
    ("weight only float64 5-d", lambda: ([randn(2, 4, 2, 2, 2, dtype=torch.float64), randn(4, dtype=torch.float64), None, 2, 4, 8, 4, 1e-5], {})),
])

write("native_batch_norm", "accum", [
    ("bfloat16 with float32 params (mixed), training", lambda: ([randn(3, 2, 4, dtype=torch.bfloat16), randn(2), randn(2), torch.zeros(2), torch.ones(2), True, 0.1, 1e-5], {})),
    ("bfloat16 with float32 params, eval", lambda: ([randn(3, 2, 4, dtype=torch.bfloat16), randn(2), randn(2), randn(2), torch.rand(2) + 0.5, False, 0.1, 1e-5], {})),
    ("bfloat16 all bfloat16, training no stats", lambda: ([randn(4, 3, dtype=torch.bfloat16), None, None, None, None, True, 0.1, 1e-5], {})),
    ("training eps=0 constant -> invstd 0", lambda: ([torch.ones(2, 3), None, None, None, None, True, 0.1, 0.0], {})),
    ("eval eps=0 zero var -> nan", lambda: ([torch.ones(2, 3), None, None, torch.zeros(3), torch.zeros(3), False, 0.1, 0.0], {})),
    ("one value per channel, training", lambda: ([randn(1, 3), randn(3), randn(3), torch.zeros(3), torch.ones(3), True, 0.1, 1e-5], {})),
    ("float64 5-d training", lambda: ([randn(2, 3, 2, 2, 2, dtype=torch.float64), randn(3, dtype=torch.float64), randn(3, dtype=torch.float64), torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64), True, 0.2, 1e-5], {})),
])

write("batch_norm", "accum", [
    ("empty input with weight and bias", lambda: ([torch.zeros(0, 3), randn(3), randn(3), torch.zeros(3), torch.ones(3), True, 0.1, 1e-5, False], {})),
    ("empty int64 input with float weight -> float32", lambda: ([torch.zeros(0, 3, dtype=torch.int64), randn(3), None, None, None, True, 0.1, 1e-5, False], {})),
    ("bfloat16 with float32 params, training", lambda: ([randn(4, 2, 3, dtype=torch.bfloat16), randn(2), randn(2), torch.zeros(2), torch.ones(2), True, 0.1, 1e-5, True], {})),
    ("training, running_var only", lambda: ([randn(4, 3), None, None, None, torch.ones(3), True, 0.1, 1e-5, False], {})),
    ("float64 eval", lambda: ([randn(2, 3, 4, dtype=torch.float64), randn(3, dtype=torch.float64), None, randn(3, dtype=torch.float64), torch.rand(3, dtype=torch.float64) + 0.5, False, 0.1, 1e-5, False], {})),
])
