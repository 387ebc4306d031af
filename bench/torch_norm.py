#!/usr/bin/env python3
"""Times in PyTorch (two threads) what gofx's BenchmarkNorm times
(kernels/norm_bench_test.go), printing the same metrics:

    python3 bench/torch_norm.py [seconds per benchmark [threads]]

layer norm on [1,197,768] (a ViT's tokens) and [64,1024], group norm on
[1,256,56,56] with 32 groups, softmax and log_softmax on [64,1024], amax
and max.dim over its last dim, exp, sigmoid and silu on 2^20 elements, all
float32; GB/s counts the input read and the output written once each (the
statistics and weights not counted), as the Go benchmark does.
"""

import torch

import benchutil

SECONDS = benchutil.seconds_arg()
benchutil.set_threads()
A = torch.ops.aten


def main():
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    torch.manual_seed(5)
    vit, rows = torch.randn(1, 197, 768), torch.randn(64, 1024)
    gn, big = torch.randn(1, 256, 56, 56), torch.randn(1 << 20)
    w768, b768, w1024, b1024 = torch.randn(768), torch.randn(768), torch.randn(1024), torch.randn(1024)
    w256, b256 = torch.randn(256), torch.randn(256)
    cases = [
        ("layer_norm_1x197x768", lambda: A.native_layer_norm.default(vit, [768], w768, b768, 1e-5), 8 * 197 * 768),
        ("layer_norm_64x1024", lambda: A.native_layer_norm.default(rows, [1024], w1024, b1024, 1e-5), 8 * 64 * 1024),
        ("group_norm_1x256x56x56_g32",
         lambda: A.native_group_norm.default(gn, w256, b256, 1, 256, 56 * 56, 32, 1e-5), 8 * 256 * 56 * 56),
        ("softmax_64x1024", lambda: A._softmax.default(rows, -1, False), 8 * 64 * 1024),
        ("log_softmax_64x1024", lambda: A._log_softmax.default(rows, -1, False), 8 * 64 * 1024),
        ("amax_lastdim_64x1024", lambda: A.amax.default(rows, [-1]), 4 * 64 * 1024),
        ("max.dim_lastdim_64x1024", lambda: A.max.dim(rows, -1), 4 * 64 * 1024),
        ("exp_1M", lambda: A.exp.default(big), 8 << 20),
        ("sigmoid_1M", lambda: A.sigmoid.default(big), 8 << 20),
        ("silu_1M", lambda: A.silu.default(big), 8 << 20),
    ]
    with torch.no_grad():
        for name, fn, nbytes in cases:
            benchutil.bench(f"BenchmarkNorm/{name}", fn, nbytes, "GB/s", SECONDS)


if __name__ == "__main__":
    main()
