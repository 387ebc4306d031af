"""Makes the archives of package convert's source-range, enum, with and
fork tests with PyTorch 2.6, and what PyTorch says of them:

  NAME.pt       torch.jit.save(torch.jit.script(NAME model))
  NAME.io.json  inputs and outputs (ARG encoding of ../shared/models/README.md),
                an example and two more cases
  srcrange.expected.json  for each aten node of srcrange's forward (inlined),
                the stack_trace a node recorded from it must carry: PyTorch's
                source range of each inlined call site, then the node's own
                (Node.sourceRange(): file, line, the line's code)
  NAME.code.txt m.code of the loaded archive's forward, other methods' code,
                forward's graph (fork archives; copied to
                ../../../frontend/testdata/cases, and fork_method's without
                helper's section to ../../../pyprint/testdata)

Run from this directory with PyTorch 2.6:
  ../../../../../shared/tools/torch2 gen_tsfork.py
"""
import base64
import json
import re
from enum import Enum
from typing import Any, List, Tuple

import numpy as np
import torch

DTYPE_NAME = {torch.float32: "float32", torch.float64: "float64", torch.int64: "int64",
              torch.int32: "int32", torch.bool: "bool", torch.uint8: "uint8"}
NP_DTYPE = {"float32": "<f4", "float64": "<f8", "int64": "<i8", "int32": "<i4",
            "bool": "|b1", "uint8": "|u1"}


def enc(v):
    if isinstance(v, torch.Tensor):
        t = v.detach().cpu().contiguous()
        name = DTYPE_NAME[t.dtype]
        arr = np.ascontiguousarray(t.numpy()).astype(NP_DTYPE[name], copy=False)
        return {"tensor": {"dtype": name, "shape": list(t.shape),
                           "data": base64.b64encode(arr.tobytes()).decode("ascii")}}
    if v is None:
        return {"none": True}
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"int": v}
    if isinstance(v, float):
        return {"float": v}
    raise TypeError(f"cannot encode {type(v)}")


def flat(v):
    if isinstance(v, (tuple, list)):
        return [y for x in v for y in flat(x)]
    return [v]


# --- source ranges -------------------------------------------------------

def scale(x: torch.Tensor) -> torch.Tensor:
    return torch.sigmoid(x) * 0.5


class Inner(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 3)

    def forward(self, x):
        y = self.lin(x)
        return torch.relu(y)


class SrcRange(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def forward(self, x):
        h = self.inner(x)
        return scale(h) - 1.0


# --- enums ---------------------------------------------------------------

class Mode(Enum):
    SCALE = 1
    SHIFT = 2


class Act(Enum):
    RELU = "relu"
    TANH = "tanh"


def apply(x: torch.Tensor, a: Act) -> torch.Tensor:
    if a == Act.RELU:
        return torch.relu(x)
    return torch.tanh(x)


class EnumModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.mode = Mode.SHIFT
        self.act = Act.TANH

    def forward(self, x):
        if self.mode == Mode.SCALE:
            x = x * 2.0
        else:
            x = x + float(self.mode.value)
        y = apply(x, self.act)
        if Act.RELU != self.act:
            y = y * 3.0
        return apply(y, Act.RELU)


# --- with ----------------------------------------------------------------

@torch.jit.script
class Offset(object):
    def __init__(self, k: float):
        self.k = k
        self.depth = 0

    def __enter__(self) -> float:
        self.depth += 1
        return self.k * 2.0

    def __exit__(self, a: Any, b: Any, c: Any) -> None:
        self.depth -= 1


class WithModel(torch.nn.Module):
    def forward(self, x):
        with torch.no_grad():
            y = x * 2.0
        with Offset(1.5) as k:
            y = y + k
        return torch.tanh(y)


@torch.jit.script
class Tally(object):
    def __init__(self):
        self.n = 0

    def __enter__(self) -> None:
        self.n += 1

    def __exit__(self, a: Any, b: Any, c: Any) -> None:
        pass


class WithState(torch.nn.Module):
    """A with whose __enter__ writes an attribute of the module's state."""

    def __init__(self):
        super().__init__()
        self.tally = Tally()

    def forward(self, x):
        with self.tally:
            y = x + 1.0
        return y


# --- fork/wait -----------------------------------------------------------

def branch(x: torch.Tensor, k: float) -> torch.Tensor:
    return torch.tanh(x) * k


class ForkModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        fut = torch.jit.fork(branch, x, 2.0)
        futs = [torch.jit.fork(branch, x, float(i)) for i in range(3)]
        y = self.lin(x)
        for f in futs:
            y = y + torch.jit.wait(f)
        return torch.jit.wait(fut) + y


class ForkMethod(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        fut = torch.jit.fork(self.lin, x)
        fut2 = torch.jit.fork(self.helper, x, 3)
        return torch.jit.wait(fut) * torch.jit.wait(fut2)

    @torch.jit.export
    def helper(self, x: torch.Tensor, n: int) -> torch.Tensor:
        return x.sum(0) + n


def example(name, g):
    if name == "srcrange" or name == "fork_method" or name == "fork":
        return (torch.randn(2, 4, generator=g),)
    return (torch.randn(3, generator=g),)


def main():
    models = {"srcrange": SrcRange(), "enum": EnumModel(), "with": WithModel(),
              "with_state": WithState(), "fork": ForkModel(), "fork_method": ForkMethod()}
    torch.manual_seed(0)
    for name, eager in models.items():
        s = torch.jit.script(eager)
        torch.jit.save(s, name + ".pt")
        m = torch.jit.load(name + ".pt")
        g = torch.Generator().manual_seed(7)
        cases = []
        for seed in range(3):
            args = example(name, g)
            out = m(*args)
            ref = eager(*args)
            for a, b in zip(flat(out), flat(ref)):
                assert torch.allclose(a, b), name
            cases.append({"seed": seed, "inputs": [enc(a) for a in args],
                          "outputs": [enc(o) for o in flat(out)]})
        io = {"inputs": cases[0]["inputs"], "outputs": cases[0]["outputs"],
              "extra": {"model": name, "torch": torch.__version__}, "cases": cases[1:]}
        with open(name + ".io.json", "w") as f:
            json.dump(io, f, indent=1)
            f.write("\n")
        if name.startswith("fork"):
            # the format of the frontend's testdata/cases/*.code.txt:
            # forward's m.code, other methods' code, forward's graph
            with open(name + ".code.txt", "w") as f:
                f.write("# PyTorch " + torch.__version__ + "\n# code\n" + m.code + "\n")
                for meth in ["helper"]:
                    if hasattr(m, meth):
                        f.write("# code\n" + getattr(m, meth).code + "\n")
                f.write("# graph\n" + str(m.graph))
    srcrange_expected()


def frame(node, fn):
    """A traceback frame from PyTorch's source range of node."""
    text = node.sourceRange()
    lines = text.split("\n")
    m = re.search(r'File "(.+)", line (\d+)', lines[0])  # "Serialized   File" when no original range
    code = ""
    for i, l in enumerate(lines):
        if "<--- HERE" in l:
            code = lines[i - 1].strip()
            break
    return '  File "%s", line %s, in %s\n    %s\n' % (m.group(1), m.group(2), fn, code)


def srcrange_expected():
    """The innermost frame of each aten node comes from the loaded module's
    inlined graph; the outer frames from the call sites of the methods'
    own graphs (which call reaches which node is the model's structure)."""
    m = torch.jit.load("srcrange.pt")
    site = {}
    for n in m.forward.graph.nodes():
        if n.kind() == "prim::CallMethod":
            site["inner"] = frame(n, "forward")
        if n.kind() == "prim::CallFunction":
            site["scale"] = frame(n, "forward")
    for n in m.inner.forward.graph.nodes():
        if n.kind() == "prim::CallMethod":
            site["lin"] = frame(n, "forward")
    outer = {"aten::linear": (site["inner"] + site["lin"], "forward"),
             "aten::relu": (site["inner"], "forward"),
             "aten::sigmoid": (site["scale"], "scale"),
             "aten::mul": (site["scale"], "scale"),
             "aten::sub": ("", "forward")}
    out = {}
    for n in m.forward.inlined_graph.nodes():
        if n.kind() in outer:
            pre, fn = outer[n.kind()]
            out[n.kind()] = pre + frame(n, fn)
    assert sorted(out) == sorted(outer), sorted(out)
    with open("srcrange.expected.json", "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


main()
