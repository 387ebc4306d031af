"""Makes this folder's reference data with PyTorch:

    ../../../../shared/tools/torch2 gen_ir.py DIR

where DIR holds copies of ../shared/torchscript/*.pt (torch2 sees only the current directory,
its parent and /tmp):

extra.code.txt   "# graph" sections printed by PyTorch: scripted functions with constants of
                 every kind (strings with escapes, floats, lists, tuples, tensors, devices, None)
                 before and after constant propagation, traced graphs with refined tensor
                 types, scopes and tensor constants, and the profiling executor's optimized graph
                 with its differentiable subgraphs.
schemas.txt      for every node of the forward graphs of ../shared/torchscript's archives (and of
                 extra.code.txt's graphs): its kind and the schema PyTorch resolved it to
                 (node.schema(), "(no schema)" when none), one line each, per section.
"""
import sys, glob, os
from typing import Dict, List, Optional, Tuple
import torch

torch.manual_seed(0)
out = []
schemas = []

def nodes(block):
    for n in block.nodes():
        yield n
        for b in n.blocks():
            yield from nodes(b)

def record(name, graph):
    out.append("# PyTorch %s\n# name %s\n# graph\n%s\n" % (torch.__version__, name, str(graph).rstrip("\n")))
    schemas.append("# %s" % name)
    for n in nodes(graph):
        try:
            s = n.schema()
        except Exception:
            s = "(no schema)"
        schemas.append("%s\t%s" % (n.kind(), s))


@torch.jit.script
def consts(x: torch.Tensor, s: str, d: Dict[str, List[int]]) -> Tuple[torch.Tensor, str, List[float], Optional[int]]:
    a = [1, 2, 3]
    b = (1, 2.5, "a\"b\n\t'\\")
    y = x * 0.1 + 1e-05 - float("inf") + 1e20 + -0.0 + 123456789.25
    if s == "he said \"hi\"\x01":
        y = y.to(torch.float64)
    z = torch.zeros(2, 3, dtype=torch.int64, device=torch.device("cpu"))
    n = 0
    for k in d.keys():
        n += len(d[k]) + a[0] + b[0]
    while n < 10:
        n = n * 2 + 1
        if n > 5:
            break
    return y + z.sum() + b[1], s + "\u00e9", [0.5, 2.0, float(n)], None


@torch.jit.script
def lists(xs: List[torch.Tensor], i: int) -> List[int]:
    r: List[int] = []
    for x in xs:
        r.append(x.dim())
    r.extend([i, -1, 9223372036854775807])
    t = torch.cat(xs, dim=0).view(-1)
    if t.numel() > 3 and i != 2:
        r.append(int(t[0].item()))
    return r


record("consts", consts.graph)
record("lists", lists.graph)
g = consts.graph.copy()
torch._C._jit_pass_constant_propagation(g)
record("consts_propagated", g)
g = lists.graph.copy()
torch._C._jit_pass_inline(g)
torch._C._jit_pass_constant_propagation(g)
record("lists_propagated", g)


class Sub(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 2)

    def forward(self, x):
        return torch.relu(self.lin(x)) * torch.tensor(2.0) + torch.tensor([1.0, 2.0])


class Traced(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.sub = Sub()
        self.register_buffer("big", torch.arange(30.0))

    def forward(self, x, y):
        h = self.sub(x)
        return h.sum(1, keepdim=True) + self.big[:2] + y.long().float(), x.shape[0]


tm = torch.jit.trace(Traced(), (torch.randn(4, 3), torch.ones(4, 2, dtype=torch.int32)))
record("traced_module", tm.graph)
record("traced_inlined", tm.inlined_graph)
tf = torch.jit.trace(lambda a: (a * torch.tensor([[1, 2], [3, 4]]) + torch.tensor(3)).t().contiguous(), (torch.ones(2, 2, dtype=torch.int64),))
record("traced_function", tf.graph)

# the profiling executor's optimized graph: differentiable subgraphs printed after the return
# ("with prim::DifferentiableGraph_0 = graph(...)"), type-check nodes with type list attributes
@torch.jit.script
def fused(x, y):
    z = x * y + x
    if bool(z.sum() > 0):
        z = z.relu()
    return z.sigmoid() * 2


xg = torch.randn(4, requires_grad=True)
for _ in range(4):
    fused(xg, xg)
record("differentiable", torch.jit.last_executed_optimized_graph())

for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.pt"))):
    m = torch.jit.load(f)
    name = os.path.basename(f)
    schemas.append("# archive %s" % name)
    for n in nodes(m.graph):
        try:
            s = n.schema()
        except Exception:
            s = "(no schema)"
        schemas.append("%s\t%s" % (n.kind(), s))

with open("extra.code.txt", "w") as fh:
    fh.write("\n".join(out))
with open("schemas.txt", "w") as fh:
    fh.write("# made by gen_ir.py with PyTorch %s: node kind, TAB, node.schema()\n" % torch.__version__)
    fh.write("\n".join(schemas) + "\n")
