package pt2_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"

	"github.com/gofx/gofx/pt2"
)

// The load and save benchmarks run on the files bench/pt2/torch_pt2.py
// makes with PyTorch 2.6 and 2.14 (chain150/600/2100.pt2, resnet18.pt2, in
// DIR/torch-VERSION/), named by GOFX_PT2_BENCH=DIR; bench/pt2/run.sh makes
// them, times PyTorch's torch.export.load and save on them and runs these
// benchmarks in the same session. Without GOFX_PT2_BENCH they skip.
func benchFiles(b *testing.B) []string {
	dir := os.Getenv("GOFX_PT2_BENCH")
	if dir == "" {
		b.Skip("GOFX_PT2_BENCH is not set: run bench/pt2/run.sh")
	}
	files, err := filepath.Glob(filepath.Join(dir, "torch-*", "*.pt2"))
	if err != nil || len(files) == 0 {
		b.Skipf("no .pt2 files under %s/torch-*/", dir)
	}
	sort.Strings(files)
	return files
}

// benchName is "torch-2.6.0/resnet18".
func benchName(path string) string {
	return filepath.Base(filepath.Dir(path)) + "/" + trimExt(filepath.Base(path))
}

func trimExt(s string) string { return s[:len(s)-len(filepath.Ext(s))] }

// weightBytes is the size of a program's parameters, buffers and constants.
func weightBytes(b *testing.B, path string) int64 {
	ep, err := pt2.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	var n int64
	for _, t := range ep.StateDict() {
		n += int64(t.Numel() * t.DType().Size())
	}
	for _, t := range ep.Constants() {
		n += int64(t.Numel() * t.DType().Size())
	}
	return n
}

// BenchmarkLoad times pt2.Load (torch.export.load): the container, the
// program's JSON, the graph and the tensors. peak-heap/weights is the
// heap's high-water mark during one load over the weights' bytes.
func BenchmarkLoad(b *testing.B) {
	for _, path := range benchFiles(b) {
		b.Run(benchName(path), func(b *testing.B) {
			w := weightBytes(b, path)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := pt2.Load(path); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(peakHeap(b, func() {
				if _, err := pt2.Load(path); err != nil {
					b.Fatal(err)
				}
			}))/float64(w), "peak-heap/weights")
		})
	}
}

// BenchmarkSave times pt2.Write (torch.export.save) of a loaded program to
// a file, in the container it was read from.
func BenchmarkSave(b *testing.B) {
	for _, path := range benchFiles(b) {
		b.Run(benchName(path), func(b *testing.B) {
			ep, err := pt2.Load(path)
			if err != nil {
				b.Fatal(err)
			}
			format := pt2.Legacy
			if isArchive(b, path) {
				format = pt2.Archive
			}
			out := filepath.Join(b.TempDir(), "out.pt2")
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := pt2.Write(out, ep, pt2.SaveOptions{Format: format}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// isArchive reports whether the file is a PT2 archive (it has an
// archive_format record).
func isArchive(b *testing.B, path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return bytes.Contains(data, []byte("/archive_format"))
}

// peakHeap runs f once and returns how far the live heap rose above its
// level before f, sampled by a GC after f (f's garbage freed) and at the
// end of every GC cycle during f (runtime.MemStats.HeapAlloc at most
// overstates the peak by the garbage not yet collected).
func peakHeap(b *testing.B, f func()) uint64 {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var max uint64
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				peak <- max
				return
			default:
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > max {
				max = ms.HeapAlloc
			}
			runtime.Gosched()
		}
	}()
	f()
	close(done)
	m := <-peak
	if m < before.HeapAlloc {
		return 0
	}
	return m - before.HeapAlloc
}
