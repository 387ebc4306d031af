#!/usr/bin/env python3
"""Extra conformance cases for the kernels (any, mean and prod over all
elements, var.dim, sort, sort.stable, topk, _local_scalar_dense,
native_dropout, nonzero), in the exact format of /work/shared/conformance
(see its README.md). The shared vectors have no case for these ops, so
these cases are their check.

Run with PyTorch 1.13 from this directory:

    /usr/bin/python3 gen_rx.py

Every case is computed on CPU, single-threaded, under torch.no_grad(), with
its inputs drawn right after torch.manual_seed(<case seed>). sort and topk
cases with many ties pin down the order of equal elements, which ATen leaves
to libstdc++'s std::sort / std::nth_element / std::partial_sort.

any.dims and the _native_batch_norm_legit overloads are newer than PyTorch
1.13; their checks are Go tests (reduce_ops_test.go, normalization_test.go).
"""
import os

import torch

from confgen import F, enc, enc_float, enc_tensor, files, inf, nan, ri, rn, tolerance  # noqa: F401

torch.set_num_threads(1)
A = torch.ops.aten


def ties(n, m, *s, dt=torch.float32):
    """n-element rows of values in 0..m-1 (many ties)."""
    return torch.randint(0, m, s + (n,)).to(dt)


def nanrow():
    return torch.tensor([1., nan, 0., -0., -inf, nan, inf, 0., 2., -1.])


# ---- any, mean, prod over all elements -------------------------------------
f = F(A.any.default, "move")
f.case("float32 one nonzero", lambda: ([torch.tensor([[0., 0., 0.], [0., -2., 0.]])], {}))
f.case("float32 all zeros (and -0)", lambda: ([torch.tensor([[0., -0.], [0., 0.]])], {}))
f.case("nan is true", lambda: ([torch.tensor([0., nan, 0.])], {}))
f.case("empty", lambda: ([rn(0, 3)], {}))
f.case("0-d", lambda: ([torch.tensor(3.5)], {}))
f.case("uint8 gives uint8", lambda: ([torch.tensor([0, 0, 7], dtype=torch.uint8)], {}))
f.case("uint8 all zero", lambda: ([torch.zeros(2, 2, dtype=torch.uint8)], {}))
f.case("int64", lambda: ([ri(0, 2, 3, 4)], {}))
f.case("bool", lambda: ([torch.tensor([[False, False], [False, True]])], {}))
f.case("bfloat16 zeros", lambda: ([torch.zeros(3, dtype=torch.bfloat16)], {}))
f.case("float16", lambda: ([rn(2, 2, dt=torch.float16)], {}))
f.case("int8 zeros 3-d", lambda: ([torch.zeros(2, 1, 3, dtype=torch.int8)], {}))

f = F(A.mean.default, "acc")
f.case("float32", lambda: ([rn(3, 4)], {}))
f.case("float32 1000 elements", lambda: ([rn(10, 100) + 3], {}))
f.case("float64", lambda: ([rn(2, 3, 4, dt=torch.float64)], {}))
f.case("float16", lambda: ([rn(5, 7, dt=torch.float16)], {}))
f.case("bfloat16", lambda: ([rn(4, 6, dt=torch.bfloat16)], {}))
f.case("int64 with dtype float64", lambda: ([ri(-10, 10, 3, 5)], {"dtype": torch.float64}))
f.case("float32 with dtype float64", lambda: ([rn(6)], {"dtype": torch.float64}))
f.case("float64 with dtype float32", lambda: ([rn(6, dt=torch.float64)], {"dtype": torch.float32}))
f.case("empty is nan", lambda: ([rn(0, 4)], {}))
f.case("0-d", lambda: ([torch.tensor(-2.5)], {}))
f.case("inf", lambda: ([torch.tensor([1., inf, 2.])], {}))
f.case("inf - inf is nan", lambda: ([torch.tensor([1., inf, -inf])], {}))
f.case("bool with dtype float32", lambda: ([torch.tensor([True, False, True, True])], {"dtype": torch.float32}))

f = F(A.prod.default, "acc")
f.case("float32", lambda: ([rn(2, 3)], {}))
f.case("float64", lambda: ([rn(3, 3, dt=torch.float64)], {}))
f.case("int64", lambda: ([ri(-4, 5, 2, 4)], {}))
f.case("int8 gives int64", lambda: ([ri(-10, 10, 6, dt=torch.int8)], {}))
f.case("int64 with dtype int8 wraps", lambda: ([torch.tensor([100, 3, 7])], {"dtype": torch.int8}))
f.case("uint8 with dtype uint8 wraps", lambda: ([torch.tensor([200, 3], dtype=torch.uint8)], {"dtype": torch.uint8}))
f.case("bool", lambda: ([torch.tensor([True, True, False])], {}))
f.case("empty float16 is 1", lambda: ([rn(0, dt=torch.float16)], {}))
f.case("empty int32", lambda: ([ri(0, 2, 2, 0, dt=torch.int32)], {}))
f.case("0-d", lambda: ([torch.tensor(-3.)], {}))
f.case("nan and inf", lambda: ([torch.tensor([2., nan, inf])], {}))
f.case("0 * inf is nan", lambda: ([torch.tensor([0., inf])], {}))
f.case("int32 with dtype float64", lambda: ([ri(-5, 5, 5, dt=torch.int32)], {"dtype": torch.float64}))
f.case("int64 overflow wraps", lambda: ([torch.tensor([2**40, 2**30])], {}))

# ---- var.dim ---------------------------------------------------------------
f = F(A.var.dim, "acc")
f.case("float32 dim 1", lambda: ([rn(3, 4), [1]], {}))
f.case("dim None", lambda: ([rn(3, 4), None], {}))
f.case("dim [] is every dim", lambda: ([rn(2, 3), []], {}))
f.case("keepdim, biased", lambda: ([rn(3, 4, 2), [0, 2], False, True], {}))
f.case("negative dim", lambda: ([rn(2, 5), [-1], True, False], {}))
f.case("float64", lambda: ([rn(4, 6, dt=torch.float64), [0]], {}))
f.case("float16", lambda: ([rn(3, 8, dt=torch.float16), [1]], {}))
f.case("bfloat16", lambda: ([rn(3, 8, dt=torch.bfloat16), [1]], {}))
f.case("0-d dim None is nan", lambda: ([torch.tensor(2.), None], {}))
f.case("0-d biased is 0", lambda: ([torch.tensor(2.), [0], False], {}))
f.case("one element unbiased is nan", lambda: ([rn(1, 3), [0]], {}))
f.case("empty dim is nan", lambda: ([rn(0, 3), [0]], {}))
f.case("empty other dim", lambda: ([rn(0, 3), [1], True, True], {}))
f.case("nan and inf", lambda: ([torch.tensor([[1., nan, 2.], [1., inf, 3.]]), [1]], {}))

# ---- sort ------------------------------------------------------------------
f = F(A.sort.default, "move")
f.case("float32 defaults", lambda: ([rn(6)], {}))
f.case("float32 dim 0", lambda: ([rn(4, 3), 0], {}))
f.case("descending", lambda: ([rn(3, 5), -1, True], {}))
f.case("nan, inf, signed zeros", lambda: ([nanrow()], {}))
f.case("nan, inf, signed zeros descending", lambda: ([nanrow(), 0, True], {}))
f.case("ties n=12 (insertion sort)", lambda: ([ties(12, 3)], {}))
f.case("ties n=40 (introsort)", lambda: ([ties(40, 4, 2)], {}))
f.case("ties n=40 descending", lambda: ([ties(40, 4, 2), 1, True], {}))
f.case("ties n=100 dim 0", lambda: ([ties(100, 5, 2).t().contiguous(), 0], {}))
f.case("ties and nan n=60", lambda: ([torch.where(torch.rand(60) < 0.2, torch.tensor(nan), ties(60, 3))], {}))
f.case("int64 ties n=50", lambda: ([ties(50, 6, dt=torch.int64)], {}))
f.case("int32 descending", lambda: ([ri(-100, 100, 3, 7, dt=torch.int32), 1, True], {}))
f.case("uint8 ties n=30", lambda: ([ties(30, 3, dt=torch.uint8)], {}))
f.case("bool n=25", lambda: ([ties(25, 2, dt=torch.bool)], {}))
f.case("float16 ties", lambda: ([ties(20, 4, dt=torch.float16), 0, True], {}))
f.case("bfloat16", lambda: ([rn(2, 9, dt=torch.bfloat16)], {}))
f.case("int8 3-d middle dim", lambda: ([ri(-5, 5, 2, 18, 2, dt=torch.int8), 1], {}))
f.case("0-d", lambda: ([torch.tensor(4.), 0], {}))
f.case("empty rows", lambda: ([rn(0, 3), 1], {}))
f.case("empty sort dim", lambda: ([rn(2, 0), 1], {}))
f.case("size-1 dim", lambda: ([rn(3, 1), 1], {}))
f.case("all equal n=33", lambda: ([torch.ones(33)], {}))
f.case("sorted input n=33", lambda: ([torch.arange(33.)], {}))
f.case("reversed input n=33", lambda: ([torch.arange(33.).flip(0)], {}))

f = F(A.sort.stable, "move")
f.case("stable ties n=40", lambda: ([ties(40, 4, 2)], {"stable": True}))
f.case("stable descending with nan", lambda: ([torch.where(torch.rand(30) < 0.2, torch.tensor(nan), ties(30, 3))], {"stable": True, "descending": True}))
f.case("stable=False ties n=40", lambda: ([ties(40, 4)], {"stable": False}))
f.case("stable int64 dim 0", lambda: ([ties(20, 3, 2, dt=torch.int64).t().contiguous()], {"stable": True, "dim": 0}))
f.case("stable bool", lambda: ([ties(20, 2, dt=torch.bool)], {"stable": True, "descending": True}))
f.case("stable 0-d", lambda: ([torch.tensor(1.5)], {"stable": True}))

# ---- topk ------------------------------------------------------------------
f = F(A.topk.default, "move")
f.case("float32 k=2", lambda: ([rn(6), 2], {}))
f.case("dim 0 k=3", lambda: ([rn(5, 3), 3, 0], {}))
f.case("smallest", lambda: ([rn(3, 8), 3, -1, False], {}))
f.case("unsorted nth_element n=8", lambda: ([rn(2, 8), 4, 1, True, False], {}))
f.case("unsorted n=40", lambda: ([rn(40), 7, 0, True, False], {}))
f.case("unsorted smallest n=40", lambda: ([rn(40), 7, 0, False, False], {}))
f.case("partial_sort path n=200 k=3", lambda: ([rn(2, 200), 3], {}))
f.case("partial_sort ties", lambda: ([ties(200, 4, 2), 3], {}))
f.case("partial_sort ties smallest", lambda: ([ties(130, 3), 2, -1, False], {}))
f.case("partial_sort ties unsorted", lambda: ([ties(128, 3), 2, -1, True, False], {}))
f.case("nth_element ties n=50 k=10", lambda: ([ties(50, 4, 2), 10], {}))
f.case("nth_element ties unsorted", lambda: ([ties(50, 4, 2), 10, -1, True, False], {}))
f.case("nth_element ties smallest n=30", lambda: ([ties(30, 3, 2), 12, 1, False], {}))
f.case("nan is largest", lambda: ([nanrow(), 4], {}))
f.case("nan smallest", lambda: ([nanrow(), 4, 0, False], {}))
f.case("nan ties n=70 k=20", lambda: ([torch.where(torch.rand(70) < 0.2, torch.tensor(nan), ties(70, 3)), 20], {}))
f.case("int64 ties", lambda: ([ties(40, 5, dt=torch.int64), 6], {}))
f.case("int8", lambda: ([ri(-100, 100, 3, 6, dt=torch.int8), 2], {}))
f.case("uint8 smallest", lambda: ([ri(0, 255, 9, dt=torch.uint8), 3, 0, False], {}))
f.case("int32 k = n", lambda: ([ri(-9, 9, 2, 5, dt=torch.int32), 5], {}))
f.case("bfloat16", lambda: ([rn(2, 10, dt=torch.bfloat16), 3], {}))
f.case("k=0", lambda: ([rn(3, 4), 0], {}))
f.case("0-d k=1", lambda: ([torch.tensor(2.), 1], {}))
f.case("0-d k=0 still copies", lambda: ([torch.tensor(2.), 0], {}))
f.case("empty rows", lambda: ([rn(0, 4), 2], {}))
f.case("empty dim k=0", lambda: ([rn(3, 0), 0], {}))
f.case("3-d middle dim", lambda: ([ties(6, 3, 2, 2).transpose(1, 2).contiguous(), 2, 1], {}))
f.case("float64 k=1", lambda: ([rn(4, 3, dt=torch.float64), 1, 0], {}))

# ---- _local_scalar_dense ---------------------------------------------------
f = F(A._local_scalar_dense.default, "move")
f.case("float32", lambda: ([torch.tensor(2.5)], {}))
f.case("float32 not exactly representable", lambda: ([torch.tensor(1.1)], {}))
f.case("float64", lambda: ([torch.tensor(-1e300, dtype=torch.float64)], {}))
f.case("float16", lambda: ([torch.tensor(1.1, dtype=torch.float16)], {}))
f.case("bfloat16", lambda: ([torch.tensor(1.1, dtype=torch.bfloat16)], {}))
f.case("nan", lambda: ([torch.tensor(nan)], {}))
f.case("-inf", lambda: ([torch.tensor(-inf)], {}))
f.case("int64 large", lambda: ([torch.tensor(2**62 + 1)], {}))
f.case("int8 negative", lambda: ([torch.tensor(-5, dtype=torch.int8)], {}))
f.case("uint8", lambda: ([torch.tensor(250, dtype=torch.uint8)], {}))
f.case("int32 1-element [1, 1]", lambda: ([torch.tensor([[7]], dtype=torch.int32)], {}))
f.case("bool true", lambda: ([torch.tensor(True)], {}))
f.case("bool false [1]", lambda: ([torch.tensor([False])], {}))
f.case("2 elements: ATen reads the first, unchecked", lambda: ([torch.tensor([3.5, 2.0])], {}))

# ---- native_dropout --------------------------------------------------------
f = F(A.native_dropout.default, "move")
f.case("eval", lambda: ([rn(3, 4), 0.5, False], {}))
f.case("eval p ignored", lambda: ([rn(2), 1.5, False], {}))
f.case("train p=0", lambda: ([rn(2, 3), 0.0, True], {}))
f.case("train None p=0", lambda: ([rn(4), 0.0, None], {}))
f.case("train p=1: zeros, nan for nan and inf", lambda: ([torch.tensor([1., -2., nan, inf, -inf]), 1.0, True], {}))
f.case("eval int64", lambda: ([ri(-5, 5, 2, 2), 0.3, False], {}))
f.case("eval bool", lambda: ([torch.tensor([True, False]), 0.3, False], {}))
f.case("train empty: mask has input dtype", lambda: ([rn(0, 3), 0.5, True], {}))
f.case("eval empty int32", lambda: ([ri(0, 2, 0, dt=torch.int32), 0.5, False], {}))
f.case("train float16 p=0", lambda: ([rn(3, dt=torch.float16), 0.0, True], {}))
f.case("train bfloat16 p=1", lambda: ([rn(3, dt=torch.bfloat16), 1.0, True], {}))
f.case("train 0-d p=0", lambda: ([torch.tensor(2.), 0.0, True], {}))
f.case("eval float64 3-d", lambda: ([rn(2, 1, 2, dt=torch.float64), 0.2, False], {}))

# ---- nonzero ---------------------------------------------------------------
f = F(A.nonzero.default, "move")
f.case("float32 2-d", lambda: ([torch.tensor([[0., 1., 0.], [2., 0., -3.]])], {}))
f.case("nan counts, -0 does not", lambda: ([torch.tensor([nan, 0., -0., inf])], {}))
f.case("bool 3-d", lambda: ([torch.rand(2, 3, 4) < 0.4], {}))
f.case("int64", lambda: ([ri(-1, 2, 4, 3)], {}))
f.case("uint8", lambda: ([ri(0, 2, 7, dt=torch.uint8)], {}))
f.case("int8", lambda: ([ri(-1, 2, 2, 5, dt=torch.int8)], {}))
f.case("all zero", lambda: ([torch.zeros(2, 3)], {}))
f.case("0-d nonzero", lambda: ([torch.tensor(5.)], {}))
f.case("0-d zero", lambda: ([torch.tensor(0)], {}))
f.case("empty", lambda: ([rn(2, 0, 3)], {}))
f.case("float16", lambda: ([torch.tensor([0., 0.5, 0.], dtype=torch.float16)], {}))
f.case("bfloat16 4-d", lambda: ([(torch.rand(2, 1, 2, 3) < 0.5).to(torch.bfloat16)], {}))

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for f in files:
        f.write(here)
