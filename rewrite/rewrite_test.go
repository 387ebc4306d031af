package rewrite_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/passtest"
	"github.com/gofx/gofx/rewrite"
)

// TestTextRules runs the rules of each testdata/*.txtar file (its rule,
// pattern and replacement files) over its input graph and compares the
// result with its output graph.
func TestTextRules(t *testing.T) {
	passtest.Run(t, filepath.Join("testdata", "*.txtar"), func(t testing.TB, c *passtest.Case) passtest.Pass {
		rules, err := rewrite.ParseRules(c.Rest())
		require.NoError(t, err)
		set, err := rewrite.NewRuleSet(c.Name, rules...)
		require.NoError(t, err)
		return set.Func()
	})
}
