#!/bin/bash
# Every side-by-side figure of issue 17's Performance table, gofx then
# PyTorch 1.13 (/usr/bin/python3) then PyTorch 2.6 (../shared/tools/torch2),
# in one run, on two threads/cores each, raw output and a summary of ratios
# written to one file. Meant for a quiet machine; about 8-11 minutes.
#
#   bash bench/bench_all.sh [OUT]      (OUT default: /tmp/gofx-bench/bench_all.txt)
#
# Environment: REPO (the gofx checkout, default this script's), SHARED
# (default $REPO/../shared), GOMAXPROCS (default 2, as PyTorch's
# torch.set_num_threads(2)), BASELINE=0 to skip measuring bytes per
# resnet18 run at the base commit (f1be963, "today's" figure of the
# memory target), BASE_REV (default f1be963), COUNT (go -count, default 3).
#
# Figures (unit):
#   float32 matmul 256/512/1024       GFLOP/s  kernels BenchmarkMatmul   vs bench/torch_kernels.py (torch.mm)
#   resnet18 convolutions (3x3, 7x7 stem, 1x1)
#                                     GFLOP/s  kernels BenchmarkConv2d   vs bench/torch_kernels.py (aten.convolution)
#   resnet18's convolutions, weight packed once; mobilenet/efficientnet depthwise
#                                     GFLOP/s  kernels BenchmarkConvPacked, BenchmarkDepthwise (pooled) vs bench/torch_conv.py
#   add.Tensor 2^20 float32           GB/s     kernels BenchmarkAdd1M    vs bench/torch_kernels.py
#   pooling, upsampling               GB/s     kernels BenchmarkPool     vs bench/torch_pool.py
#   norms, softmax, amax, exp family  GB/s     kernels BenchmarkNorm     vs bench/torch_norm.py
#   softmax along other dims          GB/s     kernels BenchmarkSoftmax  vs bench/torch_softmax.py
#   mm / batch-1 linear via dispatch  GFLOP/s  kernels BenchmarkProducts (fresh, pooled, bare gemm) vs bench/torch_kernels.py
#   GEMM alone, square + conv shapes  GFLOP/s  internal/gemm BenchmarkGemm vs bench/gemm/torch_gemm.py (torch.matmul out=)
#   resnet18 batch 1 optimized        ms       gofx bench model -model resnet18 vs bench/torch_models.py time resnet18 (eager)
#   mobilenet_v2 .pt2 batch 1         ms       gofx bench model -model mobilenet_v2.pt2 vs bench/torch_models.py time mobilenet_v2
#   bytes per resnet18 run            B        BenchmarkResNet18 -benchmem (now and at BASE_REV)
set -u
REPO=${REPO:-$(cd "$(dirname "$0")/.." && pwd)}
SHARED=${SHARED:-$REPO/../shared}
TORCH2=${TORCH2:-$SHARED/tools/torch2}
PY113=${PY113:-/usr/bin/python3}
export GOMAXPROCS=${GOMAXPROCS:-2}
BASELINE=${BASELINE:-1}
BASE_REV=${BASE_REV:-f1be963}
COUNT=${COUNT:-3}
WORK=/tmp/gofx-bench
OUT=${1:-$WORK/bench_all.txt}
mkdir -p "$WORK" "$(dirname "$OUT")"
cd "$REPO" || exit 1
exec > >(tee "$OUT") 2>&1
SECONDS=0

section() { echo; echo "=== $* (t=${SECONDS}s)"; }
torch26() { "$TORCH2" "$@" 2> >(grep -v 'UCX' >&2); }

section "machine"
date -u; echo "repo $REPO at $(git rev-parse --short HEAD)"; go version
echo "nproc $(nproc), GOMAXPROCS $GOMAXPROCS"; grep -m1 'model name' /proc/cpuinfo; uptime
"$PY113" -c 'import torch; print("torch", torch.__version__)'
torch26 -c 'import torch; print("torch", torch.__version__)'

section "build"
go build -o "$WORK/gofx" ./cmd/gofx || exit 1
go test -c -o "$WORK/kernels.test" ./kernels || exit 1
go test -c -o "$WORK/gemm.test" ./internal/gemm || exit 1
go test -c -o "$WORK/models.test" ./models || exit 1

section "gofx kernels: matmul, resnet18 convolutions, add 2^20, pooling, norms, products through dispatch"
(cd kernels && "$WORK/kernels.test" -test.run '^$' -test.bench '^Benchmark(Matmul|Conv2d|Add1M|Pool|Norm|Softmax)$' -test.benchtime 1s -test.count "$COUNT")
(cd kernels && "$WORK/kernels.test" -test.run '^$' -test.bench 'BenchmarkProducts/(mm_|linear_1x)' -test.benchtime 1s -test.count "$COUNT")
# (go test splits -bench at every slash, so each family is its own pattern)
(cd kernels && "$WORK/kernels.test" -test.run '^$' -test.bench 'BenchmarkConvPacked/.*/packed/pooled' -test.benchtime 1s -test.count "$COUNT")
(cd kernels && "$WORK/kernels.test" -test.run '^$' -test.bench 'BenchmarkDepthwise/.*/pooled' -test.benchtime 1s -test.count "$COUNT")
section "PyTorch 1.13 kernels"
"$PY113" bench/torch_kernels.py 1
"$PY113" bench/torch_pool.py 1
"$PY113" bench/torch_norm.py 1
"$PY113" bench/torch_conv.py 1
"$PY113" bench/torch_softmax.py 1
section "PyTorch 2.6 kernels"
torch26 bench/torch_kernels.py 1
torch26 bench/torch_pool.py 1
torch26 bench/torch_norm.py 1
torch26 bench/torch_conv.py 1
torch26 bench/torch_softmax.py 1

section "gofx GEMM alone (internal/gemm, both cores)"
(cd internal/gemm && "$WORK/gemm.test" -test.run '^$' -test.bench '^BenchmarkGemm$/f32/' -test.benchtime 30x)
section "PyTorch 1.13 GEMM (torch_gemm.py)"
"$PY113" bench/gemm/torch_gemm.py 30 2
section "PyTorch 2.6 GEMM (torch_gemm.py)"
torch26 bench/gemm/torch_gemm.py 30 2

section "gofx resnet18 batch 1 (bench model)"
"$WORK/gofx" bench model -model resnet18 -program optimized -runs 20
"$WORK/gofx" bench model -model resnet18 -program eager -runs 10
section "PyTorch 1.13 resnet18 eager"
"$PY113" bench/torch_models.py time resnet18 20
section "PyTorch 2.6 resnet18 eager"
torch26 bench/torch_models.py time resnet18 20

section "mobilenet_v2 .pt2 (made by PyTorch 2.6 if absent)"
[ -f "$WORK/mobilenet_v2.pt2" ] || torch26 bench/torch_models.py export mobilenet_v2 "$WORK"
(cd models && GOFX_BENCH_DIR="$WORK" "$WORK/models.test" -test.run '^TestMobileNetV2PT2$' -test.v) | grep -E 'max abs|PASS|FAIL|SKIP|ok'
"$WORK/gofx" bench model -model "$WORK/mobilenet_v2.pt2" -program optimized -runs 20
"$WORK/gofx" bench model -model "$WORK/mobilenet_v2.pt2" -program eager -runs 10
section "PyTorch 1.13 mobilenet_v2 eager"
"$PY113" bench/torch_models.py time mobilenet_v2 20
section "PyTorch 2.6 mobilenet_v2 eager"
torch26 bench/torch_models.py time mobilenet_v2 20

section "bytes per resnet18 run (BenchmarkResNet18 -benchmem, now)"
(cd models && "$WORK/models.test" -test.run '^$' -test.bench '^BenchmarkResNet18$' -test.benchtime 10x -test.benchmem)
if [ "$BASELINE" = 1 ]; then
	section "bytes per resnet18 run at $BASE_REV (today's figure)"
	base=$WORK/base-$BASE_REV
	rm -rf "$base" && mkdir -p "$base" && git archive "$BASE_REV" | tar -x -C "$base"
	# the base's own benchmark file (its interp case is the comparable one)
	(cd "$base" && go test ./models -run '^$' -bench '^BenchmarkResNet18$' -benchtime 5x -benchmem)
fi

section "TorchScript load: scripted torchvision resnet18 (issue 16)"
[ -f "$WORK/resnet18.script.pt" ] || torch26 bench/torchscript/torch_jit_load.py "$WORK/resnet18.script.pt" 1 >/dev/null
GOFX_TS_BENCH="$WORK/resnet18.script.pt" go test ./torchscript -run '^$' -bench 'Load' -benchtime 10x -count "$COUNT"
torch26 bench/torchscript/torch_jit_load.py "$WORK/resnet18.script.pt" 10
section "TorchScript interpreter: integer loop (issue 16)"
[ -f "$WORK/int_loop.pt" ] || torch26 bench/torchscript/torch_int_loop.py "$WORK/int_loop.pt" 1000 5 >/dev/null
GOFX_TS_LOOP="$WORK/int_loop.pt" go test ./torchscript -run '^$' -bench 'IntLoop' -benchtime 500x -count "$COUNT"
torch26 bench/torchscript/torch_int_loop.py "$WORK/int_loop.pt" 1000 500

section "summary (gofx / PyTorch: ratios of throughput for GFLOP/s and GB/s, of time for ms; bytes now / base)"
python3 - "$OUT" <<'EOF'
import json, re, statistics, sys
text = open(sys.argv[1]).read()
parts = re.split(r"^=== (.*) \(t=\d+s\)$", text, flags=re.M)
sec = {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}
def metric(body, unit):
    vals = {}
    for m in re.finditer(r"^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+[\d.]+ ns/op.*?\s([\d.]+) " + re.escape(unit), body, re.M):
        vals.setdefault(m.group(1), []).append(float(m.group(2)))
    return {k: statistics.median(v) for k, v in vals.items()}
def find(prefix):
    return next((v for k, v in sec.items() if k.startswith(prefix)), "")
g, t1, t2 = find("gofx kernels"), find("PyTorch 1.13 kernels"), find("PyTorch 2.6 kernels")
print(f"{'work':48s} {'gofx':>9s} {'pt1.13':>9s} {'pt2.6':>9s} {'/1.13':>6s} {'/2.6':>6s}")
for unit in ("GFLOP/s", "GB/s"):
    gv, a, b = metric(g, unit), metric(t1, unit), metric(t2, unit)
    for k in gv:
        # BenchmarkProducts' cases run three ways (fresh, pooled, gemm);
        # PyTorch's line has the case's name alone.
        t = re.sub(r"/(fresh|pooled|gemm)$", "", k)
        r1 = gv[k] / a[t] if a.get(t) else float("nan")
        r2 = gv[k] / b[t] if b.get(t) else float("nan")
        print(f"{k + ' ' + unit:48s} {gv[k]:9.2f} {a.get(t, float('nan')):9.2f} {b.get(t, float('nan')):9.2f} {r1:6.2f} {r2:6.2f}")
def jsons(body):
    return [json.loads(l) for l in body.splitlines() if l.startswith("{")]
for model, gsec in (("resnet18", "gofx resnet18"), ("mobilenet_v2", "mobilenet_v2")):
    gl = [j for j in jsons(find(gsec)) if j.get("program") == "optimized"]
    a = jsons(find(f"PyTorch 1.13 {model}")); b = jsons(find(f"PyTorch 2.6 {model}"))
    if gl:
        gm = gl[0]["median_ms"]
        am = a[0]["median_ms"] if a else float("nan"); bm = b[0]["median_ms"] if b else float("nan")
        print(f"{model + ' optimized ms (time ratio)':34s} {gm:9.1f} {am:9.1f} {bm:9.1f} {gm / am:6.2f} {gm / bm:6.2f}   bytes/run {gl[0]['bytes_per_run']}")
def benchmem(body):
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^(BenchmarkResNet18/\w+)-?\d*\s+\d+\s+\d+ ns/op\s+(\d+) B/op", body, re.M)}
now, base = benchmem(find("bytes per resnet18 run (")), benchmem(find("bytes per resnet18 run at"))
for k, v in now.items():
    b = base.get(k)
    print(f"{k + ' B/op':34s} {v:12d}" + (f"  base {b:12d}  now/base {v / b:.3f}" if b else ""))
EOF
echo "total ${SECONDS}s; output in $OUT"
