package export_test

import (
	"fmt"
	"testing"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
)

// manyConds applies n conds on x.sum() > 0 (sin or cos of x): one after
// the other, or each inside the previous one's true branch (nested).
type manyConds struct {
	nn.Base
	n      int
	nested bool
}

func (m *manyConds) Forward(x nn.Value) nn.Value {
	if m.nested {
		return m.nest(x, m.n)
	}
	for range m.n {
		x = F.Cond(x.Sum().Gt(0),
			func(o ...nn.Value) nn.Value { return o[0].Method("sin") },
			func(o ...nn.Value) nn.Value { return o[0].Method("cos") },
			x)
	}
	return x
}

func (m *manyConds) nest(x nn.Value, depth int) nn.Value {
	if depth == 0 {
		return x.Method("sin")
	}
	return F.Cond(x.Sum().Gt(0),
		func(o ...nn.Value) nn.Value { return m.nest(o[0], depth-1) },
		func(o ...nn.Value) nn.Value { return o[0].Method("cos") },
		x)
}

// BenchmarkExportConds times export.Export of a model with N conds, one
// after the other (sequential) or nested N deep, reported per cond as
// well: bench/hop/torch_export_conds.py times torch.export.export of the
// same models.
func BenchmarkExportConds(b *testing.B) {
	x := tensor.Must(tensor.Ones(tensor.Float32, 4, 3))
	for _, tc := range []struct {
		nested bool
		ns     []int
	}{{false, []int{10, 100, 1000}}, {true, []int{10, 50}}} {
		for _, n := range tc.ns {
			kind := "sequential"
			if tc.nested {
				kind = "nested"
			}
			b.Run(fmt.Sprintf("%s/N=%d", kind, n), func(b *testing.B) {
				m := &manyConds{n: n, nested: tc.nested}
				m.Init(m, "ManyConds")
				b.ReportAllocs()
				for b.Loop() {
					if _, err := export.Export(m, []any{x}, nil); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/cond")
			})
		}
	}
}
