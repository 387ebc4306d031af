#!/usr/bin/env python3
"""Times in PyTorch 1.13 (two threads) what gofx's kernel benchmarks time
(kernels/bench_test.go), printing the same metrics:

    /usr/bin/python3 bench/torch_kernels.py [seconds per benchmark]

BenchmarkMatmul/{256,512,1024}: torch.mm on square float32 matrices, GFLOP/s
(2n^3 per product). BenchmarkConv2d: aten::convolution on four resnet18
convolutions (batch 1, with bias), GFLOP/s (two per multiply-add).
BenchmarkAdd1M: aten::add.Tensor on two float32 tensors of 2^20 elements,
GB/s (12 bytes per element). BenchmarkElementwise/*: the memory-bound
kernels (broadcast mul/add, relu, hardtanh, sum, mean, amax, softmax,
log_softmax, layer/group/batch norm, max pool, adaptive average pool,
nearest and bilinear upsampling) on the same inputs, GB/s (input and output
bytes once each, as kernels/bench_test.go counts them). BenchmarkProducts/*:
kernels/matmul_bench_test.go's matrix products (mm 32 to 512, linear with a
bias incl. resnet18's classifier, addmm, bmm, a batched matmul), GFLOP/s;
gofx's "fresh" sub-benchmark allocates every output as torch does here, its
"pooled" one recycles it as torch's allocator reuses a freed output.

    /usr/bin/python3 bench/torch_kernels.py [seconds] products   (only those)
"""
import sys

import torch

import benchutil

torch.set_num_threads(2)
SECONDS = benchutil.seconds_arg()
A = torch.ops.aten


def main():
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    benchutil.warm()
    if sys.argv[2:] == ["products"]:
        with torch.no_grad():
            products()
        return
    with torch.no_grad():
        for n in (256, 512, 1024):
            x, y = torch.randn(n, n), torch.randn(n, n)
            benchutil.bench(f"BenchmarkMatmul/{n}", lambda: A.mm(x, y), 2 * n ** 3, "GFLOP/s", SECONDS, cpu=False)
        for name, c, h, cout, k, s, p in [("64x56x56_k3", 64, 56, 64, 3, 1, 1),
                                          ("3x224x224_k7s2", 3, 224, 64, 7, 2, 3),
                                          ("256x14x14_k3", 256, 14, 256, 3, 1, 1),
                                          ("128x28x28_k1s2", 128, 28, 256, 1, 2, 0)]:
            x = torch.randn(1, c, h, h)
            w = torch.randn(cout, c, k, k)
            b = torch.randn(cout)
            oh = (h + 2 * p - k) // s + 1
            flops = 2 * cout * oh * oh * c * k * k
            benchutil.bench(f"BenchmarkConv2d/{name}",
                            lambda: A.convolution(x, w, b, [s, s], [p, p], [1, 1], False, [0, 0], 1), flops, "GFLOP/s",
                            SECONDS, cpu=False)
        n = 1 << 20
        x, y = torch.randn(n), torch.randn(n)
        benchutil.bench("BenchmarkAdd1M", lambda: A.add.Tensor(x, y), 12 * n, "GB/s", SECONDS, cpu=False)
        elementwise()
        products()


def products():
    """BenchmarkProducts' cases (kernels/matmul_bench_test.go): the same
    operators and shapes, GFLOP/s (two per multiply-add)."""
    cases = []
    for n in (32, 64, 128, 256, 512):
        cases.append((f"mm_{n}", A.mm.default, (torch.randn(n, n), torch.randn(n, n)), n, n, n))
    for m, k, n in ((1, 512, 1000), (64, 512, 512), (256, 256, 256)):
        cases.append((f"linear_{m}x{k}x{n}", A.linear.default,
                      (torch.randn(m, k), torch.randn(n, k), torch.randn(n)), m, n, k))
    cases.append(("mv_1000x512", A.mv.default, (torch.randn(1000, 512), torch.randn(512)), 1000, 1, 512))
    cases.append(("addmm_256", A.addmm.default, (torch.randn(256), torch.randn(256, 256), torch.randn(256, 256)), 256, 256, 256))
    for b, n in ((16, 64), (4, 256)):
        cases.append((f"bmm_{b}x{n}", A.bmm.default, (torch.randn(b, n, n), torch.randn(b, n, n)), b * n, n, n))
    cases.append(("matmul_4x128x256_256x256", A.matmul.default,
                  (torch.randn(4, 128, 256), torch.randn(256, 256)), 512, 256, 256))
    for name, fn, args, m, n, k in cases:
        benchutil.bench(f"BenchmarkProducts/{name}", lambda: fn(*args), 2 * m * n * k, "GFLOP/s", SECONDS, cpu=False)


def batch_norm_infer(x, w, b, m, v):
    """Inference batch norm as PyTorch 2.x exports it
    (_native_batch_norm_legit_no_training); PyTorch 1.13 has no such
    operator and runs the same kernel as native_batch_norm with
    training=False."""
    if hasattr(A, "_native_batch_norm_legit_no_training"):
        return lambda: A._native_batch_norm_legit_no_training.default(x, w, b, m, v, 0.1, 1e-5)
    return lambda: A.native_batch_norm.default(x, w, b, m, v, False, 0.1, 1e-5)


def elementwise():
    """BenchmarkElementwise's cases: the same calls, inputs and byte counts."""
    x4 = torch.randn(1, 64, 56, 56)
    big = torch.randn(1024, 1024)
    seq = torch.randn(512, 768)
    w, b, m, v = torch.randn(64), torch.randn(64), torch.randn(64), torch.rand(64)
    p = torch.randn(1, 64, 112, 112)
    q = torch.randn(1, 512, 7, 7)
    c64, c1024, c768 = torch.randn(1, 64, 1, 1), torch.randn(1024), torch.randn(768)
    lw, lb, gw, gb = torch.randn(768), torch.randn(768), torch.randn(64), torch.randn(64)
    cases = [
        ("mul_bcast_1x64x56x56", lambda: A.mul.Tensor(x4, c64), 8 * 200704),
        ("add_bcast_1024x1024+1024", lambda: A.add.Tensor(big, c1024), 8 << 20),
        ("relu_1M", lambda: A.relu.default(big), 8 << 20),
        ("hardtanh_1M", lambda: A.hardtanh.default(big, 0.0, 6.0), 8 << 20),
        ("sum_lastdim_1024x1024", lambda: A.sum.dim_IntList(big, [-1]), 4 << 20),
        ("sum_firstdim_1024x1024", lambda: A.sum.dim_IntList(big, [0]), 4 << 20),
        ("mean_hw_1x64x56x56", lambda: A.mean.dim(x4, [-1, -2], True), 4 * 200704),
        ("amax_lastdim_1024x1024", lambda: A.amax.default(big, [-1]), 4 << 20),
        ("amax_firstdim_1024x1024", lambda: A.amax.default(big, [0]), 4 << 20),
        ("softmax_lastdim_1024x1024", lambda: A._softmax.default(big, -1, False), 8 << 20),
        ("log_softmax_lastdim_1024x1024", lambda: A._log_softmax.default(big, -1, False), 8 << 20),
        ("layer_norm_512x768", lambda: A.native_layer_norm.default(seq, [768], lw, lb, 1e-5), 8 * 512 * 768),
        ("group_norm_1x64x56x56_g32",
         lambda: A.native_group_norm.default(x4, gw, gb, 1, 64, 56 * 56, 32, 1e-5), 8 * 200704),
        ("batch_norm_infer_1x64x56x56", batch_norm_infer(x4, w, b, m, v), 8 * 200704),
        ("max_pool2d_1x64x112x112_k3s2",
         lambda: A.max_pool2d.default(p, [3, 3], [2, 2], [1, 1]), 4 * (64 * 112 * 112 + 64 * 56 * 56)),
        ("adaptive_avg_pool2d_1x512x7x7", lambda: A.adaptive_avg_pool2d.default(q, [1, 1]), 4 * (512 * 49 + 512)),
        ("upsample_nearest2d_1x64x56x56_x2",
         lambda: A.upsample_nearest2d.vec(x4, None, [2.0, 2.0]), 4 * 5 * 200704),
        ("upsample_bilinear2d_1x64x56x56_x2",
         lambda: A.upsample_bilinear2d.vec(x4, None, False, [2.0, 2.0]), 4 * 5 * 200704),
    ]
    for name, fn, nbytes in cases:
        benchutil.bench(f"BenchmarkElementwise/{name}", fn, nbytes, "GB/s", SECONDS, cpu=False)


if __name__ == "__main__":
    main()
