# gen.py: PyTorch's reference for data-dependent sizes inside cond branches,
# map bodies and while_loop bodies, and for a cond whose branches differ in
# a size. Run with ../shared/tools/torch2 (2.6) and TORCH2_SUITE=sid (2.14):
#
#   ../../../../shared/tools/torch2 gen.py            # NAME.ep.json for 2.6
#   TORCH2_SUITE=sid ../../../../shared/tools/torch2 gen.py   # NAME.2.14.ep.json
#
# Each NAME.ep.json holds, for the exported program ("program") and after
# run_decompositions ("core"): node count of the root graph, operator counts
# over every graph, the call_function targets of each graph in order, the
# range constraints, and the output's shape as PyTorch prints it; a program
# PyTorch refuses has "error" instead.
import collections, json, math, sys
import torch
import torch._dynamo
from torch.export import export, Dim
from torch._higher_order_ops.map import map as tmap
from torch._higher_order_ops.while_loop import while_loop

torch._dynamo.config.capture_scalar_outputs = True
torch._dynamo.config.capture_dynamic_output_shape_ops = True
V = torch.__version__.split("+")[0]
SUFFIX = "" if V.startswith("2.6") else "." + ".".join(V.split(".")[:2])


def name_of(t):
    if isinstance(t, torch._ops.OpOverload):
        return f"{t.namespace}.{t._opname}.{t._overloadname}"
    if hasattr(t, "name") and callable(t.name):
        return str(t.name())
    return str(t)


def graphs(gm):
    out = {}
    for name, mod in gm.named_modules():
        if isinstance(mod, torch.fx.GraphModule):
            out[name or "<root>"] = [name_of(n.target) for n in mod.graph.nodes if n.op == "call_function"]
    return out


def val(n):
    v = n.meta.get("val")
    if isinstance(v, torch.Tensor):
        return [str(d) for d in v.shape]
    return str(v)


def structure(ep):
    c = collections.Counter()
    for ts in graphs(ep.graph_module).values():
        c.update(ts)
    rc = {str(k): [int(v.lower) if v.lower != -math.inf else None,
                   int(v.upper) if str(v.upper) not in ("oo", "int_oo", "inf") else None]
          for k, v in ep.range_constraints.items()}
    outs = list(ep.graph.nodes)[-1].args[0]
    return {"nodes": len(ep.graph.nodes), "op_counts": dict(sorted(c.items())),
            "graphs": graphs(ep.graph_module), "range_constraints": rc,
            "outputs": [val(o) for o in outs],
            "placeholders": {name or "<root>": [n.name for n in mod.graph.nodes if n.op == "placeholder"]
                             for name, mod in ep.graph_module.named_modules()
                             if isinstance(mod, torch.fx.GraphModule)}}


class CondNonzero(torch.nn.Module):
    def forward(self, x):
        def t(x): return x.nonzero().sum(0, keepdim=True).float()
        def f(x): return (x + 1).nonzero().sum(0, keepdim=True).float()
        return torch.cond(x.sum() > 0, t, f, (x,))


class MapItem(torch.nn.Module):
    def forward(self, xs, n):
        def body(x, n):
            k = n.item()
            torch._check_is_size(k)
            torch._check(k <= 3)
            return x[:k].sum(0, keepdim=True)
        return tmap(body, xs, n)


class WhileNonzero(torch.nn.Module):
    def forward(self, i, x):
        def c(i, x): return i < 3
        def b(i, x):
            k = (x > 0).nonzero().shape[0]
            return i + 1, x + k
        return while_loop(c, b, (i, x))


class CondDiff(torch.nn.Module):
    def forward(self, x):
        def t(x): return x[:2].clone()
        def f(x): return x[:3].clone()
        return torch.cond(x.sum() > 0, t, f, (x,))


class CondDiffSym(torch.nn.Module):
    def forward(self, x):
        def t(x): return x.sin()
        def f(x): return x[1:].cos()
        return torch.cond(x.shape[0] > 4, t, f, (x,))


class MapTuple(torch.nn.Module):
    def forward(self, a, b, y):
        def body(xs, y):
            p, q = xs
            return p * q + y
        return tmap(body, (a, b), y)


class CheckExpr(torch.nn.Module):
    def forward(self, x, k):
        n = k.item()
        torch._check_is_size(n)
        torch._check(n + 1 <= x.shape[0])
        return x[:n + 1].sum(0)


PROGRAMS = [
    ("check_expr", CheckExpr(), (torch.ones(6, 3), torch.tensor(2)), {"x": {0: Dim("b", min=2, max=64)}, "k": None}),
    ("map_tuple", MapTuple(), (torch.ones(3, 4), torch.arange(12.).reshape(3, 4), torch.ones(4)), None),
    ("cond_nonzero", CondNonzero(), (torch.tensor([1., 0., 2.]),), None),
    ("map_item", MapItem(), (torch.ones(2, 3), torch.tensor(2)), None),
    ("while_nonzero", WhileNonzero(), (torch.tensor(0), torch.tensor([1., -1., 2.])), None),
    ("cond_diff", CondDiff(), (torch.ones(4, 3),), None),
    ("cond_diff_sym", CondDiffSym(), (torch.ones(6, 3),), {"x": {0: Dim("d", min=4, max=100)}}),
]

for name, m, args, dyn in PROGRAMS:
    doc = {"torch": torch.__version__}
    try:
        res = torch.utils._pytree.tree_leaves(m(*args))
        doc["outputs_eager"] = [list(o.shape) for o in res]
        doc["outputs_eager_values"] = [o.flatten().tolist() for o in res]
    except Exception as e:  # 2.6's eager map_item fails its own _check
        doc["eager_error"] = f"{type(e).__name__}: {str(e).splitlines()[0]}"
    try:
        ep = export(m, args, dynamic_shapes=dyn, strict=False)
        doc["program"] = structure(ep)
        doc["core"] = structure(ep.run_decompositions())
    except Exception as e:
        doc["error"] = f"{type(e).__name__}: {str(e).splitlines()[0]}"
    with open(f"{name}{SUFFIX}.ep.json", "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(name, "error" in doc and doc["error"] or "ok")
