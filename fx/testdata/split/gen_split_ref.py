"""Records what torch.fx 1.13's split_module makes of split_module's own
docstring example (with relu instead of clamp), partitioned round-robin
into 3 partitions by node index, for fx's TestSplitModuleMatchesTorch.

Run: python3 gen_split_ref.py > split_ref.json

For each graph (the top level, then each submodule in the top level's call
order) it writes the nodes as [opcode, name, target, args]; call_function
targets are written as "function" (torch's are Python callables, gofx's
aten operators) and node arguments by name.
"""
import json

import torch
from torch.fx import symbolic_trace
from torch.fx.passes.split_module import split_module


class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.param = torch.nn.Parameter(torch.rand(3, 4))
        self.linear = torch.nn.Linear(4, 5)

    def forward(self, x, y):
        z = self.linear(x + self.param).relu()
        w = self.linear(y).relu()
        return z + w


def arg(a):
    if isinstance(a, torch.fx.Node):
        return "%" + a.name
    if isinstance(a, (tuple, list)):
        return [arg(x) for x in a]
    return a


def nodes(g):
    out = []
    for n in g.nodes:
        target = "function" if n.op == "call_function" else str(n.target)
        out.append([n.op, n.name, target, [arg(a) for a in n.args]])
    return out


def main():
    traced = symbolic_trace(MyModule())
    counter = [0]

    def callback(node):
        p = counter[0] % 3
        counter[0] += 1
        return p

    split = split_module(traced, None, callback)
    graphs = {"top": nodes(split.graph)}
    for name, mod in split.named_children():
        graphs[name] = nodes(mod.graph)
    print(json.dumps({"torch": torch.__version__, "graphs": graphs}, indent=1))


main()
