package types

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The spellings are those of the code.txt files PyTorch 2.6 printed
// (../shared/torchscript) and of c10's jit_type printing.
func TestParseIRRoundTrip(t *testing.T) {
	for _, tc := range []struct{ ir, ann string }{
		{"int", "int"},
		{"float", "float"},
		{"bool", "bool"},
		{"str", "str"},
		{"NoneType", "NoneType"},
		{"Tensor", "Tensor"},
		{"Tensor[]", "List[Tensor]"},
		{"int[]", "List[int]"},
		{"float[]", "List[float]"},
		{"Tensor?", "Optional[Tensor]"},
		{"int[]?", "Optional[List[int]]"},
		{"Dict(str, int)", "Dict[str, int]"},
		{"(Tensor, int)", "Tuple[Tensor, int]"},
		{"()", "Tuple[()]"},
		{"Union(int, str)", "Union[int, str]"},
		{"Scalar", "number"},
		{"Device", "Device"},
		{"Function", "Function"},
		{"__torch__.Attributes", "__torch__.Attributes"},
		{"__torch__.torch.nn.modules.linear.___torch_mangle_13.Linear", "__torch__.torch.nn.modules.linear.___torch_mangle_13.Linear"},
		{"Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)", "Tensor"},
		{"Long(requires_grad=0, device=cpu)", "Tensor"},
		{"FloatTensor", "Tensor"},
		{"FloatTensor(requires_grad=1)", "Tensor"},
		{"Tensor(*, *)", "Tensor"},
		{"Float(*, 3, requires_grad=0, device=cpu)", "Tensor"},
		{"Float()", "Tensor"},
		{"Float(requires_grad=0, device=cuda:0)", "Tensor"},
		{"Dict(str, Tensor[])?", "Optional[Dict[str, List[Tensor]]]"},
		{"NamedTuple(a : Tensor, b : int)", "Tuple[Tensor, int]"},
		{"t", "t"},
		{"Future[int]", "Future[int]"},
	} {
		typ, err := ParseIR(tc.ir)
		require.NoError(t, err, tc.ir)
		assert.Equal(t, tc.ir, typ.String(), "String of %s", tc.ir)
		assert.Equal(t, tc.ann, typ.Annotation(), "Annotation of %s", tc.ir)
	}
}

func TestParseIRSingletons(t *testing.T) {
	for s, want := range map[string]Type{"int": Int, "SymInt": Int, "Scalar": Number, "NoneType": None, "Tensor": Tensor, "Tensor(a!)": Tensor} {
		got, err := ParseIR(s)
		require.NoError(t, err, s)
		assert.Same(t, want, got, s)
	}
}

func TestParseIRErrors(t *testing.T) {
	for _, s := range []string{"", "Dict(str)", "(int,", "int[", "Float(2, x)", "Dict(str, int", "Union()", "int]", "Float(requires_grad=2)"} {
		_, err := ParseIR(s)
		assert.Error(t, err, "%q", s)
	}
}

func mustParse(t *testing.T, s string) Type {
	t.Helper()
	typ, err := ParseIR(s)
	require.NoError(t, err, s)
	return typ
}

func TestIsSubtype(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"int", "Scalar", true},
		{"float", "Scalar", true},
		{"bool", "Scalar", false},
		{"NoneType", "Tensor?", true},
		{"Tensor", "Tensor?", true},
		{"int", "Tensor?", false},
		{"Tensor?", "Tensor", false},
		{"int", "Any", true},
		{"(int, Tensor)", "(Scalar, Tensor?)", true},
		{"(int, Tensor)", "(Scalar)", false},
		{"int[]", "Scalar[]", false},
		{"int[]", "int[]", true},
		{"Dict(str, int)", "Dict(str, Scalar)", false},
		{"Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)", "Tensor", true},
		{"Tensor", "Float(2, 3)", false},
		{"Union(int, str)", "Union(str, int, float)", true},
		{"int", "Union(int, str)", true},
		{"Tensor?", "Union(Tensor, NoneType)", true},
		{"ScalarType", "int", true},
		{"__torch__.A", "__torch__.A", true},
		{"__torch__.A", "__torch__.B", false},
		{"int[]", "list", true},
	} {
		assert.Equal(t, tc.want, IsSubtype(mustParse(t, tc.a), mustParse(t, tc.b)), "%s <: %s", tc.a, tc.b)
	}
}

func TestUnify(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{"int", "int", "int"},
		{"NoneType", "Tensor", "Tensor?"},
		{"Tensor", "NoneType", "Tensor?"},
		{"Tensor?", "Tensor", "Tensor?"},
		{"Float(2, 3)", "Float(2, 4)", "Float(2, *)"},
		{"Float(2, 3)", "Long(2, 3)", "Tensor(2, 3)"},
		{"(int, NoneType)", "(int, Tensor)", "(int, Tensor?)"},
		{"int", "Scalar", "Scalar"},
		{"int", "str", ""},
		{"int[]", "float[]", ""},
	} {
		got, ok := Unify(mustParse(t, tc.a), mustParse(t, tc.b))
		if tc.want == "" {
			assert.False(t, ok, "unify %s, %s gave %v", tc.a, tc.b, got)
			continue
		}
		require.True(t, ok, "unify %s, %s", tc.a, tc.b)
		assert.Equal(t, tc.want, got.String(), "unify %s, %s", tc.a, tc.b)
	}
}

func TestNewUnion(t *testing.T) {
	assert.Equal(t, "int?", NewUnion(Int, None).String())
	assert.Equal(t, "Union(int, str)", NewUnion(Int, Str, Int).String())
	assert.Same(t, Int, NewUnion(Int))
}
