"""Times torch.export.export (PyTorch 2.6 here) of the models gofx's BenchmarkExportConds
exports (export/controlflow_bench_test.go): N torch.cond on x.sum() > 0
(sin or cos), one after the other or nested N deep, on a [4, 3] input.
One JSON line per model: the median of RUNS exports, in ms, and per cond.

    ../shared/tools/torch2 bench/hop/torch_export_conds.py [RUNS]
"""
import json, statistics, sys, time
import torch


class Seq(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def forward(self, x):
        for _ in range(self.n):
            x = torch.cond(x.sum() > 0, lambda x: x.sin(), lambda x: x.cos(), (x,))
        return x


def nest(x, depth):
    if depth == 0:
        return x.sin()
    return torch.cond(x.sum() > 0, lambda x: nest(x, depth - 1), lambda x: x.cos(), (x,))


class Nested(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def forward(self, x):
        return nest(x, self.n)


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    torch.set_num_threads(1)
    x = torch.ones(4, 3)
    for kind, cls, ns in [("sequential", Seq, [10, 100]), ("nested", Nested, [10, 50])]:
        for n in ns:
            ts = []
            for _ in range(runs):
                torch._dynamo.reset()
                t0 = time.perf_counter()
                torch.export.export(cls(n), (x,))
                ts.append(time.perf_counter() - t0)
            med = statistics.median(ts) * 1e3
            print(json.dumps({"model": kind, "n": n, "torch": torch.__version__, "median_ms": round(med, 1), "ms_per_cond": round(med / n, 2), "runs": runs}), flush=True)


main()
