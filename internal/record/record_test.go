package record_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/record"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// testPolicy takes the recorder's defaults (operators, functions and
// methods recorded, every module traced through), and gives tuple element
// i a val f32[i] and data i.
type testPolicy struct {
	record.Defaults
	elementVal bool
}

func (p *testPolicy) Element(parent *record.Proxy, i int) (any, node.Value) {
	if !p.elementVal {
		return nil, nil
	}
	return i, node.TensorMeta{DType: "f32", Shape: node.Dims(int64(i))}
}

func (p *testPolicy) DataDependent(what, where string) error {
	return errors.New("data-dependent: " + what + " at " + where)
}

func newRecorder(t *testing.T, root nn.Module, pol record.Policy) (*record.Recorder, nn.Value) {
	t.Helper()
	r := record.New(graph.New(), root, pol)
	x, err := r.Create(node.Placeholder, node.Path("x"), nil, nil, "", node.TensorMeta{DType: "f32", Shape: node.Dims(4)})
	require.NoError(t, err)
	return r, nn.Of(r.NewProxy(x, nil))
}

func TestCreateStampsMetadataInOneOrder(t *testing.T) {
	r, x := newRecorder(t, nil, &testPolicy{})
	ph := r.Graph().Placeholders()[0]
	assert.Equal(t, []string{"val"}, ph.Meta.Keys(), "placeholders get val only")

	y := nn.CallOp(aten.Relu, x)
	n := y.Any().(*record.Proxy).Node()
	st, ok := node.StackTrace.Get(&n.Meta)
	require.True(t, ok)
	assert.Contains(t, st, "record_test.go:", "the model code's frame, not the recorder's")
	assert.NotContains(t, st, "internal/record/record.go")

	val := node.TensorMeta{DType: "f32", Shape: node.Dims(4)}
	src, err := r.Create(node.CallFunction, aten.Relu, []node.Arg{ph}, nil, "", val)
	require.NoError(t, err)
	node.ModuleStack.Set(&src.Meta, []node.ModuleFrame{{Path: "blk", Type: "Block"}})
	r.Source = src
	m, err := r.Create(node.CallFunction, aten.Relu, []node.Arg{src}, nil, "", val)
	require.NoError(t, err)
	r.Source = nil
	assert.Equal(t, []string{"stack_trace", "nn_module_stack", "val"}, m.Meta.Keys(), "val is stamped last")
	got, _ := node.ModuleStack.Get(&m.Meta)
	assert.Equal(t, []node.ModuleFrame{{Path: "blk", Type: "Block"}}, got)

	r.Annotate = func(n *node.Node) { n.Meta.Set("custom", 1) }
	a, err := r.Create(node.CallFunction, aten.Relu, []node.Arg{ph}, nil, "", val)
	require.NoError(t, err)
	assert.Equal(t, []string{"custom", "val"}, a.Meta.Keys())
}

func TestLazyTupleElements(t *testing.T) {
	tests := []struct {
		name       string
		fold       bool
		elementVal bool
		want       []string // the output argument's node names
	}{
		{"fx folds a whole tuple into its node", true, false, []string{"topk"}},
		{"without folding the elements are getitems", false, true, []string{"getitem", "getitem_1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, x := newRecorder(t, nil, &testPolicy{elementVal: tc.elementVal})
			r.FoldTuples = tc.fold
			out := nn.CallOp(aten.Topk, x, 2)
			elems := out.Tuple()
			require.Len(t, elems, 2)
			assert.Equal(t, 2, r.Graph().Len(), "no getitem node before an element is used")
			arg, err := r.Arg(out)
			require.NoError(t, err)
			_, err = r.Create(node.Output, node.Path("output"), []node.Arg{arg}, nil, "", nil)
			require.NoError(t, err)
			o := r.Graph().OutputNode()
			assert.Equal(t, tc.want, names(o.Arg(0)))
			if tc.elementVal {
				p := elems[1].Any().(*record.Proxy)
				assert.Equal(t, 1, record.Data(p))
				v, ok := node.Val.Get(&p.Node().Meta)
				require.True(t, ok)
				assert.Equal(t, "f32[1]", v.String())
			}
		})
	}
}

func TestArgConversion(t *testing.T) {
	r, x := newRecorder(t, nil, &testPolicy{})
	other, y := newRecorder(t, nil, &testPolicy{})
	_ = other

	_, err := r.Arg(y)
	assert.ErrorContains(t, err, "another trace")

	c, err := tensor.New(tensor.Float32, 2)
	require.NoError(t, err)
	_, err = r.Arg(nn.Of(c))
	assert.ErrorContains(t, err, "concrete tensor", "Defaults refuse constants")

	xn := r.Graph().Placeholders()[0]
	a, err := r.Arg(nn.Tuple(x, nn.Of(2)))
	require.NoError(t, err)
	assert.Equal(t, node.Tuple{xn, node.Int(2)}, a, "a tuple Value is a node.Tuple")
	a, err = r.Arg([]any{x, 2})
	require.NoError(t, err)
	assert.Equal(t, node.List{xn, node.Int(2)}, a, "a Go slice is a node.List")

	a, err = r.OpArg("contiguous_format", "MemoryFormat")
	require.NoError(t, err)
	assert.Equal(t, node.Str("contiguous_format"), a)
	r.TypedStrings = true
	a, err = r.OpArg("contiguous_format", "MemoryFormat")
	require.NoError(t, err)
	assert.Equal(t, node.MemoryFormat("contiguous_format"), a)
}

type block struct {
	nn.Base
	Act *nn.ReLU
}

func (b *block) Forward(x nn.Value) nn.Value { return b.Act.Call(x) }

type model struct {
	nn.Base
	Blk *block
}

func (m *model) Forward(x nn.Value) nn.Value { return nn.Call(m.Blk, x) }

type branchy struct{ nn.Base }

func (b *branchy) Forward(x nn.Value) nn.Value {
	if x.Sum().Gt(0).Bool() {
		return x
	}
	return x.Neg()
}

func TestModuleStackAndDataDependentError(t *testing.T) {
	m := &model{}
	m.Init(m, "Model")
	b := &block{}
	b.Init(b, "Block")
	b.Act = nn.RegisterModule(&b.Base, "act", nn.NewReLU())
	m.Blk = nn.RegisterModule(&m.Base, "blk", b)

	r, x := newRecorder(t, m, &testPolicy{})
	out, err := r.Run(m, []nn.Value{x})
	require.NoError(t, err)
	n := out.Any().(*record.Proxy).Node()
	ms, ok := node.ModuleStack.Get(&n.Meta)
	require.True(t, ok)
	assert.Equal(t, []node.ModuleFrame{{Path: "blk", Type: "Block"}, {Path: "blk.act", Type: "ReLU"}}, ms)

	br := &branchy{}
	br.Init(br, "Branchy")
	r, x = newRecorder(t, br, &testPolicy{})
	_, err = r.Run(br, []nn.Value{x})
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "data-dependent: a bool at "), err.Error())
	assert.Contains(t, err.Error(), "record_test.go:")
}

// names returns the names of the nodes in a (a node or a tuple of nodes).
func names(a node.Arg) []string {
	switch x := a.(type) {
	case *node.Node:
		return []string{x.Name()}
	case node.Tuple:
		var out []string
		for _, e := range x {
			out = append(out, names(e)...)
		}
		return out
	}
	return nil
}
