#!/usr/bin/env python3
"""Extra conformance cases for the backward kernels (native_layer_norm_backward,
native_group_norm_backward, convolution_backward), in the exact format of
/work/shared/conformance (see its README.md).

Run with PyTorch 1.13 from this directory:

    /usr/bin/python3 gen_bw.py

Every case is computed on CPU, single-threaded, under torch.no_grad(), with
its inputs drawn right after torch.manual_seed(<case seed>), through
torch.ops.aten.<op>.default. The saved statistics (mean, rstd) are those of
the forward op on the same input. All cases ask for every output
(output_mask all true): an output that is not asked for is None, which the
Go conformance runner cannot compare yet (partial masks are tested in
convolution_test.go instead).
"""
import json
import os

import torch

from confgen import enc, enc_float, enc_tensor  # noqa: F401

torch.set_num_threads(1)
A = torch.ops.aten

# rtol/atol of accumulations per output dtype (the shared README's table;
# bfloat16, which it does not list, gets torch.testing's rtol and a
# matching atol, as the other generators here do).
TOL = {torch.float32: (1e-4, 1e-4), torch.float64: (1e-7, 1e-7), torch.bfloat16: (1.6e-2, 1e-2)}
ALL = [True, True, True]


def tolerance(outs):
    rt, at = 0.0, 0.0
    for o in outs:
        if isinstance(o, torch.Tensor) and o.dtype.is_floating_point:
            r, a = TOL[o.dtype]
            rt, at = max(rt, r), max(at, a)
    return rt, at


class File:
    """The cases of one op overload file."""

    def __init__(self, overload):
        self.overload = overload
        name = overload._schema.name.split("::")[1]
        ov = overload._overloadname
        self.stem = f"aten.{name}.{ov}"
        self.op = f"aten::{name}.{ov}"
        self.schema = str(overload._schema)
        self.lines = []

    def case(self, note, make):
        """make() draws the inputs and returns the positional args."""
        seed = sum(map(ord, self.stem)) * 100 + len(self.lines)
        torch.manual_seed(seed)
        args = make()
        with torch.no_grad():
            out = self.overload(*[a.clone() if isinstance(a, torch.Tensor) else a for a in args])
        outs = list(out)
        rt, at = tolerance(outs)
        self.lines.append({
            "id": f"{self.stem}/{len(self.lines)}", "op": self.op, "schema": self.schema,
            "args": [enc(a) for a in args], "kwargs": {},
            "outputs": [enc(o) for o in outs], "rtol": rt, "atol": at, "note": note,
        })

    def write(self, d):
        with open(os.path.join(d, self.stem + ".jsonl"), "w") as f:
            for l in self.lines:
                f.write(json.dumps(l) + "\n")


files = []


def F(overload):
    f = File(overload)
    files.append(f)
    return f


def rn(*shape, dt=torch.float32):
    return torch.randn(*shape).to(dt)


# native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask)
f = F(A.native_layer_norm_backward.default)


def lnb(shape, ns, dt=torch.float32, affine=True, eps=1e-5, const=False):
    x = rn(*shape, dt=dt)
    if const:
        x = torch.full(shape, 1.5, dtype=dt)
    w = rn(*ns, dt=dt) if affine else None
    b = rn(*ns, dt=dt) if affine else None
    _, m, r = A.native_layer_norm.default(x, ns, w, b, eps)
    return [rn(*shape, dt=dt), x, ns, m, r, w, b, ALL]


f.case("3-d, last dim", lambda: lnb((2, 3, 4), [4]))
f.case("two normalized dims", lambda: lnb((2, 3, 4, 5), [4, 5]))
f.case("float64 all dims", lambda: lnb((3, 5), [3, 5], torch.float64))
f.case("bfloat16", lambda: lnb((2, 6), [6], torch.bfloat16))
f.case("many rows", lambda: lnb((12, 17), [17]))
f.case("constant rows", lambda: lnb((3, 4), [4], const=True))
f.case("no rows (zeros for weight and bias)", lambda: lnb((0, 4), [4]))
f.case("empty rows", lambda: lnb((3, 0), [0]))

# native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group, output_mask)
f = F(A.native_group_norm_backward.default)


def gnb(shape, group, dt=torch.float32, eps=1e-5):
    x = rn(*shape, dt=dt)
    n, c = shape[0], shape[1]
    hw = 1
    for s in shape[2:]:
        hw *= s
    w, b = rn(c, dt=dt), rn(c, dt=dt)
    _, m, r = A.native_group_norm.default(x, w, b, n, c, hw, group, eps)
    return [rn(*shape, dt=dt), x, m, r, w, n, c, hw, group, ALL]


f.case("3-d, two groups", lambda: gnb((2, 4, 3), 2))
f.case("4-d, three groups", lambda: gnb((2, 6, 2, 3), 3))
f.case("float64 group per channel", lambda: gnb((3, 4, 5), 4, torch.float64))
f.case("one group", lambda: gnb((2, 3, 4), 1))
f.case("2-d input (HxW = 1)", lambda: gnb((5, 4), 2))
f.case("bfloat16", lambda: gnb((2, 4, 5), 2, torch.bfloat16))
f.case("bigger", lambda: gnb((2, 8, 3, 4), 4))
f.case("empty batch", lambda: gnb((0, 4, 3), 2))
f.case("empty spatial", lambda: gnb((2, 4, 0), 2))

# convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation,
#                      transposed, output_padding, groups, output_mask)
f = F(A.convolution_backward.default)


def cb(xs, ws, st, pd, dl, tp, op, gr, dt=torch.float32, bias=True, ints=False):
    if ints:
        x = torch.randint(-3, 4, xs).to(dt)
        w = torch.randint(-3, 4, ws).to(dt)
    else:
        x, w = rn(*xs, dt=dt), rn(*ws, dt=dt)
    y = A.convolution.default(x, w, None, st, pd, dl, tp, op, gr)
    g = torch.randint(-3, 4, y.shape).to(dt) if ints else rn(*y.shape, dt=dt)
    bs = [y.shape[1]] if bias else None
    return [g, x, w, bs, st, pd, dl, tp, op, gr, ALL]


f.case("2-d padded", lambda: cb((1, 3, 5, 4), (2, 3, 3, 3), [1, 1], [1, 1], [1, 1], False, [0, 0], 1))
f.case("2-d stride padding dilation groups", lambda: cb((1, 4, 5, 6), (4, 2, 3, 2), [2, 1], [1, 0], [1, 2], False, [0, 0], 2))
f.case("1-d strided grouped", lambda: cb((2, 4, 9), (6, 2, 3), [2], [1], [1], False, [0], 2))
f.case("1x1 kernel, bias_sizes None", lambda: cb((2, 3, 3, 3), (4, 3, 1, 1), [1, 1], [0, 0], [1, 1], False, [0, 0], 1, bias=False))
f.case("stride leaves input unread", lambda: cb((1, 2, 8), (3, 2, 2), [3], [0], [1], False, [0], 1))
f.case("transposed 2-d output_padding groups", lambda: cb((1, 4, 2, 3), (4, 3, 3, 2), [2, 3], [1, 0], [1, 2], True, [1, 2], 2))
f.case("transposed 1-d", lambda: cb((2, 3, 5), (3, 2, 3), [2], [1], [1], True, [1], 1))
f.case("transposed 1x1 output_padding < dilation", lambda: cb((1, 2, 5), (2, 3, 1), [1], [0], [2], True, [1], 1))
f.case("float64 3-d", lambda: cb((1, 2, 3, 2, 4), (2, 2, 2, 2, 2), [1, 2, 1], [1, 0, 1], [1, 1, 2], False, [0, 0, 0], 1, torch.float64))
f.case("float64 transposed 3-d", lambda: cb((1, 2, 3, 2, 3), (2, 2, 2, 2, 2), [2, 1, 1], [0, 1, 0], [1, 1, 1], True, [1, 0, 0], 1, torch.float64))
f.case("bfloat16 2-d", lambda: cb((1, 2, 5, 5), (3, 2, 3, 3), [1, 1], [1, 1], [1, 1], False, [0, 0], 1, torch.bfloat16))
f.case("int64 dilated 1-d", lambda: cb((2, 2, 7), (3, 2, 3), [1], [1], [2], False, [0], 1, torch.int64, ints=True))
f.case("empty batch", lambda: cb((0, 3, 6), (4, 3, 3), [1], [0], [1], False, [0], 1))

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for f in files:
        f.write(here)
