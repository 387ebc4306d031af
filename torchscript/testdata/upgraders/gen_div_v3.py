"""Makes div_v3.script.pt: tsarch's div.script.pt (torch.div(a, b), PyTorch
2.6) with its version record set to 3, as archives written before integer
division changed meaning; and div_v3.io.json: what PyTorch 2.6 returns for
it (its loader applies the div_Tensor_0_3 upgrader: integer tensors divide
with truncation). Run with ../shared/tools/torch2: torch2 gen_div_v3.py SRC OUTDIR."""
import base64, json, sys, zipfile
import torch

src, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out + "/div_v3.script.pt", "w") as zout:
    for info in zin.infolist():
        data = zin.read(info.filename)
        if info.filename.endswith("/version"):
            data = b"3\n"
        zout.writestr(info, data)
m = torch.jit.load(out + "/div_v3.script.pt")

def enc(t):
    t = t.contiguous()
    return {"tensor": {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
                       "data": base64.b64encode(t.numpy().tobytes()).decode()}}
a, b = torch.tensor([7, -7, 9], dtype=torch.int64), torch.tensor([2, 2, -4], dtype=torch.int64)
fa, fb = torch.tensor([7.0, -7.0]), torch.tensor([2.0, 2.0])
d = {"inputs": [enc(a), enc(b)], "outputs": [enc(m(a, b))],
     "extra": {"model": "div_v3", "torch": torch.__version__, "doc": "version-3 archive of torch.div: integer tensors truncate (gen_div_v3.py)"},
     "cases": [{"seed": 1, "inputs": [enc(fa), enc(fb)], "outputs": [enc(m(fa, fb))]}]}
json.dump(d, open(out + "/div_v3.io.json", "w"), indent=1)
print(m(a, b), m(fa, fb))
