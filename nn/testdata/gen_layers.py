"""Writes layers.json: reference results of PyTorch 1.13's nn layers and
functional calls for the tests of package nn (layers_test.go) and
nn/functional (functional_test.go).

Run with PyTorch 1.13: /usr/bin/python3 gen_layers.py (from this
directory). Values use the ARG encoding of shared/models/README.md
(base64 little-endian tensors), which conformance.DecodeArg reads.

layers.json:
  {"layers": [{"name", "repr", "keys": [state_dict keys in order],
               "state": {key: ARG}, "train": bool,
               "calls": [{"input": ARG, "output": ARG}],
               "after": {key: ARG} (state_dict after the calls, train mode)}],
   "functional": [{"name", "inputs": [ARG], "output": ARG}]}

Each layer is built right after torch.manual_seed(0); inputs come from a
torch.Generator seeded with 1. The Go tests hold the same names with the
same hyper-parameters.
"""
import base64
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)


def enc_tensor(t):
    t = t.detach().contiguous()
    raw = t.reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b""
    return {"tensor": {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
                       "data": base64.b64encode(raw).decode()}}


def enc(v):
    if isinstance(v, torch.Tensor):
        return enc_tensor(v)
    if isinstance(v, (tuple, list)):
        return {"tensors": [enc_tensor(t)["tensor"] for t in v]}
    raise TypeError(type(v))


G = torch.Generator().manual_seed(1)


def randn(*shape):
    return torch.randn(*shape, generator=G)


def indices(n, *shape):
    return torch.randint(0, n, shape, generator=G)


# name: (constructor, train mode, inputs (one per call))
LAYERS = {
    "conv1d": (lambda: nn.Conv1d(2, 4, 3), False, [randn(2, 2, 7)]),
    "conv1d_s2_p1_d2_nobias": (lambda: nn.Conv1d(2, 4, 3, stride=2, padding=1, dilation=2, bias=False), False, [randn(1, 2, 9)]),
    "conv2d_p1": (lambda: nn.Conv2d(3, 8, 3, padding=1), False, [randn(2, 3, 5, 5)]),
    "conv2d_rect_s2_g2_nobias": (lambda: nn.Conv2d(4, 6, (3, 2), stride=(2, 1), padding=(1, 0), groups=2, bias=False), False, [randn(1, 4, 6, 5)]),
    "conv2d_dil2_unbatched": (lambda: nn.Conv2d(2, 3, 3, dilation=2), False, [randn(2, 7, 7)]),
    "conv2d_depthwise": (lambda: nn.Conv2d(4, 4, 3, stride=2, padding=1, groups=4), False, [randn(2, 4, 6, 6)]),
    "convt2d": (lambda: nn.ConvTranspose2d(4, 2, 3), False, [randn(1, 4, 3, 3)]),
    "convt2d_s2_p1_op1": (lambda: nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2), False, [randn(2, 4, 3, 4)]),
    "convt2d_dil_nobias": (lambda: nn.ConvTranspose2d(2, 3, (2, 3), stride=(1, 2), dilation=2, bias=False), False, [randn(1, 2, 3, 3)]),
    "bn2d_eval": (lambda: nn.BatchNorm2d(3), False, [randn(2, 3, 4, 4)]),
    "bn2d_train": (lambda: nn.BatchNorm2d(3), True, [randn(2, 3, 4, 4), randn(1, 3, 2, 3)]),
    "bn2d_train_mom_eps": (lambda: nn.BatchNorm2d(3, eps=1e-3, momentum=0.3), True, [randn(2, 3, 2, 2)]),
    "bn2d_train_cumulative": (lambda: nn.BatchNorm2d(2, momentum=None), True, [randn(2, 2, 3, 3), randn(2, 2, 3, 3), randn(1, 2, 2, 2)]),
    "bn2d_noaffine_notrack_eval": (lambda: nn.BatchNorm2d(3, affine=False, track_running_stats=False), False, [randn(2, 3, 2, 2)]),
    "bn1d_train_2d": (lambda: nn.BatchNorm1d(4), True, [randn(3, 4)]),
    "bn1d_eval_3d": (lambda: nn.BatchNorm1d(4), False, [randn(2, 4, 5)]),
    "layernorm": (lambda: nn.LayerNorm(8), False, [randn(2, 3, 8)]),
    "layernorm_2d_noaffine": (lambda: nn.LayerNorm([3, 4], eps=1e-3, elementwise_affine=False), False, [randn(2, 3, 4)]),
    "groupnorm": (lambda: nn.GroupNorm(2, 4), False, [randn(2, 4, 3, 3)]),
    "groupnorm_noaffine": (lambda: nn.GroupNorm(3, 6, eps=1e-3, affine=False), False, [randn(1, 6, 5)]),
    "embedding": (lambda: nn.Embedding(10, 3), False, [indices(10, 2, 4)]),
    "embedding_pad": (lambda: nn.Embedding(6, 4, padding_idx=-2), False, [torch.tensor([[4, 0, 1], [5, 4, 2]])]),
    "relu6": (lambda: nn.ReLU6(), False, [randn(2, 5) * 5]),
    "gelu": (lambda: nn.GELU(), False, [randn(2, 5) * 2]),
    "gelu_tanh": (lambda: nn.GELU("tanh"), False, [randn(2, 5) * 2]),
    "silu": (lambda: nn.SiLU(), False, [randn(2, 5)]),
    "sigmoid": (lambda: nn.Sigmoid(), False, [randn(2, 5)]),
    "tanh": (lambda: nn.Tanh(), False, [randn(2, 5)]),
    "hardtanh": (lambda: nn.Hardtanh(-2.0, 0.5), False, [randn(2, 5) * 2]),
    "leakyrelu": (lambda: nn.LeakyReLU(0.2), False, [randn(2, 5)]),
    "leakyrelu_default": (lambda: nn.LeakyReLU(), False, [randn(2, 5)]),
    "hardswish": (lambda: nn.Hardswish(), False, [randn(2, 5) * 4]),
    "softmax": (lambda: nn.Softmax(1), False, [randn(2, 5, 3)]),
    "softmax_neg": (lambda: nn.Softmax(-1), False, [randn(2, 5, 3)]),
    "dropout_eval": (lambda: nn.Dropout(0.25), False, [randn(2, 5)]),
    "maxpool2d": (lambda: nn.MaxPool2d(2), False, [randn(2, 3, 6, 6)]),
    "maxpool2d_k3_s2_p1": (lambda: nn.MaxPool2d(3, stride=2, padding=1), False, [randn(1, 2, 7, 7)]),
    "maxpool2d_rect_ceil_dil": (lambda: nn.MaxPool2d((3, 2), stride=(2, 1), dilation=(1, 2), ceil_mode=True), False, [randn(1, 2, 7, 6)]),
    "avgpool2d": (lambda: nn.AvgPool2d(2), False, [randn(2, 3, 6, 6)]),
    "avgpool2d_pad_nocount": (lambda: nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False), False, [randn(1, 2, 7, 7)]),
    "avgpool2d_ceil_div": (lambda: nn.AvgPool2d((2, 3), stride=(2, 2), ceil_mode=True, divisor_override=4), False, [randn(1, 2, 5, 7)]),
    "adaptiveavgpool2d_1": (lambda: nn.AdaptiveAvgPool2d(1), False, [randn(2, 3, 5, 5)]),
    "adaptiveavgpool2d_2x3": (lambda: nn.AdaptiveAvgPool2d((2, 3)), False, [randn(1, 2, 5, 7)]),
    "flatten": (lambda: nn.Flatten(), False, [randn(2, 3, 2, 2)]),
    "flatten_0_2": (lambda: nn.Flatten(0, 2), False, [randn(2, 3, 2, 2)]),
    "identity": (lambda: nn.Identity(), False, [randn(2, 3)]),
    "linear": (lambda: nn.Linear(5, 3), False, [randn(2, 5)]),
    "linear_nobias": (lambda: nn.Linear(5, 3, bias=False), False, [randn(4, 5)]),
}


def layer_case(name, ctor, train, inputs):
    torch.manual_seed(0)
    m = ctor()
    m.train(train)
    sd = m.state_dict()
    case = {"name": name, "repr": repr(m), "keys": list(sd.keys()),
            "state": {k: enc(v.clone()) for k, v in sd.items()}, "train": train, "calls": []}
    with torch.no_grad():
        for x in inputs:
            case["calls"].append({"input": enc(x), "output": enc(m(x))})
    if train:
        case["after"] = {k: enc(v) for k, v in m.state_dict().items()}
    return case


def w(*shape):
    return randn(*shape)


# name: (function of the inputs, inputs)
FUNCTIONAL = {
    "relu": (F.relu, [randn(2, 5)]),
    "relu6": (F.relu6, [randn(2, 5) * 5]),
    "gelu": (F.gelu, [randn(2, 5)]),
    "gelu_tanh": (lambda x: F.gelu(x, approximate="tanh"), [randn(2, 5)]),
    "silu": (F.silu, [randn(2, 5)]),
    "sigmoid": (torch.sigmoid, [randn(2, 5)]),
    "tanh": (torch.tanh, [randn(2, 5)]),
    "hardtanh": (lambda x: F.hardtanh(x, -0.5, 0.5), [randn(2, 5)]),
    "leaky_relu": (lambda x: F.leaky_relu(x, 0.1), [randn(2, 5)]),
    "hardswish": (F.hardswish, [randn(2, 5) * 4]),
    "softmax": (lambda x: F.softmax(x, 0), [randn(3, 4)]),
    "log_softmax": (lambda x: F.log_softmax(x, -1), [randn(3, 4)]),
    "dropout_eval": (lambda x: F.dropout(x, 0.5, False), [randn(3, 4)]),
    "linear": (F.linear, [randn(2, 4), w(3, 4), w(3)]),
    "linear_nobias": (F.linear, [randn(2, 4), w(3, 4)]),
    "conv1d": (lambda x, k, b: F.conv1d(x, k, b, stride=2, padding=1), [randn(2, 2, 7), w(3, 2, 3), w(3)]),
    "conv2d": (lambda x, k: F.conv2d(x, k, None, 1, 1, 1, 1), [randn(1, 2, 5, 5), w(4, 2, 3, 3)]),
    "conv2d_groups_dil": (lambda x, k, b: F.conv2d(x, k, b, stride=(2, 1), padding=(2, 1), dilation=2, groups=2),
                          [randn(2, 4, 6, 5), w(4, 2, 3, 3), w(4)]),
    "conv_transpose2d": (lambda x, k, b: F.conv_transpose2d(x, k, b, stride=2, padding=1, output_padding=1),
                         [randn(1, 3, 3, 3), w(3, 2, 3, 3), w(2)]),
    "batch_norm_eval": (lambda x, m, v, g, b: F.batch_norm(x, m, v, g, b, False, 0.1, 1e-5),
                        [randn(2, 3, 4), randn(3), randn(3).abs() + 0.5, randn(3), randn(3)]),
    "batch_norm_train": (lambda x, m, v: (F.batch_norm(x, m, v, None, None, True, 0.2, 1e-3), m, v),
                         [randn(2, 3, 4), randn(3), randn(3).abs() + 0.5]),
    "layer_norm": (lambda x, g, b: F.layer_norm(x, [4], g, b, 1e-5), [randn(2, 3, 4), randn(4), randn(4)]),
    "layer_norm_2d": (lambda x: F.layer_norm(x, [3, 4], eps=1e-3), [randn(2, 3, 4)]),
    "group_norm": (lambda x, g, b: F.group_norm(x, 2, g, b, 1e-5), [randn(2, 4, 3, 3), randn(4), randn(4)]),
    "embedding": (F.embedding, [indices(5, 2, 3), w(5, 3)]),
    "max_pool2d": (lambda x: F.max_pool2d(x, 2), [randn(1, 2, 6, 6)]),
    "max_pool2d_opts": (lambda x: F.max_pool2d(x, (3, 2), stride=1, padding=1, dilation=(1, 2), ceil_mode=True),
                        [randn(1, 2, 6, 7)]),
    "avg_pool2d": (lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False), [randn(1, 2, 7, 7)]),
    "avg_pool2d_div": (lambda x: F.avg_pool2d(x, 2, divisor_override=3), [randn(1, 2, 4, 4)]),
    "adaptive_avg_pool2d": (lambda x: F.adaptive_avg_pool2d(x, (3, 2)), [randn(2, 2, 7, 5)]),
    "flatten": (lambda x: torch.flatten(x, 1, 2), [randn(2, 3, 4, 2)]),
    "cat": (lambda x, y: torch.cat([x, y], 1), [randn(2, 3), randn(2, 2)]),
    "sum_all": (torch.sum, [randn(3, 4)]),
    "sum_dims_keep": (lambda x: torch.sum(x, (0, 2), keepdim=True), [randn(3, 4, 2)]),
    "mean_all": (torch.mean, [randn(3, 4)]),
    "mean_dim": (lambda x: torch.mean(x, -1), [randn(3, 4)]),
    "topk": (lambda x: torch.topk(x, 2, 1), [randn(3, 5)]),
    "topk_smallest": (lambda x: torch.topk(x, 3, 0, largest=False), [randn(4, 3)]),
    "matmul": (torch.matmul, [randn(2, 3, 4), randn(4, 5)]),
    "add": (torch.add, [randn(2, 3), randn(3)]),
    "add_alpha": (lambda x, y: torch.add(x, y, alpha=2.5), [randn(2, 3), randn(2, 3)]),
    "add_scalar": (lambda x: torch.add(x, 1.5), [randn(2, 3)]),
    "sin": (torch.sin, [randn(2, 3)]),
    "cos": (torch.cos, [randn(2, 3)]),
    "exp": (torch.exp, [randn(2, 3)]),
}


def functional_case(name, f, inputs):
    before = [enc(x) for x in inputs]  # batch_norm_train updates its inputs
    with torch.no_grad():
        out = f(*inputs)
    return {"name": name, "inputs": before, "output": enc(out)}


def main():
    layers = [layer_case(n, *spec) for n, spec in LAYERS.items()]
    functional = [functional_case(n, *spec) for n, spec in FUNCTIONAL.items()]
    with open("layers.json", "w") as f:
        json.dump({"layers": layers, "functional": functional}, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
