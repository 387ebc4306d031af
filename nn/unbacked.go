package nn

import (
	"fmt"
	"math"

	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// Data-dependent values: Tensor.item() and the checks PyTorch's model code
// states about the numbers it reads (torch._check, torch._check_is_size,
// torch._constrain_as_size, torch.sym_constrain_range). Run eagerly they
// read the data and check, with PyTorch's messages. Exported, item() is an
// unbacked symbol (u0, u1, ...) and the checks narrow its range; the
// exporter turns the ranges into runtime assertions after the node that
// reads the value (see package export).

// The functions of the checks, as call_function targets: an exporter
// handles them itself; traced by fx they are recorded, and run as their
// Go implementations.
var (
	// TorchCheck is torch._check(cond[, message]).
	TorchCheck = node.MustFunc("torch._check", true)
	// TorchCheckIsSize is torch._check_is_size(i).
	TorchCheckIsSize = node.MustFunc("torch._check_is_size", true)
	// TorchConstrainAsSize is torch._constrain_as_size(symbol, min, max).
	TorchConstrainAsSize = node.MustFunc("torch._constrain_as_size", true)
	// TorchConstrainAsValue is torch.sym_constrain_range(symbol, min, max)
	// called from model code (the torch._constrain_as_value of PyTorch
	// 2.1, removed since).
	TorchConstrainAsValue = node.MustFunc("torch._constrain_as_value", true)
)

// checkFailed is torch._check's message for a false condition without a
// message of its own.
const checkFailed = "Expected cond to be True, but got False. (Could this error message be improved? If so, please report an enhancement request to PyTorch.)"

func init() {
	RegisterMethod("item", func(a []Value, kw map[string]Value) (Value, error) {
		if len(a) != 1 || len(kw) != 0 {
			return None, fmt.Errorf("item takes no arguments, got %d", len(a)-1+len(kw))
		}
		return Apply(opItem, a[:1], nil)
	})
	must(RegisterFunction(TorchCheck, func(a []Value, kw map[string]Value) (Value, error) {
		if len(a) < 1 || len(a) > 2 || len(kw) != 0 {
			return None, fmt.Errorf("torch._check takes a condition and an optional message, got %d arguments", len(a)+len(kw))
		}
		ok, isBool := a[0].v.(bool)
		if !isBool {
			return None, fmt.Errorf("torch._check: cond must be a bool, but got %s", a[0].Kind())
		}
		if !ok {
			msg := checkFailed
			if len(a) == 2 {
				if s, isStr := a[1].v.(string); isStr {
					msg = s
				}
			}
			return None, fmt.Errorf("%s", msg)
		}
		return None, nil
	}))
	must(RegisterFunction(TorchCheckIsSize, func(a []Value, kw map[string]Value) (Value, error) {
		n, err := checkInt("torch._check_is_size", a, kw, 1)
		if err != nil {
			return None, err
		}
		if n < 0 {
			return None, fmt.Errorf("%s", checkFailed)
		}
		return None, nil
	}))
	for _, fn := range []*node.Func{TorchConstrainAsSize, TorchConstrainAsValue} {
		must(RegisterFunction(fn, func(a []Value, kw map[string]Value) (Value, error) {
			n, err := checkInt(fn.String(), a, kw, 3)
			if err != nil {
				return None, err
			}
			lo, hi := a[1].v.(int64), a[2].v.(int64)
			if n < lo || n > hi {
				return None, torchErr("Invalid value range for %d between [%d, %d].", n, lo, hi)
			}
			return None, nil
		}))
	}
}

// checkInt checks the arguments of a check on an int: nargs ints, the
// first the value checked; it returns that value.
func checkInt(name string, a []Value, kw map[string]Value, nargs int) (int64, error) {
	if len(a) != nargs || len(kw) != 0 {
		return 0, fmt.Errorf("%s takes %d arguments, got %d", name, nargs, len(a)+len(kw))
	}
	for i, x := range a {
		if _, ok := x.v.(int64); !ok {
			return 0, fmt.Errorf("%s: argument %d must be an int, got %s", name, i, x.Kind())
		}
	}
	return a[0].v.(int64), nil
}

var opItem = Op("aten::item")

// Item returns the value of a one-element tensor as a number Value
// (Tensor.item()): an int64 for integer dtypes, a float64 for floating
// ones, a bool for bool; a tensor of another element count is an error,
// with PyTorch's message. Exported, the value of an integer tensor is an
// unbacked symbol (u0, u1, ...) recorded by aten.item.default (core ATen's
// _local_scalar_dense.default): it can size later tensors (x[:n],
// zeros(n)), and functional.Check and friends narrow its range. The item
// of a floating tensor is an unbacked float symbol (zuf0, zuf1, ..., as
// PyTorch 2.6 records Sym(zuf0)), which model code passes on to operators
// (a wrapped number, a fill value, an alpha); arithmetic and comparisons
// on it are export errors (compute with the tensor instead).
func (v Value) Item() Value { return v.Method("item") }

// symSlice is a slice with a symbolic part (x[:n] with n := k.Item(), or
// x[:y.Size(0)] with a dynamic size), which a node.Slice cannot hold: it
// indexes traced tensors only, as aten.slice.Tensor with the part's
// proxy.
type symSlice struct{ parts [3]Value }

// SliceParts returns the slice's start, stop and step (None where left
// out): a recorder writes the slice into a graph with their arguments
// (slice(None, item, None) in torch.fx's spelling).
func (s symSlice) SliceParts() [3]Value { return s.parts }

// symbolicSlice returns the Slice of parts (at most 3, at least one
// symbolic) as Slice lays them out: stop; start, stop; start, stop, step.
func symbolicSlice(parts []any) Value {
	var s symSlice
	vs := make([]Value, len(parts))
	for i, p := range parts {
		v, err := valueOf(p)
		if err != nil {
			panic(errorf("slice part %d: %v", i, err))
		}
		switch x := v.v.(type) {
		case nil, int64:
		default:
			if _, ok := x.(ops.Symbolic); !ok {
				panic(errorf("slice part %d must be an int, a symbolic int or nil, got %s", i, v.Kind()))
			}
		}
		vs[i] = v
	}
	switch len(vs) {
	case 1:
		s.parts[1] = vs[0]
	default:
		copy(s.parts[:], vs)
	}
	return Value{s}
}

// apply slices dimension dim of x (a traced tensor) as indexTensor does a
// node.Slice: start 0 and end 2**63-1 for parts left out, the step only
// when it is not 1.
func (s symSlice) apply(x Value, dim int64) (Value, error) {
	start, stop, step := s.parts[0], s.parts[1], s.parts[2]
	if start.IsNone() {
		start = Value{int64(0)}
	}
	if stop.IsNone() {
		stop = Value{int64(math.MaxInt64)}
	}
	args := []Value{x, {dim}, start, stop}
	if st, isInt := step.v.(int64); !step.IsNone() && !(isInt && st == 1) {
		if isInt && st <= 0 {
			return None, fmt.Errorf("operator.getitem: slice step must be positive (PyTorch does not support negative steps)")
		}
		args = append(args, step)
	}
	return Apply(opSliceT, args, nil)
}

// torchErr is an error with PyTorch's own message (capitalized, with its
// punctuation), which tests and users compare with PyTorch's.
func torchErr(format string, a ...any) error { return fmt.Errorf(format, a...) }
