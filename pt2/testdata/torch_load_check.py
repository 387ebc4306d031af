"""Load .pt2 files that gofx wrote with PyTorch's torch.export.load, run
ep.module() on the cases of an io.json, and print one JSON line per file:
{"file", "torch", "cases", "max_abs_diff", "error", "legacy_fallback",
"op_counts"}: op_counts counts the call_function targets of the loaded
program and of its subgraphs (gen_pt2.py's op_counts, as ep.json holds
them), taken before running so that a program PyTorch loads but cannot run
(2.6's while_loop) still has its graph checked.

Usage: python3 torch_load_check.py FILE.pt2 IO.json [FILE.pt2 IO.json ...]

io.json values use the ARG encoding of ../shared/models/README.md. Every
case runs on a freshly loaded program (buffer mutations start over).
"""
import base64
import json
import logging
import sys
import traceback

import torch

# The custom operator of ../shared/pt2/custom_op.pt2 (gen_pt2.py's), so
# that programs calling it load.
@torch.library.custom_op("gofxtest::scaled_softplus", mutates_args=())
def scaled_softplus(x: torch.Tensor, beta: float) -> torch.Tensor:
    return torch.nn.functional.softplus(x * beta) / beta


@scaled_softplus.register_fake
def _(x, beta):
    return torch.empty_like(x)


DTYPES = {
    "float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "int64": torch.int64, "int32": torch.int32,
    "int16": torch.int16, "int8": torch.int8, "uint8": torch.uint8, "bool": torch.bool,
}


def decode(a):
    (k, v), = a.items()
    if k == "tensor":
        dt = DTYPES[v["dtype"]]
        raw = bytearray(base64.b64decode(v["data"]))
        if len(raw) == 0:
            return torch.empty(v["shape"], dtype=dt)
        return torch.frombuffer(raw, dtype=dt).clone().reshape(v["shape"])
    if k in ("int", "float", "bool", "str"):
        return v
    if k == "none":
        return None
    if k == "ints":
        return list(v)
    if k == "tensors":
        return [decode(x) for x in v]
    raise ValueError("unknown ARG kind " + k)


def flatten(v):
    if isinstance(v, (tuple, list)):
        out = []
        for x in v:
            out.extend(flatten(x))
        return out
    if isinstance(v, dict):
        out = []
        for x in v.values():
            out.extend(flatten(x))
        return out
    return [v]


class Fallback(logging.Handler):
    """Notes PyTorch >= 2.8 falling back to the <= 2.7 reader."""

    def __init__(self):
        super().__init__()
        self.seen = False

    def emit(self, record):
        if "older format" in record.getMessage():
            self.seen = True


def op_counts(gm):
    c = {}
    for mod in gm.modules():
        if isinstance(mod, torch.fx.GraphModule):
            for n in mod.graph.nodes:
                if n.op == "call_function":
                    t = n.target
                    if isinstance(t, torch._ops.OpOverload):
                        k = f"{t.namespace}.{t._opname}.{t._overloadname}"
                    elif hasattr(t, "name"):
                        k = str(t.name())
                    else:
                        k = str(t)
                    c[k] = c.get(k, 0) + 1
    return c


def check(path, io_path):
    res = {"file": path, "torch": torch.__version__, "cases": 0, "max_abs_diff": 0.0, "error": None}
    fb = Fallback()
    logging.getLogger("torch.export").addHandler(fb)
    try:
        res["op_counts"] = op_counts(torch.export.load(path).graph_module)
        with open(io_path) as f:
            io = json.load(f)
        cases = io.get("cases") or [{"inputs": io["inputs"], "outputs": io["outputs"]}]
        for c in cases:
            ep = torch.export.load(path)
            m = ep.module()
            leaves = [decode(a) for a in c["inputs"]]
            # The inputs are the flattened (args, kwargs): rebuild them with
            # the program's own in_spec.
            args, kwargs = torch.utils._pytree.tree_unflatten(leaves, ep.call_spec.in_spec)
            with torch.no_grad():
                got = flatten(m(*args, **kwargs))
            want = [decode(a) for a in c["outputs"]]
            if len(got) != len(want):
                raise ValueError("%d outputs, want %d" % (len(got), len(want)))
            for g, w in zip(got, want):
                if isinstance(w, torch.Tensor):
                    if tuple(g.shape) != tuple(w.shape):
                        raise ValueError("shape %s, want %s" % (tuple(g.shape), tuple(w.shape)))
                    d = (g.double() - w.double()).abs().max().item() if w.numel() else 0.0
                else:
                    d = abs(float(g) - float(w))
                res["max_abs_diff"] = max(res["max_abs_diff"], d)
            res["cases"] += 1
    except Exception as e:  # reported, not raised: the Go test names it
        res["error"] = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[-1] if str(e).strip() else "")
        res["trace"] = traceback.format_exc()[-2000:]
    finally:
        logging.getLogger("torch.export").removeHandler(fb)
    # True when PyTorch >= 2.8 could not read the file as a PT2 archive and
    # read it as a <= 2.7 zip.
    res["legacy_fallback"] = fb.seen
    return res


def main(argv):
    if len(argv) % 2:
        sys.exit("usage: torch_load_check.py FILE.pt2 IO.json [...]")
    for i in range(0, len(argv), 2):
        print(json.dumps(check(argv[i], argv[i + 1])), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
