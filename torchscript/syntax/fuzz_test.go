package syntax

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seeds adds every source file under testdata and a few broken inputs.
func seeds(f *testing.F) {
	err := filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil {
			f.Add(b)
		}
		return err
	})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		"", "\n", "x", "  x = 1\n", "def f(\n", "class A:\n  x : int\n y : int\n",
		"x = \"\\q\"\n", "x = '''a", "a if b else c if d else e\n", "x = [j for j in y]\n",
		"x = 1.5-2.j\n", "a, = b\n", "x = (1,)\n", "f(a, )\n", "x[..., None]\n",
		"if a:\n  pass\nelif b:\n  pass\nelse:\n  pass\n", "x = -not y\n", "\\\nx\n",
	} {
		f.Add([]byte(s))
	}
}

// FuzzLex: the lexer never panics, and what it accepts is a well-formed
// token stream (balanced indents, increasing positions, one final EOF).
func FuzzLex(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		toks, _, err := tokenize("fuzz.py", src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T is not a *syntax.Error: %v", err, err)
			}
			return
		}
		if len(toks) == 0 || toks[len(toks)-1].kind != tEOF {
			t.Fatalf("token stream does not end in EOF")
		}
		depth := 0
		var last Pos
		for i, tk := range toks {
			switch tk.kind {
			case tIndent:
				depth++
			case tDedent:
				depth--
				if depth < 0 {
					t.Fatalf("token %d: dedent below the first line's level", i)
				}
			case tEOF:
				if i != len(toks)-1 {
					t.Fatalf("token %d: EOF before the end", i)
				}
			}
			if tk.pos.Line < last.Line || (tk.pos.Line == last.Line && tk.pos.Col < last.Col) {
				t.Fatalf("token %d (%v) at %v before the previous token's %v", i, tk, tk.pos, last)
			}
			last = tk.pos
		}
	})
}

// FuzzParse: the parser never panics; what it accepts prints, the print
// parses, and printing that gives the same text (printing is stable).
func FuzzParse(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz.py", src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T is not a *syntax.Error: %v", err, err)
			}
			return
		}
		out, err := Format(file)
		if err != nil {
			t.Fatalf("parsed, but does not print: %v", err)
		}
		file2, err := Parse("printed.py", out)
		if err != nil {
			t.Fatalf("the print does not parse: %v\n%s", err, out)
		}
		out2, err := Format(file2)
		if err != nil {
			t.Fatalf("the reparsed print does not print: %v", err)
		}
		if !bytes.Equal(out, out2) {
			t.Fatalf("printing is not stable:\n%s\n---\n%s", out, out2)
		}
	})
}
