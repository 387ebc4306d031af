#!/usr/bin/python3
"""Conformance cases for issue 14's leftover operators: special_erfcx,
special_log_ndtr, native_channel_shuffle (non-dividing groups included),
the multi-out out= overload of _native_batch_norm_legit and normal.out.

Writes <ns>.<op>.<overload>.jsonl beside this script (normal.out into
../random, with the seed its note names), in the format of
testdata/conformance/README.md, with PyTorch 2.6:

    cd kernels/testdata/extra && ../../../../shared/tools/torch2 gen_14d.py
"""

import os

import torch

import confgen
from confgen import F, write_all

torch.set_num_threads(1)
A = torch.ops.aten
OUT = os.path.dirname(os.path.abspath(__file__))
f32, f64, i64, b8 = torch.float32, torch.float64, torch.int64, torch.bool
nan, inf = float("nan"), float("inf")

confgen.TOL["ew"] = {f32: (1.3e-6, 1e-5), f64: (1e-7, 1e-7)}
confgen.TOL["exact"] = {f32: (0.0, 0.0), f64: (0.0, 0.0)}

# Every range of calc_erfcx: the continued fraction beyond 50 (and 5e7), the
# Chebyshev fits on [0, 50], 2exp(x^2) - erfcx(-x) above -6.1, 2exp(x^2)
# below, +inf below -26.7; log_ndtr switches at x = -1.
POINTS = [-inf, -40.0, -26.0, -20.0, -9.0, -6.5, -6.0, -3.0, -1.5, -1.0, -0.999, -0.5, -1e-3, 0.0, 1e-8, 0.25,
          0.5, 1.0, 2.5, 3.9, 4.0, 7.0, 12.0, 25.5, 26.5, 30.0, 49.0, 50.0, 51.0, 1e3, 1e6, 1e8, inf, nan]


def pts(dt):
    return lambda: ([torch.tensor(POINTS, dtype=f64).to(dt)], {})


for op in (A.special_erfcx.default, A.special_log_ndtr.default):
    f = F(op, "ew")
    f.case("every range, float64", pts(f64))
    f.case("every range, float32", pts(f32))
    f.case("random float64", lambda: ([torch.randn(4, 5, dtype=f64) * 8], {}))
    f.case("random float32", lambda: ([torch.randn(3, 7) * 4], {}))
    f.case("int64 computes in float32", lambda: ([torch.arange(-8, 8)], {}))
    f.case("bool", lambda: ([torch.tensor([True, False])], {}))
    f.case("strided float64", lambda: ([(torch.randn(6, 4, dtype=f64) * 3).t()], {}))

f = F(A.native_channel_shuffle.default, "exact")
x = lambda *s, dt=f32: torch.arange(torch.Size(s).numel(), dtype=f64).reshape(s).to(dt)
f.case("groups divide the channels", lambda: ([x(2, 6, 3), 3], {}))
f.case("groups 1", lambda: ([x(1, 4, 2), 1], {}))
f.case("groups = channels", lambda: ([x(2, 5, 2), 5], {}))
f.case("non-dividing groups 2 of 5 channels", lambda: ([x(2, 5, 3), 2], {}))
f.case("non-dividing groups 3 of 5 channels", lambda: ([x(2, 5, 3), 3], {}))
f.case("non-dividing groups 4 of 5 channels", lambda: ([x(2, 5, 3), 4], {}))
f.case("non-dividing groups 3 of 4, one batch", lambda: ([torch.randn(1, 4, 6), 3], {}))
f.case("2-d input", lambda: ([x(2, 4), 2], {}))
f.case("2-d non-dividing", lambda: ([x(2, 4), 3], {}))
f.case("4-d int64", lambda: ([x(2, 6, 2, 2, dt=i64), 2], {}))
f.case("bool", lambda: ([torch.arange(16).reshape(2, 4, 2) > 4, 2], {}))
f.case("empty", lambda: ([torch.zeros(0, 4, 2), 3], {}))


def bn_out(training, dt=f32, C=3):
    def make():
        inp = torch.randn(2, C, 4, dtype=dt)
        rm, rv = torch.randn(C, dtype=dt), torch.rand(C, dtype=dt) + 0.5
        e = lambda: torch.empty(0, dtype=dt)
        return ([inp, torch.randn(C, dtype=dt), torch.randn(C, dtype=dt), rm, rv, training, 0.1, 1e-5],
                {"out": e(), "save_mean": e(), "save_invstd": e()})
    return make


f = F(A._native_batch_norm_legit.out, "acc")
f.case("training", bn_out(True))
f.case("eval", bn_out(False))
f.case("training float64", bn_out(True, f64, C=2))

write_all(OUT)

# normal.out, the out= form of normal_functional: seeded as gen_14c.py's
# random cases.
RANDOM = os.path.join(OUT, "..", "random")
confgen.TOL["rand"] = {f32: (1e-5, 1e-5), f64: (1e-12, 1e-12)}


class RandomFile(confgen.File):
    def case(self, note, make, seed=None):
        seed = seed if seed is not None else 1000 + len(self.lines)
        torch.manual_seed(sum(map(ord, self.stem)) + len(self.lines))
        args, kwargs = make()
        torch.manual_seed(seed)
        with torch.no_grad():
            out = self.overload(*[a.clone() if isinstance(a, torch.Tensor) else a for a in args], **kwargs)
        outs = list(out) if isinstance(out, tuple) else [out]
        rt, at = confgen.tolerance(self.kind, outs)
        self.lines.append({
            "id": f"{self.stem}/{len(self.lines)}", "op": self.op, "schema": self.schema,
            "args": [confgen.enc(a) for a in args], "kwargs": {k: confgen.enc(v) for k, v in kwargs.items()},
            "outputs": [confgen.enc(o) for o in outs], "rtol": rt, "atol": at, "note": f"seed={seed}: {note}",
        })


f = RandomFile(A.normal.out, "rand")
f.case("empty out resized", lambda: ([torch.zeros(3, 4), 1.0, 2.0], {"out": torch.empty(0)}))
f.case("sized float64 out", lambda: ([torch.zeros(5, dtype=f64), -1.0, 0.5], {"out": torch.empty(5, dtype=f64)}), seed=11)
f.case("17 defaults", lambda: ([torch.zeros(17)], {"out": torch.empty(17)}))
f.write(RANDOM)
