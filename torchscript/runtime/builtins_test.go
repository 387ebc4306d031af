package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/types"
)

// TestBuiltins: expected values are Python's (and TorchScript's) results
// for the same expressions.
func TestBuiltins(t *testing.T) {
	l := func(items ...any) *List { return NewList(nil, items...) }
	d := NewDict(types.Str, types.Int)
	require.NoError(t, d.Set("a", int64(1)))
	for _, c := range []struct {
		kind string
		in   []any
		want any
	}{
		{"aten::add", []any{int64(2), int64(3)}, int64(5)},
		{"aten::add", []any{int64(2), 0.5}, 2.5},
		{"aten::add", []any{"ab", "c"}, "abc"},
		{"aten::add", []any{l(int64(1)), l(int64(2))}, l(int64(1), int64(2))},
		{"aten::div", []any{int64(7), int64(2)}, 3.5},
		{"aten::floordiv", []any{int64(-7), int64(2)}, int64(-4)},
		{"aten::remainder", []any{int64(-7), int64(2)}, int64(1)},
		{"aten::remainder", []any{int64(7), int64(-2)}, int64(-1)},
		{"aten::remainder", []any{-7.5, 2.0}, 0.5},
		{"aten::pow", []any{int64(2), int64(3)}, 8.0},
		{"aten::lt", []any{int64(0), int64(3)}, true},
		{"aten::ge", []any{2.0, int64(3)}, false},
		{"aten::eq", []any{"a", "a"}, true},
		{"aten::ne", []any{l(int64(1)), l(int64(1))}, false},
		{"aten::lt", []any{l(int64(1), int64(2)), l(int64(1), int64(3))}, true},
		{"prim::max", []any{int64(2), int64(5)}, int64(5)},
		{"prim::min", []any{l(int64(4), int64(-1), int64(3))}, int64(-1)},
		{"prim::max", []any{int64(2), 1.5}, 2.0},
		{"aten::abs", []any{int64(-3)}, int64(3)},
		{"aten::neg", []any{2.5}, -2.5},
		{"aten::floor", []any{-2.5}, int64(-3)},
		{"aten::len", []any{l(int64(1), int64(2))}, int64(2)},
		{"aten::len", []any{"héllo"}, int64(5)},
		{"aten::len", []any{d}, int64(1)},
		{"aten::__getitem__", []any{l("x", "y"), int64(-1)}, "y"},
		{"aten::__getitem__", []any{"abc", int64(1)}, "b"},
		{"aten::__getitem__", []any{d, "a"}, int64(1)},
		{"aten::get", []any{d, "b", int64(0)}, int64(0)},
		{"aten::get", []any{d, "a", int64(0)}, int64(1)},
		{"aten::__contains__", []any{d, "a"}, true},
		{"aten::__contains__", []any{l(int64(1)), int64(2)}, false},
		{"aten::slice", []any{l(int64(0), int64(1), int64(2), int64(3)), int64(1), nil, int64(2)}, l(int64(1), int64(3))},
		{"aten::slice", []any{"hello", int64(-3), nil, int64(1)}, "llo"},
		{"aten::slice", []any{l(int64(0), int64(1), int64(2)), nil, nil, int64(-1)}, l(int64(2), int64(1), int64(0))},
		{"aten::Int", []any{-2.7}, int64(-2)},
		{"aten::Int", []any{tensor.Scalar[float32](3.9)}, int64(3)},
		{"aten::Int", []any{"42"}, int64(42)},
		{"aten::Float", []any{int64(3)}, 3.0},
		{"aten::Bool", []any{tensor.Scalar[float32](0)}, false},
		{"aten::Bool", []any{int64(2)}, true},
		{"aten::format", []any{"{} and {}", int64(1), 2.0}, "1 and 2."},
		{"aten::str", []any{l("a")}, "[a]"},
		{"aten::__range_length", []any{int64(0), int64(10), int64(3)}, int64(4)},
		{"aten::__range_length", []any{int64(10), int64(0), int64(-3)}, int64(4)},
		{"aten::__derive_index", []any{int64(2), int64(1), int64(3)}, int64(7)},
		{"aten::__is__", []any{nil, nil}, true},
		{"aten::__isnot__", []any{int64(1), nil}, true},
		{"aten::__not__", []any{true}, false},
		{"aten::__and__", []any{true, false}, false},
		{"aten::join", []any{",", l("a", "b")}, "a,b"},
	} {
		got, handled, err := builtins[c.kind](c.in)
		require.NoError(t, err, "%s%s", c.kind, Repr(NewTuple(c.in...)))
		require.True(t, handled, c.kind)
		if gl, ok := got.(*List); ok {
			gl.Elem = nil
		}
		eq, err := Equal(got, c.want)
		require.NoError(t, err)
		assert.True(t, eq, "%s%s = %s, want %s", c.kind, Repr(NewTuple(c.in...)), Repr(got), Repr(c.want))
		assert.Equal(t, TypeName(c.want), TypeName(got), "%s%s", c.kind, Repr(NewTuple(c.in...)))
	}
}

func TestBuiltinErrors(t *testing.T) {
	for _, c := range []struct {
		kind string
		in   []any
		msg  string
	}{
		{"aten::floordiv", []any{int64(1), int64(0)}, "ZeroDivisionError"},
		{"aten::__getitem__", []any{NewList(types.Int), int64(0)}, "list index out of range"},
		{"aten::Bool", []any{tensor.Must(tensor.FromSlice([]float32{1, 2}, 2))}, "ambiguous"},
		{"aten::add", []any{"a", int64(1)}, "unsupported operand"},
		{"prim::max", []any{NewList(types.Int)}, "empty sequence"},
		{"aten::Int", []any{"x1"}, "invalid literal"},
	} {
		_, _, err := builtins[c.kind](c.in)
		assert.ErrorContains(t, err, c.msg, c.kind)
	}
}

func TestAppendShares(t *testing.T) {
	l := NewList(types.Int)
	alias := l
	_, _, err := builtins["aten::append"]([]any{l, int64(1)})
	require.NoError(t, err)
	assert.Equal(t, 1, alias.Len())
}

func TestTensorArgsFallThrough(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float32{1, 2}, 2))
	_, handled, err := builtins["aten::add"]([]any{x, x, int64(1)})
	require.NoError(t, err)
	assert.False(t, handled)
	// Resolved as TorchScript lays the call out: alpha positionally.
	op, err := resolveOp("aten::add", []any{x, x, int64(2)})
	require.NoError(t, err)
	assert.Equal(t, "aten::add.Tensor", op.Schema().QualifiedName())
	out, err := callOp(op, []any{x, x, int64(2)})
	require.NoError(t, err)
	assert.Equal(t, []float32{3, 6}, tensor.Values[float32](out[0].(*tensor.Tensor)))
	// A float for a Tensor operand binds aten::mul.Scalar-like overloads
	// only after the exact round.
	op, err = resolveOp("aten::mul", []any{x, 0.5})
	require.NoError(t, err)
	assert.NotEqual(t, "aten::mul.Tensor", op.Schema().QualifiedName())
	// zeros_like's keyword-only dtype..memory_format given positionally.
	zl, ok := ops.Global().Lookup("aten::zeros_like")
	require.True(t, ok)
	out, err = callOp(zl, []any{x, nil, nil, nil, nil, int64(1)})
	require.NoError(t, err)
	assert.Equal(t, []int{2}, out[0].(*tensor.Tensor).Shape())
}
