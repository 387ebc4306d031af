# Makes testdata/cases/NAME.pt and NAME.code.txt: small scripted modules that
# exercise the frontend's overload resolution, implicit conversions,
# defaults, keyword arguments, control flow and builtins, saved by
# torch.jit.save and printed (code and graph of forward) after
# torch.jit.load, as ../shared/pt2/gen_pt2.py prints its archives.
#   cd torchscript/frontend/testdata && ../../../../shared/tools/torch2 gen_cases.py
import enum, io, os
from typing import Dict, List, NamedTuple, Optional, Tuple

import torch
import torch.nn.functional as F


class Overloads(torch.nn.Module):
    def forward(self, x: torch.Tensor, n: int, f: float) -> Tuple[torch.Tensor, int, float, float]:
        a = x + 1            # add.Scalar (an int is no Tensor)
        b = x * x            # mul.Tensor
        c = n + n            # add.int
        d = n + f            # add.int_float
        e = f * 2            # mul.float_int
        g = torch.add(a, b, alpha=2)   # keyword argument
        h = torch.sum(g, dim=[0], keepdim=True)
        i = float(n)
        return h + i, c, d, e


class Conversions(torch.nn.Module):
    def forward(self, x: torch.Tensor, t: Tuple[int, int]) -> torch.Tensor:
        y = x.view(-1)                 # varargs to a list
        z = torch.reshape(x, t)        # a tuple for int[]
        w = F.max_pool2d(x.unsqueeze(0), 2)   # an int for int[2]
        s = x.sum()
        k = torch.zeros(int(s), dtype=torch.float)
        return y.sum() + z.sum() + w.sum() + k.sum()


class Containers(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.names: List[str] = ["a", "b"]
        self.d: Dict[str, float] = {"a": 1.0}

    def forward(self, x: torch.Tensor) -> Tuple[List[int], Dict[str, float], str, int]:
        out: List[int] = []
        for i in range(3):
            out.append(i * 2)
        for n in self.names:
            out.append(len(n))
        d = {"k": float(out[0])}
        d.update(self.d)
        keys = list(d.keys())
        m = max(out)
        s = str(m) + keys[0]
        return out, d, s, min(m, 7)


class Flow(torch.nn.Module):
    def forward(self, x: torch.Tensor, k: Optional[int]) -> torch.Tensor:
        i = 0
        while i < 5 and bool(x.sum() < 100):
            x = x * 2
            i += 1
        if k is not None:
            x = x + k
        y = x if i > 2 else -x
        assert y.dim() > 0, "needs a dim"
        return y


class Helper(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(3))
        self.count = 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.count = self.count + 1
        return self.scale(x, 2.0) + self.w

    @torch.jit.export
    def scale(self, x: torch.Tensor, f: float = 3.0) -> torch.Tensor:
        return F.relu(x) * f


class Point(NamedTuple):
    x: torch.Tensor
    y: int


class Color(enum.Enum):
    RED = 1
    GREEN = 2


@torch.jit.interface
class ScalerIface(torch.nn.Module):
    def forward(self, x: torch.Tensor, k: float) -> torch.Tensor:
        pass


class Scaler(torch.nn.Module):
    def forward(self, x: torch.Tensor, k: float) -> torch.Tensor:
        return x * k


@torch.jit.script
class Counter(object):
    def __init__(self, start: int):
        self.n = start

    def bump(self, by: int) -> int:
        self.n = self.n + by
        return self.n


class Types(torch.nn.Module):
    scaler: ScalerIface

    def __init__(self):
        super().__init__()
        self.scaler = Scaler()

    def forward(self, x: torch.Tensor, c: Color, p: Point) -> Tuple[torch.Tensor, Point, str, int]:
        y = self.scaler(x, 2.0)
        if c == Color.RED:
            y = y * c.value
        q = Point(y, p.y + 1)
        k = Counter(3)
        return q.x + p[0], q, c.name, k.bump(p.y)


class NoGrad(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            y = x * 2
        return y + 1


class Inner(torch.nn.Module):
    def forward(self, x):
        return x * 2.0


def inner_hook(self, input: Tuple[torch.Tensor], output: torch.Tensor) -> torch.Tensor:
    return output - 1.0


class Hooks(torch.nn.Module):
    # a submodule with a forward hook: the caller's code calls the hook
    # through the submodule's class (__torch__.Inner.inner_hook(inner, ...))
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.inner.register_forward_hook(inner_hook)

    def forward(self, x):
        return self.inner(x) + 3.0


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
    os.makedirs(out, exist_ok=True)
    for cls in [Overloads, Conversions, Containers, Flow, Helper, Types, NoGrad, Hooks]:
        name = cls.__name__.lower()
        sm = torch.jit.script(cls())
        buf = io.BytesIO()
        torch.jit.save(sm, buf)
        data = buf.getvalue()
        with open(os.path.join(out, name + ".pt"), "wb") as f:
            f.write(data)
        lm = torch.jit.load(io.BytesIO(data))
        with open(os.path.join(out, name + ".code.txt"), "w") as f:
            f.write(f"# PyTorch {torch.__version__}\n# code\n{lm.code}\n# graph\n{lm.graph}\n")
        # the overload each node of forward's graph resolved to, in
        # pre-order (a node, then its blocks' nodes)
        with open(os.path.join(out, name + ".schemas.txt"), "w") as f:
            def walk(block):
                for n in block.nodes():
                    s = n.schema()
                    if s != "(no schema)":
                        f.write(n.kind() + " " + s.split("(")[0] + "\n")
                    for b in n.blocks():
                        walk(b)
            walk(lm.graph)


main()


# Hand-written functions in the serialized dialect's style, compiled by
# torch.jit.CompilationUnit: the overloads that need implicit conversions
# (a tensor for an int or a Scalar, trailing ints for a list, a bool for a
# Scalar), keyword arguments and multiple returns, which the serializer's
# own output never needs. NAME.src.py holds the source, NAME.code.txt the
# graph of forward, NAME.schemas.txt its overloads.
SOURCES = {
    "implicit": """
def forward(x: Tensor, n: int, f: float, b: bool) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor, float]:
    a = torch.select(x, 0, torch.sum(x))
    d = torch.full([2], torch.sum(x))
    e = torch.add(x, b)
    h = x.view(2, -1)
    j = torch.ones(2, 3)
    k = torch.add(float(n), f)
    m = torch.clamp(x, min=0)
    p = x.max(dim=0)
    q = p[0]
    r = torch.zeros(n, n, dtype=6)
    return (torch.add(a, d), torch.add(e, h), torch.add(j, m), q, r, k)
""",
    "lists": """
def forward(x: Tensor, xs: List[Tensor], t: Tuple[int, int]) -> Tuple[Tensor, int, List[int], bool]:
    y = torch.cat(xs, 1)
    s = y.size()
    n = len(s)
    l = list(t)
    u = 2 in l
    z = torch.reshape(x, t)
    for i in range(len(xs)):
        z = torch.add(z, torch.sum(xs[i]))
    return (z, n, l, u)
""",
}


def handwritten():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
    for name, src in SOURCES.items():
        with open(os.path.join(out, name + ".src.py"), "w") as f:
            f.write(src.lstrip("\n"))
        cu = torch.jit.CompilationUnit(src)
        g = cu.forward.graph
        with open(os.path.join(out, name + ".code.txt"), "w") as f:
            f.write(f"# PyTorch {torch.__version__}\n# graph\n{g}\n")
        with open(os.path.join(out, name + ".schemas.txt"), "w") as f:
            def walk(block):
                for n in block.nodes():
                    s = n.schema()
                    if s != "(no schema)":
                        f.write(n.kind() + " " + s.split("(")[0] + "\n")
                    for b in n.blocks():
                        walk(b)
            walk(g)


handwritten()
