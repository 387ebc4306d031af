#!/usr/bin/env python3
"""Times in PyTorch (two threads) what gofx's BenchmarkSoftmax times
(kernels/softmax_bench_test.go), printing the same metrics:

    python3 bench/torch_softmax.py [seconds per benchmark [threads]]

float32 softmax and log_softmax along a dim other than the last: over the
64 channels of [1,64,32,32] and over the 1024 rows of [1024,64]; GB/s
counts the input read and the output written once each, as the Go
benchmark does. The last-dim cases are torch_norm.py's. It uses
benchutil.py's timer.
"""

import torch

import benchutil

SECONDS = benchutil.seconds_arg()
benchutil.set_threads()
A = torch.ops.aten


def main():
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    torch.manual_seed(6)
    chw, tall = torch.randn(1, 64, 32, 32), torch.randn(1024, 64)
    cases = [
        ("softmax_dim1_1x64x32x32", lambda: A._softmax.default(chw, 1, False)),
        ("log_softmax_dim1_1x64x32x32", lambda: A._log_softmax.default(chw, 1, False)),
        ("softmax_dim0_1024x64", lambda: A._softmax.default(tall, 0, False)),
        ("log_softmax_dim0_1024x64", lambda: A._log_softmax.default(tall, 0, False)),
    ]
    with torch.no_grad():
        for name, fn in cases:
            benchutil.bench(f"BenchmarkSoftmax/{name}", fn, 8 * 64 * 1024, "GB/s", SECONDS)


if __name__ == "__main__":
    main()
