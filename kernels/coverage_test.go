package kernels_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/ops/aten"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestCoreCoverage lists, in testdata/core_coverage.golden, every core ATen
// operator with whether it has a kernel and a meta function, so that the
// operators still missing are listed (never hidden) and a lost kernel shows
// up as a diff. Run with -update after adding kernels.
func TestCoreCoverage(t *testing.T) {
	var b strings.Builder
	var have, total int
	for _, o := range aten.All() {
		if !o.Has(ops.Core) {
			continue
		}
		total++
		k, m := "-", "-"
		if o.HasKernel() {
			k = "kernel"
			have++
		}
		if o.HasMeta() {
			m = "meta"
		}
		b.WriteString(o.Schema().QualifiedName() + " " + k + " " + m + "\n")
	}
	got := b.String()
	t.Logf("%d of %d core operators have a kernel", have, total)
	const golden = "testdata/core_coverage.golden"
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("core coverage changed (-golden +now); run go test ./kernels -run TestCoreCoverage -update:\n%s", d)
	}
}
