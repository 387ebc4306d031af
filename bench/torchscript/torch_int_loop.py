#!/usr/bin/env python3
"""Makes a scripted module whose forward is an integer loop and times its
forward in PyTorch's TorchScript interpreter, for torchscript.BenchmarkIntLoop
(torchscript/bench_test.go), which runs the same archive in gofx:

    ../shared/tools/torch2 bench/torchscript/torch_int_loop.py /tmp/int_loop.pt [N] [RUNS]
    GOFX_TS_LOOP=/tmp/int_loop.pt go test ./torchscript -run '^$' -bench IntLoop -benchtime 200x

forward(n) runs n iterations of s = s + i + 1 (two aten::add.int per
iteration plus the prim::Loop's own step). Prints the median and minimum
microseconds of one forward(N) over RUNS calls, after 20 warm-up calls
(the profiling executor optimizes the graph during the first calls), and
the median nanoseconds per iteration.
"""
import os
import statistics
import sys
import time

import torch


class IntLoop(torch.nn.Module):
    def forward(self, n: int) -> int:
        s = 0
        for i in range(n):
            s = s + i + 1
        return s


path = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 200
torch.set_num_threads(2)
if not os.path.exists(path):
    torch.jit.save(torch.jit.script(IntLoop()), path)
m = torch.jit.load(path)
assert m(n) == n * (n + 1) // 2
for _ in range(20):
    m(n)
ts = []
for _ in range(runs):
    t = time.perf_counter()
    m(n)
    ts.append((time.perf_counter() - t) * 1e6)
med = statistics.median(ts)
print(f"# torch {torch.__version__}: forward({n})")
print(f"forward: median {med:.1f} us, min {min(ts):.1f} us, {med * 1e3 / n:.1f} ns/iteration")
