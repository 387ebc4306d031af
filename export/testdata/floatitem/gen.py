# gen.py makes the references of export/floatitem_test.go and
# pt2/floatitem_test.go: a program reading floats from tensor data
# (Tensor.item() of floating tensors: unbacked float symbols zuf0, zuf1,
# ...), exported by PyTorch (training IR: NAME.VER.pt2; core ATen after
# run_decompositions: NAME.VER.core.pt2 and its print NAME.VER.core.ep.txt),
# and its inputs and outputs (float_item.io.json, written by 2.6).
#
#   ../shared/tools/torch2 export/testdata/floatitem/gen.py export/testdata/floatitem 2.6
#   TORCH2_SUITE=sid ../shared/tools/torch2 export/testdata/floatitem/gen.py export/testdata/floatitem 2.14
import base64, json, sys
import numpy as np
import torch

class FloatItem(torch.nn.Module):
    def forward(self, x):
        a = x.sum().item()
        b = x.max().item()
        return x * a, torch.full((2,), b), x.add(x, alpha=x.min().item())

def enc(t):
    arr = np.ascontiguousarray(t.detach().numpy()).astype("<f4")
    return {"tensor": {"dtype": "float32", "shape": list(t.shape),
                       "data": base64.b64encode(arr.tobytes()).decode("ascii")}}

out, ver = sys.argv[1], sys.argv[2]
torch.manual_seed(0)
x = torch.randn(3, 4)
m = FloatItem()
ep = torch.export.export(m, (x,))
torch.export.save(ep, f"{out}/float_item.{ver}.pt2")
core = ep.run_decompositions()
torch.export.save(core, f"{out}/float_item.{ver}.core.pt2")
with open(f"{out}/float_item.{ver}.core.ep.txt", "w") as f:
    f.write(str(core))
if ver == "2.6":
    cases = []
    for seed in range(2):
        torch.manual_seed(seed)
        xi = torch.randn(3, 4)
        cases.append({"inputs": [enc(xi)], "outputs": [enc(o) for o in m(xi)]})
    with open(f"{out}/float_item.io.json", "w") as f:
        json.dump({"inputs": cases[0]["inputs"], "outputs": cases[0]["outputs"],
                   "cases": cases[1:], "extra": {"model": "float_item"}}, f, indent=1)
        f.write("\n")
