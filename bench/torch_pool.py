#!/usr/bin/env python3
"""Times in PyTorch (two threads) what gofx's BenchmarkPool
(kernels/bench_test.go) times: pooling and upsampling on float32 inputs of
resnet18's and a segmentation head's sizes, called through torch.ops.aten,
printing the same metrics:

    /usr/bin/python3 bench/torch_pool.py [seconds per benchmark]   (PyTorch 1.13)
    ../shared/tools/torch2 bench/torch_pool.py [seconds]            (PyTorch 2.6)

GB/s counts the bytes of the input read and the output written once each
(indices, where returned, included), as kernels/bench_test.go does; the
process CPU time per call (cpu-ns/op) is printed too, for a loaded machine.
"""

import torch

import benchutil

torch.set_num_threads(2)
SECONDS = benchutil.seconds_arg()
A = torch.ops.aten


def main():
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    g = torch.Generator().manual_seed(5)
    p = torch.randn(1, 64, 112, 112, generator=g)  # resnet18's max pool input
    x = torch.randn(1, 64, 56, 56, generator=g)
    q = torch.randn(1, 512, 7, 7, generator=g)  # resnet18's global pool input
    n112, n56, n28 = 64 * 112 * 112, 64 * 56 * 56, 64 * 28 * 28
    cases = [
        ("max_pool2d_1x64x112x112_k3s2p1", lambda: A.max_pool2d(p, [3, 3], [2, 2], [1, 1]), 4 * (n112 + n56)),
        ("max_pool2d_with_indices_1x64x112x112_k3s2p1",
         lambda: A.max_pool2d_with_indices(p, [3, 3], [2, 2], [1, 1]), 4 * n112 + 12 * n56),
        ("max_pool2d_1x64x56x56_k2s2", lambda: A.max_pool2d(x, [2, 2], [2, 2]), 4 * (n56 + n28)),
        ("avg_pool2d_1x64x56x56_k3s1p1", lambda: A.avg_pool2d(x, [3, 3], [1, 1], [1, 1]), 8 * n56),
        ("avg_pool2d_1x64x56x56_k2s2", lambda: A.avg_pool2d(x, [2, 2], [2, 2]), 4 * (n56 + n28)),
        ("adaptive_avg_pool2d_1x512x7x7_1", lambda: A.adaptive_avg_pool2d(q, [1, 1]), 4 * (512 * 49 + 512)),
        ("adaptive_avg_pool2d_1x64x56x56_7", lambda: A.adaptive_avg_pool2d(x, [7, 7]), 4 * (n56 + 64 * 49)),
        ("adaptive_max_pool2d_1x64x56x56_7", lambda: A.adaptive_max_pool2d(x, [7, 7]), 4 * n56 + 12 * 64 * 49),
        ("upsample_nearest2d_1x64x56x56_x2", lambda: A.upsample_nearest2d.vec(x, None, [2.0, 2.0]), 4 * 5 * n56),
        ("upsample_bilinear2d_1x64x56x56_x2",
         lambda: A.upsample_bilinear2d.vec(x, None, False, [2.0, 2.0]), 4 * 5 * n56),
        ("upsample_bilinear2d_ac_1x64x56x56_x2",
         lambda: A.upsample_bilinear2d.vec(x, None, True, [2.0, 2.0]), 4 * 5 * n56),
    ]
    with torch.no_grad():
        for name, fn, nbytes in cases:
            benchutil.bench(f"BenchmarkPool/{name}", fn, nbytes, "GB/s", SECONDS)


if __name__ == "__main__":
    main()
