# Makes the archives of TestRefused and TestWhileLoop (PyTorch 2.6):
#   ../../../../shared/tools/torch2 gen_refused.py
import torch


class Counter(torch.nn.Module):
    """Writes an attribute: not functional."""

    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return x + self.calls


class Doubling(torch.nn.Module):
    """A while loop on tensor data: converts to while_loop."""

    def forward(self, x):
        while bool(x.sum() < 100.0):
            x = x * 2.0
        return x


class Counting(torch.nn.Module):
    """A while loop on tensor data carrying an int: refused."""

    def forward(self, x):
        n = 0
        while bool(x.sum() < 100.0):
            x = x * 2.0
            n += 1
        return x, n


for name, m in [("counter", Counter()), ("doubling", Doubling()), ("counting", Counting())]:
    torch.jit.save(torch.jit.script(m), name + ".pt")

# max_branch.script.pt (the Example's) is ../shared/torchscript/max_branch.script.pt.
