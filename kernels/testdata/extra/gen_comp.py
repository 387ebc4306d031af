#!/usr/bin/python3
"""Extra conformance cases for the composite kernels added for torch.export
programs: shape composites (narrow, chunk, unbind, split.sizes, stack,
hstack, vstack, unflatten, broadcast_to, movedim, swapaxes, tile, roll,
repeat_interleave, the *_copy view forms, lift_fresh_copy, detach),
where with Scalars, clip, isfinite, std/var_mean/std_mean, logsumexp,
selu, celu, glu, softshrink, prelu, dot, mv, outer, trace, baddbmm,
addbmm and the losses (mse_loss, l1_loss, nll_loss*, cross_entropy_loss).

Writes aten.<op>.<overload>.jsonl beside this script, in the format of
testdata/conformance/README.md, with PyTorch 1.13 (Debian python3-torch):

    cd kernels/testdata/extra && /usr/bin/python3 gen_comp.py
"""

import os

import torch

import confgen
from confgen import F, write_all

torch.set_num_threads(1)
A = torch.ops.aten
OUT = os.path.dirname(os.path.abspath(__file__))
f32, f64, f16, bf16 = torch.float32, torch.float64, torch.float16, torch.bfloat16
i64, i32, u8, b8 = torch.int64, torch.int32, torch.uint8, torch.bool
inf, nan = float("inf"), float("nan")

confgen.TOL["exact"] = {f32: (0.0, 0.0), f64: (0.0, 0.0), f16: (0.0, 0.0), bf16: (0.0, 0.0)}
confgen.TOL["ew"] = {f32: (1.3e-6, 1e-5), f64: (1e-7, 1e-7), f16: (1e-3, 1e-5), bf16: (1.6e-2, 1e-5)}
confgen.TOL["acc"][f32] = (1e-5, 1e-5)


def R(*shape, dt=f32):
    if dt == b8:
        return torch.rand(shape) < 0.5
    if dt.is_floating_point:
        return torch.randn(shape, dtype=f64).to(dt)
    return torch.randint(-9, 10, shape).to(dt)


def T(v, dt):
    return torch.tensor(v, dtype=dt)


# --- shape composites ------------------------------------------------------
f = F(A.narrow.default, "move")
f.case("dim 1", lambda: ([R(3, 5), 1, 1, 3], {}))
f.case("negative start", lambda: ([R(4, 2), 0, -3, 2], {}))
f.case("length 0", lambda: ([R(4), 0, 4, 0], {}))

f = F(A.chunk.default, "move")
f.case("5 into 2", lambda: ([R(5, 2), 2], {}))
f.case("dim 1 into 3", lambda: ([R(2, 7), 3, 1], {}))
f.case("more chunks than size", lambda: ([R(2, 3), 4, 0], {}))

f = F(A.unbind.int, "move")
f.case("dim 0", lambda: ([R(3, 2)], {}))
f.case("dim -1", lambda: ([R(2, 3), -1], {}))

f = F(A.split.sizes, "move")
f.case("sizes", lambda: ([R(6, 2), [1, 2, 3]], {}))

f = F(A.stack.default, "move")
f.case("dim 0", lambda: ([[R(2, 3), R(2, 3)]], {}))
f.case("dim -1", lambda: ([[R(2), R(2), R(2)], -1], {}))
f.case("0-d", lambda: ([[T(1.0, f32), T(2.0, f32)]], {}))

f = F(A.hstack.default, "move")
f.case("1-d", lambda: ([[R(2), R(3)]], {}))
f.case("2-d", lambda: ([[R(2, 1), R(2, 3)]], {}))

f = F(A.vstack.default, "move")
f.case("1-d", lambda: ([[R(3), R(3)]], {}))
f.case("2-d", lambda: ([[R(1, 3), R(2, 3)]], {}))

f = F(A.unflatten.int, "move")
f.case("-1", lambda: ([R(2, 6), 1, [3, -1]], {}))

f = F(A.broadcast_to.default, "move")
f.case("expand", lambda: ([R(3, 1), [2, 3, 4]], {}))

f = F(A.movedim.intlist, "move")
f.case("two dims", lambda: ([R(2, 3, 4, 5), [0, 1], [2, 0]], {}))
f = F(A.movedim.int, "move")
f.case("one dim", lambda: ([R(2, 3, 4), -1, 0], {}))

f = F(A.swapaxes.default, "move")
f.case("swap", lambda: ([R(2, 3, 4), 0, 2], {}))

f = F(A.tile.default, "move")
f.case("fewer dims", lambda: ([R(2, 3), [2]], {}))
f.case("more dims", lambda: ([R(2), [2, 1, 3]], {}))

f = F(A.roll.default, "move")
f.case("flattened", lambda: ([R(3, 4), [5]], {}))
f.case("two dims", lambda: ([R(3, 4), [1, -2], [0, 1]], {}))

f = F(A.repeat_interleave.self_int, "move")
f.case("flattened", lambda: ([R(2, 2), 2], {}))
f.case("dim 1", lambda: ([R(2, 3), 3, 1], {}))
f = F(A.repeat_interleave.self_Tensor, "move")
f.case("per row", lambda: ([R(3, 2), T([1, 0, 2], i64), 0], {}))
f = F(A.repeat_interleave.Tensor, "move")
f.case("counts", lambda: ([T([2, 0, 3], i64)], {}))

for ov, mk in [(A.view_copy.default, lambda: ([R(2, 6), [3, 4]], {})),
               (A.permute_copy.default, lambda: ([R(2, 3, 4), [2, 0, 1]], {})),
               (A.select_copy.int, lambda: ([R(3, 4), 1, 2], {})),
               (A.slice_copy.Tensor, lambda: ([R(6, 2), 0, 1, 5, 2], {})),
               (A.t_copy.default, lambda: ([R(2, 3)], {})),
               (A.unsqueeze_copy.default, lambda: ([R(2, 3), 1], {})),
               (A.expand_copy.default, lambda: ([R(3, 1), [3, 4]], {})),
               (A.transpose_copy.int, lambda: ([R(2, 3), 0, 1], {})),
               (A.split_copy.Tensor, lambda: ([R(5, 2), 2], {})),
               (A.lift_fresh_copy.default, lambda: ([R(3)], {})),
               (A.detach.default, lambda: ([R(2, 2)], {}))]:
    f = F(ov, "move")
    f.case("copy", mk)

# --- compare / reductions --------------------------------------------------
f = F(A.where.ScalarOther, "exact")
f.case("float32 self, float other", lambda: ([R(2, 3, dt=b8), R(2, 3), -1.5], {}))
f.case("int64 self, float other promotes", lambda: ([R(4, dt=b8), R(4, dt=i64), 0.5], {}))
f = F(A.where.ScalarSelf, "exact")
f.case("int scalar, float16 other", lambda: ([R(3, dt=b8), 2, R(3, dt=f16)], {}))
f = F(A.where.Scalar, "exact")
f.case("two floats", lambda: ([R(2, 2, dt=b8), 1.0, 0.0], {}))
f.case("two ints", lambda: ([R(3, dt=b8), 1, -1], {}))

f = F(A.clip.default, "exact")
f.case("bounds", lambda: ([R(6), -0.5, 0.5], {}))
f = F(A.isfinite.default, "exact")
f.case("specials", lambda: ([T([1.0, inf, -inf, nan], f32)], {}))
f.case("ints", lambda: ([R(3, dt=i64)], {}))

for ov in (A.std.correction, A.var_mean.correction, A.std_mean.correction):
    f = F(ov, "acc")
    f.case("dim 1", lambda: ([R(3, 5), [1]], {"correction": 1}))
    f.case("all, correction 0, keepdim", lambda: ([R(2, 3, dt=f64), None], {"correction": 0, "keepdim": True}))
f = F(A.std.dim, "acc")
f.case("biased dim 0", lambda: ([R(4, 3), [0], False], {}))
f = F(A.std.default, "acc")
f.case("unbiased", lambda: ([R(7)], {}))
f = F(A.var.default, "acc")
f.case("unbiased", lambda: ([R(3, 3)], {}))

f = F(A.logsumexp.default, "acc")
f.case("dim 1", lambda: ([R(3, 4) * 10, [1]], {}))
f.case("keepdim, -inf row", lambda: ([T([[1.0, 2.0], [-inf, -inf]], f32), [1], True], {}))
f.case("int input", lambda: ([R(2, 3, dt=i64), [0]], {}))
f.case("two dims float64", lambda: ([R(2, 3, 4, dt=f64), [0, 2]], {}))

# --- activations -----------------------------------------------------------
f = F(A.selu.default, "ew")
f.case("float32", lambda: ([R(8) * 3], {}))
f = F(A.celu.default, "ew")
f.case("alpha 0.5", lambda: ([R(8) * 3, 0.5], {}))
f = F(A.glu.default, "ew")
f.case("last dim", lambda: ([R(3, 4)], {}))
f.case("dim 0", lambda: ([R(4, 3), 0], {}))
f = F(A.softshrink.default, "exact")
f.case("lambd 0.5", lambda: ([T([-1.0, -0.5, -0.2, 0.0, 0.3, 0.5, 2.0, nan], f32)], {}))
f.case("float64 lambd 1", lambda: ([R(6, dt=f64) * 2, 1.0], {}))
f = F(A.prelu.default, "ew")
f.case("per channel", lambda: ([R(2, 3, 4), R(3)], {}))
f.case("single weight", lambda: ([R(5), T([0.25], f32)], {}))

# --- linear algebra --------------------------------------------------------
f = F(A.dot.default, "acc")
f.case("float32", lambda: ([R(5), R(5)], {}))
f = F(A.mv.default, "acc")
f.case("3x4 by 4", lambda: ([R(3, 4), R(4)], {}))
f = F(A.outer.default, "ew")
f.case("3 x 2", lambda: ([R(3), R(2)], {}))
f = F(A.trace.default, "acc")
f.case("float 3x4", lambda: ([R(3, 4)], {}))
f.case("int", lambda: ([R(3, 3, dt=i32)], {}))
f = F(A.baddbmm.default, "acc")
f.case("beta, alpha", lambda: ([R(2, 3, 4), R(2, 3, 5), R(2, 5, 4)], {"beta": 0.5, "alpha": 2.0}))
f.case("broadcast self", lambda: ([R(4), R(2, 3, 5), R(2, 5, 4)], {}))
f.case("beta 0 ignores NaN", lambda: ([torch.full((2, 2, 2), nan), R(2, 2, 3), R(2, 3, 2)], {"beta": 0}))
f = F(A.addbmm.default, "acc")
f.case("sum of batches", lambda: ([R(3, 4), R(2, 3, 5), R(2, 5, 4)], {"beta": 0.5}))

# --- losses ----------------------------------------------------------------
f = F(A.mse_loss.default, "acc")
f.case("mean", lambda: ([R(3, 4), R(3, 4)], {}))
f.case("none", lambda: ([R(3, 4), R(3, 4), 0], {}))
f.case("sum", lambda: ([R(5), R(5), 2], {}))
f = F(A.l1_loss.default, "acc")
f.case("mean", lambda: ([R(3, 4), R(3, 4)], {}))
f.case("none", lambda: ([R(3), R(3), 0], {}))

f = F(A.nll_loss_forward.default, "acc")
f.case("mean, ignored target", lambda: ([R(4, 3), T([0, 2, -100, 1], i64), None, 1, -100], {}))
f.case("sum with weight", lambda: ([R(4, 3), T([0, 2, 2, 1], i64), R(3).abs(), 2, -100], {}))
f.case("mean with weight, 1-d input", lambda: ([R(5), T(3, i64), R(5).abs(), 1, -100], {}))
f = F(A.nll_loss.default, "acc")
f.case("none", lambda: ([R(4, 3), T([0, 2, 1, 1], i64), None, 0], {}))
f.case("ignore_index 1", lambda: ([R(4, 3), T([0, 2, 1, 1], i64), None, 1, 1], {}))
f = F(A.nll_loss2d.default, "acc")
f.case("mean", lambda: ([R(2, 3, 2, 2), torch.randint(0, 3, (2, 2, 2)), None, 1], {}))
f.case("none weight", lambda: ([R(2, 3, 2, 2), torch.randint(0, 3, (2, 2, 2)), R(3).abs(), 0], {}))
f = F(A.nll_loss_nd.default, "acc")
f.case("3-d input", lambda: ([R(2, 3, 4), torch.randint(0, 3, (2, 4))], {}))

f = F(A.cross_entropy_loss.default, "acc")
f.case("indices mean", lambda: ([R(4, 5), torch.randint(0, 5, (4,))], {}))
f.case("indices none, weight", lambda: ([R(4, 5), torch.randint(0, 5, (4,)), R(5).abs(), 0], {}))
f.case("spatial", lambda: ([R(2, 3, 4), torch.randint(0, 3, (2, 4))], {}))
f.case("label smoothing", lambda: ([R(4, 5), T([1, -100, 3, 0], i64), None, 1, -100, 0.1], {}))
f.case("label smoothing, weight", lambda: ([R(4, 5), T([1, -100, 3, 0], i64), R(5).abs(), 1, -100, 0.2], {}))
f.case("label smoothing sum", lambda: ([R(3, 4), T([1, 2, 3], i64), None, 2, -100, 0.3], {}))
f.case("probabilities", lambda: ([R(3, 4), torch.softmax(R(3, 4), 1)], {}))
f.case("probabilities, smoothing, weight", lambda: ([R(3, 4), torch.softmax(R(3, 4), 1), R(4).abs(), 1, -100, 0.1], {}))
f.case("unbatched", lambda: ([R(5), T(2, i64)], {}))

# --- padding and convolution composites ----------------------------------
f = F(A.pad.default, "move")
f.case("constant value", lambda: ([R(2, 3), [1, 2], "constant", 1.5], {}))
f.case("reflect 2-d", lambda: ([R(1, 2, 3, 4), [1, 1, 2, 0], "reflect"], {}))
f.case("replicate 1-d", lambda: ([R(2, 3, 4), [2, 1], "replicate"], {}))
f.case("circular 2-d", lambda: ([R(1, 1, 3, 4), [1, 2, 2, 1], "circular"], {}))
f = F(A._pad_circular.default, "move")
f.case("crop and wrap", lambda: ([R(1, 2, 5), [-1, 3]], {}))
f = F(A.replication_pad1d.default, "move")
f.case("batched", lambda: ([R(2, 3, 4), [3, 1]], {}))

f = F(A.conv2d.padding, "acc")
f.case("same, odd kernel", lambda: ([R(1, 2, 5, 5), R(3, 2, 3, 3), R(3), [1, 1], "same"], {}))
f.case("same, even kernel (asymmetric)", lambda: ([R(1, 2, 5, 4), R(2, 2, 2, 4), None, [1, 1], "same", [1, 2]], {}))
f.case("valid", lambda: ([R(2, 1, 4, 4), R(1, 1, 3, 3), None, [2, 1], "valid"], {}))
f = F(A.conv1d.padding, "acc")
f.case("same dilated", lambda: ([R(1, 2, 7), R(2, 2, 4), None, [1], "same", [2]], {}))

f = F(A._convolution.default, "acc")
f.case("plain", lambda: ([R(1, 2, 5, 5), R(3, 2, 3, 3), R(3), [1, 1], [1, 1], [1, 1], False, [0, 0], 1, False, False, True, True], {}))

f = F(A.pixel_shuffle.default, "move")
f.case("r 2", lambda: ([R(1, 8, 2, 3), 2], {}))
f.case("batch dims, r 3", lambda: ([R(2, 1, 9, 1, 2), 3], {}))
f = F(A.pixel_unshuffle.default, "move")
f.case("r 2", lambda: ([R(1, 2, 4, 6), 2], {}))
f = F(A.one_hot.default, "exact")
f.case("num_classes 5", lambda: ([T([0, 3, 1, 4], i64), 5], {}))
f.case("2-d", lambda: ([T([[1, 0], [2, 2]], i64), 3], {}))
f = F(A.cumprod.default, "acc")
f.case("float32 dim 1", lambda: ([R(3, 4), 1], {}))
f.case("int32 gives int64", lambda: ([R(5, dt=i32), 0], {}))
f.case("dtype float64", lambda: ([R(2, 3), 0], {"dtype": f64}))

f = F(A.smooth_l1_loss.default, "acc")
f.case("mean beta 1", lambda: ([R(3, 4) * 2, R(3, 4)], {}))
f.case("none beta 0.5", lambda: ([R(5) * 2, R(5), 0, 0.5], {}))
f = F(A.huber_loss.default, "acc")
f.case("sum delta 0.7", lambda: ([R(3, 4) * 2, R(3, 4), 2, 0.7], {}))
f = F(A.binary_cross_entropy_with_logits.default, "acc")
f.case("mean", lambda: ([R(4, 3) * 3, torch.rand(4, 3)], {}))
f.case("weight, pos_weight, none", lambda: ([R(4, 3) * 3, torch.rand(4, 3), torch.rand(3), torch.rand(3) * 2, 0], {}))

f = F(A.index_add.default, "acc")
f.case("dim 0, repeated index", lambda: ([R(4, 3), 0, T([0, 2, 0], i64), R(3, 3)], {"alpha": 2}))
f.case("dim 1", lambda: ([R(2, 4), 1, T([3, 1], i64), R(2, 2)], {}))
f = F(A.index_copy.default, "move")
f.case("dim 1", lambda: ([R(3, 4), 1, T([2, 0], i64), R(3, 2)], {}))
f = F(A.index_fill.int_Scalar, "exact")
f.case("dim 0", lambda: ([R(4, 2), 0, T([1, 3], i64), -1.5], {}))
f.case("int self", lambda: ([R(3, 3, dt=i32), 1, T([0], i64), 7], {}))
f = F(A.index_fill.int_Tensor, "exact")
f.case("0-d value", lambda: ([R(2, 3), 1, T([2, 0], i64), T(4.0, f32)], {}))

write_all(OUT)
