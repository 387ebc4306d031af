"""Times PyTorch running the control-flow programs gofx's BenchmarkRunControlFlow
runs (pt2/testdata/hop/torch-2.14/NAME.pt2, first io.json case): the module of
torch.export.load, called on the case's inputs. One JSON line per program:
the median of RUNS timings of a loop of calls, in microseconds per call.

    TORCH2_SUITE=sid ../shared/tools/torch2 bench/hop/torch_hop.py [RUNS]
"""
import base64, json, statistics, sys, time
import numpy as np
import torch

DTYPES = {"float32": np.float32, "float64": np.float64, "int64": np.int64, "bool": np.bool_, "int32": np.int32}
NAMES = ["cond_data", "cond_shape", "cond_params", "cond_nested", "map_rows", "while_count", "while_converge"]


def value(v):
    if isinstance(v, dict) and "tensor" in v:
        t = v["tensor"]
        a = np.frombuffer(base64.b64decode(t["data"]), dtype=DTYPES[t["dtype"]]).reshape(t["shape"])
        return torch.from_numpy(a.copy())
    return v


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    torch.set_num_threads(1)
    for name in NAMES:
        base = "pt2/testdata/hop/torch-2.14/" + name
        m = torch.export.load(base + ".pt2").module()
        case = json.load(open(base + ".io.json"))["cases"][0]
        args = [value(v) for v in case["inputs"]]
        with torch.no_grad():
            m(*args)
            n, t = 1, 0.0
            while t < 0.2:
                n *= 2
                t0 = time.perf_counter()
                for _ in range(n):
                    m(*args)
                t = time.perf_counter() - t0
            ts = []
            for _ in range(runs):
                t0 = time.perf_counter()
                for _ in range(n):
                    m(*args)
                ts.append((time.perf_counter() - t0) / n * 1e6)
        print(json.dumps({"program": name, "torch": torch.__version__, "us_per_call": round(statistics.median(ts), 2), "calls": n, "runs": runs}), flush=True)


main()
