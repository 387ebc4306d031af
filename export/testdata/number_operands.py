# Writes number_operands.txt: the call_function targets (and their other
# arguments) of torch.export (2.6) programs doing tensor-number arithmetic,
# in order, one per line: ep.graph, then ep.run_decompositions().graph.
# Run: /work/shared/tools/torch2 number_operands.py > number_operands.txt
import torch


class M(torch.nn.Module):
    def forward(self, x):
        y = x.clone()
        y.add_(1)
        y.mul_(2)
        y.sub_(1)
        y.div_(2)
        return (
            y,
            x + 1, x * 0.5, x - 2, x / 3, x // 2, x % 2, x ** 2,
            x == 1, x != 1, x > 0, x >= 1, x < 1, x <= 1,
            torch.add(x, 1), torch.add(x, 1, alpha=2),
        )


ep = torch.export.export(M(), (torch.randn(3),))
for g in (ep.graph, ep.run_decompositions().graph):
    print("graph")
    for n in g.nodes:
        if n.op == "call_function":
            print(n.target, *n.args[1:], *(f"{k}={v}" for k, v in n.kwargs.items()))
