package nn

import (
	"fmt"
	"math"

	"github.com/gofx/gofx/node"
)

// The Python functions on numbers that PyTorch 2.x's exported programs
// call on symbolic sizes besides the operator module's arithmetic and
// comparisons (pyops.go): serialize.py's _SYM_OPS. A .pt2 file names them
// by module and name (torch.sym_max, math.trunc, _operator.and_);
// node.LookupTarget resolves those names. Each computes with Python's
// semantics on Go numbers.
var (
	OperatorPos = node.MustFunc("operator.pos", false)
	OperatorAnd = node.MustFunc("operator.and_", false)
	OperatorOr  = node.MustFunc("operator.or_", false)
	MathTrunc   = node.MustFunc("math.trunc", false)
	SymNot      = node.MustFunc("torch.sym_not", false)
	SymInt      = node.MustFunc("torch.sym_int", false)
	SymFloat    = node.MustFunc("torch.sym_float", false)
	SymIte      = node.MustFunc("torch.sym_ite", false)
	SymMax      = node.MustFunc("torch.sym_max", false)
	SymMin      = node.MustFunc("torch.sym_min", false)
	SymSqrt     = node.MustFunc("torch.sym_sqrt", false)
)

func init() {
	unary := map[*node.Func]func(Value) (Value, error){
		OperatorPos: func(a Value) (Value, error) { return a, nil },
		MathTrunc:   func(a Value) (Value, error) { return Value{truncInt(a)}, nil },
		SymNot: func(a Value) (Value, error) {
			x, _ := numInt(a)
			if f, ok := a.v.(float64); ok {
				return Value{f == 0}, nil
			}
			return Value{x == 0}, nil
		},
		SymInt:   func(a Value) (Value, error) { return Value{truncInt(a)}, nil },
		SymFloat: func(a Value) (Value, error) { return Value{numFloat(a)}, nil },
		SymSqrt:  func(a Value) (Value, error) { return Value{math.Sqrt(numFloat(a))}, nil },
	}
	for fn, f := range unary {
		must(RegisterFunction(fn, unaryImpl(fn, f)))
	}
	for fn, f := range map[*node.Func]func(a, b Value) (Value, error){
		OperatorAnd: bitwise(func(x, y int64) int64 { return x & y }),
		OperatorOr:  bitwise(func(x, y int64) int64 { return x | y }),
		SymMax:      symMinMax(func(c int) bool { return c > 0 }),
		SymMin:      symMinMax(func(c int) bool { return c < 0 }),
	} {
		must(RegisterFunction(fn, binaryImpl(fn, f)))
	}
	must(RegisterFunction(SymIte, func(args []Value, kwargs map[string]Value) (Value, error) {
		if len(args) != 3 || len(kwargs) != 0 {
			return None, fmt.Errorf("torch.sym_ite takes 3 arguments, got %d", len(args)+len(kwargs))
		}
		b, ok := args[0].v.(bool)
		if !ok {
			return None, fmt.Errorf("torch.sym_ite: the condition must be a bool, got %s", args[0].Kind())
		}
		if b {
			return args[1], nil
		}
		return args[2], nil
	}))
}

// unaryImpl checks the arity and operand kind of a one-argument function.
func unaryImpl(fn node.Function, f func(Value) (Value, error)) FuncImpl {
	return func(args []Value, kwargs map[string]Value) (Value, error) {
		if len(args) != 1 || len(kwargs) != 0 {
			return None, fmt.Errorf("%s takes 1 argument, got %d", fn, len(args)+len(kwargs))
		}
		if !isNumber(args[0]) {
			return None, fmt.Errorf("%s: the operand must be a number, got %s", fn, args[0].Kind())
		}
		return f(args[0])
	}
}

// truncInt is Python's int(x) and math.trunc(x): floats round toward zero.
func truncInt(a Value) int64 {
	if f, ok := a.v.(float64); ok {
		return int64(math.Trunc(f))
	}
	x, _ := numInt(a)
	return x
}

// bitwise is operator.and_ and operator.or_ on ints and bools: two bools
// give a bool, as in Python.
func bitwise(f func(x, y int64) int64) func(a, b Value) (Value, error) {
	return func(a, b Value) (Value, error) {
		x, y, ok := numInts(a, b)
		if !ok {
			return None, fmt.Errorf("unsupported operand types: %s and %s", a.Kind(), b.Kind())
		}
		_, ab := a.v.(bool)
		_, bb := b.v.(bool)
		if ab && bb {
			return Value{f(x, y) != 0}, nil
		}
		return Value{f(x, y)}, nil
	}
}

// symMinMax is torch.sym_max (pick true when b > a) and torch.sym_min:
// Python's max and min, as a float when either operand is a float.
func symMinMax(pickB func(c int) bool) func(a, b Value) (Value, error) {
	return func(a, b Value) (Value, error) {
		_, af := a.v.(float64)
		_, bf := b.v.(float64)
		if af || bf {
			x, y := numFloat(a), numFloat(b)
			if math.IsNaN(x) || math.IsNaN(y) {
				return Value{math.NaN()}, nil
			}
			if pickB(cmpFloat(y, x)) {
				return Value{y}, nil
			}
			return Value{x}, nil
		}
		x, _ := numInt(a)
		y, _ := numInt(b)
		if pickB(cmpInt(y, x)) {
			return Value{y}, nil
		}
		return Value{x}, nil
	}
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func cmpInt(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
