"""Checks that torch.load reads a state dict gofx's nn.Save wrote.

usage: check_module_save.py GOFX_FILE REFERENCE_FILE

Loads both with torch.load(weights_only=True) and requires the same keys in
the same order, dtypes, shapes and values. Prints OK on success.
"""
import sys

import torch

got = torch.load(sys.argv[1], weights_only=True)
want = torch.load(sys.argv[2], weights_only=True)
assert list(got.keys()) == list(want.keys()), (list(got.keys()), list(want.keys()))
for k in want:
    g, w = got[k], want[k]
    assert g.dtype == w.dtype and g.shape == w.shape, (k, g.dtype, g.shape, w.dtype, w.shape)
    assert torch.equal(g, w), k
m = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 10))
m.load_state_dict(got)  # strict
print("OK", len(got), "tensors")
