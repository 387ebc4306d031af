package export_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
)

// TestTreeSpecPyTorch reads every in_spec and out_spec PyTorch 2.6 wrote into
// ../shared/pt2 (copied to testdata/pytree_specs.tsv by gen_pytree_specs.py):
// each parses, prints as PyTorch's repr (the io.json's text), and marshals back
// to PyTorch's bytes.
func TestTreeSpecPyTorch(t *testing.T) {
	f, err := os.Open("testdata/pytree_specs.tsv")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		js, repr, ok := strings.Cut(sc.Text(), "\t")
		require.True(t, ok, sc.Text())
		spec, err := export.ParseTreeSpec(js)
		require.NoError(t, err, js)
		assert.Equal(t, repr, spec.String())
		back, err := spec.MarshalPyTorch()
		require.NoError(t, err)
		assert.Equal(t, js, back)
		n++
	}
	require.NoError(t, sc.Err())
	assert.Equal(t, 8, n)
}

func TestTreeSpecFlatten(t *testing.T) {
	// tied_dict's in spec: forward(batch) with batch = {"ids": ..., "mask": ...}.
	in := export.TupleSpec(export.TupleSpec(export.DictSpec([]string{"ids", "mask"}, export.Leaf(), export.Leaf())), export.DictSpec(nil))
	leaves, err := in.Flatten("inputs", []any{[]any{map[string]any{"mask": 2, "ids": 1}}, map[string]any{}})
	require.NoError(t, err)
	assert.Equal(t, []any{1, 2}, leaves)

	for _, c := range []struct {
		v   any
		msg string
	}{
		{[]any{[]any{map[string]any{"ids": 1}}, map[string]any{}}, `inputs[0][0]: missing key "mask" (expected ["ids" "mask"])`},
		{[]any{[]any{map[string]any{"ids": 1, "mask": 2, "x": 3}}, map[string]any{}}, `inputs[0][0]: unexpected key "x" (expected ["ids" "mask"])`},
		{[]any{[]any{1}, map[string]any{}}, `inputs[0][0]: expected a dict with keys ["ids" "mask"], got an int`},
		{[]any{[]any{}, map[string]any{}}, "inputs[0]: expected a tuple of 1 elements, got 0"},
		{[]any{[]any{map[string]any{}}}, "inputs: expected a tuple of 2 elements, got 1"},
	} {
		_, err := in.Flatten("inputs", c.v)
		assert.EqualError(t, err, c.msg)
	}

	// tied_dict's out spec: ({"logits": a, "pooled": b}, [c]).
	out := export.TupleSpec(export.DictSpec([]string{"logits", "pooled"}, export.Leaf(), export.Leaf()), export.ListSpec(export.Leaf()))
	v, err := out.Unflatten([]any{"a", "b", "c"})
	require.NoError(t, err)
	assert.Equal(t, []any{map[string]any{"logits": "a", "pooled": "b"}, []any{"c"}}, v)
	back, err := out.Flatten("out", v)
	require.NoError(t, err)
	assert.Equal(t, []any{"a", "b", "c"}, back)
	_, err = out.Unflatten([]any{"a"})
	assert.ErrorContains(t, err, "3 leaves, got 1 values")
}

func TestParseTreeSpecErrors(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{`[2, {"type": null, "context": null, "children_spec": []}]`, "unknown protocol 2"},
		{`[1]`, "expected [protocol, spec]"},
		{`[1, {"type": "builtins.set", "context": "null", "children_spec": []}]`, `unknown node type "builtins.set"`},
		{`[1, {"type": "builtins.dict", "context": "[\"a\"]", "children_spec": []}]`, "1 keys and 0 children"},
		{`[1, {"type": "builtins.dict", "context": "[\"a\"", "children_spec": []}]`, "not JSON"},
		{`[1, {"type": null, "context": null, "children_spec": [], "extra": 1}]`, `unknown field "extra"`},
		{`[1, {"type": null, "context": null, "children_spec": [{"type": null, "context": null, "children_spec": []}]}]`, "a leaf (type null) with 1 children"},
		{strings.Repeat(`[1, `, 1) + strings.Repeat(`{"type": "builtins.tuple", "context": "null", "children_spec": [`, 150) + strings.Repeat(`]}`, 150) + `]`, "nested deeper than 100"},
	} {
		_, err := export.ParseTreeSpec(c.in)
		if assert.Error(t, err, c.in) {
			assert.Contains(t, err.Error(), c.msg)
		}
	}
}

// FuzzParseTreeSpec: no input panics, and what parses marshals and re-parses to the same
// spec.
func FuzzParseTreeSpec(f *testing.F) {
	data, err := os.ReadFile("testdata/pytree_specs.tsv")
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if js, _, ok := strings.Cut(line, "\t"); ok {
			f.Add(js)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := export.ParseTreeSpec(s)
		if err != nil {
			return
		}
		js, err := spec.MarshalPyTorch()
		if err != nil {
			return // a context with no JSON form (NaN)
		}
		again, err := export.ParseTreeSpec(js)
		if err != nil {
			t.Fatalf("%q marshals to %q, which does not parse: %v", s, js, err)
		}
		if again.String() != spec.String() {
			t.Fatalf("%q: %s, after a round trip %s", s, spec, again)
		}
	})
}
