"""Recompute, with PyTorch 2.x, every number the control-flow recipes print.

Run: ../shared/tools/torch2 cookbook/testdata/torch_reference_2x.py
(torch.cond, while_loop and map need PyTorch 2.x; torch_reference.py
covers the other recipes with 1.13). Each section names its Example and
exports the same program, so the printed graphs can be compared too; its
lines after the program are the Example's numbers (tensor reprs are
PyTorch's own).
"""
import torch
from torch._higher_order_ops.map import map as cf_map
from torch._higher_order_ops.while_loop import while_loop

print("# Example_cond")


class M_old(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x.sin()
        return x.cos()


class M_new(torch.nn.Module):
    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda x: x.sin(), lambda x: x.cos(), (x,))


x = torch.tensor([0., 1, 2, 3, 4, 5]).reshape(2, 3)
try:
    torch.export.export(M_old(), (x,))
except Exception as e:
    print("M_old:", type(e).__name__)
ep = torch.export.export(M_new(), (x,))
print(ep)
m = ep.module()
print(m(x))
print(m(-x))

print("# Example_whileLoop")


class Halve(torch.nn.Module):
    def forward(self, n, x):
        return while_loop(lambda n, x: x.abs().sum() > 1, lambda n, x: (n + 1, x / 2), (n, x))


n = torch.tensor(0)
ep = torch.export.export(Halve(), (n, torch.tensor([1., -2, 3])))
print(ep)
for v in ([1., -2, 3], [0.25, 0.25, 0], [100., 0, 0]):
    k, y = Halve()(n, torch.tensor(v))  # eager: 2.6 cannot run its exported while_loop
    print("halvings:", k, "x:", y)

print("# Example_map")


class Rows(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.tensor([[1., 0], [0, -1], [0.5, 0.5]]))

    def forward(self, xs, b):
        return cf_map(lambda x, w, b: (x @ w + b).tanh(), xs, self.w, b)


xs = torch.tensor([[1., 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]])
b = torch.tensor([0, 0.5])
ep = torch.export.export(Rows(), (xs, b))
print(ep)
with torch.no_grad():
    print(ep.module()(xs, b))
    print((xs @ Rows().w + b).tanh())
