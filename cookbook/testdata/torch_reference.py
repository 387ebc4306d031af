"""Recompute, with PyTorch 1.13, every number the cookbook's examples print.

Run: /usr/bin/python3 cookbook/testdata/torch_reference.py
Each section names its Example; its lines are what the Example's Output
block shows for the same computation (tensor reprs are PyTorch's own).
The cookbook's tests do not run this script: it is where the expected
numbers come from, so that they are not copied from gofx.
"""
import torch
import torch.fx as fx
import torch.nn.functional as F

print("# Example_replaceOneOp")
x = torch.tensor([1., 2., 3.])
y = torch.tensor([4., 5., 6.])
print(torch.mul(x, y))

print("# Example_insertNode")
x = torch.tensor([1., -2., 3.])
y = torch.tensor([-4., 1., 0.])
print(torch.relu(x + y) * 2)

print("# Example_invert")
x = torch.tensor([-1, -0.5, 0, 0.5, 1])
print(torch.arctan(torch.log(torch.exp(torch.tan(x)))))
y = torch.arange(1., 6.)
print(torch.exp(torch.tan(torch.arctan(torch.log(y)))))

print("# Example_interpreter")


def f(x):
    return (x * 2 - 1).relu().sum(1)


class Observer(fx.Interpreter):
    def run_node(self, n):
        r = super().run_node(n)
        if isinstance(r, torch.Tensor):
            shape = "[" + " ".join(str(d) for d in r.shape) + "]"  # Go's %v of a []int
            print(f"{n.name:<8} {shape} [{r.min().item():.2f}, {r.max().item():.2f}]")
        return r


x = torch.tensor([[0, 0.25, 0.5], [0.75, 1, 1.5]])
print(Observer(fx.symbolic_trace(f)).run(x))

print("# Example_shapePropagation")


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 16)

    def forward(self, x):
        return self.proj(x).relu().flatten(1, -1).sum(-1)


from torch.fx.passes.shape_prop import ShapeProp
gm = fx.symbolic_trace(Head())
ShapeProp(gm).propagate(torch.zeros(2, 4, 8))
for n in gm.graph.nodes:
    tm = n.meta.get("tensor_meta")
    print(n.name, tm.dtype, list(tm.shape))

print("# Example_decomposeWithProxies / Example_decomposeToCore")
x = torch.tensor([[1., 2., 3.], [-1., 0., 2.]])
w = torch.tensor([[1., -1., 0.5], [-2., 1., 0.]])
b = torch.tensor([0.5, -0.5])
h = F.linear(x, w, b)
print(torch.relu(h))
print((h > 0) * h)

print("# Example_exportDynamicBatch")
w = torch.tensor([[0.5, -1., 2.]])
b = torch.tensor([-1.])
y = torch.tensor([[1., 1., 1.], [0., 0., 0.], [2., 0., 1.]])
print(torch.sigmoid(F.linear(y, w, b)))

print("# Example_replacePattern")


def f(x, w1, w2):
    m1 = torch.cat([w1, w2], 0).sum()
    m2 = torch.cat([w2, x], 0).sum()
    c = torch.cat([x, w1], 0)
    m3 = c.sum()
    return x + m1 + m2 + m3 + c.mean()


def sum_of_cat(w1, w2):
    return torch.cat([w1, w2], 0).sum()


def sum_of_sums(w1, w2):
    return w1.sum() + w2.sum()


x = torch.tensor([1., 2.])
w1 = torch.tensor([3., 4.])
w2 = torch.tensor([-5., 6.])
gm = fx.symbolic_trace(f)
before = gm(x, w1, w2)
print(len(fx.replace_pattern(gm, sum_of_cat, sum_of_sums)), "matches")
print(before, gm(x, w1, w2))

print("# Example_fuseConvBN")
from torch.fx.experimental.optimization import fuse


class ConvBN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(1, 2, 2)
        self.bn = torch.nn.BatchNorm2d(2)
        with torch.no_grad():
            self.conv.weight.copy_(torch.tensor([1., -1, 0.5, 2, -0.5, 1, 1, -2]).reshape(2, 1, 2, 2))
            self.conv.bias.copy_(torch.tensor([0.25, -1]))
            self.bn.weight.copy_(torch.tensor([2., 0.5]))
            self.bn.bias.copy_(torch.tensor([-1., 1]))
            self.bn.running_mean.copy_(torch.tensor([0.5, -2]))
            self.bn.running_var.copy_(torch.tensor([4., 0.25]))

    def forward(self, x):
        return self.bn(self.conv(x)).relu()


m = ConvBN().eval()
x = torch.tensor([1., 2, 0, -1, 3, 1, 2, 0, -2]).reshape(1, 1, 3, 3)
fused = fuse(m)
print(fused.code.strip())
with torch.no_grad():
    print(fused(x))
    print("within 1e-6 of eager:", torch.allclose(fused(x), m(x), rtol=0, atol=1e-6))

print("# Example_quantizeLinear")


def fake_quant(v, scale):
    return torch.clamp(torch.round(v / scale), -128, 127) * scale


w1 = torch.tensor([[0.3, -0.71, 0.05], [1.13, 0.42, -0.9]])
b1 = torch.tensor([0.1, -0.2])
w2 = torch.tensor([[0.017, -0.029], [0.011, 0.023]])
b2 = torch.tensor([0.5, 0.])
x = torch.tensor([[0.7, -1.3, 0.25], [1.9, 0.33, -0.6]])


def mlp(x, fq):
    for w, b in ((w1, b1), (w2, b2)):
        if fq:
            # .item() of a float32 is the same float64 gofx's Float64s gives
            x, w = fq(x, 1 / 32), fq(w, w.abs().max().item() / 127)
        x = F.linear(x, w, b)
        if b is b1:
            x = x.relu()
    return x


ref, quant = mlp(x, None), mlp(x, fake_quant)
print(ref)
print(quant)
print(f"max abs error {(quant - ref).abs().max().item():.4f}")
fq = mlp(x, lambda v, s: torch.fake_quantize_per_tensor_affine(v, s, 0, -128, 127))
print("same as fake_quantize_per_tensor_affine:", torch.allclose(fq, quant, rtol=0, atol=1e-6))

print("# Example_passManager")
x = torch.tensor([-1, 0.5, 2.5, 4, 7])
print(F.relu6(x * 2) + F.relu6(x))
print(F.hardtanh(x * 2, 0., 6.) + F.hardtanh(x, 0., 6.))
