"""Shared helpers of the gen_*.py scripts: encoding arguments and outputs
in the format of ../shared/conformance (see its README.md), and the File
builder the pooling/convolution/reduction scripts use.

Import it from a script in this directory (`from confgen import ...`);
run the scripts with PyTorch 1.13 (/usr/bin/python3).

Accumulating outputs (products, convolutions, distances) depend on the BLAS
Debian's PyTorch is linked to at run time: gen_px.py and gen_bw.py were run
with OpenBLAS selected (libopenblas0-pthread), the others with the default
reference BLAS (libblas3). Rerun under the same choice to reproduce the
committed files byte for byte; either choice stays within the tolerances.
"""
import base64
import json
import math
import os

import torch

torch.set_num_threads(1)


def enc_float(v):
    """A float, with non-finite values as the strings the format uses."""
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def enc_tensor(t):
    """A tensor body: dtype, shape and base64 of its little-endian bytes."""
    t = t.detach().contiguous()
    raw = t.reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b""
    return {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
            "data": base64.b64encode(raw).decode()}


MEMORY_FORMATS = {torch.contiguous_format: "contiguous_format", torch.channels_last: "channels_last",
                  torch.preserve_format: "preserve_format", torch.channels_last_3d: "channels_last_3d"}


def enc(v, kind=None):
    """Encodes one argument or output; kind="optional_tensors" or
    "tensors" says how to read a list of tensors."""
    if kind == "optional_tensors":
        return {"optional_tensors": [{"none": True} if t is None else {"tensor": enc_tensor(t)} for t in v]}
    if isinstance(v, (list, tuple)) and any(x is None for x in v) and any(isinstance(x, torch.Tensor) for x in v):
        return enc(v, "optional_tensors")
    if kind == "tensors" or (isinstance(v, (list, tuple)) and v and isinstance(v[0], torch.Tensor)):
        return {"tensors": [enc_tensor(t) for t in v]}
    if v is None:
        return {"none": True}
    if isinstance(v, torch.Tensor):
        return {"tensor": enc_tensor(v)}
    if isinstance(v, torch.dtype):
        return {"scalar_type": str(v).replace("torch.", "")}
    if isinstance(v, torch.memory_format):
        return {"memory_format": MEMORY_FORMATS[v]}
    if isinstance(v, torch.layout):
        return {"layout": str(v).replace("torch.", "")}
    if isinstance(v, torch.device):
        return {"device": str(v)}
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"int": v}
    if isinstance(v, float):
        return {"float": enc_float(v)}
    if isinstance(v, str):
        return {"string": v}
    if isinstance(v, (list, tuple)):
        if v and all(isinstance(x, bool) for x in v):
            return {"bools": list(v)}
        if all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            return {"ints": list(v)}
        if all(isinstance(x, float) for x in v):
            return {"floats": [enc_float(x) for x in v]}
    raise TypeError(f"cannot encode {v!r}")


# rtol/atol per kind and output dtype (the shared README's table; bfloat16
# and float16 accumulations, which it does not list, get torch.testing's
# bfloat16 rtol and a matching atol).
TOL = {
    "acc": {torch.float32: (1e-4, 1e-4), torch.float64: (1e-7, 1e-7),
            torch.bfloat16: (1.6e-2, 1e-2), torch.float16: (1e-3, 1e-3)},
    "move": {},
}


def tolerance(kind, outs):
    """The case's (rtol, atol): the loosest over its floating outputs."""
    rt, at = 0.0, 0.0
    if kind == "move":
        return rt, at
    for o in outs:
        if isinstance(o, torch.Tensor) and o.dtype.is_floating_point:
            r, a = TOL[kind][o.dtype]
            rt, at = max(rt, r), max(at, a)
    return rt, at


class File:
    """The cases of one op overload file."""

    def __init__(self, overload, kind):
        self.overload = overload
        ns, name = overload._schema.name.split("::")
        ov = overload._overloadname
        self.stem = f"{ns}.{name}.{ov}"
        self.op = f"{ns}::{name}.{ov}"
        self.schema = str(overload._schema)
        self.kind = kind
        self.lines = []

    def case(self, note, make, kwargs_names=()):
        """make() draws inputs and returns (args, kwargs)."""
        seed = sum(map(ord, self.stem)) * 100 + len(self.lines)
        torch.manual_seed(seed)
        args, kwargs = make()
        with torch.no_grad():
            out = self.overload(*[a.clone() if isinstance(a, torch.Tensor) else a for a in args], **kwargs)
        if out is None and not self.overload._schema.returns:
            outs = []  # a "-> ()" operator returns nothing
        else:
            outs = list(out) if isinstance(out, tuple) else [out]
        rt, at = tolerance(self.kind, outs)
        self.lines.append({
            "id": f"{self.stem}/{len(self.lines)}", "op": self.op, "schema": self.schema,
            "args": [enc(a) for a in args], "kwargs": {k: enc(v) for k, v in kwargs.items()},
            "outputs": [enc(o) for o in outs], "rtol": rt, "atol": at, "note": note,
        })

    def write(self, d):
        path = os.path.join(d, self.stem + ".jsonl")
        with open(path, "w") as f:
            for l in self.lines:
                f.write(json.dumps(l) + "\n")
        size = os.path.getsize(path)
        assert size < 30000, f"{path} is {size} bytes"
        print(f"{path}: {len(self.lines)} cases, {size} bytes")


files = []


def F(overload, kind):
    """Starts the file of overload, written by write_all."""
    f = File(overload, kind)
    files.append(f)
    return f


def write_all(d):
    for f in files:
        f.write(d)


def rn(*s, dt=torch.float32):
    return torch.randn(s).to(dt)


def ri(lo, hi, *s, dt=torch.int64):
    return torch.randint(lo, hi, s).to(dt)


nan, inf = float("nan"), float("inf")
