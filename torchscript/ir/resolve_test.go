package ir

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pytorchSchemas reads testdata/schemas.txt (gen_ir.py): per section (a
// graph of extra.code.txt, or an archive of ../shared/torchscript), each
// node's kind and the overload PyTorch resolved it to ("aten::add.Tensor",
// "" for none).
func pytorchSchemas(t *testing.T) (order []string, secs map[string][][2]string) {
	f, err := os.Open("testdata/schemas.txt")
	require.NoError(t, err)
	defer f.Close()
	secs = map[string][][2]string{}
	cur := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "# "); ok {
			if strings.HasPrefix(name, "made by") {
				continue
			}
			cur = name
			order = append(order, cur)
			continue
		}
		kind, schema, _ := strings.Cut(line, "\t")
		name := ""
		if schema != "(no schema)" {
			name, _, _ = strings.Cut(schema, "(")
		}
		secs[cur] = append(secs[cur], [2]string{kind, name})
	}
	return order, secs
}

// TestResolveOpMatchesPyTorch checks the overload ResolveOp picks for each
// node of the parsed graphs against the schema PyTorch's node.schema()
// gave; a node ResolveOp leaves undecided must be one with a schema it
// could not tell apart, and those stay few.
func TestResolveOpMatchesPyTorch(t *testing.T) {
	order, secs := pytorchSchemas(t)
	extra, err := os.ReadFile("testdata/extra.code.txt")
	require.NoError(t, err)
	graphs := map[string]string{}
	for _, part := range strings.Split(string(extra), "# name ")[1:] {
		name, _, _ := strings.Cut(part, "\n")
		graphs[name] = graphSections(part)[0]
	}
	resolved, undecided, checked := 0, 0, 0
	for _, sec := range order {
		text, ok := graphs[sec]
		if arch, isArch := strings.CutPrefix(sec, "archive "); isArch {
			data, err := os.ReadFile(filepath.Join(sharedDir, strings.TrimSuffix(arch, ".pt")+".code.txt"))
			if err != nil {
				t.Logf("skipping %s: %v", arch, err)
				continue
			}
			text, ok = graphSections(string(data))[0], true
		}
		require.True(t, ok, sec)
		g, err := Parse(text)
		require.NoError(t, err, sec)
		var nodes []*Node
		g.Walk(func(n *Node) { nodes = append(nodes, n) })
		want := secs[sec]
		require.Len(t, nodes, len(want), sec)
		for i, n := range nodes {
			require.Equal(t, want[i][0], n.Kind, "%s node %d", sec, i)
			checked++
			switch {
			case n.Op == nil && want[i][1] != "":
				undecided++
				t.Logf("%s: %s left undecided (PyTorch: %s)", sec, n, want[i][1])
			case n.Op != nil:
				resolved++
				assert.Equal(t, want[i][1], n.Op.Schema().QualifiedName(), "%s: %s", sec, strings.TrimSpace(n.String()))
			}
		}
	}
	t.Logf("%d nodes: %d resolved, %d undecided", checked, resolved, undecided)
	assert.LessOrEqual(t, undecided*10, resolved, "too many undecided")
}
