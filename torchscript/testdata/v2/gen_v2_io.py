"""Makes NAME.io.json for each version-2 archive of this folder: what
PyTorch 2.6's torch.jit.load runs them to (its loader applies the div
upgraders of archives before version 4). Run with ../shared/tools/torch2:
torch2 gen_v2_io.py (in this folder)."""
import base64, glob, json
import torch

def enc(v):
    if isinstance(v, torch.Tensor):
        t = v.contiguous()
        return {"tensor": {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
                           "data": base64.b64encode(t.numpy().tobytes()).decode()}}
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"int": v}
    if isinstance(v, float):
        return {"float": v}
    raise TypeError(type(v))

def flat(v):
    return [y for x in v for y in flat(x)] if isinstance(v, (tuple, list)) else [v]

I = lambda *x: torch.tensor(x, dtype=torch.int64)
F = lambda *x: torch.tensor(x, dtype=torch.float32)
ia, ib, fa, fb = I(7, -7, 9, 5), I(2, 2, -4, 3), F(7.0, -7.0, 9.5, 1.0), F(2.0, 2.0, -4.0, 3.0)
inputs = {
    "div_tensor": [(ia, ib), (fa, fb), (ia, fb)],
    "div_tensor_inplace": [(ia, ib), (fa, fb), (fa, ib)],
    "div_tensor_out": [(ia, ib, I(0, 0, 0, 0)), (fa, fb, F(0, 0, 0, 0)), (ia, ib, F(0, 0, 0, 0))],
    "div_scalar_float": [(ia, 2.0), (fa, 2.5)],
    "div_scalar_int": [(ia, 2), (ia, -4), (fa, 2)],
    "div_scalar_inplace_float": [(fa, 2.5), (ia, 2.0)],
    "div_scalar_inplace_int": [(ia, 2), (ia, -4), (fa, 3)],
    "div_scalar_reciprocal_float": [(fa, 2.5), (ia, 2.0)],
    "div_scalar_reciprocal_int": [(fa, 3), (ia, 2)],
    "div_scalar_scalar": [(7.0, 2, 2.5, -4), (-7.5, -3, 0.5, 5)],
}
for name, cases in inputs.items():
    path = "test_versioned_%s_v2.ptl" % name
    m = torch.jit.load(path)
    out = []
    for args in cases:
        given = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
        try:
            r = m(*given)
        except Exception as e:
            print(name, args, "refused by PyTorch:", str(e).splitlines()[0])
            continue
        out.append({"inputs": [enc(a) for a in args], "outputs": [enc(x) for x in flat(r)]})
        print(name, args, "->", r)
    d = {"inputs": out[0]["inputs"], "outputs": out[0]["outputs"],
         "extra": {"model": name, "torch": torch.__version__,
                   "doc": "%s (version 2, from PyTorch's test/cpp/jit/upgrader_models) as PyTorch 2.6 runs it" % path},
         "cases": [dict(seed=i + 1, **c) for i, c in enumerate(out[1:])]}
    json.dump(d, open("%s.io.json" % name, "w"), indent=1)
