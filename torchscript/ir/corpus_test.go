package ir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sharedDir is ../shared seen from this package.
const sharedDir = "../../../shared/torchscript"

// graphSections returns the "# graph" sections of a code.txt file (what
// PyTorch printed for m.graph and the other methods' graphs).
func graphSections(text string) []string {
	var out []string
	lines := strings.SplitAfter(text, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimRight(lines[i], "\n") != "# graph" {
			continue
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(lines) && !strings.HasPrefix(lines[j], "# "); j++ {
			b.WriteString(lines[j])
		}
		out = append(out, strings.TrimRight(b.String(), "\n")+"\n")
		i = j - 1
	}
	return out
}

func corpusFiles(t *testing.T) []string {
	files, _ := filepath.Glob("testdata/*.code.txt")
	shared, _ := filepath.Glob(filepath.Join(sharedDir, "*.code.txt"))
	shared214, _ := filepath.Glob(filepath.Join(sharedDir, "torch-2.14", "*.code.txt"))
	if len(shared)+len(shared214) == 0 {
		t.Logf("skipping %s: absent (testdata's copies only)", sharedDir)
	}
	return append(append(files, shared...), shared214...)
}

// TestCorpusRoundTrip parses every graph PyTorch printed and prints it back
// byte for byte.
func TestCorpusRoundTrip(t *testing.T) {
	n := 0
	for _, f := range corpusFiles(t) {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for k, sec := range graphSections(string(data)) {
			g, err := Parse(sec)
			if !assert.NoError(t, err, "%s graph %d", f, k) {
				continue
			}
			assert.Equal(t, sec, g.String(), "%s graph %d", f, k)
			require.NoError(t, g.Lint())
			n++
		}
	}
	t.Logf("%d graphs printed back byte for byte", n)
	assert.Greater(t, n, 0)
}

// TestCorpusCanonicalPrint prints the parsed graphs with the attributes'
// parsed text dropped, so that the values print from what was parsed: the
// printer's own formatting of numbers and strings must give PyTorch's text.
func TestCorpusCanonicalPrint(t *testing.T) {
	for _, f := range corpusFiles(t) {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for k, sec := range graphSections(string(data)) {
			g, err := Parse(sec)
			if err != nil {
				continue // reported by TestCorpusRoundTrip
			}
			g.Walk(func(n *Node) {
				for i := range n.Attrs {
					if n.Attrs[i].Value != nil || n.Attrs[i].Kind == AttrIValue {
						n.Attrs[i].Text = ""
					}
				}
			})
			assert.Equal(t, sec, g.String(), "%s graph %d", f, k)
		}
	}
}

func readFile(name string) (string, error) {
	data, err := os.ReadFile(name)
	return string(data), err
}
