#!/usr/bin/env python3
"""Times in PyTorch (two threads) what gofx's convolution benchmarks time
(kernels/convolution_bench_test.go), printing the same metrics:

    /usr/bin/python3 bench/torch_conv.py [seconds per benchmark]        # PyTorch 1.13
    ../shared/tools/torch2 bench/torch_conv.py [seconds per benchmark]  # PyTorch 2.6

BenchmarkDepthwise/*: aten::convolution on mobilenet_v2's depthwise
convolutions at 224x224 (3x3, padding 1) and three of efficientnet_b0's 5x5
ones (padding 2), batch 1, float32, with bias, groups = channels.
BenchmarkConvPacked/*: aten::convolution on resnet18's convolutions, batch
1, float32, with bias (PyTorch has one path for both of gofx's modes, so
each shape is printed once, as .../percall and .../packed).
Each line: name, calls, wall ns/op, GFLOP/s (two per multiply-add) and the
process CPU time per call (cpu-ns/op), as gofx's benchmarks report it;
compare them with gofx's "pooled" lines (see benchutil.warm()).
"""

import torch

import benchutil

torch.set_num_threads(2)
SECONDS = benchutil.seconds_arg()
A = torch.ops.aten

DEPTHWISE = [  # name, channels, input size, kernel, stride
    ("32x112_k3s1", 32, 112, 3, 1), ("96x112_k3s2", 96, 112, 3, 2),
    ("144x56_k3s1", 144, 56, 3, 1), ("144x56_k3s2", 144, 56, 3, 2),
    ("192x28_k3s1", 192, 28, 3, 1), ("192x28_k3s2", 192, 28, 3, 2),
    ("384x14_k3s1", 384, 14, 3, 1), ("576x14_k3s1", 576, 14, 3, 1),
    ("576x14_k3s2", 576, 14, 3, 2), ("960x7_k3s1", 960, 7, 3, 1),
    ("144x56_k5s2", 144, 56, 5, 2), ("240x28_k5s1", 240, 28, 5, 1),
    ("672x14_k5s1", 672, 14, 5, 1),
]

RESNET18 = [  # name, in channels, input size, out channels, kernel, stride, padding
    ("3x224_k7s2", 3, 224, 64, 7, 2, 3), ("64x56_k3", 64, 56, 64, 3, 1, 1),
    ("128x28_k3", 128, 28, 128, 3, 1, 1), ("256x14_k3", 256, 14, 256, 3, 1, 1),
    ("512x7_k3", 512, 7, 512, 3, 1, 1), ("256x14_k1s2", 256, 14, 512, 1, 2, 0),
]


def main():
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    benchutil.warm()
    with torch.no_grad():
        for name, c, h, k, s in DEPTHWISE:
            x, w, b = torch.randn(1, c, h, h), torch.randn(c, 1, k, k), torch.randn(c)
            p = k // 2
            oh = (h + 2 * p - k) // s + 1
            benchutil.bench(f"BenchmarkDepthwise/{name}",
                            lambda: A.convolution(x, w, b, [s, s], [p, p], [1, 1], False, [0, 0], c),
                            2 * c * oh * oh * k * k, "GFLOP/s", SECONDS, digits=3)
        for name, c, h, cout, k, s, p in RESNET18:
            x, w, b = torch.randn(1, c, h, h), torch.randn(cout, c, k, k), torch.randn(cout)
            oh = (h + 2 * p - k) // s + 1
            benchutil.bench([f"BenchmarkConvPacked/{name}/percall", f"BenchmarkConvPacked/{name}/packed"],
                            lambda: A.convolution(x, w, b, [s, s], [p, p], [1, 1], False, [0, 0], 1),
                            2 * cout * oh * oh * c * k * k, "GFLOP/s", SECONDS, digits=3)


if __name__ == "__main__":
    main()
