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

# ---- contractions ----
f = F(A.einsum.default, "acc")
f.case("matmul", lambda: (["ij,jk->ik", [R(3, 4), R(4, 5)]], {}))
f.case("batched bmm", lambda: (["bij,bjk->bik", [R(2, 3, 4), R(2, 4, 2)]], {}))
f.case("implicit output", lambda: (["ij,jk", [R(3, 4), R(4, 5)]], {}))
f.case("trace", lambda: (["ii", [R(4, 4)]], {}))
f.case("diagonal", lambda: (["ii->i", [R(3, 3)]], {}))
f.case("sum all", lambda: (["ij->", [R(3, 4)]], {}))
f.case("transpose", lambda: (["ij->ji", [R(3, 4)]], {}))
f.case("outer", lambda: (["i,j->ij", [R(3), R(4)]], {}))
f.case("dot", lambda: (["i,i->", [R(5), R(5)]], {}))
f.case("ellipsis", lambda: (["...ij,...jk->...ik", [R(2, 3, 4), R(2, 4, 5)]], {}))
f.case("ellipsis broadcast", lambda: (["...ij,jk", [R(2, 1, 3, 4), R(4, 2)]], {}))
f.case("ellipsis summed", lambda: (["...i->i", [R(2, 3, 4)]], {}))
f.case("three operands", lambda: (["ij,jk,kl->il", [R(2, 3), R(3, 4), R(4, 5)]], {}))
f.case("attention", lambda: (["bhqd,bhkd->bhqk", [R(2, 2, 3, 4), R(2, 2, 5, 4)]], {}))
f.case("repeated with other", lambda: (["iij,jk->ik", [R(3, 3, 2), R(2, 4)]], {}))
f.case("size-1 broadcast", lambda: (["ij,ij->ij", [R(3, 1), R(1, 4)]], {}))
f.case("upper case", lambda: (["Ab,bC->AC", [R(2, 3), R(3, 2)]], {}))
f.case("float64 with spaces", lambda: (["i j , j k -> i k", [R(2, 3, dt=f64), R(3, 2, dt=f64)]], {}))
f.case("int64", lambda: (["ij,j->i", [torch.randint(-5, 5, (3, 4)), torch.randint(-5, 5, (4,))]], {}))
f.case("path", lambda: (["ij,jk,kl->il", [R(2, 3), R(3, 4), R(4, 5)]], {"path": [1, 2, 0, 1]}))
f.case("empty", lambda: (["ij,jk->ik", [R(0, 3), R(3, 2)]], {}))
f.case("contract with empty", lambda: (["ij,jk->ik", [R(2, 0), R(0, 2)]], {}))
f.case("bilinear-like", lambda: (["bn,anm,bm->ba", [R(2, 3), R(4, 3, 5), R(2, 5)]], {}))

f = F(A.tensordot.default, "acc")
f.case("one dim", lambda: ([R(3, 4), R(4, 5), [1], [0]], {}))
f.case("two dims", lambda: ([R(2, 3, 4), R(4, 3, 5), [1, 2], [1, 0]], {}))
f.case("none", lambda: ([R(2, 3), R(4), [], []], {}))
f.case("negative dims", lambda: ([R(2, 3), R(3, 2), [-1], [0]], {}))
f.case("broadcast size 1", lambda: ([R(2, 1), R(3, 4), [1], [0]], {}))
f.case("float64", lambda: ([R(3, 4, dt=f64), R(4, 3, dt=f64), [0, 1], [1, 0]], {}))

f = F(A.inner.default, "acc")
f.case("vectors", lambda: ([R(4), R(4)], {}))
f.case("matrices", lambda: ([R(2, 4), R(3, 4)], {}))
f.case("3-d", lambda: ([R(2, 3, 4), R(5, 4)], {}))
f.case("scalar", lambda: ([torch.tensor(2.0), R(3)], {}))

f = F(A.addmv.default, "acc")
f.case("default", lambda: ([R(3), R(3, 4), R(4)], {}))
f.case("beta alpha", lambda: ([R(3), R(3, 4), R(4)], {"beta": 0.5, "alpha": 2.0}))
f.case("beta 0 ignores nan", lambda: ([torch.full((3,), nan), R(3, 4), R(4)], {"beta": 0}))
f.case("broadcast self", lambda: ([R(1), R(3, 2), R(2)], {}))
f.case("float64", lambda: ([R(2, dt=f64), R(2, 5, dt=f64), R(5, dt=f64)], {"alpha": -1}))
f.case("int64", lambda: ([torch.tensor([1, 2]), torch.tensor([[1, 2], [3, 4]]), torch.tensor([5, 6])], {"beta": 2, "alpha": 3}))

f = F(A.addr.default, "acc")
f.case("default", lambda: ([R(3, 4), R(3), R(4)], {}))
f.case("beta alpha", lambda: ([R(3, 4), R(3), R(4)], {"beta": 0.5, "alpha": 2.0}))
f.case("beta 0", lambda: ([torch.full((2, 3), nan), R(2), R(3)], {"beta": 0}))
f.case("broadcast self", lambda: ([R(4), R(3), R(4)], {}))
f.case("int64", lambda: ([torch.arange(6).reshape(2, 3), torch.tensor([1, -2]), torch.tensor([3, 4, 5])], {"beta": 2, "alpha": 3}))
f.case("bool", lambda: ([torch.tensor([[True, False], [False, False]]), torch.tensor([True, False]), torch.tensor([False, True])], {}))
f.case("promote", lambda: ([torch.ones(2, 2, dtype=i64), R(2, dt=f64), R(2)], {}))

f = F(A.linalg_cross.default, "acc")
f.case("last dim", lambda: ([R(4, 3), R(4, 3)], {}))
f.case("dim 0 broadcast", lambda: ([R(3, 2), R(3, 1)], {"dim": 0}))
f.case("int64", lambda: ([torch.randint(-5, 5, (2, 3)), torch.randint(-5, 5, (2, 3))], {}))
f.case("float64", lambda: ([R(2, 3, 2, dt=f64), R(2, 3, 2, dt=f64)], {"dim": 1}))
f = F(A.cross.default, "acc")
f.case("first size-3 dim", lambda: ([R(3, 4), R(3, 4)], {}))
f.case("dim -1", lambda: ([R(2, 3), R(2, 3), -1], {}))

f = F(A.linalg_multi_dot.default, "acc")
f.case("two", lambda: ([[R(2, 3), R(3, 4)]], {}))
f.case("three", lambda: ([[R(10, 2), R(2, 8), R(8, 3)]], {}))
f.case("three other order", lambda: ([[R(2, 10), R(10, 3), R(3, 9)]], {}))
f.case("four, vectors", lambda: ([[R(3), R(3, 5), R(5, 2), R(2)]], {}))
f.case("five", lambda: ([[R(4, 2), R(2, 6), R(6, 3), R(3, 5), R(5, 1)]], {}))
f.case("first vector", lambda: ([[R(3), R(3, 4)]], {}))
f = F(A.chain_matmul.default, "acc")
f.case("three", lambda: ([[R(2, 3), R(3, 4), R(4, 2)]], {}))
f.case("one", lambda: ([[R(2, 3)]], {}))

f = F(A.linalg_matrix_power.default, "acc")
f.case("n 0", lambda: ([R(3, 3), 0], {}))
f.case("n 1", lambda: ([R(3, 3), 1], {}))
f.case("n 2 batched", lambda: ([R(2, 3, 3), 2], {}))
f.case("n 3", lambda: ([R(3, 3), 3], {}))
f.case("n 5 float64", lambda: ([R(4, 4, dt=f64), 5], {}))
f.case("n 6 int64", lambda: ([torch.randint(-2, 3, (3, 3)), 6], {}))
f = F(A.matrix_power.default, "acc")
f.case("n 4", lambda: ([R(3, 3) * 0.5, 4], {}))

# ---- determinants and inverses ----
confgen.TOL["lu"] = {f32: (1e-4, 1e-5), f64: (1e-10, 1e-12)}
W = lambda *s, dt=f32: (torch.randn(s, dtype=f64) + 2 * torch.eye(s[-1], dtype=f64)).to(dt)
f = F(A.linalg_matrix_power.default, "lu")
f.case("n -1", lambda: ([W(3, 3), -1], {}))
f.case("n -2 batched float64", lambda: ([W(2, 3, 3, dt=f64), -2], {}))
f = F(A._linalg_det.default, "lu")
f.case("3x3", lambda: ([W(3, 3)], {}))
f.case("batched float64", lambda: ([W(2, 4, 4, dt=f64)], {}))
f.case("singular", lambda: ([torch.tensor([[1.0, 2.0], [2.0, 4.0]])], {}))
f = F(A.linalg_det.default, "lu")
f.case("3x3", lambda: ([W(3, 3)], {}))
f.case("pivoting", lambda: ([torch.tensor([[0.0, 1.0, 2.0], [3.0, 0.5, 1.0], [1.0, 4.0, 0.0]], dtype=f64)], {}))
f.case("empty matrix", lambda: ([torch.empty(2, 0, 0)], {}))
f = F(A.det.default, "lu")
f.case("batched", lambda: ([W(3, 2, 2)], {}))
f = F(A._linalg_slogdet.default, "lu")
f.case("4x4", lambda: ([W(4, 4)], {}))
f = F(A.linalg_slogdet.default, "lu")
f.case("negative det", lambda: ([torch.tensor([[0.0, 1.0], [1.0, 0.0]])], {}))
f.case("batched float64", lambda: ([W(2, 3, 3, dt=f64)], {}))
f.case("singular", lambda: ([torch.zeros(2, 2)], {}))
f = F(A.slogdet.default, "lu")
f.case("3x3", lambda: ([W(3, 3)], {}))
f = F(A.logdet.default, "lu")
f.case("positive", lambda: ([W(3, 3) @ W(3, 3).T], {}))
f.case("negative is nan", lambda: ([torch.tensor([[0.0, 1.0], [1.0, 0.0]])], {}))
f.case("batched float64", lambda: ([W(2, 3, 3, dt=f64)], {}))
f = F(A.linalg_inv.default, "lu")
f.case("3x3", lambda: ([W(3, 3)], {}))
f.case("batched float64", lambda: ([W(2, 4, 4, dt=f64)], {}))
f = F(A.inverse.default, "lu")
f.case("2x2", lambda: ([W(2, 2)], {}))
f = F(A.linalg_inv_ex.default, "lu")
f.case("3x3", lambda: ([W(3, 3)], {}))

write_all(OUT)
