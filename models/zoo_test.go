package models_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gofx/gofx/fx"
	_ "github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sharedModels = "../../shared/models"

// files returns the paths of a model's state dict and io.json: the copies
// in testdata, or, for resnet18 (too large to copy), ../shared/models.
func files(t *testing.T, name string) (weights, io string) {
	t.Helper()
	dir := "../testdata/models"
	if name == "resnet18" {
		dir = sharedModels
		if _, err := os.Stat(filepath.Join(dir, "resnet18.state_dict.pt")); err != nil {
			t.Skipf("resnet18 reference files not found in %s (the shared model zoo): %v", dir, err)
		}
	}
	return filepath.Join(dir, name+".state_dict.pt"), filepath.Join(dir, name+".io.json")
}

// fxCounts reads the "node counts by opcode" section of a *.fx.txt record.
func fxCounts(t *testing.T, name string) map[string]int {
	f, err := os.Open(filepath.Join("../testdata/models", name+".fx.txt"))
	require.NoError(t, err)
	defer f.Close()
	counts := map[string]int{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## node counts by opcode") {
			in = true
			continue
		}
		if k, v, ok := strings.Cut(line, ": "); in && ok {
			n, err := strconv.Atoi(v)
			require.NoError(t, err, line)
			counts[k] = n
		}
	}
	require.NotEmpty(t, counts)
	return counts
}

// differences are the documented departures from torch.fx's node counts
// (see each Spec's Notes).
var differences = map[string]map[string]int{
	"export_doc_mutation": {"call_method": 1, "total": 11},
}

func TestNodeCounts(t *testing.T) {
	for _, name := range models.Names() {
		t.Run(name, func(t *testing.T) {
			m, err := models.New(name)
			require.NoError(t, err)
			gm, err := fx.SymbolicTrace(m)
			require.NoError(t, err)
			require.NoError(t, gm.Lint())
			got := map[string]int{"total": gm.Graph.Len()}
			for _, op := range []node.Opcode{node.Placeholder, node.GetAttr, node.CallFunction, node.CallMethod, node.CallModule, node.Output} {
				got[op.String()] = 0
			}
			for n := range gm.Graph.Nodes() {
				got[n.Op().String()]++
			}
			want := fxCounts(t, name)
			for k, v := range differences[name] {
				want[k] = v
			}
			assert.Equal(t, want, got, "%s\n%s", name, gm.Graph)
			spec, _ := models.Lookup(name)
			assert.Equal(t, differences[name] != nil, spec.Notes != "", "a difference must be explained in Spec.Notes")
		})
	}
}

func TestStateDictNames(t *testing.T) {
	for _, name := range models.Names() {
		t.Run(name, func(t *testing.T) {
			weights, _ := files(t, name)
			sd, err := torchio.Load(weights)
			require.NoError(t, err)
			m, err := models.New(name)
			require.NoError(t, err)
			assert.Equal(t, sd.Names(), nn.StateDict(m).Names())
		})
	}
}

func TestCheck(t *testing.T) {
	for _, name := range models.Names() {
		t.Run(name, func(t *testing.T) {
			weights, ioPath := files(t, name)
			sd, err := torchio.Load(weights)
			require.NoError(t, err)
			io, err := models.ReadIO(ioPath)
			require.NoError(t, err)
			spec, err := models.Lookup(name)
			require.NoError(t, err)
			if name == "resnet18" && testing.Short() {
				io.Cases = io.Cases[:1]
			}
			passed, failed, err := models.Check(spec, sd, io, models.Pipelines, func(r models.Result) {
				assert.True(t, r.Passed, "%s", r)
			})
			require.NoError(t, err)
			assert.Zero(t, failed)
			assert.Equal(t, len(models.Pipelines)*len(io.Cases), passed)
		})
	}
}

func TestCheckReportsFailures(t *testing.T) {
	weights, ioPath := files(t, "mlp")
	sd, err := torchio.Load(weights)
	require.NoError(t, err)
	io, err := models.ReadIO(ioPath)
	require.NoError(t, err)
	spec, _ := models.Lookup("mlp")
	// Wrong weights: every case fails with a diff above the tolerance.
	w, _ := sd.Get("2.bias")
	bad := torchio.NewStateDict()
	for n, x := range sd.All() {
		bad.Set(n, x)
	}
	vals := w.Float64s()
	vals[0] += 0.01
	bt, err := tensor.FromFloat64s(tensor.Float32, vals, w.Shape()...)
	require.NoError(t, err)
	bad.Set("2.bias", bt)
	var lines []string
	passed, failed, err := models.Check(spec, bad, io, []string{"eager"}, func(r models.Result) { lines = append(lines, r.String()) })
	require.NoError(t, err)
	assert.Equal(t, 0, passed)
	assert.Equal(t, len(io.Cases), failed)
	assert.Contains(t, lines[0], "FAIL case 0 (example) via eager: max abs diff 0.01")

	_, _, err = models.Check(spec, sd, io, []string{"compiled"}, nil)
	assert.ErrorContains(t, err, `unknown pipeline "compiled"`)

	// Mis-shaped state: the error lists the key.
	bad.Set("0.weight", bt)
	_, failed, _ = models.Check(spec, bad, io, []string{"eager"}, func(r models.Result) {
		assert.ErrorContains(t, r.Err, `0.weight: expected float32[32, 16], got float32[10]`)
	})
	assert.Equal(t, len(io.Cases), failed)
}

// TestTracedErrorsNameNodeAndModelCode: a traced model run on a bad input
// fails with an error naming the node, its text, and the Go line of the
// model code that created it.
func TestTracedErrorsNameNodeAndModelCode(t *testing.T) {
	m, err := models.New("attention")
	require.NoError(t, err)
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	x, err := tensor.NewGenerator(3).Randn(tensor.Float32, 2, 5, 30) // 30 features, not 32
	require.NoError(t, err)
	_, err = gm.Run(nn.Tensor(x))
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, "node %ln1 failed")
	assert.Contains(t, msg, "call_module[target=ln1]")
	assert.Contains(t, msg, "models/attention.go:")
	assert.Contains(t, msg, "aten::layer_norm")

	_, err = nn.Run(m, nn.Tensor(x))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "models/attention.go:")
}

// TestRepr: the module tree prints as PyTorch prints it (repr(model) of
// convnet in PyTorch 1.13).
func TestRepr(t *testing.T) {
	m, err := models.New("convnet")
	require.NoError(t, err)
	assert.Equal(t, `ConvNet(
  (conv1): Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))
  (bn1): BatchNorm2d(8, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)
  (conv2): Conv2d(8, 16, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1))
  (bn2): BatchNorm2d(16, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)
  (pool): MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
  (gap): AdaptiveAvgPool2d(output_size=1)
  (fc): Linear(in_features=16, out_features=10, bias=True)
)`, nn.Repr(m))
}
