package models_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/torchio"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fxNode is one node of PyTorch's printed torch.fx graph (str(gm.graph)).
type fxNode struct {
	users      string
	op, target string
	args       []string // the %names among the arguments
}

var fxLine = regexp.MustCompile(`^\s+%(\w+) : .*\[#users=(\d+)\] = (\w+)\[target=([^\]]+)\]\(args = \((.*)\), kwargs`)

// readFXGraph reads the str(gm.graph) section of a *.fx.txt record.
func readFXGraph(t *testing.T, path string) map[string]fxNode {
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("%s not found (the shared model zoo): %v", path, err)
	}
	defer f.Close()
	out := map[string]fxNode{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := fxLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n := fxNode{users: m[2], op: m[3], target: m[4]}
		for _, a := range regexp.MustCompile(`%(\w+)`).FindAllStringSubmatch(m[5], -1) {
			n.args = append(n.args, a[1])
		}
		out[m[1]] = n
	}
	require.NotEmpty(t, out)
	return out
}

// TestResNet18Fusions: the optimized resnet18 holds one fused operator for
// every convolution (with its batch norm folded) that only a ReLU reads,
// and one convolution_add_relu for every residual add of a batch-normed
// convolution that only a ReLU reads, counted in PyTorch's own traced
// graph (../shared/models/resnet18.fx.txt, module kinds from the state
// dict: a 4-D weight is a convolution, a running_mean a batch norm); and
// the fused program still gives PyTorch's outputs.
func TestResNet18Fusions(t *testing.T) {
	g := readFXGraph(t, filepath.Join(sharedModels, "resnet18.fx.txt"))
	weights, ioPath := files(t, "resnet18")
	sd, err := torchio.Load(weights)
	require.NoError(t, err)
	kind := func(name string) string {
		n, ok := g[name]
		if !ok || n.op != "call_module" || n.users != "1" {
			return ""
		}
		if w, ok := sd.Get(n.target + ".weight"); ok && w.Dim() == 4 {
			return "conv"
		}
		if _, ok := sd.Get(n.target + ".running_mean"); ok {
			return "bn"
		}
		return ""
	}
	convBN := func(name string) bool {
		return kind(name) == "bn" && len(g[name].args) == 1 && kind(g[name].args[0]) == "conv"
	}
	want := map[string]int{}
	for _, n := range g {
		if n.op != "call_module" || !strings.HasSuffix(strings.Split(n.target, ".")[len(strings.Split(n.target, "."))-1], "relu") || len(n.args) != 1 {
			continue
		}
		a := g[n.args[0]]
		switch {
		case convBN(n.args[0]):
			want["gofx.convolution_relu.default"]++
		case a.op == "call_function" && a.target == "operator.add" && a.users == "1" && len(a.args) == 2 && (convBN(a.args[0]) || convBN(a.args[1])):
			want["gofx.convolution_add_relu.default"]++
		}
	}
	require.Equal(t, 17, want["gofx.convolution_relu.default"]+want["gofx.convolution_add_relu.default"], "resnet18: 17 convolutions followed by a ReLU")

	spec, err := models.Lookup("resnet18")
	require.NoError(t, err)
	io, err := models.ReadIO(ioPath)
	require.NoError(t, err)
	m, err := models.Fresh(spec, sd)
	require.NoError(t, err)
	ep, err := models.Export(spec, m, io.Cases[0].Inputs)
	require.NoError(t, err)
	opt, err := ep.Transform(passes.NewManager(passes.Default()...))
	require.NoError(t, err)
	got := map[string]int{}
	for n := range opt.Graph.Nodes() {
		if s := n.Target().String(); strings.HasPrefix(s, "gofx.") {
			got[s]++
		}
	}
	assert.Equal(t, want, got)
}
