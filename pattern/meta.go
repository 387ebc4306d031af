package pattern

import (
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/tensor"
)

// literalValue returns the Go value model code would pass for a literal
// argument.
func literalValue(a node.Arg) (any, bool) {
	switch x := a.(type) {
	case node.Int:
		return int64(x), true
	case node.Float:
		return float64(x), true
	case node.Bool:
		return bool(x), true
	case node.Str:
		return string(x), true
	case node.NoneType:
		return nil, true
	case node.DType:
		return dtypeOf(x)
	case node.List:
		return literalValues(x)
	case node.Tuple:
		return literalValues(x)
	}
	return nil, false
}

// literalValues returns a list or tuple of literals (the stride and
// padding lists of a convolution) as a []any of their values.
func literalValues(elems []node.Arg) (any, bool) {
	out := make([]any, len(elems))
	for i, e := range elems {
		v, ok := literalValue(e)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

func dtypeOf(d node.DType) (tensor.DType, bool) {
	dt, err := tensor.ParseDType(string(d))
	return dt, err == nil
}

// toMeta turns FakeProp's vals into the node.TensorMeta form of
// shapeprop.Propagate.
func toMeta(v node.Value) node.Value {
	switch x := v.(type) {
	case *shapeprop.Fake:
		return x.Meta()
	case node.ValueTuple:
		out := make(node.ValueTuple, len(x))
		for i, e := range x {
			out[i] = toMeta(e)
		}
		return out
	}
	return v
}
