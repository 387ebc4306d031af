package syntax

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// shared is ../shared seen from this package (torchscript/syntax).
const shared = "../../../shared"

// sourceFile is one corpus file: a name for messages and its text.
type sourceFile struct {
	name string
	src  []byte
}

// archiveCode returns the code/**.py files of the TorchScript archive at
// path, in name order.
func archiveCode(t *testing.T, path string) []sourceFile {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer zr.Close()
	var out []sourceFile
	for _, f := range zr.File {
		parts := strings.Split(f.Name, "/")
		if len(parts) < 3 || parts[1] != "code" || !strings.HasSuffix(f.Name, ".py") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatalf("%s: %s: %v", path, f.Name, err)
		}
		b, err := io.ReadAll(io.LimitReader(rc, 16<<20))
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %s: %v", path, f.Name, err)
		}
		out = append(out, sourceFile{name: filepath.Base(path) + ":" + f.Name, src: b})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// codeSection returns the `# code` section of a code.txt file that PyTorch
// wrote (the text up to the blank line before `# graph`).
func codeSection(t *testing.T, name string, txt []byte) []byte {
	t.Helper()
	s := string(txt)
	i := strings.Index(s, "# code\n")
	j := strings.Index(s, "\n\n# graph\n")
	if i < 0 || j < i {
		t.Fatalf("%s: no # code section before # graph", name)
	}
	return []byte(s[i+len("# code\n") : j+1])
}

// corpus returns every source file of the corpus: testdata/*.py, the
// archives of ../shared (skipped, naming them, when absent) and the # code
// sections of ../shared/torchscript's code.txt files.
func corpus(t *testing.T) []sourceFile {
	t.Helper()
	var out []sourceFile
	var local []string
	err := filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") && !strings.HasPrefix(filepath.Base(p), "make_") {
			local = append(local, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range local {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sourceFile{name: p, src: b})
	}
	var archives []string
	for _, g := range []string{"torchscript/*.pt", "torchscript/torch-2.14/*.pt", "models/*.traced.pt"} {
		m, _ := filepath.Glob(filepath.Join(shared, g))
		if len(m) == 0 {
			t.Logf("no %s: skipping those archives", filepath.Join(shared, g))
		}
		archives = append(archives, m...)
	}
	for _, a := range archives {
		out = append(out, archiveCode(t, a)...)
	}
	var texts []string
	for _, g := range []string{"torchscript/*.code.txt", "torchscript/torch-2.14/*.code.txt"} {
		m, _ := filepath.Glob(filepath.Join(shared, g))
		if len(m) == 0 {
			t.Logf("no %s: skipping those code sections", filepath.Join(shared, g))
		}
		texts = append(texts, m...)
	}
	for _, p := range texts {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sourceFile{name: p + ":# code", src: codeSection(t, p, b)})
	}
	return out
}

// TestCorpusRoundTrip parses every corpus file and prints it back: the
// print must be the file, byte for byte.
func TestCorpusRoundTrip(t *testing.T) {
	files := corpus(t)
	if len(files) == 0 {
		t.Fatal("empty corpus")
	}
	for _, f := range files {
		ast, err := Parse(f.name, f.src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		got, err := Format(ast)
		if err != nil {
			t.Errorf("%s: %v", f.name, err)
			continue
		}
		if !bytes.Equal(got, f.src) {
			t.Errorf("%s: printed source differs\n%s", f.name, firstDiff(string(f.src), string(got)))
		}
	}
	t.Logf("%d files", len(files))
}

// firstDiff shows the first differing line of want and got.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\nwant: " + a + "\ngot:  " + b
		}
	}
	return "(no line differs)"
}

// BenchmarkParse parses the code of testdata/torch-2.6/resnet18 (34 files).
func BenchmarkParse(b *testing.B) {
	var files [][]byte
	var size int64
	err := filepath.WalkDir("testdata/torch-2.6/resnet18", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			src, err := os.ReadFile(p)
			files = append(files, src)
			size += int64(len(src))
			return err
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range files {
			if _, err := Parse("bench.py", src); err != nil {
				b.Fatal(err)
			}
		}
	}
}
