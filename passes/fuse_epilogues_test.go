package passes_test

import (
	"path/filepath"
	"testing"

	"github.com/gofx/gofx/internal/passtest"
	"github.com/gofx/gofx/passes"
)

// TestFuseEpiloguesCases runs FuseEpilogues over the graph-text cases of
// testdata/epilogues (internal/passtest: input graph, output graph).
func TestFuseEpiloguesCases(t *testing.T) {
	passtest.Run(t, filepath.Join("testdata", "epilogues", "*.txtar"), func(testing.TB, *passtest.Case) passtest.Pass {
		return passes.FuseEpilogues.Apply
	})
}
