#!/usr/bin/python3
"""Conformance cases for PyTorch 2.14's _upsample_lanczos2d_aa (no such
operator in 2.6). Writes <ns>.<op>.<overload>.jsonl beside this script, in
the format of testdata/conformance/README.md, with PyTorch 2.14:

    cd kernels/testdata/extra && TORCH2_SUITE=sid ../../../../shared/tools/torch2 gen_14e.py
"""

import os

import torch

from confgen import F, write_all

torch.set_num_threads(1)
A = torch.ops.aten
OUT = os.path.dirname(os.path.abspath(__file__))
f32, f64 = torch.float32, torch.float64


def R(*shape, dt=f32):
    return torch.randn(shape, dtype=f64).to(dt)


f = F(A._upsample_lanczos2d_aa.default, "acc")
f.case("downsample", lambda: ([R(1, 2, 9, 11), [4, 3], False], {}))
f.case("upsample", lambda: ([R(2, 1, 3, 4), [7, 9], False], {}))
f.case("align_corners mixed", lambda: ([R(1, 2, 8, 5), [3, 9], True], {}))
f.case("scales", lambda: ([R(1, 1, 10, 10), [4, 5], False, 0.4, 0.5], {}))
f.case("one dimension", lambda: ([R(1, 1, 6, 7), [6, 2], False], {}))
f.case("float64", lambda: ([R(1, 2, 7, 6, dt=f64), [3, 4], False], {}))
f.case("ramp", lambda: ([torch.arange(8.).reshape(1, 1, 1, 8), [1, 12], False], {}))
f = F(A._upsample_lanczos2d_aa.vec, "acc")
f.case("size", lambda: ([R(1, 1, 9, 9), [4, 6], False, None], {}))
f.case("scale factors", lambda: ([R(1, 2, 6, 8), None, False, [0.5, 1.5]], {}))

write_all(OUT)
