# gen.py makes the reference prints of export/symlift_test.go: programs
# whose branch or body closes over an outer symbolic size, exported by
# PyTorch 2.14 (2.6 refuses them: UncapturedHigherOrderOpError), and their
# .pt2 files, copied into pt2/testdata/symlift for pt2's test.
#
#   TORCH2_SUITE=sid ../shared/tools/torch2 export/testdata/symlift/gen.py export/testdata/symlift
import torch, sys
from torch.export import Dim, export
class C(torch.nn.Module):
    def forward(self, x):
        n = x.shape[0]
        def t(y): return y + n
        def f(y): return y - n
        return torch.cond(x.sum() > 0, t, f, (x,))
class V(torch.nn.Module):
    def forward(self, x):
        n = x.shape[0]
        def t(y): return y.reshape(n, -1) + 1
        def f(y): return y.view(n, -1) * 2
        return torch.cond(x.sum() > 0, t, f, (x,))
class W(torch.nn.Module):
    def forward(self, i, x):
        n = x.shape[0]
        def c(i, y): return i < 3
        def b(i, y): return i + 1, y + n
        return torch._higher_order_ops.while_loop(c, b, (i, x))
class Mp(torch.nn.Module):
    def forward(self, xs):
        n = xs.shape[1]
        def body(x): return x + n
        return torch._higher_order_ops.map(body, xs)
for name, m, args, ds in [("cond_add", C(), (torch.randn(4,3),), {"x":{0:Dim("s")}}),
                          ("cond_view", V(), (torch.randn(4,3),), {"x":{0:Dim("s")}}),
                          ("while_add", W(), (torch.tensor(0), torch.randn(4,3)), {"i":None, "x":{0:Dim("s")}}),
                          ("map_add", Mp(), (torch.randn(2,4,3),), {"xs":{1:Dim("s")}})]:
    print("=====", name)
    try:
        ep = export(m, args, dynamic_shapes=ds)
    except Exception as e:
        print("ERR", type(e).__name__, str(e)[:300]); continue
    with open(f"{sys.argv[1]}/{name}.ep.txt", "w") as fh:
        fh.write(str(ep))
    torch.export.save(ep, f"{sys.argv[1]}/{name}.pt2")
