package ops_test

import (
	"bufio"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/ops"
)

// schemaLines returns the schema lines of a file under schemas/ (comments
// skipped).
func schemaLines(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open("schemas/" + name)
	require.NoError(t, err)
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// Every schema of PyTorch 1.13, 2.6 and 2.14 (torch._C._jit_get_all_schemas())
// parses and prints back byte for byte.
func TestSchemaRoundTripAll(t *testing.T) {
	for _, file := range []string{"all_schemas_1.13.txt", "core_schemas.txt", "versions_2.x.txt", "quantized_decomposed.txt"} {
		lines := schemaLines(t, file)
		if file == "versions_2.x.txt" {
			for i, line := range lines {
				_, lines[i], _ = strings.Cut(line, " ")
			}
		}
		failed := 0
		for _, line := range lines {
			s, err := ops.ParseSchema(line)
			if !assert.NoError(t, err) {
				failed++
			} else if !assert.Equal(t, line, s.String()) {
				failed++
			}
			if failed > 10 {
				t.Fatalf("%s: stopping after 10 failures", file)
			}
		}
		t.Logf("%s: %d schemas round-trip", file, len(lines))
	}
}

func TestParseSchemaStructure(t *testing.T) {
	s, err := ops.ParseSchema("aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)")
	require.NoError(t, err)
	assert.Equal(t, "aten", s.Namespace)
	assert.Equal(t, "add", s.Name)
	assert.Equal(t, "out", s.Overload)
	assert.Equal(t, "aten::add.out", s.QualifiedName())
	require.Len(t, s.Args, 4)
	assert.False(t, s.Args[1].KwargOnly)
	assert.True(t, s.Args[2].KwargOnly)
	assert.Equal(t, "1", s.Args[2].Default.Text)
	assert.Equal(t, &ops.Alias{Before: []string{"a"}, Write: true}, s.Args[3].Type.Alias)
	assert.True(t, s.IsMutable())

	s, err = ops.ParseSchema("aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor")
	require.NoError(t, err)
	k := s.Args[1].Type
	assert.Equal(t, ops.ListOf, k.Kind)
	assert.Equal(t, 2, k.Size)
	assert.Equal(t, "int", k.Elem.Name)
	pad, err := s.Args[3].Default.Ints(2)
	require.NoError(t, err)
	assert.Equal(t, []int64{0, 0}, pad)
	stride, err := s.Args[2].Default.Ints(2)
	require.NoError(t, err)
	assert.Equal(t, []int64{}, stride)
	ceil, err := s.Args[5].Default.Bool()
	require.NoError(t, err)
	assert.False(t, ceil)
	assert.False(t, s.IsMutable())

	s, err = ops.ParseSchema("aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)")
	require.NoError(t, err)
	require.Len(t, s.Returns, 2)
	assert.Equal(t, "values", s.Returns[0].Name)
	assert.Equal(t, "indices", s.Returns[1].Name)

	s, err = ops.ParseSchema("aten::_set_item.Tensor(Dict(Tensor, t)(a!) l, Tensor(b -> *) idx, t(c -> *) v) -> ()")
	require.NoError(t, err)
	l := s.Args[0].Type
	assert.Equal(t, "Dict", l.Name)
	assert.Equal(t, []string{"Tensor", "t"}, []string{l.Params[0].Name, l.Params[1].Name})
	assert.Equal(t, &ops.Alias{Before: []string{"b"}, After: []string{"*"}}, s.Args[1].Type.Alias)
	assert.Empty(t, s.Returns)
	assert.Equal(t, "aten::_set_item.Tensor(Dict(Tensor, t)(a!) l, Tensor(b -> *) idx, t(c -> *) v) -> ()", s.String())

	s, err = ops.ParseSchema("aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor")
	require.NoError(t, err)
	it := s.Args[1].Type
	assert.Equal(t, ops.ListOf, it.Kind)
	assert.Equal(t, ops.OptionalOf, it.Elem.Kind)

	s, err = ops.ParseSchema("aten::format(str self, ...) -> str")
	require.NoError(t, err)
	assert.True(t, s.VarArgs)
	s, err = ops.ParseSchema("aten::items.Tensor(Dict(Tensor, t) self) -> ((Tensor, t)[])")
	require.NoError(t, err)
	require.Len(t, s.Returns, 1)
	assert.Equal(t, "(Tensor, t)[]", s.Returns[0].Type.String())
}

func TestDefaults(t *testing.T) {
	f := func(text string) *ops.Default { return &ops.Default{Text: text} }
	for _, tt := range []struct {
		text string
		want float64
	}{{"1.", 1}, {"0.33333333333333331", 0.3333333333333333}, {"1.0000000000000001e-05", 1e-05}, {"-100", -100}} {
		got, err := f(tt.text).Float()
		require.NoError(t, err, tt.text)
		assert.Equal(t, tt.want, got, tt.text)
	}
	for _, tt := range []struct{ text, want string }{
		{`"mean"`, "mean"}, {`" \n\t\f\v"`, " \n\t\f\v"}, {`"\"\'\\"`, `"'\`}, {`""`, ""},
	} {
		got, err := f(tt.text).Str()
		require.NoError(t, err, tt.text)
		assert.Equal(t, tt.want, got, tt.text)
	}
	ints, err := f("[-2, -1]").Ints(0)
	require.NoError(t, err)
	assert.Equal(t, []int64{-2, -1}, ints)
	assert.True(t, f("None").IsNone())
	for _, bad := range []func() error{
		func() error { _, err := f("None").Int(); return err },
		func() error { _, err := f("x").Float(); return err },
		func() error { _, err := f("[1, a]").Ints(0); return err },
		func() error { _, err := f("1").Ints(0); return err },
		func() error { _, err := f("mean").Str(); return err },
		func() error { _, err := f(`"\q"`).Str(); return err },
		func() error { _, err := f("1").Bool(); return err },
	} {
		assert.Error(t, bad())
	}
}

func TestParseSchemaErrors(t *testing.T) {
	tests := []struct {
		src    string
		offset int
		want   string
	}{
		{"add(Tensor self) -> Tensor", 3, `expected "::" after the namespace`},
		{"aten::add(Tensor self -> Tensor", 22, `expected "," between arguments`},
		{"aten::add(Tensor self) Tensor", 23, `expected "->" before the returns`},
		{"aten::add(Tensor) -> Tensor", 16, "argument of type Tensor has no name"},
		{"aten::add(Tensor self, *, *, int a) -> Tensor", 27, "a second '*' marker"},
		{"aten::add(int[0] a) -> Tensor", 15, `malformed list size "0"`},
		{"aten::add(int[2 a) -> Tensor", 15, "expected ']'"},
		{"aten::add(Tensor(a!)(b) x) -> Tensor", 20, "a second alias annotation"},
		{"aten::add(Tensor(!) x) -> Tensor", 17, "expected an alias set name"},
		{"aten::add(str s=\"abc) -> str", 28, "unterminated string"},
		{"aten::add(int a=) -> int", 16, "malformed default value"},
		{"aten::add(int a) -> int extra more", 30, "unexpected text after the schema"},
		{"aten::add(int a) -> (int, ..., int)", 30, "returns after '...'"},
		{"aten::add(" + strings.Repeat("Dict(", 40) + "int" + strings.Repeat(")", 40) + " a) -> int", 0, "nested more than 32 deep"},
	}
	for _, tt := range tests {
		_, err := ops.ParseSchema(tt.src)
		var se *ops.SchemaError
		if assert.ErrorAs(t, err, &se, tt.src) {
			assert.Contains(t, se.Msg, tt.want, tt.src)
			if tt.offset > 0 {
				assert.Equal(t, tt.offset, se.Offset, tt.src)
			}
		}
	}
}

// FuzzParseSchema: ParseSchema never panics, and what it accepts prints to
// a schema that parses back to the same text.
func FuzzParseSchema(f *testing.F) {
	for _, s := range []string{
		"aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
		"aten::_set_item.Tensor(Dict(Tensor, t)(a!) l, Tensor(b -> *) idx, t(c -> *) v) -> ()",
		"aten::items.Tensor(Dict(Tensor, t) self) -> ((Tensor, t)[])",
		"aten::format(str self, ...) -> str",
		"aten::split(str self, str? separator=None, int max=-1) -> str[]",
		"aten::strip(str self, str chars=\" \\n\\t\\f\\v\") -> str",
		"aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
		"aten::x(int[2] a=[1, 2], float b=1.0000000000000001e-05) -> ...",
		"aten::add(", "::", "a::b(Tensor(a|b!) x) -> (Tensor(a|b!), ...)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s, err := ops.ParseSchema(src)
		if err != nil {
			var se *ops.SchemaError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(src) {
				t.Fatalf("error %v for %q is not a SchemaError with an offset in range", err, src)
			}
			return
		}
		out := s.String()
		s2, err := ops.ParseSchema(out)
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", src, out, err)
		}
		if out2 := s2.String(); out2 != out {
			t.Fatalf("%q printed as %q, then as %q", src, out, out2)
		}
	})
}
