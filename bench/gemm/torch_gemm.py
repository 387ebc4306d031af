"""Times torch.matmul in float32 on the shapes of internal/gemm's
BenchmarkGemm (internal/gemm/bench_test.go): square products and resnet18's
convolutions as products (M output channels, N output pixels, K input
channels x kernel area), and one channel of a depthwise 3x3 convolution. One line per shape: the median of RUNS products in
ms and GFLOP/s, on THREADS threads (2 by default, the cores of the machine
gofx is compared on).

    ../shared/tools/torch2 bench/gemm/torch_gemm.py [RUNS] [THREADS]

gofx's side, in the same run:

    go test -run XXX -bench 'Gemm/f32/avx' -benchtime 50x ./internal/gemm            # both cores
    go test -run XXX -bench 'Gemm/f32/avx' -benchtime 50x -cpu 1 ./internal/gemm     # one core

(Gemm/f32/avx512/... is the kernel Gemm uses on a CPU with AVX-512, avx2 the
one without, avx2-thin the one for products of at most 4 rows.)
"""
import statistics, sys, time
import torch

SHAPES = [
    ("square256", 256, 256, 256),
    ("square512", 512, 512, 512),
    ("square1024", 1024, 1024, 1024),
    ("conv7x7stem", 64, 12544, 147),
    ("conv3x3_64", 64, 3136, 576),
    ("conv3x3_128", 128, 784, 1152),
    ("conv3x3_256", 256, 196, 2304),
    ("conv3x3_512", 512, 49, 4608),
    ("conv1x1_256", 256, 196, 128),
    ("depthwise3x3_112", 1, 12544, 9),
]


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    torch.set_num_threads(threads)
    print(f"# torch {torch.__version__}, {threads} threads, float32, median of {runs}")
    for name, m, n, k in SHAPES:
        a = torch.randn(m, k)
        b = torch.randn(k, n)
        out = torch.empty(m, n)
        for _ in range(5):
            torch.matmul(a, b, out=out)
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            torch.matmul(a, b, out=out)
            times.append(time.perf_counter() - t0)
        t = statistics.median(times)
        print(f"{name:14s} M={m:5d} N={n:5d} K={k:5d}  {t * 1e3:9.3f} ms  {2 * m * n * k / t / 1e9:8.2f} GFLOP/s")


if __name__ == "__main__":
    main()
