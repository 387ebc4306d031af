package ir

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseGraph feeds the parser graph texts grown from testdata's
// graphs: it must never panic, and what it accepts must print as text that
// parses back to the same print, and pass Lint.
func FuzzParseGraph(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.code.txt")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, sec := range graphSections(string(data)) {
			f.Add(sec)
		}
	}
	f.Add("graph():\n  return ()\n")
	f.Fuzz(func(t *testing.T, text string) {
		g, err := Parse(text)
		if err != nil {
			return
		}
		if err := g.Lint(); err != nil {
			t.Fatalf("Parse accepted a graph that fails Lint: %v", err)
		}
		out := g.String()
		g2, err := Parse(out)
		if err != nil {
			t.Fatalf("the print of a parsed graph does not parse: %v\n%s", err, out)
		}
		if out2 := g2.String(); out2 != out {
			t.Fatalf("print, parse, print differs:\n%s\n---\n%s", out, out2)
		}
	})
}
