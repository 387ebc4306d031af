package shapeprop

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
	"github.com/stretchr/testify/require"
)

// symbolize replaces every dim of every tensor in v by a fresh backed
// symbol whose hint is the dim.
func symbolize(env *sym.Env, v any) any {
	switch x := v.(type) {
	case *tensor.Tensor:
		if x == nil {
			return x
		}
		f := FakeOf(x)
		for i, d := range f.Shape {
			c, _ := d.Const()
			s, err := env.NewSymbol(fmt.Sprintf("s%d", len(env.Symbols())), c, sym.Range{Lo: 0, Hi: sym.Inf})
			if err != nil {
				panic(err)
			}
			f.Shape[i] = s.Expr()
		}
		return f
	case []*tensor.Tensor:
		out := make([]any, len(x))
		for i, t := range x {
			out[i] = symbolize(env, t)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, t := range x {
			out[i] = symbolize(env, t)
		}
		return out
	}
	return v
}

// TestConformanceShapes runs every conformance case of an operator with a
// shape rule through Infer, with static and with fully symbolic shapes:
// the rule must agree with the meta function (Infer checks it at the
// hints) and the result shapes with PyTorch's outputs.
func TestConformanceShapes(t *testing.T) {
	cases, err := conformance.ReadDir("../testdata/conformance")
	require.NoError(t, err)
	n := 0
	for _, c := range cases {
		op, ok := ops.Global().Lookup(c.Op)
		if !ok || !HasRule(c.Op) || strings.Contains(c.Note, "error") {
			continue
		}
		n++
		for _, symbolic := range []bool{false, true} {
			env := sym.NewEnv()
			args := make([]any, len(c.Args))
			for i, a := range c.Args {
				args[i] = a
				if symbolic {
					args[i] = symbolize(env, a)
				}
			}
			kw := map[string]any{}
			for k, a := range c.Kwargs {
				kw[k] = a
				if symbolic {
					kw[k] = symbolize(env, a)
				}
			}
			out, err := Infer(env, op, args, kw, "test")
			if !assertNoErr(t, err, "%s symbolic=%v", c.ID, symbolic) {
				continue
			}
			h := newHinter(env)
			for i, want := range c.Outputs {
				switch w := want.(type) {
				case *tensor.Tensor:
					f, ok := out[i].(*Fake)
					if !ok {
						t.Errorf("%s: result %d is %T, want a tensor", c.ID, i, out[i])
						continue
					}
					require.Equal(t, w.DType(), f.DType, c.ID)
					require.Equal(t, toInt64s(w.Shape()), h.ints(f.Shape), "%s symbolic=%v: %s", c.ID, symbolic, f)
				case []*tensor.Tensor:
					fs, ok := out[i].([]*Fake)
					if !ok || len(fs) != len(w) {
						t.Errorf("%s: result %d is %v, want %d tensors", c.ID, i, out[i], len(w))
						continue
					}
					for j := range w {
						require.Equal(t, toInt64s(w[j].Shape()), h.ints(fs[j].Shape), c.ID)
					}
				}
			}
		}
	}
	t.Logf("%d cases", n)
}

func assertNoErr(t *testing.T, err error, format string, a ...any) bool {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v", fmt.Sprintf(format, a...), err)
		return false
	}
	return true
}

func toInt64s(s []int) []int64 {
	out := make([]int64, len(s))
	for i, v := range s {
		out[i] = int64(v)
	}
	return out
}
