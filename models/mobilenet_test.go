package models_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/pt2"
)

// benchDir is where bench/torch_models.py export writes the programs too
// large for testdata ($GOFX_BENCH_DIR, default /tmp/gofx-bench).
func benchDir() string {
	if d := os.Getenv("GOFX_BENCH_DIR"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "gofx-bench")
}

// loadBenchProgram loads NAME.pt2 and NAME.io.json of benchDir, skipping
// when they are absent.
func loadBenchProgram(tb testing.TB, name string) (*export.ExportedProgram, *pt2.IO) {
	tb.Helper()
	path := filepath.Join(benchDir(), name+".pt2")
	ioPath := filepath.Join(benchDir(), name+".io.json")
	for _, p := range []string{path, ioPath} {
		if _, err := os.Stat(p); err != nil {
			tb.Skipf("%s is absent: make it with ../shared/tools/torch2 bench/torch_models.py export %s %s", p, name, benchDir())
		}
	}
	ep, err := pt2.Load(path)
	require.NoError(tb, err)
	io, err := pt2.ReadIO(ioPath)
	require.NoError(tb, err)
	require.NotEmpty(tb, io.Cases)
	return ep, io
}

// TestMobileNetV2PT2: torchvision's mobilenet_v2 (random weights) exported
// by PyTorch 2.6 gives PyTorch's output, as loaded and optimized.
func TestMobileNetV2PT2(t *testing.T) {
	ep, io := loadBenchProgram(t, "mobilenet_v2")
	opt, err := ep.Transform(passes.NewManager(passes.Default()...))
	require.NoError(t, err)
	for name, p := range map[string]*export.ExportedProgram{"loaded": ep, "optimized": opt} {
		c := io.Cases[0]
		in := make([]any, len(c.Inputs))
		for i, v := range c.Inputs {
			in[i] = v
		}
		got, err := p.RunFlat(in...)
		require.NoError(t, err, name)
		diff, err := models.Compare(got[0], c.Outputs)
		require.NoError(t, err, name)
		t.Logf("%s: max abs difference %.3g", name, diff)
		require.Less(t, diff, 1e-5, name) // outputs up to 0.14
	}
}

// BenchmarkMobileNetV2 times batch-1 inference of the mobilenet_v2 .pt2
// (see TestMobileNetV2PT2), as loaded and optimized; it skips when the
// file is absent.
//
//	../shared/tools/torch2 bench/torch_models.py export mobilenet_v2 /tmp/gofx-bench
//	go test ./models -run '^$' -bench MobileNetV2 -benchtime 20x -benchmem
func BenchmarkMobileNetV2(b *testing.B) {
	ep, io := loadBenchProgram(b, "mobilenet_v2")
	opt, err := ep.Transform(passes.NewManager(passes.Default()...))
	require.NoError(b, err)
	in := make([]any, len(io.Cases[0].Inputs))
	for i, v := range io.Cases[0].Inputs {
		in[i] = v
	}
	for _, p := range []struct {
		name string
		ep   *export.ExportedProgram
	}{{"loaded", ep}, {"optimized", opt}} {
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := p.ep.RunFlat(in...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
