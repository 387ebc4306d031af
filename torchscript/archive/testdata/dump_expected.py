# Writes expected.json: what PyTorch itself (torch.jit.load) reads from each
# TorchScript archive named on the command line, as the Go tests compare it
# with the archive reader's result. Run with ../shared/tools/torch2 from this
# folder (copy archives from outside the folder tree into it first: the
# torch2 sandbox sees only this folder's parents and /tmp):
#
#   torch2 dump_expected.py OUT.json NAME=PATH...
#
# Per archive: the version record, the code qualifiers and extra files (as
# Python's zipfile lists them, extra contents as torch.jit.load's
# _extra_files returns them), the module tree (each module's class, its
# attributes in slot order as ScriptModule.dump_to_str prints them, each
# value summarized: tensors by dtype, shape, stride and values or their sum),
# the parameters and buffers (named_parameters, named_buffers), the
# constants.pkl tuple (unpickled by Python's pickle with torch's own tensor
# rebuild), the traced inputs, and the "# file:line:col" comments of every
# method's graph.
import json
import math
import pickle
import re
import sys
import zipfile

import torch


def tensor_summary(t):
    t = t.detach()
    d = {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape), "stride": list(t.stride())}
    if t.numel() <= 32:
        d["values"] = [num(v) for v in t.double().flatten().tolist()] if t.dtype != torch.bool else t.flatten().tolist()
    d["sum"] = num(float(t.double().sum()))
    return {"tensor": d}


def num(v):
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return str(v)
    return v


def summary(v):
    if isinstance(v, torch.Tensor):
        return tensor_summary(v)
    if isinstance(v, torch._C.ScriptModule):
        return module_summary(v)
    if isinstance(v, bool) or v is None or isinstance(v, (int, str)):
        return v
    if isinstance(v, float):
        return {"float": num(v)}
    if isinstance(v, tuple):
        return {"tuple": [summary(x) for x in v]}
    if isinstance(v, list):
        return {"list": [summary(x) for x in v]}
    if isinstance(v, dict):
        return {"dict": [[summary(k), summary(x)] for k, x in v.items()]}
    if isinstance(v, torch.device):
        return {"device": str(v)}
    if isinstance(v, complex):
        return {"complex": [num(v.real), num(v.imag)]}
    return {"other": type(v).__name__}


ATTR = re.compile(r"^    (\w+) = (.*)$")
OBJ = re.compile(r"^<([\w.]+) object at 0x[0-9a-f]+>$")
ENUM = re.compile(r"^Enum<(\w+)\.(\w+)>$")


def module_summary(c):
    text = c.dump_to_str(False, False, False)
    lines = text.split("\n")
    i = lines.index("  attributes {")
    attrs = []
    for line in lines[i + 1:]:
        if line == "  }":
            break
        m = ATTR.match(line)
        if not m:
            continue
        name, shown = m.group(1), m.group(2)
        try:
            v = summary(c.getattr(name))
        except RuntimeError:
            o, e = OBJ.match(shown), ENUM.match(shown)
            v = {"object": o.group(1)} if o else {"enum": e.group(1), "member": e.group(2)} if e else {"unreadable": shown}
        attrs.append([name, v])
    return {"object": c.qualified_name, "attrs": attrs}


def constants(z, prefix):
    class U(pickle.Unpickler):
        def find_class(self, mod, name):
            if (mod, name) in {("torch._utils", "_rebuild_tensor_v2"), ("collections", "OrderedDict"), ("builtins", "complex"), ("torch", "device")}:
                return super().find_class(mod, name)
            if mod == "torch" and name.endswith("Storage"):
                return getattr(torch, name)
            if mod == "torch.jit._pickle":
                return getattr(torch.jit._pickle, name)
            raise pickle.UnpicklingError(mod + "." + name)

        def persistent_load(self, pid):
            _, st, key, _, numel = pid
            dtype = st.dtype
            data = z.read(prefix + "constants/" + key)
            t = torch.frombuffer(bytearray(data), dtype=dtype) if numel else torch.empty(0, dtype=dtype)
            return torch.storage.TypedStorage(wrap_storage=t.untyped_storage(), dtype=dtype, _internal=True)

    import io
    return U(io.BytesIO(z.read(prefix + "constants.pkl"))).load()


COMMENT = re.compile(r" # (.*:\d+:\d+)$")


def main():
    out = {}
    for arg in sys.argv[2:]:
        name, path = arg.split("=", 1)
        z = zipfile.ZipFile(path)
        prefix = z.namelist()[0].split("/")[0] + "/"
        names = [n[len(prefix):] for n in z.namelist()]
        ver = z.read(prefix + (".data/version" if ".data/version" in names else "version")).decode().strip()
        code = sorted(n[len("code/"):-3].replace("/", ".") for n in names if n.startswith("code/") and n.endswith(".py"))
        extra_names = [n[len("extra/"):] for n in names if n.startswith("extra/")]
        files = {n: "" for n in extra_names}
        m = torch.jit.load(path, _extra_files=files)
        ranges = set()
        for _, mod in [("", m)] + list(m.named_modules()):
            for meth in mod._c._method_names():
                for line in str(mod._c._get_method(meth).graph).split("\n"):
                    c = COMMENT.search(line)
                    if c:
                        ranges.add(c.group(1))
        traced = {}
        try:
            traced = {k: [summary(x) for x in v] for k, v in m._c._retrieve_traced_inputs().items()}
        except Exception:
            pass
        out[name] = {
            "version": int(ver),
            "code": code,
            "extra": {k: (v.decode() if isinstance(v, bytes) else v) for k, v in sorted(files.items())},
            "tree": module_summary(m._c),
            "parameters": [[k, list(p.shape)] for k, p in m.named_parameters()],
            "buffers": [[k, list(b.shape)] for k, b in m.named_buffers()],
            "constants": summary(constants(z, prefix)),
            "traced_inputs": traced,
            "ranges": sorted(ranges),
        }
    with open(sys.argv[1], "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
