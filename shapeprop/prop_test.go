package shapeprop_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// refShape is one entry of a model's shapes.json: torch.fx ShapeProp's
// record of a node (PyTorch 1.13, ../shared/models).
type refShape struct {
	Shape []int64     `json:"shape"`
	DType string      `json:"dtype"`
	Tuple []*refShape `json:"tuple"`
}

func (r *refShape) meta(batch int64, symbolic bool) node.Value {
	if r.Tuple != nil {
		out := make(node.ValueTuple, len(r.Tuple))
		for i, e := range r.Tuple {
			out[i] = e.meta(batch, symbolic)
		}
		return out
	}
	m := node.TensorMeta{DType: node.DType(r.DType), Shape: node.Dims(r.Shape...)}
	if symbolic && len(m.Shape) > 0 && m.Shape[0].Size == batch {
		m.Shape[0] = node.Dim{Sym: "s0"}
	}
	return m
}

// readShapes reads NAME.shapes.json from testdata, or from
// ../shared/models for the files too large to copy.
func readShapes(t *testing.T, name string) map[string]*refShape {
	var data []byte
	var err error
	for _, dir := range []string{"testdata", "../../shared/models"} {
		if data, err = os.ReadFile(filepath.Join(dir, name+".shapes.json")); err == nil {
			break
		}
	}
	if err != nil {
		t.Skipf("no %s.shapes.json (PyTorch's ShapeProp record): %v", name, err)
	}
	var out map[string]*refShape
	require.NoError(t, json.Unmarshal(data, &out))
	return out
}

// modelNotes explains nodes whose values torch.fx 1.13 did not record.
var modelNotes = map[string]map[string]string{
	// torch.fx 1.13 runs my_buffer2.add_(1.0) eagerly at trace time; gofx
	// records it (see models.Spec.Notes).
	"export_doc_mutation": {"add_": "recorded by gofx's trace only"},
}

func tracedModel(t *testing.T, name string) *fx.GraphModule {
	m, err := models.New(name)
	require.NoError(t, err)
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	return gm
}

// placeholderInputs makes zero tensors of the placeholders' recorded
// shapes.
func placeholderInputs(t *testing.T, g *graph.Graph, ref map[string]*refShape) []*tensor.Tensor {
	var ins []*tensor.Tensor
	for n := range g.Nodes() {
		if n.Op() != node.Placeholder {
			continue
		}
		r, ok := ref[n.Name()]
		require.True(t, ok, "placeholder %s not in shapes.json", n.Name())
		dt, err := tensor.ParseDType(r.DType)
		require.NoError(t, err)
		sh := make([]int, len(r.Shape))
		for i, d := range r.Shape {
			sh[i] = int(d)
		}
		ins = append(ins, tensor.Must(tensor.New(dt, sh...)))
	}
	return ins
}

// recorded returns the val of every node that has one, as node.Value
// with *shapeprop.Fake turned into TensorMeta (int values left out: torch records
// tensors only).
func recorded(g *graph.Graph) map[string]node.Value {
	out := map[string]node.Value{}
	for n := range g.Nodes() {
		v, ok := node.Val.Get(&n.Meta)
		if !ok {
			continue
		}
		if m := tensorsOnly(v); m != nil {
			out[n.Name()] = m
		}
	}
	return out
}

func tensorsOnly(v node.Value) node.Value {
	switch x := v.(type) {
	case node.TensorMeta:
		return x
	case *shapeprop.Fake:
		return x.Meta()
	case node.ValueTuple:
		out := make(node.ValueTuple, len(x))
		for i, e := range x {
			if out[i] = tensorsOnly(e); out[i] == nil {
				return nil
			}
		}
		return out
	}
	return nil
}

// renamed maps torch.fx's node names to gofx's where they differ: Python's
// `/` is operator.truediv in torch.fx and aten::div.Tensor in gofx.
var renamed = map[string]map[string]string{"attention": {"truediv": "div"}}

func compareWithRef(t *testing.T, name string, got map[string]node.Value, ref map[string]*refShape, batch int64, symbolic bool) {
	t.Helper()
	want := map[string]node.Value{}
	for k, r := range ref {
		if n, ok := renamed[name][k]; ok {
			k = n
		}
		want[k] = r.meta(batch, symbolic)
	}
	for k := range modelNotes[name] {
		delete(got, k)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: recorded shapes differ from PyTorch's ShapeProp (-want +got):\n%s", name, diff)
	}
}

// TestPropagateZoo: ShapeProp over every zoo model's trace records the
// shapes PyTorch 1.13's ShapeProp recorded.
func TestPropagateZoo(t *testing.T) {
	for _, name := range models.Names() {
		t.Run(name, func(t *testing.T) {
			if name == "resnet18" && testing.Short() {
				t.Skip("resnet18 at 224x224 in -short mode")
			}
			ref := readShapes(t, name)
			gm := tracedModel(t, name)
			ins := placeholderInputs(t, gm.Graph, ref)
			vals := make([]nn.Value, len(ins))
			for i, x := range ins {
				vals[i] = nn.Tensor(x)
			}
			out, err := shapeprop.Propagate(gm, vals...)
			require.NoError(t, err)
			assert.False(t, out.IsNone())
			compareWithRef(t, name, recorded(gm.Graph), ref, 0, false)
		})
	}
}

// TestFakePropZoo: FakeProp with static inputs records the same shapes,
// without running a kernel.
func TestFakePropZoo(t *testing.T) {
	for _, name := range models.Names() {
		t.Run(name, func(t *testing.T) {
			ref := readShapes(t, name)
			gm := tracedModel(t, name)
			var ins []any
			for _, x := range placeholderInputs(t, gm.Graph, ref) {
				ins = append(ins, shapeprop.FakeOf(x))
			}
			env := sym.NewEnv()
			_, err := shapeprop.FakeProp(gm, env, ins...)
			require.NoError(t, err)
			compareWithRef(t, name, recorded(gm.Graph), ref, 0, false)
			assert.Empty(t, env.Guards())
		})
	}
}

// TestFakePropDynamicBatch: with a symbolic batch s0 in [2, int_oo] every
// node's shape is PyTorch's with the batch replaced by s0, and no guard is
// needed.
func TestFakePropDynamicBatch(t *testing.T) {
	for _, name := range []string{"mlp", "convnet", "attention", "resnet18", "export_doc_branches"} {
		t.Run(name, func(t *testing.T) {
			ref := readShapes(t, name)
			gm := tracedModel(t, name)
			env := sym.NewEnv()
			var batch int64
			var s0 *sym.Symbol
			var ins []any
			for _, x := range placeholderInputs(t, gm.Graph, ref) {
				f := shapeprop.FakeOf(x)
				if s0 == nil {
					batch, _ = f.Shape[0].Const()
					var err error
					s0, err = env.NewSymbol("s0", max(batch, 3), sym.Range{Lo: 2, Hi: sym.Inf})
					require.NoError(t, err)
				}
				f.Shape[0] = s0.Expr()
				ins = append(ins, f)
			}
			out, err := shapeprop.FakeProp(gm, env, ins...)
			require.NoError(t, err)
			require.NotEmpty(t, out)
			got := recorded(gm.Graph)
			for n := range gm.Graph.Nodes() {
				if n.Op() == node.GetAttr {
					delete(got, n.Name()) // parameters keep their static shapes
					delete(ref, n.Name())
				}
			}
			compareWithRef(t, name, got, ref, batch, true)
			assert.Empty(t, env.Guards())
		})
	}
}

// TestFakePropInts: sizes read from shapes are recorded as expressions,
// and getattr(x, "shape") as a tuple of them.
func TestFakePropInts(t *testing.T) {
	gm := tracedModel(t, "attention")
	env := sym.NewEnv()
	s0, err := env.NewSymbol("s0", 2, sym.Range{Lo: 2, Hi: sym.Inf})
	require.NoError(t, err)
	s1, err := env.NewSymbol("s1", 5, sym.Range{Lo: 2, Hi: 64})
	require.NoError(t, err)
	out, err := shapeprop.FakeProp(gm, env, shapeprop.NewFake(tensor.Float32, s0.Expr(), s1.Expr(), 32))
	require.NoError(t, err)
	assert.Equal(t, "f32[s0, s1, 32]", out[0].(*shapeprop.Fake).String())
	vals := map[string]string{}
	for n := range gm.Graph.Nodes() {
		if v, ok := node.Val.Get(&n.Meta); ok {
			vals[n.Name()] = v.String()
		}
	}
	assert.Equal(t, "(s0, s1, 32)", vals["getattr_1"])
	assert.Equal(t, "s0", vals["getitem"])
	assert.Equal(t, "s1", vals["getitem_1"])
	assert.Equal(t, "f32[s0, 4, s1, s1]", vals["softmax"])
	assert.Empty(t, env.Guards())
}

// TestFakePropNoMutation: FakeProp never writes the module's state (the
// in-place add on a buffer is inferred, not run).
func TestFakePropNoMutation(t *testing.T) {
	m, err := models.New("export_doc_mutation")
	require.NoError(t, err)
	gm, err := fx.SymbolicTrace(m)
	require.NoError(t, err)
	buf := m.(*models.ExportDocMutation).MyBuffer2.Value().Tensor()
	before := tensor.Values[float32](buf)
	out, err := shapeprop.FakeProp(gm, sym.NewEnv(), shapeprop.NewFake(tensor.Float32, 3), shapeprop.NewFake(tensor.Float32, 3))
	require.NoError(t, err)
	assert.Equal(t, "f32[3]", out[0].(*shapeprop.Fake).String())
	assert.Equal(t, before, tensor.Values[float32](buf))
}

// TestFakePropSpecializes: fx_doc_mymodule adds linear.weight [5, 4] to x,
// so a symbolic batch must be 5, as PyTorch also guards.
func TestFakePropSpecializes(t *testing.T) {
	gm := tracedModel(t, "fx_doc_mymodule")
	env := sym.NewEnv()
	s0, err := env.NewSymbol("s0", 5, sym.Range{Lo: 2, Hi: sym.Inf})
	require.NoError(t, err)
	out, err := shapeprop.FakeProp(gm, env, shapeprop.NewFake(tensor.Float32, s0.Expr(), 4))
	require.NoError(t, err)
	assert.Equal(t, "f32[3]", out[0].(*shapeprop.Fake).String())
	require.Len(t, env.Guards(), 1)
	assert.Equal(t, "Eq(s0, 5)", env.Guards()[0].Cond.String())
	assert.Contains(t, env.Guards()[0].Where, "models/small.go:")
}

// TestFakePropErrors: bad inputs and shapes the model cannot take.
func TestFakePropErrors(t *testing.T) {
	gm := tracedModel(t, "mlp")
	_, err := shapeprop.FakeProp(nil, sym.NewEnv())
	assert.Error(t, err)
	_, err = shapeprop.FakeProp(gm, nil, shapeprop.NewFake(tensor.Float32, 2, 16))
	assert.ErrorContains(t, err, "nil sym.Env")
	_, err = shapeprop.FakeProp(gm, sym.NewEnv(), "x")
	assert.ErrorContains(t, err, "input 0")
	_, err = shapeprop.FakeProp(gm, sym.NewEnv(), shapeprop.NewFake(tensor.Float32, 2, 15))
	assert.ErrorContains(t, err, "mat1 and mat2 shapes cannot be multiplied")
	_, err = shapeprop.FakeProp(gm, sym.NewEnv())
	assert.Error(t, err)
	_, err = shapeprop.Propagate(nil)
	assert.Error(t, err)
	_, err = shapeprop.Propagate(gm, nn.Tensor(tensor.Must(tensor.New(tensor.Float32, 2, 15))))
	assert.ErrorContains(t, err, "mat1 and mat2 shapes cannot be multiplied")
}

// TestMetaOf reads the val either propagation recorded.
func TestMetaOf(t *testing.T) {
	gm := tracedModel(t, "attention")
	env := sym.NewEnv()
	s0, err := env.NewSymbol("s0", 2, sym.Range{Lo: 2, Hi: sym.Inf})
	require.NoError(t, err)
	_, err = shapeprop.FakeProp(gm, env, shapeprop.NewFake(tensor.Float32, s0.Expr(), 5, 32))
	require.NoError(t, err)
	byName := map[string]*node.Node{}
	for n := range gm.Graph.Nodes() {
		byName[n.Name()] = n
	}
	m, ok := shapeprop.MetaOf(byName["gelu"])
	require.True(t, ok)
	assert.Equal(t, node.TensorMeta{DType: node.Float32, Shape: []node.Dim{{Sym: "s0"}, {Size: 5}, {Size: 64}}}, m)
	_, ok = shapeprop.MetaOf(byName["split"]) // a tuple
	assert.False(t, ok)
	_, ok = shapeprop.MetaOf(byName["getitem"]) // an int
	assert.False(t, ok)

	_, err = shapeprop.Propagate(gm, nn.Tensor(tensor.Must(tensor.New(tensor.Float32, 3, 5, 32))))
	require.NoError(t, err)
	m, ok = shapeprop.MetaOf(byName["gelu"])
	require.True(t, ok)
	assert.Equal(t, node.TensorMeta{DType: node.Float32, Shape: node.Dims(3, 5, 64)}, m)
	fresh := graph.New()
	p, err := fresh.Placeholder("x")
	require.NoError(t, err)
	_, ok = shapeprop.MetaOf(p)
	assert.False(t, ok)
}

// TestNewFakeSymbol: a *sym.Symbol is a dim (it used to panic), the same as
// its expression; a dim of another type panics naming the dim and type.
func TestNewFakeSymbol(t *testing.T) {
	env := sym.NewEnv()
	s0, err := env.NewSymbol("s0", 4, sym.Range{Lo: 2, Hi: 64})
	require.NoError(t, err)
	f := shapeprop.NewFake(tensor.Float32, s0, 16)
	assert.Equal(t, "f32[s0, 16]", f.String())
	assert.Equal(t, shapeprop.NewFake(tensor.Float32, s0.Expr(), 16).String(), f.String())
	assert.PanicsWithValue(t, "shapeprop.NewFake: dim 1 is a string, not an int, sym.Expr or *sym.Symbol", func() {
		shapeprop.NewFake(tensor.Float32, 2, "16")
	})
}
