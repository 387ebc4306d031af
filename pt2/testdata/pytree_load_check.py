"""torch_load_check.py for programs gofx exported with pytree inputs: it
registers the dataclass that pytree_torch2_test.go's Go struct Pair is
registered as (export.Register[Pair]("gofx_test.Pair")), so that
torch.export.load reads its in spec, then runs torch_load_check.

Usage: python3 pytree_load_check.py FILE.pt2 IO.json [FILE.pt2 IO.json ...]
"""
import dataclasses
import os
import sys
from typing import Optional

import torch


@dataclasses.dataclass
class Pair:
    a: Optional[torch.Tensor]
    b: Optional[torch.Tensor]
    scale: float


torch.export.register_dataclass(Pair, serialized_type_name="gofx_test.Pair")
# PyTorch 2.6's ep.module() flattens its inputs with torch.fx's pytree
# too, which needs the children of a Pair by the spec's context
# ([[child field names], [None field names]]); 2.14 no longer does.
torch.fx._pytree.register_pytree_flatten_spec(
    Pair, lambda obj, spec: [getattr(obj, f) for f in spec.context[0]])

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_load_check  # noqa: E402

if __name__ == "__main__":
    torch_load_check.main(sys.argv[1:])
