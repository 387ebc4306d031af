package models_test

import (
	"testing"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
	"github.com/stretchr/testify/require"
)

// resnetInput is the batch-1 input of the latency benchmarks.
func resnetInput(tb testing.TB) nn.Value {
	x, err := tensor.NewGenerator(1).Randn(tensor.Float32, 1, 3, 224, 224)
	require.NoError(tb, err)
	return nn.Tensor(x)
}

// BenchmarkResNet18 times batch-1 inference of resnet18 (fresh weights:
// the time does not depend on them) eagerly, through the interpreter
// (fx.SymbolicTrace once, then GraphModule.Run per iteration) and as the
// optimized exported program (export, passes.Default, then
// ExportedProgram.Run per iteration). With -benchmem, B/op is the bytes
// one inference allocates after warm-up (the interpreter recycles dead
// values' buffers, see interp.Reuse).
//
//	go test ./models -run '^$' -bench ResNet18 -benchtime 20x -benchmem
func BenchmarkResNet18(b *testing.B) {
	m, err := models.New("resnet18")
	require.NoError(b, err)
	x := resnetInput(b)
	b.Run("eager", func(b *testing.B) {
		for b.Loop() {
			if _, err := nn.Run(m, x); err != nil {
				b.Fatal(err)
			}
		}
	})
	gm, err := fx.SymbolicTrace(m)
	require.NoError(b, err)
	b.Run("interp", func(b *testing.B) {
		for b.Loop() {
			if _, err := gm.Run(x); err != nil {
				b.Fatal(err)
			}
		}
	})
	ep, err := optimizedResNet18(m, x)
	require.NoError(b, err)
	b.Run("optimized", func(b *testing.B) {
		for b.Loop() {
			if _, err := ep.Run(x); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// optimizedResNet18 exports m at x's shape and runs the default pipeline.
func optimizedResNet18(m nn.Module, x nn.Value) (*export.ExportedProgram, error) {
	spec, err := models.Lookup("resnet18")
	if err != nil {
		return nil, err
	}
	ep, err := models.Export(spec, m, []nn.Value{x})
	if err != nil {
		return nil, err
	}
	return ep.Transform(passes.NewManager(passes.Default()...))
}

// liveBytes is an interpreter that records the peak of the bytes held by
// the tensors of its environment after each node, and the bytes of all
// values produced.
type liveBytes struct {
	*interp.Interpreter
	peak, total int64
}

func tensorBytes(v nn.Value) int64 {
	var n int64
	for _, e := range models.Flatten(v) {
		if t := e.Tensor(); t != nil {
			n += int64(t.Numel() * t.DType().Size())
		}
	}
	return n
}

func (l *liveBytes) RunNode(n *node.Node) (nn.Value, error) {
	v, err := l.Interpreter.RunNode(n)
	if n.Op() != node.GetAttr && n.Op() != node.Placeholder {
		l.total += tensorBytes(v)
	}
	live := tensorBytes(v)
	for _, e := range l.Env() {
		live += tensorBytes(e)
	}
	l.peak = max(l.peak, live)
	return v, err
}

// TestResNet18PeakMemory measures the activations the interpreter holds
// at once on resnet18 (batch 1): values are freed after their last use, so
// the peak is a small part of everything computed. BENCHMARKS.md quotes
// the logged figures.
func TestResNet18PeakMemory(t *testing.T) {
	m, err := models.New("resnet18")
	require.NoError(t, err)
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	l := &liveBytes{Interpreter: interp.New(gm.Graph, gm)}
	l.Steps = l
	_, err = l.Run(resnetInput(t))
	require.NoError(t, err)
	t.Logf("resnet18 batch 1: peak live activations %.2f MiB, all activations %.2f MiB", float64(l.peak)/(1<<20), float64(l.total)/(1<<20))
	require.Less(t, l.peak, l.total/4, "values must be freed after their last use")
}

// BenchmarkResNet18Optimized times batch-1 inference of resnet18's
// optimized program (export, then passes.Default through
// ExportedProgram.Transform) with and without FuseEpilogues, the pass
// that turns its 17 convolution→relu and convolution→add→relu chains
// into gofx's fused operators: "fused" is what gofx optimize produces,
// "unfused" the same pipeline less that pass.
//
//	go test ./models -run '^$' -bench ResNet18Optimized -benchtime 20x -count 5
func BenchmarkResNet18Optimized(b *testing.B) {
	spec, err := models.Lookup("resnet18")
	require.NoError(b, err)
	m, err := models.New("resnet18")
	require.NoError(b, err)
	x := resnetInput(b)
	ep, err := models.Export(spec, m, []nn.Value{x})
	require.NoError(b, err)
	var unfused []passes.Pass
	for _, p := range passes.Default() {
		if p.Name != passes.FuseEpilogues.Name {
			unfused = append(unfused, p)
		}
	}
	for _, c := range []struct {
		name     string
		pipeline []passes.Pass
	}{{"unfused", unfused}, {"fused", passes.Default()}} {
		opt, err := ep.Transform(passes.NewManager(c.pipeline...))
		require.NoError(b, err)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := opt.Run(x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
