#!/usr/bin/env python3
"""Makes a scripted torchvision-size TorchScript archive and times
torch.jit.load on it, for torchscript.BenchmarkLoad (torchscript/bench_test.go):

    ../shared/tools/torch2 bench/torchscript/torch_jit_load.py /tmp/resnet18.script.pt [RUNS]
    GOFX_TS_BENCH=/tmp/resnet18.script.pt go test ./torchscript -run '^$' -bench Load -benchtime 10x

The archive is torch.jit.script(torchvision.models.resnet18()) in eval mode,
saved with torch.jit.save (written only when the file does not exist). Prints
the archive's number of code files and methods, then the median and minimum
milliseconds of torch.jit.load over RUNS loads (torch.jit.load compiles every
method of every class as it loads), and of one forward on a [1, 3, 224, 224]
input after the load, with 2 threads.
"""
import os
import statistics
import sys
import time
import zipfile

import torch
import torchvision

path = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 10
torch.set_num_threads(2)
if not os.path.exists(path):
    torch.manual_seed(0)
    torch.jit.save(torch.jit.script(torchvision.models.resnet18().eval()), path)
with zipfile.ZipFile(path) as z:
    code = [n for n in z.namelist() if "/code/" in n and n.endswith(".py")]
    defs = sum(z.read(n).decode().count("  def ") for n in code)
print(f"# torch {torch.__version__}: {path}: {len(code)} code files, {defs} methods")

loads = []
for _ in range(runs):
    t = time.perf_counter()
    m = torch.jit.load(path)
    loads.append((time.perf_counter() - t) * 1e3)
print(f"torch.jit.load: median {statistics.median(loads):.1f} ms, min {min(loads):.1f} ms")

x = torch.randn(1, 3, 224, 224)
firsts = []
for _ in range(runs):
    m = torch.jit.load(path)
    with torch.no_grad():
        t = time.perf_counter()
        m(x)
        firsts.append((time.perf_counter() - t) * 1e3)
print(f"first forward after load: median {statistics.median(firsts):.1f} ms, min {min(firsts):.1f} ms")
