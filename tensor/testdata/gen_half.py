"""Generates half.json: float32 -> float16 and float32 -> bfloat16 rounding.

Run from the repository root with /usr/bin/python3 tensor/testdata/gen_half.py.
Each entry is "F32BITS:F16BITS:BF16BITS" in hex: the bits of a float32 and of
what torch's .to(torch.float16) and .to(torch.bfloat16) make of it. The
float32 values are random bit patterns, the halfway points between
neighbouring float16 and bfloat16 values (ties) and their float32
neighbours, and special values.
"""

import json
import os
import random

import torch


def bits_to_f32(bits):
    return torch.tensor(bits, dtype=torch.int64).to(torch.int32).view(torch.float32)


def main():
    rng = random.Random(1234)
    pats = set()
    for _ in range(2048):
        pats.add(rng.getrandbits(32))
    # Ties of float16: float32 halfway between two float16 neighbours, and
    # one float32 ulp either side, for a spread of exponents (normal and
    # subnormal float16), both signs.
    for exp in range(31):
        for m in (0, 1, 2, 3, 0x155, 0x3FE, 0x3FF):
            hb = exp << 10 | m
            if hb >= 0x7BFF:
                continue
            pair = torch.tensor([hb, hb + 1], dtype=torch.int16).view(torch.float16)
            mid = pair.double().mean().float()
            mbits = mid.view(torch.int32).item() & 0xFFFFFFFF
            for d in (-1, 0, 1):
                for sign in (0, 1):
                    pats.add(((mbits + d) & 0x7FFFFFFF) | (sign << 31))
    # Ties of bfloat16: low 16 bits 0x8000 with odd and even upper halves.
    for hi in (0x3F80, 0x3F81, 0x4049, 0x7F7F, 0x0001, 0x0080, 0x8080, 0xC2F7):
        for lo in (0x7FFF, 0x8000, 0x8001):
            pats.add(hi << 16 | lo)
    # Every float16 value itself, and every bfloat16 value, as a float32.
    for hb in range(0, 0x10000, 97):
        pats.add(torch.tensor([hb], dtype=torch.int32).to(torch.int16).view(torch.float16).float().view(torch.int32).item() & 0xFFFFFFFF)
        pats.add(hb << 16)
    specials = [
        0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000,
        0x7F800001, 0x7FBFFFFF, 0x477FE000, 0x477FEFFF, 0x477FF000, 0x477FF001,
        0x7F7FFFFF, 0x00000001, 0x33000000, 0x33000001, 0x32FFFFFF, 0x387FC000,
        0x38800000,
    ]
    pats.update(specials)
    pats = sorted(pats)
    f32 = bits_to_f32(pats)
    h = f32.to(torch.float16).view(torch.int16).to(torch.int64).tolist()
    b = f32.to(torch.bfloat16).view(torch.int16).to(torch.int64).tolist()
    out = ["%08x:%04x:%04x" % (p, hh & 0xFFFF, bb & 0xFFFF) for p, hh, bb in zip(pats, h, b)]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "half.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
