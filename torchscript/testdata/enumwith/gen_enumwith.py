"""Makes enumwith.script.pt and enumwith.expected.json: a scripted module
with enum attributes and enum constants (==, !=, .name, .value, str) and a
TorchScript class used as a context manager (its __enter__ and __exit__
count their calls), and records what PyTorch returns for its methods, and
for the forward of three archives made elsewhere: the frontend's
testdata/cases/types.pt (an enum argument), nograd.pt (with
torch.no_grad()) and the archive package's misc.script.pt (an enum
attribute). Run with ../shared/tools/torch2 (PyTorch 2.6) from the
torchscript directory (torch2 sees the current directory and its parent):
torch2 testdata/enumwith/gen_enumwith.py."""
import json
import math
import os
from enum import Enum
from typing import Any, List, NamedTuple, Tuple
import torch


class Color(Enum):
    RED = 1
    GREEN = 2


class Point(NamedTuple):  # types.pt's Point (frontend/testdata/gen_cases.py)
    x: torch.Tensor
    y: int


class Unit(Enum):
    KG = "kg"
    LB = "lb"


class Scale(Enum):
    HALF = 0.5
    TWO = 2.0


@torch.jit.script
class Counter(object):
    def __init__(self):
        self.entered = 0
        self.exited = 0

    def __enter__(self) -> int:
        self.entered += 1
        return self.entered * 10

    def __exit__(self, a: Any, b: Any, c: Any) -> None:
        self.exited += 1


class EnumWith(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.color = Color.GREEN
        self.unit = Unit.LB
        self.scale = Scale.HALF
        self.colors = [Color.RED, Color.GREEN]

    @torch.jit.export
    def names(self) -> List[str]:
        return [self.color.name, self.unit.name, self.scale.name, Color.RED.name]

    @torch.jit.export
    def values(self) -> Tuple[int, str, float, int]:
        return (self.color.value, self.unit.value, self.scale.value, self.colors[0].value)

    @torch.jit.export
    def compare(self, n: int) -> List[bool]:
        c = Color.RED
        if n > 1:
            c = Color.GREEN
        return [c == self.color, c != self.color, self.color == Color.GREEN,
                self.unit != Unit.KG, self.colors[1] == c]

    @torch.jit.export
    def strs(self) -> List[str]:
        return [str(self.color), str(Unit.KG), str(self.colors)]

    @torch.jit.export
    def context(self, x: torch.Tensor) -> Tuple[torch.Tensor, int, int, int]:
        k = Counter()
        with k as v:
            y = x * 2.0 + v
        with torch.no_grad():
            y = y + 1.0
        with k:
            y = y * 3.0
        return (y, v, k.entered, k.exited)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.color == Color.GREEN:
            return x * self.color.value
        return x


def num(x):
    # JSON has no inf or nan: those are strings, as float() reads them
    return x if math.isfinite(x) else str(x)


def conv(v):
    if isinstance(v, Enum):
        return {"enum": v.name, "value": v.value}
    if isinstance(v, torch.Tensor):
        return {"tensor": [num(x) for x in v.detach().flatten().tolist()], "shape": list(v.shape), "dtype": str(v.dtype).replace("torch.", "")}
    if isinstance(v, (list, tuple)):
        return [conv(e) for e in v]
    return v


def main():
    os.chdir(os.path.dirname(os.path.abspath(__file__)))
    m = torch.jit.script(EnumWith())
    torch.jit.save(m, "enumwith.script.pt")
    m = torch.jit.load("enumwith.script.pt")
    x = torch.tensor([1.0, -2.0, 0.5])
    cases = []
    def rec(archive, method, inputs, out):
        cases.append({"archive": archive, "method": method, "inputs": conv(inputs), "output": conv(out)})
    rec("enumwith/enumwith.script.pt", "names", [], m.names())
    rec("enumwith/enumwith.script.pt", "values", [], m.values())
    rec("enumwith/enumwith.script.pt", "compare", [0], m.compare(0))
    rec("enumwith/enumwith.script.pt", "compare", [2], m.compare(2))
    rec("enumwith/enumwith.script.pt", "strs", [], m.strs())
    rec("enumwith/enumwith.script.pt", "context", [x], m.context(x))
    rec("enumwith/enumwith.script.pt", "forward", [x], m.forward(x))
    for path, name in [("../../frontend/testdata/cases/nograd.pt", "nograd"),
                       ("../../archive/testdata/misc.script.pt", "misc")]:
        a = torch.jit.load(path)
        rec(path[6:], "forward", [x], a(x))
    # types.pt's forward takes a Color and a Point
    a = torch.jit.load("../../frontend/testdata/cases/types.pt")
    for c in [Color.RED, Color.GREEN]:
        p = Point(torch.tensor([0.25, 4.0, -1.0]), 4)
        rec("frontend/testdata/cases/types.pt", "forward", [x, c, p], a(x, c, p))
    json.dump({"torch": torch.__version__, "cases": cases}, open("enumwith.expected.json", "w"), indent=1)


if __name__ == "__main__":
    main()
