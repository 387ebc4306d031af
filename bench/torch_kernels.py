#!/usr/bin/env python3
"""Times in PyTorch 1.13 (two threads) what gofx's kernel benchmarks time
(kernels/bench_test.go), printing the same metrics:

    /usr/bin/python3 bench/torch_kernels.py [seconds per benchmark]

BenchmarkMatmul/{256,512,1024}: torch.mm on square float32 matrices, GFLOP/s
(2n^3 per product). BenchmarkConv2d: aten::convolution on four resnet18
convolutions (batch 1, with bias), GFLOP/s (two per multiply-add).
BenchmarkAdd1M: aten::add.Tensor on two float32 tensors of 2^20 elements,
GB/s (12 bytes per element).
"""
import sys
import time

import torch

torch.set_num_threads(2)
SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
A = torch.ops.aten


def bench(name, fn, work, unit):
    """Runs fn repeatedly for about SECONDS and prints work/op per second."""
    fn()  # warm up
    n, start = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= SECONDS:
            break
    print(f"{name}\t{n}\t{elapsed / n * 1e9:.0f} ns/op\t{work * n / elapsed / 1e9:.2f} {unit}")


def main():
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    with torch.no_grad():
        for n in (256, 512, 1024):
            x, y = torch.randn(n, n), torch.randn(n, n)
            bench(f"BenchmarkMatmul/{n}", lambda: A.mm(x, y), 2 * n ** 3, "GFLOP/s")
        for name, c, h, cout, k, s, p in [("64x56x56_k3", 64, 56, 64, 3, 1, 1),
                                          ("3x224x224_k7s2", 3, 224, 64, 7, 2, 3),
                                          ("256x14x14_k3", 256, 14, 256, 3, 1, 1),
                                          ("128x28x28_k1s2", 128, 28, 256, 1, 2, 0)]:
            x = torch.randn(1, c, h, h)
            w = torch.randn(cout, c, k, k)
            b = torch.randn(cout)
            oh = (h + 2 * p - k) // s + 1
            flops = 2 * cout * oh * oh * c * k * k
            bench(f"BenchmarkConv2d/{name}",
                  lambda: A.convolution(x, w, b, [s, s], [p, p], [1, 1], False, [0, 0], 1), flops, "GFLOP/s")
        n = 1 << 20
        x, y = torch.randn(n), torch.randn(n)
        bench("BenchmarkAdd1M", lambda: A.add.Tensor(x, y), 12 * n, "GB/s")


if __name__ == "__main__":
    main()
