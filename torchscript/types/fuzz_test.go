package types

import "testing"

// FuzzParseIR: ParseIR never panics, and a type it accepts prints as text
// that parses to an equal type.
func FuzzParseIR(f *testing.F) {
	for _, s := range []string{"int", "Tensor?", "int[]", "Dict(str, Tensor[])", "(Tensor, int)", "Union(int, str)",
		"Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)", "Long(requires_grad=0, device=cpu)",
		"NamedTuple(a : int, b : Tensor)", "__torch__.Foo", "t(*)", "Tensor(a!)[]", "List[Optional[int]]",
		"FloatTensor(requires_grad=1)", "Tensor(*, *)", "Enum<__torch__.Color>", "Future(int)", "Tuple[()]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		typ, err := ParseIR(s)
		if err != nil {
			return
		}
		out := typ.String()
		typ2, err := ParseIR(out)
		if err != nil {
			t.Fatalf("%q parsed, printed as %q, which does not parse: %v", s, out, err)
		}
		if !Equal(typ, typ2) || typ2.String() != out {
			t.Fatalf("%q: printed %q, reparsed %q", s, out, typ2.String())
		}
		_ = typ.Annotation()
	})
}
