package pt2_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/ops"
)

// registry2x reads ../shared/aten/registry_schemas_VERSION.txt (PyTorch's
// torch._C._jit_get_all_schemas) into schemas by full name.
func registry2x(t *testing.T, version string) map[string]*ops.Schema {
	path := filepath.Join("../../shared/aten", "registry_schemas_"+version+".txt")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("%s is absent: %v", path, err)
	}
	defer f.Close()
	out := map[string]*ops.Schema{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "aten::") {
			continue
		}
		s, err := ops.ParseSchema(line)
		if err != nil {
			continue // prim's and varargs forms gofx does not parse
		}
		name := s.Namespace + "::" + s.Name
		if s.Overload != "" {
			name += "." + s.Overload
		}
		out[name] = s
	}
	require.NoError(t, sc.Err())
	return out
}

// TestExportedOpsIn2x checks that every core ATen operator, which gofx's
// export and decompositions write, resolves in PyTorch 2.6 and 2.14 and
// binds there by the argument names Save writes: every argument of the
// 2.x schema without a default is one of gofx's (1.13's) arguments, and
// every one of gofx's is in the 2.x schema (torch.export.load takes
// arguments by name and drops names it does not know).
func TestExportedOpsIn2x(t *testing.T) {
	for _, v := range []string{"2.6", "2.14"} {
		t.Run(v, func(t *testing.T) {
			reg := registry2x(t, v)
			n := 0
			for _, op := range ops.Global().All() {
				if !op.Has(ops.Core) || op.Schema().Namespace != "aten" {
					continue
				}
				n++
				full := strings.TrimSuffix(op.String(), ".default")
				full = "aten::" + strings.TrimPrefix(full, "aten.")
				theirs, ok := reg[full]
				if !assert.True(t, ok, "%s: no such operator in PyTorch %s", full, v) {
					continue
				}
				schemas := op.Schemas()
				ours := schemas[len(schemas)-1] // the oldest: 1.13's, which gofx's graphs bind to
				has := func(s *ops.Schema, name string) bool {
					for _, a := range s.Args {
						if a.Name == name {
							return true
						}
					}
					return false
				}
				for _, a := range theirs.Args {
					if a.Default == nil {
						assert.True(t, has(ours, a.Name), "%s: PyTorch %s requires %s, which gofx's schema %s lacks", full, v, a.Name, ours)
					}
				}
				for _, a := range ours.Args {
					assert.True(t, has(theirs, a.Name), "%s: gofx's argument %s is not in PyTorch %s's schema %s", full, a.Name, v, theirs)
				}
			}
			t.Logf("%d core operators checked against PyTorch %s", n, v)
		})
	}
}
