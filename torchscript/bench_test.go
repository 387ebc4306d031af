package torchscript

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkLoad times Load of a TorchScript archive, and Load followed by
// compiling every method of every module in it, which is what
// torch.jit.load does (gofx compiles a method on its first call). The
// archive is $GOFX_TS_BENCH (bench/torchscript/torch_jit_load.py makes a
// scripted torchvision resnet18 and times torch.jit.load on it), else
// ../shared's scripted attention model.
func BenchmarkLoad(b *testing.B) {
	path := os.Getenv("GOFX_TS_BENCH")
	if path == "" {
		path = filepath.Join(sharedDir, "torchscript", "attention.script.pt")
	}
	if _, err := os.Stat(path); err != nil {
		b.Skipf("no archive to load: %v", err)
	}
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			if _, err := Load(path); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("load+compile", func(b *testing.B) {
		methods := 0
		for b.Loop() {
			m, err := Load(path)
			if err != nil {
				b.Fatal(err)
			}
			seen := map[any]bool{}
			if err := compileAll(m, seen); err != nil {
				b.Fatal(err)
			}
			methods = len(seen)
		}
		b.ReportMetric(float64(methods), "methods")
	})
}

// compileAll compiles every method of m and of its submodules, recording
// each compiled function once in seen (modules of one class share them).
func compileAll(m *Module, seen map[any]bool) error {
	names, err := m.MethodNames()
	if err != nil {
		return err
	}
	for _, name := range names {
		mt, err := m.Method(name)
		if err != nil {
			return err
		}
		if _, err := mt.Function().Compiled(); err != nil {
			return err
		}
		seen[mt.Function()] = true
	}
	for _, c := range m.Children() {
		if err := compileAll(c.Module, seen); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkIntLoop runs forward(n) of the archive $GOFX_TS_LOOP, an
// integer loop of n iterations (bench/torchscript/torch_int_loop.py makes
// it and times the same call in PyTorch's interpreter), reporting the
// nanoseconds per iteration beside PyTorch's.
func BenchmarkIntLoop(b *testing.B) {
	path := os.Getenv("GOFX_TS_LOOP")
	if path == "" {
		b.Skip("GOFX_TS_LOOP is not set (bench/torchscript/torch_int_loop.py makes the archive)")
	}
	m, err := Load(path)
	if err != nil {
		b.Fatal(err)
	}
	const n = 1000
	out, err := m.Forward(int64(n))
	if err != nil {
		b.Fatal(err)
	}
	if out != int64(n*(n+1)/2) {
		b.Fatalf("forward(%d) = %v, want %d", n, out, n*(n+1)/2)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.Forward(int64(n)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/iteration")
}
