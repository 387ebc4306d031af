#!/usr/bin/env python3
"""Makes the .pt2 files of gofx's load/save benchmark and times PyTorch's own
torch.export.load and torch.export.save on them, in one process per PyTorch:

    ../shared/tools/torch2 bench/pt2/torch_pt2.py OUT                  # PyTorch 2.6
    TORCH2_SUITE=sid ../shared/tools/torch2 bench/pt2/torch_pt2.py OUT # PyTorch 2.14

(bench/pt2/run.sh runs both and then gofx's benchmarks on the same files.)

Programs, written to OUT/torch-VERSION/:
  chainN.pt2     a chain of N/3 blocks relu(add(linear(x), 1.0)), Linear(16, 16): N call
                 nodes (N = 150, 600, 2100), 2N/3 parameters (the ../shared/bench chain
                 model), to show how the cost grows with the program's size
  resnet18.pt2   torchvision's resnet18 in eval mode with ../shared/models' weights
                 (PyTorch 1.13's), input 1x3x224x224

Timed: torch.export.load(FILE) and torch.export.save(ep, FILE2), median and minimum
over N runs after one warm-up; memory: the growth of the resident set of a fresh process
(torch already imported) across one torch.export.load, beside the weights' bytes. One
JSON line per (program, work).
"""
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import time
import warnings

warnings.filterwarnings("ignore")
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

torch.set_num_threads(1)
OUT = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 10
HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared")
VER = torch.__version__.split("+")[0]
DIR = os.path.join(OUT, "torch-" + VER)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        return torch.relu(self.fc(x) + 1.0)


class Chain(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.blocks = nn.Sequential(*[Block() for _ in range(n)])

    def forward(self, x):
        return self.blocks(x)


def programs():
    for blocks in (50, 200, 700):
        torch.manual_seed(0)
        yield f"chain{3 * blocks}", Chain(blocks).eval(), (torch.randn(1, 16),)
    import torchvision
    m = torchvision.models.resnet18(weights=None)
    sd = torch.load(os.path.join(SHARED, "models", "resnet18.state_dict.pt"), weights_only=True)
    m.load_state_dict(sd)
    yield "resnet18", m.eval(), (torch.randn(1, 3, 224, 224),)


def timed(fn):
    fn()
    ts = []
    for _ in range(N):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts), min(ts)


def peak(path):
    code = ("import os, torch, warnings; warnings.filterwarnings('ignore');"
            "rss = lambda: int(open('/proc/self/statm').read().split()[1]) * os.sysconf('SC_PAGE_SIZE');"
            "b = rss();"
            f"ep = torch.export.load({path!r});"
            "print(rss() - b)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.strip().splitlines()[-1])


def main():
    os.makedirs(DIR, exist_ok=True)
    for name, m, args in programs():
        path = os.path.join(DIR, name + ".pt2")
        with torch.no_grad():
            ep = torch.export.export(m, args)
        torch.export.save(ep, path)
        nodes = sum(1 for n in ep.graph.nodes if n.op == "call_function")
        wbytes = sum(t.numel() * t.element_size() for t in ep.state_dict.values())
        load_med, load_min = timed(lambda: torch.export.load(path))
        tmp = path + ".resave"
        save_med, save_min = timed(lambda: torch.export.save(ep, tmp))
        os.remove(tmp)
        rss = peak(path)
        for work, med, mn in (("load", load_med, load_min), ("save", save_med, save_min)):
            print(json.dumps({"torch": VER, "program": name, "work": work, "call_nodes": nodes,
                              "file_bytes": os.path.getsize(path), "weight_bytes": wbytes,
                              "median_s": round(med, 6), "min_s": round(mn, 6), "runs": N,
                              **({"rss_growth_bytes": rss} if work == "load" else {})}))
        sys.stdout.flush()


main()
