# make_torchvision.py: scripts torchvision models with PyTorch and writes their code/ files
# and forward.code under OUT:  ../../../shared/tools/torch2 testdata/make_torchvision.py OUT
import io, os, sys, zipfile, torch, torchvision
out = sys.argv[1]
ms = {}
for name in ["densenet121", "googlenet", "inception_v3", "squeezenet1_0", "shufflenet_v2_x0_5", "mnasnet0_5", "efficientnet_b0", "regnet_y_400mf", "vit_b_16", "convnext_tiny", "swin_t", "maxvit_t"]:
    try:
        kw = {"aux_logits": False, "init_weights": False} if name in ("googlenet", "inception_v3") else {}
        ms[name] = torchvision.models.get_model(name, weights=None, **kw)
    except Exception as e:
        print(name, "build failed", e, file=sys.stderr)
import torchvision.models.detection as det
for name in ["fasterrcnn_mobilenet_v3_large_320_fpn", "retinanet_resnet50_fpn", "maskrcnn_resnet50_fpn", "keypointrcnn_resnet50_fpn", "ssdlite320_mobilenet_v3_large", "fcos_resnet50_fpn"]:
    try:
        ms[name] = det.__dict__[name](weights=None, weights_backbone=None)
    except Exception as e:
        print(name, "build failed", e, file=sys.stderr)
for name in ["deeplabv3_mobilenet_v3_large", "lraspp_mobilenet_v3_large"]:
    try:
        ms[name] = torchvision.models.segmentation.__dict__[name](weights=None, weights_backbone=None)
    except Exception as e:
        print(name, "build failed", e, file=sys.stderr)
for name, m in ms.items():
    try:
        s = torch.jit.script(m.eval())
    except Exception as e:
        print(name, "script failed", str(e)[:200], file=sys.stderr); continue
    buf = io.BytesIO(); torch.jit.save(s, buf)
    zf = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    for info in zf.infolist():
        parts = info.filename.split("/")
        if len(parts) >= 3 and parts[1] == "code" and info.filename.endswith(".py"):
            dst = os.path.join(out, name, "/".join(parts[2:]))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            open(dst, "wb").write(zf.read(info))
    open(os.path.join(out, name, "forward.code.py"), "w").write(s.forward.code)
    print(name, "ok", file=sys.stderr)
