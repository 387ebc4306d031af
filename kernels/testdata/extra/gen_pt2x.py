#!/usr/bin/python3
"""Extra conformance cases for the operators PyTorch 1.13 lacks that
torch.export programs of PyTorch 2.x call (kernels/attention.go,
constraints.go, normalization.go, triangular.go): scaled_dot_product_attention
and its math and CPU-flash forms, _safe_softmax, the functional batch norms,
tril/triu and the runtime assertions.

Writes aten.<op>.<overload>.jsonl beside this script, in the format of
testdata/conformance/README.md, with PyTorch 2.6 (the schemas are 2.6's):

    cd kernels/testdata/extra && ../../../../shared/tools/torch2 gen_pt2x.py
"""

import os

import torch

import confgen
from confgen import F, write_all

torch.set_num_threads(1)
A = torch.ops.aten
OUT = os.path.dirname(os.path.abspath(__file__))
f32, f64, bf16, b8, i64 = torch.float32, torch.float64, torch.bfloat16, torch.bool, torch.int64
inf = float("inf")

confgen.TOL["exact"] = {f32: (0.0, 0.0), f64: (0.0, 0.0), bf16: (0.0, 0.0)}
# The CPU flash kernel PyTorch runs for 4-d inputs rounds its blockwise
# softmax differently from the math backend gofx computes.
confgen.TOL["attn"] = {f32: (1e-5, 1e-6), f64: (1e-12, 1e-12), bf16: (1.6e-2, 1e-2)}
confgen.TOL["acc"][f32] = (1e-5, 1e-6)
confgen.TOL["ew"] = {f32: (1.3e-6, 1e-5), f64: (1e-7, 1e-7), bf16: (1.6e-2, 1e-5)}


def R(*shape, dt=f32):
    return torch.randn(shape, dtype=f64).to(dt)


f = F(A._safe_softmax.default, "attn")
f.case("rows, one all -inf", lambda: ([torch.tensor([[1.0, 2.0, -inf], [-inf, -inf, -inf]]), -1], {}))
f.case("dim 0 float64", lambda: ([R(3, 2, dt=f64), 0], {}))
f.case("dtype float64", lambda: ([R(2, 4), 1, f64], {}))

f = F(A.scaled_dot_product_attention.default, "attn")
f.case("4-d", lambda: ([R(2, 3, 4, 8), R(2, 3, 5, 8), R(2, 3, 5, 6)], {}))
f.case("float mask broadcast", lambda: ([R(1, 2, 3, 4), R(1, 2, 5, 4), R(1, 2, 5, 4), R(3, 5)], {}))
f.case("bool mask", lambda: ([R(1, 2, 4, 4), R(1, 2, 4, 4), R(1, 2, 4, 4),
                              torch.tensor([[True, False, True, True]] * 4)], {}))
f.case("causal", lambda: ([R(2, 1, 5, 4), R(2, 1, 5, 4), R(2, 1, 5, 3), None, 0.0, True], {}))
f.case("causal L < S", lambda: ([R(1, 2, 3, 4), R(1, 2, 6, 4), R(1, 2, 6, 4), None, 0.0, True], {}))
f.case("scale", lambda: ([R(1, 1, 3, 4), R(1, 1, 3, 4), R(1, 1, 3, 4)], {"scale": 0.3}))
f.case("3-d", lambda: ([R(2, 3, 4), R(2, 5, 4), R(2, 5, 4)], {}))
f.case("float64", lambda: ([R(1, 2, 3, 4, dt=f64), R(1, 2, 3, 4, dt=f64), R(1, 2, 3, 4, dt=f64)], {}))
f.case("causal and a mask", lambda: ([R(1, 2, 4, 4), R(1, 2, 4, 4), R(1, 2, 4, 4), R(4, 4), 0.0, True], {}))
f.case("gqa", lambda: ([R(1, 4, 3, 4), R(1, 2, 3, 4), R(1, 2, 3, 4)], {"enable_gqa": True}))

f = F(A._scaled_dot_product_attention_math.default, "attn")
f.case("weights too", lambda: ([R(1, 2, 3, 4), R(1, 2, 5, 4), R(1, 2, 5, 4)], {}))
f.case("float mask, scale", lambda: ([R(2, 3, 4), R(2, 3, 4), R(2, 3, 4), R(3, 3)], {"scale": 0.7}))
f.case("causal", lambda: ([R(1, 1, 4, 2), R(1, 1, 4, 2), R(1, 1, 4, 2), None, 0.0, True], {}))

f = F(A._scaled_dot_product_flash_attention_for_cpu.default, "attn")
f.case("4-d", lambda: ([R(1, 2, 3, 4), R(1, 2, 5, 4), R(1, 2, 5, 4)], {}))
f.case("causal", lambda: ([R(2, 1, 4, 4), R(2, 1, 4, 4), R(2, 1, 4, 4), 0.0, True], {}))
f.case("mask", lambda: ([R(1, 1, 3, 4), R(1, 1, 3, 4), R(1, 1, 3, 4)], {"attn_mask": R(3, 3)}))


def bn(c=3, train=True):
    return [R(2, c, 4), R(c), R(c), R(c), R(c).abs() + 0.5, train, 0.1, 1e-5]


f = F(A._native_batch_norm_legit_functional.default, "acc")
f.case("training", lambda: (bn(), {}))
f.case("eval", lambda: (bn(train=False), {}))

f = F(A._batch_norm_with_update_functional.default, "acc")
f.case("updates copies", lambda: (bn()[:5] + [0.1, 1e-5], {}))

f = F(A._batch_norm_no_update.default, "acc")
f.case("running stats", lambda: (bn()[:5] + [0.1, 1e-5], {}))

f = F(A.tril.default, "exact")
f.case("3x4", lambda: ([R(3, 4)], {}))
f.case("batched, diagonal 1", lambda: ([R(2, 3, 3), 1], {}))
f.case("bool, diagonal -1", lambda: ([torch.ones(3, 5, dtype=b8), -1], {}))

f = F(A.triu.default, "exact")
f.case("4x3", lambda: ([R(4, 3)], {}))
f.case("int64, diagonal 2", lambda: ([torch.arange(20).reshape(4, 5), 2], {}))

f = F(A._assert_scalar.default, "exact")
f.case("true int", lambda: ([3, "must hold"], {}))
f.case("true bool", lambda: ([True, "must hold"], {}))

f = F(A._assert_async.msg, "exact")
f.case("nonzero", lambda: ([torch.tensor(2.0), "positive"], {}))

f = F(A.sym_constrain_range_for_size.default, "exact")
f.case("in range", lambda: ([5], {"min": 2, "max": 10}))
f.case("no bounds", lambda: ([0], {}))

f = F(A.sym_constrain_range.default, "exact")
f.case("negative allowed", lambda: ([-3], {"min": -5}))

f = F(A._functional_assert_scalar.default, "exact")
f.case("token cloned", lambda: ([1, "ok", torch.empty(0)], {}))

# _make_dep_token is at::empty({}): its one element is uninitialized, so it
# has no case here (kernels/constraints_test.go checks its dtype and shape).

f = F(A._assert_tensor_metadata.default, "exact")
f.case("matches", lambda: ([R(2, 3), [2, 3], [3, 1], f32], {}))

f = F(A.rms_norm.default, "acc")
f.case("last dim, weight", lambda: ([R(2, 3, 4), [4], R(4)], {}))
f.case("two dims, eps", lambda: ([R(2, 3, 4), [3, 4], None, 1e-3], {}))
f.case("bfloat16 default eps", lambda: ([R(3, 8, dt=bf16), [8]], {}))
f.case("float64", lambda: ([R(2, 5, dt=f64), [5], R(5, dt=f64)], {}))

f = F(A._prelu_kernel.default, "exact")
f.case("broadcast weight", lambda: ([R(2, 3, 2), R(3, 1)], {}))

f = F(A.all.dims, "exact")
f.case("dims [0, 2]", lambda: ([R(2, 3, 2) > -1, [0, 2]], {}))
f.case("None keepdim", lambda: ([R(2, 3) > -0.5, None, True], {}))
f.case("empty list", lambda: ([R(3) > 0, []], {}))

f = F(A._upsample_nearest_exact2d.vec, "exact")
f.case("scale 1.5", lambda: ([R(1, 2, 3, 4), None, [1.5, 1.5]], {}))
f.case("size", lambda: ([R(1, 1, 5, 3), [3, 7], None], {}))
f = F(A._upsample_nearest_exact1d.default, "exact")
f.case("3 -> 8", lambda: ([R(1, 2, 3), [8]], {}))
f = F(A._upsample_nearest_exact3d.vec, "exact")
f.case("scale 2", lambda: ([R(1, 1, 2, 3, 2), None, [2.0, 2.0, 2.0]], {}))

f = F(A._unsafe_index.Tensor, "exact")
f.case("two index tensors", lambda: ([R(4, 5), [torch.tensor([[0], [3]]), torch.tensor([1, 4, 2])]], {}))
f.case("None then index", lambda: ([R(3, 4), [None, torch.tensor([3, 0])]], {}))
f = F(A._unsafe_index_put.default, "exact")
f.case("accumulate", lambda: ([R(4, 3), [torch.tensor([0, 2, 0])], R(3, 3), True], {}))
f = F(A._unsafe_masked_index.default, "exact")
f.case("clamped, filled", lambda: ([R(3, 4), torch.tensor([[True, False], [True, True]]),
                                    [torch.tensor([[0, 5], [2, -1]]), torch.tensor([[1, 1], [3, 9]])], -1.0], {}))
f = F(A._unsafe_masked_index_put_accumulate.default, "acc")
f.case("masked values", lambda: ([R(4), torch.tensor([True, False, True]), [torch.tensor([0, 1, 0])], R(3)], {}))

f = F(A.linspace.Tensor_Tensor, "exact")
f.case("0-d tensors", lambda: ([torch.tensor(-1.5), torch.tensor(2.0), 7], {}))
f = F(A.linspace.Scalar_Tensor, "exact")
f.case("float64", lambda: ([0.5, torch.tensor(3.0), 5], {"dtype": f64}))
f = F(A.logspace.Tensor_Scalar, "ew")
f.case("base 2", lambda: ([torch.tensor(0.0), 3.0, 4, 2.0], {}))

# PT2E's decomposed quantization ops (torch/ao/quantization/fx/_decomposed.py).
import torch.ao.quantization.fx._decomposed  # noqa: E402,F401 registers them

Q = torch.ops.quantized_decomposed
i8, u8, i32 = torch.int8, torch.uint8, torch.int32
f = F(Q.quantize_per_tensor.default, "exact")
f.case("uint8", lambda: ([R(3, 4) * 3, 0.05, 128, 0, 255, u8], {}))
f.case("int8 clamps", lambda: ([R(10) * 10, 0.03, -3, -128, 127, i8], {}))
f.case("bfloat16 input", lambda: ([R(5, dt=bf16), 0.1, 0, -128, 127, i8], {}))
f = F(Q.quantize_per_tensor.tensor, "exact")
f.case("tensor qparams", lambda: ([R(2, 3), torch.tensor([0.02]), torch.tensor([5]), -128, 127, i8], {}))
f = F(Q.quantize_per_tensor.tensor2, "exact")
f.case("tensor bounds", lambda: ([R(2, 3), torch.tensor(0.02), torch.tensor(5), torch.tensor(-128), torch.tensor(127), i8], {}))
f = F(Q.dequantize_per_tensor.default, "exact")
f.case("uint8", lambda: ([torch.randint(0, 256, (3, 4), dtype=u8), 0.05, 128, 0, 255, u8], {}))
f.case("int8 out float64", lambda: ([torch.randint(-128, 128, (5,), dtype=i8), 0.1, -2, -128, 127, i8], {"out_dtype": f64}))
f = F(Q.dequantize_per_tensor.tensor, "exact")
f.case("tensor qparams", lambda: ([torch.randint(-128, 128, (4,), dtype=i8), torch.tensor([0.3]), torch.tensor([1]), -128, 127, i8], {}))
f = F(Q.quantize_per_channel.default, "exact")
f.case("axis 0", lambda: ([R(3, 4) * 2, torch.tensor([0.01, 0.05, 0.1]), torch.tensor([0, 3, -4]), 0, -128, 127, i8], {}))
f.case("axis 1 float64 scales", lambda: ([R(2, 3, 2), torch.tensor([0.01, 0.05, 0.1], dtype=f64), torch.tensor([0, 3, 4]), 1, 0, 255, u8], {}))
f = F(Q.dequantize_per_channel.default, "exact")
f.case("axis 0", lambda: ([torch.randint(-128, 128, (3, 4), dtype=i8), torch.tensor([0.01, 0.05, 0.1]), torch.tensor([0, 3, -4]), 0, -128, 127, i8], {}))
f.case("no zero points", lambda: ([torch.randint(0, 256, (2, 3), dtype=u8), torch.tensor([0.5, 0.25, 0.1]), None, 1, 0, 255, u8], {}))
f = F(Q.fake_quant_per_channel.default, "exact")
f.case("axis 1", lambda: ([R(2, 3) * 2, torch.tensor([0.1, 0.02, 0.3]), torch.tensor([0, 2, -1]), 1, -128, 127], {}))
f = F(Q.convert_element_type.no_fuse, "exact")
f.case("to bfloat16", lambda: ([R(4), bf16], {}))

write_all(OUT)
