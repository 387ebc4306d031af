#!/usr/bin/env python3
"""Writes pyeval.txt: random integer expressions in prefix form, symbol values, and the
value Python computes (its // and %, arbitrary precision), or "ZeroDivisionError".

Each line: EXPR<TAB>v0 v1 v2<TAB>RESULT. Regenerate with
    python3 sym/testdata/gen_pyeval.py > sym/testdata/pyeval.txt
The sym tests parse EXPR, build it with the Go API, and compare Expr.Eval with RESULT.
"""
import random

OPS = ["+", "-", "*", "//", "%", "min", "max"]


def rand_tree(rng, depth, nsym):
    if depth == 0 or rng.randrange(4) == 0:
        if rng.randrange(2) == 0:
            return str(rng.randrange(-6, 7))
        return "s%d" % rng.randrange(nsym)
    if rng.randrange(10) == 0:
        return "(neg %s)" % rand_tree(rng, depth - 1, nsym)
    op = rng.choice(OPS)
    return "(%s %s %s)" % (op, rand_tree(rng, depth - 1, nsym), rand_tree(rng, depth - 1, nsym))


def parse(s):
    toks = s.replace("(", " ( ").replace(")", " ) ").split()
    pos = 0

    def rec():
        nonlocal pos
        tok = toks[pos]
        pos += 1
        if tok != "(":
            return tok
        op = toks[pos]
        pos += 1
        args = [rec()]
        if op != "neg":
            args.append(rec())
        pos += 1  # ")"
        return (op, *args)

    return rec()


def ev(t, vals):
    if isinstance(t, str):
        if t.startswith("s"):
            return vals[int(t[1:])]
        return int(t)
    op = t[0]
    a = ev(t[1], vals)
    if op == "neg":
        return -a
    b = ev(t[2], vals)
    return {
        "+": lambda: a + b,
        "-": lambda: a - b,
        "*": lambda: a * b,
        "//": lambda: a // b,
        "%": lambda: a % b,
        "min": lambda: min(a, b),
        "max": lambda: max(a, b),
    }[op]()


def main():
    rng = random.Random(20240505)
    for _ in range(1500):
        e = rand_tree(rng, 4, 3)
        vals = [rng.randrange(-9, 10) for _ in range(3)]
        try:
            r = str(ev(parse(e), vals))
        except ZeroDivisionError:
            r = "ZeroDivisionError"
        print("%s\t%s\t%s" % (e, " ".join(map(str, vals)), r))


if __name__ == "__main__":
    main()
