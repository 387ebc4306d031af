"""The timer shared by the PyTorch side of gofx's kernel benchmarks
(torch_kernels.py, torch_conv.py, torch_pool.py, torch_norm.py), which print
lines in the form of `go test -bench`'s so that bench/bench_all.sh's summary
reads both alike:

    NAME<TAB>CALLS<TAB>NS ns/op<TAB>RATE UNIT[<TAB>CPU cpu-ns/op]

The scripts import it as `import benchutil` (Python puts the script's own
directory, bench/, first on sys.path).
"""
import sys
import time


def seconds_arg(default=1.0):
    """The seconds per benchmark from the command line's first argument."""
    return float(sys.argv[1]) if len(sys.argv) > 1 else default


def set_threads():
    """Sets torch's threads from the command line's second argument: two
    by default, as gofx's benchmarks run with GOMAXPROCS=2 on the lead's
    machine; 1 to compare with `go test -cpu 1` on a loaded machine, where
    OpenMP's spinning threads distort two-thread figures."""
    import torch

    torch.set_num_threads(int(sys.argv[2]) if len(sys.argv) > 2 else 2)


def warm():
    """Frees a 16 MiB tensor, which raises glibc's mmap threshold to
    16 MiB, as a model run (or a 1024x1024 product) does: until then every
    output above 128 KiB is a fresh mmap, zeroed by the kernel page by page
    (the stem convolution: 7.7 ms instead of 0.8 ms in 1.13, and 10.9 ms
    in one run of 2.6 whose earlier products had not raised it). gofx's
    "pooled" figures are the same steady state."""
    import torch

    t = torch.empty(4 << 20)
    del t


def bench(names, fn, work, unit, seconds, cpu=True, digits=2):
    """Calls fn once to warm up, then repeatedly until about seconds have
    passed, and prints one line per name (a str is one name): the calls,
    the wall ns per call, work per call per second in units of 1e9 (work
    in FLOP for GFLOP/s, in bytes for GB/s) with digits decimals, and, with
    cpu, the process CPU time per call (cpu-ns/op: the machine may be
    shared)."""
    if isinstance(names, str):
        names = [names]
    fn()  # warm up
    n, start, cpu0 = 0, time.perf_counter(), time.process_time()
    while True:
        fn()
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    cpu_ns = (time.process_time() - cpu0) / n * 1e9
    for name in names:
        line = f"{name}\t{n}\t{elapsed / n * 1e9:.0f} ns/op\t{work * n / elapsed / 1e9:.{digits}f} {unit}"
        if cpu:
            line += f"\t{cpu_ns:.0f} cpu-ns/op"
        print(line)
