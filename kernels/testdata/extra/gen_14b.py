#!/usr/bin/python3
"""Extra conformance cases for issue 14's math families (kernels/norm.go,
special.go, einsum.go, loss.go): the norms, contractions, losses and
pointwise special functions real models call beyond the ones seen in the
issue's programs.

Writes aten.<op>.<overload>.jsonl beside this script, in the format of
testdata/conformance/README.md, with PyTorch 2.6 (the schemas are 2.6's):

    cd kernels/testdata/extra && ../../../../shared/tools/torch2 gen_14b.py
"""

import os

import torch

import confgen
from confgen import F, write_all

torch.set_num_threads(1)
A = torch.ops.aten
OUT = os.path.dirname(os.path.abspath(__file__))
f32, f64, bf16, b8, i64, i32 = torch.float32, torch.float64, torch.bfloat16, torch.bool, torch.int64, torch.int32
inf, nan = float("inf"), float("nan")

confgen.TOL["exact"] = {f32: (0.0, 0.0), f64: (0.0, 0.0), bf16: (0.0, 0.0)}
# Reductions and products: PyTorch sums float32 in its own (vectorized)
# order; gofx sums in float64 and rounds once.
confgen.TOL["acc"] = {f32: (1e-5, 1e-6), f64: (1e-12, 1e-12), bf16: (1.6e-2, 1e-2)}
# Singular values: LAPACK's and gonum's SVD differ in the last bits.
confgen.TOL["svd"] = {f32: (1e-5, 1e-5), f64: (1e-10, 1e-10)}
# Elementwise special functions: a few ulps.
confgen.TOL["ulp"] = {f32: (1e-6, 1e-7), f64: (1e-13, 1e-15), bf16: (8e-3, 1e-5)}


def R(*shape, dt=f32):
    return torch.randn(shape, dtype=f64).to(dt)


# ---- norms ----
f = F(A.linalg_vector_norm.default, "acc")
f.case("default 2-norm", lambda: ([R(3, 4)], {}))
f.case("ord 1 dim 1 keepdim", lambda: ([R(3, 4), 1, [1], True], {}))
f.case("ord inf", lambda: ([R(2, 3, 4), inf, [0, 2]], {}))
f.case("ord -inf", lambda: ([R(2, 5), -inf, [1]], {}))
f.case("ord 0", lambda: ([torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -3.0]]), 0], {}))
f.case("ord 3 float64", lambda: ([R(4, 3, dt=f64), 3, [0]], {}))
f.case("ord 0.5", lambda: ([R(6), 0.5], {}))
f.case("ord -1", lambda: ([R(2, 3) + 0.1, -1, [1]], {}))
f.case("dtype float64", lambda: ([R(3, 3), 2], {"dtype": f64}))
f.case("bfloat16", lambda: ([R(4, 8, dt=bf16), 2, [1]], {}))
f.case("empty dim []", lambda: ([R(2, 3), 2, []], {}))
f.case("empty tensor", lambda: ([torch.empty(0, 3), 2, [0]], {}))
f.case("nan and inf", lambda: ([torch.tensor([[1.0, nan], [inf, 2.0]]), 2, [1]], {}))
f.case("inf with nan", lambda: ([torch.tensor([[1.0, nan, 3.0], [inf, 2.0, -5.0]]), inf, [1]], {}))
f.case("0-d", lambda: ([torch.tensor(-3.0), 2], {}))

f = F(A.norm.Scalar, "acc")
f.case("default", lambda: ([R(3, 4)], {}))
f.case("p 1", lambda: ([R(5), 1], {}))
f.case("p 3 float64", lambda: ([R(2, 3, dt=f64), 3.0], {}))
f = F(A.norm.ScalarOpt_dim, "acc")
f.case("p None dim 1", lambda: ([R(3, 4), None, [1]], {}))
f.case("p inf keepdim", lambda: ([R(3, 4), inf, [0], True], {}))
f.case("two dims", lambda: ([R(2, 3, 4), 2, [0, 2]], {}))
f = F(A.norm.ScalarOpt_dtype, "acc")
f.case("to float64", lambda: ([R(3, 2), 2], {"dtype": f64}))
f = F(A.norm.ScalarOpt_dim_dtype, "acc")
f.case("dim, float64", lambda: ([R(3, 2), 1, [0], False], {"dtype": f64}))

f = F(A.frobenius_norm.dim, "acc")
f.case("two dims", lambda: ([R(2, 3, 4), [1, 2]], {}))
f.case("one dim keepdim", lambda: ([R(3, 4), [0], True], {}))

f = F(A.linalg_matrix_norm.default, "acc")
f.case("ord 1", lambda: ([R(3, 4), 1], {}))
f.case("ord -1", lambda: ([R(3, 4), -1], {}))
f.case("ord inf batched", lambda: ([R(2, 3, 4), inf], {}))
f.case("ord -inf keepdim", lambda: ([R(2, 3, 4), -inf, [-2, -1], True], {}))
f.case("ord 1 dims (2, 0)", lambda: ([R(3, 2, 4), 1, [2, 0]], {}))
f.case("ord inf dims (0, 2) keepdim", lambda: ([R(3, 2, 4), inf, [0, 2], True], {}))
f.kind = "svd"
f.case("ord 2", lambda: ([R(3, 4), 2], {}))
f.case("ord -2 float64 batched", lambda: ([R(2, 4, 3, dt=f64), -2], {}))
f = F(A.linalg_matrix_norm.str_ord, "acc")
f.case("fro", lambda: ([R(3, 4)], {}))
f.case("fro dims keepdim", lambda: ([R(2, 3, 4), "fro", [0, 2], True], {}))
f.case("fro dtype", lambda: ([R(2, 3), "fro"], {"dtype": f64}))
f.kind = "svd"
f.case("nuc", lambda: ([R(3, 4), "nuc"], {}))
f.case("nuc float64 batched", lambda: ([R(2, 3, 3, dt=f64), "nuc"], {}))

f = F(A.linalg_norm.default, "acc")
f.case("all", lambda: ([R(2, 3, 4)], {}))
f.case("vector ord 1", lambda: ([R(5), 1], {}))
f.case("matrix ord inf", lambda: ([R(3, 4), inf], {}))
f.case("dim 1 ord 3", lambda: ([R(3, 4), 3, [1]], {}))
f.case("dims ord -1 keepdim", lambda: ([R(2, 3, 4), -1, [0, 1], True], {}))
f.case("dtype", lambda: ([R(3)], {"dtype": f64}))
f = F(A.linalg_norm.ord_str, "acc")
f.case("fro", lambda: ([R(3, 4), "fro"], {}))
f.case("fro dims", lambda: ([R(2, 3, 4), "fro", [2, 1]], {}))
f.kind = "svd"
f.case("nuc", lambda: ([R(4, 3), "nuc"], {}))

f = F(A.nuclear_norm.default, "svd")
f.case("2-d", lambda: ([R(3, 5)], {}))
f.case("keepdim float64", lambda: ([R(4, 4, dt=f64), True], {}))
f = F(A.nuclear_norm.dim, "svd")
f.case("dims (0, 2)", lambda: ([R(3, 2, 4), [0, 2]], {}))

f = F(A.renorm.default, "acc")
f.case("dim 0 p 2", lambda: ([R(3, 4) * 2, 2, 0, 1.0], {}))
f.case("dim 1 p 1 float64", lambda: ([R(3, 4, dt=f64), 1, 1, 0.5], {}))
f.case("3-d p inf none scaled", lambda: ([R(2, 3, 2), inf, 2, 100.0], {}))
f.case("bfloat16", lambda: ([R(3, 4, dt=bf16), 2, 0, 0.5], {}))

f = F(A.dist.default, "acc")
f.case("default", lambda: ([R(3, 4), R(3, 4)], {}))
f.case("broadcast p 1", lambda: ([R(3, 4), R(4), 1], {}))
f.case("p inf float64", lambda: ([R(5, dt=f64), R(5, dt=f64), inf], {}))
f.case("p 0", lambda: ([torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 0.0, 3.0]), 0], {}))

f = F(A.norm_except_dim.default, "acc")
f.case("dim 0", lambda: ([R(3, 4, 2)], {}))
f.case("last dim", lambda: ([R(3, 4), 2, 1], {}))
f.case("middle dim", lambda: ([R(2, 3, 4), 2, 1], {}))
f.case("dim -1", lambda: ([R(2, 3), 2, -1], {}))
f.case("pow 1", lambda: ([R(3, 4), 1, 0], {}))

f = F(A._weight_norm.default, "acc")
f.case("dim 0", lambda: ([R(4, 3, 2), R(4, 1, 1).abs()], {}))
f.case("last dim", lambda: ([R(3, 5), R(1, 5), 1], {}))
f.case("middle dim", lambda: ([R(2, 3, 4), R(1, 3, 1), 1], {}))
f.case("float64", lambda: ([R(3, 4, dt=f64), R(3, 1, dt=f64)], {}))
f = F(A._weight_norm_interface.default, "acc")
f.case("dim 0", lambda: ([R(4, 3), R(4, 1)], {}))
f.case("last dim", lambda: ([R(3, 2, 5), R(1, 1, 5), 2], {}))

f = F(A.cosine_similarity.default, "acc")
f.case("dim 1", lambda: ([R(3, 5), R(3, 5)], {}))
f.case("broadcast dim -1", lambda: ([R(2, 3, 4), R(4), -1], {}))
f.case("zeros eps", lambda: ([torch.zeros(2, 3), R(2, 3), 1, 1e-6], {}))
f.case("int and float", lambda: ([torch.tensor([[1, 2, 3]]), R(1, 3, dt=f64)], {}))
f.case("float64 dim 0", lambda: ([R(4, 2, dt=f64), R(4, 2, dt=f64), 0], {}))

f = F(A.pairwise_distance.default, "acc")
f.case("2-d", lambda: ([R(3, 4), R(3, 4)], {}))
f.case("broadcast p 1 keepdim", lambda: ([R(3, 4), R(1, 4), 1.0, 1e-6, True], {}))
f.case("1-d p inf", lambda: ([R(5), R(5), inf], {}))
f.case("float64 p 3", lambda: ([R(2, 3, dt=f64), R(2, 3, dt=f64), 3.0], {}))

f = F(A.pdist.default, "acc")
f.case("p 2", lambda: ([R(4, 3)], {}))
f.case("p 1 float64", lambda: ([R(5, 2, dt=f64), 1.0], {}))
f.case("one row", lambda: ([R(1, 3)], {}))

write_all(OUT)
