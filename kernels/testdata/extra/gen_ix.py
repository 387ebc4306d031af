#!/usr/bin/python3
"""Extra conformance cases for the kernels of kernels/tensor_shape.go,
tensor_factories.go, fill.go, copy.go, resize.go, tensor_properties.go,
indexing.go and padding.go.

Writes aten.<op>.<overload>.jsonl beside this script, in the format of
testdata/conformance/README.md, with PyTorch 1.13 (Debian python3-torch):

    /usr/bin/python3 kernels/testdata/extra/gen_ix.py

The shared vectors have no case of these ops, so these are their check:
every dtype the ops accept, negative dims, 0-d and empty tensors,
duplicate scatter indices (later writes win; sums round after every
step), NaN in amax/amin, integer mean (floor division, wrapping counts),
index_put's masked_fill shortcut, reflection and replication padding with
negative (cropping) pads. All outputs are compared exactly (rtol = atol =
0): the kernels reproduce ATen's order of operations.

Not here: empty.memory_format and empty_strided (their values are
unspecified), resize_ growing its storage (the new elements are
uninitialized), squeeze.dims (newer than 1.13), and sym_size.int /
sym_stride.int with negative dims (PyTorch 1.13 neither wraps nor checks
the dim there and returns garbage); kernels/indexing_test.go covers them.
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
      torch.channels_last: "channels_last", torch.channels_last_3d: "channels_last_3d"}


def rand(dtype, shape, lo=-4.0, hi=4.0):
    """Random values of dtype in [lo, hi) (whole numbers for integer dtypes)."""
    if dtype == torch.bool:
        return torch.rand(shape) < 0.5
    if dtype.is_floating_point:
        return (torch.rand(shape, dtype=torch.float64) * (hi - lo) + lo).to(dtype)
    info = torch.iinfo(dtype)
    return torch.randint(max(int(lo), info.min), min(int(hi), info.max) + 1, shape, dtype=dtype)


def idx(*v):
    return torch.tensor(v, dtype=torch.int64)


FILES = {}


def case(op, note, make, kinds=(), kwargs=None):
    """Adds a case of op ("scatter.src"): make() returns the positional
    arguments (drawn after the case's own manual_seed). The arguments are
    encoded before the call, which may mutate them (resize_)."""
    name, overload = op.split(".")
    stem = f"aten.{op}"
    cases = FILES.setdefault(stem, [])
    torch.manual_seed(len(cases))
    args = make()
    kwargs = kwargs or {}
    kinds = list(kinds) + [None] * (len(args) - len(kinds))
    enc_args = [enc(a, k) for a, k in zip(args, kinds)]
    enc_kwargs = {k: enc(v) for k, v in kwargs.items()}
    fn = getattr(getattr(A, name), overload)
    out = fn(*[a.clone() if isinstance(a, torch.Tensor) else a for a in args], **kwargs)
    outs = list(out) if isinstance(out, tuple) else [out]
    cases.append({
        "id": f"{stem}/{len(cases)}",
        "op": f"aten::{op}",
        "schema": str(fn._schema),
        "args": enc_args,
        "kwargs": enc_kwargs,
        "outputs": [enc(o) for o in outs],
        "rtol": 0.0,
        "atol": 0.0,
        "note": note,
    })


NAN, INF = float("nan"), float("inf")
F16, BF16 = torch.float16, torch.bfloat16
I64MAX = 9223372036854775807

# as_strided: views of the storage, overlapping and zero strides, offsets.
case("as_strided.default", "float32 [3,4] -> [2,2] strides [1,2]", lambda: (rand(torch.float32, [3, 4]), [2, 2], [1, 2]))
case("as_strided.default", "int64 storage_offset 3", lambda: (rand(torch.int64, [3, 4], -100, 100), [3, 2], [2, 1], 3))
case("as_strided.default", "float16 overlapping windows [10] -> [4,3] strides [2,1]", lambda: (rand(F16, [10]), [4, 3], [2, 1]))
case("as_strided.default", "bool zero stride", lambda: (rand(torch.bool, [2, 3]), [2, 3, 2], [0, 1, 0], 0))
case("as_strided.default", "uint8 0-d at offset 5", lambda: (rand(torch.uint8, [6], 0, 255), [], [], 5))
case("as_strided.default", "bfloat16 empty result", lambda: (rand(BF16, [4]), [0, 3], [1, 1], 2))
case("as_strided.default", "int8 offset None", lambda: (rand(torch.int8, [2, 4]), [4], [2], None))

# diagonal: offsets, negative dims, empty diagonals.
case("diagonal.default", "float32 [3,4] defaults", lambda: (rand(torch.float32, [3, 4]),))
case("diagonal.default", "float64 offset 1", lambda: (rand(torch.float64, [3, 4]), 1))
case("diagonal.default", "int32 offset -2", lambda: (rand(torch.int32, [4, 3]), -2))
case("diagonal.default", "int16 offset past the end", lambda: (rand(torch.int16, [3, 4]), 7))
case("diagonal.default", "float16 3-d dim1=-1 dim2=0 offset 1", lambda: (rand(F16, [2, 3, 4]), 1, -1, 0))
case("diagonal.default", "bfloat16 dims (2, 1) offset -1", lambda: (rand(BF16, [2, 4, 3, 2]), -1, 2, 1))
case("diagonal.default", "bool empty dim", lambda: (rand(torch.bool, [2, 0, 3]), 0, 0, 2))
case("diagonal.default", "uint8 very negative offset", lambda: (rand(torch.uint8, [3, 3], 0, 255), -5))

# fill.Scalar: conversions of the value.
case("fill.Scalar", "float32 2.5", lambda: (rand(torch.float32, [2, 3]), 2.5))
case("fill.Scalar", "int32 2.7 truncates", lambda: (rand(torch.int32, [3]), 2.7))
case("fill.Scalar", "uint8 -3 wraps", lambda: (rand(torch.uint8, [2, 2], 0, 255), -3))
case("fill.Scalar", "bool 2.5", lambda: (rand(torch.bool, [3]), 2.5))
case("fill.Scalar", "float16 1/3 rounds", lambda: (rand(F16, [2]), 1 / 3))
case("fill.Scalar", "bfloat16 -inf", lambda: (rand(BF16, [2]), -INF))
case("fill.Scalar", "int8 True", lambda: (rand(torch.int8, [2]), True))
case("fill.Scalar", "float64 0-d nan", lambda: (rand(torch.float64, []), NAN))
case("fill.Scalar", "int64 empty", lambda: (rand(torch.int64, [0, 3]), 7))
case("fill.Scalar", "int16 from a float", lambda: (rand(torch.int16, [2]), -32768.0))

# copy: broadcast and conversion to self's dtype.
case("copy.default", "float32 <- int64 broadcast [3] to [2,3]", lambda: (rand(torch.float32, [2, 3]), rand(torch.int64, [3], -9, 9)))
case("copy.default", "uint8 <- float32 out of range, negative, nan",
     lambda: (rand(torch.uint8, [5], 0, 255), torch.tensor([-1.5, 300.0, NAN, 255.9, 0.5])))
case("copy.default", "bool <- float64 with zero, -0, nan", lambda: (rand(torch.bool, [4]), torch.tensor([0.0, -0.0, NAN, 0.1], dtype=torch.float64)))
case("copy.default", "int32 <- float64 huge (x86 indefinite)", lambda: (rand(torch.int32, [3]), torch.tensor([3e9, -3e9, -7.9], dtype=torch.float64)))
case("copy.default", "float16 <- float32 overflow to inf", lambda: (rand(F16, [3]), torch.tensor([65520.0, -1e6, 1e-8])))
case("copy.default", "bfloat16 <- float64 0-d broadcast", lambda: (rand(BF16, [2, 2]), torch.tensor(1 / 3, dtype=torch.float64)))
case("copy.default", "int8 <- int64 wraps", lambda: (rand(torch.int8, [3]), idx(200, -129, 7)))
case("copy.default", "float64 0-d <- [1,1]... same shape 0-d", lambda: (rand(torch.float64, []), rand(torch.float32, [])))
case("copy.default", "int64 <- bool broadcast [2,1] to [2,3]", lambda: (rand(torch.int64, [2, 3]), rand(torch.bool, [2, 1])))
case("copy.default", "int16 <- float16 empty", lambda: (rand(torch.int16, [0, 2]), rand(F16, [2])))

# scatter.src
case("scatter.src", "float32 dim 0", lambda: (rand(torch.float32, [3, 4]), 0, idx([0, 1, 2], [2, 0, 1]), rand(torch.float32, [3, 4])))
case("scatter.src", "float64 dim -1, src larger than index", lambda: (rand(torch.float64, [3, 5]), -1, idx([4, 0], [1, 3]), rand(torch.float64, [3, 4])))
case("scatter.src", "int8 duplicates: the last write wins", lambda: (rand(torch.int8, [4]), 0, idx(1, 1, 1, 3, 3), rand(torch.int8, [5])))
case("scatter.src", "bool 3-d dim 1", lambda: (rand(torch.bool, [2, 3, 2]), 1, idx([[2, 0]], [[1, 1]]), rand(torch.bool, [2, 2, 2])))
case("scatter.src", "float16 0-d", lambda: (rand(F16, []), 0, torch.tensor(0), rand(F16, [])))
case("scatter.src", "bfloat16 empty index", lambda: (rand(BF16, [2, 2]), 0, torch.zeros(0, dtype=torch.int64), rand(BF16, [2, 2])))
case("scatter.src", "uint8 dim 1 index narrower than self", lambda: (rand(torch.uint8, [3, 4], 0, 255), 1, idx([3], [0]), rand(torch.uint8, [2, 3], 0, 255)))
case("scatter.src", "int32 1-d self, 0-d index", lambda: (rand(torch.int32, [3]), 0, torch.tensor(2), rand(torch.int32, [2])))

# scatter.value
case("scatter.value", "float32 2.5", lambda: (rand(torch.float32, [3, 4]), 1, idx([0, 1, 2], [2, 0, 1]), 2.5))
case("scatter.value", "int64 2.5 truncates", lambda: (rand(torch.int64, [3, 4]), 0, idx([0, 1, 2, 0]), 2.5))
case("scatter.value", "bool 2", lambda: (torch.zeros(2, 3, dtype=torch.bool), -1, idx([0], [2]), 2))
case("scatter.value", "uint8 -1 wraps", lambda: (rand(torch.uint8, [4], 0, 255), 0, idx(0, 3), -1))
case("scatter.value", "float16 1/3", lambda: (rand(F16, [2, 2]), 0, idx([1, 0]), 1 / 3))
case("scatter.value", "int16 0-d", lambda: (rand(torch.int16, []), -1, torch.tensor([0]), 9))

# scatter_add: sums in index order, rounded after every step.
case("scatter_add.default", "float32 duplicates round each step",
     lambda: (torch.tensor([1e8, 0.0]), 0, idx(0, 0, 0, 1, 1), torch.tensor([3.0, 3.0, 3.0, 0.1, 0.2])))
case("scatter_add.default", "float64 dim 1", lambda: (rand(torch.float64, [2, 4]), 1, idx([0, 0, 3], [1, 2, 1]), rand(torch.float64, [2, 3])))
case("scatter_add.default", "int8 wraps", lambda: (torch.full((2,), 100, dtype=torch.int8), 0, idx(0, 0, 1), torch.full((3,), 100, dtype=torch.int8)))
case("scatter_add.default", "bool or", lambda: (rand(torch.bool, [2, 3]), 0, idx([1, 0, 1], [1, 1, 0]), rand(torch.bool, [2, 3])))
case("scatter_add.default", "float16 2048 + 1 + 1 stays 2048", lambda: (torch.tensor([2048.0, 0.0], dtype=F16), 0, idx(0, 0, 1), torch.ones(3, dtype=F16)))
case("scatter_add.default", "bfloat16 3-d dim -2", lambda: (rand(BF16, [2, 3, 2]), -2, idx([[2, 2]], [[0, 2]]), rand(BF16, [2, 2, 2])))
case("scatter_add.default", "uint8 0-d", lambda: (torch.tensor(250, dtype=torch.uint8), 0, torch.tensor(0), torch.tensor(10, dtype=torch.uint8)))
case("scatter_add.default", "int32 empty self dim", lambda: (rand(torch.int32, [0, 3]), 0, torch.zeros(0, 3, dtype=torch.int64), rand(torch.int32, [0, 3])))

# scatter_reduce.two
SR_I = idx([0, 1, 0], [2, 0, 0])
for r in ("sum", "prod", "mean", "amax", "amin"):
    for inc in (True, False):
        case("scatter_reduce.two", f"float32 {r} include_self={inc}",
             lambda: (rand(torch.float32, [3, 3]), 0, SR_I, rand(torch.float32, [2, 3]), r), kwargs={"include_self": inc})
        if inc or r == "mean":
            case("scatter_reduce.two", f"int64 {r} include_self={inc}",
                 lambda: (rand(torch.int64, [2, 3], -9, 9), 1, SR_I, rand(torch.int64, [2, 3], -9, 9), r), kwargs={"include_self": inc})
case("scatter_reduce.two", "int32 mean floor division of negatives", lambda: (torch.zeros(3, dtype=torch.int32), 0, idx(0, 0, 1, 1, 0), torch.tensor([-1, -3, 5, 4, -1], dtype=torch.int32), "mean"))
case("scatter_reduce.two", "uint8 mean with wrapping sum", lambda: (torch.tensor([200], dtype=torch.uint8), 0, idx(0, 0, 0), torch.tensor([200, 200, 200], dtype=torch.uint8), "mean"))
case("scatter_reduce.two", "float16 mean rounds", lambda: (torch.ones(3, dtype=F16), 0, idx(0, 0, 1, 1, 0), torch.tensor([1.0, 3.0, 5.0, 4.0, 1.0], dtype=F16), "mean"))
case("scatter_reduce.two", "bfloat16 sum without self", lambda: (rand(BF16, [4]), 0, idx(0, 0, 3, 0), rand(BF16, [4]), "sum"), kwargs={"include_self": False})
case("scatter_reduce.two", "float32 amax NaN propagates", lambda: (torch.tensor([1.0, NAN, 2.0]), 0, idx(0, 0, 1, 1, 2), torch.tensor([NAN, 3.0, 5.0, 4.0, 1.0]), "amax"))
case("scatter_reduce.two", "float64 amin NaN propagates", lambda: (torch.tensor([1.0, NAN, 2.0], dtype=torch.float64), 0, idx(0, 0, 1, 1, 2), torch.tensor([NAN, 3.0, 5.0, 4.0, 1.0], dtype=torch.float64), "amin"))
case("scatter_reduce.two", "float32 amax without self of -inf", lambda: (torch.zeros(2), 0, idx(0, 0), torch.tensor([-INF, -INF]), "amax"), kwargs={"include_self": False})
case("scatter_reduce.two", "int8 amin without self starts at 127", lambda: (rand(torch.int8, [3]), 0, idx(0, 2), torch.tensor([100, 127], dtype=torch.int8), "amin"), kwargs={"include_self": False})
case("scatter_reduce.two", "int16 amax without self", lambda: (rand(torch.int16, [3]), 0, idx(0, 2), torch.tensor([-32768, -5], dtype=torch.int16), "amax"), kwargs={"include_self": False})
case("scatter_reduce.two", "bool prod is and", lambda: (rand(torch.bool, [2, 3]), 1, idx([0, 0, 2], [1, 1, 1]), rand(torch.bool, [2, 3]), "prod"))
case("scatter_reduce.two", "bool amax without self", lambda: (rand(torch.bool, [2, 3]), 1, idx([0, 0, 2], [1, 1, 1]), rand(torch.bool, [2, 3]), "amax"), kwargs={"include_self": False})
case("scatter_reduce.two", "float64 prod 3-d dim -1", lambda: (rand(torch.float64, [2, 2, 3]), -1, idx([[0, 0, 2]], [[1, 1, 1]]), rand(torch.float64, [2, 2, 3]), "prod"))
case("scatter_reduce.two", "float32 mean empty index", lambda: (rand(torch.float32, [3]), 0, torch.zeros(0, dtype=torch.int64), rand(torch.float32, [2]), "mean"), kwargs={"include_self": False})
case("scatter_reduce.two", "uint8 prod wraps", lambda: (torch.tensor([16, 3], dtype=torch.uint8), 0, idx(0, 0, 1), torch.tensor([16, 2, 200], dtype=torch.uint8), "prod"))

for dt, r, inc in [(torch.float32, "sum", True), (torch.float32, "mean", False), (F16, "sum", True),
                  (BF16, "mean", True), (torch.float32, "prod", False)]:
    case("scatter_reduce.two", f"{DT[dt]} {r} include_self={inc}, many duplicates (rounding order)",
         lambda: (rand(dt, [2, 4]), 0, torch.randint(0, 2, (5, 4)), rand(dt, [5, 4], -100, 100), r), kwargs={"include_self": inc})
case("scatter_add.default", "float16 many duplicates along dim 1", lambda: (rand(F16, [2, 3]), 1, torch.randint(0, 3, (2, 9)), rand(F16, [2, 9], -500, 500)))

# select_scatter
case("select_scatter.default", "float32 dim 0", lambda: (rand(torch.float32, [3, 4]), rand(torch.float32, [4]), 0, 1))
case("select_scatter.default", "float64 dim -1 index -1", lambda: (rand(torch.float64, [2, 3]), rand(torch.float64, [2]), -1, -1))
case("select_scatter.default", "int64 <- float32 truncates", lambda: (rand(torch.int64, [2, 3]), torch.tensor([2.7, -2.7, 1e10]), 0, 0))
case("select_scatter.default", "bfloat16 1-d, 0-d src", lambda: (rand(BF16, [3]), rand(BF16, []), 0, 2))
case("select_scatter.default", "bool 3-d dim 1", lambda: (rand(torch.bool, [2, 3, 2]), rand(torch.bool, [2, 2]), 1, -2))
case("select_scatter.default", "int8 <- int32 wraps", lambda: (rand(torch.int8, [2, 2]), torch.tensor([300, -300], dtype=torch.int32), 1, 0))
case("select_scatter.default", "float16 empty", lambda: (rand(F16, [0, 3]), rand(F16, [0]), 1, 1))

# slice_scatter
case("slice_scatter.default", "float32 defaults (whole dim 0)", lambda: (rand(torch.float32, [3, 4]), rand(torch.float32, [3, 4])))
case("slice_scatter.default", "float64 dim 1 start 1 step 2", lambda: (rand(torch.float64, [3, 4]), rand(torch.float64, [3, 2]), 1, 1, None, 2))
case("slice_scatter.default", "int32 dim -1 negative start", lambda: (rand(torch.int32, [2, 5]), rand(torch.int32, [2, 2]), -1, -2))
case("slice_scatter.default", "int64 end INT64_MAX", lambda: (rand(torch.int64, [4, 2]), rand(torch.int64, [3, 2]), 0, 1, I64MAX))
case("slice_scatter.default", "uint8 empty slice (start past the end)", lambda: (rand(torch.uint8, [3, 2], 0, 255), rand(torch.uint8, [0, 2], 0, 255), 0, 5, 10))
case("slice_scatter.default", "float16 <- float32 converts, step larger than size", lambda: (rand(F16, [5]), torch.tensor([1 / 3]), 0, 1, 4, 10))
case("slice_scatter.default", "bool negative end", lambda: (rand(torch.bool, [2, 3, 4]), rand(torch.bool, [2, 3, 1]), 2, 1, -2, 1))
case("slice_scatter.default", "bfloat16 end before start", lambda: (rand(BF16, [3]), rand(BF16, [0]), 0, 2, 1))

# index_put
case("index_put.default", "float32 one index", lambda: (rand(torch.float32, [3, 4]), [idx(0, 2)], rand(torch.float32, [4])), kinds=(None, "optional_tensors"))
case("index_put.default", "float64 two indices, negative", lambda: (rand(torch.float64, [3, 4]), [idx(0, -1), idx(1, -1)], rand(torch.float64, [2])), kinds=(None, "optional_tensors"))
case("index_put.default", "int64 None then index", lambda: (rand(torch.int64, [3, 4]), [None, idx(1, 3)], rand(torch.int64, [3, 2])), kinds=(None, "optional_tensors"))
case("index_put.default", "int32 bool mask", lambda: (rand(torch.int32, [3, 4]), [torch.tensor([True, False, True])], rand(torch.int32, [2, 4])), kinds=(None, "optional_tensors"))
case("index_put.default", "float32 mask, one int64 value (masked_fill shortcut)", lambda: (rand(torch.float32, [3, 4]), [torch.tensor([True, False, True])], torch.tensor([7])), kinds=(None, "optional_tensors"))
case("index_put.default", "int64 None then mask, one float value truncates", lambda: (rand(torch.int64, [2, 3]), [None, torch.tensor([True, False, True])], torch.tensor(7.9)), kinds=(None, "optional_tensors"))
case("index_put.default", "float32 2-d mask", lambda: (rand(torch.float32, [2, 3]), [torch.tensor([[True, False, True], [False, False, True]])], rand(torch.float32, [3])), kinds=(None, "optional_tensors"))
case("index_put.default", "float32 accumulate duplicates round each step", lambda: (torch.tensor([1e8, 1.0]), [idx(0, 0, 0, 1)], torch.tensor([3.0, 3.0, 3.0, 1e-8]), True), kinds=(None, "optional_tensors"))
case("index_put.default", "float32 duplicates: the last write wins", lambda: (rand(torch.float32, [3]), [idx(1, 1, 1)], torch.tensor([1.0, 2.0, 3.0])), kinds=(None, "optional_tensors"))
case("index_put.default", "int8 accumulate wraps", lambda: (torch.full((2, 2), 100, dtype=torch.int8), [idx(0, 0)], torch.full((2,), 100, dtype=torch.int8), True), kinds=(None, "optional_tensors"))
case("index_put.default", "bool accumulate", lambda: (torch.tensor([False, True, False]), [idx(0, 0, 1)], torch.tensor([True, False, False]), True), kinds=(None, "optional_tensors"))
case("index_put.default", "float16 accumulate 2048 + 1 + 1", lambda: (torch.tensor([2048.0], dtype=F16), [idx(0, 0)], torch.ones(2, dtype=F16), True), kinds=(None, "optional_tensors"))
case("index_put.default", "bfloat16 non-adjacent indices", lambda: (rand(BF16, [2, 3, 4]), [idx(0, 1), None, idx(1, 2)], rand(BF16, [2, 3])), kinds=(None, "optional_tensors"))
case("index_put.default", "uint8 broadcast indices", lambda: (rand(torch.uint8, [3, 3], 0, 255), [idx(0, 1)[:, None], idx(0, 2)], rand(torch.uint8, [2, 2], 0, 255)), kinds=(None, "optional_tensors"))
case("index_put.default", "float32 uint8 mask", lambda: (rand(torch.float32, [3]), [torch.tensor([1, 0, 1], dtype=torch.uint8)], rand(torch.float32, [2])), kinds=(None, "optional_tensors"))
case("index_put.default", "int16 0-d index", lambda: (rand(torch.int16, [2, 3]), [torch.tensor(1)], rand(torch.int16, [3])), kinds=(None, "optional_tensors"))
case("index_put.default", "float64 accumulate with a mask", lambda: (rand(torch.float64, [3]), [torch.tensor([True, False, True])], torch.tensor([5.0], dtype=torch.float64), True), kinds=(None, "optional_tensors"))
case("index_put.default", "float32 0-d value broadcast", lambda: (rand(torch.float32, [2, 3]), [idx(1)], torch.tensor(4.0)), kinds=(None, "optional_tensors"))
case("index_put.default", "float32 empty index", lambda: (rand(torch.float32, [3]), [torch.zeros(0, dtype=torch.int64)], torch.zeros(0)), kinds=(None, "optional_tensors"))
case("index_put.default", "int32 0-d mask, masked_fill shortcut", lambda: (rand(torch.int32, [2]), [torch.tensor(True)], torch.tensor([5], dtype=torch.int32)), kinds=(None, "optional_tensors"))
case("index_put.default", "bool value into float via masked_fill", lambda: (rand(torch.float32, [2, 3]), [None, torch.tensor([True, False, True])], torch.tensor(True)), kinds=(None, "optional_tensors"))

case("index_put.default", "float32 accumulate, many duplicates (rounding order)",
     lambda: (rand(torch.float32, [3, 2]), [torch.randint(0, 3, (10,))], rand(torch.float32, [10, 2], -1e4, 1e4), True), kinds=(None, "optional_tensors"))
case("index_put.default", "float16 accumulate, broadcast 2-d indices with duplicates",
     lambda: (rand(F16, [3, 3]), [torch.randint(0, 3, (4, 1)), torch.randint(0, 3, (1, 3))], rand(F16, [4, 3], -300, 300), True), kinds=(None, "optional_tensors"))

# reflection and replication padding
case("reflection_pad1d.default", "float32 (C, W)", lambda: (rand(torch.float32, [2, 5]), [2, 3]))
case("reflection_pad1d.default", "float64 (N, C, W)", lambda: (rand(torch.float64, [2, 2, 4]), [3, 1]))
case("reflection_pad1d.default", "float32 negative left pad crops", lambda: (rand(torch.float32, [1, 5]), [-3, 4]))
case("reflection_pad1d.default", "float32 negative right pad", lambda: (rand(torch.float32, [1, 5]), [4, -3]))
case("reflection_pad1d.default", "float32 empty batch", lambda: (rand(torch.float32, [0, 2, 4]), [1, 1]))
case("reflection_pad1d.default", "float64 unbatched empty channels", lambda: (rand(torch.float64, [0, 4]), [1, 2]))
case("reflection_pad1d.default", "float32 zero padding", lambda: (rand(torch.float32, [2, 3]), [0, 0]))
case("reflection_pad1d.default", "float32 padding list longer than 2: the rest is ignored", lambda: (rand(torch.float32, [1, 3]), [1, 2, 5]))
case("reflection_pad2d.default", "float32 (C, H, W)", lambda: (rand(torch.float32, [2, 3, 4]), [2, 1, 1, 2]))
case("reflection_pad2d.default", "float64 (N, C, H, W)", lambda: (rand(torch.float64, [2, 1, 3, 3]), [1, 2, 2, 0]))
case("reflection_pad2d.default", "float32 negative pads", lambda: (rand(torch.float32, [1, 4, 5]), [-1, 3, 2, -2]))
case("reflection_pad2d.default", "float32 height cropped to 0", lambda: (rand(torch.float32, [1, 2, 3]), [0, 0, -1, -1]))
case("reflection_pad2d.default", "float64 empty channels unbatched", lambda: (rand(torch.float64, [0, 2, 3]), [1, 1, 1, 1]))
case("reflection_pad3d.default", "float32 (C, D, H, W)", lambda: (rand(torch.float32, [2, 2, 3, 3]), [1, 2, 2, 0, 1, 1]))
case("reflection_pad3d.default", "float64 (N, C, D, H, W)", lambda: (rand(torch.float64, [1, 2, 3, 2, 2]), [1, 1, 1, 0, 2, 1]))
case("reflection_pad3d.default", "float16", lambda: (rand(F16, [1, 2, 2, 3]), [2, 1, 1, 1, 0, 1]))
case("reflection_pad3d.default", "bfloat16 negative pads", lambda: (rand(BF16, [1, 3, 3, 4]), [-1, 2, 1, -1, -2, 2]))
case("reflection_pad3d.default", "float32 empty batch", lambda: (rand(torch.float32, [0, 1, 2, 2, 2]), [1, 1, 1, 1, 1, 1]))
case("reflection_pad3d.default", "float32 width cropped to 0", lambda: (rand(torch.float32, [1, 2, 2, 3]), [-2, -1, 0, 0, 0, 0]))
case("replication_pad2d.default", "float32 (C, H, W)", lambda: (rand(torch.float32, [2, 3, 4]), [2, 1, 1, 2]))
case("replication_pad2d.default", "float64 (N, C, H, W) pads larger than the input", lambda: (rand(torch.float64, [1, 2, 2, 2]), [5, 3, 4, 6]))
case("replication_pad2d.default", "float32 negative pads", lambda: (rand(torch.float32, [1, 2, 5]), [-3, 4, 1, 0]))
case("replication_pad2d.default", "float32 width cropped to 0", lambda: (rand(torch.float32, [1, 2, 3]), [-2, -1, 0, 0]))
case("replication_pad2d.default", "float64 empty batch", lambda: (rand(torch.float64, [0, 1, 2, 3]), [1, 1, 1, 1]))
case("replication_pad3d.default", "float32 (C, D, H, W)", lambda: (rand(torch.float32, [2, 2, 3, 3]), [1, 2, 2, 0, 1, 1]))
case("replication_pad3d.default", "float64 (N, C, D, H, W) large pads", lambda: (rand(torch.float64, [1, 1, 2, 2, 2]), [3, 0, 0, 3, 4, 1]))
case("replication_pad3d.default", "float32 negative pads", lambda: (rand(torch.float32, [1, 3, 3, 4]), [-1, 2, 1, -1, -2, 2]))
case("replication_pad3d.default", "float32 empty batch", lambda: (rand(torch.float32, [0, 1, 1, 2, 2]), [1, 0, 0, 1, 1, 0]))

# resize_ (only shrinking or equal sizes: grown elements are uninitialized)
case("resize_.default", "float32 shrink [6] -> [2,2]", lambda: (rand(torch.float32, [6]), [2, 2]))
case("resize_.default", "int64 same numel [2,3] -> [3,2]", lambda: (rand(torch.int64, [2, 3]), [3, 2]))
case("resize_.default", "float16 to 0-d", lambda: (rand(F16, [3]), []))
case("resize_.default", "bool to empty", lambda: (rand(torch.bool, [3]), [0, 4]))
case("resize_.default", "float32 channels_last", lambda: (rand(torch.float32, [24]), [1, 2, 3, 4]), kwargs={"memory_format": torch.channels_last})
case("resize_.default", "int8 channels_last_3d", lambda: (rand(torch.int8, [2, 3, 2, 2, 2]), [1, 3, 2, 2, 2]), kwargs={"memory_format": torch.channels_last_3d})
case("resize_.default", "uint8 contiguous_format", lambda: (rand(torch.uint8, [2, 5], 0, 255), [3, 3]), kwargs={"memory_format": torch.contiguous_format})

# SymInt queries (in-range, non-negative dims only: see the docstring)
case("sym_size.int", "dim 0", lambda: (rand(torch.float32, [2, 3, 4]), 0))
case("sym_size.int", "dim 2", lambda: (rand(torch.int64, [2, 3, 4]), 2))
case("sym_size.int", "empty dim", lambda: (rand(torch.bool, [2, 0]), 1))
case("sym_stride.int", "dim 0", lambda: (rand(torch.float32, [2, 3, 4]), 0))
case("sym_stride.int", "dim 1", lambda: (rand(F16, [2, 3, 4]), 1))
case("sym_stride.int", "dim 2", lambda: (rand(torch.int8, [2, 3, 4]), 2))
case("sym_numel.default", "3-d", lambda: (rand(torch.float32, [2, 3, 4]),))
case("sym_numel.default", "0-d", lambda: (rand(torch.int32, []),))
case("sym_numel.default", "empty", lambda: (rand(BF16, [3, 0, 2]),))
case("sym_storage_offset.default", "contiguous", lambda: (rand(torch.float64, [2, 3]),))
case("sym_storage_offset.default", "0-d", lambda: (rand(torch.uint8, [], 0, 255),))

for stem, cases in FILES.items():
    with open(os.path.join(OUT, f"{stem}.jsonl"), "w") as f:
        for c in cases:
            f.write(json.dumps(c) + "\n")
