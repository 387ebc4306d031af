package decomp

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// confDir holds the conformance vectors made with PyTorch 1.13.
var confDir = filepath.Join("..", "testdata", "conformance")

// readCases returns the conformance cases by operator.
func readCases(t testing.TB) map[*ops.Operator][]*conformance.Case {
	t.Helper()
	cases, err := conformance.ReadDir(confDir)
	require.NoError(t, err)
	out := map[*ops.Operator][]*conformance.Case{}
	for _, c := range cases {
		op, ok := ops.Global().Lookup(c.Op)
		require.True(t, ok, c.Op)
		out[op] = append(out[op], c)
	}
	return out
}

// cloneVal copies tensors so that a mutating rule does not change a case.
func cloneVal(v any) any {
	switch x := v.(type) {
	case *tensor.Tensor:
		if x == nil {
			return x
		}
		return x.Clone()
	case []*tensor.Tensor:
		out := make([]*tensor.Tensor, len(x))
		for i, e := range x {
			out[i] = cloneVal(e).(*tensor.Tensor)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneVal(e)
		}
		return out
	}
	return v
}

func cloneArgs(c *conformance.Case) ([]any, map[string]any) {
	args := make([]any, len(c.Args))
	for i, a := range c.Args {
		args[i] = cloneVal(a)
	}
	kw := make(map[string]any, len(c.Kwargs))
	for k, a := range c.Kwargs {
		kw[k] = cloneVal(a)
	}
	return args, kw
}

// compareOutputs checks got against a case's expected outputs at its
// tolerance: dtype and shape exactly, integers exactly, floats within
// atol + rtol*|want| (NaN matching NaN).
func compareOutputs(c *conformance.Case, got []any) error {
	if len(got) != len(c.Outputs) {
		return fmt.Errorf("%d outputs, want %d", len(got), len(c.Outputs))
	}
	for i, w := range c.Outputs {
		if err := compareOne(c, fmt.Sprintf("output %d", i), got[i], w); err != nil {
			return err
		}
	}
	return nil
}

func compareOne(c *conformance.Case, what string, got, want any) error {
	switch w := want.(type) {
	case *tensor.Tensor:
		g, ok := got.(*tensor.Tensor)
		if !ok || g == nil {
			return fmt.Errorf("%s: got %T, want a tensor", what, got)
		}
		return compareTensor(c, what, g, w)
	case []*tensor.Tensor:
		g, ok := got.([]*tensor.Tensor)
		if !ok || len(g) != len(w) {
			return fmt.Errorf("%s: got %T (%v), want %d tensors", what, got, got, len(w))
		}
		for i := range w {
			if err := compareTensor(c, fmt.Sprintf("%s[%d]", what, i), g[i], w[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if got != want {
		return fmt.Errorf("%s: got %v, want %v", what, got, want)
	}
	return nil
}

func compareTensor(c *conformance.Case, what string, g, w *tensor.Tensor) error {
	if g.IsMeta() {
		return fmt.Errorf("%s: got a meta tensor", what)
	}
	if g.DType() != w.DType() || !slices.Equal(g.Shape(), w.Shape()) {
		return fmt.Errorf("%s: got %s%v, want %s%v", what, g.DType(), g.Shape(), w.DType(), w.Shape())
	}
	if !w.DType().IsFloat() {
		if !slices.Equal(g.Int64s(), w.Int64s()) {
			return fmt.Errorf("%s: got %v, want %v", what, g.Int64s(), w.Int64s())
		}
		return nil
	}
	gv, wv := g.Float64s(), w.Float64s()
	bad := 0
	maxAbs := 0.0
	for i := range wv {
		a, e := gv[i], wv[i]
		if a == e || (math.IsNaN(a) && math.IsNaN(e)) {
			continue
		}
		d := math.Abs(a - e)
		if math.IsNaN(d) || d > c.ATol+c.RTol*math.Abs(e) {
			bad++
			maxAbs = math.Max(maxAbs, d)
		}
	}
	if bad > 0 {
		return fmt.Errorf("%s: %d elements differ (max abs %.3g, rtol %g, atol %g)", what, bad, maxAbs, c.RTol, c.ATol)
	}
	return nil
}

// tables are the decomposition tables the tests check.
var tables = []struct {
	name string
	t    func() Table
}{{"Core", Core}, {"Extra", Extra}}

// TestNumerical runs every rule eagerly on the conformance cases of its
// operator and compares with PyTorch 1.13's outputs.
func TestNumerical(t *testing.T) {
	byOp := readCases(t)
	for _, tb := range tables {
		table := tb.t()
		counts := map[string]int{}
		for _, op := range table.Operators() {
			for _, c := range byOp[op] {
				t.Run(tb.name+"/"+c.ID, func(t *testing.T) {
					args, kw := cloneArgs(c)
					got, ok, err := Call(table, op, args, kw)
					require.True(t, ok)
					require.NoError(t, err, c.Note)
					require.NoError(t, compareOutputs(c, got), c.Note)
				})
				counts[op.String()]++
			}
		}
		names := make([]string, 0, len(counts))
		total := 0
		for k, n := range counts {
			names = append(names, k)
			total += n
		}
		sort.Strings(names)
		for _, k := range names {
			t.Logf("%s: %s: %d cases", tb.name, k, counts[k])
		}
		t.Logf("%s: %d operators with rules, %d with conformance cases, %d cases", tb.name, len(table), len(counts), total)
	}
}

// TestCoverage checks that every operator of the conformance set outside
// core ATen has a Core rule.
func TestCoverage(t *testing.T) {
	core := Core()
	for op := range readCases(t) {
		if op.Has(ops.Core) {
			continue
		}
		_, ok := core.Lookup(op)
		require.True(t, ok, "no Core rule for %s", op)
	}
}
