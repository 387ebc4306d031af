package runtime

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/types"
)

// TorchScript passes every argument of an operator positionally, keyword-
// only ones included, and carries Layout and MemoryFormat as ints; gofx's
// dispatch point takes keyword-only arguments by name and these enums as
// their names. callOp bridges the two.

var memoryFormats = []string{"contiguous_format", "preserve_format", "channels_last", "channels_last_3d"}
var layouts = []string{"strided", "sparse_coo", "sparse_csr", "mkldnn"}

// opArgs splits TorchScript's positional inputs into positional and
// keyword arguments of schema s, converting values to the forms ops
// expects. ok is false when the inputs cannot be laid out on s (too many).
func opArgs(s *ops.Schema, in []any) (args []any, kwargs map[string]any, ok bool) {
	if len(in) > len(s.Args) {
		return nil, nil, false
	}
	args = make([]any, 0, len(in))
	for i, v := range in {
		a := s.Args[i]
		v = toOpValue(a.Type, v)
		if a.KwargOnly {
			if kwargs == nil {
				kwargs = map[string]any{}
			}
			kwargs[a.Name] = v
			continue
		}
		args = append(args, v)
	}
	return args, kwargs, true
}

func baseType(t *ops.Type) *ops.Type {
	for t != nil && t.Kind == ops.OptionalOf {
		t = t.Elem
	}
	return t
}

// toOpValue converts a runtime value to the form package ops binds.
func toOpValue(t *ops.Type, v any) any {
	switch x := v.(type) {
	case int64:
		if bt := baseType(t); bt != nil && bt.Kind == ops.Named {
			switch bt.Name {
			case "MemoryFormat":
				if x >= 0 && int(x) < len(memoryFormats) {
					return memoryFormats[x]
				}
			case "Layout":
				if x >= 0 && int(x) < len(layouts) {
					return layouts[x]
				}
			}
		}
		return x
	case *List:
		return listToOp(x)
	case *Tuple:
		return listToOp(&List{Items: x.Items})
	}
	return v
}

func listToOp(l *List) any {
	if len(l.Items) > 0 {
		allBool := true
		for _, e := range l.Items {
			if _, ok := e.(bool); !ok {
				allBool = false
				break
			}
		}
		if allBool {
			out := make([]bool, len(l.Items))
			for i, e := range l.Items {
				out[i] = e.(bool)
			}
			return out
		}
	}
	var kind types.Kind
	if l.Elem != nil {
		kind = l.Elem.Kind()
	}
	switch kind {
	case types.BoolKind:
		return []bool{}
	case types.TensorKind:
		out := make([]*tensor.Tensor, len(l.Items))
		for i, e := range l.Items {
			out[i], _ = e.(*tensor.Tensor)
		}
		return out
	}
	out := make([]any, len(l.Items))
	for i, e := range l.Items {
		out[i] = toOpValue(nil, e)
	}
	return out
}

// fromOpValue converts a value an operator returned to a runtime value.
func fromOpValue(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case float32:
		return float64(x)
	case ops.Scalar:
		return x.Value()
	case []*tensor.Tensor:
		items := make([]any, len(x))
		for i, t := range x {
			if t != nil { // a nil tensor is None, not a typed nil
				items[i] = t
			}
		}
		return &List{Elem: types.Tensor, Items: items}
	case []int64:
		return listOf(types.Int, x)
	case []float64:
		return listOf(types.Float, x)
	case []bool:
		return listOf(types.Bool, x)
	case []any:
		items := make([]any, len(x))
		for i, e := range x {
			items[i] = fromOpValue(e)
		}
		return &List{Items: items}
	}
	return v
}

// listOf wraps an operator's list result as a TorchScript list of elem.
func listOf[T any](elem types.Type, x []T) *List {
	items := make([]any, len(x))
	for i, e := range x {
		items[i] = e
	}
	return &List{Elem: elem, Items: items}
}

// callOp calls op with TorchScript's positional inputs, on the newest of
// its schemas the inputs fit.
func callOp(op *ops.Operator, in []any) ([]any, error) {
	var firstErr error
	for _, s := range op.Schemas() {
		args, kwargs, ok := opArgs(s, in)
		if !ok {
			continue
		}
		out, err := op.Call(args, kwargs)
		if err == nil {
			for i := range out {
				out[i] = fromOpValue(out[i])
			}
			return out, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		if !isBindError(err) {
			return nil, err
		}
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("%s takes at most %d arguments, got %d", op.Schema().QualifiedName(), len(op.Schema().Args), len(in))
	}
	return nil, firstErr
}

// isBindError reports whether err is a binding error (the call did not
// reach the kernel), so that another schema may be tried.
func isBindError(err error) bool {
	s := err.Error()
	return strings.Contains(s, "expected ") || strings.Contains(s, "missing required") || strings.Contains(s, "positional arguments") || strings.Contains(s, "unexpected keyword")
}

// resolveOp picks the overload of kind (ns::name) that the inputs bind to,
// in registry order with mutating overloads last, as
// ops.Registry.Resolve does, laying out TorchScript's positional inputs
// on each schema.
func resolveOp(kind string, in []any) (*ops.Operator, error) {
	ns, name, ok := strings.Cut(kind, "::")
	if !ok {
		return nil, fmt.Errorf("unknown operator %s", kind)
	}
	overloads := ops.Global().Overloads(ns, name)
	if len(overloads) == 0 {
		return nil, fmt.Errorf("unknown operator %s", kind)
	}
	var reasons []string
	for pass := 0; pass < 4; pass++ {
		exact := pass < 2
		for _, op := range overloads {
			if op.Impure() != (pass%2 == 1) {
				continue
			}
			if strings.HasSuffix(op.Schema().Overload, "out") || !op.HasKernel() {
				continue
			}
			for _, s := range op.Schemas() {
				args, kwargs, ok := opArgs(s, in)
				if !ok {
					continue
				}
				bind := op.Bind
				if exact {
					bind = op.BindExact
				}
				if _, err := bind(args, kwargs); err == nil {
					return op, nil
				} else if len(reasons) < 8 {
					reasons = append(reasons, err.Error())
				}
			}
		}
	}
	if len(reasons) == 0 {
		return nil, fmt.Errorf("no overload of %s with a kernel takes %d arguments", kind, len(in))
	}
	return nil, fmt.Errorf("no overload of %s takes (%s): %s", kind, typeNames(in), strings.Join(reasons, "; "))
}

func typeNames(in []any) string {
	names := make([]string, len(in))
	for i, v := range in {
		names[i] = TypeName(v)
	}
	return strings.Join(names, ", ")
}
