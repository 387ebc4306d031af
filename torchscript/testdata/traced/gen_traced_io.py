"""Writes NAME.trace.io.json (2.6) / NAME.trace.2.14.io.json: the io.json of
../shared/torchscript/NAME with every case's outputs replaced by what
PyTorch's loaded traced archive returns (torch.jit.load(NAME.trace.pt)).

A traced archive is specialized to the example input (loop_shape unrolls its
loop, max_branch keeps the example's branch), so for other cases it differs
from the eager outputs that the shared io.json records; gofx must give what
PyTorch gives for the archive. Run with ../shared/tools/torch2 (2.6) and
TORCH2_SUITE=sid ../shared/tools/torch2 (2.14), as follows:

    cd /work/main && ../shared/tools/torch2 PATH/gen_traced_io.py ../shared
    cd /work/main && TORCH2_SUITE=sid ../shared/tools/torch2 PATH/gen_traced_io.py ../shared

(torch2 sees only the current folder, its parent and /tmp, so run it where
../shared is visible; the files are written beside this script.)
"""
import base64, json, os, sys
import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../../../shared"), "torchscript")
new = torch.__version__.startswith("2.14")
src = os.path.join(SHARED, "torch-2.14") if new else SHARED
suffix = ".trace.2.14.io.json" if new else ".trace.io.json"


def dec(a):
    t = a["tensor"]
    arr = np.frombuffer(base64.b64decode(t["data"]), dtype=t["dtype"]).reshape(t["shape"])
    return torch.from_numpy(arr.copy())


def enc(t):
    t = t.detach().contiguous()
    return {"tensor": {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
                       "data": base64.b64encode(t.numpy().tobytes()).decode()}}


for name in ["loop_shape", "max_branch"]:
    d = json.load(open(os.path.join(src, name + ".io.json")))
    m = torch.jit.load(os.path.join(src, name + ".trace.pt"))
    d["outputs"] = [enc(m(*[dec(a) for a in d["inputs"]]))]
    for c in d["cases"]:
        c["outputs"] = [enc(m(*[dec(a) for a in c["inputs"]]))]
        c.pop("max_abs_diff_archive_vs_eager", None)
    d["extra"]["torch"] = torch.__version__
    d["extra"]["doc"] = "outputs of PyTorch's loaded traced archive (gen_traced_io.py)"
    with open(os.path.join(HERE, name + suffix), "w") as f:
        json.dump(d, f, indent=1)
