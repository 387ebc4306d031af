package runtime

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/types"
)

// A builtin runs one of TorchScript's operators that is not a tensor
// kernel (register_prim_ops.cpp: arithmetic on ints and floats, list, dict
// and str operations, conversions, tensor queries). handled is false when
// the arguments call for the tensor operator of the same name (aten::add
// on tensors), which the interpreter then runs through package ops.
type builtin func(in []any) (out any, handled bool, err error)

// errNotHandled is returned by helpers for arguments a builtin does not
// take.
var errNotHandled = errors.New("not handled")

// builtins maps a node kind to its Go implementation.
var builtins map[string]builtin

func init() {
	builtins = map[string]builtin{
		"aten::add":       arith2("+"),
		"aten::sub":       arith2("-"),
		"aten::mul":       arith2("*"),
		"aten::div":       arith2("/"),
		"aten::floordiv":  arith2("//"),
		"aten::remainder": arith2("%"),
		"aten::fmod":      arith2("fmod"),
		"aten::pow":       arith2("**"),
		"aten::__and__":   logic2("and"),
		"aten::__or__":    logic2("or"),
		"aten::__xor__":   logic2("xor"),
		"aten::__lshift__": func(in []any) (any, bool, error) {
			return intOp(in, func(a, b int64) (int64, error) { return a << uint64(b&63), nil })
		},
		"aten::__rshift__": func(in []any) (any, bool, error) {
			return intOp(in, func(a, b int64) (int64, error) { return a >> uint64(b&63), nil })
		},
		"aten::eq":                        compare("=="),
		"aten::ne":                        compare("!="),
		"aten::lt":                        compare("<"),
		"aten::le":                        compare("<="),
		"aten::gt":                        compare(">"),
		"aten::ge":                        compare(">="),
		"aten::neg":                       unaryNum(func(i int64) any { return -i }, func(f float64) any { return -f }),
		"aten::abs":                       unaryNum(func(i int64) any { return absInt(i) }, func(f float64) any { return math.Abs(f) }),
		"prim::abs":                       unaryNum(func(i int64) any { return absInt(i) }, func(f float64) any { return math.Abs(f) }),
		"aten::floor":                     unaryNum(func(i int64) any { return i }, func(f float64) any { return floatToInt(math.Floor(f)) }),
		"aten::ceil":                      unaryNum(func(i int64) any { return i }, func(f float64) any { return floatToInt(math.Ceil(f)) }),
		"aten::round":                     unaryNum(func(i int64) any { return float64(i) }, func(f float64) any { return math.RoundToEven(f) }),
		"aten::sqrt":                      mathFn(math.Sqrt),
		"aten::exp":                       mathFn(math.Exp),
		"aten::log":                       mathFn(math.Log),
		"aten::sin":                       mathFn(math.Sin),
		"aten::cos":                       mathFn(math.Cos),
		"aten::tanh":                      mathFn(math.Tanh),
		"aten::__not__":                   notOp,
		"aten::__is__":                    isOp(false),
		"aten::__isnot__":                 isOp(true),
		"prim::min":                       minMax(true),
		"prim::max":                       minMax(false),
		"aten::min":                       minMax(true),
		"aten::max":                       minMax(false),
		"aten::len":                       lenOp,
		"aten::size":                      sizeOp,
		"aten::sym_size":                  sizeOp,
		"aten::dim":                       tensorQuery(func(t *tensor.Tensor) any { return int64(t.Dim()) }),
		"aten::numel":                     tensorQuery(func(t *tensor.Tensor) any { return int64(t.Numel()) }),
		"prim::dtype":                     tensorQuery(func(t *tensor.Tensor) any { return t.DType() }),
		"prim::device":                    tensorQuery(func(t *tensor.Tensor) any { return CPU }),
		"prim::layout":                    tensorQuery(func(t *tensor.Tensor) any { return int64(0) }),
		"prim::is_cuda":                   tensorQuery(func(t *tensor.Tensor) any { return false }),
		"prim::is_cpu":                    tensorQuery(func(t *tensor.Tensor) any { return true }),
		"prim::is_meta":                   tensorQuery(func(t *tensor.Tensor) any { return t.IsMeta() }),
		"prim::is_quantized":              tensorQuery(func(t *tensor.Tensor) any { return false }),
		"prim::is_sparse":                 tensorQuery(func(t *tensor.Tensor) any { return false }),
		"prim::is_mkldnn":                 tensorQuery(func(t *tensor.Tensor) any { return false }),
		"prim::requires_grad":             tensorQuery(func(t *tensor.Tensor) any { return false }),
		"prim::data":                      tensorQuery(func(t *tensor.Tensor) any { return t }),
		"aten::is_floating_point":         tensorQuery(func(t *tensor.Tensor) any { return t.DType().IsFloat() }),
		"aten::Int":                       convInt,
		"aten::IntImplicit":               convInt,
		"aten::Float":                     convFloat,
		"aten::FloatImplicit":             convFloat,
		"aten::Bool":                      convBool,
		"aten::BoolImplicit":              convBool,
		"aten::ScalarImplicit":            scalarImplicit,
		"prim::NumToTensor":               numToTensor,
		"aten::to":                        toDevice,
		"prim::EnumName":                  enumField(func(e Enum) any { return e.Name }),
		"prim::EnumValue":                 enumField(func(e Enum) any { return e.Value }),
		"aten::str":                       func(in []any) (any, bool, error) { return one(in, func(v any) (any, error) { return Str(v), nil }) },
		"aten::format":                    formatOp,
		"aten::__getitem__":               getItem,
		"aten::_set_item":                 setItem,
		"aten::append":                    appendOp,
		"aten::extend":                    extendOp,
		"aten::insert":                    insertOp,
		"aten::pop":                       popOp,
		"aten::clear":                     clearOp,
		"aten::reverse":                   reverseOp,
		"aten::list":                      listCopy,
		"aten::copy":                      listCopy,
		"aten::index":                     listIndex,
		"aten::count":                     listCount,
		"aten::slice":                     sliceOp,
		"aten::get":                       dictGet,
		"aten::setdefault":                dictSetDefault,
		"aten::keys":                      dictKeys,
		"aten::values":                    dictValues,
		"aten::items":                     dictItems,
		"aten::update":                    dictUpdate,
		"aten::__contains__":              containsOp,
		"aten::__range_length":            rangeLength,
		"aten::__derive_index":            deriveIndex,
		"aten::warn":                      func(in []any) (any, bool, error) { return nil, true, nil },
		"aten::startswith":                strPred(strings.HasPrefix),
		"aten::endswith":                  strPred(strings.HasSuffix),
		"aten::lower":                     strMap(strings.ToLower),
		"aten::upper":                     strMap(strings.ToUpper),
		"aten::strip":                     strMap(strings.TrimSpace),
		"aten::join":                      strJoin,
		"aten::split":                     strSplit,
		"prim::unchecked_unwrap_optional": identity,
		"prim::unchecked_cast":            identity,
		"aten::detach":                    nil, // tensor kernel
		"prim::StringIndex":               getItem,
		"aten::device":                    deviceOp,
		"aten::dict":                      dictCopy,
		"aten::sorted":                    sortedOp,
		"aten::sort":                      listSort,
		"aten::__getitem__.t":             getItem,
	}
	for k, v := range builtins {
		if v == nil {
			delete(builtins, k)
		}
	}
}

// Builtin reports whether kind has a Go implementation in the runtime
// (the operator may still fall through to a tensor kernel for tensor
// arguments).
func Builtin(kind string) bool { _, ok := builtins[kind]; return ok }

func identity(in []any) (any, bool, error) {
	if len(in) < 1 {
		return nil, true, fmt.Errorf("expected one argument")
	}
	return in[0], true, nil
}

func one(in []any, f func(any) (any, error)) (any, bool, error) {
	if len(in) != 1 {
		return nil, true, fmt.Errorf("expected one argument, got %d", len(in))
	}
	v, err := f(in[0])
	return v, true, err
}

func hasTensor(in []any) bool {
	for _, v := range in {
		if t, ok := v.(*tensor.Tensor); ok && t != nil {
			return true
		}
	}
	return false
}

func absInt(i int64) int64 {
	if i < 0 {
		return -i
	}
	return i
}

func floatToInt(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	return int64(f)
}

// arith2 is a binary Python operator on numbers (int, float, bool as
// int), str + str and list + list.
func arith2(op string) builtin {
	return func(in []any) (any, bool, error) {
		if hasTensor(in) {
			return nil, false, nil
		}
		if len(in) != 2 {
			if op == "+" && len(in) == 3 {
				// aten::add with alpha on numbers does not exist; a
				// three-argument add is the tensor overload.
				return nil, false, nil
			}
			return nil, true, fmt.Errorf("expected two operands, got %d", len(in))
		}
		a, b := in[0], in[1]
		if op == "+" {
			if x, ok := a.(string); ok {
				if y, ok := b.(string); ok {
					return x + y, true, nil
				}
			}
			if x, ok := a.(*List); ok {
				if y, ok := b.(*List); ok {
					items := make([]any, 0, len(x.Items)+len(y.Items))
					items = append(append(items, x.Items...), y.Items...)
					return &List{Elem: x.Elem, Items: items}, true, nil
				}
			}
		}
		if op == "*" {
			if x, ok := a.(*List); ok {
				if n, ok := b.(int64); ok {
					var items []any
					for i := int64(0); i < n; i++ {
						items = append(items, x.Items...)
					}
					return &List{Elem: x.Elem, Items: items}, true, nil
				}
			}
		}
		na, ok1 := number(a)
		nb, ok2 := number(b)
		if ca, ok := a.(complex128); ok {
			return complexArith(op, ca, b)
		}
		if cb, ok := b.(complex128); ok && ok1 {
			return complexArith(op, complex(toFloat(na), 0), cb)
		}
		if !ok1 || !ok2 {
			return nil, true, fmt.Errorf("unsupported operand types for %s: %s and %s", op, TypeName(a), TypeName(b))
		}
		v, err := numArith(op, na, nb)
		return v, true, err
	}
}

func toFloat(n num) float64 {
	if n.float {
		return n.f
	}
	return float64(n.i)
}

func complexArith(op string, a complex128, bv any) (any, bool, error) {
	var b complex128
	switch x := bv.(type) {
	case complex128:
		b = x
	default:
		n, ok := number(bv)
		if !ok {
			return nil, true, fmt.Errorf("unsupported operand types for %s: complex and %s", op, TypeName(bv))
		}
		b = complex(toFloat(n), 0)
	}
	switch op {
	case "+":
		return a + b, true, nil
	case "-":
		return a - b, true, nil
	case "*":
		return a * b, true, nil
	case "/":
		return a / b, true, nil
	}
	return nil, true, fmt.Errorf("unsupported operand types for %s: complex", op)
}

// numArith applies a Python arithmetic operator: int op int gives an int
// (except / and **, which give floats, as TorchScript's aten::div.int and
// aten::pow.int), anything with a float gives a float.
func numArith(op string, a, b num) (any, error) {
	if !a.float && !b.float {
		x, y := a.i, b.i
		switch op {
		case "+":
			return x + y, nil
		case "-":
			return x - y, nil
		case "*":
			return x * y, nil
		case "/":
			if y == 0 {
				return nil, fmt.Errorf("ZeroDivisionError: division by zero")
			}
			return float64(x) / float64(y), nil
		case "//":
			if y == 0 {
				return nil, fmt.Errorf("ZeroDivisionError: integer division or modulo by zero")
			}
			q := x / y
			if (x%y != 0) && ((x < 0) != (y < 0)) {
				q--
			}
			return q, nil
		case "%":
			if y == 0 {
				return nil, fmt.Errorf("ZeroDivisionError: integer division or modulo by zero")
			}
			r := x % y
			if r != 0 && ((r < 0) != (y < 0)) {
				r += y
			}
			return r, nil
		case "fmod":
			if y == 0 {
				return nil, fmt.Errorf("ZeroDivisionError: integer division or modulo by zero")
			}
			return math.Mod(float64(x), float64(y)), nil
		case "**":
			return math.Pow(float64(x), float64(y)), nil
		}
		return nil, fmt.Errorf("unknown operator %s", op)
	}
	x, y := toFloat(a), toFloat(b)
	switch op {
	case "+":
		return x + y, nil
	case "-":
		return x - y, nil
	case "*":
		return x * y, nil
	case "/":
		if y == 0 {
			return nil, fmt.Errorf("ZeroDivisionError: float division by zero")
		}
		return x / y, nil
	case "//":
		if y == 0 {
			return nil, fmt.Errorf("ZeroDivisionError: float divmod()")
		}
		return math.Floor(x / y), nil
	case "%":
		if y == 0 {
			return nil, fmt.Errorf("ZeroDivisionError: float modulo")
		}
		r := math.Mod(x, y)
		if r != 0 && ((r < 0) != (y < 0)) {
			r += y
		}
		return r, nil
	case "fmod":
		return math.Mod(x, y), nil
	case "**":
		return math.Pow(x, y), nil
	}
	return nil, fmt.Errorf("unknown operator %s", op)
}

func intOp(in []any, f func(a, b int64) (int64, error)) (any, bool, error) {
	if hasTensor(in) {
		return nil, false, nil
	}
	if len(in) != 2 {
		return nil, true, fmt.Errorf("expected two operands, got %d", len(in))
	}
	a, ok1 := in[0].(int64)
	b, ok2 := in[1].(int64)
	if !ok1 || !ok2 {
		return nil, true, fmt.Errorf("expected two ints, got %s and %s", TypeName(in[0]), TypeName(in[1]))
	}
	v, err := f(a, b)
	return v, true, err
}

// logic2 is &, | and ^ on bools (and ints).
func logic2(op string) builtin {
	return func(in []any) (any, bool, error) {
		if hasTensor(in) {
			return nil, false, nil
		}
		if len(in) != 2 {
			return nil, true, fmt.Errorf("expected two operands, got %d", len(in))
		}
		if a, ok := in[0].(bool); ok {
			if b, ok := in[1].(bool); ok {
				switch op {
				case "and":
					return a && b, true, nil
				case "or":
					return a || b, true, nil
				}
				return a != b, true, nil
			}
		}
		return intOp(in, func(a, b int64) (int64, error) {
			switch op {
			case "and":
				return a & b, nil
			case "or":
				return a | b, nil
			}
			return a ^ b, nil
		})
	}
}

// compare is ==, !=, <, <=, >, >= on numbers, strings, and (== and !=)
// any values; ordering also on lists and tuples, lexicographically.
// toDevice is aten::to.device(Tensor self, Device device, ScalarType?
// dtype=None, bool non_blocking=False, bool copy=False, MemoryFormat?
// memory_format=None) to the CPU with no dtype and no copy: self, as
// PyTorch returns a tensor already there. Other calls of aten::to go to
// their kernels.
func toDevice(in []any) (any, bool, error) {
	if len(in) < 2 {
		return nil, false, nil
	}
	d, ok := in[1].(Device)
	if !ok || d.Type != "cpu" {
		return nil, false, nil
	}
	for i, e := range in[2:] {
		switch {
		case i == 0 || i == 3: // dtype, memory_format
			if e != nil {
				return nil, false, nil
			}
		case i == 2: // copy
			if c, _ := e.(bool); c {
				return nil, false, nil
			}
		}
	}
	x, ok := in[0].(*tensor.Tensor)
	if !ok || x == nil {
		return nil, false, nil
	}
	return x, true, nil
}

// enumField is prim::EnumName or prim::EnumValue: a field of an enum
// value.
func enumField(f func(Enum) any) builtin {
	return func(in []any) (any, bool, error) {
		if len(in) != 1 {
			return nil, true, fmt.Errorf("expected one enum, got %d arguments", len(in))
		}
		e, ok := in[0].(Enum)
		if !ok {
			return nil, true, fmt.Errorf("expected an enum, got %s", TypeName(in[0]))
		}
		return f(e), true, nil
	}
}

func compare(op string) builtin {
	return func(in []any) (any, bool, error) {
		if hasTensor(in) {
			return nil, false, nil
		}
		if len(in) != 2 {
			return nil, true, fmt.Errorf("expected two operands, got %d", len(in))
		}
		a, b := in[0], in[1]
		if op == "==" || op == "!=" {
			eq, err := Equal(a, b)
			if err != nil {
				return nil, true, err
			}
			return eq == (op == "=="), true, nil
		}
		c, err := order(a, b)
		if err != nil {
			return nil, true, fmt.Errorf("'%s' not supported between %s and %s", op, TypeName(a), TypeName(b))
		}
		if c == 2 { // NaN
			return false, true, nil
		}
		switch op {
		case "<":
			return c < 0, true, nil
		case "<=":
			return c <= 0, true, nil
		case ">":
			return c > 0, true, nil
		}
		return c >= 0, true, nil
	}
}

// order compares a and b: -1, 0, 1, or 2 when unordered (NaN).
func order(a, b any) (int, error) {
	if na, ok := number(a); ok {
		nb, ok := number(b)
		if !ok {
			return 0, errNotHandled
		}
		if !na.float && !nb.float {
			return cmpOrdered(na.i, nb.i), nil
		}
		x, y := toFloat(na), toFloat(nb)
		if math.IsNaN(x) || math.IsNaN(y) {
			return 2, nil
		}
		return cmpOrdered(x, y), nil
	}
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		if !ok {
			return 0, errNotHandled
		}
		return strings.Compare(x, y), nil
	case *List:
		y, ok := b.(*List)
		if !ok {
			return 0, errNotHandled
		}
		return orderSlices(x.Items, y.Items)
	case *Tuple:
		y, ok := b.(*Tuple)
		if !ok {
			return 0, errNotHandled
		}
		return orderSlices(x.Items, y.Items)
	}
	return 0, errNotHandled
}

func orderSlices(a, b []any) (int, error) {
	for i := 0; i < len(a) && i < len(b); i++ {
		c, err := order(a[i], b[i])
		if err != nil || c != 0 {
			return c, err
		}
	}
	return cmpOrdered(len(a), len(b)), nil
}

func cmpOrdered[T int | int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func unaryNum(fi func(int64) any, ff func(float64) any) builtin {
	return func(in []any) (any, bool, error) {
		if hasTensor(in) {
			return nil, false, nil
		}
		if len(in) != 1 {
			return nil, true, fmt.Errorf("expected one operand, got %d", len(in))
		}
		switch x := in[0].(type) {
		case int64:
			return fi(x), true, nil
		case float64:
			return ff(x), true, nil
		case bool:
			if x {
				return fi(1), true, nil
			}
			return fi(0), true, nil
		}
		return nil, true, fmt.Errorf("expected a number, got %s", TypeName(in[0]))
	}
}

func mathFn(f func(float64) float64) builtin {
	return unaryNum(func(i int64) any { return f(float64(i)) }, func(x float64) any { return f(x) })
}

func notOp(in []any) (any, bool, error) {
	return one(in, func(v any) (any, error) {
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("expected bool, got %s", TypeName(v))
		}
		return !b, nil
	})
}

// isOp is Python's is / is not: identity for references, equality of
// None, bools and numbers.
func isOp(negate bool) builtin {
	return func(in []any) (any, bool, error) {
		if len(in) != 2 {
			return nil, true, fmt.Errorf("expected two operands, got %d", len(in))
		}
		a, b := in[0], in[1]
		var same bool
		switch {
		case isNone(a) || isNone(b):
			same = isNone(a) && isNone(b)
		default:
			switch a.(type) {
			case *tensor.Tensor, *List, *Dict, *Tuple, *Object, bool, int64, float64, string, Device, tensor.DType:
				same = a == b
			}
		}
		return same != negate, true, nil
	}
}

// minMax is min/max of two numbers or of a list of numbers (prim::min,
// prim::max); tensors go to aten::min/max.
func minMax(isMin bool) builtin {
	return func(in []any) (any, bool, error) {
		if hasTensor(in) {
			return nil, false, nil
		}
		var items []any
		switch {
		case len(in) == 1:
			l, ok := in[0].(*List)
			if !ok {
				return nil, true, fmt.Errorf("expected a list, got %s", TypeName(in[0]))
			}
			if len(l.Items) == 0 {
				return nil, true, fmt.Errorf("%s() arg is an empty sequence", map[bool]string{true: "min", false: "max"}[isMin])
			}
			items = l.Items
		case len(in) == 2:
			if l, ok := in[0].(*List); ok {
				// min(list, list): lexicographic.
				c, err := order(l, in[1])
				if err != nil {
					return nil, true, err
				}
				if (c <= 0) == isMin {
					return in[0], true, nil
				}
				return in[1], true, nil
			}
			items = in
		default:
			return nil, true, fmt.Errorf("expected one or two arguments, got %d", len(in))
		}
		best := items[0]
		anyFloat := false
		for _, v := range items {
			n, ok := number(v)
			if !ok {
				return nil, true, fmt.Errorf("expected numbers, got %s", TypeName(v))
			}
			anyFloat = anyFloat || n.float
		}
		for _, v := range items[1:] {
			nv, _ := number(v)
			if nv.float && math.IsNaN(nv.f) {
				best = v
				break
			}
			c, _ := order(v, best)
			if (isMin && c < 0) || (!isMin && c > 0) {
				best = v
			}
		}
		if anyFloat && len(in) == 2 {
			// prim::min.int_float and friends return a float.
			n, _ := number(best)
			return toFloat(n), true, nil
		}
		return best, true, nil
	}
}

func lenOp(in []any) (any, bool, error) {
	return one(in, func(v any) (any, error) {
		switch x := v.(type) {
		case *List:
			return int64(len(x.Items)), nil
		case *Dict:
			return int64(x.Len()), nil
		case string:
			return int64(len([]rune(x))), nil
		case *Tuple:
			return int64(len(x.Items)), nil
		case *tensor.Tensor:
			if x == nil {
				break
			}
			if x.Dim() == 0 {
				return nil, fmt.Errorf("len() of a 0-d tensor")
			}
			return int64(x.Size(0)), nil
		}
		return nil, fmt.Errorf("object of type %s has no len()", TypeName(v))
	})
}

func sizeOp(in []any) (any, bool, error) {
	if len(in) < 1 {
		return nil, true, fmt.Errorf("expected a tensor")
	}
	t, ok := in[0].(*tensor.Tensor)
	if !ok || t == nil {
		return nil, true, fmt.Errorf("expected Tensor, got %s", TypeName(in[0]))
	}
	switch len(in) {
	case 1:
		shape := t.Shape()
		items := make([]any, len(shape))
		for i, s := range shape {
			items[i] = int64(s)
		}
		return &List{Elem: types.Int, Items: items}, true, nil
	case 2:
		d, ok := in[1].(int64)
		if !ok {
			return nil, false, nil // size(Tensor, Dimname)
		}
		nd, err := tensor.NormDim(int(d), t.Dim())
		if err != nil {
			return nil, true, torchErr("Dimension out of range (expected to be in range of [%d, %d], but got %d)", -t.Dim(), t.Dim()-1, d)
		}
		return int64(t.Size(nd)), true, nil
	}
	return nil, true, fmt.Errorf("expected one or two arguments, got %d", len(in))
}

func tensorQuery(f func(*tensor.Tensor) any) builtin {
	return func(in []any) (any, bool, error) {
		return one(in, func(v any) (any, error) {
			t, ok := v.(*tensor.Tensor)
			if !ok || t == nil {
				return nil, fmt.Errorf("expected Tensor, got %s", TypeName(v))
			}
			return f(t), nil
		})
	}
}

// item returns a one-element tensor's value as int64, float64 or bool.
func item(t *tensor.Tensor) (any, error) {
	if t.Numel() != 1 {
		return nil, fmt.Errorf("a Tensor with %d elements cannot be converted to Scalar", t.Numel())
	}
	return t.Item()
}

func convInt(in []any) (any, bool, error) {
	return one(in, func(v any) (any, error) {
		switch x := v.(type) {
		case *tensor.Tensor:
			if x == nil {
				break
			}
			it, err := item(x)
			if err != nil {
				return nil, err
			}
			return toIntTrunc(it)
		case string:
			n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("invalid literal for int() with base 10: '%s'", x)
			}
			return n, nil
		default:
			return toIntTrunc(v)
		}
		return nil, fmt.Errorf("int() of %s", TypeName(v))
	})
}

func toIntTrunc(v any) (any, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case bool:
		if x {
			return int64(1), nil
		}
		return int64(0), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("cannot convert float %s to integer", FormatFloat(x))
		}
		return int64(x), nil
	}
	return nil, fmt.Errorf("int() of %s", TypeName(v))
}

func convFloat(in []any) (any, bool, error) {
	return one(in, func(v any) (any, error) {
		switch x := v.(type) {
		case *tensor.Tensor:
			if x == nil {
				break
			}
			it, err := item(x)
			if err != nil {
				return nil, err
			}
			n, _ := number(it)
			return toFloat(n), nil
		case string:
			f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			if err != nil {
				return nil, fmt.Errorf("could not convert string to float: '%s'", x)
			}
			return f, nil
		default:
			if n, ok := number(v); ok {
				return toFloat(n), nil
			}
		}
		return nil, fmt.Errorf("float() of %s", TypeName(v))
	})
}

func convBool(in []any) (any, bool, error) {
	return one(in, func(v any) (any, error) {
		switch x := v.(type) {
		case *tensor.Tensor:
			if x == nil {
				break
			}
			if x.Numel() != 1 {
				return nil, torchErr("Boolean value of Tensor with more than one value is ambiguous")
			}
			it, err := x.Item()
			if err != nil {
				return nil, err
			}
			return truthy(it), nil
		case string:
			return x != "", nil
		default:
			if _, ok := number(v); ok {
				return truthy(v), nil
			}
		}
		return nil, fmt.Errorf("bool() of %s", TypeName(v))
	})
}

func truthy(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case int64:
		return x != 0
	case float64:
		return x != 0
	}
	return false
}

// scalarImplicit is aten::ScalarImplicit: a 0-d tensor's value as a
// number of its kind.
func scalarImplicit(in []any) (any, bool, error) {
	return one(in, func(v any) (any, error) {
		t, ok := v.(*tensor.Tensor)
		if !ok || t == nil {
			if _, isNum := number(v); isNum {
				return v, nil
			}
			return nil, fmt.Errorf("expected Tensor, got %s", TypeName(v))
		}
		if t.Dim() != 0 {
			return nil, torchErr("Cannot input a tensor of dimension other than 0 as a scalar argument")
		}
		return item(t)
	})
}

// numToTensor is prim::NumToTensor: a number as a 0-d tensor (int64,
// float64 or bool), as at::scalar_to_tensor.
func numToTensor(in []any) (any, bool, error) {
	return one(in, func(v any) (any, error) {
		switch x := v.(type) {
		case int64:
			return tensor.Scalar(x), nil
		case float64:
			return tensor.Scalar(x), nil
		case bool:
			return tensor.Scalar(x), nil
		case *tensor.Tensor:
			if x != nil {
				return x, nil
			}
		}
		return nil, fmt.Errorf("expected a number, got %s", TypeName(v))
	})
}

// formatOp is aten::format: "{}" placeholders filled with Str of the
// arguments, as PyTorch's (which ignores what is inside the braces).
func formatOp(in []any) (any, bool, error) {
	if len(in) < 1 {
		return nil, true, fmt.Errorf("expected a format string")
	}
	f, ok := in[0].(string)
	if !ok {
		return nil, true, fmt.Errorf("expected str, got %s", TypeName(in[0]))
	}
	args := in[1:]
	var b strings.Builder
	used := 0
	for {
		i := strings.Index(f, "{")
		if i < 0 {
			b.WriteString(f)
			break
		}
		j := strings.Index(f[i:], "}")
		if j < 0 {
			b.WriteString(f)
			break
		}
		b.WriteString(f[:i])
		if used >= len(args) {
			return nil, true, torchErr("Too few arguments for format string: %s", in[0])
		}
		b.WriteString(Str(args[used]))
		used++
		f = f[i+j+1:]
	}
	return b.String(), true, nil
}

func getItem(in []any) (any, bool, error) {
	if len(in) != 2 {
		return nil, true, fmt.Errorf("expected two arguments, got %d", len(in))
	}
	switch x := in[0].(type) {
	case *List:
		i, ok := in[1].(int64)
		if !ok {
			return nil, true, fmt.Errorf("list indices must be integers, not %s", TypeName(in[1]))
		}
		v, err := x.Get(i)
		return v, true, err
	case *Tuple:
		i, ok := in[1].(int64)
		if !ok {
			return nil, true, fmt.Errorf("tuple indices must be integers, not %s", TypeName(in[1]))
		}
		j, err := normIndex(i, len(x.Items), "tuple index out of range")
		if err != nil {
			return nil, true, err
		}
		return x.Items[j], true, nil
	case string:
		i, ok := in[1].(int64)
		if !ok {
			return nil, true, fmt.Errorf("string indices must be integers, not %s", TypeName(in[1]))
		}
		r := []rune(x)
		j, err := normIndex(i, len(r), "string index out of range")
		if err != nil {
			return nil, true, err
		}
		return string(r[j]), true, nil
	case *Dict:
		v, ok := x.Get(in[1])
		if !ok {
			return nil, true, fmt.Errorf("KeyError: %s", Repr(in[1]))
		}
		return v, true, nil
	}
	return nil, false, nil
}

func setItem(in []any) (any, bool, error) {
	if len(in) != 3 {
		return nil, true, fmt.Errorf("expected three arguments, got %d", len(in))
	}
	switch x := in[0].(type) {
	case *List:
		i, ok := in[1].(int64)
		if !ok {
			return nil, true, fmt.Errorf("list indices must be integers, not %s", TypeName(in[1]))
		}
		return x, true, x.Set(i, in[2])
	case *Dict:
		return nil, true, x.Set(in[1], in[2])
	}
	return nil, true, fmt.Errorf("_set_item on %s", TypeName(in[0]))
}

func listArg(v any) (*List, error) {
	l, ok := v.(*List)
	if !ok {
		return nil, fmt.Errorf("expected a list, got %s", TypeName(v))
	}
	return l, nil
}

func appendOp(in []any) (any, bool, error) {
	if len(in) != 2 {
		return nil, true, fmt.Errorf("expected two arguments, got %d", len(in))
	}
	l, err := listArg(in[0])
	if err != nil {
		return nil, true, err
	}
	l.Append(in[1])
	return l, true, nil
}

func extendOp(in []any) (any, bool, error) {
	if len(in) != 2 {
		return nil, true, fmt.Errorf("expected two arguments, got %d", len(in))
	}
	l, err := listArg(in[0])
	if err != nil {
		return nil, true, err
	}
	m, err := listArg(in[1])
	if err != nil {
		return nil, true, err
	}
	l.Items = append(l.Items, m.Items...)
	return nil, true, nil
}

func insertOp(in []any) (any, bool, error) {
	if len(in) != 3 {
		return nil, true, fmt.Errorf("expected three arguments, got %d", len(in))
	}
	l, err := listArg(in[0])
	if err != nil {
		return nil, true, err
	}
	i, ok := in[1].(int64)
	if !ok {
		return nil, true, fmt.Errorf("expected int index, got %s", TypeName(in[1]))
	}
	n := int64(len(l.Items))
	if i < 0 {
		i += n
		if i < 0 {
			i = 0
		}
	}
	if i > n {
		i = n
	}
	l.Items = append(l.Items, nil)
	copy(l.Items[i+1:], l.Items[i:])
	l.Items[i] = in[2]
	return nil, true, nil
}

func popOp(in []any) (any, bool, error) {
	if len(in) < 1 {
		return nil, true, fmt.Errorf("expected arguments")
	}
	if d, ok := in[0].(*Dict); ok {
		if len(in) < 2 {
			return nil, true, fmt.Errorf("pop expected a key")
		}
		v, found := d.Get(in[1])
		if !found {
			if len(in) == 3 {
				return in[2], true, nil
			}
			return nil, true, fmt.Errorf("KeyError: %s", Repr(in[1]))
		}
		d.Delete(in[1])
		return v, true, nil
	}
	l, err := listArg(in[0])
	if err != nil {
		return nil, false, nil
	}
	i := int64(-1)
	if len(in) == 2 {
		x, ok := in[1].(int64)
		if !ok {
			return nil, true, fmt.Errorf("expected int index, got %s", TypeName(in[1]))
		}
		i = x
	}
	if len(l.Items) == 0 {
		return nil, true, fmt.Errorf("pop from empty list")
	}
	j, err := normIndex(i, len(l.Items), "pop index out of range")
	if err != nil {
		return nil, true, err
	}
	v := l.Items[j]
	l.Items = append(l.Items[:j], l.Items[j+1:]...)
	return v, true, nil
}

func clearOp(in []any) (any, bool, error) {
	return one(in, func(v any) (any, error) {
		switch x := v.(type) {
		case *List:
			x.Items = x.Items[:0]
			return nil, nil
		case *Dict:
			x.Clear()
			return nil, nil
		}
		return nil, fmt.Errorf("clear of %s", TypeName(v))
	})
}

func reverseOp(in []any) (any, bool, error) {
	return one(in, func(v any) (any, error) {
		l, err := listArg(v)
		if err != nil {
			return nil, err
		}
		for i, j := 0, len(l.Items)-1; i < j; i, j = i+1, j-1 {
			l.Items[i], l.Items[j] = l.Items[j], l.Items[i]
		}
		return nil, nil
	})
}

func listCopy(in []any) (any, bool, error) {
	if hasTensor(in) {
		return nil, false, nil
	}
	return one(in, func(v any) (any, error) {
		switch x := v.(type) {
		case *List:
			return &List{Elem: x.Elem, Items: append([]any(nil), x.Items...)}, nil
		case string:
			var items []any
			for _, r := range x {
				items = append(items, string(r))
			}
			return &List{Elem: types.Str, Items: items}, nil
		case *Dict:
			return x.Copy(), nil
		}
		return nil, fmt.Errorf("list() of %s", TypeName(v))
	})
}

func dictCopy(in []any) (any, bool, error) {
	if len(in) == 0 {
		return NewDict(nil, nil), true, nil
	}
	return one(in, func(v any) (any, error) {
		d, ok := v.(*Dict)
		if !ok {
			return nil, fmt.Errorf("dict() of %s", TypeName(v))
		}
		return d.Copy(), nil
	})
}

func listIndex(in []any) (any, bool, error) {
	if hasTensor(in[:1]) {
		return nil, false, nil
	}
	if len(in) != 2 {
		return nil, true, fmt.Errorf("expected two arguments, got %d", len(in))
	}
	l, err := listArg(in[0])
	if err != nil {
		return nil, false, nil
	}
	for i, v := range l.Items {
		eq, err := Equal(v, in[1])
		if err != nil {
			return nil, true, err
		}
		if eq {
			return int64(i), true, nil
		}
	}
	return nil, true, fmt.Errorf("'%s' is not in list", Str(in[1]))
}

func listCount(in []any) (any, bool, error) {
	if len(in) != 2 {
		return nil, true, fmt.Errorf("expected two arguments, got %d", len(in))
	}
	l, err := listArg(in[0])
	if err != nil {
		return nil, false, nil
	}
	n := int64(0)
	for _, v := range l.Items {
		eq, err := Equal(v, in[1])
		if err != nil {
			return nil, true, err
		}
		if eq {
			n++
		}
	}
	return n, true, nil
}

// sliceBounds is Python's slice.indices: optional start, end and step
// clamped to a sequence of length n.
func sliceBounds(n int, startV, endV, stepV any) (start, end, step int, err error) {
	step = 1
	if stepV != nil {
		s, ok := stepV.(int64)
		if !ok {
			return 0, 0, 0, fmt.Errorf("slice step must be an int, got %s", TypeName(stepV))
		}
		if s == 0 {
			return 0, 0, 0, fmt.Errorf("slice step cannot be zero")
		}
		step = int(s)
	}
	clamp := func(v any, def int) (int, error) {
		if v == nil {
			return def, nil
		}
		x, ok := v.(int64)
		if !ok {
			return 0, fmt.Errorf("slice indices must be integers or None, got %s", TypeName(v))
		}
		if x < 0 {
			x += int64(n)
			if x < 0 {
				if step < 0 {
					return -1, nil
				}
				return 0, nil
			}
		}
		if x >= int64(n) {
			if step < 0 {
				return n - 1, nil
			}
			return n, nil
		}
		return int(x), nil
	}
	if step > 0 {
		if start, err = clamp(startV, 0); err != nil {
			return
		}
		end, err = clamp(endV, n)
		return
	}
	if start, err = clamp(startV, n-1); err != nil {
		return
	}
	end, err = clamp(endV, -1)
	return
}

func sliceIndices(n int, startV, endV, stepV any) ([]int, error) {
	start, end, step, err := sliceBounds(n, startV, endV, stepV)
	if err != nil {
		return nil, err
	}
	var idx []int
	if step > 0 {
		for i := start; i < end; i += step {
			idx = append(idx, i)
		}
	} else {
		for i := start; i > end; i += step {
			idx = append(idx, i)
		}
	}
	return idx, nil
}

// sliceOp is aten::slice on lists and strings (slice.t, slice.str); on
// tensors it is the tensor operator.
func sliceOp(in []any) (any, bool, error) {
	if len(in) == 0 || hasTensor(in[:1]) {
		return nil, false, nil
	}
	args := append(append([]any(nil), in[1:]...), nil, nil, nil)
	switch x := in[0].(type) {
	case *List:
		idx, err := sliceIndices(len(x.Items), args[0], args[1], args[2])
		if err != nil {
			return nil, true, err
		}
		items := make([]any, len(idx))
		for i, j := range idx {
			items[i] = x.Items[j]
		}
		return &List{Elem: x.Elem, Items: items}, true, nil
	case string:
		r := []rune(x)
		idx, err := sliceIndices(len(r), args[0], args[1], args[2])
		if err != nil {
			return nil, true, err
		}
		out := make([]rune, len(idx))
		for i, j := range idx {
			out[i] = r[j]
		}
		return string(out), true, nil
	case *Tuple:
		idx, err := sliceIndices(len(x.Items), args[0], args[1], args[2])
		if err != nil {
			return nil, true, err
		}
		items := make([]any, len(idx))
		for i, j := range idx {
			items[i] = x.Items[j]
		}
		return &Tuple{Items: items}, true, nil
	}
	return nil, true, fmt.Errorf("slice of %s", TypeName(in[0]))
}

func dictArg(v any) (*Dict, error) {
	d, ok := v.(*Dict)
	if !ok {
		return nil, fmt.Errorf("expected a dict, got %s", TypeName(v))
	}
	return d, nil
}

func dictGet(in []any) (any, bool, error) {
	if len(in) < 2 || len(in) > 3 {
		return nil, true, fmt.Errorf("expected two or three arguments, got %d", len(in))
	}
	d, err := dictArg(in[0])
	if err != nil {
		return nil, true, err
	}
	if v, ok := d.Get(in[1]); ok {
		return v, true, nil
	}
	if len(in) == 3 {
		return in[2], true, nil
	}
	return nil, true, nil
}

func dictSetDefault(in []any) (any, bool, error) {
	if len(in) != 3 {
		return nil, true, fmt.Errorf("expected three arguments, got %d", len(in))
	}
	d, err := dictArg(in[0])
	if err != nil {
		return nil, true, err
	}
	if v, ok := d.Get(in[1]); ok {
		return v, true, nil
	}
	return in[2], true, d.Set(in[1], in[2])
}

func dictKeys(in []any) (any, bool, error) {
	return one(in, func(v any) (any, error) {
		d, err := dictArg(v)
		if err != nil {
			return nil, err
		}
		return &List{Elem: d.KeyType, Items: d.Keys()}, nil
	})
}

func dictValues(in []any) (any, bool, error) {
	return one(in, func(v any) (any, error) {
		d, err := dictArg(v)
		if err != nil {
			return nil, err
		}
		return &List{Elem: d.ValueType, Items: d.Values()}, nil
	})
}

func dictItems(in []any) (any, bool, error) {
	return one(in, func(v any) (any, error) {
		d, err := dictArg(v)
		if err != nil {
			return nil, err
		}
		l := &List{}
		if d.KeyType != nil && d.ValueType != nil {
			l.Elem = &types.Tuple{Elems: []types.Type{d.KeyType, d.ValueType}}
		}
		d.Range(func(k, v any) bool { l.Items = append(l.Items, NewTuple(k, v)); return true })
		return l, nil
	})
}

func dictUpdate(in []any) (any, bool, error) {
	if len(in) != 2 {
		return nil, true, fmt.Errorf("expected two arguments, got %d", len(in))
	}
	d, err := dictArg(in[0])
	if err != nil {
		return nil, true, err
	}
	e, err := dictArg(in[1])
	if err != nil {
		return nil, true, err
	}
	e.Range(func(k, v any) bool { err = d.Set(k, v); return err == nil })
	return nil, true, err
}

func containsOp(in []any) (any, bool, error) {
	if len(in) != 2 {
		return nil, true, fmt.Errorf("expected two arguments, got %d", len(in))
	}
	switch x := in[0].(type) {
	case *Dict:
		_, ok := x.Get(in[1])
		return ok, true, nil
	case *List:
		for _, v := range x.Items {
			eq, err := Equal(v, in[1])
			if err != nil {
				return nil, true, err
			}
			if eq {
				return true, true, nil
			}
		}
		return false, true, nil
	case string:
		s, ok := in[1].(string)
		if !ok {
			return nil, true, fmt.Errorf("'in <string>' requires string as left operand, not %s", TypeName(in[1]))
		}
		return strings.Contains(x, s), true, nil
	}
	return nil, true, fmt.Errorf("argument of type %s is not iterable", TypeName(in[0]))
}

func ints3(in []any) (a, b, c int64, err error) {
	if len(in) != 3 {
		return 0, 0, 0, fmt.Errorf("expected three ints, got %d arguments", len(in))
	}
	var ok [3]bool
	a, ok[0] = in[0].(int64)
	b, ok[1] = in[1].(int64)
	c, ok[2] = in[2].(int64)
	if !ok[0] || !ok[1] || !ok[2] {
		return 0, 0, 0, fmt.Errorf("expected three ints, got %s, %s, %s", TypeName(in[0]), TypeName(in[1]), TypeName(in[2]))
	}
	return
}

// rangeLength is aten::__range_length(lo, hi, step): len(range(lo, hi, step)).
func rangeLength(in []any) (any, bool, error) {
	lo, hi, step, err := ints3(in)
	if err != nil {
		return nil, true, err
	}
	if step == 0 {
		return nil, true, fmt.Errorf("range() arg 3 must not be zero")
	}
	switch {
	case step > 0 && lo < hi:
		return 1 + (hi-1-lo)/step, true, nil
	case step < 0 && lo > hi:
		return 1 + (lo-1-hi)/(-step), true, nil
	}
	return int64(0), true, nil
}

// deriveIndex is aten::__derive_index(index, start, step): start + index*step.
func deriveIndex(in []any) (any, bool, error) {
	i, start, step, err := ints3(in)
	if err != nil {
		return nil, true, err
	}
	return start + i*step, true, nil
}

func strPred(f func(s, p string) bool) builtin {
	return func(in []any) (any, bool, error) {
		if len(in) < 2 {
			return nil, true, fmt.Errorf("expected two arguments")
		}
		s, ok1 := in[0].(string)
		p, ok2 := in[1].(string)
		if !ok1 || !ok2 {
			return nil, true, fmt.Errorf("expected str arguments")
		}
		return f(s, p), true, nil
	}
}

func strMap(f func(string) string) builtin {
	return func(in []any) (any, bool, error) {
		if len(in) < 1 {
			return nil, true, fmt.Errorf("expected a str")
		}
		s, ok := in[0].(string)
		if !ok {
			return nil, false, nil
		}
		return f(s), true, nil
	}
}

func strJoin(in []any) (any, bool, error) {
	if len(in) != 2 {
		return nil, true, fmt.Errorf("expected two arguments")
	}
	sep, ok := in[0].(string)
	l, ok2 := in[1].(*List)
	if !ok || !ok2 {
		return nil, true, fmt.Errorf("join expects a str and a list of str")
	}
	parts := make([]string, len(l.Items))
	for i, v := range l.Items {
		s, ok := v.(string)
		if !ok {
			return nil, true, fmt.Errorf("sequence item %d: expected str instance, %s found", i, TypeName(v))
		}
		parts[i] = s
	}
	return strings.Join(parts, sep), true, nil
}

func strSplit(in []any) (any, bool, error) {
	if len(in) == 0 {
		return nil, false, nil
	}
	s, ok := in[0].(string)
	if !ok {
		return nil, false, nil // aten::split on tensors
	}
	var parts []string
	sep := any(nil)
	if len(in) > 1 {
		sep = in[1]
	}
	max := int64(-1)
	if len(in) > 2 {
		if m, ok := in[2].(int64); ok {
			max = m
		}
	}
	if sep == nil {
		parts = strings.Fields(s)
	} else {
		p, ok := sep.(string)
		if !ok || p == "" {
			return nil, true, fmt.Errorf("empty separator")
		}
		parts = strings.SplitN(s, p, int(max+1))
		if max < 0 {
			parts = strings.Split(s, p)
		}
	}
	l := &List{Elem: types.Str}
	for _, p := range parts {
		l.Items = append(l.Items, p)
	}
	return l, true, nil
}

func deviceOp(in []any) (any, bool, error) {
	return one(in, func(v any) (any, error) {
		switch x := v.(type) {
		case string:
			return ParseDevice(x)
		case *tensor.Tensor:
			return CPU, nil
		case Device:
			return x, nil
		}
		return nil, fmt.Errorf("device() of %s", TypeName(v))
	})
}

func sortedOp(in []any) (any, bool, error) {
	if len(in) < 1 {
		return nil, true, fmt.Errorf("expected a list")
	}
	l, err := listArg(in[0])
	if err != nil {
		return nil, true, err
	}
	c := &List{Elem: l.Elem, Items: append([]any(nil), l.Items...)}
	if _, _, err := listSort(append([]any{c}, in[1:]...)); err != nil {
		return nil, true, err
	}
	return c, true, nil
}

func listSort(in []any) (any, bool, error) {
	if len(in) < 1 || hasTensor(in[:1]) {
		return nil, false, nil
	}
	l, err := listArg(in[0])
	if err != nil {
		return nil, false, nil
	}
	reverse := false
	if len(in) > 1 {
		reverse, _ = in[1].(bool)
	}
	var serr error
	sort.SliceStable(l.Items, func(i, j int) bool {
		c, err := order(l.Items[i], l.Items[j])
		if err != nil {
			serr = fmt.Errorf("cannot sort %s", TypeName(l.Items[i]))
		}
		if reverse {
			return c > 0 && c != 2
		}
		return c < 0
	})
	return nil, true, serr
}
