package export_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// chainModel computes x = relu(x*2 + 1) n times: 3 operators per block.
type chainModel struct {
	nn.Base
	n int
}

func newChain(n int) *chainModel {
	m := &chainModel{n: n}
	m.Init(m, "Chain")
	return m
}

func (m *chainModel) Forward(x nn.Value) nn.Value {
	for range m.n {
		x = x.Mul(2).Add(1).Relu()
	}
	return x
}

// BenchmarkExportChain exports the chain at 1k/10k/100k blocks with a
// dynamic batch, reporting the cost per graph node: export's cost grows
// linearly.
func BenchmarkExportChain(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("blocks=%d", n), func(b *testing.B) {
			x, err := tensor.New(tensor.Float32, 4, 8)
			require.NoError(b, err)
			m := newChain(n)
			dims := export.Dims{"x": {0: export.Dim("batch", 2, export.Inf)}}
			var nodes int
			for b.Loop() {
				ep, err := export.Export(m, []any{x}, dims)
				if err != nil {
					b.Fatal(err)
				}
				nodes = ep.Graph.Len()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nodes), "ns/node")
		})
	}
}

// BenchmarkExportResNet18 exports torchvision's resnet18 (batch 1,
// 224x224, static) to core ATen.
func BenchmarkExportResNet18(b *testing.B) {
	m, err := models.New("resnet18")
	require.NoError(b, err)
	x, err := tensor.New(tensor.Float32, 1, 3, 224, 224)
	require.NoError(b, err)
	var nodes int
	for b.Loop() {
		ep, err := export.Export(m, []any{x}, nil)
		if err != nil {
			b.Fatal(err)
		}
		nodes = ep.Graph.Len()
	}
	b.ReportMetric(float64(nodes), "nodes")
}

// BenchmarkRunDecompositionsResNet18 applies decomp.Extra to the exported
// resnet18.
func BenchmarkRunDecompositionsResNet18(b *testing.B) {
	m, err := models.New("resnet18")
	require.NoError(b, err)
	x, err := tensor.New(tensor.Float32, 1, 3, 224, 224)
	require.NoError(b, err)
	ep, err := export.Export(m, []any{x}, nil)
	require.NoError(b, err)
	for b.Loop() {
		if _, err := ep.RunDecompositions(decomp.Extra()); err != nil {
			b.Fatal(err)
		}
	}
}
