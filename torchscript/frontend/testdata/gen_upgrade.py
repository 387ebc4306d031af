# Makes testdata/cases/upgrade.v3.pt: a scripted module calling the
# versioned operators (div, full, linspace, logspace, gelu), saved by
# PyTorch 2.6 with its `version` record rewritten to 3, so that PyTorch's
# loader compiles each call as its upgrader (ReplaceOldOperatorsWithUpgraders);
# upgrade.v3.code.txt and .schemas.txt are forward's graph and overloads
# after torch.jit.load. upgraders_2.6.json is PyTorch 2.6's upgrader table
# (torchscript/archive/testdata/dump_upgraders.py).
#   cd torchscript/frontend/testdata && ../../../../shared/tools/torch2 gen_upgrade.py
import io, os, zipfile

import torch
from torch import Tensor


class Upgrade(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, n: int) -> Tensor:
        x = torch.div(a, b)
        y = torch.div(a, 2)
        z = torch.full([2], 3)
        w = torch.linspace(0, 1, n)
        v = torch.nn.functional.gelu(a)
        return x + y + z.sum() + w.sum() + v


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
    buf = io.BytesIO()
    torch.jit.save(torch.jit.script(Upgrade()), buf)
    src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    dst_buf = io.BytesIO()
    with zipfile.ZipFile(dst_buf, "w", zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename.endswith("/version"):
                data = b"3\n"
            dst.writestr(info, data)
    data = dst_buf.getvalue()
    with open(os.path.join(out, "upgrade.v3.pt"), "wb") as f:
        f.write(data)
    lm = torch.jit.load(io.BytesIO(data))
    with open(os.path.join(out, "upgrade.v3.code.txt"), "w") as f:
        f.write(f"# PyTorch {torch.__version__}\n# code\n{lm.code}\n# graph\n{lm.graph}\n")
    with open(os.path.join(out, "upgrade.v3.schemas.txt"), "w") as f:
        def walk(block):
            for n in block.nodes():
                s = n.schema()
                if s != "(no schema)":
                    f.write(n.kind() + " " + s.split("(")[0] + "\n")
                for b in n.blocks():
                    walk(b)
        walk(lm.graph)


main()
