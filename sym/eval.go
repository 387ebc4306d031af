package sym

import (
	"errors"
	"fmt"
	"math/bits"
)

var errOverflow = errors.New("integer overflow")

func addChecked(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0)
}

func mulChecked(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	hi, lo := bits.Mul64(uint64(absU(a)), uint64(absU(b)))
	neg := (a < 0) != (b < 0)
	if hi != 0 {
		return 0, false
	}
	if neg {
		if lo > 1<<63 {
			return 0, false
		}
		return int64(-lo), true
	}
	if lo > 1<<63-1 {
		return 0, false
	}
	return int64(lo), true
}

func absU(a int64) uint64 {
	if a < 0 {
		return uint64(-a)
	}
	return uint64(a)
}

// Eval computes e for the given symbol values with Python's integer semantics. It returns an
// error naming the first symbol (in canonical order) without a value, and an error for a
// division or modulo by zero and for an int64 overflow.
func (e Expr) Eval(values map[*Symbol]int64) (int64, error) {
	return e.eval(func(s *Symbol) (int64, error) {
		if v, ok := values[s]; ok {
			return v, nil
		}
		return 0, fmt.Errorf("sym: evaluating %v: no value for symbol %s", e, s.name)
	})
}

func (e Expr) eval(val func(*Symbol) (int64, error)) (int64, error) {
	sum := e.k
	for _, t := range e.terms {
		p := t.c
		for _, f := range t.m {
			v, err := f.a.eval(val)
			if err != nil {
				return 0, err
			}
			for range f.p {
				var ok bool
				if p, ok = mulChecked(p, v); !ok {
					return 0, fmt.Errorf("sym: evaluating %v: %w", e, errOverflow)
				}
			}
		}
		var ok bool
		if sum, ok = addChecked(sum, p); !ok {
			return 0, fmt.Errorf("sym: evaluating %v: %w", e, errOverflow)
		}
	}
	return sum, nil
}

func (a *atom) eval(val func(*Symbol) (int64, error)) (int64, error) {
	if a.op == opSym {
		return val(a.sym)
	}
	x, err := a.x.eval(val)
	if err != nil {
		return 0, err
	}
	y, err := a.y.eval(val)
	if err != nil {
		return 0, err
	}
	switch a.op {
	case opFloorDiv, opMod:
		if y == 0 {
			return 0, fmt.Errorf("sym: evaluating %v: %w", atomExpr(a), errDivZero)
		}
		if y == -1 && x == -1<<63 {
			return 0, fmt.Errorf("sym: evaluating %v: %w", atomExpr(a), errOverflow)
		}
		if a.op == opFloorDiv {
			return pyFloorDiv(x, y), nil
		}
		return pyMod(x, y), nil
	case opMin:
		return min(x, y), nil
	default:
		return max(x, y), nil
	}
}
