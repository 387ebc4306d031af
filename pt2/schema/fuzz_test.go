package schema

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// FuzzDecode feeds Decode arbitrary bytes: it must return a program or an
// error, never panic; a program it accepts must encode, and decode again to
// the same program.
func FuzzDecode(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.json")
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"schema_version": {"major": 8, "minor": 2}, "range_constraints": {"s0": {"min_val": 2, "max_val": null}}}`))
	f.Add([]byte(`{"schema_version": {"major": 8, "minor": 20}, "graph_module": {"graph": {"inputs": [{"as_float": -Infinity}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Decode(data)
		if err != nil {
			return
		}
		out, err := Encode(p)
		if err != nil {
			// Legacy files may carry fields 8.2 lacks; the current style
			// writes everything.
			p.SchemaVersion.Minor = SchemaVersionMinor
			if out, err = Encode(p); err != nil {
				// Only an empty union or a bad enum can fail; Decode rejects both.
				t.Fatalf("Encode of a decoded program: %v", err)
			}
		}
		q, err := Decode(out)
		if err != nil {
			t.Fatalf("Decode of Encode's output: %v\n%s", err, out)
		}
		if diff := cmp.Diff(p, q, cmpopts.EquateEmpty(), cmpopts.EquateNaNs()); diff != "" {
			t.Fatalf("round trip differs:\n%s", diff)
		}
	})
}
