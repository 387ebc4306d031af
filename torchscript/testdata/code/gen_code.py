# Makes the archives of torchscript's TestCodeGen and what PyTorch prints
# for them: NAME.pt and NAME.code.txt ("# code" of every method in order,
# "# method NAME" before each). Run with /work/shared/tools/torch2 (2.6).
import torch
from typing import Dict, List, Optional, Tuple


class Inner(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        return torch.relu(self.lin(x))


class Many(torch.nn.Module):
    __constants__ = ["k"]

    def __init__(self):
        super().__init__()
        self.k = 3
        self.blocks = torch.nn.ModuleList([Inner(), Inner()])
        self.register_buffer("scale", torch.tensor([1.5, 2.5, 3.5, 4.5]))
        self.names: List[str] = ["a", "b"]

    def forward(self, x: torch.Tensor, opt: Optional[torch.Tensor] = None, flag: bool = True) -> Dict[str, torch.Tensor]:
        for b in self.blocks:
            x = b(x)
        out: Dict[str, torch.Tensor] = {}
        if opt is not None:
            x = x + opt
        y = x * torch.tensor(2.0) + torch.tensor([1.0, 2.0, 3.0, 4.0])
        out["y"] = y.sum(dim=-1, keepdim=True)
        out["z"] = torch.cat([x, y], dim=1).mean(1)
        if flag:
            out["w"] = torch.zeros(2, 3, dtype=torch.float64)
        s = "ünïcode"
        out[self.names[0]] = x.clamp(min=0.0, max=self.k * 1.0)
        return out

    @torch.jit.export
    def strings(self, s: str, n: int) -> Tuple[str, List[int], float]:
        parts = s.split(",")
        lens = [len(p) for p in parts]
        total = 0
        i = 0
        while i < len(lens) and total < n:
            total += lens[i]
            i += 1
        a, b = total, float(i) / 3.0
        return "{}-{}".format(s, a), lens, b

    @torch.jit.export
    def early(self, x: torch.Tensor, n: int) -> torch.Tensor:
        if n > 3:
            return x * 2
        for j in range(n):
            x = x + j
            if j == 1:
                x = x - 1
        t = (x, n)
        u, v = t
        return u + v + 0.10000000000000001 + 1e-5 + 1e10


from typing import NamedTuple


class Pair(NamedTuple):
    a: torch.Tensor
    b: int


class Misc(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(3))

    def forward(self, x: torch.Tensor, xs: List[torch.Tensor], o: Optional[int]) -> Tuple[torch.Tensor, int, str]:
        c = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        d = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        p = Pair(x, 3)
        q, r = p
        y = x + c.sum() + d.mean() + q
        h = x.shape[0]
        if isinstance(o, int):
            y = y * o
        m = o if o is not None else 7
        with torch.no_grad():
            z = y.detach() * 2
        n = 0
        for t in xs:
            n += t.numel()
        msg = "tab\there \"q\" \\ end"
        assert n >= 0, "negative"
        return torch.where(z > 0, z, self.w.sum()).view(-1)[h - 1:], n + m + r, msg

    @torch.jit.export
    def loops(self, x: torch.Tensor) -> torch.Tensor:
        acc = x
        while bool(acc.sum() < 100.0):
            acc = acc * 2.0 + torch.ones_like(acc, dtype=torch.float32)
        for i in range(3):
            for j in range(i):
                acc = acc - float(j)
        return acc


def main():
    torch.manual_seed(0)
    for name, mod, methods in [("many", Many(), ["forward", "strings", "early"]), ("misc", Misc(), ["forward", "loops"])]:
        m = torch.jit.script(mod)
        m.save(name + ".pt")
        lm = torch.jit.load(name + ".pt")
        with open(name + ".code.txt", "w") as f:
            f.write("# PyTorch " + torch.__version__ + "\n")
            for meth in methods:
                f.write("# method " + meth + "\n")
                f.write(getattr(lm, meth).code)
                f.write("\n")


main()
