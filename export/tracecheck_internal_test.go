package export

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLineDiffMatchesNdiff: the expected diffs are Python's
// "\n".join(difflib.ndiff(a, b)) (the form torch.jit's trace check
// prints), lines' newlines stripped.
func TestLineDiffMatchesNdiff(t *testing.T) {
	tests := []struct {
		name string
		a, b []string
		want string
	}{
		{"loop unrolled once more",
			[]string{"graph():", "    %x = placeholder[target=x]", "    %mul_2 = f(%x)", "    return (mul_2,)"},
			[]string{"graph():", "    %x = placeholder[target=x]", "    %mul_2 = f(%x)", "    %select_4 = g(%x, 0, 3)", "    %mul_3 = f(%mul_2, %select_4)", "    return (mul_3,)"},
			"  graph():\n      %x = placeholder[target=x]\n      %mul_2 = f(%x)\n+     %select_4 = g(%x, 0, 3)\n+     %mul_3 = f(%mul_2, %select_4)\n-     return (mul_2,)\n?                 ^\n+     return (mul_3,)\n?                 ^"},
		{"deleted line", []string{"a", "b", "c"}, []string{"a", "c"}, "  a\n- b\n  c"},
		{"the seed's inserted characters",
			[]string{"%result : Tensor = aten::mul(%result.2, %10)"},
			[]string{"%result.3 : Tensor = aten::mul(%result.2, %10)"},
			"- %result : Tensor = aten::mul(%result.2, %10)\n+ %result.3 : Tensor = aten::mul(%result.2, %10)\n?        ++"},
		{"unlike lines are not paired",
			[]string{"same", "x = add(y, 1)", "tail"},
			[]string{"same", "totally different line here", "tail"},
			"  same\n- x = add(y, 1)\n+ totally different line here\n  tail"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, lineDiff(tc.a, tc.b))
		})
	}
}
