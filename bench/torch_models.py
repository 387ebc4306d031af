#!/usr/bin/env python3
"""resnet18 and mobilenet_v2 (torchvision's architectures written out in
plain torch, so that PyTorch 1.13 without torchvision runs them too),
random weights from a fixed seed, batch 1, 224x224.

Time eager inference (model(x) under torch.no_grad() in eval mode, two
threads, as gofx's benchmarks run on two cores), one JSON line:

    /usr/bin/python3 bench/torch_models.py time mobilenet_v2 [runs]
    ../shared/tools/torch2 bench/torch_models.py time resnet18 [runs]

Export a model with torch.export and save it as .pt2 with its example
input, plus an io.json of the input and PyTorch's output (the format of
../shared/pt2/README.md, which pt2.ReadIO reads), for gofx's
BenchmarkMobileNetV2 and TestMobileNetV2PT2 (models/bench_test.go), which
read $GOFX_BENCH_DIR (default /tmp/gofx-bench); PyTorch >= 2.6:

    ../shared/tools/torch2 bench/torch_models.py export mobilenet_v2 /tmp/gofx-bench
"""
import base64
import json
import os
import statistics
import sys
import time

import torch
from torch import nn
import torch.nn.functional as F


def conv_bn_relu6(inp, oup, k=3, stride=1, groups=1):
    return nn.Sequential(
        nn.Conv2d(inp, oup, k, stride, (k - 1) // 2, groups=groups, bias=False),
        nn.BatchNorm2d(oup),
        nn.ReLU6(),
    )


class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, expand_ratio):
        super().__init__()
        hidden = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        layers = []
        if expand_ratio != 1:
            layers.append(conv_bn_relu6(inp, hidden, k=1))
        layers += [
            conv_bn_relu6(hidden, hidden, stride=stride, groups=hidden),
            nn.Conv2d(hidden, oup, 1, 1, 0, bias=False),
            nn.BatchNorm2d(oup),
        ]
        self.conv = nn.Sequential(*layers)

    def forward(self, x):
        if self.use_res_connect:
            return x + self.conv(x)
        return self.conv(x)


class MobileNetV2(nn.Module):
    """torchvision.models.mobilenet_v2 (width 1.0, 1000 classes)."""

    def __init__(self, num_classes=1000):
        super().__init__()
        settings = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2],
                    [6, 96, 3, 1], [6, 160, 3, 2], [6, 320, 1, 1]]
        inp = 32
        features = [conv_bn_relu6(3, inp, stride=2)]
        for t, c, n, s in settings:
            for i in range(n):
                features.append(InvertedResidual(inp, c, s if i == 0 else 1, t))
                inp = c
        features.append(conv_bn_relu6(inp, 1280, k=1))
        self.features = nn.Sequential(*features)
        self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(1280, num_classes))

    def forward(self, x):
        x = self.features(x)
        x = F.adaptive_avg_pool2d(x, (1, 1))
        x = torch.flatten(x, 1)
        return self.classifier(x)


class BasicBlock(nn.Module):
    def __init__(self, inp, oup, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(inp, oup, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(oup)
        self.conv2 = nn.Conv2d(oup, oup, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(oup)
        self.downsample = None
        if stride != 1 or inp != oup:
            self.downsample = nn.Sequential(nn.Conv2d(inp, oup, 1, stride, bias=False), nn.BatchNorm2d(oup))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        idt = x if self.downsample is None else self.downsample(x)
        return F.relu(out + idt)


class ResNet18(nn.Module):
    """torchvision.models.resnet18 (1000 classes)."""

    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        layers, inp = [], 64
        for oup, stride in [(64, 1), (128, 2), (256, 2), (512, 2)]:
            layers.append(nn.Sequential(BasicBlock(inp, oup, stride), BasicBlock(oup, oup, 1)))
            inp = oup
        self.layer1, self.layer2, self.layer3, self.layer4 = layers
        self.fc = nn.Linear(512, num_classes)

    def forward(self, x):
        x = self.maxpool(F.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        x = torch.flatten(F.adaptive_avg_pool2d(x, (1, 1)), 1)
        return self.fc(x)


MODELS = {"mobilenet_v2": MobileNetV2, "resnet18": ResNet18}


def make(name):
    """The model with weights from seed 0 (batch-norm statistics random
    too, so that they matter), in eval mode, and its input from seed 1."""
    torch.manual_seed(0)
    model = MODELS[name]()
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.1, 0.1)
            m.running_var.uniform_(0.5, 1.5)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.1, 0.1)
    torch.manual_seed(1)
    return model.eval(), torch.randn(1, 3, 224, 224)


def time_model(name, runs):
    torch.set_num_threads(2)
    model, x = make(name)
    with torch.no_grad():
        for _ in range(3):
            model(x)  # warm up
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            model(x)
            times.append((time.perf_counter() - start) * 1e3)
    print(json.dumps({"model": name, "torch": torch.__version__, "program": "eager",
                      "runs": runs, "median_ms": round(statistics.median(times), 3),
                      "min_ms": round(min(times), 3), "threads": torch.get_num_threads()}))


def tensor_json(t):
    t = t.detach().contiguous()
    return {"tensor": {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
                       "data": base64.b64encode(t.numpy().tobytes()).decode()}}


def export_model(name, outdir):
    os.makedirs(outdir, exist_ok=True)
    model, x = make(name)
    ep = torch.export.export(model, (x,))
    path = os.path.join(outdir, name + ".pt2")
    torch.export.save(ep, path)
    with torch.no_grad():
        out = ep.module()(x)
    with open(os.path.join(outdir, name + ".io.json"), "w") as f:
        json.dump({"inputs": [tensor_json(x)], "outputs": [tensor_json(out)],
                   "extra": {"model": name, "torch": torch.__version__}}, f)
    print(f"wrote {path} ({os.path.getsize(path)} bytes) and {name}.io.json")


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("time", "export") or sys.argv[2] not in MODELS:
        sys.exit(__doc__)
    if sys.argv[1] == "time":
        time_model(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 20)
    else:
        export_model(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "/tmp/gofx-bench")


if __name__ == "__main__":
    main()
