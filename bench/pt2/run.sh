#!/usr/bin/env bash
# The load/save benchmark of BENCHMARKS.md ("Loading and saving .pt2"), gofx
# and PyTorch in one session on one machine:
#
#   bash bench/pt2/run.sh [OUT]        (default OUT: /tmp/gofx-pt2-bench)
#
# 1. PyTorch 2.6 and 2.14 (../shared/tools/torch2) export the chain150/600/2100
#    and resnet18 programs, save them as .pt2 (OUT/torch-2.6.0/, OUT/torch-2.14.1/)
#    and time their own torch.export.load and torch.export.save on them
#    (OUT/torch-*.jsonl, one JSON line per program and work);
# 2. gofx's BenchmarkLoad and BenchmarkSave (pt2/bench_test.go) run on the same
#    files (OUT/gofx.txt, go test -bench output).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-/tmp/gofx-pt2-bench}
mkdir -p "$out"
torch2=../shared/tools/torch2
runs=${RUNS:-10}
"$torch2" bench/pt2/torch_pt2.py "$out" "$runs" 2>/dev/null | tee "$out/torch-2.6.jsonl"
TORCH2_SUITE=sid "$torch2" bench/pt2/torch_pt2.py "$out" "$runs" 2>/dev/null | tee "$out/torch-2.14.jsonl"
GOFX_PT2_BENCH="$out" go test ./pt2 -run '^$' -bench 'Load|Save' -benchmem -count "${COUNT:-5}" | tee "$out/gofx.txt"
