"""Times PyTorch 1.13's closest equivalent of gofx's export (torch.export is 2.x only):
make_fx(functionalize(f)) of a model with its state as inputs, with 1.13's decomposition
list, as ../shared/models/README.md made the aten.json files. Run: /usr/bin/python3 bench/torch_export.py"""
import time, torch, torchvision
from functorch import make_fx
from functorch.experimental import functionalize
from torch._decomp import get_decompositions
torch.set_num_threads(1)
aten = torch.ops.aten
table = get_decompositions([aten.native_batch_norm, aten.gelu, aten._softmax, aten.hardtanh,
                            aten.leaky_relu, aten.t, aten.transpose.int, aten._reshape_alias, aten._unsafe_view])

def export_like(model, x, decomp):
    names = [n for n, _ in model.named_parameters()] + [n for n, _ in model.named_buffers()]
    state = [t for _, t in model.named_parameters()] + [t for _, t in model.named_buffers()]
    def f(*args):
        sd = dict(zip(names, args[:len(names)]))
        return torch.nn.utils.stateless.functional_call(model, sd, args[len(names):])
    with torch.no_grad():
        return make_fx(functionalize(f), decomposition_table=decomp if decomp else None)(*state, x)

class Chain(torch.nn.Module):
    def __init__(self, n):
        super().__init__(); self.n = n
    def forward(self, x):
        for _ in range(self.n):
            x = torch.relu(x * 2 + 1)
        return x

def bench(name, model, x, decomp, reps):
    export_like(model, x, decomp)
    t = time.perf_counter()
    for _ in range(reps):
        gm = export_like(model, x, decomp)
    dt = (time.perf_counter() - t) / reps
    nodes = len(gm.graph.nodes)
    print(f"{name}: {dt*1e3:.1f} ms per export, {nodes} nodes, {dt/nodes*1e6:.1f} us/node")

m = torchvision.models.resnet18().eval()
bench("resnet18 (no decompositions)", m, torch.randn(1, 3, 224, 224), None, 5)
bench("resnet18 (1.13 decomposition list)", m, torch.randn(1, 3, 224, 224), table, 5)
for n in (1000, 10000):
    bench(f"chain {n} blocks", Chain(n).eval(), torch.randn(4, 8), None, 1)
