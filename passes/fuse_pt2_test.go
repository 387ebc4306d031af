package passes_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/cputime"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/pt2"
)

// programOps counts the call_function targets of ep's graph and of its
// subgraphs (branches and bodies of higher-order operators).
func programOps(ep *export.ExportedProgram) map[string]int {
	out := map[string]int{}
	var walk func(g *graph.Graph, subs []graph.Subgraph)
	walk = func(g *graph.Graph, subs []graph.Subgraph) {
		for n := range g.Nodes() {
			if n.Op().String() == "call_function" {
				out[n.Target().String()]++
			}
		}
		for _, s := range subs {
			walk(s.Graph, s.Subgraphs)
		}
	}
	walk(ep.Graph, ep.Subgraphs())
	return out
}

// fusedOps returns the gofx operators of counts.
func fusedOps(counts map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range counts {
		if strings.HasPrefix(k, "gofx.") {
			out[k] = v
		}
	}
	return out
}

// optimizeChecked runs passes.Default over the program at path and checks
// the result on the io.json cases beside it (PyTorch's outputs).
func optimizeChecked(t *testing.T, path, ioPath string) *export.ExportedProgram {
	t.Helper()
	ep, err := pt2.Load(path)
	require.NoError(t, err)
	opt, err := ep.Transform(passes.NewManager(passes.Default()...))
	require.NoError(t, err)
	io, err := pt2.ReadIO(ioPath)
	require.NoError(t, err)
	require.NotEmpty(t, io.Cases)
	for i := range io.Cases {
		r := pt2.CheckCase(opt, &io.Cases[i], pt2.Tolerance(opt))
		assert.NoError(t, r.Err, "%s: case %d", path, i)
	}
	return opt
}

// TestFuseEpiloguesSharedPrograms optimizes PyTorch's own programs of
// ../shared/pt2 (saved by 2.6, and by 2.14 in torch-2.14), both as
// exported (PyTorch 2.x's default IR: conv2d, batch_norm, linear, add_)
// and decomposed (.core: convolution, addmm), and checks what fuses
// against the graphs PyTorch printed (NAME.ep.txt): convnet has
// conv2d → batch_norm → relu twice (the batch norms fold, then each
// convolution fuses with its relu) and a final linear without activation;
// export_doc_conv has conv2d → add_(·, constant) → relu; mlp has
// linear → relu → linear; cond_params has linear → relu in cond's true
// branch and linear → sigmoid in its false one. Every relu of these
// programs is fused away, and the results give PyTorch's outputs.
func TestFuseEpiloguesSharedPrograms(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "pt2")
	for _, tc := range []struct {
		name       string
		want, core map[string]int
	}{
		{"convnet", map[string]int{"gofx.convolution_relu.default": 2}, map[string]int{"gofx.convolution_relu.default": 2}},
		{"export_doc_conv", map[string]int{"gofx.convolution_add_relu.default": 1}, map[string]int{"gofx.convolution_add_relu.default": 1}},
		{"mlp", map[string]int{"gofx.linear_relu.default": 1}, map[string]int{"gofx.addmm_relu.default": 1}},
		{"cond_params", map[string]int{"gofx.linear_relu.default": 1}, map[string]int{"gofx.addmm_relu.default": 1}},
	} {
		for _, dir := range []string{"", "torch-2.14"} {
			for _, suffix := range []string{"", ".core"} {
				name := filepath.Join(dir, tc.name+suffix)
				t.Run(name, func(t *testing.T) {
					path := filepath.Join(root, name+".pt2")
					if _, err := os.Stat(path); err != nil {
						t.Skipf("%s is absent (../shared/pt2 beside the repository)", path)
					}
					opt := optimizeChecked(t, path, filepath.Join(root, dir, tc.name+".io.json"))
					counts := programOps(opt)
					want := tc.want
					if suffix != "" {
						want = tc.core
					}
					assert.Equal(t, want, fusedOps(counts))
					assert.Zero(t, counts["aten.relu.default"]+counts["aten.relu_.default"], "relus left")
				})
			}
		}
	}
}

// benchDir is where bench/torch_models.py export writes the programs too
// large for testdata ($GOFX_BENCH_DIR, default /tmp/gofx-bench).
func benchDir() string {
	if d := os.Getenv("GOFX_BENCH_DIR"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "gofx-bench")
}

// TestFuseEpiloguesBenchPrograms optimizes the programs PyTorch 2.6
// exports of bench/torch_models.py's models (torchvision's architectures;
// bench/torch_models.py export NAME DIR, in benchDir; skipped when
// absent) and counts what fuses, from the architectures:
//
// mobilenet_v2: in 2.6's default IR each Conv2dNormActivation is
// conv2d → batch_norm → hardtanh(0, 6) (nn.ReLU6): the stem, the expand
// and depthwise convolutions of the 17 inverted residual blocks (the
// first, of expand ratio 1, has no expansion) and the last 1×1
// convolution make 1 + 16·2 + 1 + 1 = 35; the 17 projection convolutions
// end in a batch norm alone, and 10 blocks (stride 1, same width) add
// their input without activation. After the batch norms fold, the 35
// chains are gofx.convolution_hardtanh, 17 conv2d and the 10 adds stay.
//
// resnet18: the stem and the first convolution of each of the 8 basic
// blocks are conv2d → batch_norm → relu (9 gofx.convolution_relu); each
// block's second convolution is conv2d → batch_norm → add.Tensor(·,
// identity) → relu (8 gofx.convolution_add_relu); the 3 downsample
// convolutions (conv2d → batch_norm, the identity of their block) stay.
func TestFuseEpiloguesBenchPrograms(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fused  map[string]int
		others map[string]int // aten operators left, and none of these activations
	}{
		{"mobilenet_v2", map[string]int{"gofx.convolution_hardtanh.default": 35},
			map[string]int{"aten.conv2d.default": 17, "aten.add.Tensor": 10, "aten.hardtanh.default": 0, "aten.hardtanh_.default": 0, "aten.batch_norm.default": 0}},
		{"resnet18", map[string]int{"gofx.convolution_relu.default": 9, "gofx.convolution_add_relu.default": 8},
			map[string]int{"aten.conv2d.default": 3, "aten.add.Tensor": 0, "aten.relu.default": 0, "aten.relu_.default": 0, "aten.batch_norm.default": 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(benchDir(), tc.name+".pt2")
			if _, err := os.Stat(path); err != nil {
				t.Skipf("%s is absent: make it with ../shared/tools/torch2 bench/torch_models.py export %s %s", path, tc.name, benchDir())
			}
			opt := optimizeChecked(t, path, filepath.Join(benchDir(), tc.name+".io.json"))
			counts := programOps(opt)
			assert.Equal(t, tc.fused, fusedOps(counts))
			for op, n := range tc.others {
				assert.Equal(t, n, counts[op], op)
			}
		})
	}
}

// BenchmarkFuseEpiloguesMobileNetV2 times batch-1 inference of the
// mobilenet_v2 .pt2 (see TestFuseEpiloguesMobileNetV2) optimized by
// passes.Default ("fused") and by the same pipeline less FuseEpilogues
// ("unfused"), in one process, with the process's CPU time per run
// (cpu-ms/op), which a loaded machine disturbs less than wall time:
//
//	GOMAXPROCS=1 go test ./passes -run '^$' -bench FuseEpiloguesMobileNetV2 -benchtime 20x -count 5
func BenchmarkFuseEpiloguesMobileNetV2(b *testing.B) {
	dir := benchDir()
	path := filepath.Join(dir, "mobilenet_v2.pt2")
	if _, err := os.Stat(path); err != nil {
		b.Skipf("%s is absent: make it with ../shared/tools/torch2 bench/torch_models.py export mobilenet_v2 %s", path, dir)
	}
	ep, err := pt2.Load(path)
	require.NoError(b, err)
	io, err := pt2.ReadIO(filepath.Join(dir, "mobilenet_v2.io.json"))
	require.NoError(b, err)
	in := make([]any, len(io.Cases[0].Inputs))
	for i, v := range io.Cases[0].Inputs {
		in[i] = v
	}
	var unfused []passes.Pass
	for _, p := range passes.Default() {
		if p.Name != passes.FuseEpilogues.Name {
			unfused = append(unfused, p)
		}
	}
	progs := map[string]*export.ExportedProgram{}
	for name, pipeline := range map[string][]passes.Pass{"unfused": unfused, "fused": passes.Default()} {
		opt, err := ep.Transform(passes.NewManager(pipeline...))
		require.NoError(b, err)
		progs[name] = opt
	}
	// Both warm (buffer pool, packed weights) before either is timed, so
	// that the one timed first is not the one that pays for a cold process.
	for range 3 {
		for _, opt := range progs {
			_, err := opt.RunFlat(in...)
			require.NoError(b, err)
		}
	}
	for _, name := range []string{"unfused", "fused"} {
		opt := progs[name]
		b.Run(name, func(b *testing.B) {
			cpu0 := cputime.Process()
			for b.Loop() {
				if _, err := opt.RunFlat(in...); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cputime.Process()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}
