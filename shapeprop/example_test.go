package shapeprop_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// FakeProp over a traced MLP with a dynamic batch: every node's shape in
// terms of s0, and no guard needed.
func ExampleFakeProp() {
	m, _ := models.New("mlp")
	gm, _ := fx.SymbolicTrace(m)
	env := sym.NewEnv()
	s0, _ := env.NewSymbol("s0", 4, sym.Range{Lo: 2, Hi: sym.Inf})
	out, err := shapeprop.FakeProp(gm, env, shapeprop.NewFake(tensor.Float32, s0.Expr(), 16))
	if err != nil {
		fmt.Println(err)
		return
	}
	for n := range gm.Graph.Nodes() {
		v, _ := node.Val.Get(&n.Meta)
		fmt.Println(n.Name(), v)
	}
	fmt.Println("out:", out[0], "guards:", len(env.Guards()))
	// Output:
	// input_1 f32[s0, 16]
	// _0 f32[s0, 32]
	// _1 f32[s0, 32]
	// _2 f32[s0, 10]
	// output f32[s0, 10]
	// out: f32[s0, 10] guards: 0
}

// Infer on one operator: broadcasting two symbolic batches records the
// guard that they are equal.
func ExampleInfer() {
	env := sym.NewEnv()
	s0, _ := env.NewSymbol("s0", 8, sym.Range{Lo: 2, Hi: sym.Inf})
	s1, _ := env.NewSymbol("s1", 8, sym.Range{Lo: 2, Hi: sym.Inf})
	add, _ := ops.Global().Lookup("aten::add.Tensor")
	x := shapeprop.NewFake(tensor.Float32, s0.Expr(), 16)
	y := shapeprop.NewFake(tensor.Float32, s1.Expr(), 1)
	out, err := shapeprop.Infer(env, add, []any{x, y}, nil, "model.go:7")
	fmt.Println(out[0], err)
	fmt.Println(env.Guards())
	view, _ := ops.Global().Lookup("aten::view")
	out, _ = shapeprop.Infer(env, view, []any{out[0], []int64{-1, 4}}, nil, "model.go:8")
	fmt.Println(out[0])
	// Output:
	// f32[s0, 16] <nil>
	// [Eq(s0, s1) (at model.go:7)]
	// f32[4*s0, 4]
}

// Propagate records concrete shapes, as torch.fx's ShapeProp.
func ExamplePropagate() {
	m, _ := models.New("convnet")
	gm, _ := fx.SymbolicTrace(m)
	x, _ := tensor.New(tensor.Float32, 2, 3, 16, 16)
	if _, err := shapeprop.Propagate(gm, nn.Tensor(x)); err != nil {
		fmt.Println(err)
		return
	}
	for n := range gm.Graph.Nodes() {
		if meta, ok := shapeprop.MetaOf(n); ok {
			fmt.Println(n.Name(), meta)
		}
	}
	// Output:
	// x f32[2, 3, 16, 16]
	// conv1 f32[2, 8, 16, 16]
	// bn1 f32[2, 8, 16, 16]
	// relu f32[2, 8, 16, 16]
	// conv2 f32[2, 16, 8, 8]
	// bn2 f32[2, 16, 8, 8]
	// relu_1 f32[2, 16, 8, 8]
	// pool f32[2, 16, 4, 4]
	// gap f32[2, 16, 1, 1]
	// flatten f32[2, 16]
	// fc f32[2, 10]
	// output f32[2, 10]
}
