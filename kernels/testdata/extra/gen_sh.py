#!/usr/bin/python3
"""Extra conformance cases for the kernels of kernels/tensor_shape.go, indexing.go,
tensor_factories.go and tensor_conversions.go.

Writes aten.<op>.<overload>.jsonl beside this script, in the format of
testdata/conformance/README.md, with PyTorch 1.13 (Debian python3-torch):

    /usr/bin/python3 kernels/testdata/extra/gen_sh.py

The shared vectors use float32/float64/int64/int32/uint8/bool; these cases
add float16, bfloat16, int16 and int8, and the corners: arange long enough
to reach ATen's vectorized blocks (compared bit for bit: rtol = atol = 0),
float-to-integer casts out of range and of NaN, Scalar fills that wrap or
truncate, bool Scalars (which torch.ops passes as ints), cat's promotion
and legacy empty tensors, masks and non-adjacent advanced indices, 0-d
tensors.
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
MF = {torch.contiguous_format: "contiguous_format", torch.preserve_format: "preserve_format",
      torch.channels_last: "channels_last"}


def rand(dtype, shape, lo=-4.0, hi=4.0):
    """Random values of dtype in [lo, hi) (whole numbers for integer dtypes)."""
    if dtype == torch.bool:
        return torch.rand(shape) < 0.5
    if dtype.is_floating_point:
        return (torch.rand(shape, dtype=torch.float64) * (hi - lo) + lo).to(dtype)
    info = torch.iinfo(dtype)
    return torch.randint(max(int(lo), info.min), min(int(hi), info.max) + 1, shape, dtype=dtype)


def tolerance(op, outs):
    if op != "arange.start_step":
        return 0.0, 0.0
    return 0.0, 0.0  # arange is checked bit for bit


FILES = {}


def case(op, note, make, kinds=(), kwargs=None):
    """Adds a case of op ("view.default"): make() returns the positional
    arguments (drawn after the case's own manual_seed)."""
    name, overload = op.split(".")
    stem = f"aten.{op}"
    cases = FILES.setdefault(stem, [])
    torch.manual_seed(len(cases))
    args = make()
    kwargs = kwargs or {}
    fn = getattr(getattr(A, name), overload)
    out = fn(*args, **kwargs)
    outs = list(out) if isinstance(out, tuple) else [out]
    if isinstance(out, list):
        outs = [out]
    rtol, atol = tolerance(op, outs)
    kinds = list(kinds) + [None] * (len(args) - len(kinds))
    cases.append({
        "id": f"{stem}/{len(cases)}",
        "op": f"aten::{op}",
        "schema": str(fn._schema),
        "args": [enc(a, k) for a, k in zip(args, kinds)],
        "kwargs": {k: enc(v) for k, v in kwargs.items()},
        "outputs": [enc(o, "tensors" if isinstance(o, list) else None) for o in outs],
        "rtol": rtol,
        "atol": atol,
        "note": note,
    })


NAN, INF = float("nan"), float("inf")
F16, BF16 = torch.float16, torch.bfloat16

# Views and shape ops over the dtypes the shared vectors miss.
case("view.default", "float16 [2,3,4] -> [4,-1]", lambda: (rand(F16, [2, 3, 4]), [4, -1]))
case("view.default", "int8 [6] -> [3,1,2]", lambda: (rand(torch.int8, [6]), [3, 1, 2]))
case("_unsafe_view.default", "bfloat16 [2,3] -> [6]", lambda: (rand(BF16, [2, 3]), [6]))
case("reshape.default", "int16 [4,3] -> [2,-1,3]", lambda: (rand(torch.int16, [4, 3]), [2, -1, 3]))
case("reshape.default", "empty int8 [0,4] -> [-1,2,2]", lambda: (rand(torch.int8, [0, 4]), [0, 2, 2]))
case("alias.default", "bfloat16", lambda: (rand(BF16, [3, 2]),))
case("expand.default", "float16 [1,3] -> [2,-1] with a new leading dim", lambda: (rand(F16, [1, 3]), [4, 2, -1]))
case("expand.default", "int8 [] -> [3]", lambda: (rand(torch.int8, []), [3]))
case("permute.default", "bfloat16 4-d", lambda: (rand(BF16, [2, 3, 1, 2]), [3, 1, 0, 2]))
case("permute.default", "int8 negative dims", lambda: (rand(torch.int8, [2, 3]), [-1, -2]))
case("t.default", "float16 [2,3]", lambda: (rand(F16, [2, 3]),))
case("t.default", "int16 [1,4]", lambda: (rand(torch.int16, [1, 4]),))
case("transpose.int", "int8 3-d dims 0,-1", lambda: (rand(torch.int8, [2, 3, 4]), 0, -1))
case("transpose.int", "bfloat16 1-d 0,0", lambda: (rand(BF16, [5]), 0, 0))
case("unsqueeze.default", "float16 at the end", lambda: (rand(F16, [2, 3]), 2))
case("unsqueeze.default", "int8 0-d dim -1", lambda: (rand(torch.int8, []), -1))
case("squeeze.default", "bfloat16 [1,1,3,1]", lambda: (rand(BF16, [1, 1, 3, 1]),))
case("squeeze.dim", "int16 0-d dim -1", lambda: (rand(torch.int16, []), -1))
case("squeeze.dim", "float16 [2,1,1] dim -1", lambda: (rand(F16, [2, 1, 1]), -1))
case("select.int", "float16 [3,4] dim 1 index -4", lambda: (rand(F16, [3, 4]), 1, -4))
case("select.int", "int8 3-d dim -1", lambda: (rand(torch.int8, [2, 3, 4]), -1, 3))
case("slice.Tensor", "bfloat16 defaults (dim 0, start None, end None)", lambda: (rand(BF16, [4, 2]),))
case("slice.Tensor", "int16 end=INT64_MAX step 3", lambda: (rand(torch.int16, [2, 8]), 1, 1, 2**63 - 1, 3))
case("slice.Tensor", "int8 step larger than the size", lambda: (rand(torch.int8, [5]), 0, 1, None, 100))
case("slice.Tensor", "float16 both negative", lambda: (rand(F16, [6, 2]), 0, -5, -1, 2))
case("slice.Tensor", "float32 empty dim", lambda: (rand(torch.float32, [0, 3]), 0, 1, 5))
case("flatten.using_ints", "float16 start=end", lambda: (rand(F16, [2, 3, 4]), 1, 1))
case("flatten.using_ints", "int8 0-d start -1 end 0", lambda: (rand(torch.int8, []), -1, 0))
case("flatten.using_ints", "bfloat16 end -2", lambda: (rand(BF16, [2, 3, 4]), 0, -2))
case("split.Tensor", "float16 split 3 of 7, dim 1", lambda: (rand(F16, [2, 7]), 3, 1))
case("split.Tensor", "int8 split size 0 on an empty dim", lambda: (rand(torch.int8, [0, 2]), 0))
case("split.Tensor", "bfloat16 split 1", lambda: (rand(BF16, [3]), 1))
case("split_with_sizes.default", "float16 [0,3,0] dim 1", lambda: (rand(F16, [2, 3]), [0, 3, 0], 1))
case("split_with_sizes.default", "int16 empty list on an empty dim", lambda: (rand(torch.int16, [0, 2]), []))

# cat: promotion, legacy empty tensors.
case("cat.default", "bool + int8 -> int8", lambda: ([rand(torch.bool, [2, 2]), rand(torch.int8, [1, 2])],), kinds=["tensors"])
case("cat.default", "uint8 + int8 -> int16", lambda: ([rand(torch.uint8, [3], 0, 255), rand(torch.int8, [2], -128, 127)],), kinds=["tensors"])
case("cat.default", "float16 + bfloat16 -> float32", lambda: ([rand(F16, [2]), rand(BF16, [3])],), kinds=["tensors"])
case("cat.default", "int64 + float16 -> float16", lambda: ([rand(torch.int64, [2, 1]), rand(F16, [2, 2])], 1), kinds=["tensors"])
case("cat.default", "legacy float64[0] still promotes", lambda: ([rand(torch.float32, [2, 3]), rand(torch.float64, [0])], 1), kinds=["tensors"])
case("cat.default", "only legacy [0] tensors, dim ignored", lambda: ([rand(torch.float32, [0]), rand(torch.int64, [0])], 3), kinds=["tensors"])
case("cat.default", "legacy first, dim -1 wraps on the 3-d ones", lambda: ([rand(torch.int16, [0]), rand(torch.int16, [2, 1, 2]), rand(torch.int16, [2, 1, 3])], -1), kinds=["tensors"])
case("cat.default", "empty [2,0] members", lambda: ([rand(BF16, [2, 0]), rand(BF16, [2, 2]), rand(BF16, [2, 0])], 1), kinds=["tensors"])

# clone, _to_copy.
case("clone.default", "float16", lambda: (rand(F16, [2, 3]),))
case("clone.default", "int8 channels_last 4-d", lambda: (rand(torch.int8, [1, 2, 2, 3]),), kwargs={"memory_format": torch.channels_last})
case("clone.default", "bfloat16 preserve_format", lambda: (rand(BF16, [3]),), kwargs={"memory_format": torch.preserve_format})
SPECIAL = [NAN, INF, -INF, 3e9, -3e9, 5e9, 1e19, -1e19, 300.7, -1.5, -200.5, 65537.9, 40000.3, -129.9, 2.5, -0.0, 127.99]
for dt in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool):
    case("_to_copy.default", f"float32 specials -> {DT[dt]} (x86 casts)",
         lambda: (torch.tensor(SPECIAL, dtype=torch.float32),), kwargs={"dtype": dt})
case("_to_copy.default", "float64 specials -> int16", lambda: (torch.tensor(SPECIAL, dtype=torch.float64),), kwargs={"dtype": torch.int16})
case("_to_copy.default", "float16 specials -> int32", lambda: (torch.tensor(SPECIAL, dtype=torch.float16),), kwargs={"dtype": torch.int32})
case("_to_copy.default", "float64 -> float16 (through float: double rounding)",
     lambda: (torch.tensor([1e5, 65519.99, 65520.0, 1e-8, 2.9802322387695312e-08, 2.980232238769532e-08, -7e-5, NAN], dtype=torch.float64),),
     kwargs={"dtype": F16})
case("_to_copy.default", "float64 -> bfloat16",
     lambda: (torch.tensor([1e39, 3.3895313892515355e+38, 1.0039062500000002, 1.00390625, -2.5e-40, NAN], dtype=torch.float64),),
     kwargs={"dtype": BF16})
case("_to_copy.default", "int64 -> int8 wraps",
     lambda: (torch.tensor([3000000000, -3000000000, 2**40 + 5, 300, -1, 2**62], dtype=torch.int64),), kwargs={"dtype": torch.int8})
case("_to_copy.default", "int64 -> float16 overflow", lambda: (torch.tensor([70000, -65519, 65520, 2049], dtype=torch.int64),), kwargs={"dtype": F16})
case("_to_copy.default", "int64 -> float32 round to nearest even",
     lambda: (torch.tensor([2**24 + 1, 2**24 + 3, 2**63 - 1, -(2**53) - 1], dtype=torch.int64),), kwargs={"dtype": torch.float32})
case("_to_copy.default", "bool -> int8 with layout, device, memory_format",
     lambda: (rand(torch.bool, [2, 3]),),
     kwargs={"dtype": torch.int8, "layout": torch.strided, "device": torch.device("cpu"), "memory_format": torch.contiguous_format})
case("_to_copy.default", "bfloat16 -> float16", lambda: (rand(BF16, [5], -1e5, 1e5),), kwargs={"dtype": F16})

# flip, repeat.
case("flip.default", "float16 dims [-1, 0]", lambda: (rand(F16, [2, 3, 4]), [-1, 0]))
case("flip.default", "int8 0-d dims [0]", lambda: (rand(torch.int8, []), [0]))
case("flip.default", "bfloat16 all dims of 4-d", lambda: (rand(BF16, [2, 1, 3, 2]), [0, 1, 2, 3]))
case("repeat.default", "bfloat16 leading repeats", lambda: (rand(BF16, [2, 1]), [2, 3, 2]))
case("repeat.default", "int8 0-d with no repeats", lambda: (rand(torch.int8, []), []))
case("repeat.default", "bool [2] x [0, 3]", lambda: (rand(torch.bool, [2]), [3, 0]))

# Indexing.
L = lambda *v: torch.tensor(v, dtype=torch.int64)  # noqa: E731
case("gather.default", "float16 dim 0", lambda: (rand(F16, [3, 2]), 0, torch.randint(0, 3, [4, 2])))
case("gather.default", "0-d self and index", lambda: (rand(torch.int8, []), 0, L(0)[0]))
case("gather.default", "0-d self, 1-d index", lambda: (rand(BF16, []), -1, L(0, 0, 0)))
case("gather.default", "1-d self, 0-d index", lambda: (rand(torch.int16, [4]), 0, L(3)[0]))
case("gather.default", "empty index of another rank", lambda: (rand(torch.float32, [2, 3]), 1, torch.zeros(0, dtype=torch.int64)))
case("gather.default", "sparse_grad", lambda: (rand(torch.float64, [2, 3]), 1, torch.randint(0, 3, [2, 5])), kwargs={"sparse_grad": True})
case("index.Tensor", "uint8 mask", lambda: (rand(F16, [3, 2]), [torch.tensor([1, 0, 2], dtype=torch.uint8)]), kinds=[None, "optional_tensors"])
case("index.Tensor", "2-d bool mask", lambda: (rand(torch.int8, [3, 4]), [rand(torch.bool, [3, 4])]), kinds=[None, "optional_tensors"])
case("index.Tensor", "2-d mask after None", lambda: (rand(torch.int16, [2, 3, 2]), [None, rand(torch.bool, [3, 2])]), kinds=[None, "optional_tensors"])
case("index.Tensor", "mask and int index broadcast", lambda: (rand(BF16, [3, 4]), [torch.tensor([True, False, True]), L(1, -1)]), kinds=[None, "optional_tensors"])
case("index.Tensor", "[None, idx, None, idx]: non-adjacent, 4-d", lambda: (rand(torch.float32, [2, 3, 4, 5]), [None, L(0, 2, 1), None, torch.tensor([[1], [4]])]), kinds=[None, "optional_tensors"])
case("index.Tensor", "[None, idx, idx] adjacent after None, 4-d", lambda: (rand(torch.float64, [2, 3, 4, 5]), [None, L(0, -1), torch.tensor([[1], [3]])]), kinds=[None, "optional_tensors"])
case("index.Tensor", "[idx, None] trailing None", lambda: (rand(torch.int64, [3, 2]), [L(2, 0, 2, 1), None]), kinds=[None, "optional_tensors"])
case("index.Tensor", "two 0-d indices", lambda: (rand(F16, [3, 4]), [L(2)[0], L(-1)[0]]), kinds=[None, "optional_tensors"])
case("index.Tensor", "empty index tensor", lambda: (rand(torch.uint8, [3, 4], 0, 255), [None, torch.zeros(0, 2, dtype=torch.int64)]), kinds=[None, "optional_tensors"])
case("index.Tensor", "empty self, index into the non-empty dim", lambda: (rand(torch.float32, [0, 4]), [None, L(3, 1)]), kinds=[None, "optional_tensors"])
case("index.Tensor", "all-false mask", lambda: (rand(torch.float32, [3, 2]), [torch.zeros(3, dtype=torch.bool)]), kinds=[None, "optional_tensors"])
case("index_select.default", "float16 dim 0", lambda: (rand(F16, [4, 2]), 0, L(3, 3, 0)))
case("index_select.default", "0-d self, 1-element index", lambda: (rand(torch.int8, []), 0, L(0)))
case("index_select.default", "0-d self, 0-d index", lambda: (rand(BF16, []), -1, L(0)[0]))
case("index_select.default", "int32 index dim -1", lambda: (rand(torch.int16, [2, 3, 4]), -1, torch.tensor([3, 0], dtype=torch.int32)))
case("index_select.default", "empty self on another dim", lambda: (rand(torch.float32, [0, 3]), 1, L(2, 0)))

# constant_pad_nd.
case("constant_pad_nd.default", "float16 value 1.5", lambda: (rand(F16, [2, 2]), [1, 0, 0, 2], 1.5))
case("constant_pad_nd.default", "int8 value -128 (the minimum)", lambda: (rand(torch.int8, [3]), [2, 1], -128))
case("constant_pad_nd.default", "uint8 value -1 wraps to 255", lambda: (rand(torch.uint8, [2, 2], 0, 255), [1, 1], -1))
case("constant_pad_nd.default", "int64 float value truncates", lambda: (rand(torch.int64, [2]), [1, 1], -2.7))
case("constant_pad_nd.default", "bool value True", lambda: (rand(torch.bool, [3]), [1, 2], True))
case("constant_pad_nd.default", "crop to an empty dim", lambda: (rand(torch.float32, [2, 3]), [-1, -2]))
case("constant_pad_nd.default", "crop one side, pad the other, nan", lambda: (rand(BF16, [2, 4]), [-3, 2], NAN))
case("constant_pad_nd.default", "0-d, no pads", lambda: (rand(torch.float64, []), []))
case("constant_pad_nd.default", "empty leading dim, pad last", lambda: (rand(torch.int16, [0, 2]), [1, 1], 5))

# Factories.
case("full.default", "float16 fill", lambda: ([2, 2], 0.1), kwargs={"dtype": F16})
case("full.default", "uint8 fill -1 wraps", lambda: ([3], -1), kwargs={"dtype": torch.uint8})
case("full.default", "bool fill (torch.ops passes it as an int) -> int64", lambda: ([2], True))
case("full.default", "bool dtype from 2.5", lambda: ([2], 2.5), kwargs={"dtype": torch.bool})
case("full.default", "int8 from float truncates", lambda: ([2], -7.9), kwargs={"dtype": torch.int8})
case("full.default", "bfloat16 nan", lambda: ([1, 2], NAN), kwargs={"dtype": BF16})
case("full.default", "int fill to float32 rounds", lambda: ([1], 16777217), kwargs={"dtype": torch.float32})
case("full_like.default", "float16 like, fill -inf", lambda: (rand(F16, [2]), -INF))
case("full_like.default", "bool like, fill 5", lambda: (rand(torch.bool, [2, 2]), 5))
case("full_like.default", "int8 like, dtype bfloat16", lambda: (rand(torch.int8, [3]), 7), kwargs={"dtype": BF16})
case("full_like.default", "channels_last 4-d", lambda: (rand(torch.float32, [1, 2, 1, 2]), 2.0), kwargs={"memory_format": torch.channels_last})
for op in ("zeros_like.default", "ones_like.default"):
    case(op, "bfloat16", lambda: (rand(BF16, [2, 3]),))
    case(op, "int8 like, dtype bool", lambda: (rand(torch.int8, [2]),), kwargs={"dtype": torch.bool})
    case(op, "uint8 0-d", lambda: (rand(torch.uint8, [], 0, 255),))
    case(op, "float16 like, dtype int16, layout/device/pin_memory", lambda: (rand(F16, [3]),),
         kwargs={"dtype": torch.int16, "layout": torch.strided, "device": torch.device("cpu"), "pin_memory": False})
case("scalar_tensor.default", "bool True -> float32", lambda: (True,))
case("scalar_tensor.default", "float16 rounding", lambda: (0.1,), kwargs={"dtype": F16})
case("scalar_tensor.default", "int8 from int", lambda: (-128,), kwargs={"dtype": torch.int8})
case("scalar_tensor.default", "bfloat16 from a large int", lambda: (123456789,), kwargs={"dtype": BF16})
case("scalar_tensor.default", "bool from 0.0", lambda: (0.0,), kwargs={"dtype": torch.bool})
case("scalar_tensor.default", "int64 from a large float", lambda: (-9.2e18,), kwargs={"dtype": torch.int64})

# arange: long enough for the vectorized blocks; compared bit for bit.
for s, e, st in [(0.0, 10.0, 0.1), (-3.3, 7.7, 0.037), (5.0, -5.0, -0.13), (0.3, 10.1, 0.0623)]:
    case("arange.start_step", f"float32 ({s}, {e}, {st})", lambda: (s, e, st))
for s, e, st in [(0.0, 10.0, 0.1), (-3.3, 7.7, 0.037), (1e10, 1e10 + 7, 0.061)]:
    case("arange.start_step", f"float64 ({s}, {e}, {st})", lambda: (s, e, st), kwargs={"dtype": torch.float64})
case("arange.start_step", "float16 (-1, 1, 0.013)", lambda: (-1.0, 1.0, 0.013), kwargs={"dtype": F16})
case("arange.start_step", "bfloat16 (-2.5, 3, 0.07)", lambda: (-2.5, 3.0, 0.07), kwargs={"dtype": BF16})
case("arange.start_step", "float16 ints (0, 3000, 7)", lambda: (0, 3000, 7), kwargs={"dtype": F16})
case("arange.start_step", "int32 from floats (start, step truncated; size from the floats)", lambda: (0.5, 5.5, 1.5), kwargs={"dtype": torch.int32})
case("arange.start_step", "int64 from floats (size from the truncated values)", lambda: (0.5, 5.5, 1.5), kwargs={"dtype": torch.int64})
case("arange.start_step", "uint8 wraps (-3, 3)", lambda: (-3, 3, 1), kwargs={"dtype": torch.uint8})
case("arange.start_step", "int8 wraps (0, 300, 100)", lambda: (0, 300, 100), kwargs={"dtype": torch.int8})
case("arange.start_step", "int16 negative step", lambda: (7, -8, -3), kwargs={"dtype": torch.int16})
case("arange.start_step", "bool scalars -> int64", lambda: (False, True, True))
case("arange.start_step", "float step with int bounds -> float32, one vector block", lambda: (0, 17, 1.0))

for stem, cases in FILES.items():
    with open(os.path.join(OUT, f"{stem}.jsonl"), "w") as f:
        for c in cases:
            f.write(json.dumps(c) + "\n")
