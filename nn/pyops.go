package nn

import (
	"fmt"
	"math"

	"github.com/gofx/gofx/node"
)

// The functions of Python's operator module on numbers. Value's arithmetic
// methods call them when both operands are numbers: they compute with
// Python's semantics on Go numbers and are recorded as call_function nodes
// on symbolic sizes.
var (
	OperatorAdd      = node.MustFunc("operator.add", false)
	OperatorSub      = node.MustFunc("operator.sub", false)
	OperatorMul      = node.MustFunc("operator.mul", false)
	OperatorTrueDiv  = node.MustFunc("operator.truediv", false)
	OperatorFloorDiv = node.MustFunc("operator.floordiv", false)
	OperatorMod      = node.MustFunc("operator.mod", false)
	OperatorPow      = node.MustFunc("operator.pow", false)
	OperatorNeg      = node.MustFunc("operator.neg", false)
	OperatorEq       = node.MustFunc("operator.eq", false)
	OperatorNe       = node.MustFunc("operator.ne", false)
	OperatorLt       = node.MustFunc("operator.lt", false)
	OperatorLe       = node.MustFunc("operator.le", false)
	OperatorGt       = node.MustFunc("operator.gt", false)
	OperatorGe       = node.MustFunc("operator.ge", false)
)

func init() {
	for fn, f := range map[node.Function]func(a, b Value) (Value, error){
		OperatorAdd: pyAdd, OperatorSub: pySub, OperatorMul: pyMul, OperatorTrueDiv: pyTrueDiv,
		OperatorFloorDiv: pyFloorDiv, OperatorMod: pyMod, OperatorPow: pyPow,
		OperatorEq: pyCmp(func(c int) bool { return c == 0 }), OperatorNe: pyCmp(func(c int) bool { return c != 0 }),
		OperatorLt: pyCmp(func(c int) bool { return c < 0 }), OperatorLe: pyCmp(func(c int) bool { return c <= 0 }),
		OperatorGt: pyCmp(func(c int) bool { return c > 0 }), OperatorGe: pyCmp(func(c int) bool { return c >= 0 }),
	} {
		must(RegisterFunction(fn, binaryImpl(fn, f)))
	}
	must(RegisterFunction(OperatorNeg, func(args []Value, kwargs map[string]Value) (Value, error) {
		if len(args) != 1 || len(kwargs) != 0 {
			return None, fmt.Errorf("operator.neg takes 1 argument, got %d", len(args)+len(kwargs))
		}
		return pySub(Value{int64(0)}, args[0])
	}))
}

// binaryImpl checks the arity and operand kinds of a Python operator.
func binaryImpl(fn node.Function, f func(a, b Value) (Value, error)) FuncImpl {
	return func(args []Value, kwargs map[string]Value) (Value, error) {
		if len(args) != 2 || len(kwargs) != 0 {
			return None, fmt.Errorf("%s takes 2 arguments, got %d", fn, len(args)+len(kwargs))
		}
		for i, a := range args {
			if !isNumber(a) {
				return None, fmt.Errorf("%s: operand %d must be a number, got %s", fn, i, a.Kind())
			}
		}
		return f(args[0], args[1])
	}
}

// isNumberLike reports whether v is a number or a symbolic number.
func isNumberLike(v Value) bool {
	if isNumber(v) {
		return true
	}
	n, ok := v.v.(number)
	return ok && n.IsNumber()
}

// numInts returns both operands as Go ints (bools count as ints), or false
// if either is a float.
func numInts(a, b Value) (int64, int64, bool) {
	x, ok1 := numInt(a)
	y, ok2 := numInt(b)
	return x, y, ok1 && ok2
}

func numInt(v Value) (int64, bool) {
	switch x := v.v.(type) {
	case int64:
		return x, true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

func numFloat(v Value) float64 {
	if x, ok := v.v.(float64); ok {
		return x
	}
	i, _ := numInt(v)
	return float64(i)
}

func pyAdd(a, b Value) (Value, error) {
	if x, y, ok := numInts(a, b); ok {
		return Value{x + y}, nil
	}
	return Value{numFloat(a) + numFloat(b)}, nil
}

func pySub(a, b Value) (Value, error) {
	if x, y, ok := numInts(a, b); ok {
		return Value{x - y}, nil
	}
	return Value{numFloat(a) - numFloat(b)}, nil
}

func pyMul(a, b Value) (Value, error) {
	if x, y, ok := numInts(a, b); ok {
		return Value{x * y}, nil
	}
	return Value{numFloat(a) * numFloat(b)}, nil
}

func pyTrueDiv(a, b Value) (Value, error) {
	if numFloat(b) == 0 {
		return None, fmt.Errorf("division by zero")
	}
	return Value{numFloat(a) / numFloat(b)}, nil
}

func pyFloorDiv(a, b Value) (Value, error) {
	if x, y, ok := numInts(a, b); ok {
		if y == 0 {
			return None, fmt.Errorf("integer division or modulo by zero")
		}
		q := x / y
		if (x%y != 0) && ((x < 0) != (y < 0)) {
			q--
		}
		return Value{q}, nil
	}
	y := numFloat(b)
	if y == 0 {
		return None, fmt.Errorf("float floor division by zero")
	}
	return Value{math.Floor(numFloat(a) / y)}, nil
}

func pyMod(a, b Value) (Value, error) {
	if x, y, ok := numInts(a, b); ok {
		if y == 0 {
			return None, fmt.Errorf("integer division or modulo by zero")
		}
		r := x % y
		if r != 0 && ((r < 0) != (y < 0)) {
			r += y
		}
		return Value{r}, nil
	}
	x, y := numFloat(a), numFloat(b)
	if y == 0 {
		return None, fmt.Errorf("float modulo")
	}
	r := math.Mod(x, y)
	if r != 0 && ((r < 0) != (y < 0)) {
		r += y
	}
	return Value{r}, nil
}

func pyPow(a, b Value) (Value, error) {
	if x, y, ok := numInts(a, b); ok && y >= 0 {
		r := int64(1)
		for ; y > 0; y-- {
			r *= x
		}
		return Value{r}, nil
	}
	return Value{math.Pow(numFloat(a), numFloat(b))}, nil
}

func pyCmp(f func(c int) bool) func(a, b Value) (Value, error) {
	return func(a, b Value) (Value, error) {
		c := 0
		if x, y, ok := numInts(a, b); ok {
			switch {
			case x < y:
				c = -1
			case x > y:
				c = 1
			}
		} else {
			x, y := numFloat(a), numFloat(b)
			switch {
			case x < y:
				c = -1
			case x > y:
				c = 1
			case x != y: // NaN: every comparison but != is false
				return Value{f(-1) && f(1)}, nil
			}
		}
		return Value{f(c)}, nil
	}
}
