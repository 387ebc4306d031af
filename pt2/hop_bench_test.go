package pt2_test

import (
	"path/filepath"
	"testing"

	"github.com/gofx/gofx/pt2"
)

// hopBenchPrograms are the control-flow programs PyTorch 2.14 saved
// (pt2/testdata/hop/torch-2.14, copies of ../shared/pt2/torch-2.14): the
// ones bench/hop/torch_hop.py times in PyTorch on the same inputs.
var hopBenchPrograms = []string{"cond_data", "cond_shape", "cond_params", "cond_nested", "map_rows", "while_count", "while_converge"}

// BenchmarkRunControlFlow times one run of each loaded control-flow
// program on its io.json's first case (ExportedProgram.RunFlat), the work
// bench/hop/torch_hop.py times as ep.module()(*inputs) in PyTorch.
func BenchmarkRunControlFlow(b *testing.B) {
	for _, name := range hopBenchPrograms {
		b.Run(name, func(b *testing.B) {
			dir := filepath.Join("testdata", "hop", "torch-2.14")
			ep, err := pt2.Load(filepath.Join(dir, name+".pt2"))
			if err != nil {
				b.Fatal(err)
			}
			io, err := pt2.ReadIO(filepath.Join(dir, name+".io.json"))
			if err != nil {
				b.Fatal(err)
			}
			in := make([]any, len(io.Cases[0].Inputs))
			for i, v := range io.Cases[0].Inputs {
				in[i] = v
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ep.RunFlat(in...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
