# Makes the small TorchScript archives of this folder with PyTorch (run with
# ../shared/tools/torch2 from this folder): scripted modules with every kind of
# attribute the archive reader decodes, the old (pre-string-table) debug_pkl
# format, extra files, and one archive per versioned operator (div 4, full 5,
# linspace 8, logspace 9, gelu 10).
from enum import Enum
from typing import Dict, List, Optional, Tuple

import torch
from torch import Tensor


@torch.jit.script
class Point:
    def __init__(self, x: int, y: float):
        self.x = x
        self.y = y

    def norm(self) -> float:
        return self.x * self.x + self.y * self.y


@torch.jit.script
class Stateful:
    def __init__(self, n: int, name: str):
        self.n = n
        self.name = name

    def __getstate__(self) -> Tuple[int, str]:
        return (self.n, self.name)

    def __setstate__(self, state: Tuple[int, str]) -> None:
        self.n = state[0]
        self.name = state[1]


class Inner(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.arange(6, dtype=torch.float32).reshape(2, 3))
        self.register_buffer("count", torch.tensor([3], dtype=torch.int64))

    def forward(self, x: Tensor) -> Tensor:
        return x @ self.w.t() + self.count


class Attrs(torch.nn.Module):
    __constants__ = ["scale"]
    empty: List[int]

    def __init__(self):
        super().__init__()
        self.scale = 2.5
        self.ints: List[int] = [1, 2, 3]
        self.floats: List[float] = [0.5, -1.0]
        self.bools: List[bool] = [True, False]
        self.strs: List[str] = ["a", "bc"]
        self.tensors: List[Tensor] = [torch.ones(2), torch.zeros(1, dtype=torch.int32)]
        self.empty = []
        self.table: Dict[str, int] = {"x": 1, "y": 2}
        self.by_int: Dict[int, Tensor] = {7: torch.full((2,), 7.0)}
        self.pair: Tuple[int, str] = (4, "four")
        self.name = "attrs"
        self.maybe: Optional[int] = None
        self.maybe_t: Optional[Tensor] = torch.tensor([1.5, 2.5], dtype=torch.float64)
        self.flag = True
        self.point = Point(3, 4.0)
        self.stateful = Stateful(5, "five")
        self.inner = Inner()
        self.halfp = torch.nn.Parameter(torch.tensor([1.0, 2.0], dtype=torch.float16), requires_grad=False)
        self.view = torch.arange(12.0).reshape(3, 4)[1:, ::2]

    def forward(self, x: Tensor) -> Tensor:
        y = self.inner(x) * self.scale
        y = y + torch.tensor([1.0, 2.0])  # a constant tensor: constants.pkl
        for t in self.tensors:
            y = y + t.sum()
        if self.maybe is not None:
            y = y + self.maybe
        return y + self.point.norm() + self.stateful.n + float(len(self.strs))


class Color(Enum):
    RED = 1
    GREEN = 2


class Misc(torch.nn.Module):
    nested: List[List[int]]
    opt_list: Optional[List[int]]

    def __init__(self):
        super().__init__()
        self.color = Color.GREEN
        self.dev = torch.device("cpu")
        self.c = complex(1.5, -2.0)
        self.nested = [[1], [], [2, 3]]
        self.opt_list = [-7]
        self.pair = (torch.tensor([True, False]), -(2**40))
        self.lists: Dict[str, List[Tensor]] = {"a": [torch.zeros(0)], "b": []}
        self.inf = float("inf")
        self.nan = float("nan")

    def forward(self, x: Tensor) -> Tensor:
        if self.color == Color.GREEN and self.opt_list is not None:
            return x.to(self.dev) + len(self.nested) + self.pair[1] + self.inf
        return x


def save(m, name, **kw):
    torch.jit.save(m, name, **kw)
    print("wrote", name)


def main():
    torch.manual_seed(0)
    m = torch.jit.script(Attrs())
    save(m, "attrs.script.pt", _extra_files={"meta.json": b'{"k": 1}', "notes/readme.txt": b"hello"})
    save(torch.jit.script(Misc()), "misc.script.pt")
    torch._C._set_should_use_format_with_string_table(False)
    save(m, "attrs_oldfmt.script.pt")
    torch._C._set_should_use_format_with_string_table(True)

    class Div(torch.nn.Module):
        def forward(self, a: Tensor, b: Tensor) -> Tensor:
            return torch.div(a, b)

    class Full(torch.nn.Module):
        def forward(self, n: int) -> Tensor:
            return torch.full([n], 2)

    class Linspace(torch.nn.Module):
        def forward(self, n: int) -> Tensor:
            return torch.linspace(0.0, 1.0, n)

    class Logspace(torch.nn.Module):
        def forward(self, n: int) -> Tensor:
            return torch.logspace(0.0, 1.0, n)

    class Gelu(torch.nn.Module):
        def forward(self, x: Tensor) -> Tensor:
            return torch.nn.functional.gelu(x)

    for name, mod in [("div", Div()), ("full", Full()), ("linspace", Linspace()), ("logspace", Logspace()), ("gelu", Gelu())]:
        save(torch.jit.script(mod), name + ".script.pt")

    class Traced(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(3, 2)

        def forward(self, x):
            return torch.relu(self.lin(x)) * torch.tensor(2.0, dtype=torch.float64)

    save(torch.jit.trace(Traced(), torch.randn(4, 3)), "traced.trace.pt")


if __name__ == "__main__":
    main()
