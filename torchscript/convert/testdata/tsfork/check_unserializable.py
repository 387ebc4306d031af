"""Checks two claims of the frontend's documentation with PyTorch 2.6 and
prints what it finds (nothing is written):

1. Comprehensions and lambdas never reach an archive: torch.jit.script
   lowers list and dict comprehensions to loops (the saved code has a
   `for`, no comprehension), and refuses a lambda.
3. A nested def (other than the closure python_print writes for a fork)
   never reaches an archive: torch.jit.script refuses it.
2. prim::PythonOp cannot be saved: torch.jit.save refuses a module whose
   graph calls Python (a @torch.jit.ignore'd function, an autograd
   Function in a traced module).

Run: ../../../../../shared/tools/torch2 check_unserializable.py
"""
import io
import zipfile
from typing import Dict, List

import torch


class Comprehensions(torch.nn.Module):
    def forward(self, x):
        ys = [x * float(i) for i in range(3)]
        d: Dict[str, int] = {str(i): i for i in range(2)}
        return torch.stack(ys).sum(0) + d["1"]


class NestedDef(torch.nn.Module):
    def forward(self, x):
        def inner(y: torch.Tensor) -> torch.Tensor:
            return y * 2.0 + x
        return inner(x)


class Lambda(torch.nn.Module):
    def forward(self, x):
        f = lambda y: y * 2.0  # noqa: E731
        return f(x)


@torch.jit.ignore
def python_side(x: torch.Tensor) -> torch.Tensor:
    return x + 1


class Ignored(torch.nn.Module):
    def forward(self, x):
        return python_side(x)


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


class UsesFunction(torch.nn.Module):
    def forward(self, x):
        return Double.apply(x)


def saved_code(m):
    buf = io.BytesIO()
    torch.jit.save(m, buf)
    z = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    return "".join(z.read(n).decode() for n in z.namelist() if n.endswith(".py"))


code = saved_code(torch.jit.script(Comprehensions()))
print("1. comprehensions: saved code has a for loop:", "for " in code,
      "| has a comprehension:", " for " in code.replace("  for ", ""))
try:
    torch.jit.script(Lambda())
    print("1. lambda: scripted (unexpected)")
except Exception as e:
    print("1. lambda: torch.jit.script refuses it:", type(e).__name__, str(e).splitlines()[0])
for name, make in [("ignored", lambda: torch.jit.script(Ignored())),
                   ("autograd.Function (traced)", lambda: torch.jit.trace(UsesFunction(), torch.ones(2)))]:
    m = make()
    kinds = {n.kind() for n in m.graph.nodes()}
    try:
        saved_code(m)
        print("2.", name, ": saved; graph kinds", sorted(kinds))
    except Exception as e:
        print("2.", name, ": graph has prim::PythonOp:", "prim::PythonOp" in kinds,
              "| torch.jit.save refuses it:", type(e).__name__, str(e).strip().splitlines()[0])
try:
    torch.jit.script(NestedDef())
    print("3. nested def: scripted (unexpected)")
except Exception as e:
    print("3. nested def: torch.jit.script refuses it:", type(e).__name__, str(e).splitlines()[0])
