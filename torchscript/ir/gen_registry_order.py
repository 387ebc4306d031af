"""Writes registry_order.txt (go generate): every operator's qualified name in the order of
PyTorch's JIT operator registry (torch._C._jit_get_all_schemas()), the order in which TorchScript
tries the overloads of a name: PyTorch 2.14's, then the names only 2.6 has, then those only 1.13
has; made from ../../../shared/aten/registry_schemas_{2.14,2.6,1.13}.txt."""
seen, out = set(), []
for v in ["2.14", "2.6", "1.13"]:
    for line in open("../../../shared/aten/registry_schemas_%s.txt" % v):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name = line.split("(", 1)[0]
        if name not in seen:
            seen.add(name)
            out.append(name)
with open("registry_order.txt", "w") as f:
    f.write("# The operators' registry order (torch._C._jit_get_all_schemas()): PyTorch 2.14's, then the names\n")
    f.write("# only 2.6 has, then those only 1.13 has; gen_registry_order.py made it from ../shared/aten.\n")
    f.write("\n".join(out) + "\n")
