"""Makes types.txt with PyTorch (../../../../shared/tools/torch2 gen_types.py): for each type of
TYPES, read by PyTorch's IR parser (torch._C.parse_ir on a graph with an input of that type):

    type  TAB  TEXT  TAB  how print(graph) writes it  TAB  annotation_str  TAB  str()
    sub   TAB  A  TAB  B  TAB  A.isSubtypeOf(B)
    unify TAB  A  TAB  B  TAB  torch._C.unify_type_list([A, B]) as print(graph) writes it, or ERROR
"""
import torch

TYPES = ["int", "float", "complex", "bool", "str", "NoneType", "Tensor", "Scalar", "Device", "Any",
         "int[]", "float[]", "Tensor[]", "Tensor?", "int[]?", "Tensor?[]", "Dict(str, int)",
         "Dict(str, Tensor[])?", "(Tensor, int)", "()", "(int, (str, float))", "Union(int, str)",
         "Union(int, str, NoneType)", "Union(str, int?)", "Union(int, NoneType)", "Union(NoneType, int)", "Union(float, Tensor, int?)", "Union(Tensor, int)", "Union(str, Tensor)", "Future(int)", "ScalarType", "Layout", "MemoryFormat",
         "Generator", "Storage", "Stream", "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)",
         "Long(requires_grad=0, device=cpu)", "Float(*, 3, requires_grad=0, device=cpu)", "Float()",
         "Double(2, 3)", "Int(4, 2, strides=[2, 1], requires_grad=0, device=cpu)", "Tensor(*, *)",
         "FloatTensor", "Float(2, strides=[1], requires_grad=0, device=cpu)"]

SUB = [("int", "Scalar"), ("float", "Scalar"), ("bool", "Scalar"), ("complex", "Scalar"), ("NoneType", "Tensor?"),
       ("Tensor", "Tensor?"), ("int", "Tensor?"), ("Tensor?", "Tensor"), ("int", "Any"), ("Tensor[]", "Any"),
       ("(int, Tensor)", "(Scalar, Tensor?)"), ("(int, Tensor)", "(Scalar)"), ("int[]", "Scalar[]"),
       ("int[]", "int[]"), ("Dict(str, int)", "Dict(str, Scalar)"),
       ("Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)", "Tensor"), ("Tensor", "Float(2, 3)"),
       ("Union(int, str)", "Union(str, int, float)"), ("int", "Union(int, str)"), ("Tensor?", "Union(Tensor, NoneType)"),
       ("ScalarType", "int"), ("int", "ScalarType"), ("Float(2, 3)", "Float(*, 3)"), ("Float(*, 3)", "Float(2, 3)"),
       ("Union(int, NoneType)", "int?"), ("int?", "Union(int, str, NoneType)"), ("Future(int)", "Future(Scalar)")]

UNIFY = [("int", "int"), ("NoneType", "Tensor"), ("Tensor", "NoneType"), ("Tensor?", "Tensor"), ("Tensor", "Tensor?"),
         ("Float(2, 3)", "Float(2, 4)"), ("Float(2, 3)", "Long(2, 3)"), ("Float(2, 3)", "Float(2, 3, 4)"),
         ("(int, NoneType)", "(int, Tensor)"), ("int", "Scalar"), ("int", "str"), ("int[]", "float[]"),
         ("Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)", "Float(2, 3, strides=[1, 2], requires_grad=0, device=cpu)"),
         ("int?", "NoneType"), ("NoneType", "NoneType"), ("Tensor[]", "Float(2)[]"), ("int", "float"), ("int?", "str"), ("Union(int, str)", "NoneType")]


def parse(text):
    g = torch._C.parse_ir("graph(%%x : %s):\n  return (%%x)\n" % text)
    return next(g.inputs()).type(), str(g).split("\n")[0][len("graph(%x : "):-2]


def printed(t):
    g = torch._C.Graph()
    v = g.addInput()
    v.setType(t)
    v.setDebugName("x")
    return str(g).split("\n")[0][len("graph(%x : "):-2]


lines = ["# made by gen_types.py with PyTorch %s" % torch.__version__]
for s in TYPES:
    try:
        t, p = parse(s)
    except Exception as e:
        lines.append("type\t%s\tERROR" % s)
        continue
    lines.append("type\t%s\t%s\t%s\t%s" % (s, p, t.annotation_str, t.str()))
for a, b in SUB:
    lines.append("sub\t%s\t%s\t%s" % (a, b, parse(a)[0].isSubtypeOf(parse(b)[0])))
for a, b in UNIFY:
    try:
        u = printed(torch._C.unify_type_list([parse(a)[0], parse(b)[0]]))
    except Exception:
        u = "ERROR"
    lines.append("unify\t%s\t%s\t%s" % (a, b, u))
open("types.txt", "w").write("\n".join(lines) + "\n")
