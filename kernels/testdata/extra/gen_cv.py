#!/usr/bin/env python3
"""Extra conformance cases for the kernels (matrix products, convolution,
pooling, upsampling, embedding, dropout), in the exact format of
/work/shared/conformance (see its README.md).

Run with PyTorch 1.13 from this directory:

    /usr/bin/python3 gen_cv.py

Every case is computed on CPU, single-threaded, under torch.no_grad(), with
its inputs drawn right after torch.manual_seed(<case seed>). The cases cover
corners the shared vectors miss: other dtypes (integer products wrap,
bfloat16 computes in float32), empty and 0-d tensors, 3-d convolutions,
NaN/inf handling, ceil_mode and padding rules, float32 index arithmetic in
nearest upsampling.
"""
import os

import torch

from confgen import F, enc, enc_float, enc_tensor, files, inf, nan, ri, rn, tolerance  # noqa: F401

torch.set_num_threads(1)
A = torch.ops.aten


# ---- matrix products -------------------------------------------------------
f = F(A.mm.default, "acc")
f.case("int32", lambda: ([ri(-50, 50, 3, 4, dt=torch.int32), ri(-50, 50, 4, 2, dt=torch.int32)], {}))
f.case("int8 wraps", lambda: ([ri(-128, 128, 3, 5, dt=torch.int8), ri(-128, 128, 5, 4, dt=torch.int8)], {}))
f.case("uint8 wraps", lambda: ([ri(0, 256, 2, 6, dt=torch.uint8), ri(0, 256, 6, 3, dt=torch.uint8)], {}))
f.case("int16", lambda: ([ri(-300, 300, 2, 3, dt=torch.int16), ri(-300, 300, 3, 2, dt=torch.int16)], {}))
f.case("bfloat16", lambda: ([rn(4, 8, dt=torch.bfloat16), rn(8, 3, dt=torch.bfloat16)], {}))
f.case("bfloat16 large enough for oneDNN (float32 sums)", lambda: ([rn(16, 16, dt=torch.bfloat16), rn(16, 17, dt=torch.bfloat16)], {}))
f.case("float64 k=0", lambda: ([rn(3, 0, dt=torch.float64), rn(0, 2, dt=torch.float64)], {}))
f.case("float32 m=0", lambda: ([rn(0, 4), rn(4, 2)], {}))
f.case("nan and inf propagate", lambda: ([torch.tensor([[nan, 1.], [inf, 0.], [1., 2.]]), rn(2, 3)], {}))

f = F(A.bmm.default, "acc")
f.case("int8 wraps", lambda: ([ri(-128, 128, 2, 3, 4, dt=torch.int8), ri(-128, 128, 2, 4, 2, dt=torch.int8)], {}))
f.case("bfloat16", lambda: ([rn(3, 2, 5, dt=torch.bfloat16), rn(3, 5, 4, dt=torch.bfloat16)], {}))
f.case("int64 k=0", lambda: ([ri(0, 5, 2, 3, 0), ri(0, 5, 2, 0, 4)], {}))
f.case("bfloat16 mid-size (per-batch bfloat16 gemm)", lambda: ([rn(2, 3, 40, dt=torch.bfloat16), rn(2, 40, 4, dt=torch.bfloat16)], {}))
f.case("float64 many small", lambda: ([rn(9, 2, 3, dt=torch.float64), rn(9, 3, 2, dt=torch.float64)], {}))

f = F(A.addmm.default, "acc")
f.case("beta=0 ignores inf/nan self", lambda: ([torch.tensor([[inf, nan], [-inf, 1.]]), rn(2, 3), rn(3, 2)], {"beta": 0}))
f.case("beta=0.0 float", lambda: ([torch.tensor([nan, 1., 2.]), rn(2, 3), rn(3, 3)], {"beta": 0.0, "alpha": 1.5}))
f.case("alpha=0 ignores nan in mat1", lambda: ([rn(2, 2), torch.tensor([[nan, 1.], [2., 3.]]), rn(2, 2)], {"alpha": 0}))
f.case("0-d self", lambda: ([rn(), rn(3, 4), rn(4, 2)], {}))
f.case("int64 float alpha truncates", lambda: ([ri(-5, 5, 2, 2), ri(-5, 5, 2, 3), ri(-5, 5, 3, 2)], {"alpha": 2.7, "beta": 3}))
f.case("int32 beta=-1", lambda: ([ri(-5, 5, 1, 2, dt=torch.int32), ri(-5, 5, 3, 3, dt=torch.int32), ri(-5, 5, 3, 2, dt=torch.int32)], {"beta": -1}))
f.case("bfloat16", lambda: ([rn(3, dt=torch.bfloat16), rn(2, 4, dt=torch.bfloat16), rn(4, 3, dt=torch.bfloat16)], {}))
f.case("bfloat16 beta alpha", lambda: ([rn(3, dt=torch.bfloat16), rn(2, 30, dt=torch.bfloat16), rn(30, 3, dt=torch.bfloat16)], {"beta": 0.5, "alpha": 3}))
f.case("float64 negative scalars", lambda: ([rn(3, 1, dt=torch.float64), rn(3, 2, dt=torch.float64), rn(2, 4, dt=torch.float64)], {"beta": -0.5, "alpha": -2.0}))

f = F(A.matmul.default, "acc")
f.case("1d@1d int64", lambda: ([ri(-9, 9, 5), ri(-9, 9, 5)], {}))
f.case("3d@3d broadcast batch", lambda: ([rn(1, 3, 4), rn(2, 4, 2)], {}))
f.case("4d@1d", lambda: ([rn(2, 2, 3, 4), rn(4)], {}))
f.case("1d@4d", lambda: ([rn(3), rn(2, 1, 3, 2)], {}))
f.case("2d@3d", lambda: ([rn(2, 3), rn(4, 3, 5)], {}))
f.case("2d@4d float64", lambda: ([rn(2, 3, dt=torch.float64), rn(2, 2, 3, 2, dt=torch.float64)], {}))
f.case("int32 batched", lambda: ([ri(-9, 9, 2, 2, 3, dt=torch.int32), ri(-9, 9, 3, 2, dt=torch.int32)], {}))
f.case("bfloat16 3d@3d", lambda: ([rn(2, 3, 4, dt=torch.bfloat16), rn(2, 4, 3, dt=torch.bfloat16)], {}))
f.case("empty batch", lambda: ([rn(0, 2, 3), rn(3, 4)], {}))
f.case("1d@2d k=0", lambda: ([rn(0), rn(0, 3)], {}))

f = F(A.linear.default, "acc")
f.case("3-d input no bias", lambda: ([rn(2, 3, 4), rn(5, 4)], {}))
f.case("4-d input bias [1]", lambda: ([rn(2, 1, 2, 3), rn(4, 3), rn(1)], {}))
f.case("int64 with bias", lambda: ([ri(-5, 5, 2, 3), ri(-5, 5, 4, 3), ri(-5, 5, 4)], {}))
f.case("1-d input float64 bias into float32", lambda: ([rn(3), rn(2, 3), rn(2, dt=torch.float64)], {}))
f.case("1-d weight", lambda: ([rn(2, 3), rn(3)], {}))
f.case("bfloat16 3-d with bias", lambda: ([rn(2, 2, 4, dt=torch.bfloat16), rn(3, 4, dt=torch.bfloat16), rn(3, dt=torch.bfloat16)], {}))
f.case("bfloat16 2-d with bias (weight.t() sums in float32)", lambda: ([rn(3, 40, dt=torch.bfloat16), rn(4, 40, dt=torch.bfloat16), rn(4, dt=torch.bfloat16)], {}))
f.case("2-d input 2-d bias", lambda: ([rn(2, 3), rn(4, 3), rn(2, 4)], {}))

# ---- convolution -----------------------------------------------------------
def conv(x, w, b, s, p, d, t, op, g):
    return ([x, w, b, s, p, d, t, op, g], {})


f = F(A.convolution.default, "acc")
f.case("3d", lambda: conv(rn(1, 2, 3, 4, 4), rn(3, 2, 2, 3, 2), rn(3), [1, 2, 1], [1, 0, 1], [1, 1, 2], False, [0, 0, 0], 1))
f.case("3d transposed grouped", lambda: conv(rn(1, 4, 2, 3, 3), rn(4, 1, 2, 2, 3), rn(2), [2, 1, 2], [0, 1, 1], [1, 1, 1], True, [1, 0, 1], 2))
f.case("int64 2d", lambda: conv(ri(-5, 5, 1, 2, 5, 5), ri(-3, 3, 3, 2, 3, 3), ri(-3, 3, 3), [2, 1], [1, 1], [1, 1], False, [0, 0], 1))
f.case("int64 transposed dilated", lambda: conv(ri(-5, 5, 1, 2, 3, 3), ri(-3, 3, 2, 2, 2, 2), None, [2, 2], [0, 1], [2, 1], True, [1, 0], 1))
f.case("int32 2d", lambda: conv(ri(-9, 9, 2, 2, 4, 4, dt=torch.int32), ri(-9, 9, 4, 1, 2, 2, dt=torch.int32), ri(-9, 9, 4, dt=torch.int32), [1, 1], [0, 0], [1, 1], False, [0, 0], 2))
f.case("uint8 wraps", lambda: conv(ri(0, 256, 1, 2, 4, 4, dt=torch.uint8), ri(0, 256, 2, 2, 2, 2, dt=torch.uint8), None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1))
f.case("int8 1d wraps", lambda: conv(ri(-128, 128, 1, 3, 7, dt=torch.int8), ri(-128, 128, 2, 3, 3, dt=torch.int8), ri(-128, 128, 2, dt=torch.int8), [2], [1], [1], False, [0], 1))
f.case("bfloat16 2d", lambda: conv(rn(1, 3, 5, 5, dt=torch.bfloat16), rn(2, 3, 3, 3, dt=torch.bfloat16), rn(2, dt=torch.bfloat16), [1, 1], [1, 1], [1, 1], False, [0, 0], 1))
f.case("transposed 2d groups output_padding dilation", lambda: conv(rn(1, 4, 3, 3), rn(4, 3, 3, 2), rn(6), [3, 2], [1, 0], [2, 1], True, [2, 1], 2))
f.case("1x1 kernel", lambda: conv(rn(1, 3, 3, 4), rn(4, 3, 1, 1), rn(4), [1, 1], [0, 0], [1, 1], False, [0, 0], 1))
f.case("1x1 kernel stride 2 (ignores output_padding)", lambda: conv(rn(1, 3, 5, 5), rn(2, 3, 1, 1), None, [2, 2], [0, 0], [1, 1], False, [1, 1], 1))
f.case("stride larger than kernel", lambda: conv(rn(1, 2, 7, 6), rn(3, 2, 2, 2), None, [4, 3], [1, 1], [1, 1], False, [0, 0], 1))
f.case("depthwise multiplier 2", lambda: conv(rn(1, 3, 4, 5), rn(6, 1, 3, 3), rn(6), [1, 1], [1, 1], [1, 1], False, [0, 0], 3))
f.case("empty batch", lambda: conv(rn(0, 2, 5, 5), rn(3, 2, 3, 3), rn(3), [1, 1], [0, 0], [1, 1], False, [0, 0], 1))
f.case("zero input channels", lambda: conv(rn(2, 0, 5, 5), rn(3, 0, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1))
f.case("float64 bias on float32", lambda: conv(rn(1, 2, 4, 4), rn(3, 2, 3, 3), rn(3, dt=torch.float64), [1, 1], [0, 0], [1, 1], False, [0, 0], 1))
f.case("1d transposed stride 3", lambda: conv(rn(2, 2, 4, dt=torch.float64), rn(2, 3, 4, dt=torch.float64), rn(3, dt=torch.float64), [3], [2], [1], True, [2], 1))
f.case("single-value stride/padding lists", lambda: conv(rn(1, 2, 6, 5), rn(2, 2, 3, 3), None, [2], [1], [1], False, [0], 1))

f = F(A.conv2d.default, "acc")
f.case("unbatched grouped", lambda: ([rn(4, 5, 5), rn(4, 2, 3, 3), rn(4), [1, 1], [1, 1], [1, 1], 2], {}))
f.case("int64", lambda: ([ri(-5, 5, 1, 2, 4, 4), ri(-5, 5, 3, 2, 2, 2), None, [1, 1], [0, 0], [1, 1], 1], {}))
f.case("bfloat16 stride 2", lambda: ([rn(1, 2, 6, 6, dt=torch.bfloat16), rn(2, 2, 3, 3, dt=torch.bfloat16), None, [2, 2], [1, 1], [1, 1], 1], {}))

f = F(A.conv1d.default, "acc")
f.case("unbatched", lambda: ([rn(4, 9), rn(6, 2, 3), rn(6), [2], [1], [1], 2], {}))
f.case("batched dilated", lambda: ([rn(2, 3, 8, dt=torch.float64), rn(2, 3, 2, dt=torch.float64), None, [1], [0], [3], 1], {}))

f = F(A.conv3d.default, "acc")
f.case("unbatched", lambda: ([rn(2, 3, 4, 4), rn(3, 2, 2, 2, 2), rn(3), [1, 2, 1], [1, 0, 1], [1, 1, 1], 1], {}))

# ---- pooling -----------------------------------------------------------------
def nanimg():
    x = torch.randn(1, 2, 5, 6)
    x[0, 0, 0, 1] = nan
    x[0, 0, 1, 0] = nan
    x[0, 1, 2, 2] = inf
    x[0, 1, 4, 5] = -inf
    return x


f = F(A.max_pool2d_with_indices.default, "move")
f.case("several NaN in a window: the last wins", lambda: ([nanimg(), [2, 2], [2, 2]], {}))
f.case("all -inf with padding: first valid index", lambda: ([torch.full((1, 1, 3, 3), -inf), [3, 3], [2, 2], [1, 1]], {}))
f.case("bfloat16 ties", lambda: ([torch.randint(0, 3, (1, 2, 4, 5)).to(torch.bfloat16), [2, 3], [1, 2], [1, 1]], {}))
f.case("dilation padding ceil_mode", lambda: ([rn(2, 1, 7, 8), [3, 2], [2, 3], [1, 1], [2, 2], True], {}))
f.case("empty batch", lambda: ([rn(0, 2, 4, 4), [2, 2], [2, 2]], {}))
f.case("float64 unbatched ceil_mode", lambda: ([rn(2, 5, 5, dt=torch.float64), [2, 2], [2, 2], [0, 0], [1, 1], True], {}))
f.case("window in dilation gaps", lambda: ([rn(1, 1, 3, 3), [2, 2], [1, 1], [1, 1], [3, 3]], {}))

f = F(A.max_pool2d.default, "move")
f.case("NaN and inf", lambda: ([nanimg(), [3, 3], [1, 1], [1, 1]], {}))
f.case("bfloat16 unbatched", lambda: ([rn(3, 4, 6, dt=torch.bfloat16), [2, 2], [2, 2]], {}))
f.case("stride larger than kernel", lambda: ([rn(1, 2, 9, 9), [2, 2], [4, 3], [1, 0]], {}))

f = F(A.avg_pool2d.default, "acc")
f.case("int64 truncates", lambda: ([ri(-20, 20, 1, 2, 5, 5), [2, 3], [2, 2], [1, 1], False, True], {}))
f.case("int64 count_include_pad=False ceil", lambda: ([ri(-20, 20, 1, 1, 6, 5), [3, 3], [2, 2], [1, 1], True, False], {}))
f.case("bfloat16", lambda: ([rn(1, 2, 6, 6, dt=torch.bfloat16), [3, 3], [2, 2], [1, 1]], {}))
f.case("negative divisor_override", lambda: ([rn(1, 1, 4, 4), [2, 2], [2, 2], [0, 0], False, True, -3], {}))
f.case("divisor_override with ceil_mode", lambda: ([rn(2, 5, 5), [2, 2], [2, 2], [1, 1], True, False, 2], {}))
f.case("kernel 1 stride 2", lambda: ([rn(1, 2, 5, 4, dt=torch.float64), [1, 1], [2, 2]], {}))
f.case("inf and nan", lambda: ([nanimg(), [2, 2], [2, 2]], {}))

f = F(A.adaptive_avg_pool2d.default, "acc")
f.case("1x1 float16 (mean path)", lambda: ([rn(1, 2, 3, 5, dt=torch.float16), [1, 1]], {}))
f.case("1x1 5-d input (mean path)", lambda: ([rn(2, 1, 2, 3, 3), [1, 1]], {}))
f.case("1x1 2-d input (mean path)", lambda: ([rn(4, 5, dt=torch.float64), [1, 1]], {}))
f.case("zero output size", lambda: ([rn(1, 2, 3, 3), [0, 2]], {}))
f.case("bfloat16", lambda: ([rn(1, 2, 7, 5, dt=torch.bfloat16), [3, 2]], {}))
f.case("empty batch", lambda: ([rn(0, 2, 7, 5), [3, 2]], {}))

f = F(A._adaptive_avg_pool2d.default, "acc")
f.case("non-divisible 10->3, 7->4", lambda: ([rn(1, 2, 10, 7), [3, 4]], {}))
f.case("bfloat16 unbatched", lambda: ([rn(2, 5, 6, dt=torch.bfloat16), [2, 4]], {}))
f.case("1x1 (no mean shortcut)", lambda: ([rn(2, 3, 4, 5, dt=torch.float64), [1, 1]], {}))
f.case("inf", lambda: ([nanimg(), [2, 3]], {}))

f = F(A.upsample_nearest2d.vec, "move")
f.case("scale_factors 1.3 (float32 index math)", lambda: ([rn(1, 1, 3, 7), None, [1.7, 1.3]], {}))
f.case("downsample scale 0.5", lambda: ([rn(1, 2, 6, 5), None, [0.5, 0.5]], {}))
f.case("bfloat16", lambda: ([rn(1, 2, 3, 3, dt=torch.bfloat16), [5, 7], None], {}))
f.case("float64 scale [3.0, 1.0]", lambda: ([rn(2, 1, 2, 3, dt=torch.float64), None, [3.0, 1.0]], {}))
f.case("identity size", lambda: ([rn(1, 2, 3, 4), [3, 4], None], {}))
f.case("empty batch", lambda: ([rn(0, 2, 3, 4), [5, 6], None], {}))
f.case("scale 2.2 on 5 and 0.3 on 10", lambda: ([rn(1, 1, 5, 10), None, [2.2, 0.3]], {}))
f.case("uint8 scale 3", lambda: ([ri(0, 256, 1, 3, 2, 2, dt=torch.uint8), None, [3.0, 3.0]], {}))
f.case("scale 2.2 on 2 gives twice the size (no shortcut)", lambda: ([rn(1, 1, 2, 3), None, [2.2, 1.0]], {}))
f.case("output 3x of 7 by size", lambda: ([rn(1, 1, 7, 2), [21, 3], None], {}))

f = F(A.upsample_nearest2d.default, "move")
f.case("sizes only", lambda: ([rn(1, 2, 3, 4), [5, 7]], {}))
f.case("explicit scales", lambda: ([rn(1, 1, 4, 3), [9, 4], 2.3, 1.4], {}))

# ---- embedding, dropout -------------------------------------------------------
f = F(A.embedding.default, "move")
f.case("int32 2-d indices", lambda: ([rn(7, 3), ri(0, 7, 2, 4, dt=torch.int32)], {}))
f.case("bool weight", lambda: ([torch.randint(0, 2, (4, 3)).bool(), ri(0, 4, 5)], {}))
f.case("int8 weight", lambda: ([ri(-128, 128, 5, 2, dt=torch.int8), ri(0, 5, 3)], {}))
f.case("bfloat16 weight, 0-d int32 index", lambda: ([rn(5, 4, dt=torch.bfloat16), torch.tensor(3, dtype=torch.int32)], {}))
f.case("float16 weight 3-d indices", lambda: ([rn(6, 2, dt=torch.float16), ri(0, 6, 2, 2, 2)], {}))
f.case("zero-width weight", lambda: ([rn(4, 0), ri(0, 4, 3)], {}))

f = F(A.dropout.default, "move")
f.case("train p=0 identity", lambda: ([rn(3, 4), 0.0, True], {}))
f.case("train p=1: zeros, nan for nan and inf", lambda: ([torch.tensor([1., -2., nan, inf, -inf]), 1.0, True], {}))
f.case("train p=1 int64", lambda: ([ri(-5, 5, 4), 1.0, True], {}))
f.case("train p=1 bool", lambda: ([torch.tensor([True, False, True]), 1.0, True], {}))
f.case("train empty", lambda: ([rn(0, 3), 0.5, True], {}))
f.case("eval int64 p=1", lambda: ([ri(-5, 5, 2, 2), 1.0, False], {}))

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for f in files:
        f.write(here)
