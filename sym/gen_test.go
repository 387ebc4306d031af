package sym

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
)

// tree is an expression as written, before canonicalization, with a naive evaluator over
// big integers (Python's semantics) to check Expr against.
type tree struct {
	op   string // "c", "s", "+", "-", "*", "//", "%", "min", "max", "neg"
	c    int64
	sym  int
	l, r *tree
}

var binOps = []string{"+", "-", "*", "//", "%", "min", "max"}

// randTree draws a random tree over nsym symbols.
func randTree(rng *rand.Rand, depth, nsym int) *tree {
	if depth == 0 || rng.IntN(4) == 0 {
		if rng.IntN(2) == 0 {
			return &tree{op: "c", c: int64(rng.IntN(13) - 6)}
		}
		return &tree{op: "s", sym: rng.IntN(nsym)}
	}
	if rng.IntN(10) == 0 {
		return &tree{op: "neg", l: randTree(rng, depth-1, nsym)}
	}
	return &tree{op: binOps[rng.IntN(len(binOps))], l: randTree(rng, depth-1, nsym), r: randTree(rng, depth-1, nsym)}
}

// bytesTree decodes a tree from fuzz input; it consumes at most 64 nodes.
func bytesTree(data []byte, nsym int) *tree {
	pos, budget := 0, 64
	next := func() byte {
		if pos >= len(data) {
			return 0
		}
		pos++
		return data[pos-1]
	}
	var rec func(depth int) *tree
	rec = func(depth int) *tree {
		budget--
		b := next()
		if depth > 6 || budget <= 0 || b%3 == 0 {
			v := next()
			if b%2 == 0 {
				return &tree{op: "c", c: int64(int8(v)) % 20}
			}
			return &tree{op: "s", sym: int(v) % nsym}
		}
		if b%11 == 1 {
			return &tree{op: "neg", l: rec(depth + 1)}
		}
		return &tree{op: binOps[int(b/3)%len(binOps)], l: rec(depth + 1), r: rec(depth + 1)}
	}
	return rec(0)
}

// String writes the tree in prefix form: "(+ s0 3)"; the Python reference script reads and
// writes the same form.
func (t *tree) String() string {
	switch t.op {
	case "c":
		return strconv.FormatInt(t.c, 10)
	case "s":
		return "s" + strconv.Itoa(t.sym)
	case "neg":
		return "(neg " + t.l.String() + ")"
	}
	return "(" + t.op + " " + t.l.String() + " " + t.r.String() + ")"
}

// parseTree reads the prefix form.
func parseTree(s string) (*tree, error) {
	toks := strings.Fields(strings.NewReplacer("(", " ( ", ")", " ) ").Replace(s))
	pos := 0
	var rec func() (*tree, error)
	rec = func() (*tree, error) {
		if pos >= len(toks) {
			return nil, errors.New("unexpected end")
		}
		tok := toks[pos]
		pos++
		if tok != "(" {
			if strings.HasPrefix(tok, "s") {
				n, err := strconv.Atoi(tok[1:])
				return &tree{op: "s", sym: n}, err
			}
			c, err := strconv.ParseInt(tok, 10, 64)
			return &tree{op: "c", c: c}, err
		}
		if pos >= len(toks) {
			return nil, errors.New("unexpected end")
		}
		t := &tree{op: toks[pos]}
		pos++
		var err error
		if t.l, err = rec(); err != nil {
			return nil, err
		}
		if t.op != "neg" {
			if t.r, err = rec(); err != nil {
				return nil, err
			}
		}
		if pos >= len(toks) || toks[pos] != ")" {
			return nil, fmt.Errorf("missing ) at token %d", pos)
		}
		pos++
		return t, nil
	}
	return rec()
}

// build constructs the Expr through the public API.
func (t *tree) build(syms []*Symbol) (Expr, error) {
	switch t.op {
	case "c":
		return Const(t.c), nil
	case "s":
		return syms[t.sym].Expr(), nil
	}
	l, err := t.l.build(syms)
	if err != nil {
		return Expr{}, err
	}
	if t.op == "neg" {
		return l.Neg(), nil
	}
	r, err := t.r.build(syms)
	if err != nil {
		return Expr{}, err
	}
	switch t.op {
	case "+":
		return l.Add(r), nil
	case "-":
		return l.Sub(r), nil
	case "*":
		return l.Mul(r), nil
	case "//":
		return FloorDivErr(l, r)
	case "%":
		return ModErr(l, r)
	case "min":
		return Min(l, r), nil
	case "max":
		return Max(l, r), nil
	}
	return Expr{}, fmt.Errorf("bad op %q", t.op)
}

var errNaiveDiv = errors.New("naive: division by zero")

// naive evaluates the tree directly with big integers and Python's // and %.
func (t *tree) naive(vals []int64) (*big.Int, error) {
	switch t.op {
	case "c":
		return big.NewInt(t.c), nil
	case "s":
		return big.NewInt(vals[t.sym]), nil
	}
	l, err := t.l.naive(vals)
	if err != nil {
		return nil, err
	}
	if t.op == "neg" {
		return l.Neg(l), nil
	}
	r, err := t.r.naive(vals)
	if err != nil {
		return nil, err
	}
	z := new(big.Int)
	switch t.op {
	case "+":
		return z.Add(l, r), nil
	case "-":
		return z.Sub(l, r), nil
	case "*":
		return z.Mul(l, r), nil
	case "//", "%":
		if r.Sign() == 0 {
			return nil, errNaiveDiv
		}
		// Python: q = floor(l / r), m = l - r*q.
		q, m := new(big.Int).QuoRem(l, r, new(big.Int))
		if m.Sign() != 0 && (m.Sign() < 0) != (r.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
			m.Add(m, r)
		}
		if t.op == "//" {
			return q, nil
		}
		return m, nil
	case "min":
		if l.Cmp(r) <= 0 {
			return l, nil
		}
		return r, nil
	case "max":
		if l.Cmp(r) >= 0 {
			return l, nil
		}
		return r, nil
	}
	return nil, fmt.Errorf("bad op %q", t.op)
}

// magnitude bounds every intermediate value (and coefficient) of both the tree and its
// canonical form for the given values; above 2^62 a comparison could hit int64 overflow.
func (t *tree) magnitude(vals []int64) *big.Int {
	abs := func(v int64) *big.Int { return new(big.Int).Abs(big.NewInt(max(v, 1, -v))) }
	switch t.op {
	case "c":
		return abs(t.c)
	case "s":
		return abs(vals[t.sym])
	case "neg":
		return t.l.magnitude(vals)
	}
	l, r := t.l.magnitude(vals), t.r.magnitude(vals)
	switch t.op {
	case "+", "-":
		return l.Add(l, r)
	case "*", "//":
		return l.Mul(l, r) // (a//k1)//k2 folds to a//(k1*k2)
	}
	if l.Cmp(r) < 0 {
		return r.Mul(r, big.NewInt(2))
	}
	return l.Mul(l, big.NewInt(2))
}

var limit62 = new(big.Int).Lsh(big.NewInt(1), 62)
