# Checks that PyTorch reads the .pt2 files gofx wrote: for each (ours, ref,
# mode) in the JSON file given, torch.export.load both, compare the
# programs' printed form and state, run both on their own example inputs,
# and compare the outputs bitwise (or the errors, where PyTorch cannot run
# its own file). Mode "close" is for ours holding another PyTorch's export
# of the same model (another IR): only the outputs are compared, to
# rounding. Prints one JSON object: {ours: {"ok": bool, "why": str}}.
import json
import sys

import torch
import torch.nn.functional as F
import torch.utils._pytree as pytree


# The custom operator of custom_op.pt2, as ../shared/pt2/gen_pt2.py defines it.
@torch.library.custom_op("gofxtest::scaled_softplus", mutates_args=())
def scaled_softplus(x: torch.Tensor, beta: float) -> torch.Tensor:
    return F.softplus(x * beta) / beta


@scaled_softplus.register_fake
def _(x, beta):
    return torch.empty_like(x)


def run(ep):
    args, kwargs = ep.example_inputs
    try:
        return pytree.tree_flatten(ep.module()(*args, **kwargs))[0], None
    except Exception as e:  # noqa: BLE001 - report what PyTorch raised
        return None, f"{type(e).__name__}: {e}"


def same(a, b):
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and a.shape == b.shape and torch.equal(a, b)
    return a == b


def close(ours, ref):
    oa, ea = run(torch.export.load(ours))
    ob, eb = run(torch.export.load(ref))
    if ea is not None or eb is not None:
        return ea == eb, f"errors: ours {ea!r}, PyTorch's {eb!r}"
    if len(oa) != len(ob):
        return False, f"{len(oa)} outputs, PyTorch's {len(ob)}"
    for x, y in zip(oa, ob):
        if isinstance(x, torch.Tensor):
            if not (isinstance(y, torch.Tensor) and x.shape == y.shape and torch.allclose(x, y, rtol=1e-5, atol=1e-6)):
                return False, "outputs differ"
        elif x != y:
            return False, f"outputs {x!r} != {y!r}"
    return True, "outputs equal to rounding"


def check(ours, ref):
    try:
        b = torch.export.load(ref)
    except Exception as e:  # noqa: BLE001
        # This PyTorch cannot read its own (older) file: ours must fail too.
        try:
            torch.export.load(ours)
        except Exception:  # noqa: BLE001
            return True, f"PyTorch fails on its own file too ({type(e).__name__})"
        return False, "PyTorch fails on its own file but reads ours"
    a = torch.export.load(ours)
    if str(a) != str(b):
        return False, "the programs print differently"
    sa, sb = a.state_dict, b.state_dict
    if list(sa) != list(sb):
        return False, f"state dict names {list(sa)} != {list(sb)}"
    for k in sa:
        if type(sa[k]) is not type(sb[k]) or not same(sa[k], sb[k]):
            return False, f"state dict entry {k} differs"
    if sorted(a.constants) != sorted(b.constants):
        return False, f"constants {sorted(a.constants)} != {sorted(b.constants)}"
    for k in a.constants:
        if not same(a.constants[k], b.constants[k]):
            return False, f"constant {k} differs"
    oa, ea = run(a)
    ob, eb = run(b)
    if ea is not None or eb is not None:
        return ea == eb, f"errors: ours {ea!r}, PyTorch's {eb!r}"
    if len(oa) != len(ob) or not all(same(x, y) for x, y in zip(oa, ob)):
        return False, "outputs differ"
    return True, "same program, state and outputs"


results = {}
for ours, ref, mode in json.load(open(sys.argv[1])):
    try:
        ok, why = close(ours, ref) if mode == "close" else check(ours, ref)
    except Exception as e:  # noqa: BLE001
        ok, why = False, f"{type(e).__name__}: {e}"
    results[ours] = {"ok": ok, "why": why}
print(json.dumps(results))
