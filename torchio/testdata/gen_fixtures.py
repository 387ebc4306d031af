"""Generates the torchio test fixtures with PyTorch 1.13.

Run from the repository root:  /usr/bin/python3 torchio/testdata/gen_fixtures.py

Writes, next to this script:
  *.pt                 small torch.save files covering every dtype, 0-d and
                       empty tensors, views and shared storages, parameters,
                       plain dicts, lists, nested dicts, pickle protocol 4, a
                       big-endian and a deflate-compressed archive;
  zoo/*.state_dict.pt  copies of the small model-zoo state dicts;
  fixtures.json        for every file: its entries in order, each with name,
                       dtype, shape, stride, storage offset, storage group (entries
                       with the same group share a storage) and the values in
                       row-major order (floats that are not finite as strings).
Also records resnet18 (read from ../shared/models when present) without values.
"""
import collections
import io
import json
import math
import os
import shutil
import sys
import zipfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.environ.get("GOFX_MODELS", "/work/shared/models")
ZOO_SMALL = ["mlp", "convnet", "attention", "export_doc_branches", "export_doc_conv",
             "export_doc_f", "export_doc_mutation", "fx_doc_mymodule"]

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64,
          torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool]


def dtname(dt):
    return str(dt).replace("torch.", "")


def values(t):
    t = t.detach()
    if t.dtype.is_floating_point:
        out = []
        for v in t.double().flatten().tolist():
            if math.isnan(v):
                out.append("nan")
            elif math.isinf(v):
                out.append("inf" if v > 0 else "-inf")
            else:
                out.append(v)
        return out
    if t.dtype == torch.bool:
        return [bool(v) for v in t.flatten().tolist()]
    return [int(v) for v in t.flatten().tolist()]


def flatten(obj, prefix=""):
    """The (name, tensor) pairs torchio makes of a loaded object."""
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


def describe(path, with_values=True):
    obj = torch.load(path)
    groups = {}
    entries = []
    for name, t in flatten(obj):
        ptr = t.storage().data_ptr() if t.storage().size() > 0 else ("empty", name)
        g = groups.setdefault(ptr, len(groups))
        e = {"name": name, "dtype": dtname(t.dtype), "shape": list(t.shape),
             "stride": list(t.stride()), "offset": t.storage_offset(), "storage": g}
        if with_values:
            e["values"] = values(t)
        else:
            e["sum"] = float(t.double().sum())
            e["abs_sum"] = float(t.double().abs().sum())
            e["first"] = values(t.flatten()[:5])
            e["last"] = values(t.flatten()[-1:])
        entries.append(e)
    return entries


def values_for(dt):
    if dt == torch.bool:
        return torch.tensor([[True, False, True], [False, False, True]])
    if dt.is_floating_point:
        return torch.tensor([[1.5, -2.25, 0.0], [float("inf"), float("-inf"), 3.0e-3]], dtype=dt)
    info = torch.iinfo(dt)
    return torch.tensor([[info.min, info.max, 0], [1, 2, 3]], dtype=dt)


def fixtures():
    f = {}
    f["dtypes"] = collections.OrderedDict((dtname(dt), values_for(dt)) for dt in DTYPES)
    f["dtypes"]["nan"] = torch.tensor([float("nan"), -0.0, 1e-40])  # NaN, -0, a subnormal
    f["scalars"] = collections.OrderedDict(
        (dtname(dt), values_for(dt)[0, 1].clone()) for dt in DTYPES)
    t = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    f["views"] = collections.OrderedDict([
        ("a", t), ("b", t[1:]), ("c", t.t()), ("d", t[:, 1]), ("e", t[0].expand(2, 4)),
        ("f", t[::2, ::3]), ("g", t[2, 3]), ("tied", t),
        ("other", torch.arange(5, dtype=torch.int64)[1:4]),
    ])
    f["empty"] = collections.OrderedDict([
        ("e0", torch.empty(0)), ("e30", torch.zeros(3, 0)), ("ei", torch.zeros(0, 2, dtype=torch.int64)),
        ("eb", torch.zeros(0, dtype=torch.bool)), ("slice", torch.arange(4.)[4:]),
    ])
    f["empty_dict"] = collections.OrderedDict()
    f["params"] = {"p": torch.nn.Parameter(torch.tensor([1.0, 2.0])),
                   "q": torch.nn.Parameter(torch.tensor([3], dtype=torch.int32), requires_grad=False),
                   "r": torch.ones(2, requires_grad=True)}
    f["list"] = [torch.tensor([1, 2]), torch.tensor([[0.5]])]
    f["tuple"] = (torch.tensor([True]),)
    f["tensor"] = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64)
    lin = torch.nn.Linear(2, 3)
    torch.manual_seed(0)
    lin = torch.nn.Linear(2, 3)
    f["nested"] = {"model": lin.state_dict(), "ema": {"inner": {"w": torch.tensor([7], dtype=torch.int16)}}}
    attr = torch.tensor([1.0, 2.0])
    attr.note = "an attribute"  # pickled through torch._tensor._rebuild_from_type_v2
    f["attr"] = {"x": attr}
    return f


def rewrite(src, dst, fn):
    """Copies zip src to dst, mapping each (name, bytes) through fn."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            name, data, method = fn(info.filename, zin.read(info.filename))
            zout.writestr(name, data, compress_type=method)
        extra = fn(None, None)
        if extra:
            zout.writestr(extra[0], extra[1])


def main():
    torch.manual_seed(0)
    out = collections.OrderedDict()
    for name, obj in fixtures().items():
        path = os.path.join(HERE, name + ".pt")
        torch.save(obj, path, _use_new_zipfile_serialization=True)
        out[name + ".pt"] = describe(path)

    # pickle protocol 4 (FRAME, MEMOIZE, SHORT_BINUNICODE, ...)
    p4 = os.path.join(HERE, "proto4.pt")
    torch.save(fixtures()["views"], p4, pickle_protocol=4)
    out["proto4.pt"] = describe(p4)

    # A deflate-compressed copy of dtypes.pt (zip tools may recompress).
    src = os.path.join(HERE, "dtypes.pt")
    deflated = os.path.join(HERE, "deflated.pt")
    rewrite(src, deflated, lambda n, d: None if n is None else (n, d, zipfile.ZIP_DEFLATED))
    out["deflated.pt"] = out["dtypes.pt"]

    # A big-endian copy of dtypes.pt: storages byte-swapped, byteorder "big".
    obj = torch.load(src)
    by_key = {}
    import pickle

    class P(pickle.Unpickler):
        def find_class(self, m, n):
            return super().find_class(m, n)

        def persistent_load(self, pid):
            by_key[pid[2]] = pid[1]
            return torch.zeros(0)
    with zipfile.ZipFile(src) as z:
        prefix = z.namelist()[0].split("/")[0]
        pk = z.read(prefix + "/data.pkl")

    class Dummy(pickle.Unpickler):
        def find_class(self, m, n):
            if n == "_rebuild_tensor_v2":
                return lambda *a: None
            return super().find_class(m, n)

        def persistent_load(self, pid):
            by_key[pid[2]] = pid[1]
            return None
    Dummy(io.BytesIO(pk)).load()
    sizes = {"FloatStorage": 4, "DoubleStorage": 8, "HalfStorage": 2, "BFloat16Storage": 2,
             "LongStorage": 8, "IntStorage": 4, "ShortStorage": 2, "CharStorage": 1,
             "ByteStorage": 1, "BoolStorage": 1}

    def swap(n, d):
        if n is None:
            return (prefix + "/byteorder", b"big")
        parts = n.split("/")
        if len(parts) == 3 and parts[1] == "data":
            size = sizes[by_key[parts[2]].__name__]
            d = b"".join(d[i:i + size][::-1] for i in range(0, len(d), size))
        return (n, d, zipfile.ZIP_STORED)
    big = os.path.join(HERE, "bigendian.pt")
    rewrite(src, big, swap)
    out["bigendian.pt"] = out["dtypes.pt"]

    os.makedirs(os.path.join(HERE, "zoo"), exist_ok=True)
    for m in ZOO_SMALL:
        fn = m + ".state_dict.pt"
        shutil.copyfile(os.path.join(MODELS, fn), os.path.join(HERE, "zoo", fn))
        out["zoo/" + fn] = describe(os.path.join(HERE, "zoo", fn), with_values=False)
    r18 = os.path.join(MODELS, "resnet18.state_dict.pt")
    if os.path.exists(r18):
        out["resnet18.state_dict.pt"] = describe(r18, with_values=False)

    with open(os.path.join(HERE, "fixtures.json"), "w") as f:
        f.write("{\n")
        for i, (k, entries) in enumerate(out.items()):
            f.write(" %s: [\n" % json.dumps(k))
            f.write(",\n".join("  " + json.dumps(e) for e in entries))
            f.write("\n ]%s\n" % ("," if i < len(out) - 1 else ""))
        f.write("}\n")


if __name__ == "__main__":
    sys.exit(main())
