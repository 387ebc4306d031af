package rewrite_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/passtest"
	"github.com/gofx/gofx/rewrite"
)

const reluRule = `-- pattern r --
%x = placeholder "x"()
%relu = call_function aten.relu.default(%x)
%relu_1 = call_function aten.relu.default(%relu)
%output = output "output"(%relu_1)
-- replacement r --
%x = placeholder "x"()
%relu = call_function aten.relu.default(%x)
%output = output "output"(%relu)
`

// TestParseRulesErrors: every malformed rule file is an error naming the
// rule and the file.
func TestParseRulesErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"bad file name", "-- patterns --\n", `file "patterns": want "rule NAME"`},
		{"unknown kind", "-- shape r --\n", `unknown kind "shape"`},
		{"twice", reluRule + "-- pattern r --\n", `file "pattern r" appears twice`},
		{"no pattern", "-- replacement r --\n%x = placeholder \"x\"()\n%output = output \"output\"(%x)\n", `rule r: no file "pattern r"`},
		{"no replacement", "-- rule r --\nbenefit 1\n-- pattern r --\n", `rule r: no file "replacement r"`},
		{"bad benefit", "-- rule r --\nbenefit x\n" + reluRule, `file "rule r", line 1: benefit "x" is not an integer`},
		{"unknown setting", "-- rule r --\n\n# ok\ncolor red\n" + reluRule, `file "rule r", line 3: unknown setting "color"`},
		{"bad literal", "-- rule r --\nliteral relu\n" + reluRule, `literal "relu": want NODE.ARG`},
		{"flag with value", "-- rule r --\nany-literals yes\n" + reluRule, `any-literals takes no value`},
		{"no such literal", "-- rule r --\nliteral relu.other\n" + reluRule, `Literal("relu", "other")`},
		{"pattern syntax", "-- pattern r --\n%x = = \n-- replacement r --\n", `file "pattern r": line 1`},
		{"pattern computes nothing", "-- pattern r --\n%x = placeholder \"x\"()\n%output = output \"output\"(%x)\n-- replacement r --\n", `file "pattern r"`},
		{"replacement arity", reluRule[:len(reluRule)-len("%output = output \"output\"(%relu)\n")] + "%y = placeholder \"y\"()\n%output = output \"output\"(%relu)\n", `2 placeholders, want 1`},
		{"replacement outputs", reluRule[:len(reluRule)-len("(%relu)\n")] + "((%relu, %x))\n", `returns 2 values, the pattern 1`},
		{"replacement lint", reluRule[:len(reluRule)-len("%output = output \"output\"(%relu)\n")], `file "replacement r"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := rewrite.ParseRules([]byte(tc.text))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestFormatRules: the rules of every testdata file print back to text
// that parses to the same rules.
func TestFormatRules(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, path := range paths {
		c, err := passtest.Read(path)
		require.NoError(t, err)
		rules, err := rewrite.ParseRules(c.Rest())
		require.NoError(t, err, path)
		text, err := rewrite.FormatRules("comment\n", rules...)
		require.NoError(t, err, path)
		again, err := rewrite.ParseRules(text)
		require.NoError(t, err, "%s:\n%s", path, text)
		require.Len(t, again, len(rules))
		for i := range rules {
			assert.Equal(t, rules[i].Name, again[i].Name)
			assert.Equal(t, rules[i].Benefit, again[i].Benefit)
			assert.Equal(t, rules[i].Doc, again[i].Doc)
			assert.NoError(t, graph.Equal(rules[i].Replacement.(*graph.Graph), again[i].Replacement.(*graph.Graph)))
		}
	}
	_, err = rewrite.FormatRules("", rewrite.Rule{Name: "r", Pattern: 1, Replacement: 2})
	assert.ErrorContains(t, err, "rule r: pattern")
	_, err = rewrite.FormatRules("", rewrite.Rule{Name: "r", Edit: func(*rewrite.Match) (bool, error) { return false, nil }})
	assert.ErrorContains(t, err, "has Go code")
	_, err = rewrite.FormatRules("", rewrite.Rule{Name: "a b"})
	assert.ErrorContains(t, err, "without spaces")
}

// FuzzParseRules: ParseRules never panics, and what it accepts compiles
// into a rule set and prints back to text it accepts again.
func FuzzParseRules(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		c, err := passtest.Read(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(c.Rest())
		f.Add(data)
	}
	f.Add([]byte("-- rule r --\nbenefit 3\nliteral relu.x\n" + reluRule))
	f.Fuzz(func(t *testing.T, data []byte) {
		rules, err := rewrite.ParseRules(data)
		if err != nil {
			return
		}
		if _, err := rewrite.NewRuleSet("fuzz", rules...); err != nil {
			t.Fatalf("ParseRules accepted rules that do not compile: %v", err)
		}
		text, err := rewrite.FormatRules("", rules...)
		if err != nil {
			t.Fatalf("FormatRules: %v", err)
		}
		again, err := rewrite.ParseRules(text)
		if err != nil {
			t.Fatalf("printed rules do not parse back: %v\n%s", err, text)
		}
		if len(again) != len(rules) {
			t.Fatalf("%d rules printed, %d parsed back", len(rules), len(again))
		}
	})
}
