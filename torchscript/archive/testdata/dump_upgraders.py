# Writes PyTorch's operator upgrader table (torch/csrc/jit/operator_upgraders:
# version_map.cpp and upgraders_entry.cpp, as the running PyTorch holds them)
# as JSON, for the Go test that checks the archive package's Upgraders table:
#
#   ../shared/tools/torch2 dump_upgraders.py upgraders_2.6.json
#   TORCH2_SUITE=sid ../shared/tools/torch2 dump_upgraders.py upgraders_2.14.json
import json
import sys

import torch

entries = torch._C._get_upgraders_entry_map()
rows = []
for op, ups in sorted(torch._C._get_operator_version_map().items()):
    for e in ups:
        rows.append({"op": op, "before": e.bumped_at_version, "name": e.upgrader_name,
                     "old_schema": e.old_schema, "source": entries[e.upgrader_name]})
out = {"torch": torch.__version__, "max_operator_version": torch._C._get_max_operator_version(), "upgraders": rows}
with open(sys.argv[1], "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
