"""Time torch.fx.Transformer(gm).transform() on the graph-chain workload.

The same workload as transformer.BenchmarkTransform and ../../../shared/bench/fx_graph.py:
one placeholder x, then N call_function nodes alternating torch.add(prev, 1.0) and
torch.relu(prev), then the output, in a GraphModule over an empty root module. The timed
step is what the Go benchmark times: constructing the Transformer and transforming (no
overrides). Prints one JSON line per N: the best and median of `repeat` runs, and the cost
per node.

    /usr/bin/python3 bench_torch_transformer.py 1000 10000 20000

torch.fx 1.13 names nodes in quadratic time (its _Namespace walks the _1, _2, ... suffixes),
and the Transformer names every node it records, so large N take minutes (100k: about as
long as fx_graph.py's 100k build, 15 minutes).
"""
import json, statistics, sys, time
import torch, torch.fx as fx


def build(n):
    g = fx.Graph()
    prev = g.placeholder("x")
    for i in range(n):
        prev = g.call_function(torch.add, (prev, 1.0)) if i % 2 == 0 else g.call_function(torch.relu, (prev,))
    g.output(prev)
    return fx.GraphModule(torch.nn.Module(), g)


def main(sizes):
    for n in sizes:
        gm = build(n)
        repeat = 5 if n <= 1000 else 1
        times = []
        for _ in range(repeat):
            s = time.perf_counter()
            out = fx.Transformer(gm).transform()
            times.append(time.perf_counter() - s)
        assert len(out.graph.nodes) == len(gm.graph.nodes)
        nodes = len(gm.graph.nodes)
        med = statistics.median(times)
        print(json.dumps(dict(workload="graph-chain", op="Transformer.transform", torch=torch.__version__,
                              n=n, nodes=nodes, repeat=repeat, best_s=min(times), median_s=med,
                              ns_per_node=med / nodes * 1e9)), flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1000, 10000])
