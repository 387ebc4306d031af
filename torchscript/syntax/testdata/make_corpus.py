# make_corpus.py: scripted models that exercise the constructs of TorchScript's
# serialized dialect; their code/ files (and the .code of each method) are the
# round-trip corpus of torchscript/syntax. Run from torchscript/syntax:
#   ../../../shared/tools/torch2 testdata/make_corpus.py testdata/torch-2.6
#   TORCH2_SUITE=sid ../../../shared/tools/torch2 testdata/make_corpus.py testdata/torch-2.14
import enum
import io
import os
import sys
import zipfile
from typing import Dict, List, NamedTuple, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor

out = sys.argv[1]


class Point(NamedTuple):
    x: Tensor
    y: int


class Color(enum.Enum):
    RED = 1
    GREEN = 2


@torch.jit.interface
class Scaler(nn.Module):
    def forward(self, x: Tensor, k: float) -> Tensor:
        pass


class Doubler(nn.Module):
    def forward(self, x: Tensor, k: float) -> Tensor:
        return x * 2.0 * k


@torch.jit.script
class Counter(object):
    def __init__(self, start: int):
        self.n = start

    def bump(self, by: int) -> int:
        self.n += by
        return self.n


def helper(x: Tensor, n: int = 2, scale: float = 0.5) -> Tensor:
    for _ in range(n):
        x = x * scale
    return x


class Strings(nn.Module):
    def forward(self, s: str) -> Tuple[str, List[str], int]:
        t = "tab\there\nnew 'single' \"double\" back\\slash \a\b\f\v\r \x01\x7f"
        parts = s.split(",")
        out: List[str] = []
        for p in parts:
            if p == "":
                continue
            elif p.startswith("#"):
                break
            else:
                out.append(p.strip() + "!")
        assert len(out) < 100, "too many parts: {}".format(len(out))
        if len(out) > 50:
            raise ValueError("way too many\n")
        return t + s, out, len(t)


class Control(nn.Module):
    __constants__ = ["big", "neg", "name"]

    def __init__(self):
        super().__init__()
        self.big = 9223372036854775807
        self.neg = -9223372036854775807
        self.name = "ctrl"
        self.scaler: Scaler = Doubler()
        self.layers = nn.ModuleList([nn.Linear(4, 4), nn.ReLU()])
        self.table: Dict[str, int] = {"a": 1, "b": 2}
        self.maybe: Optional[Tensor] = None
        self.lin = nn.Linear(4, 4)

    def forward(self, x: Tensor, y: Optional[Tensor], n: int, flags: List[bool]) -> Tuple[Tensor, Point, Dict[str, float]]:
        z = x[0:2:1]
        w = x[..., None]
        v = x[:, 1]
        u = x[-1]
        if y is not None:
            z = z + y[0:2]
        elif n > 3 and not flags[0]:
            z = z - 1
        else:
            z = z * float("inf")
        q = torch.where(torch.isnan(z), torch.zeros_like(z), z)
        i = 0
        while i < n:
            i += 1
            if i % 2 == 0:
                continue
            if i > 10 or (n < 0 and i < -1):
                break
            q = q + i
        for layer in self.layers:
            q = layer(q)
        for a, b in zip(flags, [1, 2, 3]):
            if a:
                q = q + b
        for k, vv in self.table.items():
            q = q + vv
        d: Dict[str, float] = {"mean": float(q.mean()), "neg_inf": float("-inf"), "nan": float("nan"), "e": 1e-05, "big": 1e20}
        c = Counter(3)
        c.bump(2)
        sq = [j * j for j in range(n)]
        dd = {str(j): j for j in range(3)}
        m = max(sq) if len(sq) > 0 else -1
        cplx = complex(1.5, -2.0)
        cs: List[complex] = [cplx, 2.5j]
        fut = torch.jit.fork(helper, x, 3, scale=0.25)
        h = torch.jit.wait(fut)
        with torch.no_grad():
            h = h + 1
        t = (x, (n, [1.5, 2.5]), None)
        tt = t[1]
        r = torch.ones(2, 3, dtype=torch.float64, device="cpu")
        color = Color.RED
        if color == Color.GREEN:
            r = r * 2
        s = self.scaler.forward(x, 0.5)
        e = -x ** 2 + ~torch.tensor([1, 2]).sum() * (n // 2) % 3 << 1
        if isinstance(y, Tensor):
            e = e + y.sum()
        if self.maybe is not None:
            e = e + self.maybe
        print("debug", n, self.name)
        g = torch.tensor([1.0, 2.0, 3.0]) + torch.tensor([[0.5]]) * 3
        return q + helper(h, n=2) + s.sum() + g.sum() + float(m) + float(len(dd)) + float(len(cs)) + tt[1][0] + e.float().sum() + r.sum(), Point(z, n), d


class Hooked(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)

    def forward(self, x: Tensor) -> Tensor:
        return self.lin(x).relu()

    @torch.jit.export
    def other(self, x: Tensor, y: Tensor) -> Tensor:
        a, b = x.chunk(2)
        return torch.cat([a, b, y], 0)


class UsesInterface(nn.Module):
    scaler: Scaler

    def __init__(self):
        super().__init__()
        self.scaler = Doubler()
        self.register_buffer("mask", torch.tensor([1.0, 0.0]))

    def forward(self, x: Tensor, c: Color, p: Point) -> Tuple[Tensor, str, Color, int]:
        y = self.scaler.forward(x, 2.0) + torch.tensor([0.25, -0.5])
        word = "h\u00e9llo w\u00f6rld"
        if c == Color.RED:
            y = y * c.value
        m: Optional[int] = None
        if p.y > 0:
            m = p.y
        k = m if m is not None else -1
        return y + p.x + self.mask, word + c.name, Color.GREEN, k


def pre_hook(m: nn.Module, inp: Tuple[Tensor]) -> Tuple[Tensor]:
    return (inp[0] * 2,)


def post_hook(m: nn.Module, inp: Tuple[Tensor], outp: Tensor) -> Tensor:
    return outp + 1


def models():
    yield "strings", torch.jit.script(Strings())
    yield "control", torch.jit.script(Control())
    h = Hooked()
    h.register_forward_pre_hook(pre_hook)
    h.register_forward_hook(post_hook)
    yield "hooked", torch.jit.script(h)
    yield "interface", torch.jit.script(UsesInterface())
    try:
        import torchvision
        yield "resnet18", torch.jit.script(torchvision.models.resnet18())
    except Exception as e:  # noqa: BLE001
        print("torchvision models skipped:", e, file=sys.stderr)


os.makedirs(out, exist_ok=True)
for name, m in models():
    buf = io.BytesIO()
    torch.jit.save(m, buf)
    zf = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    for info in zf.infolist():
        parts = info.filename.split("/")
        if len(parts) >= 3 and parts[1] == "code" and info.filename.endswith(".py"):
            rel = "/".join(parts[2:])
            dst = os.path.join(out, name, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(dst, "wb") as f:
                f.write(zf.read(info))
    # the .code of every method of the top module, as m.code prints forward
    for meth in ["forward", "other"]:
        if hasattr(m, meth):
            code = getattr(m, meth).code
            with open(os.path.join(out, name, meth + ".code.py"), "w") as f:
                f.write(code)
    print(name, "ok", file=sys.stderr)
