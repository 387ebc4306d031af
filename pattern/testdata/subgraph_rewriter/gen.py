"""Reference results for pattern's port of PyTorch's test/fx/test_subgraph_rewriter.py.

Runs each case of the PyTorch test file that translates to Go (the models,
patterns and replacements are copied from it) with torch.fx's replace_pattern
and writes, per case, the number of matches and the rewritten graph in a
normalized form that the Go test (../../subgraph_rewriter_test.go) computes
from gofx's graph the same way:

    == case name
    matches: N
    placeholder x()
    call_function neg(%0)
    ...

Nodes are numbered in graph order (%0, %1, ...), so names do not matter;
targets are the function or method name (torch.neg and aten.neg.default are
both "neg", operator.add is "add"), module and attribute paths; arguments are
the positional ones then the keyword values, flattened as torch.fx's matcher
flattens them. Extra lines "submodules: a, b" and "attrs: a, c" list the
GraphModule's direct children and tensor attributes where a case checks them.

Run from this directory with PyTorch 2.x (the golden file was made with 2.6:
../../../../shared/tools/torch2 gen.py); it writes ../subgraph_rewriter.golden.
PyTorch 1.13 (/usr/bin/python3 gen.py) lacks some APIs and, on Python 3.11,
cannot trace tuple unpacking: those cases come out as "error:" lines. The Go
tests never need PyTorch.
"""
import operator
import os

import torch
from torch.fx import subgraph_rewriter, symbolic_trace


@torch.fx.wrap
def wrapped_gemm_bias_mul(a, b, bias):
    lin_res = torch.nn.functional.linear(a, b, bias=bias)
    mul_res = lin_res * a
    return lin_res, mul_res


@torch.fx.wrap
def wrapped_gemm_bias_mul_with_c(a, b, bias, c):
    lin_res = torch.nn.functional.linear(a, b, bias=bias)
    mul_res = lin_res * c
    return lin_res, mul_res


def target_name(n):
    t = n.target
    if n.op != "call_function":
        return str(t)
    if isinstance(t, torch._ops.OpOverload):
        return t._schema.name.split("::")[-1]
    name = getattr(t, "__name__", str(t))
    return {"iadd": "add", "getitem": "getitem"}.get(name, name)


def fmt(a, ids):
    if isinstance(a, torch.fx.Node):
        return "%" + str(ids[a])
    if isinstance(a, (list, tuple)):
        return "[" + ", ".join(fmt(e, ids) for e in a) + "]"
    if isinstance(a, bool) or a is None:
        return str(a)
    if isinstance(a, float):
        return repr(a)
    if isinstance(a, torch.dtype):
        return str(a)
    if isinstance(a, str):
        return repr(a)
    return str(a)


def normalize(gm):
    ids = {}
    lines = []
    for n in gm.graph.nodes:
        ids[n] = len(ids)
        args = list(n.args) + list(n.kwargs.values())
        if n.op == "output":
            lines.append("output(" + ", ".join(fmt(a, ids) for a in args) + ")")
            continue
        lines.append("%s %s(%s)" % (n.op, target_name(n), ", ".join(fmt(a, ids) for a in args)))
    return lines


CASES = []


def case(fn):
    CASES.append(fn)
    return fn


def run(name, traced, pattern, replacement, extra=()):
    matches = subgraph_rewriter.replace_pattern(traced, pattern, replacement)
    traced.graph.lint()
    return name, len(matches), normalize(traced) + list(extra)


@case
def preserves_logic():
    class M(torch.nn.Module):
        def forward(self, x):
            val = torch.neg(x) + torch.relu(x)
            return torch.add(val, val)

    def pattern(x):
        return torch.neg(x) + torch.relu(x)

    return run("preserves_logic", symbolic_trace(M()), pattern, pattern)


@case
def with_oneliner_pattern():
    class M(torch.nn.Module):
        def forward(self, x):
            val = torch.neg(x)
            return torch.add(val, val)

    def pattern(x):
        return torch.neg(x)

    def replacement(x):
        return torch.relu(x)

    return run("with_oneliner_pattern", symbolic_trace(M()), pattern, replacement)


@case
def single_pattern_match():
    class M(torch.nn.Module):
        def forward(self, x):
            val = torch.neg(x) + torch.relu(x)
            return torch.add(val, val)

    def pattern(x):
        return torch.neg(x) + torch.relu(x)

    def replacement(x):
        return torch.relu(x)

    return run("single_pattern_match", symbolic_trace(M()), pattern, replacement)


@case
def multiple_pattern_match():
    class M(torch.nn.Module):
        def forward(self, x, w1, w2):
            m1 = torch.cat([w1, w2]).sum()
            m2 = torch.cat([w1, w2]).sum()
            return x + torch.max(m1) + torch.max(m2)

    def pattern(w1, w2):
        return torch.cat([w1, w2]).sum()

    def replacement(w1, w2):
        return torch.stack([w1, w2])

    return run("multiple_pattern_match", symbolic_trace(M()), pattern, replacement)


@case
def graph_argument_order():
    class M(torch.nn.Module):
        def forward(self, x, y):
            return torch.mm(x, y)

    def pattern(x, y):
        return torch.mm(x, y)

    return run("graph_argument_order", symbolic_trace(M()), pattern, pattern)


@case
def correct_output_replacement():
    class M(torch.nn.Module):
        def forward(self, x, y):
            val = torch.neg(y) + torch.relu(x)
            return torch.add(val, val)

    def pattern(x):
        return torch.relu(x)

    def replacement(x):
        return torch.neg(x)

    return run("correct_output_replacement", symbolic_trace(M()), pattern, replacement)


@case
def traced_as_callable():
    class M(torch.nn.Module):
        def forward(self, x):
            val = torch.neg(x) + torch.relu(x)
            return torch.add(val, val)

    class Pattern(torch.nn.Module):
        def forward(self, x):
            return torch.neg(x) + torch.relu(x)

    class Replacement(torch.nn.Module):
        def forward(self, x):
            return torch.sigmoid(x)

    return run("traced_as_callable", symbolic_trace(M()), symbolic_trace(Pattern()),
               symbolic_trace(Replacement()))


@case
def pattern_is_entire_graph():
    class M(torch.nn.Module):
        def forward(self, x):
            a = torch.neg(x)
            return torch.add(a, a)

    def pattern(x):
        a = torch.neg(x)
        return torch.add(a, a)

    def replacement(x):
        a = torch.sigmoid(x)
        return torch.cat([a, a])

    return run("pattern_is_entire_graph", symbolic_trace(M()), pattern, replacement)


@case
def pattern_output_pattern_node_can_have_users_that_are_not_matched():
    class M(torch.nn.Module):
        def forward(self, x):
            y = torch.relu(x)
            return torch.neg(y) - y

    def pattern(x):
        return torch.relu(x)

    def replacement(x):
        return torch.sigmoid(x)

    return run("pattern_output_pattern_node_can_have_users_that_are_not_matched",
               symbolic_trace(M()), pattern, replacement)


@case
def internal_pattern_nodes_cannot_have_users_that_are_not_matched():
    class M(torch.nn.Module):
        def forward(self, x, w1, w2, b1, b2):
            m0 = torch.cat([w1, w2])  # noqa: F841
            m1 = torch.cat([w1, w2])
            m2 = torch.cat([x, b2])
            t0 = torch.addmm(b1, m1, m2.t())  # noqa: F841
            t1 = torch.sum(w1, 1)
            t2 = torch.addmm(b1, m1, m2.t())
            return torch.sum(t1), torch.sum(t2)

    def pattern(x, w1, w2, b1, b2):
        m1 = torch.cat([w1, w2])
        m2 = torch.cat([x, b2])
        return torch.addmm(b1, m1, m2.t())

    def replacement(x, w1, w2, b1, b2):
        return torch.cat([x, w1, w2])

    return run("internal_pattern_nodes_cannot_have_users_that_are_not_matched",
               symbolic_trace(M()), pattern, replacement)


@case
def placeholder_matching():
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.dtype = torch.float16

        def forward(self, x):
            x += 3
            x = x.dequantize()
            x = torch.sigmoid(x)
            dtype = self.dtype
            x = x.to(dtype)
            return x

    def pattern(x):
        x = x.dequantize()
        x = torch.sigmoid(x)
        x = x.to(torch.float16)
        return x

    def replacement(x):
        return x

    return run("placeholder_matching", symbolic_trace(M()), pattern, replacement)


def children(gm):
    return "submodules: " + ", ".join("%s=%s" % (k, type(v).__name__) for k, v in gm.named_children())


@case
def replaces_referenced_submodules():
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.sigmoid = torch.nn.Sigmoid()
            self.submod = torch.nn.ReLU()

        def forward(self, x):
            x = x + 1
            return self.submod(self.sigmoid(x))

    class Pattern(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.sigmoid = torch.nn.Sigmoid()
            self.submod = torch.nn.ReLU()

        def forward(self, x):
            return self.submod(self.sigmoid(x))

    class Replacement(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.tanh = torch.nn.Tanh()
            self.submod = torch.nn.ReLU()

        def forward(self, x):
            return self.submod(self.tanh(x))

    traced = symbolic_trace(M())
    name, n, lines = run("replaces_referenced_submodules", traced, Pattern(), Replacement())
    return name, n, lines + [children(traced)]


@case
def replace_consecutive_submodules():
    def f(x):
        x = torch.sigmoid(x)
        x = torch.sigmoid(x)
        return torch.sigmoid(x)

    def pattern(x):
        return torch.sigmoid(x)

    def replacement(x):
        return torch.exp(x)

    return run("replace_consecutive_submodules", symbolic_trace(f), pattern, replacement)


@case
def with_overlapping_matches():
    def f(x):
        x = torch.sigmoid(x)
        x = torch.sigmoid(x)
        x = torch.sigmoid(x)
        return torch.sigmoid(x)

    def pattern(x):
        x = torch.sigmoid(x)
        x = torch.sigmoid(x)
        return x

    def replacement(x):
        return torch.neg(x)

    return run("with_overlapping_matches", symbolic_trace(f), pattern, replacement)


@case
def replace_with_multiple_outputs():
    def f(x):
        y = torch.sigmoid(x)
        z = torch.relu(x)
        return y + z

    def pattern(a):
        b = torch.sigmoid(a)
        c = torch.relu(a)
        return b, c

    def replacement(x):
        return torch.exp(x), torch.abs(x)

    return run("replace_with_multiple_outputs", symbolic_trace(f), pattern, replacement)


@case
def replace_with_duplicated_outputs():
    def f(x1, x2):
        x = x1 - x2
        y = torch.sigmoid(x)
        z = torch.relu(x)
        return y + z

    def pattern(a1, a2):
        a = a1 - a2
        b = torch.sigmoid(a)
        c = torch.relu(a)
        return b, c, a

    def replacement(x1, x2):
        y1 = torch.exp(x1)
        y2 = torch.abs(x2)
        return y2, y2, y1

    return run("replace_with_duplicated_outputs", symbolic_trace(f), pattern, replacement)


@case
def with_unused_args():
    class M(torch.nn.Module):
        def forward(self, x, y, z):
            return x + y

    def pattern(x, y):
        return x + y

    def replacement(x, y):
        return x - y

    return run("with_unused_args", symbolic_trace(M()), pattern, replacement)


@case
def call_method():
    class M(torch.nn.Module):
        def forward(self, x):
            x = x.dequantize()
            x = x.sigmoid()
            x = x.to(torch.float16)
            return x

    def pattern(x):
        x = x.dequantize()
        x = x.sigmoid()
        x = x.to(torch.float16)
        return x

    def replacement(x):
        return x

    return run("call_method", symbolic_trace(M()), pattern, replacement)


@case
def nodes_with_kwargs():
    class M(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w0 = torch.nn.Parameter(torch.empty([128, 128]))
            self.b0 = torch.nn.Parameter(torch.empty([128]))

        def forward(self, in0):
            lin_res = torch.nn.functional.linear(in0, self.w0, bias=self.b0)
            mul_res = in0 * lin_res
            sum_res = mul_res + in0
            return sum_res

    def pattern(a, b, bias):
        lin_res = torch.nn.functional.linear(a, b, bias=bias)
        mul_res = a * lin_res
        return lin_res, mul_res

    def replacement(a, b, bias):
        lin_res, mul_res = wrapped_gemm_bias_mul(a, b, bias)
        return lin_res, mul_res

    return run("nodes_with_kwargs", symbolic_trace(M()), pattern, replacement)


@case
def local_revert():
    class M(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            for i in range(5):
                setattr(self, "w%d" % i, torch.nn.Parameter(torch.empty([128, 128])))
                setattr(self, "b%d" % i, torch.nn.Parameter(torch.empty([128])))

        def forward(self, in0, in1):
            lin_res_1 = torch.nn.functional.linear(in1, self.w0, bias=self.b0)
            lin_res_2 = torch.nn.functional.linear(lin_res_1, self.w1, bias=self.b1)
            mul_res_1 = in1 * lin_res_2
            sum_res_1 = mul_res_1 + in1
            lin_res_3 = torch.nn.functional.linear(sum_res_1, self.w2, bias=self.b2)
            sigmoid_res_1 = torch.sigmoid(lin_res_3)
            mul_res_2 = lin_res_3 * sigmoid_res_1
            lin_res_4 = torch.nn.functional.linear(in0, self.w3, bias=self.b3)
            lin_res_5 = torch.nn.functional.linear(lin_res_4, self.w4, bias=self.b4)
            mul_res_3 = in0 * lin_res_5
            sum_res_2 = mul_res_3 + in0
            cat_res = torch.cat([mul_res_2, sum_res_2], dim=1)
            return cat_res

    def gemm_bias_mul_pattern_with_c(a, b, bias, c):
        lin_res = torch.nn.functional.linear(a, b, bias=bias)
        mul_res = c * lin_res
        return lin_res, mul_res

    def gemm_bias_mul_replacement_with_c(a, b, bias, c):
        lin_res, mul_res = wrapped_gemm_bias_mul_with_c(a, b, bias, c)
        return lin_res, mul_res

    return run("local_revert", symbolic_trace(M()), gemm_bias_mul_pattern_with_c,
               gemm_bias_mul_replacement_with_c)


class FiltersM(torch.nn.Module):
    def forward(self, x, scale, zero_point):
        x = x.dequantize()
        x = torch.add(x, 2)
        x = x.relu()
        x = torch.quantize_per_tensor(x, scale, zero_point, torch.quint8)

        y = x + 1
        x = x.dequantize()
        x = torch.add(x, y)
        x = x.relu()
        x = torch.quantize_per_tensor(x, scale, zero_point, torch.quint8)
        return x


def BinaryOpScalarReLUPattern(x, num, scale, zero_point):
    x = x.dequantize()
    x = torch.add(x, num)
    x = x.relu()
    x = torch.quantize_per_tensor(x, scale, zero_point, torch.quint8)
    return x


def BinaryOpScalarReLUReplacement(x, num, scale, zero_point):
    x = torch.mul(x, num)
    return x


def second_input_is_scalar(match, original_graph, pattern_graph):
    input_idx = 0
    for node in pattern_graph.nodes:
        if node.op == "placeholder":
            if input_idx == 1:
                num_node = node
            input_idx += 1
    return isinstance(match.nodes_map[num_node], (int, float))


@case
def replace_pattern_with_filters_none():
    if not hasattr(subgraph_rewriter, "replace_pattern_with_filters"):
        return None
    traced = symbolic_trace(FiltersM())
    matches = subgraph_rewriter.replace_pattern_with_filters(
        traced, BinaryOpScalarReLUPattern, BinaryOpScalarReLUReplacement, None)
    traced.graph.lint()
    return "replace_pattern_with_filters_none", len(matches), normalize(traced)


@case
def replace_pattern_with_filters_scalar():
    if not hasattr(subgraph_rewriter, "replace_pattern_with_filters"):
        return None
    traced = symbolic_trace(FiltersM())
    matches = subgraph_rewriter.replace_pattern_with_filters(
        traced, BinaryOpScalarReLUPattern, BinaryOpScalarReLUReplacement, [second_input_is_scalar])
    traced.graph.lint()
    return "replace_pattern_with_filters_scalar", len(matches), normalize(traced)


@case
def matching_pattern_with_list_type_arg():
    if not hasattr(torch.ops.aten, "_reshape_alias_copy"):
        return None

    class M(torch.nn.Module):
        def forward(self, x):
            return torch.ops.aten._reshape_alias_copy.default(x, [1, 2], [3, 4])

    def pattern(x, arg0, arg1):
        return torch.ops.aten._reshape_alias_copy.default(x, arg0, arg1)

    def replacement(x, arg0, arg1):
        return torch.ops.aten._reshape_alias_copy.default(x, arg1, arg0)

    return run("matching_pattern_with_list_type_arg", symbolic_trace(M()), pattern, replacement)


@case
def replacement_with_attrs():
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = torch.tensor([1])
            self.b = torch.tensor([2])

        def forward(self, x):
            return x + self.a - self.b

    class Pattern(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = torch.tensor([1])

        def forward(self, x):
            return x + self.a

    class Replacement(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.c = torch.tensor([3])

        def forward(self, x):
            return x - self.c

    traced = symbolic_trace(M())
    name, n, lines = run("replacement_with_attrs", traced, Pattern(), Replacement())
    attrs = sorted(k for k in ("a", "b", "c") if isinstance(getattr(traced, k, None), torch.Tensor))
    return name, n, lines + ["attrs: " + ", ".join(attrs)]


@case
def matching_variable_arguments():
    class M(torch.nn.Module):
        def forward(self, x):
            return torch.ops.aten.max_pool2d_with_indices.default(x, [2, 2], stride=[2, 2])

    def pattern(x, kernel_size, stride):
        # default padding is [0, 0]
        return torch.ops.aten.max_pool2d_with_indices.default(x, kernel_size, stride, padding=[0, 0])

    return run("matching_variable_arguments", symbolic_trace(M()), pattern, pattern)


@case
def replaced_nodes():
    class M(torch.nn.Module):
        def forward(self, x, y):
            return torch.add(x, y)

    def pattern(x, y):
        return torch.add(x, y)

    def replacement(x, y):
        return torch.sub(torch.mul(x, y), y)

    traced = symbolic_trace(M())
    matches = subgraph_rewriter.replace_pattern_with_filters(traced, pattern, replacement)
    traced.graph.lint()
    ids = {n: i for i, n in enumerate(traced.graph.nodes)}
    repl = ["replacements: " + ", ".join("%" + str(ids[r]) for m in matches for r in m.replacements)]
    return "replaced_nodes", len(matches), normalize(traced) + repl


def main():
    out = ["# torch %s: generated by gen.py; do not edit" % torch.__version__]
    for fn in CASES:
        try:
            r = fn()
        except Exception as e:  # torch 1.13 on Python 3.11 cannot trace tuple unpacking
            out.append("== " + fn.__name__)
            out.append("error: %s" % type(e).__name__)
            continue
        if r is None:
            continue
        name, n, lines = r
        out.append("== " + name)
        out.append("matches: %d" % n)
        out.extend(lines)
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "subgraph_rewriter.golden"), "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
