package passtest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/internal/golden"
	"github.com/gofx/gofx/internal/passtest"
	"github.com/gofx/gofx/node"
)

// fakeT records failures; Fatalf stops the check by panicking.
type fakeT struct {
	testing.TB
	errs []string
}

type fatal struct{}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
	panic(fatal{})
}

func check(t *testing.T, path string, pass passtest.Pass) []string {
	f := &fakeT{TB: t}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(fatal); !ok {
					panic(r)
				}
			}
		}()
		passtest.Check(f, path, func(testing.TB, *passtest.Case) passtest.Pass { return pass })
	}()
	return f.errs
}

// dropNeg erases every aten.neg, using its input instead.
func dropNeg(gm *fx.GraphModule) (bool, error) {
	changed := false
	for n := range gm.Graph.Nodes() {
		if n.Op() != node.CallFunction || n.Target().String() != "aten.neg.default" {
			continue
		}
		if _, err := n.ReplaceAllUsesWith(n.Arg(0).(*node.Node), nil, false); err != nil {
			return changed, err
		}
		if err := gm.Graph.EraseNode(n); err != nil {
			return changed, err
		}
		changed = true
	}
	return changed, nil
}

func noop(*fx.GraphModule) (bool, error) { return false, nil }

func write(t *testing.T, text string) string {
	path := filepath.Join(t.TempDir(), "case.txtar")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const input = `-- rules --
kept for the test
-- input --
%x = placeholder "x"()
%neg = call_function aten.neg.default(%x)
%output = output "output"(%neg)
`

const output = `-- output --
%x = placeholder "x"()
%output = output "output"(%x)
`

// TestCheck: Check accepts a pass that produces the output (and one that
// changes nothing where there is no output), and reports a wrong result,
// a wrong change report, a failing pass and a case without input.
func TestCheck(t *testing.T) {
	if golden.Updating() {
		t.Skip("-update given: the cases here would be rewritten")
	}
	for _, tc := range []struct {
		name, text string
		pass       passtest.Pass
		want       string // a failure message; "" for none
	}{
		{"output", input + output, dropNeg, ""},
		{"no output, no change", input, noop, ""},
		{"wrong result", input + output, noop, "the result differs from the expected graph"},
		{"change without output", input, dropNeg, "the result differs"},
		{"no change reported", input + output, func(gm *fx.GraphModule) (bool, error) { _, err := dropNeg(gm); return false, err }, "the pass reported no change"},
		{"pass fails", input, func(*fx.GraphModule) (bool, error) { return false, fmt.Errorf("boom") }, "the pass failed: boom"},
		{"no input", "-- output --\n", noop, "no input section"},
		{"bad input", "-- input --\n%x = = \n", noop, "input: line 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := check(t, write(t, tc.text), tc.pass)
			if tc.want == "" {
				if len(errs) > 0 {
					t.Errorf("unexpected failures: %q", errs)
				}
				return
			}
			if !strings.Contains(strings.Join(errs, "\n"), tc.want) {
				t.Errorf("failures %q do not say %q", errs, tc.want)
			}
		})
	}
}

func TestRead(t *testing.T) {
	c, err := passtest.Read(write(t, "comment\n"+input+output))
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "case" || !c.HasOutput || !strings.Contains(c.Input, "aten.neg") {
		t.Errorf("Read = %+v", c)
	}
	if got := string(c.Rest()); got != "comment\n-- rules --\nkept for the test\n" {
		t.Errorf("Rest() = %q", got)
	}
	if d, ok := c.File("rules"); !ok || string(d) != "kept for the test\n" {
		t.Errorf("File(rules) = %q, %v", d, ok)
	}
	if _, err := passtest.Read(filepath.Join(t.TempDir(), "absent.txtar")); err == nil {
		t.Error("Read of a missing file succeeded")
	}
}
