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
torch.backends.mkldnn.enabled = True

write_all(OUT)
