"""Makes legacy.pt, an archive in the format of PyTorch 1.0 to 1.2 (model.json),
and legacy.io.json, what it computes.

No archive of that format could be found (PyTorch's repository keeps none, and
the PyTorch 2.6 that ../shared/tools/torch2 runs refuses them: its libtorch is
built without the legacy importer, "Legacy model format is not supported on
mobile"). legacy.pt is therefore built here record by record as PyTorch 1.2's
writer (torch/csrc/jit/export.cpp, ScriptModuleSerializer) wrote one:

  legacy/code/legacy.py, legacy/code/legacy_sub.py
      each module's methods, "op_version_set = 1" then top-level defs, as
      python_print printed them (convertModule: code/<prefix_name>.py)
  legacy/tensors/N     the raw storage of tensor N of the tensor table, the
      parameters in module order, then the tensor constants of the code as
      python_print appended them (CONSTANTS.cN indexes the same table), then
      tensors of attributes
  legacy/attributes.pkl   the attribute table, a tuple pickled with protocol 2;
      tensors as torch.jit._pickle.build_tensor_from_id(N), int lists as
      build_intlist (Pickler of PyTorch 1.2)
  legacy/model.json    the ModelDef (caffe2/proto/torch.proto) as protobuf's
      BinaryToJsonString prints it: lowerCamelCase fields, int64 as strings,
      enums by name, false and empty fields left out
  legacy/version       "1" (kProducedFileFormatVersion), written last

What it computes comes from PyTorch 2.6: the same module scripted, saved,
its version record set to 1 (as legacy archives are: older than the div
change of version 4) and loaded with torch.jit.load, which applies the div
upgraders; its outputs on the inputs are legacy.io.json.
Run with ../shared/tools/torch2 gen_legacy.py (in this folder)."""
import base64, io, json, pickle, zipfile
from typing import List, Tuple
import torch
import torch.jit._pickle as tp

torch.manual_seed(7)
W = torch.randn(3, 2)       # legacy.weight    tensor 0
B = torch.randn(3)          # legacy.bias      tensor 1
C = torch.tensor([0.5, -2.0, 3.0])  # CONSTANTS.c2 in legacy.forward
SW = torch.randn(3)         # legacy.sub.weight tensor 3
R = torch.randn(3)          # legacy.running (a buffer: a Tensor attribute) tensor 4


class Sub(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(SW.clone())

    def forward(self, x):
        return x * self.weight + 1


class Legacy(torch.nn.Module):
    n: int
    sizes: List[int]

    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(W.clone())
        self.bias = torch.nn.Parameter(B.clone())
        self.register_buffer("running", R.clone())
        self.register_buffer("c", C.clone())
        self.n = 2
        self.sizes = [3, 4]
        self.sub = Sub()

    def forward(self, x, k) -> Tuple[torch.Tensor, torch.Tensor]:
        y = torch.addmm(self.bias, x, self.weight.t())
        y = self.sub(y)
        for i in range(self.n):
            y = y + self.running
        return y * self.c, torch.div(k, 2)


# What PyTorch 2.6 computes for it at version 1.
buf = io.BytesIO()
torch.jit.save(torch.jit.script(Legacy().eval()), buf)
with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as zin:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename.endswith("/version") or info.filename.endswith(".data/version"):
                data = b"1\n"
            zout.writestr(info, data)
m = torch.jit.load(io.BytesIO(out.getvalue()))


def enc(t):
    t = t.detach().contiguous()
    return {"tensor": {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
                       "data": base64.b64encode(t.numpy().tobytes()).decode()}}


cases = []
for seed, (x, k) in enumerate([(torch.randn(4, 2), torch.tensor([7, -7, 9, 4])),
                               (torch.randn(1, 2), torch.tensor([-3, 3, 0, 1]))]):
    y, q = m(x, k)
    cases.append({"seed": seed, "inputs": [enc(x), enc(k)], "outputs": [enc(y), enc(q)]})
json.dump({"inputs": cases[0]["inputs"], "outputs": cases[0]["outputs"],
           "extra": {"model": "legacy", "torch": torch.__version__,
                     "doc": "legacy.pt (gen_legacy.py): PyTorch 2.6 running the same module at archive version 1"},
           "cases": cases[1:]}, open("legacy.io.json", "w"), indent=1)

# The archive, as PyTorch 1.2's writer wrote it.
root_code = """op_version_set = 1
def forward(self,
    x: Tensor,
    k: Tensor) -> Tuple[Tensor, Tensor]:
  y = torch.addmm(self.bias, x, torch.t(self.weight), beta=1, alpha=1)
  y0 = self.sub.forward(y)
  y1 = y0
  for i in range(self.n):
    y1 = torch.add(y1, self.running, alpha=1)
  _0 = (torch.mul(y1, CONSTANTS.c2), torch.div(k, 2))
  return _0
"""
sub_code = """op_version_set = 1
def forward(self,
    x: Tensor) -> Tensor:
  return torch.add(torch.mul(x, self.weight), 1, alpha=1)
"""
table = [W, B, C, SW, R]


class Ref:
    def __init__(self, f, arg):
        self.f, self.arg = f, arg

    def __reduce__(self):
        return (self.f, (self.arg,))


attrs = (True, 2, Ref(tp.build_tensor_from_id, 4), Ref(tp.build_intlist, [3, 4]), True)
model = {
    "protoVersion": "3",
    "mainModule": {
        "submodules": [{
            "torchscriptArena": {"key": "code/legacy_sub.py"},
            "parameters": [{"tensorId": "3", "name": "weight"}],
            "name": "sub",
            "optimize": True,
            "attributes": [{"type": "bool", "name": "training", "id": "4"}],
        }],
        "torchscriptArena": {"key": "code/legacy.py"},
        "parameters": [{"tensorId": "0", "name": "weight"}, {"tensorId": "1", "name": "bias"}],
        "name": "legacy",
        "optimize": True,
        "attributes": [{"type": "bool", "name": "training", "id": "0"},
                       {"type": "int", "name": "n", "id": "1"},
                       {"type": "Tensor", "name": "running", "id": "2"},
                       {"type": "List[int]", "name": "sizes", "id": "3"}],
    },
    "producerName": "pytorch",
    "producerVersion": "1.0",
    "tensors": [dict({"dims": [str(d) for d in t.shape], "offset": "0",
                      "strides": [str(s) for s in t.stride()],
                      "dataType": "FLOAT", "data": {"key": "tensors/%d" % i}, "device": "cpu"},
                     **({"requiresGrad": True} if i in (0, 1, 3) else {}))
                for i, t in enumerate(table)],
}
with zipfile.ZipFile("legacy.pt", "w") as z:
    z.writestr("legacy/code/legacy.py", root_code)
    z.writestr("legacy/code/legacy_sub.py", sub_code)
    z.writestr("legacy/attributes.pkl", pickle.dumps(attrs, protocol=2))
    for i, t in enumerate(table):
        z.writestr("legacy/tensors/%d" % i, t.contiguous().numpy().tobytes())
    z.writestr("legacy/model.json", json.dumps(model, separators=(",", ":")))
    z.writestr("legacy/version", "1")
print(m.code)
print(cases[0]["outputs"])
