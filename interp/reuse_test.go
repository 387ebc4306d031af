package interp_test

import (
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
)

// The tensors of these tests are 32×64 float32 (8 KiB), large enough for
// tensor's pool of recycled buffers.

// near asserts got is a tensor close to want, briefly.
func near(t *testing.T, want *tensor.Tensor, got nn.Value, msg ...any) bool {
	t.Helper()
	if !assert.True(t, got.IsTensor(), msg...) {
		return false
	}
	return assert.Equal(t, want.Shape(), got.Tensor().Shape(), msg...) &&
		assert.True(t, tensor.AllClose(want, got.Tensor(), 1e-5, 1e-6, false), msg...)
}

// scaled returns x times k.
func scaled(x *tensor.Tensor, k float64) *tensor.Tensor {
	v := x.Float64s()
	for i := range v {
		v[i] *= k
	}
	return tensor.Must(tensor.FromFloat64s(x.DType(), v, x.Shape()...))
}

// TestReuseKeepsLiveValues runs graphs where a buffer-recycling bug shows
// as a wrong result: a view outliving its base, an output viewing a dead
// value, tuples whose elements outlive them, the same storage in several
// values. Each runs twice with different inputs, with reuse on and off.
func TestReuseKeepsLiveValues(t *testing.T) {
	tests := []struct {
		name string
		text string
		want func(x *tensor.Tensor) *tensor.Tensor
	}{
		{
			// %a dies after %v, a view of it that lives on: %b must not
			// take a's buffer (it would make %v read 3x).
			name: "view outlives its base",
			text: `
%x = placeholder "x"()
%a = call_function aten.neg.default(%x)
%v = call_function aten.view.default(%a, [2048])
%b = call_function aten.mul.Scalar(%x, 3)
%w = call_function aten.view.default(%b, [2048])
%c = call_function aten.add.Tensor(%v, %w)
%output = output "output"(%c)`,
			want: func(x *tensor.Tensor) *tensor.Tensor { return tensor.Must(scaled(x, 2).View(2048)) },
		},
		{
			// the output is a view of %a, dead after %v: a's buffer is
			// the output's and must never be recycled.
			name: "output views a dead value",
			text: `
%x = placeholder "x"()
%a = call_function aten.neg.default(%x)
%v = call_function aten.t.default(%a)
%b = call_function aten.mul.Scalar(%x, 5)
%c = call_function aten.relu.default(%b)
%output = output "output"(%v)`,
			want: func(x *tensor.Tensor) *tensor.Tensor { return tensor.Must(scaled(x, -1).T()).Contiguous() },
		},
		{
			// split returns views of %a in a tuple; the tuple dies first.
			name: "tuple elements outlive the tuple",
			text: `
%x = placeholder "x"()
%a = call_function aten.mul.Scalar(%x, 2)
%s = call_function aten.split.Tensor(%a, 16)
%s0 = call_function operator.getitem(%s, 0)
%s1 = call_function operator.getitem(%s, 1)
%b = call_function aten.mul.Scalar(%x, 7)
%c = call_function aten.cat.default([%s0, %s1])
%d = call_function aten.add.Tensor(%c, %b)
%output = output "output"(%d)`,
			want: func(x *tensor.Tensor) *tensor.Tensor { return scaled(x, 9) },
		},
		{
			// the input dies after the first node: it is the caller's.
			name: "inputs are never recycled",
			text: `
%x = placeholder "x"()
%a = call_function aten.neg.default(%x)
%b = call_function aten.neg.default(%a)
%c = call_function aten.neg.default(%b)
%output = output "output"((%c, %x))`,
			want: func(x *tensor.Tensor) *tensor.Tensor { return scaled(x, -1) },
		},
		{
			// a long chain of same-size values: recycling happens.
			name: "chain",
			text: `
%x = placeholder "x"()
%a = call_function aten.mul.Scalar(%x, 2)
%b = call_function aten.relu.default(%a)
%c = call_function aten.neg.default(%b)
%d = call_function aten.relu.default(%c)
%e = call_function aten.sub.Tensor(%a, %d)
%f = call_function aten.add.Tensor(%e, %x)
%output = output "output"(%f)`,
			want: func(x *tensor.Tensor) *tensor.Tensor {
				v := x.Float64s()
				for i := range v {
					v[i] = 3 * v[i]
				}
				return tensor.Must(tensor.FromFloat64s(x.DType(), v, x.Shape()...))
			},
		},
	}
	for _, tc := range tests {
		for _, mode := range []interp.Reuse{interp.ReuseAuto, interp.ReuseOff} {
			in := interp.New(parse(t, tc.text), nil)
			in.Reuse = mode
			var outs []nn.Value
			xs := []*tensor.Tensor{randn(t, 1, 32, 64), randn(t, 2, 32, 64), randn(t, 3, 32, 64)}
			for _, x := range xs {
				out, err := in.Run(nn.Tensor(x))
				require.NoError(t, err, tc.name)
				outs = append(outs, out)
			}
			// every output still holds its run's values after later runs
			for i, x := range xs {
				got := outs[i]
				if got.IsTuple() {
					near(t, x, got.Tuple()[1], "%s (reuse %d, run %d)", tc.name, mode, i)
					got = got.Tuple()[0]
				}
				near(t, tc.want(x), got, "%s (reuse %d, run %d)", tc.name, mode, i)
			}
		}
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestReuseRecycles: a chain of 1 MiB values allocates a small part of
// its bytes once warm, and all of them with reuse off.
func TestReuseRecycles(t *testing.T) {
	g := parse(t, `
%x = placeholder "x"()
%a = call_function aten.mul.Scalar(%x, 2)
%b = call_function aten.relu.default(%a)
%c = call_function aten.neg.default(%b)
%d = call_function aten.relu.default(%c)
%e = call_function aten.sub.Tensor(%a, %d)
%f = call_function aten.sin.default(%e)
%output = output "output"(%f)`)
	x := randn(t, 1, 512, 512)
	bytes := func(mode interp.Reuse) uint64 {
		in := interp.New(g, nil)
		in.Reuse = mode
		run := func() {
			_, err := in.Run(nn.Tensor(x))
			require.NoError(t, err)
		}
		run()
		return allocated(func() {
			for range 10 {
				run()
			}
		}) / 10
	}
	off, on := bytes(interp.ReuseOff), bytes(interp.ReuseAuto)
	t.Logf("bytes per run: %d without reuse, %d with", off, on)
	assert.GreaterOrEqual(t, off, uint64(6<<20), "six new 1 MiB values per run without reuse")
	// the output (1 MiB) is new each run; the five others come from the pool
	assert.Less(t, on, off/3)
}

// recorder keeps every value it computes.
type recorder struct {
	*interp.Interpreter
	seen map[string]nn.Value
}

func (r *recorder) RunNode(n *node.Node) (nn.Value, error) {
	v, err := r.Interpreter.RunNode(n)
	r.seen[n.Name()] = v
	return v, err
}

// TestReuseOffWithOverrides: steps that keep the values they see turn
// recycling off unless asked.
func TestReuseOffWithOverrides(t *testing.T) {
	g := parse(t, `
%x = placeholder "x"()
%a = call_function aten.neg.default(%x)
%b = call_function aten.mul.Scalar(%a, 2)
%c = call_function aten.relu.default(%b)
%d = call_function aten.neg.default(%c)
%output = output "output"(%d)`)
	x := randn(t, 1, 32, 64)
	r := &recorder{Interpreter: interp.New(g, nil), seen: map[string]nn.Value{}}
	r.Steps = r
	for range 3 {
		_, err := r.Run(nn.Tensor(x))
		require.NoError(t, err)
	}
	near(t, scaled(x, -1), r.seen["a"])
	near(t, scaled(x, -2), r.seen["b"])
}

// cacher is a module from outside gofx that keeps the tensor it returns.
type cacher struct {
	nn.Base
	t *tensor.Tensor
}

func (c *cacher) Forward(x nn.Value) nn.Value {
	if c.t == nil {
		c.t = scaled(x.Tensor(), 10).Contiguous()
		c.t = tensor.Must(tensor.New(tensor.Float32, c.t.Shape()...))
		require.NoError(nil, c.t.CopyFrom(scaled(x.Tensor(), 10)))
	}
	return nn.Tensor(c.t)
}

// TestReusePinsModuleOutputs: what a module from outside gofx returns is
// never recycled (it may be the module's own).
func TestReusePinsModuleOutputs(t *testing.T) {
	root := &cacher{}
	root.Init(root, "Root")
	c := nn.RegisterModule(&root.Base, "c", &cacher{})
	g := parse(t, `
%x = placeholder "x"()
%m = call_module "c"(%x)
%a = call_function aten.neg.default(%m)
%output = output "output"(%a)`)
	in := interp.New(g, root)
	x := randn(t, 1, 32, 64)
	for i := range 3 {
		out, err := in.Run(nn.Tensor(randn(t, uint64(i+5), 32, 64)))
		if i == 0 {
			// the first run fills the cache from its input
			x = c.t
		}
		require.NoError(t, err)
		near(t, scaled(x, -1), out)
	}
}

// TestReuseParallel runs interpreters of one graph on several goroutines:
// the pool is shared and safe.
func TestReuseParallel(t *testing.T) {
	g := parse(t, `
%x = placeholder "x"()
%a = call_function aten.mul.Scalar(%x, 2)
%b = call_function aten.relu.default(%a)
%c = call_function aten.neg.default(%b)
%d = call_function aten.sub.Tensor(%a, %c)
%output = output "output"(%d)`)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := interp.New(g, nil)
			for i := range 20 {
				x := randn(t, uint64(100*w+i), 32, 64)
				out, err := in.Run(nn.Tensor(x))
				if !assert.NoError(t, err) {
					return
				}
				want := x.Float64s()
				for j, v := range want {
					want[j] = 2*v + 2*max(v, 0)
				}
				wt := tensor.Must(tensor.FromFloat64s(tensor.Float32, want, 32, 64))
				if !assert.True(t, tensor.AllClose(wt, out.Tensor(), 1e-5, 1e-6, false)) {
					return
				}
			}
		}()
	}
	wg.Wait()
}
