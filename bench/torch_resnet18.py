#!/usr/bin/env python3
"""Times resnet18 batch-1 inference in PyTorch 1.13 with two threads, as
gofx's BenchmarkResNet18 (models/bench_test.go) does:

    /usr/bin/python3 bench/torch_resnet18.py [iterations]

eager: model(x) under torch.no_grad() in eval mode; interp: the same model
traced with torch.fx.symbolic_trace and run with torch.fx.Interpreter.
Prints the median and minimum milliseconds per inference, and the peak
resident memory of the process.
"""
import resource
import statistics
import sys
import time

import torch
import torch.fx
import torchvision

torch.set_num_threads(2)
N = int(sys.argv[1]) if len(sys.argv) > 1 else 20


def bench(name, fn):
    for _ in range(3):
        fn()  # warm up
    times = []
    for _ in range(N):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    print(f"{name}: median {statistics.median(times):.1f} ms, min {min(times):.1f} ms over {N} runs")


torch.manual_seed(0)
model = torchvision.models.resnet18().eval()
x = torch.randn(1, 3, 224, 224)
gm = torch.fx.symbolic_trace(model)
with torch.no_grad():
    bench("eager", lambda: model(x))
    bench("fx.Interpreter", lambda: torch.fx.Interpreter(gm).run(x))
print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
