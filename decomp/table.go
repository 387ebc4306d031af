package decomp

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// A Rule decomposes one call of an operator. args are the operator's
// arguments in schema order with defaults filled (ops.Operator.Place gives
// this order), as nn.Values: tensors are real tensors or symbolic values
// (proxies). The rule computes with operator calls (nn.CallOp, nn.Apply,
// the ops/aten handles) and Value methods, and returns the operator's
// result: one Value, or a tuple Value (nn.Tuple) for several returns.
type Rule func(args []nn.Value) (nn.Value, error)

// Table maps operators to rules.
type Table map[*ops.Operator]Rule

// With returns the union of t and o; where both have a rule, o's wins.
// Neither table is changed.
func (t Table) With(o Table) Table {
	out := make(Table, len(t)+len(o))
	maps.Copy(out, t)
	maps.Copy(out, o)
	return out
}

// Lookup returns the rule for op.
func (t Table) Lookup(op *ops.Operator) (Rule, bool) {
	r, ok := t[op]
	return r, ok && r != nil
}

// Operators returns the operators that have a rule, sorted by name.
func (t Table) Operators() []*ops.Operator {
	out := make([]*ops.Operator, 0, len(t))
	for op := range t {
		out = append(out, op)
	}
	slices.SortFunc(out, func(a, b *ops.Operator) int {
		switch {
		case a.String() < b.String():
			return -1
		case a.String() > b.String():
			return 1
		}
		return 0
	})
	return out
}

// Call places args and kwargs in op's schema order (with defaults) and runs
// op's rule from t; ok is false when t has no rule for op. The results come
// as ops.Operator.Call returns them: one per schema return, tensors
// unwrapped from Values (a Tensor[] return as []*tensor.Tensor), symbolic
// values as they are.
func Call(t Table, op *ops.Operator, args []any, kwargs map[string]any) (out []any, ok bool, err error) {
	if op == nil {
		return nil, false, errors.New("decomp.Call: nil operator")
	}
	rule, ok := t.Lookup(op)
	if !ok {
		return nil, false, nil
	}
	placed, err := op.Place(args, kwargs)
	if err != nil {
		return nil, true, err
	}
	vals, err := values(op, placed)
	if err != nil {
		return nil, true, err
	}
	res, err := rule(vals)
	if err != nil {
		return nil, true, err
	}
	out, err = unpack(op, res)
	return out, true, err
}

// values converts placed arguments to Values.
func values(op *ops.Operator, placed []any) (vals []nn.Value, err error) {
	defer nn.Recover(&err)
	vals = make([]nn.Value, len(placed))
	for i, a := range placed {
		if s, ok := a.(ops.Scalar); ok {
			a = s.Value()
		}
		vals[i] = nn.Of(a)
	}
	return vals, nil
}

// unpack converts a rule's result to one Go value per schema return.
func unpack(op *ops.Operator, res nn.Value) ([]any, error) {
	rets := op.Schema().Returns
	if len(rets) <= 1 {
		if len(rets) == 1 && isTensorList(rets[0].Type) && res.IsTuple() {
			ts := make([]*tensor.Tensor, res.Len())
			syms := make([]any, res.Len())
			allTensors := true
			for i, e := range res.Tuple() {
				ts[i] = e.Tensor()
				syms[i] = e.Raw()
				allTensors = allTensors && ts[i] != nil
			}
			if allTensors {
				return []any{ts}, nil
			}
			return []any{syms}, nil
		}
		return []any{res.Raw()}, nil
	}
	if !res.IsTuple() || res.Len() != len(rets) {
		return nil, fmt.Errorf("decomp: the rule for %s returned %s, want a tuple of %d values", op, res.Kind(), len(rets))
	}
	out := make([]any, len(rets))
	for i, e := range res.Tuple() {
		out[i] = e.Raw()
	}
	return out, nil
}

func isTensorList(t *ops.Type) bool {
	return t != nil && t.Kind == ops.ListOf && t.Elem != nil && t.Elem.Kind == ops.Named && t.Elem.Name == "Tensor"
}

// rule adapts a panicking rule body to a Rule: errors raised in the body
// (operator calls that failed, bad arguments) come back as errors naming
// the operator.
func rule(op *ops.Operator, n int, f func(a []nn.Value) nn.Value) Rule {
	return func(args []nn.Value) (out nn.Value, err error) {
		defer func() {
			if err != nil {
				err = fmt.Errorf("decomp: %s: %w", op, err)
			}
		}()
		if len(args) != n {
			return nn.None, fmt.Errorf("takes %d arguments in schema order, got %d", n, len(args))
		}
		defer nn.Recover(&err)
		return f(args), nil
	}
}
