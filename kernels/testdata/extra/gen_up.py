#!/usr/bin/python3
"""Extra conformance cases for the upsample kernels over 1, 2 and 3
spatial dimensions (kernels/upsample.go): upsample_nearest1d/3d,
upsample_linear1d, upsample_bilinear2d, upsample_trilinear3d and
upsample_bicubic2d, with their .vec overloads.

Writes aten.<op>.<overload>.jsonl beside this script, in the format of
testdata/conformance/README.md, with PyTorch 1.13 (Debian python3-torch):

    cd kernels/testdata/extra && /usr/bin/python3 gen_up.py
"""

import os

import torch

import confgen
from confgen import F, write_all

torch.set_num_threads(1)
A = torch.ops.aten
OUT = os.path.dirname(os.path.abspath(__file__))
f32, f64, bf16, u8 = torch.float32, torch.float64, torch.bfloat16, torch.uint8

confgen.TOL["ew"] = {f32: (1.3e-6, 1e-5), f64: (1e-7, 1e-7), bf16: (1.6e-2, 1e-5)}


def R(*shape, dt=f32):
    if dt == u8:
        return torch.randint(0, 256, shape, dtype=torch.int64).to(u8)
    return torch.randn(shape, dtype=f64).to(dt)


f = F(A.upsample_nearest1d.default, "move")
f.case("3 -> 7", lambda: ([R(2, 3, 3), [7]], {}))
f.case("5 -> 2 with scale", lambda: ([R(1, 2, 5), [2], 0.4], {}))
f.case("uint8 4 -> 8", lambda: ([R(1, 1, 4, dt=u8), [8]], {}))

f = F(A.upsample_nearest1d.vec, "move")
f.case("scale 2.5", lambda: ([R(1, 2, 4), None, [2.5]], {}))
f.case("size 6 float64", lambda: ([R(2, 1, 3, dt=f64), [6], None], {}))

f = F(A.upsample_nearest3d.default, "move")
f.case("2x3x2 -> 3x5x4", lambda: ([R(1, 2, 2, 3, 2), [3, 5, 4]], {}))

f = F(A.upsample_nearest3d.vec, "move")
f.case("scales 2,1.5,3", lambda: ([R(1, 1, 2, 2, 2), None, [2.0, 1.5, 3.0]], {}))
f.case("size bfloat16", lambda: ([R(1, 2, 3, 2, 2, dt=bf16), [4, 3, 5], None], {}))

f = F(A.upsample_linear1d.default, "ew")
f.case("4 -> 9", lambda: ([R(2, 3, 4), [9], False], {}))
f.case("align corners 5 -> 3", lambda: ([R(1, 2, 5), [3], True], {}))
f.case("scale given", lambda: ([R(1, 1, 4), [10], False, 2.5], {}))

f = F(A.upsample_linear1d.vec, "ew")
f.case("scale 1.7", lambda: ([R(1, 2, 6), None, False, [1.7]], {}))
f.case("size float64 align", lambda: ([R(2, 1, 3, dt=f64), [8], True, None], {}))

f = F(A.upsample_bilinear2d.default, "ew")
f.case("3x4 -> 5x7", lambda: ([R(1, 2, 3, 4), [5, 7], False], {}))
f.case("align corners", lambda: ([R(2, 1, 4, 4), [7, 3], True], {}))
f.case("scales given", lambda: ([R(1, 1, 2, 3), [4, 6], False, 2.0, 2.0], {}))
f.case("float64", lambda: ([R(1, 3, 5, 2, dt=f64), [3, 3], False], {}))

f = F(A.upsample_trilinear3d.default, "ew")
f.case("2x3x2 -> 4x5x3", lambda: ([R(1, 2, 2, 3, 2), [4, 5, 3], False], {}))
f.case("align corners float64", lambda: ([R(1, 1, 3, 2, 3, dt=f64), [5, 4, 2], True], {}))

f = F(A.upsample_trilinear3d.vec, "ew")
f.case("scales 2", lambda: ([R(1, 1, 2, 2, 3), None, False, [2.0, 2.0, 1.5]], {}))

f = F(A.upsample_bicubic2d.default, "ew")
f.case("4x4 -> 7x9", lambda: ([R(1, 2, 4, 4), [7, 9], False], {}))
f.case("align corners", lambda: ([R(1, 1, 5, 3), [3, 6], True], {}))
f.case("float64 downsample", lambda: ([R(2, 1, 6, 5, dt=f64), [4, 2], False], {}))

f = F(A.upsample_bicubic2d.vec, "ew")
f.case("scale 2", lambda: ([R(1, 2, 3, 3), None, False, [2.0, 2.0]], {}))
f.case("size align", lambda: ([R(1, 1, 4, 5), [8, 8], True, None], {}))

write_all(OUT)
