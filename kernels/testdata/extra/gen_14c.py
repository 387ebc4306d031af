#!/usr/bin/python3
"""Conformance cases for the operator families of issue 14's "opsc" part:
the full-sequence recurrent operators (lstm, gru, rnn_tanh, rnn_relu),
pooling extras, window and index factories, anti-aliased upsampling and
the PT2E quantization helpers.

Writes <ns>.<op>.<overload>.jsonl beside this script, in the format of
testdata/conformance/README.md, with PyTorch 2.6:

    cd kernels/testdata/extra && ../../../../shared/tools/torch2 gen_14c.py
"""

import os

import torch

import confgen
from confgen import F, write_all

torch.set_num_threads(1)
A = torch.ops.aten
OUT = os.path.dirname(os.path.abspath(__file__))
f32, f64, bf16, b8, i64 = torch.float32, torch.float64, torch.bfloat16, torch.bool, torch.int64

confgen.TOL["exact"] = {f32: (0.0, 0.0), f64: (0.0, 0.0), bf16: (0.0, 0.0), torch.float16: (0.0, 0.0)}
confgen.TOL["ew"] = {f32: (1.3e-6, 1e-5), f64: (1e-7, 1e-7), bf16: (1.6e-2, 1e-5)}


def R(*shape, dt=f32):
    return torch.randn(shape, dtype=f64).to(dt)


# --- full-sequence RNNs -------------------------------------------------
#
# Debian's PyTorch 2.6 runs float32 LSTMs through oneDNN, whose inference
# path (under no_grad, as confgen runs every case) returns values off by up
# to 0.5 (nn.LSTM too; 2.14 and the float64 path agree with each other to
# 1e-7). The cases are recorded with oneDNN off: ATen's own FullLayer.
torch.backends.mkldnn.enabled = False

def rnn_case(mod_cls, lstm, T=3, B=2, I=3, H=3, L=1, bias=True, bi=False, bf=False, proj=0, dt=f32, **kw):
    def make():
        kwargs = dict(num_layers=L, bias=bias, bidirectional=bi, batch_first=bf, dtype=dt)
        if proj:
            kwargs["proj_size"] = proj
        kwargs.update(kw)
        m = mod_cls(I, H, **kwargs)
        with torch.no_grad():
            for p in m.parameters():
                p.copy_(torch.randn(p.shape, dtype=f64).to(dt) * 0.5)
        D = 2 if bi else 1
        x = R(B, T, I, dt=dt) if bf else R(T, B, I, dt=dt)
        hout = proj if proj else H
        h0 = R(L * D, B, hout, dt=dt)
        params = [p.detach().clone() for p in m._flat_weights]
        if lstm:
            hx = [h0, R(L * D, B, H, dt=dt)]
        else:
            hx = h0
        return [x, hx, params, bias, L, 0.0, False, bi, bf], {}
    return make


f = F(A.lstm.input, "acc")
f.case("one layer", rnn_case(torch.nn.LSTM, True))
f.case("two layers bidirectional", rnn_case(torch.nn.LSTM, True, L=2, bi=True))
f.case("batch_first, no biases", rnn_case(torch.nn.LSTM, True, bf=True, bias=False))
f.case("proj_size", rnn_case(torch.nn.LSTM, True, proj=2, L=2))
f.case("proj_size bidirectional batch_first", rnn_case(torch.nn.LSTM, True, proj=2, bi=True, bf=True, H=4))
f.case("float64 one step", rnn_case(torch.nn.LSTM, True, T=1, B=1, dt=f64))
f.case("float64 two layers bidirectional", rnn_case(torch.nn.LSTM, True, L=2, bi=True, I=2, H=2, dt=f64))

f = F(A.gru.input, "acc")
f.case("one layer", rnn_case(torch.nn.GRU, False))
f.case("two layers bidirectional", rnn_case(torch.nn.GRU, False, L=2, bi=True))
f.case("batch_first, no biases", rnn_case(torch.nn.GRU, False, bf=True, bias=False))
f.case("float64", rnn_case(torch.nn.GRU, False, L=2, dt=f64, bf=True))

f = F(A.rnn_tanh.input, "acc")
f.case("one layer", rnn_case(torch.nn.RNN, False))
f.case("two layers bidirectional batch_first", rnn_case(torch.nn.RNN, False, L=2, bi=True, bf=True))
f.case("no biases float64", rnn_case(torch.nn.RNN, False, bias=False, dt=f64))

f = F(A.rnn_relu.input, "acc")
f.case("one layer", rnn_case(torch.nn.RNN, False, nonlinearity="relu"))
f.case("two layers bidirectional", rnn_case(torch.nn.RNN, False, L=2, bi=True, nonlinearity="relu"))
f.case("float64 batch_first", rnn_case(torch.nn.RNN, False, bf=True, dt=f64, nonlinearity="relu"))


def packed_case(mod_cls, lstm, lengths=(4, 3, 1), I=3, H=3, L=1, bias=True, bi=False, proj=0, dt=f32, **kw):
    def make():
        kwargs = dict(num_layers=L, bias=bias, bidirectional=bi, dtype=dt)
        if proj:
            kwargs["proj_size"] = proj
        kwargs.update(kw)
        m = mod_cls(I, H, **kwargs)
        seqs = [R(n, I, dt=dt) for n in lengths]
        packed = torch.nn.utils.rnn.pack_sequence(seqs)
        D = 2 if bi else 1
        B = len(lengths)
        h0 = R(L * D, B, proj if proj else H, dt=dt)
        params = [p.detach().clone() for p in m._flat_weights]
        hx = [h0, R(L * D, B, H, dt=dt)] if lstm else h0
        return [packed.data, packed.batch_sizes, hx, params, bias, L, 0.0, False, bi], {}
    return make


f = F(A.lstm.data, "acc")
f.case("one layer", packed_case(torch.nn.LSTM, True))
f.case("two layers bidirectional", packed_case(torch.nn.LSTM, True, L=2, bi=True, lengths=(3, 3, 2)))
f.case("proj_size bidirectional", packed_case(torch.nn.LSTM, True, proj=2, bi=True, H=4))
f = F(A.gru.data, "acc")
f.case("bidirectional float64", packed_case(torch.nn.GRU, False, bi=True, dt=f64))
f = F(A.rnn_tanh.data, "acc")
f.case("two layers", packed_case(torch.nn.RNN, False, L=2))
f = F(A.rnn_relu.data, "acc")
f.case("bidirectional, no biases", packed_case(torch.nn.RNN, False, bi=True, bias=False, nonlinearity="relu"))
torch.backends.mkldnn.enabled = True


# --- pooling extras --------------------------------------------------------

def Rn(*shape, dt=f32):
    """Distinct values, so that no window has a tie."""
    n = 1
    for v in shape:
        n *= v
    return (torch.randperm(n, dtype=f64) * 0.25 - n / 8).reshape(shape).to(dt)


f = F(A.max_pool1d.default, "exact")
f.case("3-d", lambda: ([Rn(2, 3, 9), [3]], {}))
f.case("2-d stride padding dilation ceil", lambda: ([Rn(3, 10), [3], [2], [1], [2], True], {}))
f.case("float64", lambda: ([Rn(1, 2, 7, dt=f64), [2], [1]], {}))

f = F(A.max_pool1d_with_indices.default, "exact")
f.case("3-d", lambda: ([Rn(2, 3, 9), [3]], {}))
f.case("2-d ceil", lambda: ([Rn(3, 10), [3], [2], [1], [1], True], {}))
f.case("nan", lambda: ([torch.tensor([[1.0, float("nan"), 3.0, 2.0]]), [2]], {}))

f = F(A.max_pool3d.default, "exact")
f.case("5-d", lambda: ([Rn(1, 2, 4, 4, 4), [2]], {}))
f.case("4-d padding dilation", lambda: ([Rn(2, 5, 5, 5), [3, 2, 2], [1, 2, 1], [1, 1, 0], [1, 1, 2]], {}))

for nd, op in ((1, A.adaptive_max_pool1d.default), (2, A.adaptive_max_pool2d.default), (3, A.adaptive_max_pool3d.default)):
    f = F(op, "exact")
    sp = {1: (10,), 2: (7, 9), 3: (5, 4, 6)}[nd]
    f.case("batched", lambda sp=sp, nd=nd: ([Rn(2, 3, *sp), [3] * nd], {}))
    f.case("unbatched, larger output", lambda sp=sp, nd=nd: ([Rn(2, *sp), [s + 1 for s in sp]], {}))
    f.case("float64 output 1", lambda sp=sp, nd=nd: ([Rn(1, 2, *sp, dt=f64), [1] * nd], {}))
    f.case("bfloat16", lambda sp=sp, nd=nd: ([Rn(1, 2, *sp, dt=bf16), [2] * nd], {}))
    if nd == 2:
        f.case("nan", lambda: ([torch.tensor([[[1.0, float("nan")], [3.0, 2.0]]]), [1, 1]], {}))

f = F(A.adaptive_avg_pool3d.default, "acc")
f.case("5-d", lambda: ([R(1, 2, 5, 4, 6), [2, 3, 4]], {}))
f.case("4-d to 1", lambda: ([R(2, 3, 3, 3), [1, 1, 1]], {}))


def unpool(nd, shape, k, dt=f32):
    def make():
        x = Rn(*shape, dt=dt)
        pool = {2: torch.nn.functional.max_pool2d, 3: torch.nn.functional.max_pool3d}[nd]
        v, i = pool(x, k, return_indices=True)
        size = list(shape[-nd:])
        if nd == 2:
            return [v, i, size], {}
        return [v, i, size, [k] * 3, [0] * 3], {}
    return make


f = F(A.max_unpool2d.default, "exact")
f.case("4-d", unpool(2, (2, 3, 6, 4), 2))
f.case("3-d odd size", unpool(2, (2, 7, 5), 2))
f.case("float64", unpool(2, (1, 1, 4, 4), 2, dt=f64))
f.case("duplicate indices, larger output", lambda: ([torch.tensor([[[1.0, 2.0], [3.0, 4.0]]]),
                                                      torch.tensor([[[0, 5], [5, 8]]]), [3, 3]], {}))
f.case("bfloat16", unpool(2, (1, 2, 4, 4), 2, dt=bf16))

f = F(A.max_unpool3d.default, "exact")
f.case("5-d", unpool(3, (1, 2, 4, 4, 4), 2))
f.case("4-d", unpool(3, (2, 5, 4, 6), 2))


def frac(nd, shape, k, out, dt=f32):
    def make():
        x = Rn(*shape, dt=dt)
        n = shape[0] if len(shape) == nd + 2 else 1
        c = shape[-nd - 1]
        return [x, k, out, torch.rand(n, c, nd, dtype=dt)], {}
    return make


f = F(A.fractional_max_pool2d.default, "exact")
f.case("4-d", frac(2, (2, 3, 9, 11), [2, 3], [4, 5]))
f.case("3-d", frac(2, (2, 7, 7), [3, 3], [3, 4]))
f.case("float64", frac(2, (1, 2, 10, 6), [2, 2], [5, 3], dt=f64))
f.case("output 1", frac(2, (1, 1, 5, 5), [2, 2], [1, 1]))

f = F(A.fractional_max_pool3d.default, "exact")
f.case("5-d", frac(3, (1, 2, 6, 7, 8), [2, 2, 3], [3, 4, 3]))
f.case("4-d float64", frac(3, (2, 5, 5, 5), [2, 2, 2], [2, 3, 3], dt=f64))

# --- anti-aliased upsampling ---------------------------------------------

for name in ("bilinear", "bicubic"):
    op = getattr(A, f"_upsample_{name}2d_aa")
    f = F(op.default, "acc")
    f.case("downsample", lambda: ([R(1, 2, 9, 11), [4, 3], False], {}))
    f.case("upsample", lambda: ([R(2, 1, 3, 4), [7, 9], False], {}))
    f.case("align_corners mixed", lambda: ([R(1, 2, 8, 5), [3, 9], True], {}))
    f.case("scales", lambda: ([R(1, 1, 10, 10), [4, 5], False, 0.4, 0.5], {}))
    f.case("one dimension", lambda: ([R(1, 1, 6, 7), [6, 2], False], {}))
    f.case("float64", lambda: ([R(1, 2, 7, 6, dt=f64), [3, 4], False], {}))
    f.case("same size", lambda: ([R(1, 1, 3, 3), [3, 3], False], {}))
    f = F(op.vec, "acc")
    f.case("scale_factors", lambda: ([R(1, 2, 9, 8), None, False, [0.5, 0.3]], {}))
    f.case("output_size", lambda: ([R(1, 1, 5, 5), [2, 8], True, None], {}))
    f.case("float64 scale up", lambda: ([R(1, 1, 3, 4, dt=f64), None, False, [2.5, 1.5]], {}))

# --- window and index factories --------------------------------------------

for name in ("hann", "hamming", "blackman", "bartlett", "kaiser"):
    op = getattr(A, f"{name}_window")
    f = F(op.default, "ew")
    f.case("10", lambda: ([10], {}))
    f.case("0", lambda: ([0], {}))
    f.case("1", lambda: ([1], {}))
    f.case("float64 7", lambda: ([7], {"dtype": f64}))
    f = F(op.periodic, "ew")
    f.case("symmetric 9", lambda: ([9, False], {}))
    f.case("periodic 8 float64", lambda: ([8, True], {"dtype": f64}))
    f.case("symmetric 2", lambda: ([2, False], {}))
f = F(A.hamming_window.periodic_alpha, "ew")
f.case("alpha", lambda: ([6, False, 0.6], {}))
f = F(A.hamming_window.periodic_alpha_beta, "ew")
f.case("alpha beta float64", lambda: ([7, True, 0.6, 0.3], {"dtype": f64}))
f = F(A.kaiser_window.beta, "ew")
f.case("beta 5", lambda: ([9, False, 5.0], {}))
f.case("beta 8 float64 periodic", lambda: ([6, True, 8.0], {"dtype": f64}))

for name in ("tril_indices", "triu_indices"):
    f = F(getattr(A, name).default, "exact")
    f.case("square", lambda: ([4, 4], {}))
    f.case("wide offset 1", lambda: ([3, 5, 1], {}))
    f.case("tall offset -2", lambda: ([5, 3, -2], {}))
    f.case("empty", lambda: ([0, 3], {}))
    f.case("int32", lambda: ([3, 3, 0], {"dtype": torch.int32}))

f = F(A.vander.default, "ew")
f.case("float", lambda: ([R(4)], {}))
f.case("N increasing", lambda: ([R(3, dt=f64), 5, True], {}))
f.case("int32", lambda: ([torch.tensor([1, 2, -3], dtype=torch.int32), 4], {}))
f.case("N 0", lambda: ([R(3), 0], {}))

f = F(A.range.default, "exact")
f.case("ints, float32 result", lambda: ([1, 4], {}))
f.case("int64", lambda: ([-2, 3], {"dtype": i64}))
f = F(A.range.step, "exact")
f.case("float step", lambda: ([0.0, 1.0, 0.25], {}))
f.case("negative step float64", lambda: ([5, 1, -1.5], {"dtype": f64}))

# --- PT2E quantization -------------------------------------------------------

import torch.ao.quantization.fx._decomposed  # noqa: E402,F401  defines the ops

Q = torch.ops.quantized_decomposed
i8, u8 = torch.int8, torch.uint8
f = F(Q.choose_qparams.tensor, "exact")
f.case("int8", lambda: ([R(4, 5), -128, 127, 1e-5, i8], {}))
f.case("uint8 positive", lambda: ([R(6).abs() + 1, 0, 255, 1e-5, u8], {}))
f.case("bfloat16", lambda: ([R(3, 3, dt=bf16), -128, 127, 1e-5, i8], {}))
f.case("all zero (eps)", lambda: ([torch.zeros(4), -128, 127, 1e-3, i8], {}))
f = F(Q.choose_qparams_symmetric.tensor, "exact")
f.case("int8", lambda: ([R(4, 5), -128, 127, 1e-5, i8], {}))
f.case("uint8", lambda: ([R(7), 0, 255, 1e-5, u8], {}))
f = F(Q.choose_qparams_per_token.default, "exact")
f.case("3-d", lambda: ([R(2, 3, 4), i8], {}))
f.case("float16", lambda: ([R(3, 5, dt=torch.float16), i8], {}))
for op in (Q.choose_qparams_per_token_asymmetric.default, Q._choose_qparams_per_token_asymmetric_impl.default):
    f = F(op, "exact")
    f.case("2-d", lambda: ([R(3, 6), i8], {}))
    f.case("one-sided rows", lambda: ([torch.tensor([[1.0, 2.0, 3.0], [-1.0, -4.0, -0.5]]), i8], {}))


def per_token():
    x = R(2, 3, 4)
    s, z = torch.ops.quantized_decomposed.choose_qparams_per_token_asymmetric(x, i8)
    return x, s, z


f = F(Q.quantize_per_token.default, "exact")
f.case("asymmetric params", lambda: (list(per_token()) + [-128, 127, i8], {}))
f.case("float32 scales int32 zero points", lambda: ([R(3, 4), R(3, 1).abs() * 0.05 + 0.01, torch.randint(-3, 3, (3, 1), dtype=torch.int32), -128, 127, i8], {}))
f = F(Q.dequantize_per_token.default, "exact")
f.case("int8", lambda: ([torch.randint(-128, 128, (2, 3, 4), dtype=i8), R(2, 3, 1, dt=f64).abs() * 0.1, torch.randint(-5, 5, (2, 3, 1)), -128, 127, i8, f32], {}))
f.case("bfloat16 out", lambda: ([torch.randint(0, 256, (3, 4), dtype=u8), R(3, 1).abs() * 0.1, torch.randint(0, 9, (3, 1)), 0, 255, u8, bf16], {}))
f = F(Q.quantize_per_channel_group.default, "exact")
f.case("group 4", lambda: ([R(3, 8), R(6).abs() * 0.05 + 0.01, torch.randint(-2, 2, (6,)), -8, 7, i8, 4], {}))
f.case("group above the row", lambda: ([R(2, 4), R(2, 1).abs() * 0.05 + 0.01, torch.zeros(2, 1, dtype=torch.int32), -128, 127, i8, 128], {}))
f = F(Q.dequantize_per_channel_group.default, "exact")
f.case("group 4", lambda: ([torch.randint(-8, 8, (3, 8), dtype=i8), R(6).abs() * 0.05, torch.randint(-2, 2, (6,)), -8, 7, i8, 4, f32], {}))
f.case("no zero points, float16 out", lambda: ([torch.randint(-8, 8, (2, 6), dtype=i8), R(2, 3).abs() * 0.05, None, -8, 7, i8, 2, torch.float16], {}))
f = F(A._choose_qparams_per_tensor.default, "exact")
f.case("mixed signs", lambda: ([R(5, 4)], {}))
f.case("reduce_range", lambda: ([R(7), True], {}))
f.case("all zero", lambda: ([torch.zeros(3)], {}))
f.case("tiny range", lambda: ([R(6) * 1e-4], {}))
f = F(A.choose_qparams_optimized.default, "exact")
f.case("8 bits", lambda: ([R(64), 64, 200, 0.16, 8], {}))
f.case("4 bits, part of the input", lambda: ([R(50), 40, 100, 0.5, 4], {}))
f.case("outliers", lambda: ([torch.cat([R(30), torch.tensor([8.0, -9.0])]), 32, 50, 0.3, 8], {}))

write_all(OUT)

# --- random operators ------------------------------------------------------
#
# Written to ../random: the note of every case starts with "seed=S", the
# torch.manual_seed the op ran after (its inputs were drawn before).

RANDOM = os.path.join(OUT, "..", "random")
rfiles = []


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


def RF(overload, kind="rand"):
    f = RandomFile(overload, kind)
    rfiles.append(f)
    return f


confgen.TOL["rand"] = {f32: (1e-5, 1e-5), f64: (1e-12, 1e-12), bf16: (1.6e-2, 1e-2), torch.float16: (1e-3, 1e-3)}
z = torch.zeros

f = RF(A.rand.default)
f.case("5", lambda: ([[5]], {}))
f.case("4x5 float64", lambda: ([[4, 5]], {"dtype": f64}), seed=7)
f.case("bfloat16", lambda: ([[7]], {"dtype": bf16}))
f.case("float16", lambda: ([[6]], {"dtype": torch.float16}))
f = RF(A.randn.default)
f.case("5 (cached second sample)", lambda: ([[5]], {}))
f.case("16", lambda: ([[16]], {}), seed=3)
f.case("37 (last block redrawn)", lambda: ([[37]], {}))
f.case("37 float64", lambda: ([[37]], {"dtype": f64}))
f.case("3x2 float64", lambda: ([[3, 2]], {"dtype": f64}))
f = RF(A.randint.default)
f.case("high", lambda: ([10, [20]], {}))
f.case("float32", lambda: ([6, [3, 3]], {"dtype": f32}))
f = RF(A.randint.low)
f.case("low", lambda: ([-5, 5, [3, 4]], {}))
f.case("range above 2^32", lambda: ([0, 2 ** 40, [5]], {}))
f = RF(A.randint_like.default)
f.case("int32", lambda: ([z(3, 4, dtype=torch.int32), 7], {}))
f = RF(A.randint_like.low_dtype)
f.case("low", lambda: ([z(5), 2, 9], {}))
f = RF(A.randperm.default)
f.case("10", lambda: ([10], {}))
f.case("1", lambda: ([1], {}))
f.case("100 int32", lambda: ([100], {"dtype": torch.int32}))
f = RF(A.rand_like.default)
f.case("float64", lambda: ([z(3, 3, dtype=f64)], {}))
f = RF(A.randn_like.default)
f.case("20", lambda: ([z(20)], {}))
f = RF(A.bernoulli.p)
f.case("0.3", lambda: ([z(50), 0.3], {}))
f.case("float64 0.7", lambda: ([z(4, 5, dtype=f64), 0.7], {}))
f = RF(A.bernoulli.default)
f.case("float32 probabilities", lambda: ([torch.rand(30)], {}))
f.case("float64 probabilities", lambda: ([torch.rand(30, dtype=f64)], {}))
f = RF(A.bernoulli.Tensor)
f.case("broadcast p", lambda: ([z(4, 5), torch.rand(5)], {}))
f = RF(A.normal.Tensor_float)
f.case("20", lambda: ([torch.randn(20), 2.0], {}))
f.case("5", lambda: ([torch.randn(5, dtype=f64), 0.5], {}))
f = RF(A.normal.float_Tensor)
f.case("3x4", lambda: ([1.5, torch.rand(3, 4)], {}))
f = RF(A.normal.Tensor_Tensor)
f.case("broadcast", lambda: ([torch.randn(4, 1), torch.rand(1, 5)], {}))
f = RF(A.normal.float_float)
f.case("18", lambda: ([0.5, 2.0, [18]], {}))
f = RF(A.normal_functional.default)
f.case("5x4 float64", lambda: ([z(5, 4, dtype=f64), 1.0, 3.0], {}))
f = RF(A.uniform.default)
f.case("float32", lambda: ([z(10), -2.0, 3.0], {}))
f.case("float64", lambda: ([z(10, dtype=f64), -2.0, 3.0], {}))
f = RF(A.exponential.default)
f.case("float64", lambda: ([z(10, dtype=f64), 2.0], {}))
f.case("float32", lambda: ([z(10), 0.5], {}))
f = RF(A.geometric.default)
f.case("float32", lambda: ([z(10), 0.3], {}))
f.case("int64", lambda: ([z(10, dtype=i64), 0.6], {}))
f = RF(A.log_normal.default)
f.case("float64", lambda: ([z(6, dtype=f64), 0.5, 0.3], {}))
f = RF(A.cauchy.default)
f.case("float64", lambda: ([z(6, dtype=f64), 1.0, 2.0], {}))
f = RF(A.random.default)
f.case("int64", lambda: ([z(5, dtype=i64)], {}))
f.case("float32", lambda: ([z(5)], {}))
f.case("int32", lambda: ([z(5, dtype=torch.int32)], {}))
f = RF(A.random.to)
f.case("float32", lambda: ([z(5), 10], {}))
f = RF(getattr(A.random, "from"))
f.case("int32", lambda: ([z(6, dtype=torch.int32), -3, 4], {}))
f.case("no to", lambda: ([z(6, dtype=i64), 5, None], {}))
f = RF(A.multinomial.default)
f.case("without replacement", lambda: ([torch.rand(2, 5), 3], {}))
f.case("with replacement", lambda: ([torch.rand(5), 4, True], {}))
f.case("one sample float64", lambda: ([torch.rand(3, 4, dtype=f64), 1], {}))
f = RF(A.poisson.default)
f.case("rates below and above 10", lambda: ([torch.rand(10, dtype=f64) * 20], {}))
f = RF(A.binomial.default)
f.case("inversion and BTRS", lambda: ([torch.full((8,), 30.0, dtype=f64), torch.rand(8, dtype=f64)], {}))
f = RF(A._standard_gamma.default)
f.case("float64 shapes below and above 1", lambda: ([torch.tensor([0.3, 0.9, 1.0, 2.5, 7.0, 0.05], dtype=f64)], {}))
f.case("float32", lambda: ([torch.tensor([0.5, 1.5, 3.0, 10.0])], {}))
f = RF(A._sample_dirichlet.default)
f.case("float64 rows", lambda: ([torch.tensor([[0.5, 1.0, 2.0], [3.0, 0.2, 1.0]], dtype=f64)], {}))
f = RF(A.native_dropout.default)
f.case("train", lambda: ([torch.randn(20), 0.3, True], {}))
f = RF(A.dropout.default)
f.case("train", lambda: ([torch.randn(4, 5), 0.5, True], {}))
f = RF(A.feature_dropout.default)
f.case("train", lambda: ([torch.randn(2, 3, 4), 0.5, True], {}))
f = RF(A.alpha_dropout.default)
f.case("train", lambda: ([torch.randn(4, 5), 0.2, True], {}))
f = RF(A.feature_alpha_dropout.default)
f.case("train", lambda: ([torch.randn(2, 3, 2, 2), 0.4, True], {}))
f = RF(A.rrelu_with_noise_functional.default)
f.case("training", lambda: ([torch.randn(10), z(10), 0.1, 0.3, True], {}))
f = RF(A.rrelu.default)
f.case("training float64", lambda: ([torch.randn(10, dtype=f64), 0.125, 1 / 3, True], {}))
f.case("eval", lambda: ([torch.randn(10), 0.125, 1 / 3, False], {}))

os.makedirs(RANDOM, exist_ok=True)
for f in rfiles:
    f.write(RANDOM)
