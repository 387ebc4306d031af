package ir

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "1:1: expected \"graph(\""},
		{"graph(%x : Tensor):\n  return (%y)\n", "2:11: value %y is used before it is defined"},
		{"graph(%x : Tensor):\n  %y : Tensor = relu(%x)\n  return (%y)\n", "2:17: expected a node kind"},
		{"graph(%x : Tensor, %x : int):\n  return (%x)\n", "1:20: value %x is defined twice"},
		{"graph(%x : Tensr[):\n  return (%x)\n", "1:12: bad type of %x: unknown type \"Tensr\""},
		{"graph(%x : bool):\n  %y : int = prim::If(%x)\n    block0():\n      %z : int = prim::Constant[value=1]()\n      -> (%z)\n    block1():\n      -> (%z)\n  return (%y)\n",
			"7:11: value %z is not visible here"},
		{"graph(%x : int):\n  %y : str = prim::Constant[value=\"ab]()\n  return (%y)\n", "2:35: unterminated string"},
		{"graph(%x : int):\n  %y : int = prim::Constant[value=99999999999999999999]()\n  return (%y)\n", "2:35: bad integer"},
		{"graph(%x : int):\n  %y : int = aten::neg(%x) # m.py:x:1\n  return (%y)\n", "2:27: bad source comment"},
		{"graph(%x : int):\n  %y : int = prim::Loop(%x)\n    block0(%i : int):\n      -> ()\n  return (%y)\n", "the graph is malformed"},
		{"graph(%x : int):\n  %y : int = aten::neg(%x)\n  return (%y)\nmore", "4:1: unexpected text after the graph"},
	} {
		_, err := Parse(tc.text)
		require.Error(t, err, tc.text)
		assert.Contains(t, err.Error(), tc.want, tc.text)
	}
}

// The strings PyTorch 2.6 printed for gen_ir.py's constants (extra.code.txt):
// a C escape for each of \" \n \t \' \\, three "digits" computed on a
// signed char for bytes c10 finds unprintable (\001; é's UTF-8 bytes 0xC3
// 0xA9 as \0)+\/.)).
func TestStringEscapes(t *testing.T) {
	for want, printed := range map[string]string{
		"he said \"hi\"\x01": `"he said \"hi\"\001"`,
		"\u00e9":             `"\0)+\/.)"`,
		"a\"b\n\t'\\":        `"a\"b\n\t\'\\"`,
	} {
		assert.Equal(t, printed, QuoteString(want))
		g, err := Parse("graph():\n  %0 : str = prim::Constant[value=" + printed + "]()\n  return (%0)\n")
		require.NoError(t, err, printed)
		v, ok := g.Nodes()[0].ConstantValue()
		require.True(t, ok)
		assert.Equal(t, want, v)
	}
	for c := 0; c < 256; c++ {
		s := string([]byte{byte(c)})
		g, err := Parse("graph():\n  %0 : str = prim::Constant[value=" + QuoteString(s) + "]()\n  return (%0)\n")
		require.NoError(t, err, "byte %#x", c)
		v, _ := g.Nodes()[0].ConstantValue()
		assert.Equal(t, s, v, "byte %#x", c)
	}
}

// FormatFloat against what PyTorch 2.6 printed (extra.code.txt).
func TestFormatFloat(t *testing.T) {
	for v, want := range map[float64]string{0.1: "0.10000000000000001", 1e-05: "1.0000000000000001e-05", 1e20: "1e+20",
		123456789.25: "123456789.25", 2: "2.", 50: "50.", 0.5: "0.5"} {
		assert.Equal(t, want, FormatFloat(v))
		assert.Contains(t, readExtra(t), "value="+want+"]", "PyTorch printed %s", want)
	}
}

func readExtra(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, f := range []string{"testdata/extra.code.txt", "testdata/attributes.script.code.txt"} {
		data, err := readFile(f)
		require.NoError(t, err)
		b.WriteString(data)
	}
	return b.String()
}
