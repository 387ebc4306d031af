#!/usr/bin/env python3
"""Extra conformance cases for the kernels (more pooling, resampling,
distances, embedding_bag, backward ops), in the exact format of
/work/shared/conformance (see its README.md).

Run with PyTorch 1.13 from this directory:

    /usr/bin/python3 gen_px.py

Every case is computed on CPU, single-threaded, under torch.no_grad(), with
its inputs drawn right after torch.manual_seed(<case seed>). The cases cover
ops the shared vectors do not have at all: their dtypes (float16 and
bfloat16 rounding at every step where ATen computes in them), unbatched and
empty inputs, ceil_mode and padding rules, align_corners and scale factors,
every grid_sampler mode, the auxiliary outputs of _embedding_bag, and the
backward ops' output_mask.
"""
import os

import torch

from confgen import F, enc, enc_float, enc_tensor, files, inf, nan, ri, rn, tolerance  # noqa: F401

torch.set_num_threads(1)
A = torch.ops.aten


# ---- pooling ---------------------------------------------------------------
f = F(A.avg_pool1d.default, "acc")
f.case("batched, defaults", lambda: ([rn(2, 3, 9), [3]], {}))
f.case("unbatched, stride, padding, ceil, no pad count", lambda: ([rn(3, 10), [4], [3], [2], True, False], {}))
f.case("float64 ceil count pad", lambda: ([rn(1, 2, 7, dt=torch.float64), [2], [2], [1], True, True], {}))
f.case("int64 truncating division", lambda: ([ri(-20, 20, 2, 8), [3], [2]], {}))
f.case("bfloat16", lambda: ([rn(2, 2, 8, dt=torch.bfloat16), [3], [1], [1]], {}))
f.case("empty batch", lambda: ([rn(0, 3, 6), [2]], {}))

f = F(A.adaptive_avg_pool1d.default, "acc")
f.case("batched, overlapping windows", lambda: ([rn(2, 3, 10), [4]], {}))
f.case("unbatched upsampling size", lambda: ([rn(3, 5), [7]], {}))
f.case("output 1 is a mean, float16 allowed", lambda: ([rn(2, 6, dt=torch.float16), [1]], {}))
f.case("float64", lambda: ([rn(1, 2, 9, dt=torch.float64), [3]], {}))
f.case("bfloat16", lambda: ([rn(2, 3, 11, dt=torch.bfloat16), [4]], {}))

f = F(A.avg_pool3d.default, "acc")
f.case("batched defaults", lambda: ([rn(2, 2, 4, 5, 6), [2, 2, 2]], {}))
f.case("unbatched, stride, padding, ceil", lambda: ([rn(2, 5, 5, 7), [3, 2, 3], [2, 1, 2], [1, 1, 1], True], {}))
f.case("no pad count, single ints", lambda: ([rn(1, 2, 5, 5, 5), [3], [2], [1], False, False], {}))
f.case("divisor_override", lambda: ([rn(1, 1, 4, 4, 4, dt=torch.float64), [2, 2, 2], [1, 2, 2], [0, 1, 1], False, True, 3], {}))
f.case("int64", lambda: ([ri(-30, 30, 1, 2, 4, 4, 4), [2, 3, 2], [2, 1, 2]], {}))

f = F(A._adaptive_avg_pool3d.default, "acc")
f.case("batched", lambda: ([rn(2, 2, 5, 6, 7), [2, 3, 4]], {}))
f.case("unbatched, upsampling size", lambda: ([rn(3, 2, 3, 4), [3, 5, 4]], {}))
f.case("float64", lambda: ([rn(1, 2, 4, 4, 4, dt=torch.float64), [3, 3, 1]], {}))
f.case("float16 (sums in half)", lambda: ([rn(1, 2, 7, 9, 11, dt=torch.float16), [2, 3, 4]], {}))
f.case("output 1x1x1", lambda: ([rn(1, 3, 3, 4, 5), [1, 1, 1]], {}))

f = F(A.max_pool3d_with_indices.default, "move")
f.case("batched defaults", lambda: ([rn(2, 2, 4, 5, 6), [2, 2, 2]], {}))
f.case("unbatched, stride, padding, dilation, ceil", lambda: ([rn(2, 6, 7, 7), [3, 2, 3], [2, 1, 2], [1, 1, 1], [1, 2, 1], True], {}))
f.case("float64 ties and nan", lambda: ([torch.tensor([[[[[1., 1., nan], [1., 2., 2.]], [[2., nan, 0.], [-inf, 2., 2.]]]]], dtype=torch.float64), [2, 2, 2], [1, 1, 1]], {}))
f.case("single int kernel", lambda: ([rn(1, 1, 5, 5, 5), [3], [2], [1]], {}))

# ---- resampling ------------------------------------------------------------
f = F(A.upsample_bilinear2d.vec, "acc")
f.case("output_size, half-pixel", lambda: ([rn(1, 2, 4, 5), [7, 9], False, None], {}))
f.case("output_size, align_corners", lambda: ([rn(2, 2, 4, 5), [7, 3], True, None], {}))
f.case("scale_factors, half-pixel (scale used for indices)", lambda: ([rn(1, 3, 5, 4), None, False, [1.7, 2.3]], {}))
f.case("scale_factors, align_corners", lambda: ([rn(1, 2, 3, 6), None, True, [2.5, 0.5]], {}))
f.case("downsample to 1, align_corners", lambda: ([rn(1, 2, 4, 4), [1, 1], True, None], {}))
f.case("same size copies", lambda: ([rn(1, 2, 3, 4), None, False, [1.2, 1.1]], {}))
f.case("float64", lambda: ([rn(1, 2, 3, 4, dt=torch.float64), [5, 7], False, None], {}))
f.case("one channel (channels-last kernel)", lambda: ([rn(2, 1, 4, 4), [6, 5], False, None], {}))
f.case("bfloat16", lambda: ([rn(1, 3, 4, 5, dt=torch.bfloat16), [6, 7], False, None], {}))

f = F(A.grid_sampler_2d.default, "acc")
def grid(n, h, w, dt=torch.float32, s=1.2):
    return (torch.rand(n, h, w, 2) * 2 * s - s).to(dt)
for mode in range(3):
    for pad in range(3):
        for ac in (False, True):
            f.case(f"mode {mode} padding {pad} align_corners {ac}",
                   lambda: ([rn(1, 2, 4, 5), grid(1, 3, 4), mode, pad, ac], {}))
f.case("float64 bilinear reflection", lambda: ([rn(1, 2, 5, 3, dt=torch.float64), grid(1, 4, 4, torch.float64, 2.5), 0, 2, False], {}))
f.case("float64 bicubic border", lambda: ([rn(1, 1, 4, 4, dt=torch.float64), grid(1, 3, 3, torch.float64), 2, 1, True], {}))
f.case("size-1 input reflection", lambda: ([rn(1, 1, 1, 3), grid(1, 2, 2), 0, 2, True], {}))

f = F(A.col2im.default, "acc")
f.case("batched", lambda: ([rn(2, 8, 12), [4, 5], [2, 2], [1, 1], [0, 0], [1, 1]], {}))
f.case("unbatched, stride, padding, dilation", lambda: ([rn(12, 9), [5, 6], [2, 3], [2, 1], [1, 1], [2, 2]], {}))
f.case("float64", lambda: ([rn(1, 4, 9, dt=torch.float64), [4, 4], [2, 2], [1, 1], [0, 0], [1, 1]], {}))
f.case("bfloat16 (adds in bfloat16)", lambda: ([rn(1, 9, 16, dt=torch.bfloat16), [6, 6], [3, 3], [1, 1], [0, 0], [1, 1]], {}))
f.case("float16", lambda: ([rn(1, 4, 9, dt=torch.float16), [4, 4], [2, 2], [1, 1], [0, 0], [1, 1]], {}))

# ---- distances -------------------------------------------------------------
f = F(A._cdist_forward.default, "acc")
for p in (0.0, 1.0, 2.0, 3.0, 0.5, inf):
    f.case(f"p={p}", lambda: ([rn(4, 3), rn(5, 3), p, None], {}))
f.case("p=0 with equal elements", lambda: ([torch.tensor([[1., 2.], [3., 3.]]), torch.tensor([[1., 0.], [3., 3.]]), 0.0, None], {}))
f.case("batch broadcast float64", lambda: ([rn(2, 1, 3, 4, dt=torch.float64), rn(3, 2, 4, dt=torch.float64), 2.0, None], {}))
f.case("p=2 mm path (mode 1)", lambda: ([rn(3, 5), rn(4, 5), 2.0, 1], {}))
f.case("p=2 mm path (more than 25 rows)", lambda: ([rn(27, 3), rn(2, 3), 2.0, None], {}))
f.case("p=2 mode 2 direct", lambda: ([rn(27, 3), rn(2, 3), 2.0, 2], {}))
f.case("no columns: zeros", lambda: ([rn(2, 0), rn(3, 0), 1.0, None], {}))
f.case("no rows", lambda: ([rn(0, 3), rn(3, 3), 1.0, None], {}))

f = F(A._pdist_forward.default, "acc")
for p in (0.0, 1.0, 2.0, 1.5, inf):
    f.case(f"p={p}", lambda: ([rn(5, 3), p], {}))
f.case("float64", lambda: ([rn(4, 6, dt=torch.float64)], {}))
f.case("one row", lambda: ([rn(1, 3)], {}))
f.case("no columns", lambda: ([rn(3, 0)], {}))

# ---- embedding_bag ---------------------------------------------------------
f = F(A._embedding_bag.default, "acc")
EI = lambda: torch.tensor([1, 2, 4, 5, 4, 3, 2, 0])
EO = lambda: torch.tensor([0, 2, 2, 5])
for mode in range(3):
    for pad in (-1, 2):
        f.case(f"mode {mode} padding_idx {pad}", lambda: ([rn(6, 3), EI(), EO(), False, mode, False, None, False, pad], {}))
        f.case(f"mode {mode} padding_idx {pad} include_last_offset", lambda: ([rn(6, 3), EI(), torch.tensor([0, 2, 2, 5, 8]), False, mode, False, None, True, pad], {}))
f.case("per_sample_weights", lambda: ([rn(6, 3), EI(), EO(), False, 0, False, rn(8), False, -1], {}))
f.case("per_sample_weights float64 padding", lambda: ([rn(6, 3, dt=torch.float64), EI(), EO(), False, 0, False, rn(8, dt=torch.float64), False, 4], {}))
f.case("float64 int32 indices and offsets, mean", lambda: ([rn(6, 3, dt=torch.float64), EI().int(), EO().int(), False, 1, False, None, False, -1], {}))
f.case("int32 indices, int64 offsets promote", lambda: ([rn(6, 3, dt=torch.float64), EI().int(), EO(), False, 0, False, None, False, -1], {}))
f.case("float16 max", lambda: ([rn(6, 3, dt=torch.float16), EI(), EO(), False, 2, False, None, False, -1], {}))
f.case("max ties", lambda: ([torch.tensor([[1., 2.], [1., 3.], [0., 3.]]), torch.tensor([0, 1, 2]), torch.tensor([0]), False, 2, False, None, False, -1], {}))
f.case("no indices", lambda: ([rn(4, 2), torch.tensor([], dtype=torch.long), torch.tensor([0, 0]), False, 1, False, None, False, -1], {}))

# ---- backward ops ----------------------------------------------------------
f = F(A._adaptive_avg_pool2d_backward.default, "acc")
f.case("batched overlapping windows", lambda: ([rn(2, 2, 3, 4), rn(2, 2, 7, 9)], {}))
f.case("unbatched upsampling size", lambda: ([rn(2, 5, 4), rn(2, 3, 3)], {}))
f.case("float64", lambda: ([rn(1, 2, 2, 2, dt=torch.float64), rn(1, 2, 5, 5, dt=torch.float64)], {}))
f.case("bfloat16", lambda: ([rn(1, 2, 3, 3, dt=torch.bfloat16), rn(1, 2, 8, 7, dt=torch.bfloat16)], {}))

f = F(A.avg_pool2d_backward.default, "acc")
def apb(shape, k, s, p, ceil, cip, div, dt=torch.float32):
    x = rn(*shape, dt=dt) if dt.is_floating_point else ri(-20, 20, *shape, dt=dt)
    o = A.avg_pool2d(x, k, s, p, ceil, cip, div)
    g = rn(*o.shape, dt=dt) if dt.is_floating_point else ri(-50, 50, *o.shape, dt=dt)
    return [g, x, k, s, p, ceil, cip, div], {}
f.case("defaults", lambda: apb((2, 2, 6, 6), [2, 2], [], [0, 0], False, True, None))
f.case("stride padding ceil no pad count", lambda: apb((1, 2, 7, 5), [3, 2], [2, 2], [1, 1], True, False, None))
f.case("divisor_override unbatched", lambda: apb((2, 5, 5), [3, 3], [1, 2], [1, 0], False, True, 4))
f.case("float64 ceil count pad", lambda: apb((1, 1, 5, 6), [2, 3], [2, 2], [1, 1], True, True, None, torch.float64))
f.case("int64", lambda: apb((1, 2, 5, 5), [2, 2], [1, 1], [1, 1], False, True, None, torch.int64))
f.case("bfloat16", lambda: apb((1, 2, 6, 6), [3, 3], [1, 1], [1, 1], False, True, None, torch.bfloat16))

f = F(A.max_pool2d_with_indices_backward.default, "acc")
def mpb(shape, k, s, p, d, ceil, dt=torch.float32, ties=False):
    x = torch.randint(0, 3, shape).to(dt) if ties else rn(*shape, dt=dt)
    o, i = A.max_pool2d_with_indices(x, k, s, p, d, ceil)
    return [rn(*o.shape, dt=dt), x, k, s, p, d, ceil, i], {}
f.case("overlapping windows", lambda: mpb((2, 2, 6, 7), [3, 3], [1, 2], [1, 1], [1, 1], False))
f.case("dilation ceil unbatched", lambda: mpb((2, 7, 7), [2, 3], [2, 2], [1, 1], [2, 1], True))
f.case("float64 ties", lambda: mpb((1, 2, 5, 5), [3, 3], [1, 1], [0, 0], [1, 1], False, torch.float64, True))
f.case("bfloat16", lambda: mpb((1, 2, 6, 6), [3, 3], [1, 1], [1, 1], [1, 1], False, torch.bfloat16))

f = F(A.embedding_dense_backward.default, "acc")
f.case("2-d indices", lambda: ([rn(2, 3, 4), torch.tensor([[0, 2, 0], [5, 2, 2]]), 6, -1, False], {}))
f.case("padding_idx", lambda: ([rn(5, 3), torch.tensor([1, 0, 1, 3, 1]), 4, 1, False], {}))
f.case("scale_grad_by_freq", lambda: ([rn(6, 2), torch.tensor([1, 0, 1, 3, 1, 3]), 5, -1, True], {}))
f.case("int32 indices float64", lambda: ([rn(4, 3, dt=torch.float64), torch.tensor([3, 3, 0, 1], dtype=torch.int32), 4, 0, True], {}))
f.case("0-d index", lambda: ([rn(3), torch.tensor(2), 3, -1, False], {}))
f.case("bfloat16", lambda: ([rn(6, 3, dt=torch.bfloat16), torch.tensor([1, 1, 1, 0, 1, 1]), 2, -1, False], {}))

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for f in files:
        f.write(here)
