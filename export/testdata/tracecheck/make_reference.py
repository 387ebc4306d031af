# Makes loop_in_traced_fn.txt: what PyTorch's torch.jit.trace reports for
# the seed's "Automatic Trace Checking" example, with inputs of 1.5 (so
# the numbers are reproducible). Run: /work/shared/tools/torch2 make_reference.py
import warnings

import torch


def loop_in_traced_fn(x):
    result = x[0]
    for i in range(x.size(0)):
        result = result * x[i]
    return result


inputs = (torch.full((3, 4, 5), 1.5),)
check_inputs = [(torch.full((4, 5, 6), 1.5),), (torch.full((2, 3, 4), 1.5),)]
with open("loop_in_traced_fn.txt", "w") as f:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            torch.jit.trace(loop_in_traced_fn, inputs, check_inputs=check_inputs)
        except torch.jit.TracingCheckError as e:
            f.write(str(e).split("\tFirst diverging operator:")[0])
    for x in w:
        f.write("WARNING: " + str(x.message) + "\n")
