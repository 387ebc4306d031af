#!/usr/bin/env bash
# Before/after on one machine: each suite runs in the old tree, then the new tree, in
# rounds. usage: run.sh OLD_TREE NEW_TREE OUT_DIR (e.g. a git worktree of 3e31b88, this
# checkout, /tmp/bench); compare with benchstat OUT_DIR/old.txt OUT_DIR/new.txt.
set -u
BASE=${1:?old tree} NEW=${2:?new tree} OUT=${3:?output folder}
mkdir -p $OUT; : > $OUT/old.txt; : > $OUT/new.txt
suites=(
"./graph|-bench Chain|FanIn -benchmem -count 2"
"./kernels|-bench Matmul|Conv2d|Add1M -count 2"
"./interp|-bench Overhead -benchtime 1s -count 2"
"./fx|-bench SymbolicTraceChain -benchtime 3x -count 2"
"./pattern|-bench ReplaceChain -benchtime 3x -count 2"
"./export|-bench ExportChain|ResNet18 -benchtime 2x -count 2"
"./shapeprop|-bench FakeProp -benchtime 3x -count 2"
"./transformer|-bench Transform -benchtime 10x -count 2"
"./internal/chain|-bench ChainModel/.*/blocks=2000$ -benchtime 5x -benchmem -count 2"
"./passes|-bench DCE|CSE|FuseConvBN|FoldConvBN -benchtime 10x -count 2"
"./models|-bench ResNet18 -benchtime 5x -count 2"
)
for round in 1 2; do
for s in "${suites[@]}"; do
  pkg=${s%%|*}; args=${s#*|}
  bench=$(echo "$args" | sed -E 's/^-bench ([^ ]+).*/\1/'); rest=$(echo "$args" | sed -E 's/^-bench [^ ]+ ?//')
  (cd $BASE && go test $pkg -run '^$' -bench "$bench" $rest >> $OUT/old.txt 2>&1)
  (cd $NEW && go test $pkg -run '^$' -bench "$bench" $rest >> $OUT/new.txt 2>&1)
done
done
echo done > $OUT/DONE
