package convert

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript"
)

// FuzzConvert loads mutated archives (seeded from testdata) and converts
// those that load with (2, 3) float inputs, one per forward parameter:
// Convert returns a program or an error, and never panics.
func FuzzConvert(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.pt")
	more, _ := filepath.Glob("testdata/tsfork/*.pt") // enums, with, fork
	seeds = append(seeds, more...)
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := torchscript.Read(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		fwd, err := m.Method("forward")
		if err != nil {
			return
		}
		g, err := fwd.Function().Compiled()
		if err != nil || len(g.Inputs()) > 8 {
			return
		}
		var args []any
		for range g.Inputs()[1:] {
			x, err := tensor.Ones(tensor.Float32, 2, 3)
			if err != nil {
				t.Fatal(err)
			}
			args = append(args, x)
		}
		ep, err := Convert(m, args)
		if err == nil && ep == nil {
			t.Fatal("no program and no error")
		}
	})
}
