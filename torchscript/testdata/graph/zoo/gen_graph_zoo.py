# Prints forward's graph of ../shared/models' traced archives (PyTorch 1.13)
# as PyTorch 2.6 loads them: ../../../../../shared/tools/torch2 gen_graph_zoo.py
import glob
import os

import torch

here = os.path.dirname(os.path.abspath(__file__))
models = os.path.join(here, "..", "..", "..", "..", "..", "shared", "models")
for pt in sorted(glob.glob(os.path.join(models, "*.traced.pt"))):
    lm = torch.jit.load(pt)
    name = os.path.basename(pt)[: -len(".traced.pt")]
    with open(os.path.join(here, name + ".graph.txt"), "w") as f:
        f.write(f"# PyTorch {torch.__version__}\n# graph\n{lm.graph}\n")
