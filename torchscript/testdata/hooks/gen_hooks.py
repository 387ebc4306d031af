"""Makes hooks.script.pt and hooks.io.json: a scripted module with a forward
pre-hook and a forward hook (and a submodule with its own hook, called from
forward), and root_hooks.script.pt / root_hooks.io.json, the same without
the submodule's hook, each run on two inputs. Run with ../shared/tools/torch2
(PyTorch 2.6): torch2 gen_hooks.py OUTDIR."""
import base64, json, sys
from typing import Tuple
import torch
from torch import nn

class Inner(nn.Module):
    def forward(self, x):
        return x * 2.0

def inner_hook(self, input: Tuple[torch.Tensor], output: torch.Tensor) -> torch.Tensor:
    return output - 1.0

class M(nn.Module):
    def __init__(self, inner_hooked):
        super().__init__()
        self.inner = Inner()
        if inner_hooked:
            self.inner.register_forward_hook(inner_hook)
    def forward(self, x):
        return self.inner(x) + 3.0

def pre(self, input: Tuple[torch.Tensor]) -> Tuple[torch.Tensor]:
    return (input[0] * 10.0,)

def post(self, input: Tuple[torch.Tensor], output: torch.Tensor) -> torch.Tensor:
    return output + input[0]

def enc(t):
    t = t.detach().contiguous()
    return {"tensor": {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
                       "data": base64.b64encode(t.numpy().tobytes()).decode()}}


out = sys.argv[1]
for name, inner_hooked in [("hooks", True), ("root_hooks", False)]:
    m = M(inner_hooked)
    m.register_forward_pre_hook(pre)
    m.register_forward_hook(post)
    torch.jit.save(torch.jit.script(m), f"{out}/{name}.script.pt")
    sm = torch.jit.load(f"{out}/{name}.script.pt")
    g = torch.Generator().manual_seed(0)
    x0 = torch.randn(2, 3, generator=g)
    x1 = torch.randn(4, generator=g)
    d = {"inputs": [enc(x0)], "outputs": [enc(sm(x0))],
         "extra": {"model": name, "torch": torch.__version__, "doc": "forward pre-hook and forward hook on the root" + (", a forward hook on a submodule" if inner_hooked else "") + " (gen_hooks.py)"},
         "cases": [{"seed": 1, "inputs": [enc(x1)], "outputs": [enc(sm(x1))]}]}
    json.dump(d, open(f"{out}/{name}.io.json", "w"), indent=1)
