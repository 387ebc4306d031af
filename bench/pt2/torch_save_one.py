#!/usr/bin/env python3
"""Times torch.export.save of one .pt2 file (median and minimum of 10 runs after a warm-up,
one thread): TORCH2_SUITE=sid ../shared/tools/torch2 bench/pt2/torch_save_one.py FILE
(bench/pt2/results/save_ab_p14gaps.txt)."""
import io, sys, time, statistics, warnings
warnings.filterwarnings("ignore")
import torch
torch.set_num_threads(1)
path = sys.argv[1]
ep = torch.export.load(path)
ts = []
for i in range(11):
    t0 = time.perf_counter()
    torch.export.save(ep, "/tmp/gaps_torch_out.pt2")
    ts.append(time.perf_counter() - t0)
ts = ts[1:]
print(torch.__version__, path, "save median_s %.4f min_s %.4f" % (statistics.median(ts), min(ts)))
