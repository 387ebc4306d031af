"""Checks that PyTorch 1.13 reads the files Go's torchio.Save writes.

    go test ./torchio -run TestWriteForPython -pydir /tmp/gofx-torchio
    /usr/bin/python3 torchio/testdata/check_save.py /tmp/gofx-torchio

For every fixture that Go re-saved (named like its fixture, with "/" turned
into "__"), torch.load of the Go file must give an OrderedDict whose items
equal the flattened items of torch.load of the original: same names in the
same order, dtypes, shapes, strides, storage offsets, values (NaN included)
and the same pattern of shared storages. built.pt, a state dict made in Go,
is compared with built.json, which Go wrote alongside it. Go files are loaded
with weights_only=True: they must need no global beyond PyTorch's allowlist. Exits non-zero and
lists the differences on failure.
"""
import collections
import json
import math
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.environ.get("GOFX_MODELS", "/work/shared/models")


def flatten(obj, prefix=""):
    if isinstance(obj, torch.Tensor):
        return [(prefix, obj)]
    if isinstance(obj, dict):
        out = []
        for k, v in obj.items():
            out += flatten(v, prefix + "." + k if prefix else k)
        return out
    if isinstance(obj, (list, tuple)):
        return [(str(i), t) for i, t in enumerate(obj)]
    raise TypeError(type(obj))


def same_values(a, b):
    if a.dtype.is_floating_point:
        a, b = a.double().flatten().tolist(), b.double().flatten().tolist()
        return all((math.isnan(x) and math.isnan(y)) or
                   (x == y and math.copysign(1, x) == math.copysign(1, y)) for x, y in zip(a, b))
    return torch.equal(a, b)


def sharing(items):
    ptrs = [t.storage().data_ptr() if t.numel() > 0 else None for _, t in items]
    return [[p is not None and p == q for q in ptrs] for p in ptrs]


def compare(orig, got, errors, label):
    if not isinstance(got, collections.OrderedDict):
        errors.append("%s: loaded a %s, not an OrderedDict" % (label, type(got).__name__))
        return
    want = flatten(orig)
    have = list(got.items())
    if [n for n, _ in want] != [n for n, _ in have]:
        errors.append("%s: names differ: %s vs %s" % (label, [n for n, _ in want], [n for n, _ in have]))
        return
    for (name, a), (_, b) in zip(want, have):
        for what, x, y in [("dtype", a.dtype, b.dtype), ("shape", a.shape, b.shape),
                           ("stride", a.stride(), b.stride()),
                           ("offset", a.storage_offset(), b.storage_offset())]:
            if x != y:
                errors.append("%s: %s: %s %s vs %s" % (label, name, what, x, y))
        if a.shape == b.shape and a.dtype == b.dtype and not same_values(a, b):
            errors.append("%s: %s: values differ" % (label, name))
    if sharing(want) != sharing(have):
        errors.append("%s: storage sharing differs" % label)


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    outdir = argv[1]
    errors = []
    checked = 0
    with open(os.path.join(HERE, "fixtures.json")) as f:
        names = list(json.load(f))
    for name in names:
        src = os.path.join(HERE, name)
        if name == "resnet18.state_dict.pt":
            src = os.path.join(MODELS, name)
        if name == "bigendian.pt":
            # torch 1.13 ignores the byteorder record; Go honours it, so
            # its re-saved copy must equal the little-endian original.
            src = os.path.join(HERE, "dtypes.pt")
        go = os.path.join(outdir, name.replace("/", "__"))
        if not os.path.exists(go):
            if os.path.exists(src):
                errors.append("%s: Go did not write %s" % (name, go))
            continue
        compare(torch.load(src), torch.load(go, weights_only=True), errors, name)
        checked += 1

    got = torch.load(os.path.join(outdir, "built.pt"), weights_only=True)
    with open(os.path.join(outdir, "built.json")) as f:
        want = json.load(f)
    if list(got) != want["order"]:
        errors.append("built.pt: names %s, want %s" % (list(got), want["order"]))
    for name in want["order"]:
        w, t = want[name], got.get(name)
        if t is None:
            continue
        for what, x, y in [("dtype", str(t.dtype).replace("torch.", ""), w["dtype"]),
                           ("shape", list(t.shape), w["shape"]), ("stride", list(t.stride()), w["stride"]),
                           ("offset", t.storage_offset(), w["offset"]),
                           ("values", t.double().flatten().tolist(), [float(v) for v in w["values"]])]:
            if x != y:
                errors.append("built.pt: %s: %s %s, want %s" % (name, what, x, y))
    for group in want["shared"]:
        ptrs = {got[n].storage().data_ptr() for n in group}
        if len(ptrs) != 1:
            errors.append("built.pt: %s do not share a storage" % group)
    checked += 1

    for e in errors:
        print("FAIL", e)
    print("checked %d Go-written files with torch %s: %s" % (checked, torch.__version__, "FAIL" if errors else "ok"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
