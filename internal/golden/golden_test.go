package golden_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gofx/gofx/internal/golden"
)

// fakeT records failures instead of failing the enclosing test.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Fatalf(string, ...any) { f.failed = true }

func TestCheck(t *testing.T) {
	if golden.Updating() {
		t.Skip("-update given: nothing to compare")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(path, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := &fakeT{TB: t}
	golden.Check(ok, path, "one\n")
	if ok.failed {
		t.Error("equal text reported as different")
	}
	bad := &fakeT{TB: t}
	golden.Check(bad, path, "two\n")
	if !bad.failed {
		t.Error("different text not reported")
	}
	missing := &fakeT{TB: t}
	golden.Check(missing, filepath.Join(dir, "absent.txt"), "x")
	if !missing.failed {
		t.Error("a missing golden file not reported")
	}
}
