package decomp_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

// TestZoo traces each zoo model through its layers (no leaf modules), so
// that its graph calls the composite operators the layers use, decomposes
// it with Core, and checks the decomposed graph against PyTorch 1.13's
// outputs for the model's first io.json case. Only tensor methods
// (call_method nodes) and getattr(x, "shape") may remain outside core
// ATen: an exporter traces those into operators and sizes.
func TestZoo(t *testing.T) {
	for _, name := range models.Names() {
		t.Run(name, func(t *testing.T) {
			dir := ""
			// The repository's copy, else the shared zoo beside the checkout
			// (resnet18's files are only there).
			for _, d := range []string{"../testdata/models", "../../shared/models", "../../../shared/models"} {
				if _, err := os.Stat(filepath.Join(d, name+".state_dict.pt")); err == nil {
					dir = d
					break
				}
			}
			if dir == "" {
				t.Skipf("no reference files for %s", name)
			}
			sd, err := torchio.Load(filepath.Join(dir, name+".state_dict.pt"))
			require.NoError(t, err)
			io, err := models.ReadIO(filepath.Join(dir, name+".io.json"))
			require.NoError(t, err)
			spec, err := models.Lookup(name)
			require.NoError(t, err)
			m, err := models.Fresh(spec, sd)
			require.NoError(t, err)
			c := io.Cases[0]
			for _, in := range c.Inputs {
				if !in.IsTensor() {
					t.Skipf("%s takes a %s input: traced with it burned in by export, not here", name, in.Kind())
				}
			}
			tr := fx.Tracer{IsLeaf: func(nn.Module, string) bool { return false }, NumArgs: len(c.Inputs)}
			gm, err := tr.Trace(m)
			require.NoError(t, err)
			for i, p := range gm.Graph.Placeholders() {
				v := tensorMeta(c.Inputs[i].Tensor())
				node.Val.Set(&p.Meta, v)
			}
			_, err = decomp.Decompose(gm, decomp.Core())
			require.NoError(t, err)
			require.NoError(t, gm.Graph.Lint())
			if err := decomp.Verify(gm.Graph); err != nil {
				for _, b := range err.(*decomp.VerifyError).Nodes {
					n, _ := gm.Graph.Node(b.Name)
					ok := n.Op() == node.CallMethod || (n.Op() == node.CallFunction && n.Function() == node.Function(nn.GetAttr))
					assert.True(t, ok, "%s: %s", b.Name, b.Why)
				}
			}
			for n := range gm.Graph.Nodes() {
				if op, ok := n.Function().(*ops.Operator); ok && n.Op() == node.CallFunction {
					assert.False(t, op.Has(ops.Composite), "%s still calls %s", n.Name(), op)
				}
			}
			in := make([]nn.Value, len(c.Inputs))
			for i, v := range c.Inputs {
				in[i] = nn.Tensor(v.Tensor().Clone())
			}
			out, err := interp.New(gm.Graph, gm).Run(in...)
			require.NoError(t, err)
			got := models.Flatten(out)
			require.Len(t, got, len(c.Outputs))
			for i, w := range c.Outputs {
				g := got[i].Tensor()
				require.NotNil(t, g)
				require.Equal(t, w.Tensor().Shape(), g.Shape())
				d := maxAbsDiff(g.Float64s(), w.Tensor().Float64s())
				assert.LessOrEqual(t, d, spec.Tol, "output %d", i)
			}
		})
	}
}

func maxAbsDiff(a, b []float64) float64 {
	m := 0.0
	for i := range a {
		d := a[i] - b[i]
		if d < 0 {
			d = -d
		}
		if d > m {
			m = d
		}
	}
	return m
}

// tensorMeta is a tensor's val: its dtype and static shape.
func tensorMeta(x *tensor.Tensor) node.TensorMeta {
	sh := x.Shape()
	dims := make([]node.Dim, len(sh))
	for i, s := range sh {
		dims[i] = node.Dim{Size: int64(s)}
	}
	return node.TensorMeta{DType: node.DType(x.DType().String()), Shape: dims}
}
