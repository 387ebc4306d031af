package nn_test

import (
	"testing"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// fuzzValue makes a value from two bytes: a bool, an int, a float, a
// bool/float32/int64 tensor of up to 3 dims of sizes 0..3, or a tuple.
func fuzzValue(kind, shape byte) nn.Value {
	dims := []int{}
	for i := range int(shape % 4) {
		dims = append(dims, int(shape>>(2+i*2))%4)
	}
	dt := []tensor.DType{tensor.Bool, tensor.Float32, tensor.Int64}[int(kind/8)%3]
	switch kind % 8 {
	case 0:
		return nn.Of(shape%2 == 0)
	case 1:
		return nn.Of(int64(shape))
	case 2:
		return nn.Of(float64(shape))
	case 3:
		return nn.Tuple(nn.Tensor(tensor.Must(tensor.Zeros(dt, dims...))))
	case 4:
		return nn.None
	}
	return nn.Tensor(tensor.Must(tensor.Ones(dt, dims...)))
}

// FuzzHigherOrder calls cond, while_loop and map_impl with arbitrary
// predicates, carried values and mapped tensors (graphs that keep or break
// the rules): every outcome is a value or an error, never a panic, and a
// loop whose body keeps its carried values ends.
func FuzzHigherOrder(f *testing.F) {
	for _, seed := range [][]byte{{0, 0, 5, 9}, {13, 0, 5, 1}, {5, 4, 21, 6}, {3, 255, 45, 45}, {1, 2, 3, 4}} {
		f.Add(seed)
	}
	parse := func(text string) nn.Value {
		g, err := graph.Parse(text)
		if err != nil {
			f.Fatal(err)
		}
		gm, err := fx.NewGraphModule(nil, g)
		if err != nil {
			f.Fatal(err)
		}
		return nn.ModuleAt(gm, "sub")
	}
	identity := parse(`
%x = placeholder "x"()
%output = output "output"((%x,))`)
	sum := parse(`
%x = placeholder "x"()
%s = call_function aten.sum.default(%x)
%output = output "output"((%s,))`)
	once := parse(`
%x = placeholder "x"()
%n = call_function aten.numel.default(%x)
%b = call_function operator.lt(%n, 0)
%output = output "output"(%b)`)
	cond, _ := nn.LookupFunctionImpl(nn.CondOp)
	loop, _ := nn.LookupFunctionImpl(nn.WhileLoopOp)
	mapf, _ := nn.LookupFunctionImpl(nn.MapImplOp)
	f.Fuzz(func(t *testing.T, b []byte) {
		for len(b) < 4 {
			b = append(b, 0)
		}
		v, w := fuzzValue(b[0], b[1]), fuzzValue(b[2], b[3])
		graphs := []nn.Value{identity, sum, once, v}
		g := func(i byte) nn.Value { return graphs[int(i)%len(graphs)] }
		_, _ = cond([]nn.Value{v, g(b[1]), g(b[2]), nn.Tuple(w)}, nil)
		_, _ = cond([]nn.Value{v, g(b[3]), g(b[0]), w}, nil)
		_, _ = loop([]nn.Value{once, g(b[2]), nn.Tuple(w), nn.Tuple()}, nil)
		_, _ = loop([]nn.Value{g(b[0]), identity, v, nn.Tuple(w)}, nil)
		_, _ = mapf([]nn.Value{g(b[1]), nn.Tuple(v, w), nn.Tuple()}, nil)
		_, _ = mapf([]nn.Value{sum, w, nn.Tuple(v)}, nil)
	})
}
