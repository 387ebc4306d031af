package ir

import (
	"os"
	"testing"
)

func benchGraph(b *testing.B) string {
	data, err := os.ReadFile("testdata/extra.code.txt")
	if err != nil {
		b.Fatal(err)
	}
	return graphSections(string(data))[0]
}

// BenchmarkParse parses a scripted function's graph of about 100 nodes
// (gen_ir.py's consts), operators resolved.
func BenchmarkParse(b *testing.B) {
	text := benchGraph(b)
	if _, err := Parse(text); err != nil { // loads the operator registry once
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkString prints the same graph.
func BenchmarkString(b *testing.B) {
	g, err := Parse(benchGraph(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = g.String()
	}
}
