#!/usr/bin/python3
"""Extra conformance cases for issue 14's sorting, search, indexing and
shape-helper families and the operator aliases (kernels/aliases.go,
sorting.go, search.go, shape_helpers.go, ...), made with PyTorch 2.6 (the
schemas are 2.6's):

    cd kernels/testdata/extra && ../../../../shared/tools/torch2 gen_14a.py

The format cannot express expected errors or strided inputs; the errors
PyTorch raises for these operators are checked by the Go tests beside the
kernels, with PyTorch's messages.
"""

import os
import sys

import torch

import confgen
from confgen import F, write_all

torch.set_num_threads(1)
A = torch.ops.aten
OUT = os.path.dirname(os.path.abspath(__file__))
f32, f64, b8, i64, i32 = torch.float32, torch.float64, torch.bool, torch.int64, torch.int32
nan, inf = float("nan"), float("inf")
confgen.TOL["exact"] = {f32: (0.0, 0.0), f64: (0.0, 0.0)}
confgen.TOL["ew"] = {f32: (1.3e-6, 1e-5), f64: (1e-7, 1e-7)}
confgen.TOL["acc"][f32] = (1e-5, 1e-6)


def R(*shape, dt=f32):
    return torch.randn(shape, dtype=f64).to(dt)


def I(lo, hi, *shape, dt=i64):
    return torch.randint(lo, hi, shape).to(dt)


SECTIONS = []


def section(fn):
    SECTIONS.append(fn)
    return fn


@section
def aliases():
    for name, kind in [("absolute", "exact"), ("negative", "exact"), ("fix", "exact"), ("arccos", "ew"),
                       ("arcsin", "ew"), ("arctan", "ew"), ("arcsinh", "ew")]:
        f = F(getattr(A, name).default, kind)
        f.case("float32", lambda: ([R(3, 4)], {}))
        f.case("float64 empty", lambda: ([R(0, 2, dt=f64)], {}))
        if name in ("absolute", "negative", "fix"):
            f.case("int64", lambda: ([I(-5, 5, 6)], {}))
    f = F(A.arccosh.default, "ew")
    f.case("float32", lambda: ([R(5).abs() + 1], {}))
    f.case("int64 promotes", lambda: ([I(1, 5, 4)], {}))
    f = F(A.arctanh.default, "ew")
    f.case("float32", lambda: ([R(5).clamp(-0.9, 0.9)], {}))
    f = F(A.arctan2.default, "ew")
    f.case("broadcast", lambda: ([R(3, 1), R(4)], {}))
    f.case("int64 promotes", lambda: ([I(-3, 3, 4), I(-3, 3, 4)], {}))
    for name, tag in [("greater", "gt"), ("greater_equal", "ge"), ("less", "lt"), ("less_equal", "le"),
                      ("not_equal", "ne")]:
        op = getattr(A, name)
        f = F(op.Tensor, "exact")
        f.case("broadcast float", lambda: ([R(3, 1), R(4)], {}))
        f.case("int vs float", lambda: ([I(-2, 2, 5), torch.tensor([0.5] * 5)], {}))
        f = F(op.Scalar, "exact")
        f.case("float scalar", lambda: ([R(4), 0.25], {}))
        f.case("int64 empty", lambda: ([I(0, 3, 0), 1], {}))
    f = F(A.multiply.Tensor, "exact")
    f.case("broadcast", lambda: ([R(2, 3), R(3)], {}))
    f.case("int64 bool", lambda: ([I(-4, 4, 5), I(0, 2, 5, dt=b8)], {}))
    f = F(A.multiply.Scalar, "exact")
    f.case("int64 by float", lambda: ([I(-4, 4, 5), 1.5], {}))
    f = F(A.subtract.Tensor, "exact")
    f.case("alpha", lambda: ([R(2, 3), R(3)], {"alpha": 2}))
    f.case("int64", lambda: ([I(-9, 9, 4), I(-9, 9, 4)], {}))
    f = F(A.subtract.Scalar, "exact")
    f.case("alpha", lambda: ([R(4), 1.5, 2], {}))
    f = F(A.divide.Tensor, "exact")
    f.case("float", lambda: ([R(3, 4), R(4)], {}))
    f.case("int64 true division", lambda: ([I(-9, 9, 5), I(1, 4, 5)], {}))
    f = F(A.divide.Scalar, "exact")
    f.case("int64 by int", lambda: ([I(-9, 9, 5), 2], {}))
    f = F(A.divide.Tensor_mode, "exact")
    f.case("floor int64", lambda: ([I(-9, 9, 6), I(1, 4, 6)], {"rounding_mode": "floor"}))
    f.case("trunc float", lambda: ([R(6) * 5, R(6)], {"rounding_mode": "trunc"}))
    f.case("None", lambda: ([R(6), R(6)], {"rounding_mode": None}))
    f = F(A.divide.Scalar_mode, "exact")
    f.case("floor", lambda: ([I(-9, 9, 6), 4], {"rounding_mode": "floor"}))
    f = F(A.true_divide.Tensor, "exact")
    f.case("int64", lambda: ([I(-9, 9, 5), I(1, 4, 5)], {}))
    f = F(A.true_divide.Scalar, "exact")
    f.case("float", lambda: ([R(5), 3.0], {}))
    for op in (A.concat.default, A.concatenate.default):
        f = F(op, "exact")
        f.case("dim 1", lambda: ([[R(2, 3), R(2, 1)], 1], {}))
        f.case("negative dim, promotes", lambda: ([[R(2, 2), I(0, 4, 1, 2)], -2], {}))
        f.case("default dim", lambda: ([[R(1, 2), R(0, 2)]], {}))
    f = F(A.row_stack.default, "exact")
    f.case("1-d and 2-d", lambda: ([[R(3), R(2, 3)]], {}))
    f = F(A.linalg_matmul.default, "acc")
    f.case("batched", lambda: ([R(2, 3, 4), R(4, 5)], {}))
    f = F(A.special_expit.default, "ew")
    f.case("float32", lambda: ([R(6)], {}))
    f = F(A.special_logit.default, "ew")
    f.case("eps", lambda: ([R(6).sigmoid(), 1e-3], {}))
    f = F(A.special_log_softmax.default, "ew")
    f.case("dtype", lambda: ([R(2, 3), 1], {"dtype": f64}))
    f = F(A.special_softmax.default, "ew")
    f.case("dim 0", lambda: ([R(2, 3), 0], {}))
    f = F(A.special_logsumexp.default, "ew")
    f.case("dims", lambda: ([R(2, 3, 4), [0, 2], True], {}))
    f = F(A.special_xlogy.default, "ew")
    f.case("tensor", lambda: ([R(4).abs(), R(4).abs()], {}))
    f = F(A.special_xlogy.other_scalar, "ew")
    f.case("scalar other", lambda: ([R(4).abs(), 2.0], {}))
    f = F(A.special_xlogy.self_scalar, "ew")
    f.case("scalar self", lambda: ([3.0, R(4).abs()], {}))
    for name in ("special_erf", "special_erfc", "special_exp2", "special_expm1", "special_log1p"):
        f = F(getattr(A, name).default, "ew")
        f.case("float32", lambda: ([R(5).abs()], {}))


def ties(*shape, dt=f32):
    """Small integers, so that rows hold many equal values."""
    return torch.randint(-3, 4, shape).to(dt)


@section
def sorting():
    f = F(A.argsort.default, "exact")
    f.case("ties, last dim", lambda: ([ties(3, 20)], {}))
    f.case("descending dim 0 int64", lambda: ([ties(20, 3, dt=i64), 0, True], {}))
    f.case("nan float64", lambda: ([torch.tensor([1.0, nan, -1.0, nan, 2.0], dtype=f64)], {}))
    f.case("empty", lambda: ([R(0, 3), 1], {}))
    f.case("0-d", lambda: ([torch.tensor(2.0)], {}))
    f.case("bool", lambda: ([I(0, 2, 17, dt=b8)], {}))
    f = F(A.argsort.stable, "exact")
    f.case("stable ties", lambda: ([ties(3, 40)], {"stable": True}))
    f.case("stable descending dim -2", lambda: ([ties(40, 2, dt=i64)], {"stable": True, "dim": -2, "descending": True}))
    f.case("stable=False", lambda: ([ties(2, 20)], {"stable": False}))
    f = F(A.msort.default, "exact")
    f.case("dim 0", lambda: ([ties(20, 3)], {}))
    f.case("int64", lambda: ([ties(5, dt=i64)], {}))
    f.case("0-d", lambda: ([torch.tensor(1.5)], {}))
    f = F(A.kthvalue.default, "exact")
    f.case("ties", lambda: ([ties(4, 30), 7], {}))
    f.case("k=1 dim 0 keepdim", lambda: ([ties(30, 3), 1, 0, True], {}))
    f.case("nan largest", lambda: ([torch.tensor([[nan, 1.0, 0.0, nan, 3.0]]), 4], {}))
    f.case("int64 negative dim", lambda: ([ties(3, 9, dt=i64), 5, -1], {}))
    f.case("float64 last", lambda: ([R(2, 6, dt=f64), 6], {}))
    f.case("empty other dim", lambda: ([R(0, 3), 1, 1], {}))
    f.case("0-d", lambda: ([torch.tensor(3.0), 1], {}))
    f = F(A.median.default, "exact")
    f.case("even count: lower", lambda: ([R(4, 5)], {}))
    f.case("nan", lambda: ([torch.tensor([1.0, nan, 2.0])], {}))
    f.case("int64", lambda: ([ties(7, dt=i64)], {}))
    f.case("empty float", lambda: ([R(0)], {}))
    f.case("empty int64", lambda: ([I(0, 1, 0)], {}))
    f = F(A.nanmedian.default, "exact")
    f.case("nan ignored", lambda: ([torch.tensor([1.0, nan, 2.0, 5.0, nan])], {}))
    f.case("all nan", lambda: ([torch.tensor([nan, nan])], {}))
    f.case("float64", lambda: ([R(3, 3, dt=f64)], {}))
    for op, name in [(A.median.dim, "median"), (A.nanmedian.dim, "nanmedian")]:
        f = F(op, "exact")
        f.case("ties", lambda: ([ties(3, 30), 1], {}))
        f.case("dim 0 keepdim int64", lambda: ([ties(20, 4, dt=i64), 0, True], {}))
        f.case("nan rows", lambda: ([torch.tensor([[nan, nan, nan], [1.0, nan, 2.0], [3.0, nan, nan], [2.0, 1.0, 2.0]]), -1], {}))
        f.case("0-d", lambda: ([torch.tensor(3.0), 0], {}))
        f.case("empty other dim", lambda: ([R(0, 3), 1], {}))
    f = F(A.mode.default, "exact")
    f.case("ties", lambda: ([ties(3, 30)], {}))
    f.case("dim 0 keepdim int64", lambda: ([ties(25, 3, dt=i64), 0, True], {}))
    f.case("bool", lambda: ([I(0, 2, 2, 9, dt=b8)], {}))
    f.case("all distinct", lambda: ([R(2, 5, dt=f64)], {}))
    f.case("0-d", lambda: ([torch.tensor(2.0)], {}))
    f.case("empty other dim", lambda: ([R(0, 2), 1], {}))
    for op in (A.quantile, A.nanquantile):
        f = F(op.default, "acc")
        for mode in ("linear", "lower", "higher", "midpoint", "nearest"):
            f.case(f"{mode} 1-d q no dim", lambda: ([R(3, 5), torch.tensor([0.0, 0.3, 0.5, 1.0])], {"interpolation": mode}))
        f.case("dim 0 keepdim", lambda: ([R(4, 3), torch.tensor([0.25, 0.75]), 0, True], {}))
        f.case("0-d q dim -1", lambda: ([R(2, 3, 4, dt=f64), torch.tensor(0.4, dtype=f64), -1], {}))
        f.case("nan", lambda: ([torch.tensor([[1.0, nan, 3.0, 2.0], [nan, nan, nan, nan]]), torch.tensor([0.5]), 1], {}))
        f.case("no dim keepdim", lambda: ([R(2, 3), torch.tensor(0.5), None, True], {}))
        f.case("middle dim", lambda: ([R(2, 5, 3), torch.tensor([0.1, 0.9]), 1], {"interpolation": "nearest"}))
        f = F(op.scalar, "acc")
        f.case("scalar q", lambda: ([R(3, 5), 0.3], {}))
        f.case("dim 1 keepdim midpoint", lambda: ([R(3, 5), 0.5, 1, True], {"interpolation": "midpoint"}))
        f.case("nan", lambda: ([torch.tensor([1.0, nan, 3.0]), 0.5], {}))
        f.case("0-d", lambda: ([torch.tensor(2.0, dtype=f64), 1.0], {}))
    for op in (A.cummax.default, A.cummin.default):
        f = F(op, "exact")
        f.case("ties", lambda: ([ties(3, 12), 1], {}))
        f.case("nan", lambda: ([torch.tensor([1.0, nan, 3.0, nan, 0.0]), 0], {}))
        f.case("dim 0 int64", lambda: ([ties(6, 2, dt=i64), 0], {}))
        f.case("bool", lambda: ([I(0, 2, 7, dt=b8), -1], {}))
        f.case("empty", lambda: ([R(0, 3), 1], {}))
        f.case("0-d", lambda: ([torch.tensor(2.0), 0], {}))
    for op in (A.logcumsumexp.default, A._logcumsumexp.default):
        f = F(op, "ew")
        f.case("dim 1", lambda: ([R(3, 6), 1], {}))
        f.case("float64 dim 0", lambda: ([R(4, 2, dt=f64), 0], {}))
        f.case("infinities and nan", lambda: ([torch.tensor([-inf, -inf, 1.0, inf, 2.0, nan, 1.0]), 0], {}))
        f.case("empty", lambda: ([R(0, 3), 1], {}))
        f.case("0-d", lambda: ([torch.tensor(2.0), 0], {}))


@section
def search():
    seq = torch.tensor([1.0, 3.0, 3.0, 5.0, 7.0])
    f = F(A.searchsorted.Tensor, "exact")
    f.case("left ties", lambda: ([seq, torch.tensor([[0.0, 3.0, 4.0], [7.0, 8.0, nan]])], {}))
    f.case("right", lambda: ([seq, torch.tensor([3.0, 7.0, 0.0])], {"right": True}))
    f.case("side right int32", lambda: ([seq, torch.tensor([3.0, 5.0])], {"side": "right", "out_int32": True}))
    f.case("side left", lambda: ([seq, torch.tensor([3.0, 5.0])], {"side": "left"}))
    f.case("n-d rows", lambda: ([torch.tensor([[1, 2, 3], [10, 20, 30]]), torch.tensor([[2, 3], [5, 30]])], {}))
    f.case("sorter", lambda: ([torch.tensor([5.0, 1.0, 3.0, 2.0]), torch.tensor([0.0, 2.5, 6.0])],
                              {"sorter": torch.tensor([1, 3, 2, 0])}))
    f.case("n-d sorter right", lambda: ([torch.tensor([[3, 1, 2], [9, 7, 8]]), torch.tensor([[2], [8]])],
                                        {"sorter": torch.tensor([[1, 2, 0], [1, 2, 0]]), "right": True}))
    f.case("float seq int values", lambda: ([seq, torch.tensor([2, 6])], {}))
    f.case("float64 empty values", lambda: ([seq.double(), torch.zeros(0, dtype=f64)], {}))
    f.case("0-d value", lambda: ([seq, torch.tensor(3.0)], {}))
    f.case("empty sequence", lambda: ([torch.zeros(0), torch.tensor([1.0])], {}))
    f = F(A.searchsorted.Scalar, "exact")
    f.case("int", lambda: ([seq, 4], {}))
    f.case("float right", lambda: ([seq, 3.0], {"right": True}))
    f.case("sorter", lambda: ([torch.tensor([3, 1, 2]), 2], {"sorter": torch.tensor([1, 2, 0])}))
    f = F(A.bucketize.Tensor, "exact")
    f.case("left", lambda: ([torch.tensor([[0.0, 3.0], [5.5, 9.0]]), seq], {}))
    f.case("right int32", lambda: ([torch.tensor([1, 3, 7]), torch.tensor([1, 3, 5, 7])], {"right": True, "out_int32": True}))
    f.case("0-d", lambda: ([torch.tensor(3.0), seq], {}))
    f = F(A.bucketize.Scalar, "exact")
    f.case("int", lambda: ([3, seq], {}))
    f.case("float right", lambda: ([3.0, seq], {"right": True}))
    f = F(A.histc.default, "exact")
    f.case("data range", lambda: ([R(50), 7], {}))
    f.case("given range, outside ignored", lambda: ([R(4, 10, dt=f64), 5, -1, 1], {}))
    f.case("right edge in last bin", lambda: ([torch.tensor([0.0, 1.0, 0.5, 2.0]), 4, 0, 1], {}))
    f.case("one value", lambda: ([torch.tensor([2.0, 2.0, 2.0]), 3], {}))
    f.case("empty", lambda: ([R(0), 3], {}))
    f.case("default bins", lambda: ([R(30)], {}))
    f = F(A.bincount.default, "exact")
    f.case("counts", lambda: ([I(0, 6, 20)], {}))
    f.case("float32 weights", lambda: ([I(0, 4, 10), R(10)], {}))
    f.case("float64 weights minlength", lambda: ([I(0, 4, 10), R(10, dt=f64), 8], {}))
    f.case("int weights give float64", lambda: ([I(0, 3, 5), I(0, 9, 5)], {}))
    f.case("int32", lambda: ([I(0, 3, 5, dt=i32)], {}))
    f.case("empty minlength", lambda: ([I(0, 1, 0), None, 3], {}))
    f = F(A.isin.Tensor_Tensor, "exact")
    f.case("int", lambda: ([I(0, 6, 3, 4), torch.tensor([1, 3, 8])], {}))
    f.case("invert", lambda: ([I(0, 6, 8), torch.tensor([1, 3])], {"invert": True}))
    f.case("mixed dtypes, nan", lambda: ([torch.tensor([1.0, nan, 2.5, 3.0]), torch.tensor([3, 1])], {}))
    f.case("nan not in nan", lambda: ([torch.tensor([nan, 1.0]), torch.tensor([nan])], {}))
    f.case("assume_unique", lambda: ([torch.tensor([1, 2, 3]), torch.tensor([3, 4])], {"assume_unique": True}))
    f.case("empty", lambda: ([R(0, 2), R(3)], {}))
    f = F(A.isin.Tensor_Scalar, "exact")
    f.case("int", lambda: ([I(0, 4, 6), 2], {}))
    f.case("float scalar on ints", lambda: ([torch.tensor([1, 2]), 2.5], {}))
    f = F(A.isin.Scalar_Tensor, "exact")
    f.case("int", lambda: ([2, torch.tensor([1, 2])], {}))
    f.case("invert", lambda: ([2.0, torch.tensor([1.0, 2.0])], {"invert": True}))
    f = F(A.count_nonzero.default, "exact")
    f.case("all", lambda: ([I(0, 2, 3, 4, dt=f32)], {}))
    f.case("dim -1", lambda: ([I(0, 2, 3, 4), -1], {}))
    f.case("bool", lambda: ([I(0, 2, 5, dt=b8), 0], {}))
    f.case("0-d", lambda: ([torch.tensor(2.0)], {}))
    f = F(A.count_nonzero.dim_IntList, "exact")
    f.case("two dims", lambda: ([I(0, 2, 2, 3, 4, dt=f64), [0, 2]], {}))
    f.case("empty list is all", lambda: ([I(0, 2, 2, 3), []], {}))
    f.case("nan counts", lambda: ([torch.tensor([nan, 0.0, 1.0]), [0]], {}))
    f = F(A.argwhere.default, "exact")
    f.case("2-d", lambda: ([I(0, 2, 3, 4)], {}))
    f.case("0-d", lambda: ([torch.tensor(2.0)], {}))
    f.case("empty", lambda: ([R(0, 2)], {}))
    f = F(A.nonzero_static.default, "exact")
    f.case("padded", lambda: ([torch.tensor([[1, 0], [0, 1]])], {"size": 4}))
    f.case("truncated fill", lambda: ([torch.tensor([1.0, 2.0, 0.0, 3.0])], {"size": 2, "fill_value": 9}))
    f.case("0-d", lambda: ([torch.tensor(1)], {"size": 3, "fill_value": 7}))
    f = F(A._unique2.default, "exact")
    f.case("all results", lambda: ([I(0, 5, 3, 4), True, True, True], {}))
    f.case("no flags", lambda: ([I(0, 5, 6)], {}))
    f.case("unsorted", lambda: ([torch.tensor([3, 1, 3, 2]), False, True, True], {}))
    f.case("nan distinct", lambda: ([torch.tensor([nan, 1.0, nan, -1.0]), True, True, True], {}))
    f.case("bool", lambda: ([torch.tensor([True, False, True]), True, True, True], {}))
    f.case("empty", lambda: ([R(0, 3), True, True, True], {}))
    f = F(A._unique.default, "exact")
    f.case("inverse", lambda: ([torch.tensor([[3.0, 1.0], [3.0, 2.0]]), True, True], {}))
    f.case("no inverse", lambda: ([torch.tensor([3, 1, 3])], {}))
    f = F(A.unique_dim.default, "exact")
    f.case("rows", lambda: ([torch.tensor([[2, 1], [1, 1], [2, 1]]), 0, True, True, True], {}))
    f.case("columns, flags off", lambda: ([torch.tensor([[2, 1, 2], [1, 1, 1]]), 1], {}))
    f.case("float 3-d dim -1", lambda: ([I(0, 2, 2, 2, 5, dt=f32), -1], {}))
    f.case("empty selected dim", lambda: ([R(0, 2), 0], {}))
    f = F(A.unique_dim_consecutive.default, "exact")
    f.case("rows", lambda: ([torch.tensor([[1, 1], [1, 1], [2, 1], [1, 1]]), 0, True, True], {}))
    f.case("no flags", lambda: ([torch.tensor([[1, 1, 2], [1, 1, 2]]), 1], {}))
    f = F(A.unique_consecutive.default, "exact")
    f.case("flat", lambda: ([torch.tensor([1, 1, 2, 2, 1]), True, True], {}))
    f.case("no flags", lambda: ([torch.tensor([[1.0, 1.0], [2.0, 2.0]])], {}))
    f.case("dim 0", lambda: ([torch.tensor([[1, 1], [1, 1], [2, 1]]), True, True, 0], {}))
    f.case("0-d", lambda: ([torch.tensor(3), True, True], {}))
    f.case("nan runs", lambda: ([torch.tensor([nan, nan, 1.0]), True, True], {}))


if __name__ == "__main__":
    want = sys.argv[1:]
    for s in SECTIONS:
        if not want or s.__name__ in want:
            s()
    write_all(OUT)
